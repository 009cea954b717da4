"""Finding dice in a frame and reading their top faces.

The reader works from the pips outward, so it needs no knowledge of the dice's colour
or size:

1. **Pips.**  Small compact blobs darker than their surroundings (black pips on light
   dice) or lighter (white pips on red, green, black dice) are found at several scales
   with morphological black-hat/top-hat filters; each gets an ellipse (its second
   moments), a contrast and the colour of the face around it.  Pips of a few pixels that
   blur has joined (with each other or the die's rim) into a blob too large for the
   smallest scale are its cores at higher contrast; on a board, so are the rows of pips (a six's
   column) that blur joins at the scales above, or into one streak at any scale, when the cores
   are round pips alike in a line (such a row's pips make no face of one to three pips).
2. **Faces.**  Pips on one face of a die have the same shape (a face is a plane: the
   same foreshortening turns all its round pips into equal ellipses) and lie close
   together *measured in pip radii after undoing that foreshortening*; the face between
   them has the colour around them.  Pips joined that way form a candidate face,
   which must match one of the six pip layouts of :mod:`vision.dice.faces` under a
   similarity transform; faces that do not are split (into the cliques of linked pips that
   fit, when those hold all the group's pips: touching dice; else at the longest links) or
   dropped.  Pips streaked alike are also fitted as a moving die's (motion blur streaks
   every pip alike but leaves their centres in place, unlike foreshortening).
3. **Dice.**  The face seen most squarely (roundest pips) is a die's top; faces next to
   it, foreshortened differently or sharing an edge with it, are its side faces and join
   the nearest top (without a region, the top they lie on the camera's side of); a "top"
   far smaller than the frame's other tops, beside one of them, is a side face too.  A
   single pip (a one) counts only if a face edge closes around it at a plausible distance
   (the short rays give the face's size; the face's colour is the pip's ring's or, where a
   blurred pip's halo fills that ring, the colour just beyond it) with no pip like it inside that reach, or if its
   die's side faces lie beside it; it is not read when a pip like it is linked to it (as pips of
   a face are) within a two's diagonal: the two's other pip, their link cut when a cocked two's
   side face's pips joined their group.  A face partly out of the frame is not read when
   another value would look the same in the part that is seen (half a four shows a two).  A face with
   unexplained marks on it, or with a pip-like spot where a larger layout has a pip
   (a five whose faint pips were missed must not read as a three), is not read; nor is a
   top beside a face seen just like it whose pips and its own make one layout (the two
   columns of a small six, not grouped together).
4. **Cocked dice.**  The top face of a die lying flat is parallel to the board, and its
   side faces show no more than the camera's slant allows.  With the playing field's
   corners (``region``) the board's slant at every point is known (the homography of
   the field; where its corners leave the camera's lens open, as when its top and bottom
   edges look parallel, a steeper slant is taken when two or more dice's tops square on the
   board under it and not under the field's sides' own), and a die is cocked only on positive
   evidence of a tilt: its top's pips (when
   large enough to show their shape) or its top's outline (four to six pips, whose centres
   are found to a fraction of a pixel) not fitting a face parallel to the board, or a side
   face shown more than the slant allows (its layout of two or more pips seen more open across
   its edge with the top than the slant's sine, measured from the pips' centres, whether the pips
   beside the top on one side of it were grouped as a face or found in pieces, or from a lone
   side pip by the middle of the edge of a top of four to six pips, half the face deep; else its
   pips seen more roundly, or, too small for that, as large as the top's; a side face whose layout
   is seen no more open than that shows only slivers, whose shapes blur rounds; or, its pips
   too faint to find, as a band of the die's colour (past its pips), shaded or lit as brightly as the top, deeper
   beyond the top's edge than beyond the opposite edge by more than the slant's sine and
   ``cocked_side_margin``, on a board of another colour (or ending, shaded, on the die's own shadow
   of a hue near its own, judged past the edge's blur, as deep all along the edge); beyond a one's
   outline turned as its face's colour ends around the pip), or a pip beside a top of two or three
   pips seen more squarely than all of them (rounder, as large, clearer: the top's own pip, beside
   the side face that passed for a top), or a top of two or three pips in a row whose face reaches
   across that row, on the board's plane, clearly less far than a flat square face's corners lie
   on one side while its colour runs on over the fold onto the real top on the other (a side face
   seen nearly as squarely as the top of a die tilted 30-40 degrees).  A small die
   whose outline can be measured but does not
   fit the flat prediction closely is not read (it may lean a little), and never called
   cocked for being small; a one whose pip is too small to show its shape has its outline
   measured by rays from the pip to where its face's colour ends.  Without the corners the
   slant is unknown (a die seen at a slant looks like a cocked die seen from above): the
   side on which this camera shows the dice's side faces is learnt from the dice whose
   top is plain (failing that, below the tops, as an upright camera shows them), and a
   die showing a side face about as squarely as its top elsewhere is called cocked.  A cocked die's value is never given.
  Pips beside a two or three like its own, right where a four or six puts its other pips (or making one
  layout of four or more with its own), are the rest of its face found in pieces (a pip by the
  die's edge lost): no side face, no sign of a tilt, and the die is not read.
5. **A face around the pips.**  On a board, marks that pair up like pips are also found
   between and on checkers (light gaps between touching discs, whose sides are the discs'
   arcs; a logo inside a disc's rim), mostly as ones, twos and threes.  A die's top is a patch
   of one colour closing around its pips close to the square their layout implies: rays from
   its centre must keep the face's colour most of the way out and leave it near that square,
   on most sides (a one's colour, where its blurred pip's halo fills the pip's ring, is judged
   beyond that halo, as its face was found).  A "face" of one to three pips without that
   outline is no die, cocked or not.
   Dice of a set are the same size on the board's plane: a one far smaller there than the
   frame's dice of two or more pips is a mark (the light hole in a doubling cube's "4", "6" or
   "8", whose strokes pass for a dark die's face), not a die, and so is a two far smaller than
   the dice of three or more pips (the two holes of an "8"); so is a one whose pip is flatter on
   the board than a die's top can lean (45 degrees at most: that hole is a triangle or an oval).
   Anywhere, a one's face is plain: a mark as clear as its pip inside it (the "1" beside the dark
   "6" of a cube's "16", which passes for a black pip on the cube's white face) makes it no one;
   and a light "one" whose face is barely wider than its pip, past which the colour is as light
   as the pip or lighter, is the hole of a dark digit on the cube's white face (on a table, where
   no board sizes the dice, the hole of the "4" of its "64").

>>> import numpy as np
>>> from vision.dice.render import draw_die
>>> frame = np.full((200, 300, 3), (50, 120, 40), np.uint8)
>>> _ = draw_die(frame, (90, 100), 44, 5, angle_deg=20, style="white")
>>> _ = draw_die(frame, (210, 100), 44, 3, angle_deg=-35, style="red")
>>> observation = DiceReader().read(frame)
>>> [(round(d.x), round(d.y), d.value, d.cocked) for d in observation.dice]
[(90, 100, 5, False), (210, 100, 3, False)]
>>> observation.roll()
(5, 3)
"""
from __future__ import annotations

import math
import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

from vision.dice.faces import PIP_LAYOUTS, PIP_OFFSET, PIP_RADIUS

Point = tuple[float, float]

#: A pip's radius (pixels) from which its ellipse shows its shape (axis ratio, foreshortening):
#: the ellipses of smaller pips are too coarse to tell a round pip from a slanted one.
SHAPE_RADIUS = 2.5


# ----------------------------------------------------------------------------- results

@dataclass(frozen=True)
class Die:
    """One die seen in a frame: centre of its top face (pixels), the value or ``None``.

    ``value`` is ``None`` when the die is cocked or cannot be read; ``confidence`` is
    in ``[0, 1]``; ``size_px`` is the estimated edge length of the top face.

    >>> Die(10.0, 20.0, 4, 0.9, False).to_json()
    {'x': 10.0, 'y': 20.0, 'value': 4, 'confidence': 0.9, 'cocked': False}
    """

    x: float
    y: float
    value: int | None
    confidence: float
    cocked: bool
    size_px: float = 0.0

    def to_json(self) -> dict:
        return {"x": round(float(self.x), 1), "y": round(float(self.y), 1), "value": self.value,
                "confidence": round(float(self.confidence), 3), "cocked": bool(self.cocked)}


@dataclass(frozen=True)
class DiceObservation:
    """The dice found in a frame (left to right).

    >>> obs = DiceObservation((Die(5, 5, 6, 0.9, False), Die(50, 5, 2, 0.8, False)))
    >>> obs.roll(), obs.to_json()["dice"][1]["value"]
    ((6, 2), 2)
    >>> DiceObservation((Die(5, 5, None, 0.9, True), Die(50, 5, 2, 0.8, False))).roll() is None
    True
    """

    dice: tuple[Die, ...] = ()

    def roll(self) -> tuple[int, int] | None:
        """The roll, larger die first, when exactly two dice lie in the field and both read flat."""
        if len(self.dice) != 2 or any(d.value is None or d.cocked for d in self.dice):
            return None
        a, b = (d.value for d in self.dice)
        return (max(a, b), min(a, b))

    @property
    def any_cocked(self) -> bool:
        return any(d.cocked for d in self.dice)

    def to_json(self) -> dict:
        return {"dice": [d.to_json() for d in self.dice]}


# ----------------------------------------------------------------------------- pips

@dataclass
class Pip:
    """A pip candidate: centre, second-moment ellipse, polarity (+1 dark on light, -1 light on dark)."""

    x: float
    y: float
    cov: np.ndarray = field(repr=False)
    area: int
    polarity: int
    contrast: float
    pip_grey: float = 0.0
    face_grey: float = 0.0
    face_spread: float = 0.0
    face_bgr: np.ndarray = field(default=None, repr=False)
    #: Found as the lone core of a blob too large for the scale (no one by itself).
    split_out: bool = False
    #: The face around the pip on the plainest half of its ring (grey, spread, colour): a pip
    #: near its face's edge, on a small or blurred die, has the face on that side only.
    side_grey: float = 0.0
    side_spread: float = 255.0
    side_bgr: np.ndarray = field(default=None, repr=False)
    #: Kept only for the plainest half of its ring (its face ends close by, or is doubtful): it
    #: makes no face of one to three pips (a one's pip lies at its face's centre, far from every
    #: edge; a column of a small six whose other column was missed passes for a three), only
    #: one of four to six, whose layout marks rarely fall into by chance.
    by_an_edge: bool = False
    #: Split out of a streak, a row of pips blur had joined (:func:`_blobs_in_component`): a column
    #: of a six.  Like a pip by an edge it makes only a face of four to six pips (the other
    #: column, missed, would leave a three).
    in_a_row: bool = False

    def clarity(self, grey: float, spread: float) -> float:
        """How far the pip stands out from a face of that grey level and spread (+8 grey levels)."""
        return abs(grey - self.pip_grey) / (spread + 8.0)

    @property
    def xy(self) -> np.ndarray:
        return np.array([self.x, self.y])

    @cached_property
    def shape(self) -> np.ndarray:
        """Matrix S with the pip's outline ``{c + S u : |u| = 1}``."""
        vals, vecs = np.linalg.eigh(self.cov)
        return vecs @ np.diag(2.0 * np.sqrt(np.maximum(vals, 1e-6)))

    @cached_property
    def radius(self) -> float:
        """Radius of the circle of the same area."""
        return float(2.0 * np.linalg.det(self.cov) ** 0.25)

    @cached_property
    def axis_ratio(self) -> float:
        vals = np.linalg.eigvalsh(self.cov)
        return float(math.sqrt(max(vals[0], 1e-9) / max(vals[1], 1e-9)))


@dataclass(frozen=True)
class ReaderSettings:
    """The reader's knobs, with the values it was developed with."""

    #: Morphological kernel sizes (pixels): a pip must be smaller than 0.8 of one of them.
    scales: tuple[int, ...] = (5, 9, 15, 25, 41, 67)
    #: A pip differs from its surroundings by at least this fraction of their brightness ...
    min_relative_contrast: float = 0.16
    #: ... and by at least this many grey levels.
    min_contrast: float = 14.0
    #: A pip's contrast to the face around it over that face's spread (+8 grey levels), at least.
    min_pip_clarity: float = 1.2
    #: A lone pip is a one only if its face's half-edge is at least this many pip radii.
    min_one_margin: float = 3.5
    #: Faces smaller than this (edge, pixels) are too small to read.
    min_face_px: float = 8.0
    #: Largest distance between two pips of a face, in pip radii (the diagonal of a 2 is ~8.3).
    max_pip_distance: float = 11.5
    #: Largest misfit of a pip group to its layout, as a fraction of the face diagonal:
    #: up to three pips (fitted by a similarity) ...
    max_layout_error: float = 0.16
    #: ... and four to six pips (fitted by an affine map, a parallelogram face).
    max_parallelogram_error: float = 0.06
    #: Pip radius as a fraction of the face edge: the range accepted.
    pip_radius_range: tuple[float, float] = (0.055, 0.14)
    #: A top face foreshortened more than this against the board plane is cocked ...
    cocked_axis_ratio: float = 0.88
    #: ... and so is a die whose side faces show more than the camera's slant explains ...
    cocked_side_margin: float = 0.3
    #: ... or, when the board's slant is unknown, whose side face is seen nearly as squarely as its top.
    cocked_side_ratio: float = 0.85
    #: On a board (region given), a die whose pips are smaller than this (radius, pixels) is
    #: reported without a value (a pip of about a pixel is noise as often as a pip).
    min_pip_radius_for_tilt: float = 1.2
    #: A top face whose outline (four to six pips), once the board's own foreshortening is undone,
    #: is narrower than this fraction of its width (less its measurement's tolerance) is tilted.
    cocked_outline_ratio: float = 0.8
    #: On a board, a die's top of one to three pips must show its outline (its colour ending near
    #: the square its pips imply) on more than half the rays from its centre: a side face seen
    #: beside it, its shadow, or a board of its colour on one side may hide much of the rest.
    min_outline_share: float = 0.55
    #: On a board, a one whose pip (when large enough to show its shape) is narrower than this on
    #: the board's plane is no die: no die's top is tilted more than 45 degrees (cos 45 = 0.71).
    steepest_top_squareness: float = 0.7
    #: Dice of a set are the same size: on a board, a one whose face (its outline found by rays from
    #: the pip) is under this fraction of the median edge of the frame's dice of two or more pips,
    #: both measured on the board's plane, is a mark (the light hole of a doubling cube's "4", "6"
    #: or "8", a third of a die's size), not a die; so is a two under this fraction of the median
    #: edge of the dice of three or more pips (the two holes of an "8").  Over the development
    #: board frames the twos measured 0.68 of those dice or more, the holes of an "8" 0.32.
    min_one_size_ratio: float = 0.5


def _grey(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2:
        return frame.astype(np.float32)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)


@dataclass
class PipField:
    """The pip candidates of a frame, with the grey image and a map of which pip covers each pixel."""

    pips: list[Pip]
    grey: np.ndarray = field(repr=False)
    owner: np.ndarray = field(repr=False)  # index into pips, -1 where no pip
    near_pip: np.ndarray = field(default=None, repr=False)  # pips grown by their blurred rim
    typical_grey: float = 128.0                              # median grey of the frame

    def __post_init__(self) -> None:
        if self.near_pip is None:
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
            self.near_pip = cv2.dilate((self.owner >= 0).astype(np.uint8), kernel) > 0


def find_pips(frame: np.ndarray, mask: np.ndarray | None = None,
              settings: ReaderSettings = ReaderSettings(), split_joined: bool = False) -> PipField:
    """Pip candidates in a BGR frame (optionally only where ``mask`` is non-zero).

    ``split_joined``: also split pips that blur has joined into a blob too large for every scale
    (:data:`JOINED_PIPS_REACH`).  The reader asks for it on a board, which its camera sees from
    above: there a row of pips lies on a top face.  A camera grazing a table shows the side
    faces' rows of pips about as squarely as the tops, and more of them found there can make a
    side face pass for a top (a real photo's small dice, seen that way, lost a one to its side's three).

    >>> import numpy as np
    >>> img = np.full((60, 60, 3), 220, np.uint8)
    >>> _ = cv2.circle(img, (20, 30), 3, (20, 20, 20), -1)
    >>> [(round(p.x), round(p.y), p.polarity) for p in find_pips(img).pips]
    [(20, 30, 1)]
    """
    grey = cv2.GaussianBlur(_grey(frame), (0, 0), 0.7)
    h, w = grey.shape
    bgr = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    candidates: list[tuple[float, Pip, np.ndarray, np.ndarray]] = []
    previous = 0
    # Blobs that were too large for the previous scale, per polarity (that scale's labels and
    # which of them were too large): a blob's measured size changes with the scale (a pip 13 px
    # wide at one scale may measure 12 at the next), so these are looked at again below that
    # scale's band.
    too_large: dict[int, tuple[np.ndarray, np.ndarray] | None] = {1: None, -1: None}
    grey_plus_10 = grey + 10.0
    for k in settings.scales:
        if k > 2 * min(h, w):
            break
        smallest, previous = 0.8 * previous, k  # smaller blobs were candidates at the previous scale
        # Large kernels work on a smaller copy (same result for large pips, far faster).
        factor = 1 if k <= 15 else 2 if k <= 30 else 4
        small = grey if factor == 1 else cv2.resize(grey, (max(1, w // factor), max(1, h // factor)),
                                                   interpolation=cv2.INTER_AREA)
        size = max(3, int(round(k / factor)) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        for polarity in (1, -1):
            reference = cv2.morphologyEx(small, cv2.MORPH_CLOSE if polarity == 1 else cv2.MORPH_OPEN, kernel)
            if factor != 1:
                reference = cv2.resize(reference, (w, h), interpolation=cv2.INTER_LINEAR)
            # (In place where an array is not needed again: these passes over the whole image
            # are much of the search's time.)
            if polarity == 1:
                np.maximum(reference, grey, out=reference)
                diff = reference - grey
                reference += 10.0
                relative = np.divide(diff, reference, out=reference)
            else:
                np.minimum(reference, grey, out=reference)
                diff = np.subtract(grey, reference, out=reference)
                relative = diff / grey_plus_10
            binary = relative > settings.min_relative_contrast
            binary &= diff > settings.min_contrast
            if mask is not None:
                binary &= mask > 0
            n, labels, stats, _ = cv2.connectedComponentsWithStats(binary.view(np.uint8), connectivity=8)
            level: list[tuple[Pip, np.ndarray, np.ndarray, int]] = []
            extent = np.maximum(stats[:, 2], stats[:, 3])
            big = extent > 0.8 * k
            big[0] = False
            # The blobs worth a look, chosen all at once (most components are specks or were
            # candidates at the previous scale).  (A blob looked at again is one just below the
            # band: far smaller ones were candidates at the previous scale.)
            wanted = (stats[:, 4] >= 2) & (extent > smallest)
            if too_large[polarity] is not None:
                # Which of the blobs just below the band overlap one too large for the previous
                # scale (only those few are looked up, not the whole image).
                previous_labels, previous_big = too_large[polarity]
                for i in np.flatnonzero((stats[:, 4] >= 2) & ~wanted & (extent > 0.75 * smallest)).tolist():
                    if i == 0:
                        continue
                    x, y, bw, bh, _ = stats[i].tolist()
                    here = labels[y:y + bh, x:x + bw] == i
                    if previous_big[previous_labels[y:y + bh, x:x + bw][here]].any():
                        wanted[i] = True
            too_large[polarity] = (labels, big) if big.any() else None
            first = k == settings.scales[0]
            if first or (split_joined and k <= JOINED_PIPS_MAX_SCALE):
                wanted &= ~(big & (extent > (6 if first else JOINED_PIPS_REACH) * k))
            else:
                wanted &= ~big
            wanted[0] = False
            for i in np.flatnonzero(wanted).tolist():
                x, y, bw, bh, area = stats[i].tolist()
                ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == i)
                blobs = _blobs_in_component(xs + x, ys + y, diff, polarity,
                                            0.8 * k if big[i] and split_joined else None)
                if big[i]:
                    # Pips of a few pixels lie closer together than the smallest kernel: their
                    # halos join them (and the die's rim) into a component too large for it, whose
                    # cores at higher contrast are the pips.  (A single core of a large blob is as
                    # often a hole in a mark, a digit's loop: it may join other pips into a face,
                    # but is no one by itself.)
                    blobs = [b for b in blobs if max(np.ptp(b[1]), np.ptp(b[2])) + 1 <= 0.8 * k]
                    if not first:
                        blobs = _joined_pips(blobs)
                    for pip, _, _ in blobs:
                        pip.split_out = len(blobs) == 1
                for pip, pxs, pys in blobs:
                    level.append((pip, pxs, pys, i))
            for pip, xs, ys, label in level:
                _describe_surroundings(bgr, grey, pip, labels, label, full=False, unowned=0)
                score = abs(pip.face_grey - pip.pip_grey) / (pip.face_spread + 8.0)
                candidates.append((score, pip, xs, ys))
    # Where candidates of several scales overlap, keep the one that looks most like a pip (a pip
    # split out of a streak only where no scale found it by itself: its core is a pip's middle).
    candidates.sort(key=lambda c: (c[1].in_a_row, -c[0]))
    accepted: list[Pip] = []
    taken = np.full((h, w), -1, np.int32)
    for score, pip, xs, ys in candidates:
        if score < 1.0 or (taken[ys, xs] >= 0).any():
            continue
        taken[ys, xs] = len(accepted)
        accepted.append(pip)
    # A blob with other pips inside it is a die face (a small light die on a dark board), not a pip.
    centres = np.array([p.xy for p in accepted]).reshape(-1, 2)
    faces = set()
    radii = np.array([p.radius for p in accepted])
    for index, pip in enumerate(accepted):
        smaller = 2.5 * radii < pip.radius
        if not smaller.any():
            continue      # (most pips: none is that much smaller)
        v = centres - pip.xy
        inside = np.einsum("ij,jk,ik->i", v, np.linalg.inv(4.0 * pip.cov), v) < 1.0
        if (inside & smaller).any():
            faces.add(index)
    if faces:
        accepted = [p for i, p in enumerate(accepted) if i not in faces]
        renumber = np.full(len(centres) + 1, -1, np.int32)
        kept = [i for i in range(len(centres)) if i not in faces]
        renumber[kept] = np.arange(len(kept))
        taken = renumber[taken]          # -1 indexes the last entry, which stays -1
    for index, pip in enumerate(accepted):  # surroundings again, now that the other pips are known
        _describe_surroundings(bgr, grey, pip, taken, index)
    # A pip sits on a plain face: its surroundings vary far less than it stands out from them.
    # Light pips (on red, green, black dice) are painted white: brighter than most of the frame,
    # unlike the grey glyphs on a keyboard's keys.
    # A pip near its face's edge on a small die (its ring reaching over the edge's blur) is
    # judged against the plainest half of its ring, and that half is its face.
    typical = float(np.median(grey if mask is None else grey[mask > 0]))
    for pip in accepted:
        if pip.clarity(pip.face_grey, pip.face_spread) < settings.min_pip_clarity <= \
                pip.clarity(pip.side_grey, pip.side_spread):
            pip.face_grey, pip.face_spread, pip.face_bgr = pip.side_grey, pip.side_spread, pip.side_bgr
            pip.by_an_edge = True
    plain = [i for i, p in enumerate(accepted)
             if p.clarity(p.face_grey, p.face_spread) >= settings.min_pip_clarity
             and (p.polarity > 0 or p.pip_grey >= 0.7 * typical)]
    if len(plain) < len(accepted):
        renumber = np.full(len(accepted) + 1, -1, np.int32)
        renumber[plain] = np.arange(len(plain))
        taken = renumber[taken]
        accepted = [accepted[i] for i in plain]
    return PipField(accepted, grey, taken, typical_grey=typical)


#: At scales above the first, a blob too large for the scale but no more than this many kernel
#: widths across is split into its cores when they are pips alike (:func:`_joined_pips`): a
#: column of three pips of a six whose halos blur together spans about three pip widths, too
#: large for the scale that fits one pip, and its pips would be lost at every scale.
JOINED_PIPS_REACH = 3
#: ... at scales up to this kernel size (pips of a few pixels, which blur joins; a stack of
#: checkers on a point is a row of round blobs too, touching, at the largest scales).
JOINED_PIPS_MAX_SCALE = 25


def _joined_pips(blobs: list[tuple[Pip, np.ndarray, np.ndarray]]) -> list[tuple[Pip, np.ndarray, np.ndarray]]:
    """The cores split out of a blob too large for its scale that are a row of pips blur had
    joined (a column of a six): those about as clear as the clearest (0.8 of its contrast: a face's
    pips are painted alike; a gap between a die and a dark point beside it is fainter), when three
    or more remain, each round (axis ratio at least 0.6), of about one size (radii within 1.5x),
    in a line (none further from the line through the outer two than half a pip's radius) with
    face between them (neighbours at least 2.4 radii apart); else none.  (A core of an edge or a stroke is long, or alone; the two holes of a cube's "8" are a
    pair, not a row.)

    >>> def pip(x, y, r=3.0, ratio=1.0, contrast=50.0):
    ...     return (Pip(x, y, np.diag([r * r / 4, ratio * ratio * r * r / 4]), 9, 1, contrast), None, None)
    >>> row = [pip(0, 0), pip(9, 0.5), pip(18, 0)]
    >>> [len(_joined_pips(b)) for b in (row, row[:2], [*row[:2], pip(18, 9)], [*row, pip(4, 9, contrast=35.0)],
    ...                                 [*row[:2], pip(18, 0, ratio=0.4)], [pip(0, 0), pip(6, 0), pip(12, 0)])]
    [3, 0, 0, 3, 0, 0]
    """
    strongest = max((pip.contrast for pip, _, _ in blobs), default=0.0)
    alike = [b for b in blobs if b[0].contrast >= 0.8 * strongest]
    if len(alike) < 3:
        return []
    radii = [pip.radius for pip, _, _ in alike]
    if any(pip.axis_ratio < 0.6 for pip, _, _ in alike) or max(radii) > 1.5 * min(radii):
        return []
    centres = np.array([pip.xy for pip, _, _ in alike])
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    a, b = np.unravel_index(int(np.argmax(gaps)), gaps.shape)
    along = (centres[b] - centres[a]) / max(float(gaps[a, b]), 1e-9)
    off_line = np.abs((centres - centres[a]) @ np.array([-along[1], along[0]]))
    # A face's pips have face between them (a six's column: ~2.9 radii apart); touching discs
    # (checkers stacked on a point) lie two radii apart.
    nearest = np.where(np.eye(len(alike), dtype=bool), np.inf, gaps).min(axis=1)
    if float(off_line.max()) > 0.5 * min(radii) or float(nearest.min()) < 2.4 * float(np.mean(radii)):
        return []
    return alike


#: The variance of a pixel's own extent (a unit square), added to a blob's covariance.
_PIXEL_VARIANCE = np.eye(2) / 12.0


def _pip_shape(xs: np.ndarray, ys: np.ndarray) -> np.ndarray | None:
    """Covariance of a pixel set if it is shaped like a pip (a filled ellipse), else ``None``.

    >>> yy, xx = np.nonzero(np.hypot(*np.mgrid[-4:5, -4:5]) <= 3.5)
    >>> np.round(_pip_shape(xx, yy), 2).tolist()
    [[3.0, 0.0], [0.0, 3.0]]
    >>> _pip_shape(np.arange(12), np.zeros(12, int)) is None    # a line, no pip
    True
    """
    area = len(xs)
    if area < 2:
        return None
    # The covariance as np.cov(..., bias=True) computes it, without its general-case overhead
    # (it dominated the search for pips).
    centred = np.array((xs, ys), dtype=np.float64)
    centred -= np.array((float(xs.sum()) / area, float(ys.sum()) / area))[:, None]
    cov = centred @ centred.T
    cov *= 1.0 / area
    cov += _PIXEL_VARIANCE
    # (The determinant and eigenvalues of the 2x2 matrix in closed form: np.linalg's per-call
    # overhead was much of this function's time.)
    (sxx, sxy), (_, syy) = cov.tolist()
    det = sxx * syy - sxy * sxy
    fill = area / (math.pi * 4.0 * math.sqrt(max(det, 1e-9)))
    # Small blobs are too coarse to judge; larger ones must fill their ellipse (no rings, no glyphs).
    lo, hi = (0.55, 1.5) if area < 12 else (0.75, 1.3)
    if not lo <= fill <= hi:
        return None
    mean, offset = 0.5 * (sxx + syy), math.hypot(0.5 * (sxx - syy), sxy)
    if mean - offset < 0.04 * (mean + offset):  # axis ratio below 0.2
        return None
    return cov


def _blobs_in_component(xs: np.ndarray, ys: np.ndarray, diff: np.ndarray, polarity: int,
                        largest: float | None = None) -> list[tuple[Pip, np.ndarray, np.ndarray]]:
    """The pips in one thresholded component: its core, or, when blur has joined pips, the parts
    its core splits into at higher contrast levels.

    ``largest``: a pip's greatest extent (pixels) at this scale (given on a board, see
    ``find_pips(split_joined)``).  A single core wider than that may be pips joined by blur (a
    small six's column, turned, whose pips blur joins into one streak that is still a filled
    ellipse at half the peak): its parts at the higher levels are its pips when they are a row of
    pips alike (:func:`_joined_pips`)."""
    joined, streak = False, None
    strength = diff[ys, xs]
    peak = float(strength.max())
    for level in (0.5, 0.65, 0.8):
        core = strength >= level * peak
        cx, cy = xs[core], ys[core]
        if len(cx) < 2:
            break
        x0, y0 = int(cx.min()), int(cy.min())
        patch = np.zeros((int(cy.max()) - y0 + 1, int(cx.max()) - x0 + 1), np.uint8)
        patch[cy - y0, cx - x0] = 1
        n, labels = cv2.connectedComponents(patch, connectivity=8)
        if n == 2:
            # One core: its pixels, in the same (row-major) order as the component's.
            parts = [(cx, cy, strength[core])]
        else:
            parts = []
            for j in range(1, n):
                py, px = np.nonzero(labels == j)
                px, py = px + x0, py + y0
                parts.append((px, py, None))
        found = []
        for px, py, values in parts:
            cov = _pip_shape(px, py)
            if cov is not None:
                # (Sums of pixel coordinates are exact: the same means as .mean(), sooner.)
                contrast = float((diff[py, px] if values is None else values).mean())
                found.append((Pip(float(px.sum()) / len(px), float(py.sum()) / len(py), cov, len(px), polarity,
                                  contrast), px, py))
        if n == 2 and found:
            if not joined and (largest is None or max(np.ptp(cx), np.ptp(cy)) + 1 <= largest):
                return found             # one round core: a pip
            if not joined:
                streak = (cx, cy)        # a streak: pips joined by blur, or a mark
            joined = True
            continue
        if n > 2 and len(found) >= 2:
            if not joined:
                return found             # joined pips, now apart
            # Each of a streak's pips covers the streak's pixels nearest to its core (they are
            # no mark beside it).
            found = _joined_pips(found)
            if not found:
                return []
            sx, sy = streak
            middles = np.array([pip.xy for pip, _, _ in found])
            nearest = np.argmin(np.hypot(sx[:, None] - middles[None, :, 0], sy[:, None] - middles[None, :, 1]), axis=1)
            for pip, _, _ in found:
                pip.in_a_row = True
            return [(pip, sx[nearest == j], sy[nearest == j]) for j, (pip, _, _) in enumerate(found)]
    return []


def _describe_surroundings(bgr: np.ndarray, grey: np.ndarray, pip: Pip, owner: np.ndarray, index: int,
                           full: bool = True, unowned: int = -1) -> None:
    """Fill in a pip's grey level and the colour of the face around it (a ring, other pips excluded).

    ``owner`` tells which pip covers each pixel (``index`` for this one, ``unowned`` where none).
    ``full=False`` is the quick version used to rank candidates: no colour, spread from the deviation.
    """
    h, w = grey.shape
    if full:
        s = pip.shape
        (a, b), (c, d) = np.linalg.inv(s).tolist()
        reach = max(abs(s[0, 0]) + abs(s[0, 1]), abs(s[1, 0]) + abs(s[1, 1]))
    else:
        # The same outline in closed form (called for every candidate of every scale, where
        # np.linalg's per-call overhead was much of the time; the pip's own shape, which its
        # rays follow later, is left to be computed as before).
        (sxx, sxy), (_, syy) = pip.cov.tolist()
        mean, offset = 0.5 * (sxx + syy), math.hypot(0.5 * (sxx - syy), sxy)
        major, minor = 2.0 * math.sqrt(max(mean + offset, 1e-6)), 2.0 * math.sqrt(max(mean - offset, 1e-6))
        angle = 0.5 * math.atan2(2.0 * sxy, sxx - syy)        # of the major axis
        cos, sin = math.cos(angle), math.sin(angle)
        reach = max(abs(cos) * major + abs(sin) * minor, abs(sin) * major + abs(cos) * minor)
        # inverse of S = R diag(major, minor): diag(1/major, 1/minor) R^T
        a, b, c, d = cos / major, sin / major, -sin / minor, cos / minor
    half = int(math.ceil(2.6 * reach)) + 2
    cx, cy = int(pip.x), int(pip.y)
    x0, y0 = max(0, cx - half), max(0, cy - half)
    x1, y1 = min(w, cx + half + 1), min(h, cy + half + 1)
    # The distance of each pixel from the centre in pip radii (the pip's outline undone), from
    # the row and column offsets (no per-pixel offset array).
    ox = np.arange(x0, x1) - pip.x
    oy = (np.arange(y0, y1) - pip.y)[:, None]
    rho = np.hypot(ox * a + oy * b, ox * c + oy * d)
    own = owner[y0:y1, x0:x1]
    region = grey[y0:y1, x0:x1]
    inside = own == index
    pip_values = region[inside]
    pip.pip_grey = float(pip_values.mean()) if pip_values.size else float(grey[cy, cx])
    free = own == unowned
    ring = (rho > 1.4) & (rho < 2.1) & free
    if np.count_nonzero(ring) < 4:
        ring = (rho > 1.3) & (rho < 3.0) & free
        if np.count_nonzero(ring) < 3:
            pip.face_grey, pip.face_spread = pip.pip_grey, 255.0
            pip.face_bgr = bgr[cy, cx].astype(np.float32)
            return
    values = region[ring]
    if not full:
        pip.face_grey = float(values.mean())
        pip.face_spread = float(2.56 * values.std())
        return
    pip.face_grey = float(np.median(values))
    low, high = np.percentile(values, (10, 90)).tolist()
    pip.face_spread = float(high - low)
    colours = bgr[y0:y1, x0:x1][ring]
    pip.face_bgr = np.median(colours, axis=0).astype(np.float32)
    # The plainest half of the ring.  A pip lies inside its face, so a straight edge of the face
    # near it (or the corner of two, no nearer than the ring's reach over sqrt 2) leaves at least
    # the half of the ring turned away from it on the face; on a small die, blurred, the full
    # ring reaches over that edge.
    pip.side_grey, pip.side_spread, pip.side_bgr = pip.face_grey, pip.face_spread, pip.face_bgr
    ys, xs = np.nonzero(ring)
    if len(values) < 8:
        return
    dx, dy = xs + (x0 - pip.x), ys + (y0 - pip.y)
    best = pip.clarity(pip.face_grey, pip.face_spread)
    for angle in np.arange(8) * (math.pi / 4):
        half = dx * math.cos(angle) + dy * math.sin(angle) >= 0.0
        if np.count_nonzero(half) < 4:
            continue
        side = values[half]
        low, high = np.percentile(side, (10, 90)).tolist()
        middle = float(np.median(side))
        clarity = pip.clarity(middle, high - low)
        if clarity > best:
            best = clarity
            pip.side_grey, pip.side_spread = middle, float(high - low)
            pip.side_bgr = np.median(colours[half], axis=0).astype(np.float32)


# ----------------------------------------------------------------------------- faces

@dataclass
class Face:
    """A group of pips fitted to one of the six layouts."""

    pips: list[int]
    value: int
    centre: np.ndarray            # image coordinates
    corners: np.ndarray           # 4x2 image coordinates (estimated for a one)
    error: float                  # layout misfit, fraction of the diagonal
    polarity: int
    metric: np.ndarray = field(repr=False)   # 2x2: squared pip-radius units per pixel^2
    minor: float = 0.0            # mean minor semi-axis of its pips (pixels)
    radius: float = 0.0           # mean pip radius (pixels)
    roundness: float = 1.0        # median axis ratio of its pips
    #: The same pips fitted as a motion-blurred face (their streaks not taken for foreshortening).
    blurred: Face | None = field(default=None, repr=False)

    @property
    def squareness(self) -> float:
        """How squarely the face is seen: its pips' minor/major axis ratio (1 = head on).

        Unlike pip sizes this does not depend on the pips being alike (a one's pip is often
        larger); the ellipses of pips under three pixels are too coarse, so those count as 0.8."""
        return self.roundness if self.radius >= SHAPE_RADIUS else 0.8 * min(1.0, self.roundness + 0.2)

    @property
    def edge_px(self) -> float:
        c = self.corners
        u, v = c[2] - c[0], c[3] - c[1]
        area = 0.5 * abs(float(u[0] * v[1] - u[1] * v[0]))
        return math.sqrt(area)


def _sqrtm(m: np.ndarray) -> np.ndarray:
    vals, vecs = np.linalg.eigh(m)
    return vecs @ np.diag(np.sqrt(np.maximum(vals, 1e-12))) @ vecs.T


def _board_root(reference: Callable[[np.ndarray], np.ndarray], point: np.ndarray) -> np.ndarray:
    """The map of image offsets near ``point`` onto the board's plane there, keeping areas: the
    square root of the board's metric at that point (``reference``) over its determinant's root,
    so that a square lying on the board maps to a square of the same area.

    >>> np.round(_board_root(lambda point: np.diag([4.0, 1.0]), np.zeros(2)), 3).tolist()
    [[1.414, 0.0], [0.0, 0.707]]
    """
    board = reference(point)
    return _sqrtm(board / math.sqrt(np.linalg.det(board)))


def _pip_metrics(pips: Sequence[Pip]) -> np.ndarray:
    """Per pip, the 2x2 matrix M with ``sqrt(v M v)`` = length of v in that pip's radii."""
    return np.array([np.linalg.inv(4.0 * p.cov) for p in pips]).reshape(-1, 2, 2)


class _UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def _groups(n: int, edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    uf = _UnionFind(n)
    for a, b in edges:
        uf.union(a, b)
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(uf.find(i), []).append(i)
    return list(out.values())


_DIAGONAL = (np.array([-PIP_OFFSET, -PIP_OFFSET]), np.array([PIP_OFFSET, PIP_OFFSET]))
_SQUARE = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def fit_layout(points: np.ndarray, min_squareness: float = 0.5) -> tuple[float, np.ndarray] | None:
    """Fit n pip centres (in pip-radius units) to the n-pip layout by a similarity transform.

    Faces of four or more pips may be parallelograms whose sides differ by up to
    ``min_squareness`` (the points come from pip shapes, which only roughly tell how
    the face is foreshortened: motion blur stretches every pip along the motion).

    Returns ``(error, A)`` with ``A`` the 2x3 map from face units to the points' frame and
    the error as a fraction of the face diagonal, or ``None`` without a one-to-one match.

    >>> import numpy as np
    >>> err, A = fit_layout(np.array([[0, 0], [6, 0], [0, 6], [6, 6], [3, 3.2]]))
    >>> bool(err < 0.05), np.round(A @ [0, 0, 1], 1).tolist()
    (True, [3.0, 3.0])
    >>> fit_layout(np.array([[0, 0], [6, 0], [0, 6], [6, 9]]))[0] > 0.06   # not a parallelogram
    True
    """
    n = len(points)
    layout = np.array(PIP_LAYOUTS[n], float)
    if n == 1:
        return 0.0, np.array([[1.0, 0.0, points[0, 0]], [0.0, 1.0, points[0, 1]]])
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    diag = d[i, j]
    best: tuple[float, np.ndarray] | None = None
    a, b = _DIAGONAL
    for p, q in ((points[i], points[j]), (points[j], points[i])):
        for mirror in (False, True):
            src = layout[:, ::-1] if mirror else layout
            # Similarity (as a complex multiplication) taking a -> p and b -> q.
            za, zb = complex(*a), complex(*b)
            zp, zq = complex(*p), complex(*q)
            k = (zq - zp) / (zb - za)
            t = zp - k * za
            mapped = np.array([[(k * complex(*s) + t).real, (k * complex(*s) + t).imag] for s in src])
            dist = np.linalg.norm(mapped[:, None] - points[None], axis=-1)
            nearest = dist.argmin(axis=1)
            if len(set(nearest.tolist())) != n:
                continue
            m = np.array([[k.real, -k.imag, t.real], [k.imag, k.real, t.imag]])
            if mirror:
                m = m[:, [1, 0, 2]]
            if n >= 4:
                # Let the face be a parallelogram (pip shapes of small, blurred pips only
                # roughly give the foreshortening), but not far from the square it should be.
                design = np.hstack([layout, np.ones((n, 1))])
                m = np.linalg.lstsq(design, points[nearest], rcond=None)[0].T
                sv = np.linalg.svd(m[:, :2], compute_uv=False)
                if sv[1] < min_squareness * sv[0]:
                    continue
                mapped = layout @ m[:, :2].T + m[:, 2]
                residual = np.linalg.norm(mapped - points[nearest], axis=1)
            else:
                residual = dist[np.arange(n), nearest]
            error = float(residual.max() / diag)
            if best is None or error < best[0]:
                best = (error, m)
    return best


def _path_is_face(field_: PipField, frame: np.ndarray, a: Pip, b: Pip) -> bool:
    """True when the straight path between two pips runs over face-coloured material only."""
    grey = field_.grey
    va, vb = a.xy, b.xy
    length = float(np.linalg.norm(vb - va))
    steps = max(4, int(2 * length))
    t = np.linspace(0.0, 1.0, steps + 1)[1:-1]
    pts = va[None] + t[:, None] * (vb - va)[None]
    xs = np.clip(np.round(pts[:, 0]).astype(int), 0, grey.shape[1] - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 0, grey.shape[0] - 1)
    free = ~field_.near_pip[ys, xs]
    if free.sum() == 0:
        return True
    g = grey[ys, xs][free]
    face = 0.5 * (a.face_grey + b.face_grey)
    pip = 0.5 * (a.pip_grey + b.pip_grey)
    half = 0.5 * (face - pip)  # signed: positive for dark pips
    if a.polarity > 0:
        bad = g < face - abs(half)
    else:
        bad = g > face + abs(half)
    colours = frame[ys, xs][free].astype(np.float32) if frame.ndim == 3 else None
    if colours is not None:
        ref = 0.5 * (a.face_bgr + b.face_bgr)
        far = np.linalg.norm(colours - ref[None], axis=1) > max(40.0, 0.6 * abs(face - pip))
        bad |= far
    allowed = max(0, len(g) // 12)
    if int(bad.sum()) <= allowed:
        return True
    return _far_centre_pip(t[free], g, bad, length, 0.5 * (a.radius + b.radius), face, pip, allowed)


def _far_centre_pip(t: np.ndarray, grey: np.ndarray, bad: np.ndarray, length: float, radius: float,
                    face: float, pip: float, allowed: int = 0) -> bool:
    """Are the marks on a path between two pips only the far face's pip seen through a translucent die?

    Through a translucent die the faces underneath show, mirrored: the centre pip of the five
    under a two lies midway on the two's diagonal (and the one under a six between its columns).
    That mark is one compact spot of the pips' own kind (lighter than the face for light pips),
    fainter than the pips, no longer than a pip's diameter, centred within a pip radius of the
    path's midpoint, and at least two thirds of the path are of the face's colour (on pure noise the
    few samples between two specks are all off).  ``t`` are the samples' places along the path (0
    to 1), ``bad`` those off the face's colour; beside that spot at most ``allowed`` may be off.

    >>> t = np.linspace(0.05, 0.95, 19)
    >>> grey = np.where(np.abs(t - 0.5) < 0.06, 120.0, 60.0)      # a faint light spot midway
    >>> _far_centre_pip(t, grey, grey > 90, 30.0, 2.5, 60.0, 200.0)
    True
    >>> _far_centre_pip(t, grey, grey > 90, 30.0, 2.5, 60.0, 110.0)   # as light as the pips: a pip
    False
    >>> shifted = np.where(np.abs(t - 0.3) < 0.06, 120.0, 60.0)   # off the midpoint
    >>> _far_centre_pip(t, shifted, shifted > 90, 30.0, 2.5, 60.0, 200.0)
    False
    """
    marks = np.flatnonzero(bad)
    if len(marks) == 0:
        return True
    near_middle = np.abs(t - 0.5) * length <= radius
    spot = marks[near_middle[marks]]
    if len(marks) - len(spot) > allowed or len(spot) == 0 or 3 * len(spot) > len(t):
        return False        # marks elsewhere, or too few face-coloured samples to tell a spot
    if spot[-1] - spot[0] + 1 != len(spot) or (t[spot[-1]] - t[spot[0]]) * length > 2.0 * radius:
        return False        # broken, or longer than a pip: not one spot
    toward_pip = (grey[spot] - face) * math.copysign(1.0, pip - face)
    return bool(toward_pip.min() > 0 and toward_pip.max() < 0.8 * abs(pip - face))


def _pairs(field_: PipField, frame: np.ndarray, settings: ReaderSettings) -> list[tuple[int, int, float]]:
    """Pairs of pips that may lie on one face: (i, j, distance in pip radii)."""
    pips = field_.pips
    n = len(pips)
    if n < 2:
        return []
    xy = np.array([p.xy for p in pips])
    metrics = _pip_metrics(pips)
    radius = np.array([p.radius for p in pips])
    polarity = np.array([p.polarity for p in pips])
    v = xy[None] - xy[:, None]                       # n x n x 2
    m = 0.5 * (metrics[None] + metrics[:, None])     # n x n x 2 x 2
    dist = np.sqrt(np.einsum("ijk,ijkl,ijl->ij", v, m, v))
    unit = np.array([p.cov / math.sqrt(np.linalg.det(p.cov)) for p in pips])
    out = []
    candidates = np.argwhere((dist < settings.max_pip_distance) & (polarity[None] == polarity[:, None]))
    for i, j in candidates:
        if i >= j:
            continue
        if max(radius[i], radius[j]) > 1.6 * min(radius[i], radius[j]) + 0.6:
            continue
        # Same foreshortening: the two unit-determinant shapes agree (loosely for tiny pips).
        rel = np.linalg.eigvals(np.linalg.solve(unit[i], unit[j])).real
        tolerance = 2.2 if min(radius[i], radius[j]) >= SHAPE_RADIUS else 4.0
        if rel.max() / max(rel.min(), 1e-6) > tolerance:
            continue
        a, b = pips[i], pips[j]
        ca, cb = abs(a.face_grey - a.pip_grey), abs(b.face_grey - b.pip_grey)
        if abs(a.face_grey - b.face_grey) > 0.5 * max(ca, cb) + 10 or max(ca, cb) > 1.8 * min(ca, cb) + 6:
            continue
        if not _path_is_face(field_, frame, a, b):
            continue
        out.append((int(i), int(j), float(dist[i, j])))
    return out


def _fit_in_metric(pips: Sequence[Pip], origin: np.ndarray, metric: np.ndarray, settings: ReaderSettings
                   ) -> tuple[float, np.ndarray, np.ndarray] | None:
    """Fit pips to their layout in the pip-radius units of ``metric``: ``(error, A, unwhiten)``
    with ``A`` from face units to those units, or ``None`` when they do not make a face."""
    whiten = _sqrtm(metric)
    q = (np.array([p.xy for p in pips]) - origin) @ whiten.T
    fitted = fit_layout(q)
    if fitted is None:
        return None
    error, a = fitted
    if len(pips) == 1:
        a = a * np.array([[1 / PIP_RADIUS], [1 / PIP_RADIUS]])  # face edge = radius / PIP_RADIUS
        a[:, 2] = q[0]
    else:
        edge = math.hypot(a[0, 0], a[1, 0])  # pip radii per face unit
        if not settings.pip_radius_range[0] <= 1.0 / edge <= settings.pip_radius_range[1]:
            return None
        if error > (settings.max_layout_error if len(pips) <= 3 else settings.max_parallelogram_error):
            return None
    return error, a, np.linalg.inv(whiten)


#: A face's pips are about as clear as each other: a pip of its group less clear than this share
#: of the clearest is a far face's, seen through a translucent die (:func:`_face_from`).
FACE_PIP_CONTRAST = 0.55


def _face_from(field_: PipField, members: list[int], settings: ReaderSettings) -> Face | None:
    # Pips of one face look alike: drop faint ones (pips of hidden faces seen through a
    # translucent die, glare) and ones of another size.
    contrast = {i: abs(field_.pips[i].face_grey - field_.pips[i].pip_grey) for i in members}
    strongest = max(contrast.values())
    members = [i for i in members if contrast[i] >= FACE_PIP_CONTRAST * strongest]
    typical = float(np.median([field_.pips[i].radius for i in members]))
    members = [i for i in members if 0.7 * typical - 0.4 <= field_.pips[i].radius <= 1.45 * typical + 0.4]
    pips = [field_.pips[i] for i in members]
    if not 1 <= len(pips) <= 6 or (len(pips) <= 3 and any(p.by_an_edge or p.in_a_row for p in pips)):
        return None
    metric = np.mean(_pip_metrics(pips), axis=0)
    origin = np.mean([p.xy for p in pips], axis=0)
    fitted = _fit_in_metric(pips, origin, metric, settings)
    minor = float(np.mean([2.0 * math.sqrt(np.linalg.eigvalsh(p.cov)[0]) for p in pips]))
    roundness = float(np.median([p.axis_ratio for p in pips]))
    # Pips stretched alike are a face seen at a slant, or a die moving while the shutter was
    # open: motion blur adds the same streak to every pip (convolution adds covariances) but
    # leaves their centres where they were, so undoing it as foreshortening squeezes the
    # layout.  Under blur the pips' widths across the streak give their size.
    blurred = None
    if len(pips) >= 2 and roundness < 0.85:
        blurred = _fit_in_metric(pips, origin, np.eye(2) / max(minor, 1e-6) ** 2, settings)
    alternative = None
    if fitted is None:
        if len(pips) < 3:
            return None   # two pips fit a two anyhow: only a layout of three or more vouches for blur
        fitted, blurred = blurred, None
        if fitted is None:
            return None

    def face_of(fit: tuple[float, np.ndarray, np.ndarray], other: Face | None) -> Face:
        error, a, unwhiten = fit
        corners = (_SQUARE @ a[:, :2].T + a[:, 2]) @ unwhiten.T + origin
        centre = a[:, 2] @ unwhiten.T + origin
        return Face(list(members), len(pips), centre, corners, float(error), pips[0].polarity, metric,
                    minor, float(np.mean([p.radius for p in pips])), roundness, other)

    if blurred is not None:
        alternative = face_of(blurred, None)
    return face_of(fitted, alternative)


def _maximal_cliques(neighbours: dict[int, set[int]]) -> list[set[int]]:
    """The maximal cliques of a small graph (Bron-Kerbosch with a pivot).

    >>> sorted(sorted(c) for c in _maximal_cliques({0: {1, 2}, 1: {0, 2}, 2: {0, 1, 3}, 3: {2}}))
    [[0, 1, 2], [2, 3]]
    """
    out: list[set[int]] = []

    def grow(clique: set[int], candidates: set[int], excluded: set[int]) -> None:
        if not candidates and not excluded:
            out.append(clique)
            return
        pivot = max(candidates | excluded, key=lambda v: len(neighbours[v] & candidates))
        for v in list(candidates - neighbours[pivot]):
            grow(clique | {v}, candidates & neighbours[v], excluded & neighbours[v])
            candidates = candidates - {v}
            excluded = excluded | {v}

    grow(set(), set(neighbours), set())
    return out


def _faces_of_cliques(field_: PipField, members: list[int], links: list[tuple[int, int, float]],
                      settings: ReaderSettings) -> list[Face]:
    """Faces of three or more pips found among the cliques of a group's links, none sharing a pip
    (more pips first, then the better fit), when they hold all of the group's pips; else none."""
    neighbours: dict[int, set[int]] = {m: set() for m in members}
    for i, j, _ in links:
        neighbours[i].add(j)
        neighbours[j].add(i)
    fitted = []
    for clique in _maximal_cliques(neighbours):
        if 3 <= len(clique) <= 6 and len(clique) < len(members):
            face = _face_from(field_, sorted(clique), settings)
            if face is not None and face.value >= 3:
                fitted.append(face)
    fitted.sort(key=lambda f: (-f.value, f.error))
    taken: list[Face] = []
    used: set[int] = set()
    for face in fitted:
        if used.isdisjoint(face.pips):
            taken.append(face)
            used.update(face.pips)
    # The faces must account for every pip of the group: a pip left over beside them may be one
    # of their own (four pips of a six fit a four's parallelogram).
    return taken if used == set(members) else []


def find_faces(field_: PipField, frame: np.ndarray, settings: ReaderSettings = ReaderSettings()) -> list[Face]:
    """Group pips into faces that match a layout; groups that do not are split at their longest links."""
    pairs = _pairs(field_, frame, settings)
    # A pip kept only by the plainest half of its ring stays in its group only when it is about
    # as clear as the group's clearest pip (as a face's pips are, see _face_from): a translucent
    # die's far faces show faint pips between its own, and the halos of the pips in front spoil
    # their rings as a near edge would.
    contrast = np.array([abs(p.face_grey - p.pip_grey) for p in field_.pips])
    faint: set[int] = set()
    for group in _groups(len(field_.pips), [(i, j) for i, j, _ in pairs]):
        strongest = float(contrast[group].max())
        faint.update(i for i in group if field_.pips[i].by_an_edge and contrast[i] < FACE_PIP_CONTRAST * strongest)
    if faint:
        pairs = [(i, j, d) for i, j, d in pairs if i not in faint and j not in faint]
    faces: list[Face] = []
    pending = [(g, [(i, j, d) for i, j, d in pairs if i in set(g) and j in set(g)])
               for g in _groups(len(field_.pips), [(i, j) for i, j, _ in pairs])]
    while pending:
        members, links = pending.pop()
        face = _face_from(field_, members, settings) if len(members) <= 6 else None
        if face is not None:
            faces.append(face)
            # A pip of the group as clear as the face's but of another size is no pip of it, yet
            # may be a face of its own beside it: a cocked one's large pip, linked to its side
            # face's foreshortened pips, was dropped and the side face read as the top.  (Fainter
            # pips are a translucent die's far faces seen through it: no face.)
            strongest = float(contrast[face.pips].max())
            others = [m for m in members if m not in face.pips and contrast[m] >= FACE_PIP_CONTRAST * strongest]
            if others:
                subset = set(others)
                pending.append((others, [(i, j, d) for i, j, d in links if i in subset and j in subset]))
            continue
        if not links:
            continue
        if len(members) <= 16:
            # Every two pips of a face are linked (its diagonal is ~8 pip radii), so a face is a
            # clique of the links; pips of two dice lying close are joined by only a few.  Take
            # the cliques that fit a layout, more pips first, before cutting links by length
            # (a link across two dice may be shorter than a face's own diagonal).
            taken = _faces_of_cliques(field_, members, links, settings)
            if taken:
                faces.extend(taken)
                used = {i for face in taken for i in face.pips}
                rest = [m for m in members if m not in used]
                rest_set = set(rest)
                rest_links = [(i, j, d) for i, j, d in links if i in rest_set and j in rest_set]
                index = {m: k for k, m in enumerate(rest)}
                for g in _groups(len(rest), [(index[i], index[j]) for i, j, _ in rest_links]):
                    sub = [rest[k] for k in g]
                    subset = set(sub)
                    pending.append((sub, [(i, j, d) for i, j, d in rest_links if i in subset and j in subset]))
                continue
        links = sorted(links, key=lambda e: e[2])[:-1]     # drop the longest link and regroup
        index = {m: k for k, m in enumerate(members)}
        for g in _groups(len(members), [(index[i], index[j]) for i, j, _ in links]):
            sub = [members[k] for k in g]
            subset = set(sub)
            pending.append((sub, [(i, j, d) for i, j, d in links if i in subset and j in subset]))
    return faces


# ----------------------------------------------------------------------------- dice

#: The rays of a lone pip's face (:func:`_face_edge_distances`) sample it every 0.4 pip radii from 1.6 out.
ONE_FACE_RAY_RADII = np.arange(1.6, 14.01, 0.4)
#: The band of those samples, in pip radii, that shows a one's face beyond its pip's blurred halo
#: and inside the smallest face (whose half-edge is 0.5 / 0.14 = 3.6 radii).  Of the 36 ones lost
#: in dice scenes 5600-6199, 26 had no face closing around their pip; 9 of those had two or more
#: rays stopped short of 3 radii, in the halo or in the colour noise of a yellow face, and 5 of
#: those 9 close a face against this band's colour.
ONE_FACE_BAND = (2.3, 2.9)
#: A face closed against the colour beyond the halo must reach clearly past that band (pip radii
#: of half-edge): one pip of a small blurred four whose other pips went ungrouped closed such a
#: face of 3.92 (cube survey scene 1931, read as a one); the ones it found measured 4.31 and more
#: (13 of 14 in dice scenes 1000-1299, 5600-6199 and the cube survey; 3157's, 3.92, is lost with it).
ONE_FACE_BEYOND_HALO_LEAST = 4.0
ONE_FACE_BAND_MASK = (ONE_FACE_RAY_RADII >= ONE_FACE_BAND[0]) & (ONE_FACE_RAY_RADII <= ONE_FACE_BAND[1])


def _face_beyond_halo(grey_samples: np.ndarray, bgr_samples: np.ndarray | None, band: np.ndarray,
                      pip: Pip) -> tuple[float, np.ndarray | None]:
    """The grey level and colour of a lone pip's face, as its rays see it just beyond the pip.

    The pip's ring (1.4 to 2.1 radii, :func:`_describe_surroundings`) lies in the halo of a
    blurred pip (a small die out of focus: its light pip brightens the red face around it by
    20 grey levels or more); judged against that, every ray stops in the halo, short of any
    face.  The median of the rays' samples in ``ONE_FACE_BAND`` (all round the pip) is the face
    itself; where too few of them are free (other pips, the frame's border), the ring's values stand.
    (It is a second chance only, taken where the ring's colour closes no face: a large pip fills
    that band on a small face, and a dark board seen there lets every ray run on.)
    """
    if np.count_nonzero(band) < band.shape[0]:
        return pip.face_grey, pip.face_bgr
    face_bgr = None if bgr_samples is None else np.median(bgr_samples[band].astype(np.float32), axis=0)
    return float(np.median(grey_samples[band])), face_bgr


def _lone_pip_rays(field_: PipField, pip: Pip, directions: int = 16
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pixels (rows, columns) that rays from a lone pip sample, every ``ONE_FACE_RAY_RADII``
    out along ``directions`` rays (the pip's own outline undone), with which of them lie inside
    the frame and which near a pip-like mark (the far faces' pips seen through a translucent
    die are no edge of its face)."""
    grey = field_.grey
    angles = np.linspace(0, 2 * math.pi, directions, endpoint=False)
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    pts = pip.xy[None, None] + ONE_FACE_RAY_RADII[None, :, None] * (unit @ pip.shape.T)[:, None, :]
    xs, ys = pts[..., 0], pts[..., 1]
    inside = (xs >= 0) & (ys >= 0) & (xs <= grey.shape[1] - 1) & (ys <= grey.shape[0] - 1)
    yi = np.clip(np.round(ys).astype(int), 0, grey.shape[0] - 1)
    xi = np.clip(np.round(xs).astype(int), 0, grey.shape[1] - 1)
    return yi, xi, inside, field_.near_pip[yi, xi]


def _one_face_colour_beyond_halo(field_: PipField, pip: Pip, bgr: np.ndarray | None
                                 ) -> tuple[float, np.ndarray | None]:
    """A one's face's grey level and colour as seen just beyond its pip's blurred halo
    (:func:`_face_beyond_halo`: the ring's values where too few rays' samples are free)."""
    yi, xi, inside, marked = _lone_pip_rays(field_, pip)
    return _face_beyond_halo(field_.grey[yi, xi], bgr[yi, xi] if bgr is not None else None,
                             inside & ~marked & ONE_FACE_BAND_MASK[None, :], pip)


def _face_edge_distances(field_: PipField, pip: Pip, bgr: np.ndarray | None, directions: int = 16,
                         beyond_halo: bool = False) -> np.ndarray:
    """Distance (in pip radii) from a lone pip to where the face around it ends, per direction.

    ``inf`` where the face colour goes on past 14 radii, ``nan`` where the ray leaves the frame
    first (a die cut by the frame's border: its edge there is not seen, not missing).  The face's
    colour is the pip's ring's, or with ``beyond_halo`` the one seen just beyond the pip's blurred
    halo (:func:`_face_beyond_halo`).
    """
    grey = field_.grey
    radii = ONE_FACE_RAY_RADII
    yi, xi, inside, marked = _lone_pip_rays(field_, pip, directions)
    g = grey[yi, xi]
    step = max(12.0, 0.25 * abs(pip.face_grey - pip.pip_grey), 1.2 * pip.face_spread)
    face_grey, face_bgr = pip.face_grey, pip.face_bgr
    if beyond_halo:
        face_grey, face_bgr = _face_beyond_halo(g, bgr[yi, xi] if bgr is not None else None,
                                               inside & ~marked & ONE_FACE_BAND_MASK[None, :], pip)
    off = (np.abs(g - face_grey) > step) & ~marked
    if bgr is not None:
        off |= (np.linalg.norm(bgr[yi, xi].astype(np.float32) - face_bgr, axis=-1) > 1.5 * step) & ~marked
    out = np.full(directions, np.inf)
    for k in range(directions):
        stop = off[k] | ~inside[k]
        # Marks running on from the pip itself are its blurred rim (a streak, when the die moved):
        # the face, and so its edge, begins where they end.
        face = np.nonzero(~stop)[0]
        start = int(face[0]) if len(face) and radii[face[0]] < 3.0 else 0
        hit = np.nonzero(stop[start:])[0] + start
        if len(hit):
            out[k] = radii[hit[0]] if inside[k, hit[0]] else np.nan
    return out


def _off_face_test(field_: PipField, face: Face, bgr: np.ndarray | None,
                   face_colour: tuple[float, np.ndarray | None] | None = None
                   ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A test of pixels (rows, columns) for lying off a face's colour, as the outline tests
    walk out from its pips: further from the face's grey around its pips than a step (12 at
    least, a quarter of the pips' contrast, 1.2 times the face's spread) or, given the frame's
    colours ``bgr``, 1.5 steps from the face's colour; never near a pip (a pip and its rim are
    no edge of the face).  ``face_colour`` (grey, colour) stands for the colour around the pips
    where that is known better (a one's face seen beyond its pip's blurred halo)."""
    pips = [field_.pips[i] for i in face.pips]
    face_grey = float(np.median([p.face_grey for p in pips]))
    pip_grey = float(np.median([p.pip_grey for p in pips]))
    spread = float(np.median([p.face_spread for p in pips]))
    face_bgr = np.median([p.face_bgr for p in pips], axis=0) if bgr is not None else None
    if face_colour is not None:
        face_grey = face_colour[0]
        face_bgr = face_colour[1] if bgr is not None else None
    step = max(12.0, 0.25 * abs(face_grey - pip_grey), 1.2 * spread)

    def off(yi: np.ndarray, xi: np.ndarray) -> np.ndarray:
        result = np.abs(field_.grey[yi, xi] - face_grey) > step
        if face_bgr is not None:
            result |= np.linalg.norm(bgr[yi, xi].astype(np.float32) - face_bgr, axis=-1) > 1.5 * step
        return result & ~field_.near_pip[yi, xi]
    return off


def _face_outline_share(field_: PipField, face: Face, bgr: np.ndarray | None, directions: int = 16,
                        face_colour: tuple[float, np.ndarray | None] | None = None) -> float:
    """How much of a closed outline of the face's colour run around its pips where its corners put it?

    A die's top is a patch of one colour (between its pips) that ends, all around, close to the
    square its pip layout implies.  Marks paired up across other things (light gaps between
    touching checkers, a logo inside a checker's rim) lie in a patch of colour that goes on past
    that square in several directions (the checker), or is broken inside it (the checkers' rims).
    Rays are cast from the face's centre through its outline (in the face's own square frame, so
    a foreshortened face is followed along its parallelogram); on each, the face's colour must
    hold up to 0.75 of the way to the outline (pips and their rims aside) and end before 1.45 of
    it.  Returns the share of rays on which it does.  The face's colour is its pips' ring's, or
    ``face_colour`` (see :func:`_off_face_test`).

    >>> from vision.dice.render import draw_die
    >>> frame = np.full((120, 120, 3), (50, 120, 40), np.uint8)
    >>> _ = draw_die(frame, (60, 60), 40, 5, angle_deg=10, style="white")
    >>> field_ = find_pips(frame)
    >>> [_face_outline_share(field_, f, frame) for f in find_faces(field_, frame)]
    [1.0]
    """
    grey = field_.grey
    h, w = grey.shape[:2]
    off_face = _off_face_test(field_, face, bgr, face_colour)
    c = face.corners
    centre = c.mean(axis=0)
    # The face's square frame: u along one edge, v along the next (each a half-edge long).
    u = 0.25 * ((c[1] - c[0]) + (c[2] - c[3]))
    v = 0.25 * ((c[3] - c[0]) + (c[2] - c[1]))
    angles = np.linspace(0, 2 * math.pi, directions, endpoint=False) + math.pi / directions
    fractions = np.arange(0.3, 1.451, 0.05)     # of the way to the outline along each ray
    closed = 0
    for angle in angles:
        a, b = math.cos(angle), math.sin(angle)
        to_outline = 1.0 / max(abs(a), abs(b))
        pts = centre + np.outer(fractions * to_outline, a * u + b * v)
        xi = np.round(pts[:, 0]).astype(int)
        yi = np.round(pts[:, 1]).astype(int)
        inside = (xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)
        if not inside.all():
            closed += 1  # cut by the frame's border: not seen, not missing
            continue
        off = off_face(yi, xi)
        hits = np.nonzero(off)[0]
        if len(hits) and 0.75 <= fractions[hits[0]] <= 1.45:
            closed += 1
    return closed / directions


#: A one's outline judged against its face's colour beyond its pip's halo must close on at least
#: this share of the rays (all round a small blurred die, no side face or shadow hiding it): the
#: ones it finds closed 0.94 and more (dice scenes 5692, 5699, 6047, 6439), the light gaps between
#: touching checkers that pass for a one 0.56 and 0.63 (dice scenes 1024 and 1178, then reported cocked).
ONE_OUTLINE_BEYOND_HALO_LEAST = 0.8


def _face_outline_closes(field_: PipField, face: Face, bgr: np.ndarray | None, least: float) -> bool:
    """Does the face's colour close around its pips where its corners put it, on at least the
    share ``least`` of the rays (:func:`_face_outline_share`)?

    A one's small pip blurred lies in a halo that fills its ring (a light pip brightens the red
    face around it, a dark one darkens a yellow face): judged against the ring's colour the rays
    leave the "face" at once, or never.  Its face is then judged, as its lone pip's face was
    found (:func:`_lone_pip_face`), against the colour just beyond that halo, where it must close
    on most of the rays (``ONE_OUTLINE_BEYOND_HALO_LEAST``).
    """
    if _face_outline_share(field_, face, bgr) >= least:
        return True
    if face.value != 1:
        return False
    beyond = _one_face_colour_beyond_halo(field_, field_.pips[face.pips[0]], bgr)
    least = max(least, ONE_OUTLINE_BEYOND_HALO_LEAST)
    return _face_outline_share(field_, face, bgr, face_colour=beyond) >= least


def _one_run(flags: np.ndarray) -> bool:
    """Are the set flags of a ring of directions side by side (one run, wrapping around)?

    >>> _one_run(np.array([1, 0, 0, 1, 1], bool)), _one_run(np.array([1, 0, 1, 0], bool))
    (True, False)
    """
    changes = int(np.count_nonzero(flags != np.roll(flags, 1)))
    return changes <= 2


def _round_filled_disc(pip: Pip) -> bool:
    """Is the pip's blob a filled disc (seen at most mildly slanted), as a painted pip is?

    Filled: its pixels cover at least 0.9 of the ellipse its second moments describe (a letter's
    strokes, an "A" or a "4", leave holes and notches: 0.78-0.85 on the real keyboard photos).
    Round: its axis ratio at least 0.8 (a top seen up to about 37 degrees from square on), less
    what half a pixel of rounding on each axis can take off a small blob's ratio.

    >>> disc = Pip(10.0, 10.0, np.diag([4.0, 4.0]), 50, -1, 60.0)   # radius 4, 50 px of 50
    >>> streak = Pip(10.0, 10.0, np.diag([9.0, 1.8]), 50, -1, 60.0) # axis ratio 0.45
    >>> hollow = Pip(10.0, 10.0, np.diag([4.0, 4.0]), 40, -1, 60.0) # 40 px of 50: a ring, strokes
    >>> _round_filled_disc(disc), _round_filled_disc(streak), _round_filled_disc(hollow)
    (True, False, False)
    """
    radius = pip.radius
    if pip.area < 0.9 * math.pi * radius ** 2:
        return False
    return pip.axis_ratio >= min(0.8, (radius - 0.5) / (radius + 0.5))


#: The share of a one's half-edge (from its pip) that must show no other mark as clear as the pip.
#: Over the real ones (real, real-train, boards: 197) the nearest such mark, a side face's pip,
#: lay at 0.99 half-edges or more; the "1" beside the "6" of a cube's "16" at 0.71.
PLAIN_ONE_FACE = 0.85

#: A pip like a one's lone pip: at least this share of its clarity, ...
LIKE_PIP_CONTRAST = 0.7
#: ... a radius within these multiples of its own, ...
LIKE_PIP_RADII = (0.7, 1.45)
#: ... and an axis ratio of at least this share of its own (see _lone_pip_face_size).
LIKE_PIP_ROUNDNESS = 0.8
#: A two's diagonal, in pip radii of a typical die (8.3).
_TWO_DIAGONAL = float(np.hypot(*np.subtract(*PIP_LAYOUTS[2]))) / PIP_RADIUS
#: A pip like a one's, linked to it within this multiple of a two's diagonal, is the other pip of a
#: two (:func:`_linked_to_a_like_pip`).  Over the stress set's cocked twos read as ones the pips
#: of the two lay 6.9 to 8.1 pip radii apart (0.83 to 0.97 diagonals); beside the real photos'
#: flat ones, the nearest such pip (of a neighbouring die) lay 10.0 radii away (1.21 diagonals).
LIKE_PIP_REACH = 1.1


def _lone_pip_face_size(field_: PipField, bgr: np.ndarray | None, pip: Pip, settings: ReaderSettings) -> float | None:
    """A lone pip is a one only if a face edge closes around it at a die-like distance.

    Returns the face's half-edge in pip radii, or ``None`` when it is not a face.
    """
    face = _lone_pip_face(field_, bgr, pip, settings)
    return None if face is None else face[0]


def _lone_pip_face(field_: PipField, bgr: np.ndarray | None, pip: Pip, settings: ReaderSettings
                   ) -> tuple[float, np.ndarray] | None:
    """The face closing around a lone pip: its half-edge in pip radii and the rays that found it
    (:func:`_face_edge_distances`), or ``None`` when none does.  The rays judge the face's colour
    as the pip's ring shows it or, failing that, as seen beyond a blurred pip's halo."""
    if pip.face_spread > 0.5 * abs(pip.face_grey - pip.pip_grey) + 8:
        return None
    # A lone light dot on a dark square greyer than the frame's median may be a key's glyph (a
    # letter lit from below is as white at its core as a painted pip), or a white pip on a dark
    # die under dim light, blurred.  Then only the die's own shape tells: a painted pip is a
    # filled disc (a glyph is strokes, and rarely round), and its face's whole outline is seen.
    dim = pip.polarity < 0 and pip.pip_grey < field_.typical_grey
    if dim and not _round_filled_disc(pip):
        return None
    for beyond_halo in (False, True):
        edges = _face_edge_distances(field_, pip, bgr, beyond_halo=beyond_halo)
        half = _face_size_from_rays(field_, pip, edges, settings, dim)
        if half is not None and (not beyond_halo or half >= ONE_FACE_BEYOND_HALO_LEAST):
            return half, edges
    return None


#: A light lone pip whose face measures under this many pip radii (half-edge) is barely inside
#: the patch around it (see :func:`_hole_in_a_digit`): the light hole of a doubling cube's "4"
#: inside its strokes measured 3.53 (dice scenes 6450 and 3801); the light ones whose surroundings
#: were lighter than their pip (black dice on pale tables), 4.71 and more.
DIGIT_HOLE_FACE_MOST = 4.1


def _hole_in_a_digit(field_: PipField, pip: Pip, half: float, edges: np.ndarray) -> bool:
    """Is the light lone pip the hole of a dark digit: the "4", "6" or "8" printed on a doubling
    cube's white face (a face of ``half`` pip radii found by the rays ``edges``)?

    The strokes around such a hole pass for a dark die's face with a white one on it, but they
    are thin: the "face" is barely wider than its "pip" (under ``DIGIT_HOLE_FACE_MOST`` pip
    radii), and past its edge lies the cube's white face, at least as light as the hole itself
    (the hole, a few pixels across, is greyed by blur; the cube's face is not).  A black die's
    one is a white dot in the middle of a wide face, and a face that small (a large or blurred
    pip) lies on a board or table darker than its pip.  Over the light ones found in the cube
    survey's 1183 dice scenes and in scenes 5600-6015, those whose face measured under 4.6 pip
    radii (8) had the colour just beyond it at most -0.12 of the way from their face's grey to
    their pip's (darker than their face); the holes of the cubes' "4"s, 1.47 (past the pip's).
    (A dark pip on a light face is no hole in a dark digit; a white die's one on a dark board,
    its pip drawn large, is much like one.)

    >>> from vision.dice.render import draw_doubling_cube
    >>> frame = np.full((120, 120, 3), 60, np.uint8)
    >>> _ = draw_doubling_cube(frame, (60, 60), 60, 4, angle_deg=45)
    >>> DiceReader().read(frame).dice      # (the hole of its "4" read as a one before)
    ()
    """
    if pip.polarity > 0 or half >= DIGIT_HOLE_FACE_MOST:
        return False
    grey = field_.grey
    h, w = grey.shape
    angles = np.linspace(0, 2 * math.pi, len(edges), endpoint=False)
    steps = np.stack([np.cos(angles), np.sin(angles)], axis=1) @ pip.shape.T   # pixels per pip radius
    beyond = []
    for edge, step in zip(edges, steps):
        if not np.isfinite(edge):
            continue
        # Just past the face's edge: the first third of two half-edges beyond it.
        reach = edge + np.arange(0.5, 2.0 * half, 0.4)
        reach = reach[:max(1, len(reach) // 3)]
        pts = pip.xy + reach[:, None] * step
        xi, yi = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
        inside = (xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)
        if inside.any():
            beyond.append(float(np.median(grey[yi[inside], xi[inside]])))
    return bool(beyond) and float(np.median(beyond)) >= pip.pip_grey


def _face_size_from_rays(field_: PipField, pip: Pip, edges: np.ndarray, settings: ReaderSettings,
                         dim: bool) -> float | None:
    """The half-edge (pip radii) of the face that the rays ``edges`` from a lone pip outline, or
    ``None`` when they outline no die's face (see :func:`_lone_pip_face`; ``dim``: a light pip
    darker than the frame's median, whose face must close all round it)."""
    lo = 0.5 / settings.pip_radius_range[1] * 0.85    # half the smallest face, in pip radii
    hi = 0.5 / settings.pip_radius_range[0] * 1.5     # corner of the largest face
    closed = np.isfinite(edges) & (edges >= lo) & (edges <= hi)
    cut = np.isnan(edges)
    # A few directions may cross a speck or a side face's pip, and the rays toward one side of
    # the face may find no edge where it meets a table of its colour (a quarter turn of rays
    # side by side); rays cut by the frame's border tell nothing, but most of the outline must be seen.
    open_ = ~closed & ~cut
    one_side = open_.sum() == len(edges) // 4 and _one_run(open_) and bool(np.isinf(edges[open_]).all())
    if (open_.sum() > 3 and not one_side) or closed.sum() < len(edges) // 2 + 2:
        return None
    if cut.any() and open_.any():
        return None  # a face cut by the border must show the rest of its outline clearly
    if dim:
        if not closed.all():
            return None  # a dim pip's face must close all around it, within the frame
        # ... and the pip lie at its centre: opposite rays as long, within the rays' step (0.4
        # radii) at both ends of each and a tenth of the face's width (rounded corners, blur).
        # A light hole in a dark digit of the doubling cube sits off the middle of the strokes.
        half_turn = len(edges) // 2
        there, back = edges[:half_turn], edges[half_turn:]
        if np.any(np.abs(there - back) > 0.8 + 0.1 * (there + back)):
            return None
    found = np.sort(edges[closed])
    # A square's outline, give or take one ray into a side face and one ray stopped short by a
    # speck on the face (noise, a glint): a short ray alone, its neighbours not short.  A mark off
    # the middle of a patch (a hole in a cube's "4", a mark by a checker's rim) has its short rays
    # side by side.
    if found[-2] > 2.0 * found[0]:
        shortest = int(np.nanargmin(np.where(closed, edges, np.inf)))
        neighbours = edges[[shortest - 1, (shortest + 1) % len(edges)]]
        if found[-2] > 2.0 * found[1] or np.any(neighbours < 0.5 * found[-2]):
            return None
    # Rays to a square's outline are 1 to 1.41 half-edges long: 1.08 on average, 1.02 at the
    # lower quartile of evenly spread rays.
    typical = float(np.median(found) / 1.08)
    # Even a large "one" pip leaves a wide margin; a small hole in a digit of the cube does not.
    if typical < settings.min_one_margin:
        return None
    # Rays that run on over a side face of a light die on a pale table (where the top's edge is
    # faint) are longer than the square's, so the short rays tell the face's size.
    half = min(typical, float(np.percentile(found, 25) / 1.02))
    # A pip like it (about as clear, as large, as round) closer than a neighbouring die's top
    # could bring one (1.5 half-edges, dice touching) is of the same face: a larger face whose
    # pips were not joined (a translucent die's), not a one.  (The far faces' pips seen through
    # a translucent die are fainter, about half as clear or less.)
    # A one's face is plain: its lone pip is the only mark on it.  A mark of the pip's kind about
    # as clear, of any shape, inside the face (within PLAIN_ONE_FACE of its half-edge: a side
    # face's pips lie beyond its edge) makes it no one: the dark digit of a doubling cube's "16"
    # read as a black pip on the cube's white face has the "1" beside it.
    metric = np.linalg.inv(4.0 * pip.cov)
    contrast = abs(pip.face_grey - pip.pip_grey)
    for other in field_.pips:
        if other is pip or other.polarity != pip.polarity:
            continue
        v = other.xy - pip.xy
        distance = float(np.sqrt(v @ metric @ v))
        as_clear = abs(other.face_grey - other.pip_grey) >= LIKE_PIP_CONTRAST * contrast
        if as_clear and distance < PLAIN_ONE_FACE * half:
            return None
        if distance < 1.3 * half and _like_pip(other, pip):
            return None
    return half


def _linked_to_a_like_pip(field_: PipField, index: int, links: list[tuple[int, int, float]]) -> bool:
    """Is the lone pip ``index`` linked (as pips of one face are: seen alike, the path between
    them of the face's colour, see :func:`_pairs`) to a pip like it: as clear, as large, as round?

    Then the two are a two's pips whose link the grouping cut: a cocked two's side face shows
    small pips linked to the top's nearer pip, and the group they make fits no layout, so it
    is split at its longest link, the two's diagonal.  A sheen around either pip may then close
    like a one's face.  Such a one is not read.  (A neighbouring die's pips lie farther: see
    ``LIKE_PIP_REACH``.)
    """
    pip = field_.pips[index]
    return any(_like_pip(field_.pips[j if i == index else i], pip) for i, j, distance in links
               if index in (i, j) and distance <= LIKE_PIP_REACH * _TWO_DIAGONAL)


def _like_pip(other: Pip, pip: Pip) -> bool:
    """Is ``other`` a pip like ``pip`` (a one's lone pip): as clear (:data:`LIKE_PIP_CONTRAST`),
    as large (:data:`LIKE_PIP_RADII`) and as round (:data:`LIKE_PIP_ROUNDNESS`)?"""
    contrast = abs(pip.face_grey - pip.pip_grey)
    return (abs(other.face_grey - other.pip_grey) >= LIKE_PIP_CONTRAST * contrast
            and LIKE_PIP_RADII[0] * pip.radius <= other.radius <= LIKE_PIP_RADII[1] * pip.radius
            and other.axis_ratio >= LIKE_PIP_ROUNDNESS * pip.axis_ratio)


def _lone_pip_outline_squareness(field_: PipField, pip: Pip, bgr: np.ndarray | None,
                                 reference: Callable[[np.ndarray], np.ndarray],
                                 settings: ReaderSettings, face: tuple[float, np.ndarray] | None
                                 ) -> tuple[float, float] | None:
    """How square the outline around a one's pip is on the board plane: ``(narrowest over the
    median width, tolerance)``, or ``None`` when too few widths are seen.

    A one's single pip shows no layout, and a pip of a few pixels no shape; its face's outline,
    where the face's colour ends around it, is then the evidence of how the face lies.  The
    widths of the outline through the pip (two opposite rays, where both end at a die-like
    distance), with the board's foreshortening there undone, are those of a square on a flat
    die: nearly alike (a real die's rounded top is close to a disc; a sharp-cornered square's
    narrowest, across two sides, is 0.92 of its median).  A tilted top is narrower along its
    tilt; a side face seen beside the top only lengthens the rays that cross it.  The reader
    takes a one as flat when the ratio is at least 1 less the tolerance, as it does for the
    outline of four to six pips: short of that it may lean a little, and is not read.

    The tolerance is the rays' step (0.4 pip radii) at both ends over the median width, plus a
    few percent.
    """
    # (The rays that found its face, ``face`` as :func:`_lone_pip_face` gave it, when one was
    # found.)
    edges = _face_edge_distances(field_, pip, bgr) if face is None else face[1]
    directions = len(edges)
    lo = 0.5 / settings.pip_radius_range[1] * 0.85
    hi = 0.5 / settings.pip_radius_range[0] * 1.5
    closed = np.isfinite(edges) & (edges >= lo) & (edges <= hi)
    angles = np.linspace(0, 2 * math.pi, directions, endpoint=False)
    steps = np.stack([np.cos(angles), np.sin(angles)], axis=1) @ pip.shape.T   # pixels per pip radius
    root = _board_root(reference, pip.xy)
    scale = np.linalg.norm(steps @ root.T, axis=1)          # board units per pip radius, per ray
    half = directions // 2
    pairs = [k for k in range(half) if closed[k] and closed[k + half]]
    if len(pairs) < half // 2:
        return None
    widths = np.array([(edges[k] + edges[k + half]) * scale[k] for k in pairs])
    typical = float(np.median(widths))
    radius_in_board = float(np.median(scale))
    tolerance = 0.04 + 2 * 0.4 * radius_in_board / typical
    return float(widths.min() / typical), tolerance


_ALL_PIP_SPOTS = np.array([(x, y) for x in (-PIP_OFFSET, 0.0, PIP_OFFSET) for y in (-PIP_OFFSET, 0.0, PIP_OFFSET)])


def _pip_like_spots(field_: PipField, face: Face, centres: np.ndarray, darkest: float = 0.6) -> np.ndarray:
    """Which of the points ``centres`` look like a pip of ``face`` the detector missed: the grey
    there is most of the way (``darkest``) from the face's to its pips', and stands out from what
    is right around it, as a pip does (a broad glare does not)."""
    grey = field_.grey
    pips = [field_.pips[i] for i in face.pips]
    face_grey = float(np.median([p.face_grey for p in pips]))
    pip_grey = float(np.median([p.pip_grey for p in pips]))
    depth = face_grey - pip_grey
    if abs(depth) < 1e-6 or len(centres) == 0:
        return np.zeros(len(centres), bool)
    r = 0.4 * face.radius
    offsets = np.array([(0, 0), (r, 0), (-r, 0), (0, r), (0, -r)])
    pts = centres[:, None, :] + offsets[None]
    xs = np.clip(np.round(pts[..., 0]).astype(int), 0, grey.shape[1] - 1)
    ys = np.clip(np.round(pts[..., 1]).astype(int), 0, grey.shape[0] - 1)
    values = np.median(grey[ys, xs], axis=1)
    toward_pip = (face_grey - values) / depth
    ring = 1.7 * face.radius * np.stack([np.cos(np.arange(8) * math.pi / 4), np.sin(np.arange(8) * math.pi / 4)], 1)
    rpts = centres[:, None, :] + ring[None]
    rx = np.clip(np.round(rpts[..., 0]).astype(int), 0, grey.shape[1] - 1)
    ry = np.clip(np.round(rpts[..., 1]).astype(int), 0, grey.shape[0] - 1)
    local = (np.median(grey[ry, rx], axis=1) - values) / depth
    return (toward_pip > darkest) & (local > 0.35)


def _missing_pip(field_: PipField, face: Face, darkest: float = 0.6) -> bool:
    """True when a spot where some layout has a pip, but the face's own layout has none, looks
    like a pip the detector missed (a 5 whose faint pips were lost must not read as a 3).

    A one has no known orientation, so the ring where other layouts put their pips is searched.
    """
    ex = face.corners[1] - face.corners[0]
    ey = face.corners[3] - face.corners[0]
    if face.value == 1:
        angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        spots = np.concatenate([np.stack([r * np.cos(angles), r * np.sin(angles)], axis=1)
                                for r in (PIP_OFFSET, PIP_OFFSET * math.sqrt(2))])
    else:
        own = np.array(PIP_LAYOUTS[face.value])
        keep = [k for k, s in enumerate(_ALL_PIP_SPOTS) if np.min(np.linalg.norm(own - s, axis=1)) > 0.1]
        spots = _ALL_PIP_SPOTS[keep]
    if len(spots) == 0:
        return False
    centres = face.centre + spots[:, :1] * ex + spots[:, 1:] * ey
    return bool(_pip_like_spots(field_, face, centres, darkest).any())


def _row_completed_unseen(field_: PipField, face: Face, min_pip_ratio: float) -> bool:
    """True when a two's or three's pips may be part of a larger face whose other pips the
    detector dropped but the image shows: every spot of one of its :func:`_row_completions` looks
    like a pip, or, for a two, every corner of a six whose middle pips the two's are (half a step
    across on both sides of each).  A black die's grey pips, darker than a light pip must be,
    lost a six's other column (a column passed for a three) or all but its two middle pips (lit
    by the die's gloss: a two)."""
    if face.value == 4:
        return _four_of_a_six_unseen(field_, face)
    if face.value not in (2, 3):
        return False
    ways = _row_completions(face, min_pip_ratio)
    if face.value == 2:
        ex = face.corners[1] - face.corners[0]
        ey = face.corners[3] - face.corners[0]
        layout = np.array(PIP_LAYOUTS[2])
        pips = face.centre + layout[:, :1] * ex + layout[:, 1:] * ey
        along = pips[1] - pips[0]
        half_across = 0.5 * np.array([-along[1], along[0]])
        if face.radius / max(face.edge_px, 1e-6) / math.sqrt(2.0) >= min_pip_ratio:
            ways.append(np.concatenate([pips + half_across, pips - half_across]))
    return any(bool(_pip_like_spots(field_, face, extra).all()) for extra in ways)


#: A pip narrower than this (minor over major axis) ...
COLUMN_BAR_AXIS_RATIO = 0.4
#: ... whose long axis lies this close to square across the line to its partner (the cosine of
#: their angle, at most) is a bar: a column of a six that blur joined into one blob.
COLUMN_BAR_ACROSS = 0.4


def _column_bars(field_: PipField, face: Face) -> bool:
    """True when a two's pips are two parallel bars side by side, the two columns of a six that
    blur joined into one blob each (scene 6052: a small blurred six read as a two).  A pip is
    round: a face seen at a slant squeezes its pips along the slant, which does not set them
    all across the line between them; a two streaked across its diagonal by motion looks the
    same and is not read either.  Over the development photos the read twos' pips measured an
    axis ratio of 0.5 or more."""
    if face.value != 2:
        return False
    a, b = (field_.pips[i] for i in face.pips)
    line = (b.xy - a.xy) / max(float(np.linalg.norm(b.xy - a.xy)), 1e-6)
    for pip in (a, b):
        if pip.axis_ratio >= COLUMN_BAR_AXIS_RATIO:
            return False
        major = np.linalg.eigh(pip.cov)[1][:, 1]
        if abs(float(major @ line)) > COLUMN_BAR_ACROSS:
            return False
    return True


#: A four whose pips lie on a rectangle narrower than this (its short side over its long side) ...
FOUR_OF_A_SIX_ASPECT = 0.7
#: ... while its pips are rounder than that by this much is no square face seen at a slant.
FOUR_OF_A_SIX_ROUNDER = 0.2


def _four_of_a_six_unseen(field_: PipField, face: Face) -> bool:
    """True when a four's pips are two neighbouring pips of each column of a six whose third pips
    the detector dropped but the image shows: the four's pips lie on a rectangle about twice as
    long as wide, with round pips (a square face seen at a slant squeezes its pips as much), and
    both spots one short side further on, at either end, look like pips (a black die's grey pips,
    darker than a light pip must be, lost the two pips of one end of a six)."""
    pips = [field_.pips[i] for i in face.pips]
    ex = face.corners[1] - face.corners[0]
    ey = face.corners[3] - face.corners[0]
    short, long_ = (ex, ey) if np.linalg.norm(ex) < np.linalg.norm(ey) else (ey, ex)
    aspect = float(np.linalg.norm(short) / max(np.linalg.norm(long_), 1e-6))
    roundness = float(np.median([p.axis_ratio for p in pips]))
    if aspect >= FOUR_OF_A_SIX_ASPECT or roundness < aspect + FOUR_OF_A_SIX_ROUNDER:
        return False
    step = 2 * PIP_OFFSET * short
    end = face.centre + PIP_OFFSET * short + np.array([PIP_OFFSET * long_, -PIP_OFFSET * long_])
    return any(bool(_pip_like_spots(field_, face, spots).all())
               for spots in (end + step, face.centre - (end - face.centre) - step))


def _spot_occupancy(layout: Iterable[tuple[float, float]]) -> np.ndarray:
    """Which of the nine pip spots (:data:`_ALL_PIP_SPOTS`) a layout puts a pip on."""
    pts = np.array(list(layout), float).reshape(-1, 2)
    return np.array([bool(np.any(np.linalg.norm(pts - s, axis=1) < 0.05)) for s in _ALL_PIP_SPOTS])


#: Every layout in both of its orientations (a quarter turn changes the 2, 3 and 6).
_OCCUPANCIES = {value: [_spot_occupancy(layout), _spot_occupancy([(-y, x) for x, y in layout])]
                for value, layout in PIP_LAYOUTS.items()}


def _value_hidden_by_border(face: Face, shape: tuple[int, int],
                            min_pip_ratio: float = ReaderSettings.pip_radius_range[0]) -> bool:
    """True when part of the face lies outside the frame and another value would look the same
    in the part that is seen (a die cut by the frame's border: a four showing two of its pips
    must not read as a two).

    A one (its pip in view) is never hidden: a three or five would put pips on opposite sides.

    >>> corners = np.array([[-10.0, -10], [10, -10], [10, 10], [-10, 10]])
    >>> two = Face([0, 1], 2, np.zeros(2), corners, 0.0, 1, np.eye(2), radius=1.5)
    >>> _value_hidden_by_border(two, (100, 100))            # its right half is outside the frame
    True
    >>> _value_hidden_by_border(two.__class__(**{**two.__dict__, "centre": np.array([50.0, 50]),
    ...     "corners": corners + 50}), (100, 100))
    False
    """
    if face.value == 1:
        return False
    h, w = shape
    reach = face.radius  # a pip cut in half by the border would not have been found

    def in_view(points: np.ndarray) -> np.ndarray:
        return (points[:, 0] >= reach) & (points[:, 0] <= w - 1 - reach) & (points[:, 1] >= reach) & \
            (points[:, 1] <= h - 1 - reach)

    ex = face.corners[1] - face.corners[0]
    ey = face.corners[3] - face.corners[0]
    seen = in_view(face.centre + _ALL_PIP_SPOTS[:, :1] * ex + _ALL_PIP_SPOTS[:, 1:] * ey)
    own = _OCCUPANCIES[face.value][0]
    if not seen.all() and any(np.array_equal(occupied[seen], own[seen])
                              for value, both in _OCCUPANCIES.items() if value != face.value for occupied in both):
        return True
    if face.value <= 3:
        # Two or three pips in a row may be part of a larger face whose other pips are all out of view.
        return any(not in_view(extra).any() for extra in _row_completions(face, min_pip_ratio))
    return False


def _row_completions(face: Face, min_pip_ratio: float) -> list[np.ndarray]:
    """The pips a larger face would add if a two's or three's pips were part of it, one array per
    way: with ``u`` the step between neighbouring pips of the row and ``v`` the same step across,
    a two may be a side of a four (the other side one step across, either way) or two pips of a
    three's diagonal (the next one step on, at either end); a three may be a column of a six (the
    other column two steps across, either way).  (A five's other diagonal would lie on both
    sides of the row, which the border cannot hide at once.)  A larger face whose pips would be
    too small for it (under ``min_pip_ratio`` of its edge) is no way."""
    ex = face.corners[1] - face.corners[0]
    ey = face.corners[3] - face.corners[0]
    layout = np.array(PIP_LAYOUTS[face.value])
    pips = face.centre + layout[:, :1] * ex + layout[:, 1:] * ey
    along = (pips[-1] - pips[0]) / (len(pips) - 1)
    across = np.array([-along[1], along[0]])
    ratio = face.radius / max(face.edge_px, 1e-6)

    def fits(growth: float) -> bool:  # the larger face's edge over this face's
        return ratio / growth >= min_pip_ratio

    ways = []
    if face.value == 2:
        if fits(math.sqrt(2.0)):
            ways += [pips + across, pips - across]
        if fits(2.0):
            ways += [(pips[-1] + along)[None], (pips[0] - along)[None]]
    elif fits(math.sqrt(2.0)):
        ways += [pips + 2 * across, pips - 2 * across]
    return ways


def _unexplained_marks(field_: PipField, face: Face, inscribed: bool = False) -> float:
    """Area (in pip areas) of pip-like marks inside the face that are not its pips.

    ``inscribed``: for a one, count only inside the disc its outline surely holds.
    """
    grey, owner = field_.grey, field_.owner
    pips = [field_.pips[i] for i in face.pips]
    if face.value == 1 and inscribed:
        # A one's outline is a square of unknown turn: only the disc inside it is surely face.
        ex, ey = face.corners[1] - face.corners[0], face.corners[3] - face.corners[0]
        turn = np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False)
        inner = face.centre + 0.4 * (np.cos(turn)[:, None] * ex + np.sin(turn)[:, None] * ey)
    else:
        inner = face.centre + 0.8 * (face.corners - face.centre)
    x0, y0 = np.floor(inner.min(axis=0)).astype(int)
    x1, y1 = np.ceil(inner.max(axis=0)).astype(int) + 1
    h, w = grey.shape
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(inner - (x0, y0)).astype(np.int32), 1)
    own = np.zeros_like(inside)
    for p in pips:  # the face's own pips, generously
        vals, vecs = np.linalg.eigh(p.cov)
        axes = (max(1, int(round(np.sqrt(vals[1]) * 2 * 1.5))), max(1, int(round(np.sqrt(vals[0]) * 2 * 1.5))))
        angle = math.degrees(math.atan2(vecs[1, 1], vecs[0, 1]))
        cv2.ellipse(own, (int(round(p.x - x0)), int(round(p.y - y0))), axes, angle, 0, 360, 1, -1)
    face_grey = float(np.median([p.face_grey for p in pips]))
    pip_grey = float(np.median([p.pip_grey for p in pips]))
    region = grey[y0:y1, x0:x1]
    if face.polarity > 0:
        marks = region < face_grey - 0.5 * (face_grey - pip_grey)
    else:
        marks = region > face_grey + 0.5 * (pip_grey - face_grey)
    marks &= inside > 0
    # (Marks found as pips of their own, such as a translucent die's far faces seen through
    # it, are judged elsewhere.)
    marks &= (own == 0) & (owner[y0:y1, x0:x1] < 0)
    pip_area = math.pi * face.radius ** 2
    return float(marks.sum() / max(pip_area, 1.0))


def _toward(offset: np.ndarray, direction: np.ndarray | None) -> bool:
    """Does ``offset`` point roughly along ``direction`` (within about 70 degrees)?"""
    if direction is None:
        return False
    return bool(offset @ direction > 0.3 * np.linalg.norm(offset))


#: Image direction from a die's top to the side faces an upright camera (a photo) shows.
_UPRIGHT_CAMERA_SIDE = np.array([0.0, 1.0])


def _side_direction(groups: list[list[Face]]) -> np.ndarray | None:
    """The direction in the image from a die's top to the side faces the camera sees, learnt
    from dice whose side faces are clearly more slanted than their top; ``None`` if unclear."""
    vectors = []
    for group in groups:
        top = group[0]
        for side in group[1:]:
            offset = side.centre - top.centre
            if side.squareness <= 0.8 * top.squareness and np.linalg.norm(offset) > 1e-6:
                vectors.append(offset / np.linalg.norm(offset))
    if len(vectors) < 2:
        return None
    total = np.sum(vectors, axis=0)
    if np.linalg.norm(total) < 0.5 * len(vectors):
        return None
    return total / np.linalg.norm(total)


def _top_by_direction(group: list[Face], away: np.ndarray, min_radius: float = 0.0) -> list[Face]:
    """Of the faces of a die seen about as squarely (counting only those whose pips are at least
    ``min_radius`` pixels), the top is the one the others lie away from."""
    best = max(f.squareness for f in group)
    close = [f for f in group if f.squareness >= 0.8 * best and f.radius >= min_radius]
    for face in close:
        others = [f for f in close if f is not face]
        if others and all(_toward(f.centre - face.centre, away) for f in others):
            return [face] + [f for f in group if f is not face]
    return group


def _seen_differently(a: Face, b: Face) -> bool:
    """True when two faces are foreshortened differently (two faces of one die), not alike
    (the tops of two dice lying flat, which the same camera sees the same way)."""
    if min(a.minor, b.minor) < 0.75 * max(a.minor, b.minor) or min(a.radius, b.radius) < 0.8 * max(a.radius, b.radius):
        return True
    ua = a.metric / math.sqrt(np.linalg.det(a.metric))
    ub = b.metric / math.sqrt(np.linalg.det(b.metric))
    rel = np.linalg.eigvals(np.linalg.solve(ua, ub)).real
    return bool(math.sqrt(rel.max() / max(rel.min(), 1e-9)) > 1.5)


def _pieces_of_one_face(field_: PipField, a: Face, b: Face, settings: ReaderSettings) -> bool:
    """Are two faces, close together and seen alike, parts of one face (their pips together fit
    a layout)?  A side face of a die is foreshortened differently from its top, or lies across
    an edge from it, so its pips and the top's do not make one layout."""
    if a.polarity != b.polarity or set(a.pips) & set(b.pips) or len(a.pips) + len(b.pips) > 6:
        return False
    if np.linalg.norm(a.centre - b.centre) >= 0.8 * max(a.edge_px, b.edge_px) or _seen_differently(a, b):
        return False
    pips = [field_.pips[i] for i in (*a.pips, *b.pips)]
    radius = float(np.mean([p.radius for p in pips]))
    fit = fit_layout(np.array([p.xy for p in pips]) / max(radius, 1e-6))
    return fit is not None and fit[0] <= settings.max_parallelogram_error


#: Pips beside a top count as the rest of its face (:func:`_rest_of_its_face`) when they are this
#: alike to its own in size (either way) ...
REST_OF_FACE_SIZE = 1.3
#: ... and in axis ratio (where both are large enough to show their shape); those found where a
#: larger face would put its other pips lie within this many pip radii of those spots (the rest of
#: flat faces found in pieces on a board, dice scenes 1000-1299 and 5300-5599: 0.02-0.11; a flat
#: three's side face shown by the camera's slant 0.72 (scene 1053); the stress set's cocked twos and
#: threes 0.38 (black three 3108 at 20 degrees), 0.46, 0.82, then 1.49 and more).
REST_OF_FACE_AXIS = 0.15
REST_OF_FACE_REACH = 0.25


def _rest_of_its_face(field_: PipField, top: Face, foreign: set[int], settings: ReaderSettings) -> set[int]:
    """The pips beside a top that are the rest of its own face, or none.

    A six's two rows, a four's two diagonals are sometimes not grouped together: one piece is
    taken for the top (a three, a two) and the other, seen just as squarely, passes for a side
    face shown as openly as the top, the sign of a cocked die.  The pips near the top (where its
    side faces' pips would lie), like its own in polarity, size, contrast and shape, are the rest
    of its face when, with the top's, they make one layout; a side face of a cocked die lies
    across an edge and is foreshortened differently, so its pips and the top's make none.

    >>> def pip(x, y):
    ...     return Pip(x, y, np.eye(2) * 4.0, 12, 1, 60.0, pip_grey=60.0, face_grey=200.0)
    >>> row = [pip(x, 0.0) for x in (0.0, 10.0, 20.0)]            # a six's rows, 20 px apart
    >>> corners = np.array([(10.0, -20.0), (30.0, 0.0), (10.0, 20.0), (-10.0, 0.0)])
    >>> three = Face([0, 1, 2], 3, np.array([10.0, 0.0]), corners, 0.0, 1, np.eye(2), 2.0, 2.0, 1.0)
    >>> def field_of(pips):
    ...     return PipField(pips, np.zeros((1, 1)), np.full((1, 1), -1))
    >>> sorted(_rest_of_its_face(field_of(row + [pip(x, 20.0) for x in (0.0, 10.0, 20.0)]), three, set(),
    ...                          ReaderSettings()))
    [3, 4, 5]
    >>> _rest_of_its_face(field_of(row + [pip(0.0, 20.0), pip(10.0, 20.0), pip(24.0, 24.0)]), three, set(),
    ...                   ReaderSettings())                           # no layout: a side face's pips
    set()
    """
    if top.value == 1:
        return set()   # a one and any pip beside it make a two: no sign of one face
    own = [field_.pips[i] for i in top.pips]
    radius = float(np.mean([p.radius for p in own]))
    axis = float(np.mean([p.axis_ratio for p in own]))
    contrast = float(np.median([abs(p.face_grey - p.pip_grey) for p in own]))
    rest = {index for index, pip in enumerate(field_.pips)
            if index not in foreign and index not in top.pips and pip.polarity == top.polarity
            and np.linalg.norm(pip.xy - top.centre) <= 0.9 * top.edge_px
            and radius / REST_OF_FACE_SIZE <= pip.radius <= radius * REST_OF_FACE_SIZE
            and abs(pip.face_grey - pip.pip_grey) >= 0.5 * contrast
            and (min(pip.radius, radius) < SHAPE_RADIUS
                 or abs(pip.axis_ratio - axis) <= REST_OF_FACE_AXIS)}
    if not rest:
        return set()
    if 4 <= len(rest) + len(own) <= 6:   # (any two pips make a two, three in a row a three)
        pips = own + [field_.pips[i] for i in sorted(rest)]
        size = float(np.mean([p.radius for p in pips]))
        fit = fit_layout(np.array([p.xy for p in pips]) / max(size, 1e-6))
        if fit is not None and fit[0] <= settings.max_parallelogram_error:
            return rest
    # Some of the rest's pips not found (a pip by the die's edge, joined to a light mark beyond
    # it): those found lie where the larger face puts its other pips.
    best: set[int] = set()
    for spots in (_row_completions(top, settings.pip_radius_range[0]) if top.value in (2, 3) else []):
        found = {i for i in rest if np.min(np.linalg.norm(spots - field_.pips[i].xy, axis=1)) <= REST_OF_FACE_REACH * radius}
        best = max(best, found, key=len)
    return best


def _seen_as_squarely(side: Face, top: Face) -> float:
    """How squarely a side face is seen next to its die's top, as a ratio (1: alike).

    From the pips' axis ratios where both faces' pips are large enough to show their shape;
    else from their areas (a side face at a slant shrinks its pips' area as much as their
    minor axis), never more than 1.
    """
    if side.radius >= SHAPE_RADIUS and top.radius >= SHAPE_RADIUS:
        return side.squareness / max(top.squareness, 1e-6)
    return min(1.0, (side.radius / max(top.radius, 1e-6)) ** 2)


def _outline_squareness(face: Face, reference: Callable[[np.ndarray], np.ndarray]) -> float | None:
    """How square the outline of a face of four to six pips is on the board plane (the board's
    foreshortening at the face's centre undone): its narrowest over widest extent, 1 for a
    square; ``None`` for fewer pips (a similarity fit says nothing of the face's shape).

    A flat die's top is parallel to the board, so its pips' layout there is a square; a tilted
    top is foreshortened along its tilt.  Unlike the pips' ellipses, this needs no pips of more
    than a pixel or two: their centres are found to a fraction of a pixel.

    >>> face = Face([0, 1, 2, 3], 4, np.zeros(2), np.array([[-5., -4], [5, -4], [5, 4], [-5, 4]]),
    ...             0.0, 1, np.eye(2))
    >>> round(_outline_squareness(face, lambda point: np.eye(2)), 2)
    0.8
    """
    if len(face.pips) < 4:
        return None
    root = _board_root(reference, face.centre)
    c = (face.corners - face.centre) @ root.T
    u, v = c[1] - c[0], c[3] - c[0]
    gram = np.array([[u @ u, u @ v], [u @ v, v @ v]])
    vals = np.linalg.eigvalsh(gram)
    return math.sqrt(max(vals[0], 0.0) / max(vals[1], 1e-12))


def _side_face_opening(field_: PipField, side: Face, top: Face) -> float | None:
    """How open a side face of two or more pips is seen across the edge it shares with its die's
    top: the extent of its pips' layout along the way from the top's centre to its own over the
    extent across (a face seen head on: 1; a flat die's side seen from straight above: 0), or
    ``None`` when the face does not look like one foreshortened across that edge.

    The side faces of a die lying flat are seen no more open than the camera's slant (its sine)
    allows; a cocked die tilted 20 degrees or more shows one at least sin 20 = 0.34 open.  The
    pips' centres (found to a fraction of a pixel) measure it where the pips' own shapes cannot:
    a side face's pips are slivers of a pixel or two, which blur makes look rounder than they are,
    and a one on top is often drawn with a larger pip than the side's, so their sizes do not
    compare either.  A side face is foreshortened along that way, so its pips are too: a "side
    face" whose pips are no narrower along it than across (pips of the top's own plane grouped
    apart from it, as a six's column beside a lone pip) or whose layout is longer along it than
    across is no side face seen at a slant.

    >>> def face(points, value, cov):
    ...     pips = [Pip(x, y, np.array(cov, float), 9, 1, 60.0) for x, y in points]
    ...     return pips, Face(list(range(len(pips))), value, np.mean(points, axis=0), np.zeros((4, 2)), 0.0, 1, np.eye(2))
    >>> pips, side = face([(23.0, -5.0), (26.0, 0.0), (29.0, 5.0)], 3, [[0.6, 0.0], [0.0, 2.2]])   # 6 px deep, 10 long
    >>> top = Face([3], 1, np.zeros(2), np.zeros((4, 2)), 0.0, 1, np.eye(2))
    >>> round(_side_face_opening(PipField(pips, np.zeros((1, 1)), np.full((1, 1), -1)), side, top), 2)
    0.6
    >>> pips, side = face([(23.0, -5.0), (26.0, 0.0), (29.0, 5.0)], 3, [[2.2, 0.0], [0.0, 2.2]])   # round pips
    >>> _side_face_opening(PipField(pips, np.zeros((1, 1)), np.full((1, 1), -1)), side, top) is None
    True
    """
    if side.value < 2:
        return None
    way = side.centre - top.centre
    length = float(np.linalg.norm(way))
    if length < 1e-6:
        return None
    return _opening_along([field_.pips[i] for i in side.pips], way / length)


def _opening_along(pips: Sequence[Pip], along: np.ndarray) -> float | None:
    """The extent of the pips' centres along the unit vector ``along`` over their extent across
    it, or ``None`` when they do not look like a face's pips foreshortened along it (their shapes
    no narrower along it than across, by :data:`SIDE_PIPS_NARROWER`, or a layout longer along it
    than across): how open a side face is seen from its die's top (:func:`_side_face_opening`)."""
    across = np.array([-along[1], along[0]])
    centres = np.array([p.xy for p in pips])
    extent_across = float(np.ptp(centres @ across))
    if extent_across < 1e-6:
        return None
    opening = float(np.ptp(centres @ along)) / extent_across
    narrowing = float(np.median([math.sqrt((along @ p.cov @ along) / max(float(across @ p.cov @ across), 1e-9))
                                 for p in pips]))
    if opening > 1.0 or narrowing > SIDE_PIPS_NARROWER:
        return None
    return opening


#: A lone pip beside a top of four to six pips whose place along the top's nearest edge is this
#: close to the edge's middle (a fraction of the edge) is taken for a side face's middle pip
#: (:func:`_loose_side_opening`).
LONE_SIDE_PIP_MIDDLE = 0.15
#: ... if it is no longer along that edge than this many of the top's pips (a side face's pip is
#: a top pip foreshortened across the edge; a longer streak is a row of slivers blur joined).
LONE_SIDE_PIP_LENGTH = 1.5


def _outward_normals(corners: np.ndarray) -> list[np.ndarray]:
    """The unit normals of a face's four edges (edge k from corner k to k + 1), each pointing
    away from the face's middle.

    >>> [n.round(2).tolist() for n in _outward_normals(np.array([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]))]
    [[0.0, -1.0], [1.0, -0.0], [0.0, 1.0], [-1.0, -0.0]]
    """
    middle = corners.mean(axis=0)
    normals = []
    for k in range(4):
        edge_vector = corners[(k + 1) % 4] - corners[k]
        normal = np.array([edge_vector[1], -edge_vector[0]]) / max(float(np.linalg.norm(edge_vector)), 1e-9)
        normals.append(normal if normal @ (corners[k] - middle) > 0 else -normal)
    return normals


def _loose_side_opening(field_: PipField, top: Face, excluded: set[int]) -> float:
    """How open a side face beside a top is seen, from all the pips found beside the top, grouped
    into faces or not (a side face's pips, dimmer than the top's and foreshortened, are often
    found but not grouped as that face: a side three as three lone pips, a side six's rows as a
    "three" and two lone pips): the largest opening (:func:`_opening_along`) of the pips beside the
    top that lie on one side of it (within 45 degrees of each other seen from its centre), across
    the top's edge nearest them.  Beside a top of four to six pips (its outline fitted from its
    layout), a lone pip by the middle of its edge is a side face's middle pip (of a one, three or
    five): it lies half the side face's depth beyond the edge, so twice its distance beyond the
    edge over the edge is the face's opening.  0 when no such pips are seen.  Pips in
    ``excluded`` (other dice's, faces that are no side faces) are left out.

    A flat die's side faces show only as a band as wide as the camera's slant allows along the
    top's outline: pips found there lie in a row along it, and their layout is seen no more
    open than the slant's sine.  A cocked die's side face is seen open by its tilt's sine.

    >>> def pip(x, y):
    ...     return Pip(x, y, np.array([[0.5, 0.0], [0.0, 2.0]]), 6, 1, 60.0)
    >>> pips = [Pip(0.0, 0.0, np.eye(2) * 4.0, 12, 1, 60.0), pip(14.0, -5.0), pip(16.0, 0.0), pip(18.0, 5.0)]
    >>> corners = np.array([(-12.0, -12.0), (12.0, -12.0), (12.0, 12.0), (-12.0, 12.0)])
    >>> top = Face([0], 1, np.zeros(2), corners, 0.0, 1, np.eye(2), 2.0, 2.0, 1.0)
    >>> round(_loose_side_opening(PipField(pips, np.zeros((1, 1)), np.full((1, 1), -1)), top, set()), 2)
    0.4
    """
    centre, edge = top.centre, top.edge_px
    polygon = (centre + 1.08 * (top.corners - centre)).astype(np.float32)
    beside = []
    for index, pip in enumerate(field_.pips):
        if index in excluded or index in top.pips or pip.polarity != top.polarity:
            continue
        if np.linalg.norm(pip.xy - centre) > 0.9 * edge or pip.radius > 1.6 * top.radius:
            continue
        if cv2.pointPolygonTest(polygon, (float(pip.x), float(pip.y)), False) >= 0:
            continue
        beside.append(index)
    ways = {i: (field_.pips[i].xy - centre) / max(float(np.linalg.norm(field_.pips[i].xy - centre)), 1e-9)
            for i in beside}
    # A side face is foreshortened across the top's edge it shares: along the normal of the top's
    # nearest edge (a one's outline is only a guess: along the way its pips are narrowest).
    normals = _outward_normals(top.corners) if top.value > 1 else []
    best = 0.0
    if top.value >= 4:
        # A top of four to six pips has its outline where its layout puts it (an affine fit):
        # a lone pip beside the middle of its edge is a side face's middle pip (of a one, three
        # or five), which lies half the side face's depth (edge x sine of its opening) beyond it.
        for i in beside:
            pip = field_.pips[i]
            k = max(range(4), key=lambda k: float(normals[k] @ (pip.xy - centre)))
            start, end = top.corners[k], top.corners[(k + 1) % 4]
            length = max(float(np.linalg.norm(end - start)), 1e-9)
            middle = 0.5 * (start + end)
            if abs(float((pip.xy - middle) @ (end - start))) / length ** 2 > LONE_SIDE_PIP_MIDDLE:
                continue
            along, across = normals[k], (end - start) / length
            if math.sqrt((along @ pip.cov @ along) / max(float(across @ pip.cov @ across), 1e-9)) > SIDE_PIPS_NARROWER:
                continue   # no narrower along the way from the top than across: no side face's pip
            if math.sqrt(float(across @ pip.cov @ across)) > 0.5 * LONE_SIDE_PIP_LENGTH * top.radius:
                continue   # longer along the edge than a pip of the top: a row of slivers blur joined
            best = max(best, 2.0 * float((pip.xy - middle) @ normals[k]) / length)
    if len(beside) < 2:
        return best
    for seed in beside:
        together = [i for i in beside if ways[i] @ ways[seed] >= math.cos(math.radians(45.0))]
        if len(together) < 2:
            continue
        pips = [field_.pips[i] for i in together]
        way = np.mean([p.xy for p in pips], axis=0) - centre
        if normals:
            along = max(normals, key=lambda n: float(n @ way))
        else:
            along = np.linalg.eigh(sum(p.cov for p in pips))[1][:, 0]   # the way the pips are narrowest
            along = along if along @ way >= 0 else -along
        opening = _opening_along(pips, along)
        if opening is not None:
            best = max(best, opening)
    return best


def _side_band_depth(bgr: np.ndarray, face: Face, face_bgr: np.ndarray) -> float:
    """How much deeper (a fraction of the top's edge) a band of the die's own colour runs on past
    the top's outline on one side of the top than on the opposite side, on the side where it runs
    deepest: a side face seen as open as that (a flat die's shows no deeper than the camera's
    slant's sine; on the opposite side a cocked die's top, tilted up, meets the board).

    A side face is the die's colour, lit less than its top (its pixels are the top's colour,
    ``face_bgr``, scaled down to ``SIDE_BAND_DARKEST`` of it, within ``SIDE_BAND_COLOUR`` levels)
    or, turned toward the light, as brightly (up to ``SIDE_BAND_LIT`` of it), where a board, its shadow or a
    checker has another colour (a shaded band may end on the die's own shadow, near its hue: see
    below).  From each of the top's edges four rays run outward (a quarter and
    three quarters of a half-edge from its middle: between a side face's pips); on each the band
    runs on while the colour keeps to the die's (gaps of two pixels, a pip's blurred rim, and a
    side face's pip, off it for no more than ``SIDE_BAND_PIP_WIDTH`` of the edge, darker than
    the band for dark pips (``face.polarity``), lighter for light ones, bridged),
    and must end sharply (two pixels on) on another colour, clearly, within 0.9 of the edge.  An
    edge's depth is the median of its rays'; or, where the band is shaded (to ``SIDE_BAND_SHADED``
    of the top at most) and every ray's end is off the die's colour (by ``SIDE_BAND_SHADOW_OFF``)
    only past the edge's blur (the die's shadow, of a hue near the shaded die's), all within
    ``SIDE_BAND_EVEN`` of the edge of each other, their median.
    Where the outline is off (a one's, guessed from its size, too small; the rim of a translucent
    die, darker than its middle) the die's colour runs on past every edge alike: only the excess
    over the opposite edge is a side face's.  Where rings around the die past its side faces
    (``SIDE_BAND_BOARD_REACH``) are of the die's colour, shaded, in places (a checker or point of
    its colour, its shadow on a board of its colour, another die), the band may be the board's: 0.

    >>> frame = np.full((100, 100, 3), (60, 130, 200), np.uint8)   # an orange board
    >>> frame[35:65, 35:65] = 225                                   # a white top, 30 px
    >>> frame[65:75, 35:65] = 120                                   # its side face, 10 px deep
    >>> corners = np.array([(35.0, 35.0), (65.0, 35.0), (65.0, 65.0), (35.0, 65.0)])
    >>> top = Face([0], 5, corners.mean(axis=0), corners, 0.0, 1, np.eye(2))
    >>> round(_side_band_depth(frame, top, np.array([225.0, 225.0, 225.0])), 2)   # (less half a pixel above)
    0.32
    """
    h, w = bgr.shape[:2]
    colour = np.asarray(face_bgr, np.float64)
    norm = float(np.linalg.norm(colour))
    if norm < 1e-6:
        return 0.0
    unit = colour / norm

    def of_die_colour(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which samples are of the die's colour (``SIDE_BAND_DARKEST`` to ``SIDE_BAND_LIT`` of the
        top's), and how far each is off that colour."""
        along = samples @ unit
        residual = np.linalg.norm(samples - np.outer(along, unit), axis=1)
        return ((residual <= SIDE_BAND_COLOUR) & (along >= SIDE_BAND_DARKEST * norm)
                & (along <= SIDE_BAND_LIT * norm)), residual

    centre = face.corners.mean(axis=0)
    # Where the board around the die (past where any of its side faces can reach) is of the
    # die's colour in places (a checker or a point of its colour, its own shadow on a board of
    # its colour, another die), a band of that colour beside the top may be the board's.
    edge = float(np.mean([np.linalg.norm(face.corners[k] - face.corners[(k + 1) % 4]) for k in range(4)]))
    angles = np.linspace(0.0, 2.0 * math.pi, 48, endpoint=False)
    ring = np.concatenate([centre + reach * edge * np.column_stack([np.cos(angles), np.sin(angles)])
                           for reach in SIDE_BAND_BOARD_REACH])
    xi, yi = np.round(ring[:, 0]).astype(int), np.round(ring[:, 1]).astype(int)
    seen = (xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)
    if np.count_nonzero(seen) < 0.5 * len(ring):
        return 0.0
    board_shaded, _ = of_die_colour(bgr[yi[seen], xi[seen]].astype(np.float64))
    if board_shaded.mean() > SIDE_BAND_BOARD_SHARE:
        return 0.0
    edge_depths = [0.0] * 4
    for k, normal in enumerate(_outward_normals(face.corners)):
        start, end = face.corners[k], face.corners[(k + 1) % 4]
        length = float(np.linalg.norm(end - start))
        if length < 4.0:
            continue
        edge_vector = end - start
        steps = np.arange(0.0, 0.9 * length + 0.5, 0.5)
        depths = []
        shadowed = []   # the rays' stops where the band, shaded, ends on the die's shadow (below)
        for offset in (-0.375, -0.125, 0.125, 0.375):
            origin = 0.5 * (start + end) + offset * edge_vector
            pts = origin + np.outer(steps, normal)
            xi = np.round(pts[:, 0]).astype(int)
            yi = np.round(pts[:, 1]).astype(int)
            if not ((xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)).all():
                depths.append(0.0)
                continue
            samples = bgr[yi, xi].astype(np.float64)
            die_colour, residual = of_die_colour(samples)
            # The band ends where two pixels running are off its colour (a pip's blurred rim is
            # bridged), and must end on another colour, clearly (a board of the die's colour, or
            # its shadow on one, looks just like a side face: no measure there).
            off = ~die_colour
            ends = np.flatnonzero(off[:-4] & off[1:-3] & off[2:-2] & off[3:-1] & off[4:])
            if not len(ends):
                depths.append(0.0)
                continue
            stop = int(ends[0])
            # A side face's pip on the ray (the rays three eighths of the edge from its middle
            # skim the pips of a side two, three or six) is off the band's colour for no more
            # than a pip's width, then the band runs on past it ...
            back_on = np.flatnonzero(die_colour[:-1] & die_colour[1:])
            along = samples @ unit
            while True:
                resume = back_on[back_on > stop]
                if not len(resume) or steps[resume[0]] - steps[stop] > SIDE_BAND_PIP_WIDTH * length:
                    break
                # ... and of the pips' kind, darker than the band for dark pips, lighter for light
                # ones (a dark gap between a red die and a red point beside it is no white pip).
                band = along[:stop][die_colour[:stop]]
                level = float(np.median(band)) if len(band) else norm
                if (float(np.median(along[stop:resume[0]])) - level) * face.polarity > 0:
                    break
                later = ends[ends > resume[0]]
                if not len(later):
                    break
                stop = int(later[0])
            # (A side face ends at the die's edge, sharp: clearly off its colour two pixels on.
            # A shadow's soft edge fades off it.  The colour beyond is judged from the first
            # pixel off the band: past the edge's blur a pale point beside a flat die would
            # pass for the board beyond a band that runs onto it.)
            run = max(3, int(0.15 * length / 0.5))
            beyond = residual[stop:stop + run]
            sharp = residual[min(stop + 4, len(residual) - 1)] > 2.0 * SIDE_BAND_COLOUR
            depths.append(steps[stop] / length if sharp and np.median(beyond) > 2.0 * SIDE_BAND_COLOUR else 0.0)
            # A band shaded clearly darker than the top may end on the die's own shadow (cast on
            # its shaded side), whose hue on a grey or wooden board is near the shaded die's: the
            # edge's blurred pixels between them are only just off its colour, the shadow off it
            # (by SIDE_BAND_SHADOW_OFF at least) two pixels on.
            band = along[:stop][die_colour[:stop]]
            past_blur = residual[stop + 4:stop + 4 + run]
            if len(band) and float(np.median(band)) <= SIDE_BAND_SHADED * norm and len(past_blur) \
                    and past_blur[0] > SIDE_BAND_SHADOW_OFF \
                    and float(np.median(past_blur)) > SIDE_BAND_SHADOW_OFF:
                shadowed.append(steps[stop] / length)
        edge_depths[k] = float(np.median(depths))
        # Judged past the blur, the band's end is taken only where it is a side face's far edge,
        # parallel to the top's: every ray across it ends so, all as deep (a pale point's or a
        # checker's outline beside a flat die, onto which its band ran, is not).
        if len(shadowed) == len(depths) and np.ptp(shadowed) <= SIDE_BAND_EVEN:
            edge_depths[k] = max(edge_depths[k], float(np.median(shadowed)))
    return max(edge_depths[k] - edge_depths[(k + 2) % 4] for k in range(4))


def _one_outline(bgr: np.ndarray, pip: Pip, half: float, directions: int = 72) -> np.ndarray | None:
    """The corners of a one's top, turned as its outline is: a square of half-edge ``half``
    (pixels) around the pip, turned to fit where the face's colour ends on rays from the pip (or,
    where they fit one clearly better, a rectangle shortened across one edge: a cocked one's top
    is seen shortened along its tilt by the tilt's cosine), or ``None`` when too few rays find
    that end.

    A one's lone pip tells its face's size (:func:`_lone_pip_face_size`) but not how it is
    turned; the rays to a square's outline are ``half / max(|cos|, |sin|)`` long at an angle off
    its edges' normals, so the turn whose square those lengths fit best is the face's.

    >>> frame = np.full((100, 100, 3), (60, 130, 200), np.uint8)
    >>> square = cv2.boxPoints(((50.0, 50.0), (30.0, 30.0), 30.0))
    >>> _ = cv2.fillConvexPoly(frame, np.round(square).astype(np.int32), (230, 230, 230))
    >>> _ = cv2.circle(frame, (50, 50), 3, (30, 30, 30), -1)
    >>> pip = Pip(50.0, 50.0, np.eye(2) * 2.25, 28, 1, 60.0, face_bgr=np.array([230.0, 230.0, 230.0]))
    >>> corners = _one_outline(frame, pip, 15.0)
    >>> round(math.degrees(math.atan2(*(corners[1] - corners[0])[::-1])) % 90)
    30
    """
    h, w = bgr.shape[:2]
    colour = np.asarray(pip.face_bgr, np.float64)
    angles = np.linspace(0.0, 2.0 * math.pi, directions, endpoint=False)
    unit = np.column_stack([np.cos(angles), np.sin(angles)])
    steps = np.arange(1.6 * pip.radius, 1.6 * half, 0.5)
    pts = pip.xy[None, None] + steps[None, :, None] * unit[:, None, :]
    xi, yi = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
    inside = ((xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)).all(axis=1)
    samples = bgr[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)].astype(np.float64)
    off = np.linalg.norm(samples - colour, axis=-1) > ONE_OUTLINE_COLOUR
    found = inside & off.any(axis=1)
    if np.count_nonzero(found) < directions // 2:
        return None
    lengths = steps[np.argmax(off, axis=1)][found]
    # A rectangle of half-edges ``half`` across and ``half * shortening`` along its second edge:
    # the rays to it are ``half / max(|cos|, |sin| / shortening)`` long.  The square is tried
    # first (its turns repeat past 90 degrees); then the rectangles, the least shortened first,
    # each taken only where it fits clearly better than the best outline so far: a flat one's top
    # is seen square, and a cocked one's no more shortened than it must be.
    turns = np.radians(np.arange(0.0, 180.0, 2.0))
    off_normal = angles[found][None, :] - turns[:, None]
    cos, sin = np.abs(np.cos(off_normal)), np.abs(np.sin(off_normal))
    best = (math.inf, 0.0, 1.0)
    for shortening in ONE_OUTLINE_SHORTENINGS:
        spreads = np.median(np.abs(lengths * np.maximum(cos, sin / shortening) - half), axis=1)
        gain = 0.0 if shortening == 1.0 else ONE_OUTLINE_RECTANGLE_GAIN * half
        for turn, spread in zip(turns, spreads):
            if shortening == 1.0 and turn >= 0.5 * math.pi:
                break
            if spread < best[0] - gain:
                best = (float(spread), float(turn), shortening)
    _, turn, shortening = best
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    return pip.xy + (2.0 * half) * (_SQUARE * np.array([1.0, shortening])) @ rotation.T


#: A pixel is off a one's face where it lies this far (BGR levels) from the face's colour
#: (:func:`_one_outline`).
ONE_OUTLINE_COLOUR = 40.0
#: A tilted one's top is seen shortened along its tilt by the tilt's cosine (to cos 40 degrees:
#: past that another face is more upward); its outline is fitted as a rectangle so shortened ...
ONE_OUTLINE_SHORTENINGS = (1.0, 0.95, 0.9, 0.85, 0.8, 0.75)
#: ... where it fits the rays this much (a fraction of the half-edge) better than the best
#: outline tried before it (the square, then the less shortened rectangles).
ONE_OUTLINE_RECTANGLE_GAIN = 0.02


#: A pixel is of a die's shaded colour when it lies within this distance (of BGR levels) of the
#: die's face colour scaled (:func:`_side_band_depth`).
SIDE_BAND_COLOUR = 20.0
#: ... and the band beside a top tells nothing where more than this share of rings around the
#: die, this many edges from its centre (past its side faces, tilted up to about 40 degrees, and
#: through its shadow), is of that colour.
SIDE_BAND_BOARD_SHARE = 0.1
SIDE_BAND_BOARD_REACH = (1.15, 1.4)
#: A side face is lit no more than this fraction of its top's brightness (turned toward the
#: light, about as brightly) ...
SIDE_BAND_LIT = 1.1
#: ... and no less than this (darker, any colour is near every die's colour, shaded).
SIDE_BAND_DARKEST = 0.35
#: A band shaded to no more than this fraction of its top's brightness may end on the die's own
#: shadow, of a hue near its own: its colour beyond is then judged past the edge's blur, where
#: every ray across the band ends so within this share of the top's edge of each other (a side
#: face's far edge is parallel to the top's) (:func:`_side_band_depth`).
SIDE_BAND_SHADED = 0.8
SIDE_BAND_EVEN = 0.1
#: ... and the shadow is off the die's colour by this much (BGR levels) past the blur: the shadow
#: of a translucent red die on a wooden board lies 37-38 off its hue.
SIDE_BAND_SHADOW_OFF = 30.0
#: A side face's pip crossed by a ray across its band is off the band's colour for no more than
#: this share of the top's edge (a pip's width: real dice's pips have radii of 0.07 to 0.11 of
#: the edge, see vision.dice.faces), and the band runs on past it (:func:`_side_band_depth`).
SIDE_BAND_PIP_WIDTH = 0.25


#: A side face's pips are narrower along the way from its die's top than across by this much at
#: least (:func:`_side_face_opening`; blur rounds the slivers of a face seen at a slant).
SIDE_PIPS_NARROWER = 0.85
#: On a board, a side face seen more open than the camera's slant allows (its sine) by this much
#: shows a cocked die (:func:`_side_face_opening`).
SIDE_OPENING_MARGIN = 0.2


#: A pip just beyond a top of two or three pips (its centre within this many of the top's edges
#: of the top's centre) ...
SQUARER_PIP_REACH = 1.1
#: ... seen rounder than every pip of that top by this much (axis ratio) ...
SQUARER_PIP_ROUNDER = 0.05
#: ... at least as large, and clearer than each by this factor, lies on a face turned more toward
#: the camera than that "top" (:func:`_squarer_pip_beside`).
SQUARER_PIP_CLEARER = 1.1


def _squarer_pip_beside(field_: PipField, top: Face, foreign: set[int]) -> float:
    """How clearly a pip beside a top of two or three pips is seen more squarely than that top's
    pips: the least of its margins in roundness, size and contrast over the top's roundest,
    largest and clearest pip (positive: on every count); ``-inf`` for no such pip.

    A small cocked die seen from above shows its top's one pip round and clear, and beside it a
    side face's pips foreshortened into narrow, smaller, fainter ellipses whose layout (a row of
    three, two of them) passes for a top when the one's pip made no face of its own (found as the
    lone core of a blob).  The face a reader takes for a die's top is the one turned most toward
    the camera, so such a pip beside it shows that the "top" is a side face.  A flat die's side
    faces are seen at the camera's slant, never more squarely than its top; another die's pips
    are its faces' (``foreign``).
    """
    if not 2 <= len(top.pips) <= 3:
        return -math.inf
    own = [field_.pips[i] for i in top.pips]
    roundest = max(p.axis_ratio for p in own)
    largest = max(p.radius for p in own)
    clearest = max(abs(p.face_grey - p.pip_grey) for p in own)
    polygon = (top.centre + 1.08 * (top.corners - top.centre)).astype(np.float32)
    best = -math.inf
    for index, pip in enumerate(field_.pips):
        if index in foreign or index in top.pips or pip.polarity != top.polarity:
            continue
        if np.linalg.norm(pip.xy - top.centre) > SQUARER_PIP_REACH * top.edge_px or \
                cv2.pointPolygonTest(polygon, (float(pip.x), float(pip.y)), False) >= 0:
            continue
        margin = min(pip.axis_ratio - roundest - SQUARER_PIP_ROUNDER, pip.radius / largest - 1.0,
                     abs(pip.face_grey - pip.pip_grey) / max(clearest, 1e-6) - SQUARER_PIP_CLEARER)
        best = max(best, margin)
    return best


#: On a board, a top of two or three pips whose face reaches across its pips' row, on the board's
#: plane, less than this fraction of the way to a flat face's corners on one side ...
ACROSS_REACH_SHORT = 0.8
#: ... while on the other its colour runs on past this fraction (over the fold, onto the real top)
#: is a cocked die's side face (:func:`_side_face_as_top`).
ACROSS_REACH_ON = 1.4
#: The rays of each direction spread this far (degrees, on the board's plane) either side of it.
ACROSS_REACH_SPREAD = 10.0


def _across_reaches(field_: PipField, face: Face, bgr: np.ndarray | None,
                    reference: Callable[[np.ndarray], np.ndarray]) -> tuple[float, float] | None:
    """How far a face of two or three pips reaches across its pips' row on either side, on the
    board's plane (the board's foreshortening at the face undone), to where the face's colour
    ends, as fractions of the way to a flat face's corners there: ``(shorter, longer)``, or
    ``None`` for other faces, or where a ray leaves the frame.

    A flat die's top is a square on the board's plane: its two diagonals are alike, and its face
    reaches across its pips' diagonal (to its other two corners) about as far as its corners lie
    along it: as far as its two outer pips lie apart (the corner's distance, where the pips lie a
    quarter edge from its middle; less, where its pips lie farther out, and the corner is
    measured along the row too).  A side face of a cocked die that passes for a top (its pips in
    a row, as the similarity fit of a two or three takes them) is foreshortened across the fold
    it shares with the real top: it reaches across its row on both sides the fold's cosine less
    far (0.54 of the way at a tilt of 40 degrees), but on the fold's side its colour may run on
    over the real top.

    >>> frame = np.full((100, 100, 3), (60, 130, 200), np.uint8)   # an orange board
    >>> frame[30:70, 30:70] = 230                                   # a white top, 40 px
    >>> for x, y in ((40, 40), (50, 50), (60, 60)):
    ...     _ = cv2.circle(frame, (x, y), 3, (30, 30, 30), -1)
    >>> field_ = find_pips(frame)
    >>> [tuple(round(r, 1) for r in _across_reaches(field_, f, frame, lambda point: np.eye(2)))
    ...  for f in find_faces(field_, frame)]
    [(1.0, 1.0)]
    >>> frame[30:70, 30:70] = (60, 130, 200)
    >>> frame[38:62, 30:70] = 230                                   # the same three, 24 px deep
    >>> for x, y in ((40, 44), (50, 50), (60, 56)):
    ...     _ = cv2.circle(frame, (x, y), 3, (30, 30, 30), -1)
    >>> field_ = find_pips(frame)
    >>> [tuple(round(r, 1) for r in _across_reaches(field_, f, frame, lambda point: np.eye(2)))
    ...  for f in find_faces(field_, frame)]
    [(0.6, 0.7)]
    """
    if face.value not in (2, 3):
        return None
    points = np.array([field_.pips[i].xy for i in face.pips])
    pairs = [(a, b) for a in range(len(points)) for b in range(a + 1, len(points))]
    a, b = max(pairs, key=lambda ab: float(np.linalg.norm(points[ab[0]] - points[ab[1]])))
    root = _board_root(reference, face.centre)
    to_image = np.linalg.inv(root)
    diagonal = root @ (points[b] - points[a])
    span = float(np.linalg.norm(diagonal))   # a flat face's corners lie about this far from its centre
    if span < 4.0:
        return None
    along = diagonal / span
    across = np.array([-along[1], along[0]])
    off_face = _off_face_test(field_, face, bgr)
    grey = field_.grey
    h, w = grey.shape[:2]
    centre = points.mean(axis=0)
    run = max(3, int(round(0.25 * span / 0.5)))
    # (From a third of the way to a flat face's corner: the middle pip of a three, blurred,
    # glows past its rim; a side face's edge lies half that way or more.)
    steps = np.arange(0.3 * span, 1.6 * span + 0.5 * run, 0.5)
    turns = np.radians(np.linspace(-ACROSS_REACH_SPREAD, ACROSS_REACH_SPREAD, 5))

    def reach(direction: np.ndarray) -> float:
        lengths = []
        for turn in turns:
            c, s = math.cos(turn), math.sin(turn)
            ray = to_image @ np.array([c * direction[0] - s * direction[1], s * direction[0] + c * direction[1]])
            pts = centre + np.outer(steps, ray)
            xi, yi = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
            if not ((xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)).all():
                return math.nan
            off = off_face(yi, xi)
            # (The face ends where its colour does not come back within a quarter of its
            # diagonal: a glint or a translucent die's far pip seen through it is passed.)
            runs = np.convolve(off.astype(int), np.ones(run, int), mode="valid") == run
            ends = np.flatnonzero(runs)
            lengths.append(float(steps[ends[0]]) if len(ends) else math.inf)
        return float(np.median(lengths))

    # (A corner nearer than the outer pips lie apart is a die whose pips lie farther out.)
    corner = min(span, reach(along), reach(-along))
    sides = sorted([reach(across), reach(-across)])
    if not all(map(math.isfinite, [corner] + sides[:1])) or math.isnan(sides[1]) or corner < 0.5 * span:
        return None  # out of the frame, or no corner found: no measure
    return sides[0] / corner, sides[1] / corner


def _side_face_as_top(reaches: tuple[float, float] | None) -> bool:
    """Do a face's reaches across its pips' row (:func:`_across_reaches`) show a side face of a
    cocked die: short on one side, its colour running on over the fold onto the real top on the
    other?  Short on one side only, the other ending near the corners' distance, is a flat face
    whose colour changes inside (a translucent die over a point of another colour); short on both
    sides, a flat face shaded across (a white die's top lit unevenly, scene 2674: 0.61 and 0.69) as
    often as a cocked die's side face whose top beyond the fold is lit otherwise (0.55-0.75).

    >>> _side_face_as_top((0.6, 1.6)), _side_face_as_top((0.6, 1.1)), _side_face_as_top((0.6, 0.65))
    (True, False, False)
    """
    if reaches is None:
        return False
    shorter, longer = reaches
    return shorter < ACROSS_REACH_SHORT and longer > ACROSS_REACH_ON


def _outline_tolerance(face: Face) -> float:
    """How far from square a flat face's measured outline may be: a few percent for the
    layout's own misfit, plus the pip centres' uncertainty (a fraction of a pixel) over the
    face's size."""
    return 0.04 + 0.3 / max(face.edge_px, 1.0)


def _share_an_edge(a: Face, b: Face, max_angle_deg: float = 20.0) -> bool:
    """True when an edge of face ``a`` lies on an edge of face ``b``: two faces of one die
    (the faces of two dice are turned independently, so their edges rarely line up).
    A one's outline is a guess, so it shares nothing."""
    if a.value == 1 or b.value == 1:
        return False
    near = 0.4 * min(a.edge_px, b.edge_px)
    sin_max = math.sin(math.radians(max_angle_deg))

    def to_segment(point: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
        t = float(np.clip((point - p) @ (q - p) / max(float((q - p) @ (q - p)), 1e-9), 0.0, 1.0))
        return float(np.linalg.norm(point - (p + t * (q - p))))

    for i in range(4):
        pa, qa = a.corners[i], a.corners[(i + 1) % 4]
        da = (qa - pa) / max(np.linalg.norm(qa - pa), 1e-9)
        for j in range(4):
            pb, qb = b.corners[j], b.corners[(j + 1) % 4]
            db = (qb - pb) / max(np.linalg.norm(qb - pb), 1e-9)
            if abs(da[0] * db[1] - da[1] * db[0]) >= sin_max:
                continue
            if min(to_segment((pa + qa) / 2, pb, qb), to_segment((pb + qb) / 2, pa, qa)) < near:
                return True
    return False


def _sides_to_the_camera_side(groups: list[list[Face]], away: np.ndarray) -> list[list[Face]]:
    """A side face between two dice joins the die it lies on the camera's side of (``away``
    from that die's top): the other die cannot show that face to this camera."""
    for k, group in enumerate(groups):
        for face in list(group[1:]):
            if _toward(face.centre - group[0].centre, away):
                continue
            for j, other in enumerate(groups):
                top = other[0]
                if j != k and top.polarity == face.polarity and _toward(face.centre - top.centre, away) and \
                        np.linalg.norm(face.centre - top.centre) < 1.3 * max(top.edge_px, face.edge_px):
                    group.remove(face)
                    other.append(face)
                    break
    return groups


def _join_small_tops(groups: list[list[Face]]) -> list[list[Face]]:
    """Dice of a set are the same size, and one camera sees their tops at about the same size:
    a "top" far smaller than the others' (under 0.7 of their median edge) lying just beside
    another die's top is a side face of that die (seen at a slant, or blurred as much as the top).

    Needs at least two other dice to know the size; the small face joins the nearest such top.
    """
    if len(groups) < 3:
        return groups
    edges = np.array([group[0].edge_px for group in groups])
    small = set()
    for k, group in enumerate(groups):
        top = group[0]
        typical = float(np.median(np.delete(edges, k)))
        if top.edge_px >= 0.7 * typical:
            continue
        nearest, nearest_distance = None, math.inf
        for j, other in enumerate(groups):
            if j == k or j in small or other[0].polarity != top.polarity or other[0].edge_px < 0.7 * typical:
                continue
            distance = float(np.linalg.norm(other[0].centre - top.centre))
            if distance < 1.3 * other[0].edge_px and distance < nearest_distance:
                nearest, nearest_distance = j, distance
        if nearest is not None:
            groups[nearest].extend(group)
            small.add(k)
    return [group for k, group in enumerate(groups) if k not in small]


def _without_small_ones(dice: list[Die], tops: list[Face], min_ratio: float,
                        reference: Callable[[np.ndarray], np.ndarray] | None) -> list[Die]:
    """The dice less the ones (and twos) far smaller, on the board, than the frame's other dice.

    Dice of a set are the same size, so their tops are the same size on the board's plane
    (``reference``: point -> the board's metric there, which undoes the perspective; a table
    photo's grazing view shows a far die at a third of a near one's size, so without the board
    nothing is dropped).  A one's pip shows no layout; only its face's outline, found by rays
    from the pip, sizes it.  A light hole in a dark digit (a doubling cube's "4", "6", "8", "9"
    in the cube's bold numerals) looks like a white pip on a dark die, and the strokes around it
    like its face; but that "face" is a few stroke widths across, about a third of the cube's
    face, and the cube is larger than the dice.  Dice of two or more pips have their size
    measured by their layout, so they are the reference; without one nothing is dropped.  A
    cocked die's top counts as well (a tilt foreshortens it, it does not halve it).  A two is
    dropped too when far smaller than the dice of three or more pips: any pair of marks alike
    fits a two's layout (the two light holes of a cube's "8"), while marks rarely fall into
    three or more pips' layouts by chance.

    >>> square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    >>> def top(value, edge):
    ...     return Face([0] * value, value, square.mean(axis=0) * edge, square * edge, 0.0, -1, np.eye(2))
    >>> dice = [Die(0, 0, 1, 0.9, False, 12.0), Die(50, 0, 5, 0.9, False, 34.0), Die(99, 0, 1, 0.9, False, 30.0)]
    >>> tops = [top(1, 12), top(5, 34), top(1, 30)]
    >>> flat_board = lambda point: np.eye(2) / 100.0
    >>> [d.x for d in _without_small_ones(dice, tops, 0.5, flat_board)]
    [50, 99]
    >>> len(_without_small_ones(dice, tops, 0.5, None))                # no board: sizes tell nothing
    3
    >>> len(_without_small_ones(dice[:1], tops[:1], 0.5, flat_board))  # no die to compare with
    1
    >>> eight = [Die(0, 0, 2, 0.9, False, 11.0), Die(50, 0, 5, 0.9, False, 34.0)]   # the holes of an "8"
    >>> [d.value for d in _without_small_ones(eight, [top(2, 11), top(5, 34)], 0.5, flat_board)]
    [5]
    """
    if reference is None:
        return dice

    def board_edge(face: Face) -> float:
        # The board's metric maps image lengths to board lengths; its determinant's fourth
        # root is the local scale of lengths (areas scale by its square root).
        return face.edge_px * float(np.linalg.det(reference(face.centre))) ** 0.25

    sizes = [board_edge(top) for top in tops]
    measured = [size for size, top in zip(sizes, tops) if top.value >= 2]
    if not measured:
        return dice
    smallest = min_ratio * float(np.median(measured))
    # A two's pips are any pair of marks alike (the two light holes of a cube's "8"): it is sized
    # against the dice of three or more pips, whose layouts marks rarely fall into.
    laid_out = [size for size, top in zip(sizes, tops) if top.value >= 3]
    smallest_two = min_ratio * float(np.median(laid_out)) if laid_out else 0.0
    return [die for die, top, size in zip(dice, tops, sizes)
            if top.value >= 3 or size >= (smallest_two if top.value == 2 else smallest)]


#: Focal lengths of plausible lenses, as shares of the frame's longer side (a phone's wide lens
#: to a short telephoto), for a board whose corners leave the focal length open.
_PLAUSIBLE_FOCALS = (0.6, 0.9, 1.2, 1.6, 2.0, 2.5)


def _field_aspects_by_lens(region: np.ndarray, principal_point: Point, longer_side: float) -> list[float]:
    """The playing field's true aspect (width over height) under a pinhole camera whose axis
    meets the frame at ``principal_point``: for the focal length its corners imply when they
    imply one, else for each plausible lens (:data:`_PLAUSIBLE_FOCALS`).

    A rectangle's vanishing points fix the focal length (Zhang and He, "Whiteboard scanning and
    image enhancement", 2007) unless a pair of its sides looks parallel; then every lens gives
    another slant, and another aspect.  Aspects outside 0.6 to 2.5 are dropped.

    >>> square = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], np.float64)
    >>> [round(a, 3) for a in _field_aspects_by_lens(square, (50, 50), 100)]
    [1.0]
    >>> trapezoid = np.array([[10, 0], [90, 0], [100, 60], [0, 60]], np.float64)
    >>> [round(a, 2) for a in _field_aspects_by_lens(trapezoid, (50, 30), 100)]  # a longer lens: steeper
    [1.45, 1.41, 1.35, 1.27, 1.19, 1.09]
    >>> skewed = np.array([[10, 0], [90, 5], [100, 60], [0, 60]], np.float64)   # the lens is measured
    >>> [round(a, 2) for a in _field_aspects_by_lens(skewed, (50, 30), 100)]
    [1.46]
    """
    u0, v0 = principal_point
    m1, m2, m4, m3 = (np.array([x - u0, y - v0, 1.0]) for x, y in region)  # TL, TR, BR, BL
    k2 = np.dot(np.cross(m1, m4), m3) / np.dot(np.cross(m2, m4), m3)
    k3 = np.dot(np.cross(m1, m4), m2) / np.dot(np.cross(m3, m4), m2)
    n2, n3 = k2 * m2 - m1, k3 * m3 - m1    # the field's sides (times unknown depths), from its top-left corner

    def aspect(f2: float) -> float:
        return float(np.sqrt((n2[0] ** 2 + n2[1] ** 2 + f2 * n2[2] ** 2) / (n3[0] ** 2 + n3[1] ** 2 + f2 * n3[2] ** 2)))

    typical = 0.9 * longer_side
    # A pair of sides looks parallel when its vanishing point is more than ~50 focal lengths out.
    if abs(n2[2]) * typical > 0.02 * np.hypot(n2[0], n2[1]) and abs(n3[2]) * typical > 0.02 * np.hypot(n3[0], n3[1]):
        f2 = -(n2[0] * n3[0] + n2[1] * n3[1]) / (n2[2] * n3[2])
        if (0.3 * longer_side) ** 2 < f2 < (6.0 * longer_side) ** 2:
            focals = [f2]
        else:
            focals = [(share * longer_side) ** 2 for share in _PLAUSIBLE_FOCALS]
    else:
        focals = [(share * longer_side) ** 2 for share in _PLAUSIBLE_FOCALS]
    aspects: list[float] = []
    for value in map(aspect, focals):
        if 0.6 <= value <= 2.5 and all(abs(value - seen) > 1e-3 * seen for seen in aspects):
            aspects.append(value)
    return aspects


def _slant_by_consensus(references: list[Callable[[np.ndarray], np.ndarray]], tops: list[Face]
                        ) -> Callable[[np.ndarray], np.ndarray]:
    """Of the board's slants its corners allow (:meth:`DiceReader._board_metrics`, the first as
    the field's sides show it), the one the frame's dice show: the first, unless another makes
    the outlines of more tops of four to six pips square on the board, and of at least two.

    One die cannot tell a steeper slant from its own lean (a cocked die tilted away from the
    camera looks like a flat one under a longer lens); two or more flat dice, each square on the
    board under the same slant and not under the first, can: cocked dice lean every which way.
    """
    measured = [top for top in tops if len(top.pips) >= 4]
    if len(measured) < 2 or len(references) < 2:
        return references[0]

    def square_tops(reference: Callable[[np.ndarray], np.ndarray]) -> int:
        return sum(_outline_squareness(top, reference) >= 1.0 - _outline_tolerance(top) for top in measured)

    best, most = references[0], square_tops(references[0])
    for reference in references[1:]:
        count = square_tops(reference)
        if count >= 2 and count > most:
            best, most = reference, count
    return best


class DiceReader:
    """Finds the dice in a frame and reads them.

    ``read(frame, region=None)`` looks inside ``region`` (four ``(x, y)`` corners of the
    playing field, in order around it) or the whole frame, and returns a
    :class:`DiceObservation`.  See the module's description for the method.
    """

    def __init__(self, settings: ReaderSettings = ReaderSettings()):
        self.settings = settings

    def read(self, frame: np.ndarray, region: Sequence[Point] | None = None) -> DiceObservation:
        if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
            raise ValueError("a frame is a non-empty BGR or grey image array")
        if frame.dtype != np.uint8:
            frame = np.clip(frame, 0, 255).astype(np.uint8)
        corners = None
        if region is not None:
            corners = np.asarray(region, np.float64).reshape(-1, 2)
            if corners.shape != (4, 2):
                raise ValueError("a region is four (x, y) corners")
        h, w = frame.shape[:2]
        # Work on the region's bounding box (plus a margin for dice lying across its edge).
        if corners is not None:
            margin = 0.04 * max(h, w)
            x0 = int(max(0, math.floor(corners[:, 0].min() - margin)))
            y0 = int(max(0, math.floor(corners[:, 1].min() - margin)))
            x1 = int(min(w, math.ceil(corners[:, 0].max() + margin)))
            y1 = int(min(h, math.ceil(corners[:, 1].max() + margin)))
            if x1 - x0 < 4 or y1 - y0 < 4:
                return DiceObservation(())
        else:
            x0, y0, x1, y1 = 0, 0, w, h
        crop = frame[y0:y1, x0:x1]
        field_ = find_pips(crop, None, self.settings, split_joined=corners is not None)
        faces = find_faces(field_, crop, self.settings)
        # (The camera's axis meets the whole frame at its centre: a slant is measured from there.)
        dice = self._assemble(field_, crop, faces, None if corners is None else corners - (x0, y0),
                              (w / 2 - x0, h / 2 - y0), float(max(w, h)))
        dice = [Die(d.x + x0, d.y + y0, d.value, d.confidence, d.cocked, d.size_px) for d in dice]
        if corners is not None:
            poly = corners.astype(np.float32)
            dice = [d for d in dice if cv2.pointPolygonTest(poly, (float(d.x), float(d.y)), False) >= 0]
        return DiceObservation(tuple(sorted(dice, key=lambda d: (d.x, d.y))))

    # -- assembling faces into dice

    def _assemble(self, field_: PipField, frame: np.ndarray, faces: list[Face], region: np.ndarray | None,
                  principal_point: Point | None = None, longer_side: float | None = None) -> list[Die]:
        """The dice the faces make (``region``: the field's corners in this frame; the camera's
        axis meets it at ``principal_point``, and the whole frame's longer side is ``longer_side``)."""
        settings = self.settings
        kept: list[Face] = []
        several = [f for f in faces if f.value > 1]
        ones_faces: dict[int, tuple[float, np.ndarray] | None] = {}   # _lone_pip_face, by pip
        for face in faces:
            if face.value == 1:
                if field_.pips[face.pips[0]].split_out:
                    continue
                pip = field_.pips[face.pips[0]]
                found = _lone_pip_face(field_, frame if frame.ndim == 3 else None, pip, settings)
                ones_faces[face.pips[0]] = found
                if found is not None and _hole_in_a_digit(field_, pip, *found):
                    continue   # the light hole of a doubling cube's dark "4", "6", "8": no die
                half = None if found is None else found[0]
                if half is None:
                    half = self._one_beside_side_faces(field_, face, several)
                if half is None:
                    continue
                # Size the face by where its edge was found, not by a typical pip size.
                face.corners = face.centre + (face.corners - face.centre) * (half / (0.5 / PIP_RADIUS))
            if face.edge_px < settings.min_face_px:
                continue
            kept.append(face)
        # Two faces on top of each other: the fainter is the far side of a translucent die
        # seen through it, or a shadow of the real face.
        strength = [float(np.median([abs(field_.pips[i].face_grey - field_.pips[i].pip_grey) for i in f.pips]))
                    for f in kept]
        ghosts = set()
        for a in range(len(kept)):
            for b in range(len(kept)):
                if a != b and strength[a] < strength[b] and \
                        np.linalg.norm(kept[a].centre - kept[b].centre) < 0.45 * max(kept[a].edge_px, kept[b].edge_px):
                    ghosts.add(a)
        # A face inside another, as clear face with more pips is a piece of it (a column of a six,
        # the diagonal of a five) that the pip grouping also produced.
        for a in range(len(kept)):
            for b in range(len(kept)):
                if a != b and kept[b].value > kept[a].value and strength[b] >= 0.8 * strength[a] and (
                        set(kept[a].pips) & set(kept[b].pips) or
                        cv2.pointPolygonTest(kept[b].corners.astype(np.float32),
                                             (float(kept[a].centre[0]), float(kept[a].centre[1])), False) >= 0):
                    ghosts.add(a)
        kept = [f for k, f in enumerate(kept) if k not in ghosts]
        # Each die is claimed by its face seen most squarely (its top), which takes the faces
        # beside it: side faces lie next to the top and are foreshortened differently (or share
        # an edge with it), while the tops of two dice look alike and lie at least an edge apart.
        order = sorted(range(len(kept)), key=lambda i: (-kept[i].squareness, -kept[i].minor))
        groups: list[list[Face]] = []
        for i in order:
            face = kept[i]
            best, best_ratio = None, math.inf
            for group in groups:
                top = group[0]
                if top.polarity != face.polarity:
                    continue
                edge = max(top.edge_px, face.edge_px)
                distance = float(np.linalg.norm(top.centre - face.centre))
                # (A one's outline is only estimated: a face just beside it is of its die.)
                if distance < (1.0 if 1 in (top.value, face.value) else 0.8) * edge or (
                        distance < 1.3 * edge and (_seen_differently(top, face) or _share_an_edge(top, face))):
                    if distance / edge < best_ratio:
                        best, best_ratio = group, distance / edge
            if best is None:
                groups.append([face])      # seen more squarely than anything near: a die's top
            else:
                best.append(face)          # a side face of the nearest such top
        groups = _join_small_tops(groups)
        references = self._board_metrics(region, principal_point, longer_side)
        away = None
        if references is None:
            # The board's slant is unknown, but one camera sees every die's sides on about the
            # same side of its top: learn that side from dice whose top is plain to see, and use
            # it where two faces of a die are seen about as squarely (a camera slanting ~45 deg).
            away = _side_direction(groups)
            if away is not None:
                groups = _sides_to_the_camera_side(groups, away)
                groups = [_top_by_direction(group, away) for group in groups]
            else:
                # The frame does not tell (one die, or no die shows a clearly slanted side): side
                # faces below a top are taken for what the upright camera of a photo shows (it
                # looks forward and down).  Of two faces of a die seen about as squarely (a camera
                # slanting ~45 deg), the upper is then its top, as the other dice's would be; only
                # pips large enough to show their shape tell how squarely a face is seen.
                away = _UPRIGHT_CAMERA_SIDE
                groups = _sides_to_the_camera_side(groups, away)
                groups = [_top_by_direction(group, away, min_radius=SHAPE_RADIUS) for group in groups]
        tops = [group[0] for group in groups]
        reference = None if references is None else _slant_by_consensus(references, tops)
        dice: list[Die] = []
        dice_tops: list[Face] = []
        links: list[tuple[int, int, float]] | None = None   # pairs of pips, found for a one's sake
        top_pips = {i for top in tops for i in top.pips}
        group_pips = [{i for face in group for i in face.pips} for group in groups]
        for k, (group, top) in enumerate(zip(groups, tops)):
            # Pips of other dice's faces (their tops and the side faces they claimed) are not this die's sides.
            foreign = top_pips.union(*(pips for j, pips in enumerate(group_pips) if j != k)) - group_pips[k]
            # (Without the board's slant, a side face whose pips are too small to show their shape
            # is no sign of a tilt either way, as in _side_ratio.  On a board, nor is a side face
            # of one pip compared by area: a one's pip is often drawn larger than the others.)
            def side_ratio_without(shut: list[Face]) -> float:
                """The side ratio, the faces ``shut`` (and their pips) aside."""
                return max([self._side_ratio(field_, top, foreign.union(*(f.pips for f in shut)), away)] +
                           [_seen_as_squarely(f, top) for f in group[1:]
                            if not _toward(f.centre - top.centre, away) and all(f is not g for g in shut)
                            and (f.radius >= SHAPE_RADIUS if references is None
                                 else f.value > 1 or min(f.radius, top.radius) >= SHAPE_RADIUS)])

            # A face beside the top, seen just like it, whose pips and the top's make one layout is
            # a piece of the same face (a six's two rows, a four's two diagonals, not grouped
            # together), and so are such pips found loose: no side face, no evidence of a tilt
            # (and such a die is not read: which piece is its top is unclear).
            rest = _rest_of_its_face(field_, top, foreign, settings)
            pieces = [f for f in group[1:] if _pieces_of_one_face(field_, top, f, settings) or set(f.pips) <= rest]
            foreign = foreign.union(rest, *(f.pips for f in pieces))
            if reference is not None:
                board = reference(top.centre)
                vals = np.linalg.eigvalsh(board)
                view = math.acos(min(1.0, math.sqrt(vals[0] / vals[1])))  # camera's slant to the board here
                # A side face's layout shows how open it is seen, from its pips' centres alone: more
                # than the slant allows, the die is cocked; no more, its pips' shapes (slivers that
                # blur rounds) and sizes are no evidence of a tilt.
                openings = [(f, None if any(f is piece for piece in pieces) else _side_face_opening(field_, f, top))
                            for f in group[1:]]
                opening = max([0.0] + [o for _, o in openings if o is not None])
                shut = pieces + [f for f, o in openings if o is not None and o <= math.sin(view) + SIDE_OPENING_MARGIN]
                side_ratio = side_ratio_without(shut)
                foreign_or_shut = foreign.union(*(f.pips for f in shut))
                # Only positive evidence makes a die cocked.  A flat die's top is parallel to the
                # board: its pips' ellipses and its outline fit the board's foreshortening here
                # (ellipses of pips under ~2.5 px are too coarse for that: a round pip of two pixels
                # measures anywhere from 0.7 to 1; their centres still give the outline).  Its sides
                # show no more than the slant allows: a side face's pips lie a quarter edge or more
                # from the top's edge, so a flat die seen from nearly above shows them only as thin
                # slivers (axis ratio and share of area about sin(view)); pips beside the top seen
                # more roundly, or as large as the top's, are on a side face tilted up toward the camera.
                measurable = top.radius >= SHAPE_RADIUS
                outline = _outline_squareness(top, reference)
                tolerance = _outline_tolerance(top)
                tilted = (measurable and self._squareness(top, reference) < settings.cocked_axis_ratio) \
                    or (outline is not None and outline < settings.cocked_outline_ratio - tolerance) \
                    or side_ratio > math.tan(view) + settings.cocked_side_margin
                tilted = tilted or opening > math.sin(view) + SIDE_OPENING_MARGIN
                # A side face's pips found but not grouped as one face (dim, foreshortened: a
                # side six's rows as a "three" and two lone pips) tell the same from their centres
                # together.  (A "side face" that is no face seen at a slant is no side face.)
                not_sides = foreign.union(*(f.pips for f, o in openings if o is None and f.value > 1))
                tilted = tilted or _loose_side_opening(field_, top, not_sides) > math.sin(view) + SIDE_OPENING_MARGIN
                cocked = tilted or self._side_pips(field_, top, foreign_or_shut,
                                                   math.sin(view) + settings.cocked_side_margin)
                # A pip beside a top of two or three pips, seen more squarely than all of them,
                # lies on the face turned up: that "top" is a side face of a cocked die.
                cocked = cocked or _squarer_pip_beside(field_, top, foreign) > 0.0
                # A side face whose pips are too faint to find (red pips on a shaded white side)
                # still shows as a band of the die's colour (shaded, or as bright as the top where
                # the side face is turned toward the light) beyond the top's edge, as
                # deep as the side face is open: a flat die's no deeper than the slant's sine.
                # (It makes a die cocked, not a mark a die: ``tilted`` is left alone.)  A one's
                # outline is only a guess from its size: it is turned as its face's colour ends
                # around the pip before the band beyond it is measured.
                # (A piece's outline is not its face's: the band beyond it is no side face.)
                if frame.ndim == 3 and not cocked and not rest and not pieces:
                    measured = top
                    if top.value == 1:
                        corners = _one_outline(frame, field_.pips[top.pips[0]], 0.5 * top.edge_px)
                        measured = None if corners is None else dataclasses.replace(top, corners=corners)
                    if measured is not None:
                        face_bgr = np.median([field_.pips[i].face_bgr for i in top.pips], axis=0)
                        cocked = _side_band_depth(frame, measured, face_bgr) > math.sin(view) + settings.cocked_side_margin
                # A "top" of two or three pips in a row whose face reaches across its row less far
                # than a flat face's corners lie, on the board's plane (a flat die's top is square
                # there: its diagonals are alike), on one side, and on over the fold onto the real
                # top on the other, is a side face foreshortened across that fold.
                if not cocked and not rest and not pieces and top.value in (2, 3):
                    cocked = _side_face_as_top(_across_reaches(field_, top, frame if frame.ndim == 3 else None,
                                                               reference))
                # Pips of about a pixel are no pips to read; and where the pips are too small to
                # show a tilt, a face whose outline can be measured must fit the flat prediction
                # (else it may be leaning a little, or the field's corners may be off: no value).
                # A one's lone small pip shows neither its shape nor a layout: only the outline
                # of its face, found by rays from the pip, tells a flat one from a leaning one
                # whose side faces' pips are too faint to find (below).
                judgeable = top.radius >= settings.min_pip_radius_for_tilt and (
                    measurable or (top.value > 1 and (outline is None or outline >= 1.0 - tolerance)))
                if top.value == 1 and not measurable and top.radius >= settings.min_pip_radius_for_tilt:
                    # A one's small pip shows no shape, but the outline of its face (where its
                    # colour ends around the pip) does: square on the board plane within what
                    # its rays can measure, the top lies flat (as for faces of four to six pips).
                    pip = field_.pips[top.pips[0]]
                    bgr = frame if frame.ndim == 3 else None
                    found = (ones_faces[top.pips[0]] if top.pips[0] in ones_faces
                             else _lone_pip_face(field_, bgr, pip, settings))
                    evenness = _lone_pip_outline_squareness(field_, pip, bgr, reference, settings, found)
                    judgeable = evenness is not None and evenness[0] >= 1.0 - evenness[1]
                if top.value == 1 and measurable and self._squareness(top, reference) < settings.steepest_top_squareness:
                    # The face a reader takes for a die's top is its face turned most upward, tilted
                    # 45 degrees from the board at most (past that another face is more upward):
                    # its round pip is at least cos(45) as wide as long on the board's plane.  A
                    # flatter lone "pip" is a mark: the triangular or oval light hole in a doubling
                    # cube's "4" or "6" (0.56-0.67 on the synthetic boards' cubes).
                    continue
                # On a board, marks paired up across checkers (light gaps between touching discs,
                # a logo inside a checker's rim) pass for the pips of a one, two or three (four to
                # six marks rarely fall into a die's layout by chance); a die's top is a patch of
                # one colour closing around its pips where their layout puts its outline.  No
                # face, no die (and never a cocked one: the referee would ask for a re-roll on
                # every frame).  (The test is coarse: a glossy die's sheen or its shadow on a
                # board of its colour can hide its outline, so larger layouts are spared it.)
                if top.value <= 3 and not _face_outline_closes(field_, top, frame if frame.ndim == 3 else None,
                                                               settings.min_outline_share):
                    continue
            else:
                # Two faces seen about as squarely: the die is cocked (or which face is up is unclear).
                cocked = tilted = side_ratio_without(pieces) > settings.cocked_side_ratio
                judgeable = True
            if _value_hidden_by_border(top, frame.shape[:2]):
                continue  # only part of its face is in view, and another value would show that part
            clutter = _unexplained_marks(field_, top)
            # A one's square outline is a guess: what it reads needs only the disc inside clear,
            # when its face is clearly wider than a pip of a real die's face allows (pips are at
            # most ~0.11 of the edge); a face barely wider than its pip must be clear to its corners.
            roomy = top.value == 1 and top.edge_px >= 2.0 * top.radius * (0.5 / 0.11)
            marks = _unexplained_marks(field_, top, inscribed=True) if roomy else clutter
            missing = marks < 0.6 and _missing_pip(field_, top)
            if (marks >= 0.6 or missing) and top.blurred is not None:
                # Marks or a missing pip where the pips' streaks were taken for a slant may be
                # the face's own outline misplaced: judge the face as a blurred one.
                blurred_marks = _unexplained_marks(field_, top.blurred)
                if blurred_marks < 0.6 and not _missing_pip(field_, top.blurred):
                    top, marks, clutter, missing = top.blurred, blurred_marks, blurred_marks, False
            if clutter > 2.0:
                continue  # a "face" strewn with other marks is clutter, not a die
            # A face just beside the top, seen just like it, whose pips and the top's together
            # make one layout, is a piece of the same face whose pips were not grouped together
            # (the two columns of a small six): neither reads the die.  So is a two, three or four
            # whose pips are part of a six whose other pips the image shows where the detector found
            # none, and a two of parallel bars side by side (a blurred six's columns).
            split = bool(pieces or rest) or _row_completed_unseen(field_, top, settings.pip_radius_range[0]) \
                or _column_bars(field_, top)
            # So is a one whose pip is linked to a pip like it within a two's diagonal: the two's
            # pips, their link cut when a cocked two's side face's pips joined their group.
            if top.value == 1 and links is None:
                links = _pairs(field_, frame, settings)
            split = split or (top.value == 1 and _linked_to_a_like_pip(field_, top.pips[0], links))
            readable = marks < 0.6 and judgeable and not missing and not split
            confidence = max(0.0, min(1.0, 1.0 - 2.5 * top.error - 0.5 * marks))
            pips = [field_.pips[i] for i in top.pips]
            contrast = float(np.median([abs(p.face_grey - p.pip_grey) for p in pips]))
            confidence *= min(1.0, contrast / 40.0)
            # (Marks beside an unreadable lone mark do not make it a die: only a tilt seen in the
            # face itself does.)
            if not readable and not tilted and (top.value == 1 or confidence < 0.5):
                continue  # a lone mark among others (a key of a keyboard, print): not a die
            value = top.value if readable and not cocked else None
            dice.append(Die(float(top.centre[0]), float(top.centre[1]), value, round(confidence, 3), bool(cocked),
                            float(top.edge_px)))
            dice_tops.append(top)
        return _without_small_ones(dice, dice_tops, settings.min_one_size_ratio, reference)

    @staticmethod
    def _one_beside_side_faces(field_: PipField, face: Face, others: list[Face]) -> float | None:
        """A lone pip whose face edge cannot be told from the die's sides (a white die on a pale
        table) is still a one when side faces of its die lie next to it, not seen more squarely.
        Returns the face's half-edge in pip radii, or ``None``."""
        pip = field_.pips[face.pips[0]]
        if pip.polarity < 0 and pip.pip_grey < field_.typical_grey:
            return None  # as for any lone light dot: a one's pip is white (a key's glyph is greyer)
        minor = 2.0 * math.sqrt(np.linalg.eigvalsh(pip.cov)[0])
        best = None
        lone = Face(face.pips, 1, pip.xy, face.corners, 0.0, pip.polarity, np.linalg.inv(4.0 * pip.cov), minor,
                    pip.radius, pip.axis_ratio)
        for side in others:
            # The side faces are seen more at a slant, or about as squarely (then which face is up
            # is unclear and the die will be reported so), never clearly more squarely.
            if side.polarity != pip.polarity or side.squareness >= 1.15 * lone.squareness:
                continue
            if not 0.6 * side.radius <= pip.radius <= 2.5 * side.radius:
                continue
            corners = side.corners
            edge = max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4))  # the unforeshortened edge
            if np.linalg.norm(side.centre - pip.xy) > 1.5 * edge or \
                    cv2.pointPolygonTest(corners.astype(np.float32), (float(pip.x), float(pip.y)), False) >= 0:
                continue
            half = 0.5 * edge / pip.radius
            h, w = field_.grey.shape
            reach = 0.5 * edge * math.sqrt(2.0)
            if not _seen_differently(lone, side) and not (reach <= pip.x <= w - 1 - reach and
                                                          reach <= pip.y <= h - 1 - reach):
                # Pips just like it beside it, and its face may run out of the frame: it may be a
                # corner of a larger face cut by the border, not a one.
                continue
            if 2.5 <= half <= 10.0 and (best is None or half > best):
                best = half
        return best

    @staticmethod
    def _side_ratio(field_: PipField, top: Face, foreign: set[int], away: np.ndarray | None = None) -> float:
        """How squarely the die's side faces are seen next to its top: the largest axis ratio of a
        pip beside the top face (not a pip of another die's faces, not too small to judge, not where the
        camera shows every die's side faces) over the top's."""
        centre, edge = top.centre, top.edge_px
        polygon = (top.centre + 1.08 * (top.corners - top.centre)).astype(np.float32)
        contrast = np.median([abs(field_.pips[i].face_grey - field_.pips[i].pip_grey) for i in top.pips])
        best = 0.0
        for index, pip in enumerate(field_.pips):
            if index in foreign or pip.polarity != top.polarity:
                continue
            if np.linalg.norm(pip.xy - centre) > 0.9 * edge or \
                    abs(pip.face_grey - pip.pip_grey) < 0.4 * contrast:
                continue
            if cv2.pointPolygonTest(polygon, (float(pip.x), float(pip.y)), False) >= 0:
                continue
            if not 0.4 * top.radius <= pip.radius <= 1.6 * top.radius:
                continue
            if pip.radius < SHAPE_RADIUS:
                continue
            if _toward(pip.xy - centre, away):
                continue  # where this camera shows every die's side faces
            best = max(best, pip.axis_ratio / max(top.squareness, 1e-6))
        return best

    @staticmethod
    def _side_pips(field_: PipField, top: Face, foreign: set[int], min_axis_ratio: float) -> bool:
        """Does a side face show pips: two pips like the top's (same polarity, at least 0.4 of its
        contrast (a side face is lit less), 0.4 to 1.6 of its pip size), or one of at least 0.6 of
        its pip size, just outside the top face, not of another die's faces, with an axis ratio of
        at least ``min_axis_ratio``?"""
        centre, edge = top.centre, top.edge_px
        polygon = (top.centre + 1.08 * (top.corners - top.centre)).astype(np.float32)
        contrast = np.median([abs(field_.pips[i].face_grey - field_.pips[i].pip_grey) for i in top.pips])
        count, clear = 0, 0
        for index, pip in enumerate(field_.pips):
            if index in foreign or index in top.pips or pip.polarity != top.polarity:
                continue
            if np.linalg.norm(pip.xy - centre) > 0.9 * edge or abs(pip.face_grey - pip.pip_grey) < 0.4 * contrast:
                continue
            if not 0.4 * top.radius <= pip.radius <= 1.6 * top.radius or pip.axis_ratio < min_axis_ratio:
                continue
            if cv2.pointPolygonTest(polygon, (float(pip.x), float(pip.y)), False) < 0:
                count += 1
                clear += pip.radius >= 0.6 * top.radius
        return count >= 2 or clear >= 1

    @staticmethod
    def _board_metrics(region: np.ndarray | None, principal_point: Point | None = None,
                       longer_side: float | None = None) -> list[Callable[[np.ndarray], np.ndarray]] | None:
        """How a circle lying on the board looks near a point, for each slant of the board that
        its corners allow: a list of functions point -> 2x2 metric (``None`` without corners).

        The playing field is a rectangle on the board, but four corners do not always fix its
        slant: when a pair of its sides looks parallel (a board tilted straight away from the
        camera) the camera's focal length cannot be measured, and a long lens shows a steeper
        slant than a short one for the same quadrilateral (the field's true aspect changes with
        it).  The first metric is that of the field's aspect measured along its sides (as seen);
        then, given where the frame's centre lies (``principal_point``, the camera's axis) and
        ``longer_side`` (the frame's longer side, pixels), those of plausible lenses when the
        corners leave the focal length open (else that of the lens they imply).  Flat dice fit one.
        """
        if region is None:
            return None
        widths = np.linalg.norm(region[1] - region[0]) + np.linalg.norm(region[2] - region[3])
        heights = np.linalg.norm(region[3] - region[0]) + np.linalg.norm(region[2] - region[1])
        aspects = [widths / max(heights, 1e-6)]   # width over height
        if principal_point is not None and longer_side is not None:
            aspects += [a for a in _field_aspects_by_lens(region, principal_point, longer_side)
                        if abs(a - aspects[0]) > 1e-3 * aspects[0]]
        metrics = []
        for aspect in aspects:
            target = np.array([[0, 0], [aspect, 0], [aspect, 1], [0, 1]], np.float64)
            homography = cv2.getPerspectiveTransform(region.astype(np.float32), target.astype(np.float32))

            def metric(point: np.ndarray, homography: np.ndarray = homography) -> np.ndarray:
                x, y = point
                hx = homography @ np.array([x, y, 1.0])
                jac = (homography[:2, :2] * hx[2] - np.outer(hx[:2], homography[2, :2])) / hx[2] ** 2
                return jac.T @ jac

            metrics.append(metric)
        return metrics

    @staticmethod
    def _squareness(face: Face, reference) -> float:
        """Minor/major axis ratio of the face's pips once the board's own foreshortening is undone (1 = flat)."""
        # Pip ellipse (as a metric) seen in board coordinates: M_board = J^-T M J^-1, with J the board metric root.
        root = _board_root(reference, face.centre)
        inv = np.linalg.inv(root)
        m = inv.T @ face.metric @ inv
        vals = np.linalg.eigvalsh(m)
        return float(math.sqrt(vals[0] / vals[1]))
