"""The borne-off trays beside the field: is one in view, and how many checkers of each colour
lie in it.

The calibration knows only the playing field's corners.  A side tray is a recess in the board's
frame running along the left or right edge of the field, as tall as it, within about a fifth of
the field's width from its edge.  So each side is looked at through the field's own homography
carried sideways (:func:`side_strip`), which gives an upright strip as if seen from above; in it:

1. the tray is the band between two long edges parallel to the field's edge, about one checker
   to two checkers apart (:func:`find_tray_band`); no such band, or a strip that leaves the frame,
   is "not in view" and the reader falls back to counting (15 minus what is on the field);
2. inside the band every pixel is given to the nearest of the two checker colours (learnt on the
   field) or the tray's floor; runs of rows of one colour are groups of checkers
   (:func:`count_run`): checkers standing on edge, packed in a row, show as slabs a quarter of a
   diameter thick, whose seams repeat along the run; checkers lying flat show as discs one
   diameter apart.

>>> import numpy as np
>>> strip = np.full((400, 80, 3), 60, np.uint8)
>>> strip[:, 22:66] = 110                            # the tray's floor between two edges
>>> find_tray_band(cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY), diameter=40.0)
(22, 65)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from calibration.colours import (
    LIGHTNESS_WEIGHT, code_levels, nearest_code_distance, weighted,
)
from calibration.geometry import (
    BoardGeometry, Corners, column_median, homography, median_of, percentile,
    without_fourth_channel,
)

#: How far beside the field a tray is looked for, as a share of the field's width.
STRIP_SHARE = 0.2
#: Strip pixels per canonical field pixel (the canonical field is small; slabs are thin).
STRIP_SCALE = 2.0
#: Strip rows per canonical field pixel where a tray's walls are looked for (a strip of half
#: the rows: the walls run along them, and each row's step counts only through the median of
#: all; the checkers in a tray found are then read on a strip of STRIP_SCALE rows).
SEARCH_ROW_SCALE = 1.0
#: A tray is between this many checker diameters wide (a checker must fit across it).
TRAY_WIDTH = (0.95, 2.0)
#: Median grey-level step across a tray edge, along the whole height, for a long edge.
EDGE_STEP = 6.0
#: A checker standing on edge is this thick, as a share of its diameter.
SLAB_SHARE = (0.15, 0.4)
#: Lightness-weighted Lab distance within which a pixel may take a checker colour.
COLOUR_MATCH = 30.0
#: Checkers of one colour that a tray can hold in one row.
MAX_SLABS = 15
#: A run of rows shorter than this share of the slab thickness is noise.
MIN_RUN_SHARE = 0.6
#: Each 8-bit Lab code's weighted value per channel (see calibration.colours.weighted).
WEIGHTED_LEVELS = code_levels((LIGHTNESS_WEIGHT, 1, 1))


@dataclass
class TrayReading:
    """What the trays showed: ``visible`` when a tray was found in view; ``counts`` per colour
    name (only meaningful when visible), the ``side`` of the field it was found on, and a
    confidence 0..1 of the counts."""

    visible: bool
    counts: dict[str, int] = field(default_factory=dict)
    side: str | None = None
    confidence: float = 0.0
    notes: list[str] = field(default_factory=list)


def side_strip(frame: np.ndarray, corners: Corners, geometry: BoardGeometry, side: str
               ) -> tuple[np.ndarray, np.ndarray]:
    """The upright strip beside the field on ``side`` ("left"/"right"), at
    :data:`STRIP_SCALE` times the canonical scale, and per strip column whether it lies in the
    frame (top to bottom).  ``frame`` is BGR, or BGR with a fourth channel (see
    :func:`calibration.geometry.with_fourth_channel`); the strip is BGR."""
    strip, inside = _side_strip(frame, corners, geometry, side)
    return without_fourth_channel(strip), inside


def _side_strip(frame: np.ndarray, corners: Corners, geometry: BoardGeometry, side: str,
                least_in_view: float = 0.0, to_field: np.ndarray | None = None,
                row_scale: float = STRIP_SCALE) -> tuple[np.ndarray | None, np.ndarray]:
    """:func:`side_strip` with as many channels as ``frame``: the reader needs the strip's
    grey everywhere but its colours only between a tray's walls, so the fourth channel is
    dropped from those few columns only.  The strip is not drawn (None) when fewer than
    ``least_in_view`` columns side by side lie in the frame: no tray could be read in it.
    ``to_field``: the field's homography when the caller has it (the same for both sides).
    ``row_scale``: strip rows per canonical field pixel (columns always
    :data:`STRIP_SCALE`): a tray's walls run along the rows, so fewer rows find them as well
    (see :data:`SEARCH_ROW_SCALE`)."""
    w, h = geometry.width, geometry.height
    strip_w = STRIP_SHARE * w
    x_start = -strip_w if side == "left" else w
    m = geometry.margin
    k, ky = STRIP_SCALE, row_scale
    shift = np.array([[k, 0, -k * (x_start + m)], [0, ky, -ky * m], [0, 0, 1]], np.float64)
    to_strip = shift @ (homography(corners, geometry) if to_field is None else to_field)
    size = (int(round(k * strip_w)), int(round(ky * h)))
    # Both ends of each strip column, the top row's then the bottom row's.
    ends = np.empty((2, size[0], 2), np.float32)
    ends[:, :, 0] = np.arange(size[0], dtype=np.float32) + 0.5
    ends[0, :, 1] = 0
    ends[1, :, 1] = size[1]
    in_frame = cv2.perspectiveTransform(ends.reshape(1, -1, 2), np.linalg.inv(to_strip))[0]
    fh, fw = frame.shape[:2]
    slack = 0.01 * max(fw, fh)
    ok = ((in_frame[:, 0] >= -slack) & (in_frame[:, 0] <= fw + slack)
          & (in_frame[:, 1] >= -slack) & (in_frame[:, 1] <= fh + slack)).reshape(2, -1)
    inside = ok.all(axis=0)
    if least_in_view > 0 and _longest_run(inside) < least_in_view:
        strip = None
    else:
        strip = cv2.warpPerspective(frame, to_strip, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
    if side == "left":  # strip columns run outwards from the field on both sides
        # (cv2.flip: numpy copies a reversed many-channel image many times more slowly.)
        strip = None if strip is None else cv2.flip(strip, 1)
        inside = inside[::-1].copy()
    return strip, inside


def _longest_run(flags: np.ndarray) -> int:
    """The most set flags side by side.

    >>> _longest_run(np.array([1, 1, 0, 1, 1, 1, 0], bool)), _longest_run(np.zeros(3, bool))
    (3, 0)
    """
    edges = np.flatnonzero(np.diff(np.concatenate([[0], flags.astype(np.int8), [0]])))
    return int((edges[1::2] - edges[::2]).max()) if len(edges) else 0


def _grey(strip: np.ndarray) -> np.ndarray:
    """The grey of a BGR strip, or of a BGR strip with a fourth channel (the same numbers:
    OpenCV weighs B, G and R alike in both and leaves the fourth out).

    >>> strip = np.random.default_rng(0).integers(0, 256, (6, 5, 4), np.uint8)
    >>> bool((_grey(strip) == _grey(without_fourth_channel(strip))).all())
    True
    """
    code = cv2.COLOR_BGRA2GRAY if strip.ndim == 3 and strip.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    return cv2.cvtColor(strip, code)


def find_tray_band(gray: np.ndarray, diameter: float, row_scale: float = STRIP_SCALE
                   ) -> tuple[int, int] | None:
    """Columns ``(a, b)`` of a strip (column 0 at the field's edge) between which a tray runs:
    two long edges parallel to the field's edge, a checker or two apart, with the board's
    frame on both sides (alike, and a strip of it between the field and the tray); the pair
    that steps the most all along wins; None when there is no such pair.

    An edge counts by its median step over all rows, so checkers lying in the tray (which cut
    the edges over part of the height) and short things beside the board do not make one.  The
    board's own outer edge has the table, not the frame, beyond it.

    ``row_scale``: the strip's rows per canonical field pixel when fewer than its columns'
    :data:`STRIP_SCALE` (a strip from :func:`_side_strip` drawn with fewer rows): the
    smoothing along the rows and the rows sampled follow it, to the same lengths on the field.
    """
    # Every third row of a strip at STRIP_SCALE will do (each row's step only counts through
    # the median of all), smoothed by one column across the walls and the same length along.
    row_share = row_scale / STRIP_SCALE
    sigma_rows = 1.0 * row_share
    row_step = max(1, int(round(3 * row_share)))
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), sigmaX=1.0,
                         sigmaY=sigma_rows)[::row_step]
    step = np.abs(g[:, 2:] - g[:, :-2])  # centred difference across columns
    strength = column_median(step)
    # Each column's typical grey, needed only for a pair of edges that passes the tests before
    # it (most strips, with no tray, have none): worked out once, when first needed.
    column: np.ndarray | None = None
    # Plain Python numbers for the loops below (numpy scalars cost several times more each).
    strength = np.concatenate([[0.0], strength, [0.0]]).tolist()
    n = len(strength)
    peaks = [i for i in range(1, n - 1) if strength[i] >= EDGE_STEP
             and strength[i] >= strength[i - 1] and strength[i] >= strength[i + 1]]
    best, best_score = None, 0.0
    for i in peaks:
        for j in peaks:
            gap = j - i
            if not TRAY_WIDTH[0] * diameter <= gap <= TRAY_WIDTH[1] * diameter:
                continue
            score = min(strength[i], strength[j])
            if score <= best_score or i < 3 or j > n - 4:
                continue
            wall = max(2, int(0.1 * diameter))
            if column is None:
                column = column_median(g)
            inner = float(median_of(column[max(0, i - 1 - wall): i - 1]))
            outer = float(median_of(column[j + 1: j + 1 + wall]))
            floor = float(median_of(column[i + 1: j]))
            # A recess: the frame alike on both sides (the tray's floor may be anything).
            if abs(inner - outer) > max(12.0, 0.5 * abs(floor - inner)):
                continue
            if score > best_score:
                best, best_score = (i, j), score
    if best is None:
        return None
    return best[0] + 1, best[1] - 1


def _period(profile: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """The strongest repeat of a 1-D profile between ``low`` and ``high`` samples, and its
    normalised autocorrelation (0 when too short to tell)."""
    p = profile - profile.mean()
    energy = float((p * p).sum())
    lo, hi = max(2, int(np.floor(low))), int(np.ceil(high))
    if energy <= 1e-6 or len(p) < 2 * lo:
        return 0.0, 0.0
    best_lag, best = 0, 0.0
    values = {}
    for lag in range(lo, min(hi, len(p) - 1) + 1):
        values[lag] = float((p[:-lag] * p[lag:]).sum()) / energy
    for lag, v in values.items():
        # A local maximum of the autocorrelation, not the slope down from lag 0.
        if v > best and v >= values.get(lag - 1, -1) and v >= values.get(lag + 1, -1):
            best_lag, best = lag, v
    if best_lag and best_lag - 1 in values and best_lag + 1 in values:
        # Sub-pixel: a parabola through the peak and its neighbours (ten slabs of 9.5 pixels
        # are not ten of 9 or 10).
        a, b, c = values[best_lag - 1], best, values[best_lag + 1]
        bend = a - 2 * b + c
        if bend < 0:
            return best_lag + 0.5 * (a - c) / bend, best
    return float(best_lag), best


def _inner_seams(luminance: np.ndarray, pitch: float) -> int:
    """Seams between slabs in a run: the narrow lines, darker or lighter than the slabs, that
    repeat at ``pitch``, leaving out the run's two ends.

    >>> _inner_seams(np.tile([90.0] + [200.0] * 9, 4), 10.0)
    3
    """
    p = np.asarray(luminance, np.float64)
    window = max(3, int(round(pitch)) | 1)
    pad = np.pad(p, window // 2, mode="edge")
    local = np.convolve(pad, np.ones(window) / window, mode="valid")[: len(p)]
    # A seam is a thin line either side of the slabs' grey: a bright rim or a dark gap (both,
    # side by side, are one seam).
    signal = np.abs(p - local)
    top = float(percentile(signal, 97))
    if top <= 0:
        return 0
    edge = 0.3 * pitch
    peaks: list[int] = []
    for i in range(1, len(signal) - 1):
        if signal[i] < 0.35 * top or signal[i] < signal[i - 1] or signal[i] < signal[i + 1]:
            continue
        if i < edge or i > len(signal) - 1 - edge:
            continue
        if peaks and i - peaks[-1] < 0.6 * pitch:
            if signal[i] > signal[peaks[-1]]:
                peaks[-1] = i
            continue
        peaks.append(i)
    return len(peaks)


def count_run(rows_fill: np.ndarray, luminance: np.ndarray, diameter: float
              ) -> tuple[int | None, float]:
    """Checkers in one run of rows of one colour: ``rows_fill`` is the share of the tray's
    width that colour covers on each row, ``luminance`` the mean grey of each row.
    Returns (count, confidence); count None when the run is no row of checkers (too long for
    fifteen slabs, or longer than one slab without any seams): the tray's floor, most likely.

    Discs lying flat narrow at their ends, so their fill rises and falls once per diameter;
    slabs standing on edge fill the width evenly and repeat by their seams.

    >>> slabs = np.ones(44); lum = np.tile([120., 200, 200, 200, 200, 200, 200, 200, 200, 200, 120], 4)
    >>> count_run(slabs, lum, diameter=44.0)[0]
    4
    >>> t = (np.arange(88) + 0.5) / 44 % 1
    >>> count_run(np.sqrt(1 - (2 * t - 1) ** 2), np.full(88, 200.), diameter=44.0)[0]
    2
    """
    length = len(rows_fill)
    top = float(percentile(rows_fill, 90)) if length else 0.0
    evenness = float(np.mean(rows_fill)) / top if top > 0 else 0.0
    discs = max(1, int(round(length / diameter)))
    if evenness < 0.86 and length >= 0.7 * diameter:
        # Round ends: flat discs, the fill dips between neighbours.
        fit = abs(length / diameter - discs)
        return discs, float(np.clip(1 - 2 * fit, 0.1, 1.0)) * 0.9
    if length > MAX_SLABS * SLAB_SHARE[1] * diameter:
        return None, 0.0
    lag, strength = _period(luminance, SLAB_SHARE[0] * diameter, SLAB_SHARE[1] * diameter)
    if strength >= 0.25 and lag > 0:
        by_length = length / lag
        seams = _inner_seams(luminance, lag)
        # Slabs are one more than the seams between them; the run's length over the pitch is
        # only as good as the pitch, so it just guards the seam count.
        near = abs(seams + 1 - by_length) <= max(1.5, 0.2 * by_length)
        count = seams + 1 if seams and near else max(1, int(round(by_length)))
        fit = abs(by_length - count)
        return count, float(np.clip(strength, 0, 1)) * float(np.clip(1 - fit, 0.1, 1.0))
    if length <= SLAB_SHARE[1] * diameter * 1.2:
        return 1, 0.5  # one slab: nothing to repeat
    return None, 0.0


def read_trays(frame: np.ndarray, corners: Corners, geometry: BoardGeometry,
               names: Sequence[str], centres_lab: np.ndarray) -> TrayReading:
    """Find a tray beside the field and count the checkers of each colour in it.

    ``names``/``centres_lab`` are the two checker colours (Lab, OpenCV 8-bit scale) as the
    field was read.  Both sides are searched; checkers found on both are added up (boards with
    a tray per player).
    """
    diameter = 2 * geometry.checker_radius * STRIP_SCALE
    centres = weighted(np.asarray(centres_lab, np.float32).reshape(2, 3))
    counts = {name: 0 for name in names}
    visible_sides: list[str] = []
    confidences: list[float] = []
    notes: list[str] = []
    unknown: set[str] = set()
    found_side: str | None = None
    # A tray is read only with its walls and the columns just beside them in the frame: at
    # least this many strip columns side by side (see find_tray_band's pairs of edges and the
    # test below); a side with fewer in view cannot show one, and is not drawn at all.
    least_in_view = TRAY_WIDTH[0] * diameter + 3
    to_field = homography(corners, geometry)
    for side in ("left", "right"):
        # The walls are looked for on a strip of fewer rows; only a side with a tray is drawn
        # again at full scale, for its checkers.
        strip, inside = _side_strip(frame, corners, geometry, side, least_in_view, to_field,
                                    SEARCH_ROW_SCALE)
        if strip is None:
            continue
        band = find_tray_band(_grey(strip), diameter, SEARCH_ROW_SCALE)
        if band is None:
            continue
        a, b = band
        if not inside[max(0, a - 2): b + 3].all():
            continue  # the tray runs out of the frame: count by the field instead
        visible_sides.append(side)
        strip, _ = _side_strip(frame, corners, geometry, side, 0.0, to_field)
        side_counts, side_conf, side_notes = _count_band(
            without_fourth_channel(strip[:, a: b + 1]), names, centres, diameter)
        confidences.extend(side_conf)
        notes.extend(n for n in side_notes if n not in notes)
        if sum(v for v in side_counts.values() if v):
            found_side = side if found_side is None else "both"
        for name in names:
            if side_counts[name] is None:
                unknown.add(name)
            else:
                counts[name] += side_counts[name]
    if not visible_sides:
        return TrayReading(False, notes=["no tray in view"])
    confidence = float(min(confidences)) if confidences else 0.8
    counts = {name: n for name, n in counts.items() if name not in unknown}
    return TrayReading(True, counts, found_side or visible_sides[0], round(confidence, 3), notes)


def _close_gaps(on: np.ndarray) -> np.ndarray:
    """A morphological closing of a row of flags by three: gaps of one or two flags are filled.
    The same as OpenCV's ``MORPH_CLOSE`` with a 3 x 1 kernel (beyond the ends counts as unset
    while growing and as set while shrinking, so a flag unset at an end next to a set one is
    set), whose call costs many times more on a few hundred flags.

    >>> _close_gaps(np.array([1, 0, 1, 0, 0, 0, 1, 0, 0, 1], bool)).astype(int).tolist()
    [1, 1, 1, 0, 0, 0, 1, 1, 1, 1]
    """
    grown = on.copy()
    grown[1:] |= on[:-1]
    grown[:-1] |= on[1:]
    closed = grown.copy()
    closed[1:] &= grown[:-1]
    closed[:-1] &= grown[1:]
    return closed


def _count_band(band: np.ndarray, names: Sequence[str], centres: np.ndarray, diameter: float
                ) -> tuple[dict[str, int | None], list[float], list[str]]:
    """Checkers of each colour in a tray (the band of the strip between its walls); a colour
    too like the tray's floor to tell apart is ``None``."""
    counts: dict[str, int | None] = {name: 0 for name in names}
    confidences: list[float] = []
    notes: list[str] = []
    # Leave the recess's walls out: a few pixels each side.
    inset = max(1, int(0.08 * band.shape[1]))
    band = band[:, inset: band.shape[1] - inset]
    if band.size == 0:
        return counts, confidences, notes
    lab8 = cv2.cvtColor(band, cv2.COLOR_BGR2LAB)
    planes = cv2.split(lab8)
    # Distances to the colours of the pixels' 8-bit Lab codes, weighted (see
    # calibration.colours.nearest_code_distance: the numbers of weighted float Lab, by tables).
    dist = [nearest_code_distance(planes, WEIGHTED_LEVELS, centre).ravel()
            for centre in centres]
    # The nearer of the two colours (the first on a tie, as an argmin would pick), without
    # stacking the two distances side by side.
    nearest = (dist[1] < dist[0]).astype(np.intp)
    near = np.minimum(dist[0], dist[1])
    # The floor: the half of the tray least like either checker colour (trays are seldom
    # more than half full).
    far = near >= median_of(near)
    floor = _masked_median_levels(lab8, far, WEIGHTED_LEVELS)
    floor_dist = nearest_code_distance(planes, WEIGHTED_LEVELS, floor).ravel()
    label = np.where((near < COLOUR_MATCH) & (near < floor_dist), nearest, -1)
    label = label.reshape(lab8.shape[:2])
    width = label.shape[1]
    grey: np.ndarray | None = None  # the band's grey, made when a run is first counted
    for k, name in enumerate(names):
        if np.sqrt(((centres[k] - floor) ** 2).sum()) < COLOUR_MATCH * 0.6:
            counts[name] = None
            notes.append(f"{name} checkers look like the tray's floor: not counted")
            continue
        mine = label == k
        fill = mine.sum(axis=1) / max(width, 1)
        # Close seams: a run may dip for a row or two between slabs.
        on = _close_gaps(fill >= 0.45)
        edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
        total: int | None = 0
        for start, stop in zip(edges[::2], edges[1::2]):
            if stop - start < MIN_RUN_SHARE * SLAB_SHARE[0] * diameter:
                continue
            if grey is None:
                grey = cv2.cvtColor(band, cv2.COLOR_BGR2GRAY).astype(np.float32)
            # The seams show in the whole row (light or dark, whatever the checkers' colour).
            lum = grey[start:stop].mean(axis=1)
            n, conf = count_run(fill[start:stop], lum, diameter)
            if n is None:
                total = None
                notes.append(f"something {name}-coloured in the tray is not a row of checkers: "
                             f"{name} not counted")
                break
            total += n
            confidences.append(conf)
        counts[name] = total
    return counts, confidences, notes


def _masked_median_levels(lab8: np.ndarray, mask: np.ndarray, levels: np.ndarray
                          ) -> np.ndarray:
    """Per channel, the median of the values ``levels`` (256 x 3, rising with the code) give
    an 8-bit Lab image's codes where ``mask`` (one flag per pixel, at least one set) is set:
    ``median_of(levels[lab8[..., k], k][mask])``, value for value, from a 256-bin histogram of
    each channel's codes (the middle one or two codes found by counting, their levels averaged
    as ``median_of`` averages) instead of a copy and a partition of the pixels per channel.

    >>> rng = np.random.default_rng(2)
    >>> lab8 = rng.integers(0, 256, (40, 9, 3), np.uint8)
    >>> levels = code_levels((LIGHTNESS_WEIGHT, 1, 1))
    >>> plain = weighted(lab8.astype(np.float32)).reshape(40, 9, 3)
    >>> for mask in (rng.random(360) < 0.5, np.arange(360) == 7, np.arange(360) < 2,
    ...              np.ones(360, bool)):
    ...     want = [median_of(plain[..., k].ravel()[mask]) for k in range(3)]
    ...     assert _masked_median_levels(lab8, mask, levels).tolist() == want
    """
    n = int(np.count_nonzero(mask))
    half = n // 2
    mask8 = np.ascontiguousarray(mask).view(np.uint8).reshape(lab8.shape[:2])
    # The pixels left out made code 0 (cv2.calcHist's own mask costs several times more),
    # then taken off that bin's count.
    kept = cv2.split(cv2.bitwise_and(lab8, lab8, mask=mask8))
    out = np.empty(3, np.float32)
    for k in range(3):
        histogram = cv2.calcHist([kept[k]], [0], None, [256], [0, 256]).ravel().astype(np.int64)
        histogram[0] -= mask.size - n
        counted = np.cumsum(histogram)
        # The code of the i-th least value (from 0): the first whose running count passes i.
        upper = levels[int(np.searchsorted(counted, half, side="right")), k]
        if n % 2:
            middle = [upper]
        else:
            middle = [levels[int(np.searchsorted(counted, half - 1, side="right")), k], upper]
        out[k] = np.mean(np.array(middle, np.float32))
    return out
