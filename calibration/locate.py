"""Finding the playing field in a frame without clicks.

Two stages.  **Rough outline**: candidates are four-sided outlines found in edge maps at several
sensitivities (the field's boundary with the board's frame is usually a clear, long edge; the
whole board or one half of the field often is too).  An outline with more corners than four
(an arm over the board's edge joins it) gives candidates made of four of its long sides.  Each
candidate, in each of its orientations, is warped to the canonical field and scored by what
only a backgammon field has: six alternating points per quarter along the top and bottom edges
(a strong periodic pattern at exactly the point pitch) and a bar down the middle.  A candidate
must show both to count as a board at all; among those the one with the stronger bar wins (an
outline of half the field, or one shifted by a point, passes on a triangle's edge or a column
of checkers, weaker than a real bar).  When nothing scores like a board, :class:`LocateError`
says so instead of guessing.

A bar of the field's own wood beside wooden points shows hardly any edge (its grooves are no
stronger than the grain).  So when no outline shows a clear bar and none is found, the outlines
are judged once more with the points' rhythm standing in for the bar (:func:`points_rhythm`:
six equal points from each short side to the bar, the comb's teeth on the triangles' borders);
a field found so must show its ends as clearly as its long sides.  When that too finds nothing,
the clearest outlines may be the whole board, frame and side trays and all, or a field skewed
onto a tray: the field is looked for inside the best of them (:func:`inner_fields`: its ends
moved in to where the points' rhythm, six equal points from each end to a bar in the middle,
puts them) and these fields are judged, refined and checked the same way.  When still nothing
is found, two last looks: outlines whose points' pattern is faint (wooden points with the grain
across them, :data:`FAINT_SCORE`) count as boards, their fields held to ends as clear as their
long sides; and, for a field seen from a seat that fills the frame and merges with the board's
frame or the picture's edge so that no contour outlines it, outlines made of the longest
straight lines in view (:func:`line_outlines`), their fields held to clear long sides and to
no end on the frame's outer rim (an end showing the points faintly while the table, not the
frame, lies beyond an end: :func:`beyond_ends`).  Last of all, a field that failed only because
one end shows the field's edge faintly (the comb put it a fifth of a point astray, or slanting,
where checkers cover both end points of a board whose field edge is wood against wood) has that
end slid onto the clearest edge near it (:func:`_slid_ends`), then held to an end as clear as a
long side, not on the frame's outer rim, and to every other check.

**Refinement** (:func:`refine_corners`), on the picture straightened by the current corners:

1. each long side (along the points' bases) goes to the long straight edge near it that has
   the points' pattern just inside and plain frame just outside (a board's frame has several
   parallel edges: rim, bevel, the field's own edge; the field's edge may show along only half
   its length, where light points meet the frame, so weaker edges are candidates too);
2. each short side is placed by the points themselves: between it and the bar stand six equal
   points (the bar: the strongest long edges near the middle with one colour between them all
   along, not two columns of checkers beside it), so it is where a comb of six points ending
   at the bar's edge puts the row's edges on the triangles' borders and none on their middles
   (trays and frame edges beside the field do not fool this, and a contour cut by checkers
   does not matter); the comb is sure to about a quarter of a point, so the clearest straight
   edge within that which the comb likes almost as well then places the side exactly;
3. 1 and 2 once more on the improved picture, then every side is snapped to the clear straight
   edge nearest to it.

**Check** (:func:`side_evidence`): a field found must end where a board's field does: just
inside every side the points' detail, just outside it plain frame (a side a point astray, on a
row of checkers or on the frame's outer edge shows about as much on both sides); beyond a long
side no more of the points' pattern (a side slanting across a quarter's points' bases, or run
along its checkers, has the bases beyond it, their change along the row following the one
inside); and whatever vouched for the field, its points stand in their rhythm, six equal points
from each short side to the bar (half a field, with a column of checkers for its bar, does
not; and a field whose bar shows no clear edges must show the points clearly in their rhythm
instead), and where the bar shows clear edges, those six points reach them (a field with its ends
on the frame's outer rim fits six longer points to a bar wider than the bar's edges), and the
bar runs along the field's ends, so it must not show far clearer leaning against them than
upright (:func:`bar_lean`: an end slanting onto the frame's rim or across a row of checkers
leans the straightened bar).  The latest refinement step whose field still looks like a board
and passes this is taken; when only the short sides of the last step fail (the comb misled at
one end by checkers covering the end points), the clear straight edges within a quarter of a
point of them are tried; when the bar leans in a step whose long sides hold (one end slanting
across the field: the comb misled at one end, or the far end of a field seen steeply), each end
in turn is turned along the bar (:func:`_lean_repairs`) and the field refined again from there;
if none passes, the next best outlines are tried, and then :class:`LocateError` says the board
cannot be found rather than give a wrong field.

>>> import numpy as np
>>> locate_field(np.zeros((120, 160, 3), np.uint8))
Traceback (most recent call last):
...
calibration.locate.LocateError: cannot find the board: no backgammon board found in the frame (give the corners with --corners)
"""
from __future__ import annotations

from itertools import combinations

import cv2
import numpy as np

from calibration.geometry import (
    BoardGeometry, Corners, GeometryError, bar_evidence, check_corners, column_median, field_aspect,
    warp,
)

#: Below this pattern score a candidate is not taken for a board.
MIN_SCORE = 0.25
#: Outlines from straight lines (:func:`line_outlines`) are judged a second time down to this
#: pattern score, a field found on one then held to ends as clear as its long sides
#: (:data:`MIN_LONG_SIDE_CONTRAST`): a board of wooden points with the grain running through
#: them shows its points' pitch faintly (the labelled fm-wood photo's true field scores 0.21-0.27
#: under every transform of vision.augment; every other labelled photo's 0.44 and more but one
#: defocused frame's 0.19; true synthetic fields 0.30 and more), while a field skewed across a
#: board with a faint pattern (hard seed 48, 10% off) shows an end on the frame less clearly.
#: (Judging the contours' outlines so too found hard seed 2787 4.6% off and no real photo more.)
FAINT_SCORE = 0.18
#: Bar edge strength (see :func:`calibration.geometry.bar_evidence`) that counts as a clear bar.
BAR_EVIDENCE = 4.0
#: Bar edge strength of a strong bar: outlines are ranked by the bar up to this.
STRONG_BAR = 12.0
#: Refined corners are kept unless their field scores below this share of the rough one's (a
#: refinement gone astray; the score is too blunt to judge finer).
REFINED_KEEP = 0.5
#: Width of the canonical field candidates are scored on: a quick look at all, then a closer
#: look at the few best (the quick score ranks well but decides less surely).
SCORE_WIDTH = 320
QUICK_SCORE_WIDTH = 160
CLOSER_LOOKS = 8
#: An outline with more corners than four (something over the board's edge) gives four-sided
#: candidates from four of its longest sides, each at least this share of the frame's smaller
#: size; the corners they meet at may lie a little outside the frame (this share of its size).
SIDES_CONSIDERED = 10
SIDE_SHARE = 0.1
OUTSIDE_REACH = 0.02
MIN_CORNER_SINE = 0.3
#: Outlines from straight lines (:func:`line_outlines`, when no contour gives a field): lines
#: found by the probabilistic Hough transform with this many votes, at least this share of the
#: frame's smaller size long, bridging gaps of this many pixels; pieces within this many degrees
#: and pixels of each other are one line; lines within this many degrees of the horizontal run
#: across the frame, the others up it; this many of the longest of each are combined.
LINE_VOTES = 50
LINE_MIN_SHARE = 0.2
LINE_GAP = 8
LINE_SAME_DEGREES = 2.0
LINE_SAME_OFFSET = 4.0
ACROSS_LINE_DEGREES = 35.0
LINES_KEPT = 6
#: A field found on such lines must show both long sides this clearly (:func:`side_contrast`;
#: of the first fields found so, those within 1.1% on the real photos seen from a seat and on
#: hard synthetic and solid frames: 0.59 and more, one solid frame's 0.48 at 1.6%; solid seeds
#: 60 and 217, found 3.0-3.5% off, a long side on the frame's rim beyond the field's faint
#: edge: 0.41-0.43).
LINE_LONG_SIDE_CONTRAST = 0.5
#: (Such a field must also show the points' clear rhythm, :data:`CLEAR_RHYTHM`: found so within
#: 1.6%, real fm-wood seen from a seat 0.80-0.84, hard synthetic and solid 0.69 and more; solid
#: seed 418 seen at 54 degrees with both ends on the frame's rim, 9.5% off: 0.27.)
#: Nor may such a field have an end that shows the points faintly (:func:`side_contrast` below
#: this) while beyond an end lies something unlike the board's frame beyond its long sides (more
#: than this far from it, :func:`beyond_ends`): an end on the frame's outer rim, a point beyond
#: the field's, with the frame inside it and the table beyond.  Of the fields found so (hard
#: synthetic 0-2999, solid 0-1499, real-aug, hard 0-30 seen from a seat: 82): the four wrong,
#: 4.5-7.3% off, have an end at 0.17-0.18 and an end 46-137 from the frame; the right ones with
#: an end below 0.25 (0.15-0.24) have both ends within 9.9 of it, those with an end further
#: (real fm-wood seen from a seat 17-47, hard tilted seed 19 33, solid 477 33) both ends at 0.30
#: and more.
LINE_FAINT_END = 0.25
LINE_END_UNLIKE_FRAME = 20.0
#: Work on frames scaled to at most this width (speed; corners are scaled back).
WORK_WIDTH = 640
#: Every side of a field found must show at least this contrast of detail, inside against
#: outside (see :func:`side_contrast`): a long side, where the points' bases meet the frame
#: all along, clearly; a short side, where a side tray or borne-off checkers may lie just
#: beyond the frame, at least some (a side a point astray shows about none or less).
MIN_LONG_SIDE_CONTRAST = 0.4
MIN_SHORT_SIDE_CONTRAST = 0.15
#: Beyond a long side of a field lies the frame: at most this share of the points' pattern
#: just inside it may go on just beyond it (see :func:`side_evidence`: 0 on true fields,
#: up to about 0.13 on fields found 1-2% off; a side slanting across the points' bases of a
#: quarter, or run along its checkers, 0.17 and more).  Both strips are this deep (share of
#: the field's height).
MAX_POINTS_BEYOND = 0.15
POINTS_BEYOND_DEPTH = 0.05
#: Width of the straightened field the sides are checked on.
CHECK_WIDTH = 240
#: Rough outlines refined and checked, best ranked first, before giving up.
OUTLINES_TRIED = 3
#: Where the points' bases are looked at for their rhythm (:func:`points_rhythm`): bands at
#: the top and bottom of the field, as shares of its height; how far from the middle the bar's
#: edges are looked for (share of the width), and how far off the middle the bar may be.
RHYTHM_BANDS = ((0.02, 0.16), (0.84, 0.98))
RHYTHM_BAR_REACH = 0.07
RHYTHM_BAR_OFF_CENTRE = 0.02
#: Points' rhythm that counts as clear: the points' borders show three times the change
#: their middles do.  A field whose bar is not clear (:data:`BAR_EVIDENCE`) must show this
#: rhythm (fields found on the real photos with a bar of the field's own wood, every transform:
#: 0.77 and more; the defocused start-red-black found 10.5% off, one end slanting onto a side
#: tray: bar 2.2, rhythm 0.40).
CLEAR_RHYTHM = 0.5
#: Points' rhythm every field found must show, however it was judged (the borders at least
#: 5/3 the change of the middles; true fields found show 0.55 and more, half a field or one
#: half a point off about 0 or less).
MIN_RHYTHM = 0.25
#: Where the bar shows clear edges, the bar the points' rhythm puts (six equal points from each
#: end, :func:`points_rhythm`) lies on them within this share of a point (true fields found:
#: up to 0.33; a field with both ends on the frame's outer rim: 0.65).
MAX_BAR_ASTRAY = 0.5
#: A field's ends run along the bar (all three cross the rows of points): the bar is looked for
#: also leaning against the field's ends, by up to this share of the field's width over its
#: height in steps of a hundredth (a field with one end slanting across the frame or a row of
#: checkers has its bar leaning by 0.04-0.05 of the width; the points' own slanting edges beside
#: the bar lean by about 0.07).
BAR_LEAN_REACH = 0.05
#: Where the bar leaning shows clear edges (:data:`BAR_EVIDENCE`) and this many times stronger
#: ones than upright, the field's ends slant against the bar (see :func:`bar_lean`; true fields,
#: labelled or found within 2%, hard synthetic and real: at most 1.65; an end slanting by half a
#: point 1.2-2.5, by a point 4-7; the fields found 5-10% off on hard seeds 2918 and 2965: 2.8, 4.3).
MAX_BAR_LEAN_GAIN = 2.0
#: The check's failures (see :func:`_field_failures`) an end slanting across the field explains:
#: a field failing only these is refined again with its ends turned along the bar (see
#: :func:`_lean_repairs`).
END_FAILURES = frozenset({"left", "right", "rhythm", "middle", "bar", "lean"})
#: Fields looked for inside outlines (:func:`inner_fields`): in this many of the best outlines,
#: straightened this wide; each end within this share of the outline's width of its side, the
#: bar this share of the field's width; this many fields per outline.
INNER_OUTLINES = 8
INNER_WIDTH = 240
INNER_END_REACH = 0.3
INNER_BAR_WIDTH = (0.03, 0.12)
INNER_CANDIDATES = 3
#: A field is wider than tall (twelve points and the bar across, each point less than half
#: the height long): a field found inside an outline taller than this for its width (the
#: bound :func:`calibration.geometry.field_aspect` finds plausible) is a piece of one.
MAX_FIELD_ASPECT = 1.3


class LocateError(ValueError):
    """No board could be found automatically."""


def corner_error(found: Corners, truth: Corners) -> float:
    """Largest corner distance as a share of the true field's diagonal.

    >>> round(corner_error(((0, 0), (10, 0), (10, 10), (0, 10)), ((0, 0), (10, 0), (10, 10), (0, 11))), 3)
    0.067
    """
    a, b = np.asarray(found, float), np.asarray(truth, float)
    diagonal = max(np.linalg.norm(b[2] - b[0]), np.linalg.norm(b[3] - b[1]))
    return float(np.linalg.norm(a - b, axis=1).max() / diagonal)


def align_to(found: Corners, truth: Corners) -> Corners:
    """``found`` turned by 180 degrees if that matches ``truth`` better: from the image alone a
    field and the same field upside down cannot be told apart (the calibration decides)."""
    turned = tuple(found[2:]) + tuple(found[:2])
    return turned if corner_error(turned, truth) < corner_error(found, truth) else found  # type: ignore


def _quads(gray: np.ndarray) -> list[np.ndarray]:
    h, w = gray.shape
    min_area = 0.08 * h * w
    found: list[np.ndarray] = []
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    maps = []
    for lo, hi in ((20, 60), (40, 120), (80, 200)):
        edges = cv2.Canny(blurred, lo, hi)
        maps.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    for block in (31, 61):
        maps.append(cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                          cv2.THRESH_BINARY, block, 4))
    for m in maps:
        contours, _ = cv2.findContours(m, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < min_area:
                continue
            hull = cv2.convexHull(contour)
            peri = cv2.arcLength(hull, True)
            approximations = [cv2.approxPolyDP(hull, eps * peri, True)
                              for eps in (0.01, 0.02, 0.04)]
            fours = [a for a in approximations if len(a) == 4]
            if fours:
                quad = fours[0].reshape(4, 2).astype(np.float64)
                if cv2.contourArea(quad.astype(np.float32)) >= min_area:
                    found.append(quad)
            elif len(approximations[0]) > 4:
                approx = approximations[0]
                # Something over the edge: the board's sides are among the long sides of the
                # outline (the contour's own, where the hull would bridge the notch a hand
                # leaves) or of its hull (where it sticks out at a corner).
                for polygon in (approx, cv2.approxPolyDP(contour, 0.01 * peri, True)):
                    found += _quads_from_sides(polygon.reshape(-1, 2).astype(np.float64),
                                               min_area, (w, h))
    # A field's two halves are often the clearest outlines (the bar splits it): join pairs of
    # similar, neighbouring outlines into one.
    singles = list(found)
    for i, a in enumerate(singles):
        for b in singles[i + 1:]:
            area_a = cv2.contourArea(a.astype(np.float32))
            area_b = cv2.contourArea(b.astype(np.float32))
            if not 0.6 < area_a / area_b < 1.67:
                continue
            gap = np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))
            if not 0.5 * np.sqrt(area_a) < gap < 1.6 * np.sqrt(area_a):
                continue
            hull = cv2.convexHull(np.vstack([a, b]).astype(np.float32))
            approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
            if len(approx) == 4:
                found.append(approx.reshape(4, 2).astype(np.float64))
    # Drop near-duplicates.
    unique: list[np.ndarray] = []
    for quad in (_canonical_order(q) for q in found):
        if all(np.abs(quad - u).max() > 4 for u in unique):
            unique.append(quad)
    return unique


def _quads_from_sides(polygon: np.ndarray, min_area: float, size: tuple[int, int]
                      ) -> list[np.ndarray]:
    """Four-sided outlines made of four of a polygon's long sides (extended to meet).

    Something over the board's edge (a hand, an arm, a cup) joins the board's outline and
    adds corners of its own; the board's sides are still among the polygon's long sides, only
    shortened or cut in two.  Each side must lie on the side of the outline it makes (not
    beyond its corners); which outline is the board is left to the scoring.

    >>> corner_covered = np.array([[0, 0], [100, 0], [100, 80], [80, 100], [0, 100]], float)
    >>> quads = _quads_from_sides(corner_covered, 100, (200, 200))
    >>> [[0, 0], [100, 0], [100, 100], [0, 100]] in [q.astype(int).tolist() for q in quads]
    True
    """
    ends = np.roll(polygon, -1, axis=0)
    lengths = np.linalg.norm(ends - polygon, axis=1)
    w, h = size
    long_enough = lengths >= SIDE_SHARE * min(w, h)
    longest = sorted(i for i in np.argsort(-lengths)[:SIDES_CONSIDERED].tolist() if long_enough[i])
    reach = OUTSIDE_REACH * max(w, h)
    quads = []
    for chosen in combinations(longest, 4):
        lines = [(polygon[i], ends[i]) for i in chosen]
        directions = [(b - a) / np.linalg.norm(b - a) for a, b in lines]
        # Neighbouring sides of a field meet at a clear angle, even seen steeply.
        if any(abs(float(a[0] * b[1] - a[1] * b[0])) < MIN_CORNER_SINE
               for a, b in zip(directions[-1:] + directions[:-1], directions)):
            continue
        quad = np.array([line_intersection(lines[k - 1], lines[k]) for k in range(4)], np.float64)
        if not np.isfinite(quad).all() or (quad < -reach).any() or \
                (quad[:, 0] > w + reach).any() or (quad[:, 1] > h + reach).any():
            continue
        if not all(_on_segment(quad[k], quad[(k + 1) % 4], lines[k]) for k in range(4)):
            continue
        if not cv2.isContourConvex(quad.astype(np.float32)):
            continue
        if cv2.contourArea(quad.astype(np.float32)) >= min_area:
            quads.append(quad)
    return quads


def _on_segment(start: np.ndarray, end: np.ndarray, piece: tuple[np.ndarray, np.ndarray]) -> bool:
    """Whether ``piece`` (a polygon side on the line start-end) lies between start and end."""
    direction = end - start
    squared = float(direction @ direction)
    if squared < 1e-9:
        return False
    t = [float((p - start) @ direction) / squared for p in piece]
    return min(t) >= -0.05 and max(t) <= 1.05


def _canonical_order(quad: np.ndarray) -> np.ndarray:
    """Clockwise in image coordinates, starting at the top-left-most corner."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def _scoring_geometry(aspect: float, width: int) -> BoardGeometry:
    """A canonical field ``width`` pixels wide for scoring candidates."""
    geometry = BoardGeometry.default(aspect)
    f = width / geometry.width
    return BoardGeometry(width, int(round(geometry.height * f)),
                         geometry.bar_left * f, geometry.bar_right * f)


def pattern_score(field: np.ndarray, geometry: BoardGeometry) -> float:
    """How much a canonical image looks like a backgammon field: the share of the top and
    bottom bands' column-profile energy at the point pitch, checked in both halves."""
    gray = cv2.cvtColor(field, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = gray.shape
    score = []
    for band in (gray[int(0.05 * h): int(0.3 * h)], gray[int(0.7 * h): int(0.95 * h)]):
        profile = column_median(band)
        for lo, hi in ((0, geometry.bar_left), (geometry.bar_right, w)):
            part = profile[int(lo) + 1: int(hi) - 1]
            if part.size < 24:
                score.append(0.0)
                continue
            part = part - part.mean()
            spectrum = np.abs(np.fft.rfft(part * np.hanning(part.size))) ** 2
            # Six points per quarter: a cycle per point (triangles against the field) and a
            # cycle per two points (the points' two alternating colours).
            peak = 0.0
            for cycles in (6, 3):
                k0 = int(round(cycles * part.size / (hi - lo)))
                peak = max(peak, float(spectrum[max(1, k0 - 1): k0 + 2].sum()))
            score.append(peak / (float(spectrum[1:].sum()) + 1e-6))
    # Every quarter must show its points (checkers hide some, never the pattern everywhere).
    return float(np.sort(score)[1])


def points_rhythm(field: np.ndarray, geometry: BoardGeometry) -> tuple[float, float, float]:
    """How clearly the points' bases on a canonical field stand in four rows of six equal
    points, each row from a short side of the field to the bar: ``(evidence, bar_left,
    bar_right)`` for the bar placement (near the middle) that fits best.

    Along the bases (a band at the top and one at the bottom of the field) the change across
    the columns is strong at the triangles' borders and weak at their middles.  For one quarter
    with its outer edge at ``e`` and the bar's edge at ``b`` the borders are at ``e + k (b - e)
    / 6``; its evidence is ``(borders - middles) / (borders + middles)`` of that change, from -1
    to 1.  The field's evidence is the second weakest quarter's (checkers may cover one
    quarter's bases).  A field shifted by half a point, or half a field, puts the comb's teeth
    on the points' middles or out of step with them; this is what tells a board whose bar
    shows no edges of its own (a wooden bar beside wooden points) from a mere outline.

    >>> pitch = 10
    >>> row = np.zeros((30, 13 * pitch, 3), np.uint8)
    >>> for k in range(13):  # alternating dark and light points, the bar plain
    ...     row[:, k * pitch: (k + 1) * pitch] = 0 if k == 6 else (60 if k % 2 else 200)
    >>> evidence, left, right = points_rhythm(row, BoardGeometry(13 * pitch, 30, 60.0, 70.0))
    >>> evidence > 0.5, abs(left - 60) <= 2, abs(right - 70) <= 2
    (True, True, True)
    """
    field = field.astype(np.float32)
    grads = np.abs(cv2.Sobel(field, cv2.CV_32F, 1, 0, ksize=3))
    change = _largest_channel(grads)
    h, w = change.shape
    profiles = []
    for top, bottom in RHYTHM_BANDS:
        profile = column_median(change[int(top * h): max(int(bottom * h), int(top * h) + 1)])
        # A few very strong edges (a checker's rim, glare) must not decide alone.
        profile = np.minimum(profile, np.percentile(profile, 90))
        profiles.append(np.convolve(profile, np.ones(3) / 3, mode="same"))
    mid = w / 2
    inner_left = np.arange(int(mid - RHYTHM_BAR_REACH * w), int(mid - 0.01 * w) + 1)
    inner_right = np.arange(int(np.ceil(mid + 0.01 * w)), int(mid + RHYTHM_BAR_REACH * w) + 1)
    if inner_left.size == 0 or inner_right.size == 0:
        return 0.0, geometry.bar_left, geometry.bar_right

    def quarter(profile: np.ndarray, outer: float, inner: np.ndarray) -> np.ndarray:
        pitch = (inner - outer)[:, None] / 6.0
        borders = outer + pitch * np.arange(1, 6)[None, :]
        middles = outer + pitch * (np.arange(6)[None, :] + 0.5)
        on = profile[np.clip(np.round(borders).astype(int), 0, w - 1)].mean(axis=1)
        off = profile[np.clip(np.round(middles).astype(int), 0, w - 1)].mean(axis=1)
        return (on - off) / (on + off + 1e-6)

    # quarters: (left inner edges) x (right inner edges) x 4
    quarters = np.stack(np.broadcast_arrays(
        *[part for p in profiles for part in (quarter(p, 0.0, inner_left)[:, None],
                                               quarter(p, w - 1.0, inner_right)[None, :])]),
        axis=2)
    second_weakest = np.sort(quarters, axis=2)[:, :, 1]
    # The bar sits in the middle (the corners are only roughly placed).
    off_centre = np.abs((inner_left[:, None] + inner_right[None, :]) / 2 - mid)
    second_weakest[off_centre > RHYTHM_BAR_OFF_CENTRE * w] = -1.0
    i, j = np.unravel_index(int(np.argmax(second_weakest)), second_weakest.shape)
    return float(second_weakest[i, j]), float(inner_left[i]) + 0.5, float(inner_right[j]) + 0.5



def rhythm_and_bar(field: np.ndarray, geometry: BoardGeometry) -> tuple[float, float, float]:
    """The points' rhythm on a canonical field (:func:`points_rhythm`), how far (in points) the
    bar it puts lies from the bar's own edges (:func:`calibration.geometry.bar_evidence`), and
    the bar's edge evidence: ``(rhythm, astray, bar)``.

    On a true field six equal points from each end reach the bar's edges; a field whose ends
    lie a frame's width beyond the field's (on the outer rim) still shows a rhythm, but with
    its points longer and its bar wider than the bar's edges, by most of a point each side.
    """
    rhythm, rhythm_left, rhythm_right = points_rhythm(field, geometry)
    edges, bar = bar_evidence(field, geometry)
    pitch = max(rhythm_left, 1.0) / 6.0
    astray = max(abs(rhythm_left - edges.bar_left), abs(rhythm_right - edges.bar_right)) / pitch
    return rhythm, astray, bar


def bar_lean(field: np.ndarray, geometry: BoardGeometry) -> tuple[float, float, float]:
    """The bar's edge evidence (:func:`calibration.geometry.bar_evidence`) on a canonical field
    upright and at the lean (share of the width across the field's height, up to
    :data:`BAR_LEAN_REACH`) where it is strongest: ``(upright, leaning, lean)``.

    The bar runs across the field parallel to its ends.  A field whose end slants (one corner on
    the frame's outer rim or on a row of checkers) straightens the picture so that the true bar
    leans: upright its two edges blur into the grain, leaning with them they stand out as
    clearly as on the true field.

    >>> pitch = 10
    >>> field = np.full((80, 13 * pitch, 3), 200, np.uint8)
    >>> for y in range(80):  # a dark bar leaning by a twentieth of the width over the height
    ...     x = 60 + int(round(0.05 * 13 * pitch * (y - 40) / 80))
    ...     field[y, x: x + pitch] = 40
    >>> upright, leaning, lean = bar_lean(field, BoardGeometry(13 * pitch, 80, 60.0, 70.0))
    >>> leaning > 2 * upright, round(lean, 2)
    (True, 0.05)
    """
    h, w = field.shape[:2]
    upright = bar_evidence(field, geometry)[1]
    best, best_lean = upright, 0.0
    steps = int(round(BAR_LEAN_REACH * 100))
    for lean in (k / 100 for k in range(-steps, steps + 1) if k):
        # Each row shifted along by the lean's share of the width, more the further from the
        # middle row: the leaning bar stands upright.
        shear = lean * w / h
        straightened = cv2.warpAffine(field, np.float32([[1, -shear, shear * h / 2], [0, 1, 0]]),
                                      (w, h), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE)
        strength = bar_evidence(straightened, geometry)[1]
        if strength > best:
            best, best_lean = strength, lean
    return upright, best, best_lean


def _quarter_table(profile: np.ndarray, outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """Evidence (outer ends x inner ends) that six equal points stand between each outer end
    of a quarter and each inner end (the bar's edge) on a row's column-change ``profile``:
    ``(borders - middles) / (borders + middles)``, as :func:`points_rhythm` measures it."""
    n = profile.size
    o = outer[:, None, None].astype(np.float64)
    i = inner[None, :, None].astype(np.float64)
    pitch = (i - o) / 6.0
    borders = o + pitch * np.arange(1, 6)[None, None, :]
    middles = o + pitch * (np.arange(6)[None, None, :] + 0.5)
    on = profile[np.clip(np.round(borders).astype(int), 0, n - 1)].mean(axis=2)
    off = profile[np.clip(np.round(middles).astype(int), 0, n - 1)].mean(axis=2)
    return (on - off) / (on + off + 1e-6)


def inner_fields(small: np.ndarray, corners: Corners) -> list[np.ndarray]:
    """Fields inside the outline ``corners`` (its long sides kept, its ends moved in) where
    the points' rhythm puts them: up to :data:`INNER_CANDIDATES` outlines, best first.

    The clearest outline of a board may be the whole board: frame, side trays and all.  Its
    long sides lie near the field's (the frame beyond the points' bases is narrow), its ends
    do not.  Along the points' bases the field's four quarters each hold six equal points
    from an end to the bar, the bar in the middle between the two ends; every pair of ends
    (each within :data:`INNER_END_REACH` of the outline's width of its side) is judged with
    the bar width that fits best by the second weakest quarter's rhythm (as
    :func:`points_rhythm`).  Ends a point astray can fit almost as well, so the few best
    distinct pairs are returned for the usual judgement and check to choose among; a pair
    making a field taller than :data:`MAX_FIELD_ASPECT` of its width (a few points each side
    of the bar, at half their pitch) is none.

    >>> pitch, frame = 10, 40
    >>> row = np.full((60, 13 * pitch + 2 * frame, 3), 120, np.uint8)
    >>> for k in range(13):  # alternating dark and light points, the bar plain, wide trays
    ...     x = frame + k * pitch
    ...     row[:, x: x + pitch] = 120 if k == 6 else (60 if k % 2 else 200)
    >>> outline = ((0, 0), (row.shape[1] - 1, 0), (row.shape[1] - 1, 59), (0, 59))
    >>> best = inner_fields(row, outline)[0]
    >>> bool(abs(best[0, 0] - frame) <= 3 and abs(best[1, 0] - (frame + 13 * pitch)) <= 3)
    True
    """
    checked = check_corners(np.asarray(corners, np.float64))
    w = INNER_WIDTH
    h = max(16, int(round(w * field_aspect(checked, (small.shape[1], small.shape[0])))))
    matrix = cv2.getPerspectiveTransform(np.float32(checked),
                                         np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    rect = cv2.warpPerspective(small, matrix, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    grads = np.abs(cv2.Sobel(rect, cv2.CV_32F, 1, 0, ksize=3))
    change = _largest_channel(grads)
    profiles = []
    for top, bottom in RHYTHM_BANDS:
        profile = column_median(change[int(top * h): max(int(bottom * h), int(top * h) + 1)])
        # A few very strong edges (a tray's rim, a checker's glare) must not decide alone.
        profile = np.minimum(profile, np.percentile(profile, 90))
        profiles.append(np.convolve(profile, np.ones(3) / 3, mode="same"))
    reach = int(INNER_END_REACH * w)
    lefts, rights = np.arange(0, reach + 1), np.arange(w - 1 - reach, w)
    bar_lefts = np.arange(int(0.2 * w), int(0.55 * w))
    bar_rights = np.arange(int(0.45 * w), int(0.8 * w))
    left_quarters = [_quarter_table(p, lefts, bar_lefts) for p in profiles]
    right_quarters = [_quarter_table(p, rights, bar_rights) for p in profiles]
    # Every pair of ends (left x right) with bars of several widths centred between them.
    left_end, right_end = lefts[:, None, None], rights[None, :, None]
    shares = np.linspace(INNER_BAR_WIDTH[0], INNER_BAR_WIDTH[1], 12)[None, None, :]
    half_bar = shares * (right_end - left_end) / 2.0
    centre = (left_end + right_end) / 2.0
    bar_left = np.round(centre - half_bar).astype(int) - bar_lefts[0]
    bar_right = np.round(centre + half_bar).astype(int) - bar_rights[0]
    usable = (bar_left >= 0) & (bar_left < bar_lefts.size) & \
        (bar_right >= 0) & (bar_right < bar_rights.size)
    bar_left = np.clip(bar_left, 0, bar_lefts.size - 1)
    bar_right = np.clip(bar_right, 0, bar_rights.size - 1)
    li = np.broadcast_to(np.arange(lefts.size)[:, None, None], bar_left.shape)
    ri = np.broadcast_to(np.arange(rights.size)[None, :, None], bar_right.shape)
    quarters = np.stack([left_quarters[0][li, bar_left], right_quarters[0][ri, bar_right],
                         left_quarters[1][li, bar_left], right_quarters[1][ri, bar_right]],
                        axis=-1)
    # Checkers may cover one quarter's bases: the second weakest quarter speaks for the field.
    second_weakest = np.sort(quarters, axis=-1)[..., 1]
    second_weakest[~usable] = -1.0
    best = second_weakest.max(axis=2)
    inverse = np.linalg.inv(matrix)
    taken: list[tuple[float, float]] = []
    fields: list[np.ndarray] = []
    for flat in np.argsort(best, axis=None)[::-1][:2000].tolist():
        a, b = divmod(flat, rights.size)
        if best[a, b] <= 0 or len(fields) >= INNER_CANDIDATES:
            break
        x0, x1 = float(lefts[a]), float(rights[b]) + 1.0
        if h > MAX_FIELD_ASPECT * (x1 - x0):
            continue
        # Ends within half a point of a pair taken are the same field.
        pitch = (x1 - x0) / 13
        if any(abs(x0 - t0) < 0.5 * pitch and abs(x1 - t1) < 0.5 * pitch for t0, t1 in taken):
            continue
        taken.append((x0, x1))
        ends = np.float32([[x0, 0], [x1, 0], [x1, h], [x0, h]])[None]
        fields.append(cv2.perspectiveTransform(ends, inverse)[0].astype(np.float64))
    return fields


def side_contrast(frame: np.ndarray, corners: Corners) -> dict[str, float]:
    """How clearly each side of the field on ``corners`` is the field's edge (see
    :func:`side_evidence`, whose first answer this is).

    >>> side_contrast(np.zeros((100, 160, 3), np.uint8), ((20, 20), (140, 20), (140, 80), (20, 80)))
    {'top': 0.0, 'right': 0.0, 'bottom': 0.0, 'left': 0.0}
    """
    return side_evidence(frame, corners)[0]


def side_evidence(frame: np.ndarray, corners: Corners
                  ) -> tuple[dict[str, float], dict[str, float]]:
    """How clearly each side (top, right, bottom, left) of the field on ``corners`` is the
    field's edge: ``(inside - outside) / (inside + outside)`` of the detail in a strip just
    inside the side and one just outside it, from -1 to 1.

    Along a short side the detail is the change down each column within the points' bands:
    every column through a point crosses a triangle's edge, the board's frame beyond the last
    point is plain.  Along a long side it is the change along each row: the points' bases
    alternate colours, the frame beyond them is plain.  Each is the smaller of the field's two
    rows (or halves): checkers add detail of their own, rarely on both.  A field one point too
    wide or too narrow, or with a long side on a row of checkers, has points on both sides of
    one side (about 0), or frame on both.  A side with its inside strip mostly beyond the
    frame's border shows nothing (0); where only the outside strip is, the plainest detail
    seen stands for it.

    The second answer, for each long side (top, bottom), is how much of the points' pattern
    goes on beyond it (:data:`MAX_POINTS_BEYOND`): just inside a long side the points' bases
    alternate along the row, and beyond the field's edge lies the frame, which may show detail
    of its own (a die, a tray, the frame's bevels) but not the points' pattern.  A long side
    run along a row of checkers, or across the points' bases at a slant, has the points' bases
    beyond it, where the change along the row follows the change just inside.  Point by point
    (six to each half of the row): the slope of the change along the row outside against the
    change inside (a least-squares fit of the one on the other); the median of a half's six
    (a checker or a die across the side shows on both strips at a point or two, the points'
    bases at every point), the larger of the two halves.

    >>> contrast, beyond = side_evidence(np.zeros((100, 160, 3), np.uint8),
    ...                                  ((20, 20), (140, 20), (140, 80), (20, 80)))
    >>> contrast, beyond
    ({'top': 0.0, 'right': 0.0, 'bottom': 0.0, 'left': 0.0}, {'top': 0.0, 'bottom': 0.0})
    """
    checked = check_corners(np.asarray(corners, np.float64))
    w = CHECK_WIDTH
    h = max(16, int(round(w * field_aspect(checked, (frame.shape[1], frame.shape[0])))))
    m = int(0.1 * w)
    dst = np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]])
    matrix = cv2.getPerspectiveTransform(np.float32(checked), dst)
    size = (w + 2 * m, h + 2 * m)
    rect = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR)
    rect = cv2.GaussianBlur(rect, (0, 0), 1.0).astype(np.float32)
    seen = cv2.warpPerspective(np.ones(frame.shape[:2], np.uint8), matrix, size,
                               flags=cv2.INTER_NEAREST)
    seen = cv2.erode(seen, np.ones((5, 5), np.uint8)).astype(np.float32)

    def detail(dx: int, dy: int) -> np.ndarray:
        grads = np.abs(cv2.Sobel(rect, cv2.CV_32F, dx, dy, ksize=3))
        return _largest_channel(grads) * seen

    def mean_profile(values: np.ndarray, counts: np.ndarray, axis: int) -> np.ndarray:
        return values.sum(axis=axis) / np.maximum(counts.sum(axis=axis), 1.0)

    gy, gx = detail(0, 1), detail(1, 0)
    # Per column of each row of points, per row of each half (a side may be right along one
    # and astray along the other: leaning, or cut by a row of checkers).
    bands = [(m + int(a * h), m + int(b * h)) for a, b in ((0.04, 0.3), (0.7, 0.96))]
    columns = [(gy[a:b].sum(axis=0), seen[a:b].sum(axis=0), b - a) for a, b in bands]
    halves = [(m + int(a * w), m + int(b * w)) for a, b in ((0.03, 0.45), (0.55, 0.97))]
    rows = [(gx[:, a:b].sum(axis=1), seen[:, a:b].sum(axis=1), b - a) for a, b in halves]
    pitch = w / 13  # a point, about (twelve and a bar)

    def strip(profile: tuple[np.ndarray, np.ndarray, int], start: float, end: float
              ) -> tuple[float, float]:
        """Mean detail in a strip across ``profile`` and the share of the strip seen."""
        values, counts, thickness = profile
        lo, hi = sorted((int(round(start)), int(round(end))))
        hi = max(hi, lo + 1)
        seen_count = float(counts[lo:hi].sum())
        return (float(values[lo:hi].sum()) / max(seen_count, 1.0),
                seen_count / ((hi - lo) * max(thickness, 1)))

    def contrast(profiles: list, at: int, inward: int, gap: float, depth: float) -> float:
        worst = 1.0
        for profile in profiles:
            inside, seen_inside = strip(profile, at + inward * gap, at + inward * (gap + depth))
            outside, seen_outside = strip(profile, at - inward * gap, at - inward * (gap + depth))
            if seen_outside < 0.5:
                # The field reaches the frame's border here: its inside is held against the
                # plainest detail seen across the field and beyond it instead.
                values, counts, _ = profile
                outside = float(np.percentile(values[counts > 0] / counts[counts > 0], 10)) \
                    if (counts > 0).any() else 0.0
            # A side with its inside mostly out of the frame shows nothing of the field.
            value = (inside - outside) / (inside + outside) \
                if inside + outside > 1e-3 and seen_inside >= 0.5 else 0.0
            worst = min(worst, value)
        return round(worst, 6)

    def beyond(at: int, inward: int) -> float:
        """How much of the points' pattern along the row just inside the long side at ``at``
        goes on just beyond it (0 where beyond is mostly out of the frame)."""
        def along_row(start: float, end: float) -> tuple[np.ndarray, np.ndarray]:
            lo, hi = sorted((int(round(start)), int(round(end))))
            hi = max(hi, lo + 1)
            counts = seen[lo:hi].sum(axis=0)
            return gx[lo:hi].sum(axis=0) / np.maximum(counts, 1.0), counts / (hi - lo)
        gap, depth = 0.01 * h, POINTS_BEYOND_DEPTH * h
        inside, _ = along_row(at + inward * gap, at + inward * (gap + depth))
        outside, seen_outside = along_row(at - inward * gap, at - inward * (gap + depth))
        most = 0.0
        for a, b in halves:
            if seen_outside[a:b].mean() < 0.5:
                continue
            # Point by point (six to a half), the median: a checker or a die across the
            # side shows on both strips at one or two points, the points' bases at all.
            slopes = []
            for piece in np.array_split(np.arange(a, b), 6):
                i, o = inside[piece], outside[piece]
                i, o = i - i.mean(), o - o.mean()
                slopes.append(float((i * o).mean() / ((i * i).mean() + 1e-6)))
            most = max(most, float(np.median(slopes)))
        return round(most, 6)

    # Beside a short side the strips are a quarter of a point wide: a side tray often starts
    # not much further out than that.
    return ({"top": contrast(rows, m, 1, 0.01 * h, 0.04 * h),
             "right": contrast(columns, m + w, -1, 0.05 * pitch, 0.25 * pitch),
             "bottom": contrast(rows, m + h, -1, 0.01 * h, 0.04 * h),
             "left": contrast(columns, m, 1, 0.05 * pitch, 0.25 * pitch)},
            {"top": beyond(m, 1), "bottom": beyond(m + h, -1)})


def beyond_ends(frame: np.ndarray, corners: Corners) -> dict[str, float]:
    """How unlike the board's frame beyond the long sides of the field on ``corners`` is what
    lies just beyond each end (left, right): the distance (8-bit Lab) of the median colour of a
    strip just beyond the end to the nearer of the median colours just beyond the long sides;
    0 where the strip beyond lies mostly outside the frame (nothing seen to judge).

    Beyond each end of a field lies the board's frame (or a side tray), as beyond its long
    sides; beyond an end put on the frame's outer rim lies the table.

    >>> board = np.full((100, 160, 3), 90, np.uint8)  # the frame, and a field inside it
    >>> board[20:80, 20:140] = 200
    >>> field = ((20, 20), (140, 20), (140, 80), (20, 80))
    >>> beyond_ends(board, field)
    {'left': 0.0, 'right': 0.0}
    >>> board[:, 140:] = (0, 160, 0)  # a green table beyond the right end
    >>> {side: round(unlike) for side, unlike in beyond_ends(board, field).items()}
    {'left': 0, 'right': 97}
    """
    checked = check_corners(np.asarray(corners, np.float64))
    w = CHECK_WIDTH
    h = max(16, int(round(w * field_aspect(checked, (frame.shape[1], frame.shape[0])))))
    m = int(0.1 * w)
    matrix = cv2.getPerspectiveTransform(
        np.float32(checked), np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]]))
    size = (w + 2 * m, h + 2 * m)
    lab = cv2.cvtColor(cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR),
                       cv2.COLOR_BGR2LAB).astype(np.float32)
    seen = cv2.erode(cv2.warpPerspective(np.ones(frame.shape[:2], np.uint8), matrix, size,
                                         flags=cv2.INTER_NEAREST), np.ones((5, 5), np.uint8)) > 0

    def median_colour(rows: tuple[int, int], columns: tuple[int, int]) -> np.ndarray | None:
        inside = seen[rows[0]: rows[1], columns[0]: columns[1]]
        if inside.size == 0 or inside.mean() < 0.5:
            return None
        return np.median(lab[rows[0]: rows[1], columns[0]: columns[1]][inside], axis=0)

    # The strips beyond the long sides are as deep as side_evidence's; beyond an end, from a
    # tenth to two fifths of a point (a side tray may start not much further out).
    near, far = int(0.01 * h), max(int(0.05 * h), int(0.01 * h) + 1)
    frames_seen = [colour for colour in (median_colour((m - far, m - near), (m, m + w)),
                                         median_colour((m + h + near, m + h + far), (m, m + w)))
                   if colour is not None]
    pitch = w / 13
    start, end = int(0.1 * pitch), int(0.4 * pitch)
    unlike = {}
    for name, columns in (("left", (m - end, m - start)), ("right", (m + w + start, m + w + end))):
        colour = median_colour((m, m + h), columns)
        unlike[name] = 0.0 if colour is None or not frames_seen else round(min(
            float(np.linalg.norm(colour - seen_colour)) for seen_colour in frames_seen), 6)
    return unlike


def work_copy(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame scaled down to at most :data:`WORK_WIDTH` wide, and the scale (frame pixels to
    its pixels): the outlines are found and the fields checked on it.

    >>> small, scale = work_copy(np.zeros((720, 1280, 3), np.uint8))
    >>> small.shape, scale
    ((360, 640, 3), 0.5)
    """
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    if scale >= 1:
        return frame, 1.0
    return cv2.resize(frame, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA), scale


def locate_field(frame: np.ndarray, trace: list[np.ndarray] | None = None) -> Corners:
    """The field's corners (top-left, top-right, bottom-right, bottom-left) in frame pixels.

    Outlines are first judged by the points' pattern and a clear bar; only when that finds no
    field that checks out and no outline looked at closely shows a clear bar, again by the
    pattern and the points' rhythm instead of the bar (:func:`points_rhythm`: a bar of the same
    wood as the field shows no edges of its own).
    """
    small, scale = work_copy(frame)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    outlines = _both_ways(_quads(gray))
    # The same outline is scored, refined and checked again by the later judgements (by the
    # points' rhythm, inside outlines): each is worked out once per frame.
    memo: dict = {}
    try:
        return _locate_with_inner(frame, small, scale, outlines, trace, memo)
    except LocateError as error:
        # Only when nothing else is found, so a field found otherwise is found the same.
        # Seen from a seat the field fills much of the frame and its outline merges with the
        # board's frame, a side tray or the picture's edge: no contour shows it, but its four
        # sides are among the longest straight edges in view (:func:`line_outlines`).
        lines = _both_ways(line_outlines(gray))
        memo[LINE_STAGE] = True
        # A board whose points show their pitch only faintly (wooden points, the grain across
        # them) is judged once more with outlines of a fainter pattern (:data:`FAINT_SCORE`).
        for faint in (False, True):
            try:
                found = _locate_in(frame, small, scale, lines, trace, memo, faint)
            except LocateError:
                continue
            if not _line_field_failures(small, check_corners(np.asarray(found) * scale)):
                return found
        # Last, the fields that failed only at an end, that end slid onto the field's edge.
        slid = _slid_ends(small, memo)
        if slid is not None:
            if trace is not None:
                trace.append(slid / scale)
            return tuple((float(x), float(y)) for x, y in slid / scale)  # type: ignore
        raise error from None


#: Keys in a frame's memo: the fields that failed the check only at their ends (with what they
#: were judged by), and whether the outlines judged now are the line stage's.
ENDS_ASTRAY = ("ends astray",)
LINE_STAGE = ("line stage",)
#: When nothing else finds a field, the first this many fields that failed only at one end
#: (:func:`_slid_ends`) have that end's corners slid along the field, each in turn, by up to
#: this share of a point (a thirteenth of the field's width, as :func:`side_evidence` counts) in
#: steps of this, to where the end shows the clearest edge.  The refined fields of the real
#: fm-wood photo (walnut points and frame, checkers on both end points) have their right end up
#: to 0.2 of a point astray at a corner, where it shows 0.07-0.09 (:func:`side_contrast`; the
#: labelled end 0.26-0.54, falling to 0.1 or less 0.2 of a point either side of it).  Slid, the
#: end must show :data:`MIN_LONG_SIDE_CONTRAST`: of the fields slid so that passed every other
#: check on the frames refused before (hard synthetic flat 0-2999: 120, solid 0-1499: 90,
#: real-aug: 11), those more than 3% off (4.5-10%) show at most 0.397 (solid 973, an end on the
#: frame's rim, refused by :func:`_end_on_rim` too) and else 0.31 (hard 551, solid 1135); the
#: real fm-wood fields 0.44-0.45; right synthetic ones 0.15-0.62 (most, below 0.4, stay
#: refused).
ENDS_SLID = 8
END_SLIDE_REACH = 0.3
END_SLIDE_STEP = 0.1


def _slid_ends(small: np.ndarray, memo: dict) -> np.ndarray | None:
    """A field (in ``small``'s pixels) among those that failed only at an end, that end slid
    onto the field's edge so that every check holds; None when none does."""
    # Only fields failing at one end: the other end vouches for them (a field a point or more
    # astray, one end on a tray's edge and the other on a row of points, fails at both).
    candidates = [item for item in memo.get(ENDS_ASTRAY, {}).values() if len(item[4]) == 1]
    for corners, rough, by_points, faint, (name,), from_lines in candidates[:ENDS_SLID]:
        try:
            slid = np.asarray(check_corners(_slide_end(small, corners, name)), np.float64)
        except GeometryError:
            continue
        # Slid, the end no longer stands where the points' comb put it: it must show the
        # field's edge as clearly as a long side does, and not be the frame's outer rim.
        contrast = side_contrast(small, slid)
        if contrast[name] < MIN_LONG_SIDE_CONTRAST or _end_on_rim(small, slid, contrast):
            continue
        if _field_failures(small, slid, rough, by_points, None, faint):
            continue
        if from_lines and _line_field_failures(small, slid):
            continue
        return slid
    return None


def _slide_end(small: np.ndarray, corners: np.ndarray, name: str) -> np.ndarray:
    """``corners`` with the end ``name`` (left, right) slid, each of its corners in turn, to
    where it shows the clearest edge (:func:`side_contrast`) within :data:`END_SLIDE_REACH` of a
    point."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_frame = cv2.getPerspectiveTransform(unit, np.float32(corners))
    ends = (1, 2) if name == "right" else (0, 3)
    outward = 1.0 if name == "right" else -1.0
    shifts = np.zeros(4)

    def placed(moved: np.ndarray) -> np.ndarray:
        quad = unit.astype(np.float64).copy()
        quad[:, 0] += moved / 13  # a point, about (twelve and a bar)
        return cv2.perspectiveTransform(np.float32(quad)[None], to_frame)[0].astype(np.float64)

    def clearness(moved: np.ndarray) -> float:
        try:
            return side_contrast(small, check_corners(placed(moved)))[name]
        except GeometryError:
            return -1.0

    steps = int(round(END_SLIDE_REACH / END_SLIDE_STEP))
    for corner in ends:
        trials = []
        for step in range(-steps, steps + 1):
            moved = shifts.copy()
            moved[corner] = outward * step * END_SLIDE_STEP
            # The clearest, and of equally clear places the nearest.
            trials.append((clearness(moved), -abs(step), moved))
        shifts = max(trials, key=lambda trial: trial[:2])[2]
    return placed(shifts)


def _line_field_failures(small: np.ndarray, corners: Corners) -> list[str]:
    """Why a field found among :func:`line_outlines` (``corners`` in ``small``'s pixels) is
    not the board's, beyond :func:`_field_failures`: ``"sides"``, ``"rhythm"``, ``"rim end"``;
    none when it holds.

    Seen steeply, the frame's near rim or far bevel is a straight edge just beyond the field's
    own faint one: a field from lines must end clearly along the points
    (:data:`LINE_LONG_SIDE_CONTRAST`), and its points stand clearly in their rhythm
    (:data:`CLEAR_RHYTHM`: ends on the frame's outer rim or a tray, a point and more astray
    each, keep a faint rhythm).  An end on the frame's outer rim shows the points faintly (the
    frame lies inside it, :data:`LINE_FAINT_END`) and has the table, not the frame, beyond it
    (:func:`beyond_ends`, :data:`LINE_END_UNLIKE_FRAME`).
    """
    contrast = side_contrast(small, corners)
    if min(contrast["top"], contrast["bottom"]) < LINE_LONG_SIDE_CONTRAST:
        return ["sides"]
    geometry = _scoring_geometry(field_aspect(corners, (small.shape[1], small.shape[0])),
                                 SCORE_WIDTH)
    if points_rhythm(warp(small, corners, geometry), geometry)[0] < CLEAR_RHYTHM:
        return ["rhythm"]
    if _end_on_rim(small, corners, contrast):
        return ["rim end"]
    return []


def _end_on_rim(small: np.ndarray, corners: Corners, contrast: dict[str, float]) -> bool:
    """Whether the field on ``corners`` has an end showing the points faintly
    (:data:`LINE_FAINT_END`, ``contrast`` its :func:`side_contrast`) while beyond an end lies
    something unlike the board's frame (:func:`beyond_ends`, :data:`LINE_END_UNLIKE_FRAME`): an
    end on the frame's outer rim, the table beyond it."""
    return min(contrast["left"], contrast["right"]) < LINE_FAINT_END and \
        max(beyond_ends(small, corners).values()) > LINE_END_UNLIKE_FRAME


def _both_ways(quads: list[np.ndarray]) -> list[Corners]:
    """Each outline in both orders (either pair of sides may be the long sides; 180 degrees
    is the same field)."""
    outlines: list[Corners] = []
    for quad in quads:
        ordered = _canonical_order(quad)
        for shift in range(2):
            try:
                outlines.append(check_corners(np.roll(ordered, -shift, axis=0)))
            except GeometryError:
                continue
    return outlines


def line_outlines(gray: np.ndarray) -> list[np.ndarray]:
    """Four-sided outlines made of the longest straight edges in ``gray``: two of the
    :data:`LINES_KEPT` longest lines within :data:`ACROSS_LINE_DEGREES` of the horizontal and
    two of the longest others, each quad convex, at least 8% of the frame, its corners within
    :data:`OUTSIDE_REACH` of it.

    Pieces of one line (a side cut by checkers, found at two sensitivities) count as one, their
    lengths summed.

    >>> gray = np.zeros((200, 300), np.uint8)
    >>> gray[40:160, 50:250] = 200
    >>> quads = line_outlines(gray)
    >>> any(np.abs(np.sort(q, axis=0) - np.sort(np.float64(
    ...     [[50, 40], [249, 40], [249, 159], [50, 159]]), axis=0)).max() < 3 for q in quads)
    True
    """
    h, w = gray.shape
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    segments: list[np.ndarray] = []
    for low, high in ((20, 60), (40, 120)):
        found = cv2.HoughLinesP(cv2.Canny(blurred, low, high), 1, np.pi / 360, LINE_VOTES,
                                minLineLength=int(LINE_MIN_SHARE * min(w, h)),
                                maxLineGap=LINE_GAP)
        if found is not None:
            segments.extend(found.reshape(-1, 4).astype(np.float64))
    segments.sort(key=lambda seg: -float(np.hypot(seg[2] - seg[0], seg[3] - seg[1])))
    lines: list[list] = []  # angle (0..pi), offset along its normal, summed length, a segment
    same_turn = np.radians(LINE_SAME_DEGREES)
    for x1, y1, x2, y2 in segments:
        length = float(np.hypot(x2 - x1, y2 - y1))
        angle = float(np.arctan2(y2 - y1, x2 - x1) % np.pi)
        offset = float(-np.sin(angle) * x1 + np.cos(angle) * y1)
        for line in lines:
            turn = abs(line[0] - angle)
            # (Angles either side of 0 / pi are near, their normals opposite.)
            if (turn < same_turn and abs(line[1] - offset) < LINE_SAME_OFFSET) or \
                    (np.pi - turn < same_turn and abs(line[1] + offset) < LINE_SAME_OFFSET):
                line[2] += length
                break
        else:
            lines.append([angle, offset, length, ((x1, y1), (x2, y2))])
    across_limit = np.radians(ACROSS_LINE_DEGREES)
    across = [line for line in lines if min(line[0], np.pi - line[0]) < across_limit]
    upright = [line for line in lines if min(line[0], np.pi - line[0]) >= across_limit]
    across = sorted(across, key=lambda line: -line[2])[:LINES_KEPT]
    upright = sorted(upright, key=lambda line: -line[2])[:LINES_KEPT]
    reach = OUTSIDE_REACH * max(w, h)
    quads = []
    for first, second in combinations(across, 2):
        for left, right in combinations(upright, 2):
            quad = np.array([line_intersection(a[3], b[3]) for a, b in
                             ((first, left), (first, right), (second, right), (second, left))])
            if not np.isfinite(quad).all() or (quad < -reach).any() or \
                    (quad[:, 0] > w + reach).any() or (quad[:, 1] > h + reach).any():
                continue
            outline = quad.astype(np.float32)
            if cv2.isContourConvex(outline) and cv2.contourArea(outline) >= 0.08 * w * h:
                quads.append(quad)
    return quads


def _locate_with_inner(frame: np.ndarray, small: np.ndarray, scale: float,
                       outlines: list[Corners], trace: list[np.ndarray] | None, memo: dict
                       ) -> Corners:
    """The field among ``outlines`` (see :func:`_locate_in`), else inside the best of them
    (:func:`inner_fields`)."""
    try:
        return _locate_in(frame, small, scale, outlines, trace, memo)
    except LocateError as error:
        # The clearest outlines may be the whole board (frame, side trays and all) or a field
        # skewed onto a tray: the field is then looked for inside the best of them, its ends
        # where the points' rhythm puts them (:func:`inner_fields`).
        quick = sorted(((board_score(small, corners, QUICK_SCORE_WIDTH, memo=memo)[1], corners)
                        for corners in outlines), key=lambda item: -item[0])
        inner: list[Corners] = []
        for _, corners in quick[:INNER_OUTLINES]:
            for found in inner_fields(small, corners):
                try:
                    inner.append(check_corners(found))
                except GeometryError:
                    continue
        if not inner:
            raise
        try:
            return _locate_in(frame, small, scale, inner, trace, memo)
        except LocateError:
            raise error from None


def _locate_in(frame: np.ndarray, small: np.ndarray, scale: float, outlines: list[Corners],
               trace: list[np.ndarray] | None, memo: dict | None = None, faint: bool = False
               ) -> Corners:
    """The field among ``outlines``: judged by the bar, else (when no outline shows a clear
    bar) by the points' rhythm; :class:`LocateError` when neither finds one.  ``memo`` keeps
    what was worked out about each outline for the next judgement (see :func:`_locate_among`)."""
    bars: list[float] = []
    try:
        return _locate_among(frame, small, scale, outlines, False, trace, bars, memo, faint)
    except LocateError as error:
        # The points alone vouch for a field only where no outline shows a clear bar (a bar of
        # the field's own wood): where one does, the board is judged by it, and an outline
        # whose bar is weak is a field astray (skewed onto a tray, a point off), not a
        # board without a bar.
        if max(bars, default=0.0) >= BAR_EVIDENCE:
            raise
        try:
            return _locate_among(frame, small, scale, outlines, True, trace, memo=memo,
                                 faint=faint)
        except LocateError as second:
            # The first judgement's reason, unless only the second saw something like a board.
            raise second if "does not end" in str(second) else error


def _locate_among(frame: np.ndarray, small: np.ndarray, scale: float, outlines: list[Corners],
                  by_points: bool, trace: list[np.ndarray] | None,
                  bars: list[float] | None = None, memo: dict | None = None,
                  faint: bool = False) -> Corners:
    """The field among ``outlines`` (in ``small``'s pixels), judged as :func:`board_score`
    does with ``by_points``, refined and checked; :class:`LocateError` when none checks out.
    ``bars`` collects the bar evidence of the outlines looked at closely; ``memo`` (one per
    frame) keeps scores, refinements and side checks for the next call: the refinement does
    not depend on how outlines are judged, so an outline tried by both judgements is refined
    once.  ``faint``: outlines scoring down to :data:`FAINT_SCORE` count as boards, and their
    fields must end clearly at every side."""
    memo = {} if memo is None else memo
    quick = [(board_score(small, corners, QUICK_SCORE_WIDTH, by_points, memo=memo)[1], corners)
             for corners in outlines]
    # A quick look at every outline, a closer one at the few best; those that look like a board
    # at all are tried best ranked first.
    quick.sort(key=lambda item: -item[0])
    boards: list[tuple[float, float, Corners]] = []
    for _, corners in quick[:CLOSER_LOOKS]:
        score, rank = board_score(small, corners, by_points=by_points, bars=bars, memo=memo)
        if score >= (FAINT_SCORE if faint else MIN_SCORE):
            boards.append((rank, score, corners))
    if not boards:
        raise LocateError("cannot find the board: no backgammon board found in the frame "
                          "(give the corners with --corners)")
    boards.sort(key=lambda item: -item[0])
    for _, score, corners in boards[:OUTLINES_TRIED]:
        key = ("refined", np.asarray(corners, np.float64).tobytes())
        if key not in memo:
            memo[key] = [np.asarray(corners, np.float64) / scale]
            refine_corners(frame, memo[key][0], memo[key])
        steps = [step.copy() for step in memo[key]]
        if trace is not None:
            trace.extend(step.copy() for step in steps)
        # The refinement follows edges and the points' rhythm and may wander off (onto a
        # strong edge that is not the field's, a column of checkers taken for the bar): the
        # latest step whose field still looks like a board and ends where the field does
        # (every side with points inside and plain frame outside) is taken.
        for found in reversed(steps):
            if _field_checks_out(small, found * scale, score, by_points, memo, faint):
                if trace is not None:
                    trace.append(found.copy())
                return tuple((float(x), float(y)) for x, y in found)  # type: ignore[return-value]
        # The comb places a short side to about a quarter of a point, and where checkers
        # cover the points at both ends of it, one end of the side may stray onto the frame
        # (the field's edge then shows no points inside): when only the short sides fail the
        # check, the clear straight edges within that reach are tried for them.
        failed = _field_failures(small, steps[-1] * scale, score, by_points, memo, faint)
        if failed and set(failed) <= {"left", "right"}:
            for found in _short_side_repairs(frame, steps[-1], failed):
                if _field_checks_out(small, found * scale, score, by_points, memo, faint):
                    if trace is not None:
                        trace.append(found.copy())
                    return tuple((float(x), float(y)) for x, y in found)  # type: ignore
        # An end slanting across the field (the comb misled by checkers on its first points,
        # or the far end of a field seen steeply) leans the straightened bar: each end in turn
        # is turned so that the bar would stand upright, and the field refined from there
        # (only from steps whose long sides and score hold: an end cannot mend those).
        slanting = [step for step in steps if set(
            _field_failures(small, step * scale, score, by_points, memo, faint)) <= END_FAILURES]
        for turned in _lean_repairs(small, scale, slanting, memo):
            key = ("refined", turned.tobytes())
            if key not in memo:
                memo[key] = [turned]
                refine_corners(frame, turned, memo[key])
            if trace is not None:
                trace.extend(step.copy() for step in memo[key])
            for found in reversed(memo[key]):
                if _field_checks_out(small, found * scale, score, by_points, memo, faint):
                    if trace is not None:
                        trace.append(found.copy())
                    return tuple((float(x), float(y)) for x, y in found)  # type: ignore
    raise LocateError("cannot find the board: what looks like a board in the frame does not end "
                      "where a board's field does (give the corners with --corners)")


def _field_checks_out(small: np.ndarray, corners: np.ndarray, rough_score: float,
                      by_points: bool = False, memo: dict | None = None, faint: bool = False
                      ) -> bool:
    """Whether the field on ``corners`` (in ``small``'s pixels) still looks like a board (its
    score at least :data:`REFINED_KEEP` of the rough outline's), has points inside and plain
    frame outside every side (:func:`side_contrast`), no points beyond its long sides
    (:func:`side_evidence`) and its points in their rhythm (:func:`points_rhythm`)."""
    return not _field_failures(small, corners, rough_score, by_points, memo, faint)


def _field_failures(small: np.ndarray, corners: np.ndarray, rough_score: float,
                    by_points: bool = False, memo: dict | None = None, faint: bool = False
                    ) -> list[str]:
    """What fails of :func:`_field_checks_out`'s checks: ``"corners"`` (not a convex field),
    ``"score"``, ``"beyond"`` (points beyond a long side), the sides (``"top"``,
    ``"right"``, ``"bottom"``, ``"left"``) that do not end the field, or, when they all do,
    ``"rhythm"`` (the points' rhythm below :data:`MIN_RHYTHM`), ``"middle"`` (neither a clear
    bar, :data:`BAR_EVIDENCE`, nor a clear rhythm, :data:`CLEAR_RHYTHM`), judged by a clear bar
    ``"bar"`` (the rhythm's bar off the bar's own edges by more than :data:`MAX_BAR_ASTRAY` of a
    point, :func:`rhythm_and_bar`), or ``"lean"`` (:data:`MAX_BAR_LEAN_GAIN`); empty when it
    checks out."""
    try:
        checked = check_corners(corners)
    except GeometryError:
        return ["corners"]
    if board_score(small, checked, by_points=by_points, memo=memo)[0] < \
            REFINED_KEEP * rough_score:
        return ["score"]
    key = ("sides", np.asarray(checked, np.float64).tobytes())
    evidence = memo.get(key) if memo is not None else None
    if evidence is None:
        evidence = side_evidence(small, checked)
        if memo is not None:
            memo[key] = evidence
    contrast, beyond = evidence
    # A long side with the points' pattern going on beyond it lies inside the field (on a
    # row of checkers, or across the points' bases).
    if max(beyond.values()) > MAX_POINTS_BEYOND:
        return ["beyond"]
    # Without a bar to vouch for the field's middle, or with only a faint pattern to vouch for
    # the points (``faint``), its ends must show as clearly as its long sides do (a side skewed
    # onto a tray's edge shows some contrast too).
    short_floor = MIN_LONG_SIDE_CONTRAST if by_points or faint else MIN_SHORT_SIDE_CONTRAST
    floors = {"top": MIN_LONG_SIDE_CONTRAST, "right": short_floor,
              "bottom": MIN_LONG_SIDE_CONTRAST, "left": short_floor}
    failed = [name for name, floor in floors.items() if contrast[name] < floor]
    if failed:
        if memo is not None and set(failed) <= {"left", "right"}:
            # Kept for the last look (:func:`_slid_ends`): its score and long sides hold.
            memo.setdefault(ENDS_ASTRAY, {}).setdefault(
                np.asarray(checked, np.float64).tobytes(),
                (np.asarray(checked, np.float64), rough_score, by_points, faint, failed,
                 memo.get(LINE_STAGE, False)))
        return failed
    # Six equal points from each short side to the bar, whatever vouched for the field: half
    # a field (a column of checkers taken for the bar) has three to each half-row.
    key = ("rhythm", np.asarray(checked, np.float64).tobytes())
    found = memo.get(key) if memo is not None else None
    if found is None:
        geometry = _scoring_geometry(field_aspect(checked, (small.shape[1], small.shape[0])),
                                     SCORE_WIDTH)
        field = warp(small, checked, geometry)
        found = rhythm_and_bar(field, geometry) + _bar_leaning(small, checked, memo)[1:]
        if memo is not None:
            memo[key] = found
    rhythm, astray, bar, leaning, _ = found
    if rhythm < MIN_RHYTHM:
        return ["rhythm"]
    # Something must vouch for the field's middle: a clear bar, or else the points' clear
    # rhythm (a bar of the field's own wood shows no edges, but then its points stand in
    # step).  A field with a faint bar and a faint rhythm has an end astray: a blurred board
    # with one end slanting onto the side tray still shows a bar of sorts and some rhythm.
    if bar < BAR_EVIDENCE and rhythm < CLEAR_RHYTHM:
        return ["middle"]
    # Where the bar shows clear edges of its own, the six equal points from each end reach
    # them: a field whose ends lie on the frame's outer rim (a frame's width too long at each
    # end) still shows a rhythm, but only with a bar wider than the bar's edges by a point.
    if not by_points and bar >= BAR_EVIDENCE and astray > MAX_BAR_ASTRAY:
        return ["bar"]
    # The field's ends run along the bar: a bar far clearer leaning than upright says an end
    # slants across the field (judged by the bar or by the points: a bar this clear is the
    # board's, whatever found the field).
    if leaning >= BAR_EVIDENCE and leaning > MAX_BAR_LEAN_GAIN * bar:
        return ["lean"]
    return []


def _bar_leaning(small: np.ndarray, corners: Corners, memo: dict | None = None
                 ) -> tuple[float, float, float]:
    """:func:`bar_lean` on the field on ``corners`` (in ``small``'s pixels), kept in ``memo``."""
    key = ("lean", np.asarray(corners, np.float64).tobytes())
    if memo is not None and key in memo:
        return memo[key]
    geometry = _scoring_geometry(field_aspect(corners, (small.shape[1], small.shape[0])),
                                 SCORE_WIDTH)
    found = bar_lean(warp(small, corners, geometry), geometry)
    if memo is not None:
        memo[key] = found
    return found


def _lean_repairs(small: np.ndarray, scale: float, steps: list[np.ndarray],
                  memo: dict | None = None) -> list[np.ndarray]:
    """For the latest of the refinement's ``steps`` (frame pixels) whose bar leans clearly
    (:func:`bar_lean`: clear edges leaning, :data:`MAX_BAR_LEAN_GAIN` times stronger than
    upright), that field with its left end, then with its right end, turned about its middle so
    that the bar would stand upright; none when no step's bar leans so.

    The bar runs parallel to the field's ends.  Where one end slants by ``s`` (share of the
    width across the height) the straightened bar, half way between the ends, leans by about
    ``s / 2``: turning that end by twice the bar's lean puts it parallel to the bar again.

    >>> field = np.full((90, 160, 3), 200, np.uint8)
    >>> _lean_repairs(field, 1.0, [np.array([[10, 10], [150, 10], [150, 80], [10, 80]], float)])
    []
    """
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for step in reversed(steps):
        try:
            checked = check_corners(step * scale)
        except GeometryError:
            continue
        upright, leaning, lean = _bar_leaning(small, checked, memo)
        if leaning >= BAR_EVIDENCE and leaning > MAX_BAR_LEAN_GAIN * upright:
            break
    else:
        return []
    to_frame = cv2.getPerspectiveTransform(unit, np.float32(step))
    turned = []
    for top, bottom in ((0, 3), (1, 2)):
        moved = unit.copy()
        # (A lean > 0 puts the bar further right at the bottom: the end turns the same way.)
        moved[top, 0] -= lean
        moved[bottom, 0] += lean
        turned.append(cv2.perspectiveTransform(moved[None], to_frame)[0].astype(np.float64))
    return turned


def _short_side_repairs(frame: np.ndarray, corners: np.ndarray, names: list[str]
                        ) -> list[np.ndarray]:
    """The field on ``corners`` (frame pixels) with its short sides ``names`` (left, right)
    put on the clear straight edges within :data:`COMB_EDGE_REACH` of a point of where they
    are (the nearest :data:`REPAIRS_PER_SIDE` of each), nearest first; the long sides kept."""
    try:
        w0 = REFINE_WIDTH
        mx = max(2, int(round(COMB_EDGE_REACH * w0 / 13)))
        rect, matrix, w, h = _straighten(frame, corners, mx, 0)
    except GeometryError:
        return []
    t0, t1 = 0.5 / REFINE_STRIPS * h, (1 - 0.5 / REFINE_STRIPS) * h
    choices: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {}
    for name in ("left", "right"):
        here = mx if name == "left" else mx + w
        choices[name] = [((here, 0.0), (here, float(h)))]
        if name not in names:
            continue
        at, lines = _side_edge_lines(rect, w, h, mx, 0, name, SIDE_SLANT)
        if not lines:
            return []
        strongest = max(line[0] for line in lines)
        clear = sorted((line for line in lines if line[0] >= FIELD_EDGE_SHARE * strongest),
                       key=lambda line: abs(line[1]) + abs(line[2]))
        choices[name] = [((at + start, t0), (at + end, t1))
                         for _, start, end in clear[:REPAIRS_PER_SIDE]]
    top, bottom = ((mx, 0.0), (mx + w, 0.0)), ((mx, float(h)), (mx + w, float(h)))
    inverse = np.linalg.inv(matrix)
    repairs = []
    for left in choices["left"]:
        for right in choices["right"]:
            found = [line_intersection(left, top), line_intersection(top, right),
                     line_intersection(right, bottom), line_intersection(bottom, left)]
            repairs.append(cv2.perspectiveTransform(np.float32(found)[None], inverse)[0]
                           .astype(np.float64))
    return repairs


def board_score(small: np.ndarray, corners: Corners, width: int | None = None,
                by_points: bool = False, bars: list[float] | None = None,
                memo: dict | None = None) -> tuple[float, float]:
    """How much the field on ``corners`` looks like a backgammon field, twice: whether it does
    at all (the points' pattern, :func:`pattern_score`, times the evidence for a bar in the
    middle up to a clear bar) and how well, for ranking outlines (the same with the bar
    counted up to a strong one).

    A bar's two edges run the whole height of the field; what passes for a bar in an outline
    of half the field, or one shifted by a few points, is a triangle's edge or a column of
    checkers, clear enough to pass but weaker, so among outlines that pass the stronger bar
    wins.

    ``by_points``: the points' rhythm (:func:`points_rhythm`, up to :data:`CLEAR_RHYTHM`)
    stands in for the bar, both times.  ``bars`` collects the bar evidence (when judged by
    the bar).  ``memo`` keeps the answers (and the bar's evidence) for the same outline asked
    again.
    """
    key = ("score", np.asarray(corners, np.float64).tobytes(), width, by_points)
    if memo is not None and key in memo:
        support, rank, bar = memo[key]
    else:
        support, rank, bar = _board_score_of(small, corners, width, by_points)
        if memo is not None:
            memo[key] = (support, rank, bar)
    if bars is not None and bar is not None:
        bars.append(bar)
    return support, rank


def _board_score_of(small: np.ndarray, corners: Corners, width: int | None, by_points: bool
                    ) -> tuple[float, float, float | None]:
    """:func:`board_score`'s two answers, worked out, and the bar's evidence (None when judged
    by the points)."""
    size = (small.shape[1], small.shape[0])
    geometry = _scoring_geometry(field_aspect(corners, size), width or SCORE_WIDTH)
    field = warp(small, corners, geometry)
    if by_points:
        rhythm, bar_left, bar_right = points_rhythm(field, geometry)
        support = pattern_score(field, geometry.with_bar(bar_left, bar_right)) * \
            min(1.0, max(rhythm, 0.0) / CLEAR_RHYTHM)
        return support, support, None
    geometry, bar = bar_evidence(field, geometry)
    pattern = pattern_score(field, geometry)
    return pattern * min(1.0, bar / BAR_EVIDENCE), pattern * min(1.0, bar / STRONG_BAR), bar


POINTS_PER_ROW_F = 12.0
#: Canonical width of the straightened picture the sides are refined on.
REFINE_WIDTH = 480
#: Column strips a side is cut into: each votes for where the side's edge crosses it.
REFINE_STRIPS = 24
#: A side's edge counts as clear when its straight-line vote is at least this share of the
#: strongest edge found near that side.
INNER_EDGE_SHARE = 0.75
#: The field's own edge may be seen only in part (dark points against a dark frame show no
#: edge): when the points' pattern picks among the edges, this share is enough.
FIELD_EDGE_SHARE = 0.4
#: A strip's edge strength (share of its strongest) that counts as support for a line.
SUPPORT_LEVEL = 0.3
#: Two lines whose ends are both within this many pixels are the same edge.
SAME_EDGE = 5
#: Lines kept per side and gradient sign.
LINES_PER_SIDE = 6
#: Largest difference between the widths of the two halves of the field, as a share of the
#: straightened width, while the short sides are placed (rough corners distort a little).
HALF_MISMATCH = 0.05
#: Largest lean of a short side (top end against bottom end, share of the width) while it is
#: placed by the points; the steps repeat, so a larger lean is taken in two goes.
SIDE_SLANT = 0.03
#: A straight edge near a short side (within this share of a point's width) replaces the
#: comb's placement when the comb scores it at least this share of its own best.
COMB_EDGE_SHARE = 0.75
COMB_EDGE_REACH = 0.35
#: The bar's few strongest candidate edge pairs are judged also by how the colour between
#: them changes along the bar: its strength counts half when the typical row differs by this
#: many levels (of 255) from the bar's usual colour (wood grain and noise differ by a few).
BAR_PAIRS_JUDGED = 6
#: Straight edges tried for a short side that fails the side check (see :func:`_locate_among`).
REPAIRS_PER_SIDE = 3
BAR_COLOUR_STEP = 10.0


def _side_lines(strip_profiles: np.ndarray, offsets: np.ndarray, max_slant: float
                ) -> list[tuple[float, float, float]]:
    """Straight lines through per-strip edge profiles: ``(score, start, end)`` offsets.

    ``strip_profiles`` is strips x offsets (edge strength of each strip at each offset across the
    side); a line runs from ``start`` at the first strip to ``end`` at the last.  Each strip's
    profile is scaled to its own maximum so that a long edge seen in most strips beats a short,
    strong one (a checker's rim).
    """
    k, n = strip_profiles.shape
    norm = strip_profiles / (strip_profiles.max(axis=1, keepdims=True) + 1e-6)
    step = offsets[1] - offsets[0]
    lean = max(1, int(max_slant / step))
    t = (np.arange(k) + 0.5) / k
    idx = np.arange(n)
    # Lines from each start offset leaning by up to ``lean`` offsets over the side's length.
    ends = idx[:, None] + np.arange(-lean, lean + 1)[None, :]  # n x leans
    pos = idx[:, None, None] * (1 - t) + ends[:, :, None] * t  # n x leans x k
    inside = (ends >= 0) & (ends < n)
    lo = np.clip(np.floor(pos).astype(int), 0, n - 1)
    hi = np.clip(lo + 1, 0, n - 1)
    frac = np.clip(pos - lo, 0.0, 1.0)
    rows = np.arange(k)[None, None, :]
    along = norm[rows, lo] * (1 - frac) + norm[rows, hi] * frac
    # A strip supports a line when the line crosses one of that strip's strong edges; the
    # share of supporting strips tells a side of the field (the whole length) from a
    # triangle's edge or a row of checkers (part of it).
    lean_votes = (along >= SUPPORT_LEVEL).mean(axis=2) + 0.1 * along.mean(axis=2)
    lean_votes[~inside] = -1.0
    votes = np.full((n, n), -1.0)
    a_idx = np.broadcast_to(idx[:, None], ends.shape)[inside]
    votes[a_idx, ends[inside]] = lean_votes[inside]
    lines: list[tuple[float, int, int]] = []
    flat = np.argsort(votes, axis=None)[::-1][:200]
    # (Plain Python numbers in the loop: numpy scalars cost several times more.)
    starts, stops = (i.tolist() for i in np.unravel_index(flat, votes.shape))
    for vote, a, b in zip(votes.ravel()[flat].tolist(), starts, stops):
        if vote < 0:
            break
        # Slightly leaning copies of a line already taken are the same edge.
        if all(abs(a - a2) > SAME_EDGE or abs(b - b2) > SAME_EDGE for _, a2, b2 in lines):
            lines.append((vote, a, b))
        if len(lines) >= LINES_PER_SIDE:
            break
    return [(score, float(offsets[0] + a * (offsets[1] - offsets[0])),
             float(offsets[0] + b * (offsets[1] - offsets[0]))) for score, a, b in lines]


def _straighten(frame: np.ndarray, corners: np.ndarray, margin_x: int, margin_y: int
                ) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The frame warped so that ``corners`` become the rectangle (margin_x, margin_y) ..
    (margin_x + w, margin_y + h), w = :data:`REFINE_WIDTH`; returns picture, matrix, w, h."""
    checked = check_corners(corners)
    aspect = field_aspect(checked, (frame.shape[1], frame.shape[0]))
    w = REFINE_WIDTH
    h = int(round(w * aspect))
    dst = np.float32([[margin_x, margin_y], [margin_x + w, margin_y],
                      [margin_x + w, margin_y + h], [margin_x, margin_y + h]])
    matrix = cv2.getPerspectiveTransform(np.float32(checked), dst)
    size = (w + 2 * margin_x, h + 2 * margin_y)
    rect = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(rect, (0, 0), 1.2).astype(np.float32), matrix, w, h


def _colour_gradient(rect: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """Signed gradient of the channel that changes most (red against black shows in colour
    more than in grey)."""
    grads = cv2.Sobel(rect, cv2.CV_32F, dx, dy, ksize=3)
    if grads.ndim == 2:
        return grads
    # Channel by channel, the first of equals kept (as ``argmax`` along the channels picks, at
    # a fraction of its cost: NumPy reduces a short last axis slowly).
    sizes = np.abs(grads)
    chosen, largest = grads[..., 0], sizes[..., 0]
    for channel in range(1, grads.shape[2]):
        larger = sizes[..., channel] > largest
        chosen = np.where(larger, grads[..., channel], chosen)
        largest = np.maximum(largest, sizes[..., channel])
    return chosen


def _largest_channel(values: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel, ``values.max(axis=2)`` (a grey picture as it is), at a
    fraction of its cost (NumPy reduces a short last axis slowly).

    >>> values = np.random.default_rng(0).normal(size=(4, 5, 3)).astype(np.float32)
    >>> bool(np.array_equal(_largest_channel(values), values.max(axis=2)))
    True
    """
    if values.ndim == 2:
        return values
    largest = values[..., 0].copy()
    for channel in range(1, values.shape[2]):
        np.maximum(largest, values[..., channel], out=largest)
    return largest


def _side_edge_lines(rect: np.ndarray, w: int, h: int, mx: int, my: int, name: str,
                     max_slant: float, gx: np.ndarray | None = None
                     ) -> tuple[int, list[tuple[float, float, float]]]:
    """The long straight edges near one side (top, right, bottom, left) of the straightened
    field: where the side is now (``at``, across it) and the lines as ``(vote, start, end)``
    offsets from it, at the first and last strip along the side (see :func:`_side_lines`).
    ``gx``, the whole picture's :func:`_colour_gradient` across, saves working out its part
    again for a left or right side."""
    horizontal = name in ("top", "bottom")
    m = my if horizontal else mx
    along = mx if horizontal else my
    length = w if horizontal else h
    at = (0 if name in ("top", "left") else (h if horizontal else w)) + m
    # The gradient across the side, only in the band around it (one pixel more each way for
    # the derivative).
    lo = max(at - m - 1, 0)
    if horizontal:
        grad = _colour_gradient(rect[lo: at + m + 2], 0, 1)
    else:
        grad = (gx[:, lo: at + m + 2] if gx is not None else
                _colour_gradient(rect[:, lo: at + m + 2], 1, 0)).T
    band = grad[at - m - lo: at + m + 1 - lo, along: along + length]
    candidates: list[tuple[float, float, float]] = []
    for sign in (1.0, -1.0):
        part = np.maximum(sign * band, 0.0)
        profiles = _strip_means(part, REFINE_STRIPS)
        candidates += _side_lines(profiles, np.array([-m, -m + 1.0]), max_slant * length)
    return at, candidates


def _strip_means(part: np.ndarray, strips: int) -> np.ndarray:
    """Row means of ``part`` in ``strips`` column strips (as ``np.array_split`` cuts them), one
    strip a row of the result.

    >>> _strip_means(np.arange(10.0).reshape(2, 5), 2).tolist()
    [[1.0, 6.0], [3.5, 8.5]]
    """
    n = part.shape[1]
    size, extra = divmod(n, strips)
    bounds = np.cumsum([0] + [size + 1] * extra + [size] * (strips - extra))
    return (np.add.reduceat(part, bounds[:-1], axis=1) / np.diff(bounds)).T


def _edge_sides(rect: np.ndarray, w: int, h: int, mx: int, my: int, names: tuple[str, ...],
                choose: str, max_slant: float) -> dict[str, tuple]:
    """Fit the named sides (top, right, bottom, left) of the straightened field to the long
    straight edges near them; returns each side as two points in straightened coordinates."""
    sides = {}
    for name in names:
        horizontal = name in ("top", "bottom")
        length = w if horizontal else h
        at, candidates = _side_edge_lines(rect, w, h, mx, my, name, max_slant)
        if not candidates:
            continue
        strongest = max(c[0] for c in candidates)
        share = INNER_EDGE_SHARE if choose == "nearest" else FIELD_EDGE_SHARE
        clear = [c for c in candidates if c[0] >= share * strongest]
        if choose in ("texture", "texture along"):
            # The board's frame has several long edges (outer rim, bevels, the field's
            # edge); the field's edge is the one with the points' pattern just inside and
            # plain frame just outside.
            steps = [_texture_step(rect, name, at, c, w, h, mx, my) for c in clear]
            if choose == "texture along":
                # Once the side is close, it runs the whole length of the field's edge: a
                # line slanting from the field's edge at one end to a parallel edge of the
                # frame a few pixels off at the other (its lip, its shadow) is supported at
                # its ends only and may show the points as clearly, so its vote counts too.
                scores = [max(step, 0.0) * c[0] for step, c in zip(steps, clear)]
                best = clear[int(np.argmax(scores if max(steps) > 0 else steps))]
            else:
                best = clear[int(np.argmax(steps))]
        else:
            # Polishing: the clear edge nearest to where the side already is.
            best = min(clear, key=lambda c: abs(c[1]) + abs(c[2]))
        _, start, end = best
        t0, t1 = 0.5 / REFINE_STRIPS * length, (1 - 0.5 / REFINE_STRIPS) * length
        if horizontal:
            sides[name] = ((t0 + mx, at + start), (t1 + mx, at + end))
        else:
            sides[name] = ((at + start, t0 + my), (at + end, t1 + my))
    return sides


def _texture_step(rect: np.ndarray, name: str, at: int, line: tuple[float, float, float],
                  w: int, h: int, mx: int, my: int) -> float:
    """How much more the picture varies along a long side just inside a candidate edge than
    just outside it: the points (alternating triangles) start right at the field's edge."""
    horizontal = name in ("top", "bottom")
    _, start, end = line
    length = w if horizontal else h
    along = np.arange(length, dtype=np.float32)
    offset = start + (end - start) * (along + 0.5) / length
    inward = 1.0 if name in ("top", "left") else -1.0
    depth_in = max(3, int(0.08 * h))
    depth_out = max(2, int(0.03 * h))

    def band(depths: np.ndarray) -> float:
        across = at + offset[None, :] + inward * depths[:, None]
        along_grid = np.broadcast_to(along[None, :] + (mx if horizontal else my), across.shape)
        xs, ys = (along_grid, across) if horizontal else (across, along_grid)
        picture = cv2.remap(rect, xs.astype(np.float32), ys.astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        profile = picture.mean(axis=0)  # along the side, per channel
        box = max(3, int(length / POINTS_PER_ROW_F) | 1)  # about a point wide
        smooth = cv2.blur(profile[None], (box, 1), borderType=cv2.BORDER_REFLECT)[0]
        return float(np.sqrt(((profile - smooth) ** 2).mean()))

    inside = band(np.arange(2, depth_in, dtype=np.float32))
    outside = band(-np.arange(2, depth_out + 2, dtype=np.float32))
    return inside - outside


def _comb_scores(profile: np.ndarray, inner: float, xs: np.ndarray) -> np.ndarray:
    """For each candidate outer edge ``x`` of one quarter, how well six equal points between
    ``x`` and the bar edge ``inner`` put the row profile's edges (|d/dx|) on the points'
    borders and none on their middles (scaled by the profile's level)."""
    n = profile.size
    # A few very strong edges (a tray's rim, a checker's glare) must not decide alone.
    capped = np.minimum(profile, np.percentile(profile, 90))
    capped = np.convolve(capped, np.ones(5) / 5, mode="same")
    pitch = (xs - inner) / 6.0  # signed: negative on the left quarter
    borders = inner + pitch[:, None] * np.arange(1, 7)[None, :]
    middles = inner + pitch[:, None] * (np.arange(6)[None, :] + 0.5)
    bi = np.clip(np.round(borders).astype(int), 0, n - 1)
    mi = np.clip(np.round(middles).astype(int), 0, n - 1)
    return (capped[bi].mean(axis=1) - capped[mi].mean(axis=1)) / (capped.mean() + 1e-6)


def _bar_edges(gx_abs: np.ndarray, mx: int, w: int, off_centre: float = 0.12,
               picture: np.ndarray | None = None) -> tuple[float, float] | None:
    """The bar's two long edges: the strongest pair of full-height vertical edges near the
    middle of the straightened picture (checkers and dice cover only parts of them), their
    middle at most ``off_centre`` of the width from the picture's.

    With ``picture`` (the same rows of the straightened picture) the strongest few pairs are
    also judged by what lies between them: the bar is one piece, its colour the same along most
    of its length, while two columns of checkers on the points beside it (a colour at the top,
    another or the field at the bottom) can have edges as long and as strong as a wooden bar's
    (:data:`BAR_COLOUR_STEP`)."""
    profile = column_median(gx_abs)
    profile = np.convolve(profile, np.ones(3) / 3, mode="same")
    mid = mx + w / 2
    a = np.arange(int(mid - 0.2 * w), int(mid))[:, None]
    b = a + np.arange(int(0.025 * w), int(0.12 * w))[None, :]
    usable = (np.abs((a + b) / 2 - mid) <= off_centre * w) & (b < profile.size)
    if not usable.any():
        return None
    a, b = np.broadcast_to(a, b.shape)[usable], b[usable]
    strength = np.minimum(profile[a], profile[b])
    if picture is None:
        i = int(np.argmax(strength))
        return float(a[i]), float(b[i])
    best, chosen = -1.0, None
    considered: list[tuple[int, int]] = []
    for i in np.argsort(-strength)[:BAR_PAIRS_JUDGED * 8].tolist():
        left, right = int(a[i]), int(b[i])
        if any(abs(left - l2) < 4 and abs(right - r2) < 4 for l2, r2 in considered):
            continue  # (the same edges, a pixel or two apart)
        considered.append((left, right))
        inside = picture[:, left + 3: right - 2]
        if inside.shape[1] == 0:
            continue
        along = inside.mean(axis=1)  # the colour along the bar, row by row
        along = along.reshape(along.shape[0], -1)
        change = float(np.median(np.abs(along - np.median(along, axis=0)).max(axis=1)))
        judged = float(strength[i]) / (1.0 + change / BAR_COLOUR_STEP)
        if judged > best:
            best, chosen = judged, (float(left), float(right))
        if len(considered) >= BAR_PAIRS_JUDGED:
            break
    return chosen


def refine_corners(frame: np.ndarray, rough: np.ndarray,
                   trace: list[np.ndarray] | None = None) -> Corners:
    """Sharpen rough corners of the field in three steps on the straightened picture.

    1. The long sides (along the points' bases) are moved to the innermost long straight edge
       near them: the board's frame meets the field there.
    2. The short sides are placed by the points: between each short side and the bar stand six
       equal points, so the side is where a comb of six points ending at the bar lines up with
       the borders between triangles (side trays and frame edges do not fool this).
    3. All four sides are polished on the strongest straight edge close by.
    """
    corners = np.asarray(rough, np.float64)
    steps = (("edges", ("top", "bottom"), 0.08, 0.0, "texture", 0.03),
             ("points", ("left", "right"), 0.02, 0.16, "", 0.0),
             ("edges", ("top", "bottom"), 0.03, 0.0, "texture along", 0.02),
             ("points", ("left", "right"), 0.02, 0.06, "", 0.0),
             ("edges", ("top", "right", "bottom", "left"), 0.015, 0.015, "nearest", 0.01))
    for kind, names, reach_y, reach_x, choose, slant in steps:
        try:
            w0 = REFINE_WIDTH
            mx, my = int(round(reach_x * w0)), int(round(reach_y * w0))
            rect, matrix, w, h = _straighten(frame, corners, mx, my)
        except GeometryError:
            break
        sides = {"top": ((mx, my), (mx + w, my)), "bottom": ((mx, my + h), (mx + w, my + h)),
                 "left": ((mx, my), (mx, my + h)), "right": ((mx + w, my), (mx + w, my + h))}
        if kind == "edges":
            sides.update(_edge_sides(rect, w, h, mx, my, names, choose, slant))
        else:
            gx = _colour_gradient(rect, 1, 0)
            gx_abs = np.abs(gx)
            # The sides move by at most ``reach_x``, and so, by half that, the middle.
            bar_rows = slice(my + int(0.04 * h), my + int(0.96 * h))
            bar = _bar_edges(gx_abs[bar_rows], mx, w, min(0.12, reach_x), rect[bar_rows])
            if bar is None:
                continue
            xs = {"left": np.arange(0, int(bar[0] - 0.25 * w)),
                  "right": np.arange(int(bar[1] + 0.25 * w), w + 2 * mx)}
            if xs["left"].size == 0 or xs["right"].size == 0:
                continue
            bands = ((0.02, 0.16), (0.84, 0.98))
            profiles = [column_median(gx_abs[my + int(y0 * h): my + int(y1 * h)])
                        for y0, y1 in bands]
            rows = [my + (y0 + y1) / 2 * h for y0, y1 in bands]
            for name, inner in (("left", bar[0]), ("right", bar[1])):
                top, bottom = (_comb_scores(p, inner, xs[name]) for p in profiles)
                # The side is straight and nearly upright here: the points at its top and
                # bottom are judged together (one end may be crowded by checkers).
                joint = top[:, None] + bottom[None, :]
                slant = np.abs(xs[name][:, None] - xs[name][None, :])
                joint[slant > SIDE_SLANT * w] = -np.inf
                i, j = np.unravel_index(int(np.argmax(joint)), joint.shape)
                sides[name] = ((float(xs[name][i]), rows[0]), (float(xs[name][j]), rows[1]))
                # The comb is sure to about a quarter of a point (checkers on the points
                # blur it); where the field's own straight edge is near and the comb
                # likes it almost as well, the edge places the side more exactly.
                edge = _comb_edge(rect, gx, w, h, mx, my, name, xs[name], top, bottom, rows,
                                  (i, j), abs(bar[0] - mx if name == "left" else
                                              mx + w - bar[1]) / 6)
                if edge is not None:
                    sides[name] = edge
        found = [line_intersection(sides[a], sides[b]) for a, b in
                 (("left", "top"), ("top", "right"), ("right", "bottom"), ("bottom", "left"))]
        back = cv2.perspectiveTransform(np.float32(found)[None], np.linalg.inv(matrix))[0]
        corners = back.astype(np.float64)
        if trace is not None:
            trace.append(corners.copy())
    return tuple((float(x), float(y)) for x, y in corners)  # type: ignore[return-value]


def _comb_edge(rect: np.ndarray, gx: np.ndarray, w: int, h: int, mx: int, my: int, name: str,
               xs: np.ndarray, top: np.ndarray, bottom: np.ndarray, rows: list[float],
               placed: tuple[int, int], pitch: float
               ) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The clearest straight edge near a short side among those within
    :data:`COMB_EDGE_REACH` of a point's width (``pitch``) of the comb's own placement
    (indices ``placed`` into ``xs`` at the two rows) that the comb scores at least
    :data:`COMB_EDGE_SHARE` as well as that placement."""
    best = float(top[placed[0]] + bottom[placed[1]])
    at, lines = _side_edge_lines(rect, w, h, mx, my, name, SIDE_SLANT, gx)
    if not lines or best <= 0:
        return None
    strongest = max(line[0] for line in lines)
    t0, t1 = 0.5 / REFINE_STRIPS * h + my, (1 - 0.5 / REFINE_STRIPS) * h + my
    chosen, chosen_vote, floor = None, 0.0, COMB_EDGE_SHARE * best
    for vote, start, end in lines:
        if vote < FIELD_EDGE_SHARE * strongest:
            continue
        # Where the line crosses the comb's two rows, as indices into ``xs``.
        at_rows = [at + start + (end - start) * (row - t0) / (t1 - t0) for row in rows]
        index = [int(round(x - xs[0])) for x in at_rows]
        if not all(0 <= k < xs.size for k in index) or \
                max(abs(index[0] - placed[0]), abs(index[1] - placed[1])) > COMB_EDGE_REACH * pitch:
            continue
        # Among the edges the comb accepts, the clearest (a slanted line through a few
        # triangles' corners can please the comb more than the field's edge does).
        if float(top[index[0]] + bottom[index[1]]) >= floor and vote > chosen_vote:
            chosen, chosen_vote = ((at + start, t0), (at + end, t1)), vote
    return chosen


def line_intersection(a: tuple, b: tuple) -> tuple[float, float]:
    """Where the line through the two points ``a`` meets the line through the two points ``b``
    (the middle of ``a``'s second and ``b``'s first point when they are parallel).

    >>> line_intersection(((0, 0), (2, 2)), ((0, 2), (2, 0)))
    (1.0, 1.0)
    """
    (x1, y1), (x2, y2) = a
    (x3, y3), (x4, y4) = b
    d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(d) < 1e-9:
        return ((x2 + x3) / 2, (y2 + y3) / 2)
    p = x1 * y2 - y1 * x2
    q = x3 * y4 - y3 * x4
    return ((p * (x3 - x4) - (x1 - x2) * q) / d, (p * (y3 - y4) - (y1 - y2) * q) / d)
