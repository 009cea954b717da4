"""Ring evidence for checker centres: the image features the checker stage scores with.

A checker seen from above is a disc whose rim gives a colour gradient pointing across the rim,
i.e. radially.  :class:`RingScorer` turns a canonical (warped) field image into per-pixel
gradient-orientation maps once, then scores any number of candidate centres: a coarse score for
every pixel at once, and the *coverage* of a candidate (the share of ring directions showing a
radial edge).  Which centres make a stack is decided in :mod:`vision.checkers`.

>>> import numpy as np, cv2
>>> field = np.full((120, 120, 3), 90, np.uint8)
>>> _ = cv2.circle(field, (60, 60), 12, (230, 230, 230), -1)
>>> scorer = RingScorer(field, radius=12.0)
>>> full, _, _, _ = scorer.coverage(np.array([60.0, 30.0]), np.array([60.0, 30.0]))
>>> [round(float(v), 2) for v in full]
[1.0, 0.0]

A scorer's maps stay its own while it is in use, whatever scorers are made after it (their
buffers are recycled only from scorers nothing refers to any more):

>>> _ = RingScorer(np.full((120, 120, 3), 90, np.uint8), radius=12.0)
>>> full, _, _, _ = scorer.coverage(np.array([60.0, 30.0]), np.array([60.0, 30.0]))
>>> [round(float(v), 2) for v in full]
[1.0, 0.0]
"""
from __future__ import annotations

import functools
import math
import sys
import threading
from typing import Sequence

import cv2
import numpy as np

from calibration.geometry import percentile
from vision.exposure import edge_lab

#: Ring directions checked for a radial edge, and the edge strength that counts (share of the
#: capped gradient).
COVERAGE_ANGLES = 32
EDGE_LEVEL = 0.25
#: Radii (shares of the expected checker radius) at which a rim may be found: checkers vary in
#: size and the field's aspect is only estimated.
RING_RADII = (0.82, 0.91, 1.0, 1.09, 1.18)
#: Local contrast normalisation: window (in radii), gain over the local mean gradient, and the
#: floor (share of the frame's strong-edge level) below which nothing counts as an edge.
LOCAL_WINDOW, LOCAL_GAIN, LOCAL_FLOOR = 5, 1.2, 0.7
#: Where the neighbourhood's mean lightness (8-bit Lab L, 0..255) is below DARK_LIGHTNESS, the
#: floor is lowered in proportion to (lightness + DARK_OFFSET): a camera's tone curve squeezes
#: the darkest tones together (an underexposed photo, a gamma above 1), so a black checker's rim
#: against a black frame keeps its contrast relative to the lightness around it but loses it
#: against the field's bright edges.  (Contrast relative to lightness, as the eye sees it; the
#: offset keeps the noise of the blacks from counting as edges.)
DARK_LIGHTNESS, DARK_OFFSET = 30.0, 20.0
#: A defocused photo (a phone that focused on the room, not the board) spreads every edge over
#: a few pixels and lowers its gradient against its neighbourhood's mean: the rims between
#: overlapped checkers of one paint (a thin dark line), a checker's side against a point of its
#: colour, fall out of the local normalisation and whole stacks go unseen.  How soft the field
#: is shows in its strongest edges (:func:`softness`): their gradient at a fine scale
#: (:data:`SOFT_FINE_SIGMA` pixels of Gaussian) over the same at a coarse one
#: (:data:`SOFT_COARSE_SIGMA`), the median over the top :data:`SOFT_EDGE_SHARE` of the
#: pixels by coarse strength.  The six labelled photos as taken measure 1.85 to 1.98; under
#: every transform of vision.augment but the strongest defocus (shrunk to a 320-px field,
#: tilted, darkened, glared, seen from a seat, defocused by half a per cent of the field's
#: width, blurred by 1% in motion) 1.52 to 2.00; defocused by 1% of the field's width 1.26 to
#: 1.35.  Of the flat synthetic frames (a Gaussian blur of up to 1.6 px on a 1280x720 frame,
#: noise and JPEG on top) 67 of seeds 0-4999 and 16 of 5000-5999 lie below 1.40, the softest
#: at 1.31.  A field softer than :data:`SOFT_FIELD` has its neighbourhood's edge level taken
#: at :data:`SOFT_NORM` of itself (down to it over :data:`SOFT_RAMP` below the threshold,
#: :func:`soft_norm`): its rims count from a weaker gradient.  On the real photos
#: defocused by 1%, 0.8 to 0.89 find the same three more stacks (0.9 one fewer, 0.78 and
#: below take an empty point's blurred base for a checker); on synthetic seed 5550 (1.34)
#: 0.86 and below take two empty white bases for checkers.
SOFT_FINE_SIGMA, SOFT_COARSE_SIGMA, SOFT_EDGE_SHARE = 0.7, 2.0, 0.05
SOFT_FIELD = 1.40
SOFT_NORM = 0.88
SOFT_RAMP = 0.04
#: Ring directions where a rim cannot show are *unseen*, not missing (``RingScorer(...,
#: unseen=True)``): a miss there is no evidence against a checker, while a rim that does show
#: there still counts.  Within :data:`LIP_BAND` radii of the field's near and far edges (the
#: field box's top and bottom) a rim cannot show: the board's raised frame hides or shadows
#: what lies under its lip, a stack's base included, and the gradient filter is blind at the
#: image's border (its reflected border has no gradient across it).  The band is the radial
#: tolerance of :data:`RING_RADII`: a rim whose ring sample lies that close to the edge may lie
#: beyond it.  The field's sides are not banded: a checker on an outer point lies a pixel or so
#: inside them by the board's design, its rim there shows, and a tall stack's outer side is
#: part of what tells how many checkers it holds (excusing misses there let whole-stack fits
#: take checkers too many).  Given the point's side (``edge_up``), only the band at its own
#: edge is unseen: that is where its stack's base lies under the lip; a stack that reached the
#: facing edge has its end there in view, and a ring short of a rim under that lip is the
#: facing point's bare base beyond the pile's end (a held-out frame's stack took one checker
#: too many so).
LIP_BAND = 0.2
#: Half-width (degrees) of the arc along the point's axis that an overlapping neighbour hides.
AXIS_ARC_DEG = 55
#: Half-width (degrees) of the arcs along the point's axis where a touching neighbour's rim
#: meets a checker's (see :meth:`RingScorer.contact_free`).
CONTACT_ARC_DEG = 30

# Per ring direction (the same for every frame, made once): cosine and sine of its angle and
# of the doubled angle (float32, as the maps are), the arcs along the point's axis that an
# overlapping neighbour hides (up and down the image), the directions off the contact arcs
# (see RingScorer.contact_free), and per edge side the arcs each coverage share counts.
_ANGLES = np.linspace(0, 2 * np.pi, COVERAGE_ANGLES, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)
_COS2_32, _SIN2_32 = np.cos(2 * _ANGLES).astype(np.float32), np.sin(2 * _ANGLES).astype(np.float32)
_UP = _SIN < -np.cos(np.radians(AXIS_ARC_DEG))
_DOWN = _SIN > np.cos(np.radians(AXIS_ARC_DEG))
_SIDES = (~(np.abs(_SIN) > np.cos(np.radians(CONTACT_ARC_DEG)))).astype(np.float32)
_SIDES_TOTAL = _SIDES.sum()


def _arcs_kept(edge_up: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per ring direction, which of :meth:`RingScorer.coverage`'s four shares count it
    (columns: all round, without the far arc, without the near arc, the far arc alone), and
    how many directions each counts."""
    near, far = (_UP, _DOWN) if edge_up else (_DOWN, _UP)
    keep = np.stack([np.ones_like(near), ~far, ~near, far], axis=1).astype(np.float32)
    return keep, keep.sum(axis=0)


_KEEP = {edge_up: _arcs_kept(edge_up) for edge_up in (True, False)}


@functools.lru_cache(maxsize=16)
def _ring_kernels(r_half: float) -> tuple[np.ndarray, np.ndarray]:
    """The coarse map's two ring kernels at half resolution (ring radius ``r_half``): the
    ring's weights times the cosine and the sine of the doubled angle.  Made once per radius
    (a calibrated board keeps its radius from frame to frame)."""
    k = int(np.ceil(r_half * 1.25))
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1].astype(np.float32)
    rr = np.sqrt(xx ** 2 + yy ** 2) + 1e-6
    ring = np.exp(-0.5 * ((rr - r_half) / max(0.7, r_half * 0.12)) ** 2)
    ring /= ring.sum()
    cos2 = (xx ** 2 - yy ** 2) / rr ** 2
    sin2 = 2 * xx * yy / rr ** 2
    ring_cos2, ring_sin2 = ring * cos2, ring * sin2
    ring_cos2.flags.writeable = ring_sin2.flags.writeable = False
    return ring_cos2, ring_sin2


@functools.lru_cache(maxsize=16)
def _smoothed_sobel_kernels(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The 1-D kernels (derivative, smoothing) of ``cv2.GaussianBlur(image, (0, 0), sigma)``
    followed by a 3x3 ``cv2.Sobel``, each the Gaussian's kernel (of the size GaussianBlur
    takes for float images) convolved with the Sobel's: ``cv2.sepFilter2D(image, cv2.CV_32F,
    derivative, smoothing)`` is then the x gradient, with the two swapped the y gradient.

    >>> image = np.random.default_rng(0).uniform(0, 255, (30, 40, 3)).astype(np.float32)
    >>> two = cv2.Sobel(cv2.GaussianBlur(image, (0, 0), 0.9), cv2.CV_32F, 1, 0, ksize=3)
    >>> d, s = _smoothed_sobel_kernels(0.9)
    >>> bool(np.allclose(cv2.sepFilter2D(image, cv2.CV_32F, d, s), two, atol=1e-3))
    True

    An 8-bit image filters to the same numbers as its float32 copy when its rows are as wide
    as the canonical field's (each code is converted exactly, then summed alike; at other
    widths OpenCV's scalar code for a row's last few values may round them differently):

    >>> codes = np.random.default_rng(1).integers(0, 256, (30, 320, 3), np.uint8)
    >>> bool(np.array_equal(cv2.sepFilter2D(codes, cv2.CV_32F, d, s),
    ...                     cv2.sepFilter2D(codes.astype(np.float32), cv2.CV_32F, d, s)))
    True
    """
    size = int(round(sigma * 4 * 2 + 1)) | 1  # OpenCV's size for a float image's Gaussian
    gauss = cv2.getGaussianKernel(size, sigma, cv2.CV_64F)[:, 0]
    derivative = np.convolve(gauss, [-1.0, 0.0, 1.0]).astype(np.float32)
    smoothing = np.convolve(gauss, [1.0, 2.0, 1.0]).astype(np.float32)
    derivative.flags.writeable = smoothing.flags.writeable = False
    return derivative, smoothing


@functools.lru_cache(maxsize=16)
def _ring_kernel_quarters(r_half: float) -> tuple[list, ...]:
    """:func:`_quarters` of the two :func:`_ring_kernels`, made once per radius."""
    return tuple(_quarters(kernel) for kernel in _ring_kernels(r_half))


#: Largest kernel side cv2.filter2D applies directly; above it, it goes through the Fourier
#: transform, which on a frame's half-resolution maps takes longer than four direct passes
#: of a quarter of the kernel each.
DIRECT_KERNEL_SIDE = 11


def _filter(image: np.ndarray, kernel: np.ndarray,
            quarters: Sequence[tuple[np.ndarray, tuple[int, int]]] | None = None) -> np.ndarray:
    """``cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_CONSTANT)`` for a square kernel
    of odd side, as the sum of its four quarters (each with the centre's row or column, once)
    applied directly when each is small enough (:data:`DIRECT_KERNEL_SIDE`): equal but for the
    float rounding of the sums.  ``quarters``: :func:`_quarters` of the kernel, when the caller
    keeps them.

    >>> rng = np.random.default_rng(0)
    >>> image = rng.normal(size=(40, 50)).astype(np.float32)
    >>> kernel = rng.normal(size=(17, 17)).astype(np.float32)
    >>> whole = cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    >>> bool(np.allclose(_filter(image, kernel), whole, atol=1e-5))
    True
    """
    if kernel.shape[0] // 2 + 1 > DIRECT_KERNEL_SIDE:
        return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    out = None
    for part, anchor in quarters or _quarters(kernel):
        filtered = cv2.filter2D(image, -1, part, anchor=anchor, borderType=cv2.BORDER_CONSTANT)
        if out is None:
            out = filtered
        else:
            out += filtered
    return out


def _quarters(kernel: np.ndarray) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """A square kernel of odd side as four quarters, each holding the centre's row and column
    (cv2.filter2D's anchor must lie inside the kernel) but counting each weight once, with the
    anchor (x, y) at which each is applied.

    >>> parts = _quarters(np.arange(9, dtype=np.float32).reshape(3, 3))
    >>> [(part.tolist(), anchor) for part, anchor in parts][3]
    ([[0.0, 0.0], [0.0, 8.0]], (0, 0))
    >>> float(sum(part.sum() for part, _ in parts))
    36.0
    """
    side = kernel.shape[0]
    centre = side // 2
    parts = []
    for rows, anchor_y in ((slice(0, centre + 1), centre), (slice(centre, side), 0)):
        for cols, anchor_x in ((slice(0, centre + 1), centre), (slice(centre, side), 0)):
            part = kernel[rows, cols].copy()
            if rows.start == centre:
                part[0, :] = 0  # the centre row is the upper quarters'
            if cols.start == centre:
                part[:, 0] = 0  # the centre column the left ones'
            part.flags.writeable = False
            parts.append((part, (anchor_x, anchor_y)))
    return parts


#: Per thread, the buffers :func:`_scratch` lends (by slot).
_SCRATCH = threading.local()


def _scratch(slot: int, shape: tuple[int, ...], plane: int = 0) -> np.ndarray:
    """A float32 array of ``shape`` (its contents left over, to be written over) for one of
    :class:`RingScorer`'s full-size temporaries: a view of the buffer numbered ``slot`` that
    this thread keeps from frame to frame, from the start of its ``plane``-th part of that
    size (one buffer of a colour image's size holds three single-channel temporaries).

    The maps of one frame's scorer are made with several megabytes of temporaries; made anew
    for each frame they often come as fresh pages from the operating system (the allocator
    hands large freed blocks back to it), whose faults cost more than the arithmetic on them
    (about 1100 faults per frame, measured in a process doing nothing but reads).  Only
    temporaries come from here, never the maps a scorer keeps: another frame's scorer may
    still be in use.  A buffer grows with the largest field seen, with some room to spare
    (fields differ in height from frame to frame).

    >>> first = _scratch(0, (2, 3))
    >>> again = _scratch(0, (3, 2))
    >>> bool(np.shares_memory(first, again)), bool(np.shares_memory(first, _scratch(1, (2, 3))))
    (True, False)
    >>> bool(np.shares_memory(first, _scratch(0, (2, 3), plane=1)))
    False
    """
    buffers = getattr(_SCRATCH, "buffers", None)
    if buffers is None:
        buffers = _SCRATCH.buffers = {}
    size = math.prod(shape)
    start, stop = plane * size, (plane + 1) * size
    buffer = buffers.get(slot)
    if buffer is None or buffer.size < stop:
        buffer = buffers[slot] = np.empty(stop + stop // 4, np.float32)
    return buffer[start:stop].reshape(shape)


def _references_when_unused() -> int:
    """What ``sys.getrefcount`` tells of an item of a list that nothing else refers to (the
    list's reference and, on most interpreters, the call's own argument)."""
    alone = [np.empty(0)]
    return sys.getrefcount(alone[0])


_UNUSED_REFS = _references_when_unused()


def _recycled(name: str, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` (its contents left over, to be written over) for
    the map ``name`` that a :class:`RingScorer` keeps: a view of a buffer of this thread's
    that an earlier frame's scorer made and nothing uses any more, else of a new one (kept for
    the frames after).  The same fresh pages as :func:`_scratch`'s are saved this way.

    A buffer is in use while anything but this pool refers to it: a scorer's map is a view of
    it, and so is any view of that map a caller still holds.

    >>> first = _recycled("doctest", (2, 3), np.float32)
    >>> busy = _recycled("doctest", (2, 3), np.float32)   # ``first`` is still in use
    >>> bool(np.shares_memory(first, busy))
    False
    >>> del first
    >>> again = _recycled("doctest", (3, 2), np.float32)   # its buffer is free again
    >>> bool(np.shares_memory(again, busy)), len(_SCRATCH.kept["doctest"])
    (False, 2)
    """
    kept = getattr(_SCRATCH, "kept", None)
    if kept is None:
        kept = _SCRATCH.kept = {}
    pool = kept.setdefault(name, [])
    size = math.prod(shape)
    for index in range(len(pool)):
        # Referred to by the pool alone (counted as a buffer nothing else holds counts): free.
        if sys.getrefcount(pool[index]) > _UNUSED_REFS:
            continue
        if pool[index].size < size or pool[index].dtype != dtype:
            pool[index] = np.empty(size + size // 4, dtype)  # too small: replaced
        return pool[index][:size].reshape(shape)
    buffer = np.empty(size + size // 4, dtype)
    pool.append(buffer)
    return buffer[:size].reshape(shape)


def softness(lightness: np.ndarray, fine: np.ndarray | None = None) -> float:
    """How sharp a field's strongest edges are (see :data:`SOFT_FIELD`): about 2 for a sharp
    step, toward 1 as the photo is defocused.  ``fine``: the lightness's gradient magnitude at
    :data:`SOFT_FINE_SIGMA` (Gaussian-smoothed 3x3 Sobel, as :func:`_smoothed_sobel_kernels`
    makes it), when the caller has it.

    >>> yy, xx = np.mgrid[:80, :80]
    >>> disc = np.where(np.hypot(yy - 40, xx - 40) < 20, 200, 0).astype(np.uint8)
    >>> round(softness(disc), 1), round(softness(cv2.GaussianBlur(disc, (0, 0), 2.0)), 1)
    (2.1, 1.3)
    """
    def strength(sigma: float) -> np.ndarray:
        derivative, smoothing = _smoothed_sobel_kernels(sigma)
        return cv2.magnitude(cv2.sepFilter2D(lightness, cv2.CV_32F, derivative, smoothing),
                             cv2.sepFilter2D(lightness, cv2.CV_32F, smoothing, derivative))

    if fine is None:
        fine = strength(SOFT_FINE_SIGMA)
    coarse = strength(SOFT_COARSE_SIGMA)
    # (A quarter of the pixels tell the percentile as well as all of them: the coarse map is
    # smooth.)
    strong = coarse >= percentile(coarse[::2, ::2], 100 * (1 - SOFT_EDGE_SHARE))
    return float(np.median(fine[strong] / (coarse[strong] + 1e-3)))


def soft_norm(soft: float) -> float:
    """The share of its neighbourhood's edge level a field of softness ``soft`` takes (see
    :data:`SOFT_FIELD`): 1 at :data:`SOFT_FIELD`, down to :data:`SOFT_NORM` over
    :data:`SOFT_RAMP` below it, so that a field measured a hair either side of the threshold
    reads alike.

    >>> soft_norm(1.45), soft_norm(SOFT_FIELD - SOFT_RAMP / 2), soft_norm(1.3) == SOFT_NORM
    (1.0, 0.94, True)
    """
    share = min(max((SOFT_FIELD - soft) / SOFT_RAMP, 0.0), 1.0)
    return 1.0 - (1.0 - SOFT_NORM) * share


def _clamped(indices: np.ndarray, last: int) -> np.ndarray:
    """Integer ``indices`` clamped to 0..``last``, in place: ``np.clip``'s value, without its
    per-call checks (which cost more than the clamping on the few hundred indices of a call).

    >>> _clamped(np.array([-3, 0, 5, 9]), 6).tolist()
    [0, 0, 5, 6]
    """
    return np.minimum(np.maximum(indices, 0, out=indices), last, out=indices)


class RingScorer:
    """Ring evidence for checker centres on one canonical image.

    Per pixel, the colour gradient's orientation is kept as the doubled-angle vector
    ``(a, b) = w (cos 2phi, sin 2phi)`` with ``w`` the capped gradient strength, so that on a
    ring around a centre the sample ``a cos 2t + b sin 2t`` (t the ring angle) is +w where the
    gradient is radial, -w where it is tangential, whichever side is darker.

    * The *coarse* score of every centre at once is the ring-weighted mean of that sample, two
      filterings with ring kernels.
    * The *coverage* of a candidate centre is the share of ring directions that show a radial
      edge.  A checker's rim is radial all round (bar an arc hidden by a neighbour in an overlapped
      stack); the incircle of a triangle touches its three sides at three places only, which is
      what tells a real checker from an empty point's triangle base.
    """

    def __init__(self, field: np.ndarray, radius: float,
                 field_box: tuple[float, float, float, float] | None = None,
                 unseen: bool = False) -> None:
        """``field_box``: where the playing field is in the image (x0, y0, x1, y1; default the
        whole image).  ``unseen``: ring directions whose rim would lie under the frame's lip
        at the field's near or far edge (only the point's own edge where a call gives the
        point's side) count as unseen unless they show one (see :data:`LIP_BAND`); without it
        only those whose rim lies beyond those edges do."""
        # Every full-size map below is float32, computed in place where the input is not needed
        # any more: the arithmetic is the same, but fewer large temporaries are made and walked
        # through (this runs once per frame, on a cold cache).
        # (The maps kept in buffers that earlier frames' scorers no longer use: see _recycled.)
        lab8 = cv2.cvtColor(field, cv2.COLOR_BGR2LAB,
                            dst=_recycled("lab8", field.shape, np.uint8))
        lab = _recycled("lab", field.shape, np.float32)
        np.copyto(lab, lab8)
        #: Where the playing field is in the image (x0, y0, x1, y1); rims outside do not count.
        self.field_box = field_box or (0, 0, field.shape[1], field.shape[0])
        self.lab = lab
        self.height, self.width = field.shape[:2]
        self.radius = radius
        #: Rows (image y) between which a rim can show (see LIP_BAND): beyond them a ring
        #: direction that shows no rim is not counted against a checker.
        _, y0, _, y1 = self.field_box
        band = LIP_BAND * radius if unseen else 0.0
        self.seen_rows = (y0 + band, y1 - band)
        #: Results of costlier looks at this image that callers ask for more than once,
        #: by a key of their own (each frame has its scorer).
        self.memo: dict = {}
        # Gradients on a lightness whose crushed darks (an under-exposed photo) are expanded
        # again: the Lab image itself when the field's blacks are well exposed (see
        # vision.exposure).
        # A Gaussian's smoothing then 3x3 Sobel gradients, as one separable filter per
        # direction (the two kernels convolved): about half the time of the three passes, the
        # same numbers but for float rounding.
        edges = edge_lab(lab8, lab)
        if edges is lab:
            # The 8-bit Lab filtered straight into float32: OpenCV's row pass converts each
            # code exactly and sums as it does for the float copy, with a quarter of the bytes
            # to read (the same numbers on a canonical field: see _smoothed_sobel_kernels).
            edges = lab8
        # (Temporaries in this thread's reused buffers (see _scratch), the single-channel ones
        # in the colour ones' buffers once those are done with, which are then still in the
        # processor's cache; the maps kept, jxx and jxy becoming a and b, are new arrays.)
        colour_shape, plane_shape = lab.shape, lab.shape[:2]
        derivative, smoothing = _smoothed_sobel_kernels(max(0.7, radius * 0.06))
        gx = cv2.sepFilter2D(edges, cv2.CV_32F, derivative, smoothing,
                             dst=_scratch(0, colour_shape))
        gy = cv2.sepFilter2D(edges, cv2.CV_32F, smoothing, derivative,
                             dst=_scratch(1, colour_shape))
        #: How sharp the field's edges are (:func:`softness`, from the lightness's gradients
        #: just made): a defocused field's rims count from a weaker gradient (see
        #: :data:`SOFT_FIELD`).
        self.softness = softness(cv2.extractChannel(edges, 0),
                                 cv2.magnitude(cv2.extractChannel(gx, 0),
                                               cv2.extractChannel(gy, 0)))
        del edges
        # Chroma channels matter for red-on-red style boards; lightness carries most rims.
        # (cv2.transform sums the three channels several times faster than numpy's sum.)
        channel_sum = np.ones((1, 3), np.float32)
        jxy = cv2.transform(np.multiply(gx, gy, out=_scratch(2, colour_shape)), channel_sum,
                            dst=_recycled("b", plane_shape, np.float32))
        jxx = cv2.transform(np.multiply(gx, gx, out=gx), channel_sum,
                            dst=_recycled("a", plane_shape, np.float32))
        jyy = cv2.transform(np.multiply(gy, gy, out=gy), channel_sum,
                            dst=_scratch(2, plane_shape))
        del gx, gy
        energy = np.add(jxx, jyy, out=_scratch(0, plane_shape))
        energy += 1e-6
        mag = np.sqrt(energy, out=_scratch(0, plane_shape, plane=1))
        # Edge strength relative to the neighbourhood's: glare and shadow lower a rim's contrast
        # but not its contrast against what surrounds it.  (A quarter of the pixels tell the
        # percentile as well as all of them.)
        cap = float(percentile(mag[::2, ::2], 80)) + 1e-3
        size = int(radius * LOCAL_WINDOW) | 1
        norm = cv2.blur(mag, (size, size), dst=_scratch(0, plane_shape, plane=2))
        norm *= LOCAL_GAIN
        # The floor is lowered where the neighbourhood is very dark (see DARK_LIGHTNESS): a
        # per-lightness table over the neighbourhood's mean lightness.  That mean varies
        # slowly, so it is taken on every fourth pixel each way and interpolated (a sixth of
        # the time of a full-size box filter).
        floor = cap * LOCAL_FLOOR * np.minimum(
            (np.arange(256, dtype=np.float32) + DARK_OFFSET) / (DARK_LIGHTNESS + DARK_OFFSET), 1)
        light = cv2.blur(lab8[::4, ::4, 0], (size // 4 | 1,) * 2)
        floor = cv2.resize(cv2.LUT(light, floor.astype(np.float32)), (self.width, self.height),
                           dst=_scratch(1, plane_shape), interpolation=cv2.INTER_LINEAR)
        np.maximum(norm, floor, out=norm)
        if self.softness < SOFT_FIELD:
            norm *= soft_norm(self.softness)
        # weight = min(mag / norm, 1) / energy
        weight = np.divide(mag, norm, out=mag)
        np.minimum(weight, 1.0, out=weight)
        weight /= energy
        self.a = np.subtract(jxx, jyy, out=jxx)
        self.a *= weight
        self.b = np.multiply(jxy, 2, out=jxy)
        self.b *= weight
        del weight, norm, energy, jyy
        # The coarse map only proposes candidates (coverage decides), so half resolution will do.
        half = (self.width // 2, self.height // 2)
        a_half = cv2.resize(self.a, half, interpolation=cv2.INTER_AREA)
        b_half = cv2.resize(self.b, half, interpolation=cv2.INTER_AREA)
        ring_cos2, ring_sin2 = _ring_kernels(radius / 2)
        cos2_quarters, sin2_quarters = _ring_kernel_quarters(radius / 2)
        coarse = _filter(a_half, ring_cos2, cos2_quarters)
        coarse += _filter(b_half, ring_sin2, sin2_quarters)
        self.map = cv2.resize(coarse, (self.width, self.height),
                              dst=_recycled("map", plane_shape, np.float32),
                              interpolation=cv2.INTER_LINEAR)
        # Mean colour over the middle of a checker-sized disc, wanted at a few hundred places
        # only: box sums from the integral image of the 8-bit Lab (exact integers), padded as
        # cv2.blur pads, scaled as it scales (see colour_at).
        size = max(3, int(radius) | 1)
        pad = size // 2
        self._box = size
        padded_shape = (self.height + 2 * pad, self.width + 2 * pad, 3)
        padded = cv2.copyMakeBorder(lab8, pad, pad, pad, pad, cv2.BORDER_REFLECT_101,
                                    dst=_recycled("padded", padded_shape, np.uint8))
        sums_shape = (padded_shape[0] + 1, padded_shape[1] + 1, 3)
        self._lab_sums = cv2.integral(padded, sum=_recycled("sums", sums_shape, np.int32),
                                      sdepth=cv2.CV_32S).reshape(-1, 3)
        del padded
        self._sums_width = self.width + 2 * pad + 1
        # The ring's sample offsets (radius by direction): the same for every call.
        # (Radius first: the samples of one radius are then one block, and the best over the
        # radii is an elementwise maximum of blocks rather than a reduction across them.)
        radii = self.radius * np.array(RING_RADII, np.float32)[:, None, None]
        self._ring_dx, self._ring_dy = radii * _COS, radii * _SIN

    def score(self, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        """Coarse scores of centres (any broadcastable shapes), nearest pixel."""
        xs = _clamped(np.rint(cx).astype(np.int32), self.width - 1)
        ys = _clamped(np.rint(cy).astype(np.int32), self.height - 1)
        # One flat gather: the same values as map[ys, xs], several times faster.
        return self.map.ravel().take(ys * self.width + xs)

    def coverage(self, cx: np.ndarray, cy: np.ndarray, edge_up: bool = True,
                 shapes: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Share of ring directions showing a radial edge, for centres given as 1-D arrays:
        all round, without the arc facing the board's centre, without the arc facing the
        edge (``edge_up``: the point's edge is above the centre in the image), and on the arc
        facing the board's centre alone.  In an overlapped stack a neighbour lying on top hides
        one of those arcs; a lone checker hides none, and the last share tells it from an
        empty point's base (see :data:`LONE_FAR_ARC`).  ``shapes``: per centre, a 2x2 map
        taking the ring (a circle) to the ellipse a tilted checker's rim is seen as, whose
        rim is radial along the ellipse's normal (n x 2 x 2; None: circles)."""
        return self._coverage_shares(*self._ring_hits(cx, cy, edge_up, shapes), edge_up)

    def coverage_and_contact_free(self, cx: np.ndarray, cy: np.ndarray,
                                  edge_up: bool | np.ndarray = True) -> tuple[np.ndarray, ...]:
        """:meth:`coverage`'s four shares and :meth:`contact_free`'s, from one sampling of
        the rings (the costly part of each).  ``edge_up`` may be given per centre (a boolean
        array): centres on both rows of points are then sampled in one call."""
        hit, inside = self._ring_hits(cx, cy, edge_up)
        if isinstance(edge_up, np.ndarray):
            up = self._coverage_shares(hit, inside, True)
            down = self._coverage_shares(hit, inside, False)
            shares = tuple(np.where(edge_up, u, d) for u, d in zip(up, down))
        else:
            shares = self._coverage_shares(hit, inside, edge_up)
        return *shares, self._contact_share(hit, inside)

    def _coverage_shares(self, hit: np.ndarray, inside: np.ndarray, edge_up: bool
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        keep, total = _KEEP[bool(edge_up)]
        seen = inside @ keep
        got = hit @ keep / np.maximum(seen, 1)
        # Half a rim is weaker evidence than a whole one.
        hidden = np.maximum(0.75 - seen / total, 0)
        share = np.where(seen >= 0.5 * total, got - 0.4 * hidden, 0.0)
        return share[:, 0], share[:, 1], share[:, 2], share[:, 3]

    def _ring_hits(self, cx: np.ndarray, cy: np.ndarray,
                   edge_up: bool | np.ndarray | None = None, shapes: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Per centre (1-D arrays) and ring direction: whether a radial edge shows there at any
        of the :data:`RING_RADII` and was seen at all (inside the field box, and where a rim
        could show unless one does: see :data:`LIP_BAND`), float32 0/1.  ``edge_up`` (one
        for all, or per centre): the lip is that of the point's own edge only (above the
        centre when true); ``None``: of both.

        The maps are read at the nearest pixel, clamped to the image (centres beyond it too):

        >>> field = np.random.default_rng(3).integers(0, 256, (50, 60, 3), np.uint8)
        >>> scorer = RingScorer(field, radius=6.0)
        >>> cx = np.float32([-9.0, 0.5, 20.5, 31.25, 59.0, 75.0])
        >>> cy = np.float32([4.0, 1.5, 25.5, 24.75, 49.0, -3.0])
        >>> fx = np.rint(cx[None, :, None] + scorer._ring_dx).astype(int).clip(0, 59)
        >>> fy = np.rint(cy[None, :, None] + scorer._ring_dy).astype(int).clip(0, 49)
        >>> sample = scorer.a[fy, fx] * _COS2_32 + scorer.b[fy, fx] * _SIN2_32
        >>> hit, inside = scorer._ring_hits(cx, cy)
        >>> bool(np.array_equal(hit, (sample.max(axis=0) > EDGE_LEVEL) & (inside > 0)))
        True
        """
        # (In place wherever an intermediate is not needed again: several arrays of 160 samples
        # per centre are made and walked through per call, and checkers call this often.)
        # Centres along the last axis: numpy's loops then run along them, not along the 32
        # directions; the shares come out transposed (sums of 0/1 weights: the same numbers).
        count = len(RING_RADII)
        # (radius, angle, centre; the centres at float32 precision, added in float64 as the
        # offsets are: cast first, the addition runs without a casting loop)
        cos2, sin2 = _COS2_32[:, None], _SIN2_32[:, None]
        if shapes is None:
            fx = self._ring_dx.reshape(count, -1, 1) + np.asarray(cx, np.float32).astype(np.float64)
            fy = self._ring_dy.reshape(count, -1, 1) + np.asarray(cy, np.float32).astype(np.float64)
        else:
            # Each ring the circle through its map (an ellipse): the samples at the mapped
            # offsets, a rim there radial along the normal (the map's inverse transposed).
            m = np.asarray(shapes, np.float64).reshape(-1, 2, 2)
            radii = self.radius * np.array(RING_RADII)[:, None, None]
            fx = radii * (m[:, 0, 0] * _COS[:, None] + m[:, 0, 1] * _SIN[:, None]) \
                + np.asarray(cx, np.float32).astype(np.float64)
            fy = radii * (m[:, 1, 0] * _COS[:, None] + m[:, 1, 1] * _SIN[:, None]) \
                + np.asarray(cy, np.float32).astype(np.float64)
            inv = np.linalg.inv(m)
            normal = np.arctan2(inv[:, 0, 1] * _COS[:, None] + inv[:, 1, 1] * _SIN[:, None],
                                inv[:, 0, 0] * _COS[:, None] + inv[:, 1, 0] * _SIN[:, None])
            cos2 = np.cos(2 * normal).astype(np.float32)
            sin2 = np.sin(2 * normal).astype(np.float32)
        fx = np.rint(fx, out=fx)
        fy = np.rint(fy, out=fy)
        # Directions that leave the field are not evidence either way: a checker against the
        # edge of a board seen at a slant is partly hidden under the frame's raised lip.
        # Only the near and far edges hide checkers that way; beside a point there is more
        # field or the frame's side, where a checker's rim must show.
        # Outside the image nothing was seen at all (a column found shifted toward the image's
        # side by corners placed inside the field).
        _, y0, _, y1 = self.field_box
        mid_x, mid_y = fx[count // 2], fy[count // 2]
        inside = (mid_y >= y0) & (mid_y < y1) & (mid_x >= 0) & (mid_x < self.width)
        # Under the frame's lip only a rim that shows is evidence (see LIP_BAND).
        low, high = self.seen_rows
        under_lip = None
        if low > y0 or high < y1:
            # Only the lip at the point's own edge, the stack's base: across the field a
            # stack that reached the facing edge has its rim there in view, and a ring whose
            # far arc finds none there is the facing point's bare base, not a checker.
            if edge_up is None:
                under_lip = (mid_y < low) | (mid_y >= high)
            elif isinstance(edge_up, np.ndarray):
                under_lip = np.where(edge_up, mid_y < low, mid_y >= high)
            else:
                under_lip = mid_y < low if edge_up else mid_y >= high
        shape = fx.shape
        if fx.size:
            # The maps at the whole pixels, clamped to the image: OpenCV's nearest-neighbour
            # remap of whole-number coordinates with a replicated border (one pass per map for
            # numpy's clipping, flat indices and gathers).
            map_x = fx.reshape(-1, shape[2]).astype(np.float32)
            map_y = fy.reshape(-1, shape[2]).astype(np.float32)
            radial, along = (cv2.remap(values, map_x, map_y, cv2.INTER_NEAREST,
                                       borderMode=cv2.BORDER_REPLICATE).reshape(shape)
                             for values in (self.a, self.b))
        else:
            radial, along = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
        radial *= cos2
        along *= sin2
        radial += along
        hit = np.maximum.reduce(radial) > EDGE_LEVEL  # the rim may sit at any of the radii
        hit &= inside
        if under_lip is not None:
            inside &= ~under_lip | hit
        return hit.astype(np.float32).T, inside.astype(np.float32).T

    def contact_free(self, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        """Share of ring directions showing a radial edge, for centres given as 1-D arrays,
        leaving out the two arcs where a touching neighbour meets the rim (within
        :data:`CONTACT_ARC_DEG` of the point's axis, both ways).

        Where two checkers of one colour touch, their rims run within a pixel or two of each
        other near the contact and blur into one faint line; a checker between two touching
        neighbours (the middle of a stack played without overlapping) shows its rim everywhere
        else.  A straight band as wide as a checker (the sides of an overlapped stack, a strip
        of paint) does not: off the axis, inside the band's width, the ring crosses no edge.
        """
        return self._contact_share(*self._ring_hits(cx, cy))

    def _contact_share(self, hit: np.ndarray, inside: np.ndarray) -> np.ndarray:
        seen = inside @ _SIDES
        got = hit @ _SIDES / np.maximum(seen, 1)
        return np.where(seen >= 0.5 * _SIDES_TOTAL, got, 0.0).astype(np.float32)

    def colour_at(self, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        """Mean Lab colours (n x 3, float32) over the middle of checkers centred at (cx, cy)
        (1-D arrays, nearest pixel, clipped to the image): the mean of the Lab image over a
        square about the checker's radius wide.

        Equal, value for value, to ``cv2.blur`` of the float Lab image at those pixels: the
        box sums of 8-bit values are exact integers, and blur scales its (exact, double) sums
        by the same double factor before rounding to float32.

        >>> field = np.random.default_rng(1).integers(0, 256, (40, 50, 3), np.uint8)
        >>> scorer = RingScorer(field, radius=7.0)
        >>> lab = cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)
        >>> ys, xs = np.mgrid[0:40, 0:50]
        >>> got = scorer.colour_at(xs.ravel(), ys.ravel()).reshape(40, 50, 3)
        >>> bool(np.array_equal(got, cv2.blur(lab, (7, 7))))
        True
        """
        xs = _clamped(np.rint(cx).astype(np.intp), self.width - 1)
        ys = _clamped(np.rint(cy).astype(np.intp), self.height - 1)
        size, row = self._box, self._sums_width
        corner = ys * row + xs  # the box's top-left in the padded integral image
        sums = self._lab_sums
        total = sums.take(corner + (size * row + size), axis=0)
        total -= sums.take(corner + size * row, axis=0)
        total -= sums.take(corner + size, axis=0)
        total += sums.take(corner, axis=0)
        return (total * (1.0 / (size * size))).astype(np.float32)

    def disc_colour(self, x: float, y: float) -> np.ndarray:
        """Mean Lab colour over the middle of the checker centred at (x, y)."""
        return self.colour_at(np.array([x]), np.array([y]))[0]
