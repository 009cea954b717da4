"""Is anything that is neither board nor checker (an arm, a hand, a sleeve, a box) over the
field?  From one frame, without a calibration.

A backgammon field repeats itself: the 24 points are the same triangle, in two colours that
alternate along a row and swap across the board.  So the board is its own model:

1. **field** — each point's column of the warped field (the bottom row turned upside down) is
   resampled to one size (:func:`column_patches`); a pixel is the board's when several other
   columns of the same point colour look alike at the same place (:func:`board_support`).  A
   pixel is *explained* when it is the board's, close to either checker colour, or lies on a
   checker the checker stage found (seen raised at a slant: anywhere from its base to its top
   face, :func:`checker_cover`).  A
   hand is a large connected patch of unexplained pixels; dice and glare are small or close to
   the board's own colours (lightness counts for little);
2. **edge** — the board's frame just outside the field is plain along each edge (the field
   corners are given); an arm reaching in crosses it as a run of a foreign colour at least half
   a checker long (:func:`edge_runs`).  Checkers at the far edge seen raised from a seat show
   their tops over the frame beyond it: there a checker's colour is no arm (:func:`band_cover`).

Either makes the frame *occluded*: its position must not be taken.

>>> import numpy as np
>>> from calibration.geometry import BoardGeometry
>>> geometry = BoardGeometry.default(0.9)
>>> field = np.full((geometry.height, geometry.width, 3), 200, np.uint8)
>>> find_occlusion(field, geometry, np.float32([[250, 128, 128], [30, 128, 128]])).occluded
False
>>> field[100:200, 100:170] = (60, 110, 200)   # a skin-coloured patch over the middle
>>> find_occlusion(field, geometry, np.float32([[250, 128, 128], [30, 128, 128]])).occluded
True
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from calibration.colours import nearest_distance
from calibration.geometry import (
    POINTS_PER_QUARTER, BoardGeometry, Corners, column_median, homography,
    without_fourth_channel,
)

#: Lightness-weighted Lab distance beyond which a pixel is not the board or a checker.
FOREIGN = 28.0
#: Weight of Lab lightness in that distance: light and shade (glare, a shadow across the board)
#: change lightness most, an arm over the board changes colour.
LIGHTNESS = 0.38
#: Work scale of the field (the canonical field is 320 pixels wide).
SCALE = 0.25
#: A foreign patch on the field this large (in checker areas) is something over the board.
MIN_AREA_CHECKERS = 1.3
#: A foreign run along the frame this long (in checker diameters) is an arm reaching in.
MIN_RUN_DIAMETERS = 0.6
#: Where the two frame bands around the field lie, as shares of the field's width outside its
#: edge: an arm reaching in crosses both, a checker at the field's edge (corners a few pixels
#: inside it) only the first.
BANDS = ((0.01, 0.022), (0.03, 0.042))
#: Along the left and right edges, where the trays are, a foreign run must also be this far (as
#: a share of :data:`FOREIGN`) from every colour of the board's field and checkers: a tray's
#: floor, wall or checkers showing in the bands are not an arm.  (Players sit at the top and
#: bottom edges; their arms cross those without this test.)
PALETTE_SHARE = 0.5
#: Resampled column size (pixels across, rows along a half field).
COLUMN_WIDTH = 8


@dataclass
class Occlusion:
    """Whether something covers the board, where (``"top-left"``... or ``"left edge"``), and
    the share of the field it covers."""

    occluded: bool
    places: list[str] = field(default_factory=list)
    covered: float = 0.0

    def note(self) -> str:
        where = ", ".join(self.places) or "the board"
        return f"something that is not a checker covers {where} (a hand?): not read"


def _columns(geometry: BoardGeometry, scale: float) -> list[tuple[float, float]]:
    """Left and right x (scaled) of each of the 12 columns."""
    g = geometry
    left_w = g.bar_left / POINTS_PER_QUARTER
    right_w = (g.width - g.bar_right) / POINTS_PER_QUARTER
    spans = [(c * left_w, (c + 1) * left_w) for c in range(POINTS_PER_QUARTER)]
    spans += [(g.bar_right + c * right_w, g.bar_right + (c + 1) * right_w)
              for c in range(POINTS_PER_QUARTER)]
    return [(a * scale, b * scale) for a, b in spans]


def column_patches(lab: np.ndarray, geometry: BoardGeometry, scale: float) -> np.ndarray:
    """The 24 point columns of a (scaled) field image resampled to one size, the bottom row
    turned upside down so that every point's base is at the top: 24 x half x width x 3, the top
    row's columns first.

    Columns as wide as each other are stacked one above the other and resampled in one call:
    only their width changes, row by row, so the numbers are those of one call per column.
    """
    h = lab.shape[0]
    half = h // 2
    parts = []
    for row in ("top", "bottom"):
        for a, b in _columns(geometry, scale):
            x0, x1 = int(round(a)), max(int(round(a)) + 1, int(round(b)))
            parts.append(lab[:half, x0:x1] if row == "top" else lab[h - half:, x0:x1][::-1])
    patches = np.empty((len(parts), half, COLUMN_WIDTH) + lab.shape[2:], lab.dtype)
    by_width: dict[int, list[int]] = {}
    for i, part in enumerate(parts):
        by_width.setdefault(part.shape[1], []).append(i)
    for members in by_width.values():
        stacked = np.concatenate([parts[i] for i in members], axis=0)
        resized = cv2.resize(stacked, (COLUMN_WIDTH, len(members) * half),
                             interpolation=cv2.INTER_AREA)
        patches[members] = resized.reshape((len(members), half, COLUMN_WIDTH) + lab.shape[2:])
    return patches


#: Which of the two point colours each of the 24 columns has (alternating along a row, the
#: opposite point across the board of the other colour).
PARITY = np.array([c % 2 for c in range(12)] + [(c + 1) % 2 for c in range(12)])
#: A pixel is the board's when at least this share of the other columns of its colour that
#: show the board there (no checker) look alike at the same place; an arm covers a few.
SUPPORT = 0.34


#: Columns are compared allowing this many resampled pixels of slip sideways: real points are
#: not exactly where six equal columns per quarter put them (corners a few pixels off).
SLIP = 1


def _close_with_slip(group: np.ndarray) -> np.ndarray:
    """``close[i, j]``: pixels of column ``i`` that column ``j`` matches (colour distance under
    :data:`FOREIGN`) at the same place, letting ``j`` slip up to :data:`SLIP` pixels sideways
    (group: n x rows x width x 3; result n x n x rows x width).

    The same as comparing every pixel with every other column's pixels at each slip:

    >>> group = np.random.default_rng(0).uniform(0, 40, (3, 2, 4, 3)).astype(np.float32)
    >>> brute = np.zeros((3, 3, 2, 4), bool)
    >>> for i, j, r, x, s in np.ndindex(3, 3, 2, 4, 2 * SLIP + 1):
    ...     x_j = x + s - SLIP
    ...     if 0 <= x_j < 4 and ((group[i, r, x] - group[j, r, x_j]) ** 2).sum() < FOREIGN ** 2:
    ...         brute[i, j, r, x] = True
    >>> bool((_close_with_slip(group) == brute).all()), int(brute.sum())
    (True, 60)
    """
    n, rows, width, _ = group.shape
    close = np.zeros((n, n, rows, width), bool)
    limit = FOREIGN * FOREIGN
    # Each column's pixels as one long row per channel: pixel x of a row against pixel
    # x + shift is then one slice of it, so numpy works along hundreds of pixels at a time
    # rather than a column's width; the pairs that wrap into the next row are masked out.
    size = rows * width
    channels = [np.ascontiguousarray(group[..., k]).reshape(n, size) for k in range(3)]
    flat = close.reshape(n, n, size)
    for shift in range(0, SLIP + 1):
        d2 = np.zeros((n, n, size - shift), np.float32)
        for c in channels:  # per channel: far faster than a sum over a last axis of 3
            diff = c[:, None, : size - shift] - c[None, :, shift:]
            d2 += diff * diff
        near = d2 < limit
        if shift:
            near &= np.arange(size - shift) % width < width - shift
        flat[:, :, : size - shift] |= near
        if shift:
            # Slipping the other way is the same comparison with the two columns swapped
            # (column j's pixel x against column i's x + shift): the same numbers, transposed.
            flat[:, :, shift:] |= near.transpose(1, 0, 2)
    return close


@functools.lru_cache(maxsize=64)
def _nearest_columns(source: int, target: int) -> np.ndarray:
    """The source column each of ``target`` columns takes when OpenCV resizes ``source``
    columns to ``target`` by nearest neighbour (asked of OpenCV itself, once per pair of
    widths: the rows are not resized, so picking these columns is that resize).

    >>> _nearest_columns(8, 4).tolist()
    [0, 2, 4, 6]
    """
    index = np.arange(source, dtype=np.int32)[None].astype(np.float32)
    picked = cv2.resize(index, (target, 1), interpolation=cv2.INTER_NEAREST)[0]
    return picked.astype(np.intp)


def board_support(patches: np.ndarray, covered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each column's pixels: how many other columns of the same point colour, not covered
    by a checker there, have a similar colour at the same place, and how many such columns
    there are (both 24 x rows x width)."""
    support = np.zeros(patches.shape[:3], np.int16)
    available = np.zeros(patches.shape[:3], np.int16)
    for parity in (0, 1):
        members = np.flatnonzero(PARITY == parity)
        free = ~covered[members]  # n x rows x width
        idx = np.arange(len(members))
        # close[i, j] counts where column j is free there and is not column i itself; masked
        # in place rather than through an n x n copy of the free flags.
        close = _close_with_slip(patches[members])
        close &= free[None]
        close[idx, idx] = False
        # Counted as bytes into small integers: a bool sum would widen every pixel to int64.
        support[members] = np.add.reduce(close.view(np.uint8), axis=1, dtype=np.int16)
        # The other free columns: all the free ones less the column itself.
        free_bytes = free.view(np.uint8)
        available[members] = (np.add.reduce(free_bytes, axis=0, dtype=np.int16)[None]
                              - free_bytes)
    return support, available

def find_occlusion(field_bgr: np.ndarray, geometry: BoardGeometry, centres_lab: np.ndarray,
                   checkers: Sequence[tuple[float, float]] = (), radius: float | None = None,
                   band: Sequence[Sequence[np.ndarray]] = (),
                   tops: np.ndarray | None = None) -> Occlusion:
    """Look for something over the warped field ``field_bgr`` (canonical geometry, no margin).

    ``centres_lab`` are the two checker colours, ``checkers`` the centres found (canonical
    pixels) with their ``radius``; ``band`` the frame strips along the four edges in two
    bands (from :func:`frame_band`).  ``tops``, for checkers seen raised at a slant, is the
    3x3 matrix taking a checker's place on the field to where its top face is seen on it (see
    :meth:`calibration.viewpoint.Viewpoint.onto_board`): each checker then explains the field
    and the frame bands from its base to its top face (:func:`checker_cover`).
    """
    scale = SCALE
    m = geometry.margin
    if m:
        field_bgr = field_bgr[m: m + geometry.height, m: m + geometry.width]
    small = cv2.resize(field_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = lab * np.float32([LIGHTNESS, 1, 1])
    h, w = lab.shape[:2]
    half = h // 2
    centres = np.asarray(centres_lab, np.float32).reshape(-1, 3) * np.float32([LIGHTNESS, 1, 1])
    r_canon = radius if radius is not None else geometry.checker_radius
    # Checkers found are explained, rims and shadows included.
    on_checker = checker_cover((h, w), checkers, r_canon, scale, 0, tops)
    # The checkers' cover resampled with the colours, as a fourth channel: one resize per
    # column width instead of two (each channel is resampled on its own, the same numbers).
    patches = column_patches(np.dstack([lab, on_checker.astype(np.float32)]), geometry, scale)
    covered = patches[..., 3] > 0.5
    support, available = board_support(patches[..., :3], covered)
    lonely = (available >= 2) & (support < SUPPORT * available)
    foreign = np.zeros((h, w), bool)
    # Distance to the nearer checker colour, over the whole (small) field at once.
    d_check = nearest_distance(lab, centres).reshape(h, w)
    # Each column's lonely pixels back at their place on the field, both rows of all twelve
    # columns in two gathers: per field pixel column x in a point's column, which point column
    # and which resampled column (a nearest-neighbour resize of its width) it takes.
    spans = [(int(round(a)), max(int(round(a)) + 1, int(round(b))))
             for a, b in _columns(geometry, scale)]
    xs = np.concatenate([np.arange(x0, x1) for x0, x1 in spans])
    column = np.concatenate([np.full(x1 - x0, c) for c, (x0, x1) in enumerate(spans)])
    picked = np.concatenate([_nearest_columns(lonely.shape[2], x1 - x0) for x0, x1 in spans])
    rows = np.arange(half)[:, None]
    alone_top = lonely[column, rows, picked]
    alone_bottom = lonely[12 + column, half - 1 - rows, picked]  # the bottom row upside down
    foreign[:half, xs] = alone_top & (d_check[:half, xs] > FOREIGN)
    foreign[h - half:, xs] = alone_bottom & (d_check[h - half:, xs] > FOREIGN)
    # The board's colours, from the columns' pixels that other columns bear out.
    in_columns = np.zeros((h, w), bool)
    in_columns[:, xs] = True
    palette = np.concatenate([centres, board_palette(lab[in_columns & ~foreign
                                                         & (on_checker == 0)])])
    # The bar is not one of the columns: there a pixel is foreign when it is unlike the bar's
    # own typical colour and every colour of the board (its edges, a bar a little off).
    bar = slice(int(geometry.bar_left * scale), int(np.ceil(geometry.bar_right * scale)))
    if bar.stop > bar.start:
        part = lab[:, bar]
        expected = column_median(part.reshape(-1, 3))
        d_bar = nearest_distance(part, expected).reshape(part.shape[:2])
        d_board = nearest_distance(part, palette).reshape(part.shape[:2])
        foreign[:, bar] = (d_bar > FOREIGN) & (d_board > FOREIGN)
    mask = (foreign & (on_checker == 0)).astype(np.uint8)
    # Thin things (rims, point edges a little out of place, seams) are not hands.
    size = max(3, int(round(r_canon * scale * 0.8)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    checker_area = np.pi * (r_canon * scale) ** 2
    places = []
    covered = 0
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for k in range(1, n):
        area = int(stats[k, cv2.CC_STAT_AREA])
        if area < MIN_AREA_CHECKERS * checker_area:
            continue
        covered += area
        cx, cy = centroids[k]
        places.append(f"{'top' if cy < h / 2 else 'bottom'}-{'left' if cx < w / 2 else 'right'}")
    raised = None
    if tops is not None and len(band) >= 2:
        raised = band_cover(geometry, checkers, r_canon, tops)
    edges = edge_runs(band, palette, 2 * r_canon, raised, centres)
    places += [f"{name} edge" for name in edges]
    return Occlusion(bool(places), sorted(set(places)), round(covered / (h * w), 3))


#: A checker explains the field this far out from its rim (as a share of its radius): its
#: rim's blur and shadow.
COVER_REACH = 1.15


def checker_cover(shape: tuple[int, int], checkers: Sequence[tuple[float, float]],
                  radius: float, scale: float, offset: float,
                  tops: np.ndarray | None = None) -> np.ndarray:
    """A ``shape`` mask (uint8, 1 where covered) of what the checkers at ``checkers``
    (canonical field pixels) cover, drawn at ``scale`` with the field's origin at ``offset``
    pixels in: each checker's disc (:data:`COVER_REACH`), and with ``tops`` (see
    :func:`find_occlusion`) all it shows from its base to its top face seen raised: the top's
    disc and the side wall between.

    >>> cover = checker_cover((10, 40), [(10.0, 5.0)], 2.0, 1.0, 0,
    ...                       np.array([[1.0, 0, 10], [0, 1, 0], [0, 0, 1]]))
    >>> "".join(map(str, cover[5, 5:26]))  # the base at x 10, its top seen 10 pixels on
    '000111111111111111000'
    """
    cover = np.zeros(shape, np.uint8)
    if not len(checkers):
        return cover
    reach = radius * COVER_REACH
    size = max(1, int(round(reach * scale)))
    bases = np.asarray(checkers, np.float64).reshape(-1, 2)
    # (np.rint rounds as round() does, halves to even: the discs of before, at a fraction of
    # the cost of rounding each number in Python)
    at = np.rint((bases + offset) * scale).astype(np.intp).tolist()
    if tops is not None:
        seen = bases @ tops[:2, :2].T + tops[:2, 2]
        top_size = max(1, int(round(reach * tops[0, 0] * scale)))
        for base, top in zip(at, np.rint((seen + offset) * scale).astype(np.intp).tolist()):
            cv2.circle(cover, top, top_size, 1, -1)
            cv2.line(cover, base, top, 1, 2 * size)
    for base in at:
        cv2.circle(cover, base, size, 1, -1)
    return cover


def band_cover(geometry: BoardGeometry, checkers: Sequence[tuple[float, float]], radius: float,
               tops: np.ndarray) -> list[list[np.ndarray]]:
    """Along each edge's strip of each of :data:`BANDS` (as :func:`frame_band` lays them out),
    the places a raised checker's top face or wall covers (:func:`checker_cover`): a checker
    at the field's far edge seen from a seat shows over the frame beyond it."""
    w, h = geometry.width, geometry.height
    pad = int(np.ceil(BANDS[-1][1] * w)) + 2
    cover = checker_cover((h + 2 * pad, w + 2 * pad), checkers, radius, 1.0, pad, tops)
    found = []
    for lo_share, hi_share in BANDS:
        lo, thick = _band_span(w, lo_share, hi_share)
        near, far = int(round(lo)), int(round(lo)) + thick
        strips = (cover[pad - far: pad - near, pad: pad + w],            # top, along x
                  cover[pad: pad + h, pad + w + near: pad + w + far].T,   # right, along y
                  cover[pad + h + near: pad + h + far, pad: pad + w],     # bottom, along x
                  cover[pad: pad + h, pad - far: pad - near].T)           # left, along y
        found.append([strip.any(axis=0) for strip in strips])
    return found


def frame_band(frame: np.ndarray, corners: Corners, geometry: BoardGeometry
               ) -> list[list[np.ndarray]]:
    """The board's frame just outside the field in each of :data:`BANDS`: per band, the
    strips along the top, right, bottom and left edges (along the edge x across it, canonical
    scale), BGR; ``frame`` may have a fourth channel (see
    :func:`calibration.geometry.with_fourth_channel`)."""
    to_field = homography(corners, geometry)
    return [_band(frame, to_field, geometry, lo, hi) for lo, hi in BANDS]


def _axis_inverse(to_canon: np.ndarray) -> np.ndarray:
    """The inverse of a strip's placement on the canonical field (:func:`_band`): a turn by a
    multiple of 90 degrees or a mirror, whose entries are 0 and +-1, then a shift.  Its inverse
    is the transposed turn and the shift turned back, the same numbers ``np.linalg.inv`` gives
    (exactly: every product is by 0 or +-1) at a small share of its cost.

    >>> to_canon = np.array([[0, -1, 3.2], [1, 0, -7.5], [0, 0, 1]])
    >>> bool(np.array_equal(_axis_inverse(to_canon), np.linalg.inv(to_canon)))
    True
    """
    turn = to_canon[:2, :2].T
    inverse = np.zeros((3, 3))
    inverse[:2, :2] = turn
    inverse[:2, 2] = -(turn @ to_canon[:2, 2])
    inverse[2, 2] = 1.0
    return inverse


def _band_span(width: int, lo_share: float, hi_share: float) -> tuple[float, int]:
    """Where a frame band starts outside the field's edge and how many pixels thick it is, in
    canonical pixels, for a field ``width`` wide (see :data:`BANDS`)."""
    lo, hi = lo_share * width, hi_share * width
    return lo, max(2, int(round(hi - lo)))


def _band(frame: np.ndarray, to_field: np.ndarray, geometry: BoardGeometry, lo_share: float,
          hi_share: float) -> list[np.ndarray]:
    """The four strips of one band (see :func:`frame_band`); ``to_field`` is the field's
    homography (:func:`calibration.geometry.homography`)."""
    w, h = geometry.width, geometry.height
    lo, thick = _band_span(w, lo_share, hi_share)
    m = geometry.margin
    strips = []
    # (x, y) in canonical field pixels of each strip's origin, its along and across directions.
    specs = {
        "top": ((0, -lo), (1, 0), (0, -1), w),
        "right": ((w + lo, 0), (0, 1), (1, 0), h),
        "bottom": ((0, h + lo), (1, 0), (0, 1), w),
        "left": ((-lo, 0), (0, 1), (-1, 0), h),
    }
    for name in ("top", "right", "bottom", "left"):
        origin, along, across, length = specs[name]
        # strip pixel (u along, v across) -> field (origin + u*along + v*across)
        to_canon = np.array([[along[0], across[0], origin[0] + m],
                             [along[1], across[1], origin[1] + m],
                             [0, 0, 1]], np.float64)
        matrix = _axis_inverse(to_canon) @ to_field
        strip = without_fourth_channel(cv2.warpPerspective(
            frame, matrix, (int(length), thick), flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_REPLICATE))
        strips.append(strip)
    return strips


EDGE_NAMES = ("top", "right", "bottom", "left")


def board_palette(pixels: np.ndarray, share: float = 0.02) -> np.ndarray:
    """The colours (weighted Lab) of the board's explained pixels, as the centres of the
    colour cells (half :data:`FOREIGN` wide) holding at least ``share`` of them."""
    pixels = np.asarray(pixels, np.float32).reshape(-1, 3)
    if not len(pixels):
        return np.zeros((0, 3), np.float32)
    step = FOREIGN * 0.5
    cells = np.floor(pixels / step).astype(np.int32)
    keys = (cells[:, 0] * 64 + cells[:, 1]) * 64 + cells[:, 2]
    least = max(1, share * len(pixels))
    if cells.min() >= 0 and cells.max() < 64:
        # Every cell has its own key: count them straight into bins (np.unique sorts).
        kept = np.flatnonzero(np.bincount(keys, minlength=1) >= least)
        kept_cells = np.stack([kept // 4096, kept // 64 % 64, kept % 64], axis=1)
        return ((kept_cells.astype(np.int32) + 0.5) * step).astype(np.float32)
    values, first, counts = np.unique(keys, return_index=True, return_counts=True)
    keep = first[counts >= least]
    return ((cells[keep] + 0.5) * step).astype(np.float32)


def _edge_lines(strips: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each frame strip's mean across its few pixels of thickness, as weighted Lab along the
    edge.  Strips of one thickness are joined end to end and averaged and converted at once:
    both work pixel by pixel along the edge, so the numbers are those of strip by strip, for
    one call each instead of one per strip.

    >>> strips = [np.random.default_rng(k).integers(0, 256, (4, 30 + k, 3), np.uint8)
    ...           for k in range(3)]
    >>> [bool((a == _edge_lines([s])[0]).all()) for a, s in zip(_edge_lines(strips), strips)]
    [True, True, True]
    """
    if len({s.shape[0] for s in strips}) > 1:
        return [line for s in strips for line in _edge_lines([s])]
    joined = np.concatenate(strips, axis=1)
    mean = cv2.resize(joined, (joined.shape[1], 1), interpolation=cv2.INTER_AREA)
    line = (cv2.cvtColor(mean, cv2.COLOR_BGR2LAB)[0].astype(np.float32)
            * np.float32([LIGHTNESS, 1, 1]))
    return np.split(line, np.cumsum([s.shape[1] for s in strips])[:-1])


def _foreign_lines(lines: Sequence[np.ndarray], palettes: Sequence[np.ndarray]
                   ) -> list[np.ndarray]:
    """Along each frame strip's line (from :func:`_edge_lines`): unlike the strip's own plain
    colour and unlike every colour of ``palettes[k]`` (the board's field and checkers, weighted
    Lab; may be empty).  The distances of all lines are taken at once, with the same arithmetic
    as line by line."""
    lengths = [len(line) for line in lines]
    joined = np.concatenate(lines)
    # Each pixel's own strip's plain colour (the median along the strip), one distance for all.
    # (Lines of one length side by side: a median per column is a median per line, in one
    # sort for all of them.)
    medians: list[np.ndarray] = [np.empty(0)] * len(lines)
    for length in set(lengths):
        which = [k for k, n in enumerate(lengths) if n == length]
        side_by_side = column_median(np.stack([lines[k] for k in which], axis=1))
        for k, median in zip(which, side_by_side):
            medians[k] = median
    plain = np.repeat(np.stack(medians), lengths, axis=0)
    diff = joined - plain
    d = np.sqrt(np.square(diff[:, 0]) + np.square(diff[:, 1]) + np.square(diff[:, 2]))
    d_board = np.full(len(joined), np.inf, np.float32)
    starts = np.cumsum([0] + lengths)
    for palette in {id(p): p for p in palettes if len(p)}.values():
        # The lines checked against one palette, at once.
        which = [k for k, p in enumerate(palettes) if p is palette]
        index = np.concatenate([np.arange(starts[k], starts[k + 1]) for k in which])
        d_board[index] = nearest_distance(joined[index], palette)
    off = (d > FOREIGN) & (d_board > PALETTE_SHARE * FOREIGN)
    return np.split(off, starts[1:-1])


def _widened(flags: np.ndarray, reach: int) -> np.ndarray:
    """Flags set within ``reach`` places of a set one: a dilation of a row of flags (the same
    as OpenCV's ``dilate`` with a kernel ``2 reach + 1`` long, nothing grown in from beyond the
    ends), by a running count, for less than the call's own overhead on a few hundred flags.

    >>> _widened(np.array([0, 0, 0, 1, 0, 0, 0, 0, 1], bool), 2).astype(int).tolist()
    [0, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    n = len(flags)
    count = np.zeros(n + 1, np.int32)
    np.cumsum(flags, dtype=np.int32, out=count[1:])
    index = np.arange(n)
    # Set ones in [i - reach, i + reach], clipped to the row.
    return count[np.minimum(index + reach + 1, n)] > count[np.maximum(index - reach, 0)]


def edge_runs(bands: Sequence[Sequence[np.ndarray]], palette: np.ndarray, diameter: float,
              raised: Sequence[Sequence[np.ndarray]] | None = None,
              checker_colours: np.ndarray | None = None) -> list[str]:
    """Edges along which the frame is crossed by something foreign (see the module notes and
    :func:`_foreign_lines`) in both bands at the same place, for at least
    :data:`MIN_RUN_DIAMETERS` of a checker.  Along the top and bottom edges the board's colours
    are not asked about (see :data:`PALETTE_SHARE`).  ``raised`` (per band and edge, flags
    along the strip, from :func:`band_cover`) marks places that checkers seen raised cover:
    there a colour near one of ``checker_colours`` (weighted Lab) is that checker, not an arm
    (an arm reaching in over a checker keeps its own colour)."""
    found: list[str] = []
    if len(bands) < 2:
        return found
    edges_seen = [k for k in range(len(EDGE_NAMES))
                  if bands[0][k].size and bands[1][k].size]
    if not edges_seen:
        return found
    strips = [bands[0][k] for k in edges_seen] + [bands[1][k] for k in edges_seen]
    none = palette[:0]
    colours = [palette if EDGE_NAMES[k] in ("left", "right") else none for k in edges_seen]
    lines = _edge_lines(strips)
    offs = _foreign_lines(lines, colours + colours)
    if raised is not None and checker_colours is not None and len(checker_colours):
        covers = [raised[0][k] for k in edges_seen] + [raised[1][k] for k in edges_seen]
        asked = [k for k, (off, cover) in enumerate(zip(offs, covers)) if (off & cover).any()]
        if asked:  # the lines with anything to ask about, at once
            near = nearest_distance(np.concatenate([lines[k] for k in asked]),
                                    checker_colours) <= FOREIGN
            for k, part in zip(asked, np.split(near, np.cumsum([len(lines[k])
                                                                for k in asked])[:-1])):
                offs[k] = offs[k] & ~(covers[k] & part)
    reach = max(1, int(diameter / 3))
    # The edges' lines end to end, ``reach`` unset flags between two: a run or a widening
    # cannot cross from one edge into the next, so one pass over all of them finds each
    # edge's runs as edge by edge would, for one set of numpy calls instead of one per edge.
    count = len(edges_seen)
    gap = np.zeros(reach, bool)

    def joined(lines: Sequence[np.ndarray]) -> np.ndarray:
        return np.concatenate([part for line in lines for part in (line, gap)])

    off = joined(offs[:count]) & _widened(joined(offs[count:]), reach)
    starts = np.cumsum([0] + [len(line) + reach for line in offs[:count - 1]])
    edges = np.flatnonzero(np.diff(np.concatenate([[0], off.astype(np.int8), [0]])))
    longest = np.zeros(count, np.int64)
    if len(edges):
        run_starts, run_stops = edges[::2], edges[1::2]
        np.maximum.at(longest, np.searchsorted(starts, run_starts, side="right") - 1,
                      run_stops - run_starts)
    for i, k in enumerate(edges_seen):
        if longest[i] >= MIN_RUN_DIAMETERS * diameter:
            found.append(EDGE_NAMES[k])
    return found
