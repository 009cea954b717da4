"""Where things are on a board: the one place for board geometry in image terms.

The *playing field* is the rectangle that holds the 24 points and the bar (side trays left out),
seen upright: 12 points along the top edge, 12 along the bottom edge, the bar a vertical strip
between the left and right halves.  Corners are given as top-left, top-right, bottom-right,
bottom-left of the upright field.  A homography maps a camera frame to a *canonical* top-down
image of the field; all reading happens there.

Real boards differ in the width of the bar and so in the width of the points: :func:`find_bar`
measures the bar from the warped image rather than assuming it, and checks its edges against
the points' comb on either side (:func:`comb_fit`).

>>> corners = parse_corners("10,20; 410,20; 410,380; 10,380")
>>> corners[2]
(410.0, 380.0)
>>> geo = BoardGeometry.default(aspect=0.9)
>>> geo.width, geo.height, round(geo.point_width, 1)
(320, 288, 25.1)
>>> geo.column_x(0) < geo.column_x(5) < geo.bar_left < geo.bar_right < geo.column_x(6)
True
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Sequence

import cv2
import numpy as np

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]

#: Width in pixels of the canonical top-down field image the readers work on.
CANONICAL_WIDTH = 320
#: Points per row, and per half-row (one quarter of the board).
POINTS_PER_ROW = 12
POINTS_PER_QUARTER = 6
#: The bar's share of the field width when nothing better is known (measured boards: 3-9%).
DEFAULT_BAR_FRACTION = 0.06
#: Focal length of a typical phone or webcam lens, as a share of the frame's longer side.
TYPICAL_FOCAL = 0.9
#: Checker diameter as a share of the point width (measured on real boards: 0.85-1.0).
CHECKER_TO_POINT = 0.92


def column_median(values: np.ndarray) -> np.ndarray:
    """The median down each column (over axis 0), equal to ``np.median(values, axis=0)``.

    NumPy's median partitions along the first axis of a C-ordered array far more slowly than
    a sort does (about 7x for a few hundred rows of a few hundred columns); this is on the hot
    path of every frame read.  No NaN handling: the readers' images have none.

    >>> a = np.float32([[1, 9], [3, 2], [2, 4], [8, 8]])
    >>> column_median(a), np.median(a, axis=0)
    (array([2.5, 6. ], dtype=float32), array([2.5, 6. ], dtype=float32))
    """
    ordered = np.sort(values, axis=0)
    n = ordered.shape[0]
    half = n // 2
    # The same arithmetic (and result type) as np.median's: the mean of the middle one or two.
    middle = slice(half, half + 1) if n % 2 else slice(half - 1, half + 1)
    return np.mean(ordered[middle], axis=0)


def median_of(values: np.ndarray) -> np.floating:
    """The median of a 1-D array, equal to ``np.median(values)`` (no NaN handling), several
    times faster on the tens of thousands of pixels of a tray: one partition, not two.

    >>> float(median_of(np.float32([4, 1, 3, 2]))), float(median_of(np.float32([5, 1, 3])))
    (2.5, 3.0)
    """
    n = len(values)
    if n == 0:
        return np.median(values)  # NaN, with numpy's warning
    half = n // 2
    part = np.partition(values, half)
    # Below the middle element after a partition: the one just under it is their maximum.
    middle = part[half: half + 1] if n % 2 else np.array([part[:half].max(), part[half]],
                                                          part.dtype)
    return np.mean(middle)


def percentile(values: np.ndarray, q: float) -> np.floating:
    """The ``q``-th percentile of an array's values, equal to ``np.percentile(values, q)``
    (linear interpolation, no NaN handling), by one partition of one copy: NumPy's copies,
    checks and partitions around its result cost several times more on the per-frame maps.
    The partition is around the lower of the two values interpolated between only; the one
    above it is the least of what the partition put after it (partitioning around both at
    once takes several times as long).

    >>> x = np.random.default_rng(0).normal(size=(40, 31)).astype(np.float32)
    >>> all(percentile(x, q) == np.percentile(x, q) for q in (0, 12.5, 50, 75, 80, 97, 100))
    True
    >>> ties = np.float32([3, 1, 3, 3, 2, 3])
    >>> all(percentile(ties, q) == np.percentile(ties, q) for q in (0, 30, 50, 90, 100))
    True
    """
    flat = np.asarray(values).flatten()  # always a copy: partitioned in place below
    n = flat.size
    if n == 0:
        return np.percentile(flat, q)  # NaN, with numpy's warning
    # NumPy's arithmetic: the virtual index (n - 1) q, then a lerp from the nearer end.
    virtual = (n - 1) * (q / 100)
    below_index = int(np.floor(virtual))
    flat.partition(below_index)
    below = flat[below_index]
    above = flat[below_index + 1:].min() if below_index + 1 < n else below
    gamma = virtual - below_index
    diff = above - below
    if gamma >= 0.5:
        return above - diff * (1 - gamma)
    return below + diff * gamma


class GeometryError(ValueError):
    """Corners or a board shape that cannot be used."""


def parse_corners(text: str) -> Corners:
    """Read ``"x,y;x,y;x,y;x,y"`` (top-left, top-right, bottom-right, bottom-left).

    >>> parse_corners("0,0;100,0;100,80;0,80")[1]
    (100.0, 0.0)
    >>> parse_corners("0,0;100,0")
    Traceback (most recent call last):
    ...
    calibration.geometry.GeometryError: corners need four x,y pairs separated by ';' (top-left;top-right;bottom-right;bottom-left), got 2
    """
    parts = [p.strip() for p in text.replace(" ", "").split(";") if p.strip()]
    if len(parts) != 4:
        raise GeometryError(
            "corners need four x,y pairs separated by ';' "
            f"(top-left;top-right;bottom-right;bottom-left), got {len(parts)}"
        )
    points = []
    for part in parts:
        xy = part.split(",")
        try:
            if len(xy) != 2:
                raise ValueError
            points.append((float(xy[0]), float(xy[1])))
        except ValueError:
            raise GeometryError(f"a corner is x,y in pixels, got {part!r}") from None
    return check_corners(points)


def check_corners(points: Sequence[Sequence[float]]) -> Corners:
    """Validate four corners: a convex quadrilateral, clockwise in image coordinates."""
    if len(points) != 4:
        raise GeometryError(f"need four corners, got {len(points)}")
    quad = np.asarray(points, dtype=np.float64).reshape(4, 2)
    if not np.all(np.isfinite(quad)):
        raise GeometryError("corners must be finite numbers")
    cross = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        cross.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    if not (all(v > 0 for v in cross)):
        raise GeometryError(
            "corners must go top-left, top-right, bottom-right, bottom-left around a convex "
            "field (clockwise in the image)"
        )
    if cv2.contourArea(quad.astype(np.float32)) < 400:
        raise GeometryError("the corners enclose almost no area")
    return tuple((float(x), float(y)) for x, y in quad)  # type: ignore[return-value]


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cross product of two 3-vectors, as ``np.cross`` computes it (same arithmetic), without
    its general-case overhead (it dominated :func:`field_aspect`).

    >>> _cross(np.array([1.0, 0, 0]), np.array([0, 1.0, 0]))
    array([0., 0., 1.])
    """
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])


def field_aspect(corners: Corners, frame_size: tuple[int, int] | None = None) -> float:
    """Height over width of the real field, from its corners in a frame.

    Under perspective the quadrilateral's side lengths mislead (a board tilted away looks
    squat), so when the frame size is known this recovers the rectangle's true aspect with a
    pinhole camera whose principal point is the frame centre (Zhang and He, "Whiteboard scanning
    and image enhancement", 2007); it falls back to the side lengths when the view is nearly
    square-on or the estimate is implausible.

    >>> round(field_aspect(((0, 0), (100, 0), (100, 90), (0, 90))), 2)
    0.9
    """
    q = np.asarray(corners, np.float64)
    width = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    height = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    naive = float(np.clip(height / max(width, 1e-6), 0.55, 1.3))
    if frame_size is None:
        return naive
    u0, v0 = frame_size[0] / 2, frame_size[1] / 2
    m1, m2, m4, m3 = (np.array([x - u0, y - v0, 1.0]) for x, y in q)  # TL, TR, BR, BL
    k2 = np.dot(_cross(m1, m4), m3) / np.dot(_cross(m2, m4), m3)
    k3 = np.dot(_cross(m1, m4), m2) / np.dot(_cross(m3, m4), m2)
    n2 = k2 * m2 - m1
    n3 = k3 * m3 - m1
    diagonal = float(np.hypot(*frame_size))
    f2 = None
    typical = TYPICAL_FOCAL * max(frame_size)
    # A side pair looks parallel when its vanishing point is more than ~50 focal lengths out.
    if (abs(n2[2]) * typical > 0.02 * np.hypot(n2[0], n2[1])
            and abs(n3[2]) * typical > 0.02 * np.hypot(n3[0], n3[1])):
        f2 = -(n2[0] * n3[0] + n2[1] * n3[1]) / (n2[2] * n3[2])
    if f2 is None or not (0.25 * diagonal) ** 2 < f2 < (12 * diagonal) ** 2:
        # One pair of sides looks parallel (e.g. a board tilted straight away from the camera):
        # the focal length is not observable; assume a typical phone or webcam lens.
        f2 = typical ** 2
    ratio = np.sqrt((n2[0] ** 2 + n2[1] ** 2 + f2 * n2[2] ** 2)
                    / (n3[0] ** 2 + n3[1] ** 2 + f2 * n3[2] ** 2))
    aspect = 1.0 / ratio
    if not 0.55 <= aspect <= 1.3:
        return naive
    return float(aspect)


@dataclass(frozen=True)
class BoardGeometry:
    """The canonical field image: its size and where the bar and the 24 point columns are.

    ``bar_left``/``bar_right`` are x positions in canonical pixels; the six points of each
    quarter share the space between the field edge and the bar equally.
    """

    width: int
    height: int
    bar_left: float
    bar_right: float
    #: Pixels of frame kept around the field in the warped image, so that checkers still show
    #: when the corners were placed a little inside the field.  Field coordinates (columns, bar)
    #: do not include it; image coordinates are field coordinates plus the margin.
    margin: int = 0

    @classmethod
    def default(cls, aspect: float, bar_fraction: float = DEFAULT_BAR_FRACTION) -> "BoardGeometry":
        width = CANONICAL_WIDTH
        height = int(round(width * aspect))
        half_bar = width * bar_fraction / 2
        return cls(width, height, width / 2 - half_bar, width / 2 + half_bar)

    @property
    def bar_fraction(self) -> float:
        return (self.bar_right - self.bar_left) / self.width

    @property
    def point_width(self) -> float:
        """Mean width of a point in canonical pixels."""
        return (self.bar_left + self.width - self.bar_right) / POINTS_PER_ROW

    @property
    def checker_radius(self) -> float:
        return self.point_width * CHECKER_TO_POINT / 2

    def column_x(self, index: int) -> float:
        """x centre of column ``index`` (0..11, left to right, same for top and bottom rows)."""
        if not 0 <= index < POINTS_PER_ROW:
            raise GeometryError(f"a column is 0..11, got {index}")
        if index < POINTS_PER_QUARTER:
            return (index + 0.5) * self.bar_left / POINTS_PER_QUARTER
        right = (self.width - self.bar_right) / POINTS_PER_QUARTER
        return self.bar_right + (index - POINTS_PER_QUARTER + 0.5) * right

    @property
    def bar_x(self) -> float:
        return (self.bar_left + self.bar_right) / 2

    def with_bar(self, bar_left: float, bar_right: float) -> "BoardGeometry":
        return replace(self, bar_left=float(bar_left), bar_right=float(bar_right))

    def with_margin(self, margin: int) -> "BoardGeometry":
        return replace(self, margin=int(margin))

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) of the warped image, margin included."""
        return self.width + 2 * self.margin, self.height + 2 * self.margin


def homography(corners: Corners, geometry: BoardGeometry) -> np.ndarray:
    """The 3x3 matrix taking frame pixels to canonical field pixels."""
    src = np.asarray(corners, dtype=np.float32)
    w, h, m = geometry.width, geometry.height, geometry.margin
    dst = np.float32([[m, m], [w + m, m], [w + m, h + m], [m, h + m]])
    return cv2.getPerspectiveTransform(src, dst)


def warp(frame: np.ndarray, corners: Corners, geometry: BoardGeometry) -> np.ndarray:
    """The canonical top-down image of the field (BGR).

    ``frame`` may also be the BGR frame with a fourth channel (:func:`with_fourth_channel`):
    OpenCV interpolates four channels about twice as fast as three, each channel the same.

    >>> frame = np.random.default_rng(0).integers(0, 256, (90, 120, 3), np.uint8)
    >>> corners = ((10.5, 8.0), (110.0, 12.0), (104.0, 80.0), (6.0, 77.5))
    >>> geo = BoardGeometry.default(0.8)
    >>> bool(np.array_equal(warp(frame, corners, geo),
    ...                     warp(with_fourth_channel(frame), corners, geo)))
    True
    """
    matrix = homography(corners, geometry)
    warped = cv2.warpPerspective(
        frame, matrix, geometry.image_size, flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return without_fourth_channel(warped)


def with_fourth_channel(frame: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A BGR frame with a fourth (constant) channel, for the warps of one frame read: OpenCV
    interpolates four-channel images about twice as fast as three-channel ones (the BGR
    channels come out the same), which pays for this conversion when a frame is warped more
    than once (the field, the side trays, the frame's edges).

    ``out``, when it has the shape and type the result needs, is written over and returned:
    a reader reuses one from frame to frame, since a new 1280x720 four-channel image (3.7 MB)
    often comes as fresh pages from the operating system, whose faults cost several times the
    conversion itself (about 1700 faults, 4 ms, against 0.5 ms, measured within whole reads).

    >>> frame = np.zeros((2, 3, 3), np.uint8)
    >>> buffer = np.empty((2, 3, 4), np.uint8)
    >>> with_fourth_channel(frame, buffer) is buffer, with_fourth_channel(frame, buffer[:1]).shape
    (True, (2, 3, 4))
    """
    if out is not None and (out.shape != frame.shape[:2] + (4,) or out.dtype != frame.dtype
                            or not out.flags.c_contiguous):
        out = None
    return cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA, dst=out)


def without_fourth_channel(image: np.ndarray) -> np.ndarray:
    """The BGR channels of an image from :func:`with_fourth_channel` (others as they are)."""
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


def _reflected(index: np.ndarray, size: int) -> np.ndarray:
    """Indices beyond ``0..size-1`` mirrored back as OpenCV's default border does
    (``BORDER_REFLECT_101``: -1 is 1, ``size`` is ``size - 2``).

    >>> _reflected(np.array([-2, -1, 0, 4, 5, 6]), 6).tolist()
    [2, 1, 0, 4, 5, 4]
    """
    index = np.abs(index)
    return np.where(index >= size, 2 * (size - 1) - index, index)


def _row_sobel_x(gray: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``abs(cv2.Sobel(gray.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3))[rows]`` for an
    8-bit grey image, working out only the rows asked for: the 3 x 3 Sobel is a [1, 2, 1]
    sum down three rows, then the difference of the two columns either side, and on whole grey
    levels every step is an exact integer (at most 4 x 255), so the numbers are OpenCV's.

    >>> gray = np.random.default_rng(0).integers(0, 256, (9, 7), np.uint8)
    >>> full = np.abs(cv2.Sobel(gray.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3))
    >>> bool(np.array_equal(_row_sobel_x(gray, np.arange(0, 9, 2)), full[::2]))
    True
    """
    h, w = gray.shape
    down = gray[_reflected(rows - 1, h)].astype(np.int16)
    down += gray[_reflected(rows + 1, h)]
    middle = gray[rows].astype(np.int16)
    down += middle
    down += middle
    across = np.zeros(down.shape, np.float32)
    if w > 1:
        # Beyond the left and right ends the border mirrors the columns: zero there.
        np.abs(down[:, 2:] - down[:, :-2], out=across[:, 1:-1], casting="unsafe")
    return across


#: The points' comb (see :func:`comb_fit`): the rows of the field where the triangles stand
#: wide, from near their bases (as shares of the height from the top; the same from the bottom).
COMB_BAND = (0.03, 0.25)
#: A bar edge the points beside it contradict is no edge of the bar (a tall stack lying beside
#: the bar hides its edge and shows its own far side in its stead): one where six equal points
#: between it and the field's end fit the comb less than :data:`COMB_VETO` of the best fit on
#: that side, or, where the best fit is a clear one (at least :data:`CLEAR_COMB`), one more than
#: :data:`COMB_REACH` of a point (4.5 pixels) from it.  Development sets (synthetic seeds
#: 0-3999, solid seeds 0-499, real-aug), the edges found within 2.5 pixels of the bar's: they
#: fit at least 0.79 of the best (real-aug, fm-gold-b made darker; synthetic 0.90), far sides
#: taken 16 pixels or more off 0.50 or less; where the fit is clear they lie within 3 pixels
#: (0.12 of a point) of its best, far sides taken 7 pixels or more off 7 or more (solid seed
#: 128's next candidate, 6 off, 5).  None of those edges 4 pixels or more from the best fit had
#: a clear one (0.42 at most: real boards with checkers on most points blur the comb; of the
#: real ones only fm-wood's right side fits clearly).
COMB_VETO = 0.6
CLEAR_COMB = 0.5
COMB_REACH = 0.18


def comb_fit(field: np.ndarray, inner: np.ndarray, left: bool) -> np.ndarray:
    """How well six equal points between the field's end and each candidate bar edge in
    ``inner`` (x in field pixels, no margin) fit the points' comb: 0 (no fit) to about 1.

    The triangles stand on the long sides with their middles on the point columns; across a
    band of rows near their bases the mean colour repeats once a point (triangle, field,
    triangle) and once two points (the two paints alternate), each in a known phase at the
    columns' middles.  The fit is the share of the band profile's spread (each colour channel)
    that those two cycles, in that phase, carry, averaged over the top and bottom bands.
    Checkers on the points lie on the columns' middles too, so they keep the rhythm.

    >>> pitch, h = 10, 60
    >>> field = np.full((h, 13 * pitch, 3), 200, np.uint8)
    >>> for k in range(13):  # six points, the bar, six points: triangles a third of a point wide
    ...     if k != 6:
    ...         field[:, k * pitch + 3: k * pitch + 7] = (40, 40, 160) if k % 2 else (30, 30, 30)
    >>> fit = comb_fit(field, np.array([50.0, 60.0, 70.0]), left=True)
    >>> [round(float(v), 2) for v in fit]  # a bar edge a point too far either way fits far worse
    [0.03, 0.62, 0.15]
    """
    inner = np.asarray(inner, np.float64)
    return _comb_fit(_comb_profiles(field), _comb_weights(field.shape[1], inner, left))


def _comb_profiles(field: np.ndarray) -> np.ndarray:
    """The mean colour down each column of the top and of the bottom band of
    :data:`COMB_BAND`, their channels side by side, and the same squared: ``(width, 4 x
    channels)``."""
    h, w = field.shape[:2]
    y0, y1 = COMB_BAND
    bands = (field[int(y0 * h): int(y1 * h)], field[int((1 - y1) * h): int((1 - y0) * h)])
    profiles = np.hstack([cv2.reduce(band, 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F).reshape(w, -1)
                          for band in bands])
    return np.hstack([profiles, np.square(profiles)])


def _comb_weights(width: int, inner: np.ndarray, left: bool) -> np.ndarray:
    """Weights ``(3 x len(inner), width)`` that take a band profile to, for each candidate
    bar edge, its mean over the quarter and its two cycles there (see :func:`comb_fit`)."""
    centres = np.arange(width) + 0.5
    span = inner if left else width - inner
    along = (centres[None, :] if left else width - centres[None, :]) / span[:, None]
    points = POINTS_PER_QUARTER * along                      # where in the quarter, in points
    inside = (points >= 0) & (points < POINTS_PER_QUARTER)
    share = inside / np.maximum(inside.sum(axis=1, keepdims=True), 1)
    weights = np.stack([share, -np.cos(2 * np.pi * points) * share,
                        np.sin(np.pi * points) * share], axis=1)
    return weights.reshape(-1, width).astype(np.float32)


@functools.lru_cache(maxsize=8)
def _comb_grid_weights(width: int, sides: tuple[tuple[int, int, bool], ...]) -> np.ndarray:
    """:func:`_comb_weights` for the bar edges ``first + 0.5, first + 1.5, ...`` (``count`` of
    them) of each side ``(first, count, left)``, one side after the other: the same for every
    frame of a width, so kept."""
    return np.vstack([_comb_weights(width, first + np.arange(count) + 0.5, left)
                      for first, count, left in sides])


def _comb_fit(profiles: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """:func:`comb_fit` from the profiles of :func:`_comb_profiles` and the weights of
    :func:`_comb_weights`."""
    sums = (weights @ profiles).reshape(-1, 3, profiles.shape[1])
    channels = profiles.shape[1] // 2
    n = len(sums)
    mean, cycles = sums[:, 0, :channels], sums[:, 1:, :channels]
    # Per band (top, bottom): the profile's spread over the quarter and the cycles' share of it.
    spread = (sums[:, 0, channels:] - np.square(mean)).reshape(n, 2, -1).sum(axis=2)
    carried = np.square(cycles).sum(axis=1).reshape(n, 2, -1).sum(axis=2)
    return np.sqrt(carried / (spread + 1e-6)).mean(axis=1)


def find_bar(field: np.ndarray, geometry: BoardGeometry) -> BoardGeometry:
    """Measure the bar on a warped field image and return the geometry with it (see
    :func:`bar_evidence`); edges the points' comb contradicts are not taken (see
    :data:`COMB_VETO`)."""
    return _measure_bar(field, geometry, judge_by_comb=True)[0]


def bar_evidence(field: np.ndarray, geometry: BoardGeometry) -> tuple[BoardGeometry, float]:
    """Measure the bar on a warped field image and return the geometry with it.

    The bar's two long edges run the full height of the field; checkers and dice only cover
    parts of them.  So the per-column *median over rows* of the horizontal gradient peaks at the
    bar's edges and hardly anywhere else near the middle.  Falls back to the default bar when
    no clear pair of edges is found.
    """
    return _measure_bar(field, geometry, judge_by_comb=False)


def _measure_bar(field: np.ndarray, geometry: BoardGeometry, judge_by_comb: bool
                 ) -> tuple[BoardGeometry, float]:
    m = geometry.margin
    field = field[m: m + geometry.height, m: m + geometry.width]
    gray = cv2.cvtColor(field, cv2.COLOR_BGR2GRAY) if field.ndim == 3 else field
    h, w = gray.shape
    rows = np.arange(int(h * 0.04), int(h * 0.96), 3)  # every third row is plenty for a median
    if gray.dtype == np.uint8:
        band = _row_sobel_x(gray, rows)
    else:
        band = np.abs(cv2.Sobel(gray.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3))[rows]
    profile = column_median(band)
    profile = np.convolve(profile, np.ones(3) / 3, mode="same")
    mid = w / 2
    lo_a, lo_b = int(mid - 0.13 * w), int(mid - 0.008 * w)
    hi_a, hi_b = int(mid + 0.008 * w), int(mid + 0.13 * w)
    left = profile[lo_a:lo_b]
    right = profile[hi_a:hi_b]
    if left.size == 0 or right.size == 0:
        return geometry, 0.0
    scale = float(percentile(profile, 75)) + 1.0
    best = None
    # Pick the pair of edges with the strongest joint response, roughly symmetric about the
    # middle (the corners are only approximately placed).
    # (Plain Python numbers in the loop: numpy scalars cost several times more per operation.)
    li = np.argsort(left)[::-1][:6].tolist()
    ri = np.argsort(right)[::-1][:6].tolist()
    allowed: tuple[list[bool], list[bool]] | None = None
    if judge_by_comb and field.ndim == 3:
        profiles = _comb_profiles(field)
        both = _comb_fit(profiles, _comb_grid_weights(
            w, ((lo_a, left.size, True), (hi_a, right.size, False))))
        fits = both[:left.size], both[left.size:]
        point_width = w * (1 - DEFAULT_BAR_FRACTION) / POINTS_PER_ROW
        allowed = (_comb_allowed(fits[0], point_width).tolist(),
                   _comb_allowed(fits[1], point_width).tolist())
    left_values, right_values = left.tolist(), right.tolist()
    best_allowed = None
    for a in li:
        for b in ri:
            xl, xr = lo_a + a, hi_a + b
            asym = abs((xl + xr) / 2 - mid) / w
            if asym > 0.03:
                continue
            strength = min(left_values[a], right_values[b]) / scale
            score = strength - 40 * asym
            if best is None or score > best[0]:
                best = (score, strength, xl, xr)
            if allowed is not None and allowed[0][a] and allowed[1][b] and (
                    best_allowed is None or score > best_allowed[0]):
                best_allowed = (score, strength, xl, xr)
    if allowed is not None and best is not None and best[1] >= 2.0:
        if best_allowed is None or best_allowed[1] < 2.0:
            # Clear edges, but the comb says one side's is not the bar's: that edge is hidden
            # all along (under a stack) and what was taken for it is the stack's far side.  The
            # other side's strongest allowed edge, and the hidden one where the comb fits best.
            comb_l, comb_r = lo_a + int(np.argmax(fits[0])), hi_a + int(np.argmax(fits[1]))
            sides = [(left_values[a] / scale, lo_a + a, comb_r) for a in li if allowed[0][a]]
            sides += [(right_values[b] / scale, comb_l, hi_a + b) for b in ri if allowed[1][b]]
            best_allowed = None
            for strength, xl, xr in sorted(sides, reverse=True):
                if strength >= 2.0 and abs((xl + xr) / 2 - mid) / w <= 0.03:
                    best_allowed = (strength, strength, xl, xr)
                    break
        best = best_allowed
    if best is None or best[1] < 2.0:
        return geometry, 0.0 if best is None else float(best[1])
    return geometry.with_bar(best[2] + 0.5, best[3] + 0.5), float(best[1])


def _comb_allowed(fit: np.ndarray, point_width: float) -> np.ndarray:
    """Which of one side's candidate bar edges (one a pixel) the points' comb allows, from their
    fits (see :data:`COMB_VETO`)."""
    best = int(np.argmax(fit))
    allowed = fit >= COMB_VETO * fit[best]
    if fit[best] >= CLEAR_COMB:
        reach = COMB_REACH * point_width
        allowed &= np.abs(np.arange(len(fit)) - best) <= reach
    return allowed
