"""Corners clicked loosely, snapped to the field's edges seen in the frame.

A user clicks the playing field's four corners a few pixels inside or outside the field, on the
frame's outer edge or on its lip.  The reader warps the field from those corners, so a corner a
few per cent off shifts the points under it by a good part of a point: checkers on the first or
last point are cut or missed.  :func:`snap_corners` moves the given corners onto the field's own
edges nearby, with the sharpening the automatic localisation uses
(:func:`calibration.locate.refine_corners`: the long sides on the innermost long straight edge
with the points' pattern just inside, the short sides where six equal points fit between them
and the bar, all polished on the nearest clear straight edge), and keeps the given corners
whenever the evidence is not clear.

Started on corners that are right, the fit now and then puts a side on another edge: an end on
the frame's outer rim a point out, a long side on the frame's lip or along a row of checkers
inside the field.  Such a side shows the field's edge far less clearly than the given one, or
has the points' pattern going on beyond it (:func:`calibration.locate.side_evidence`: the
points' detail just inside against plain frame just outside; the points' bases beyond a long
side), so a side whose contrast the fit lowers by more than :data:`SIDE_VETO`, or a long side
with more of the points' pattern beyond it by :data:`BEYOND_RISE`, stays where it was given; the
others go where the fit put them (a loose click's side, half on points and half on frame, shows
the edge less clearly than the field's own edge, and where it runs into the field the points'
bases lie beyond it, so the fit to the field's edge seldom lowers the one or raises the other).
Then:

* a snap that moves no corner by more than :data:`SNAP_DEAD_ZONE` of the field's diagonal is
  not made (corners that good read as well as any; the edge fit itself is only that sure);
* a fit that moves a corner by more than :data:`MAX_SNAP` is refused, before any side is kept:
  a loose click is a few per cent off, so an outline that far away is another edge (a tray,
  the board's outer rim), and its other sides are no surer;
* a snap whose field looks less like a backgammon field (the points' pattern and the bar,
  :func:`calibration.locate.board_score`) than the given one, by more than
  :data:`WORSE_PATTERN`, is refused.

It costs about a fifth of a second: do it once per set of corners (a calibration, a camera
whose corners stay put), not on every frame.

>>> snap_corners(np.zeros((200, 300, 3), np.uint8), ((50, 40), (250, 40), (250, 160), (50, 160))).snapped
False
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from calibration.geometry import Corners, GeometryError, check_corners

#: Largest corner movement (share of the field's diagonal) that is not worth making: corners
#: within about a per cent read as well as exact ones, while the edge fit, started on exact
#: corners, strays by a few tenths of a per cent up to 2% (synthetic seeds 0-3999; moves of
#: 1.04%, 1.10% and 1.19% there each cost a board).  Corners clicked 2% of an edge off that the
#: fit moves by less than this read about as well unsnapped (synthetic hard 0-199, every way, 1000
#: frames: one board fewer read exact than with a dead zone of 1%).
SNAP_DEAD_ZONE = 0.012
#: Largest corner movement (share of the field's diagonal) a snap may make: a click 4% of the
#: edges off along and across is about 4.3% of the diagonal off; started on exact corners the
#: edge fit jumps to another outline (a point over) by 4-8% on about 1% of frames.
MAX_SNAP = 0.05
#: The snapped field's board score may fall below the given field's by this share at most
#: (the score varies a little with any outline; a wrong edge loses the points' rhythm).
WORSE_PATTERN = 0.15
#: A side the fit moved stays where it was given when its edge contrast (-1 to 1, see
#: :func:`calibration.locate.side_evidence`) falls by more than this, or, for a long side, when
#: the share of the points' pattern beyond it rises by more than :data:`BEYOND_RISE`.
#: Synthetic hard seeds 0-3999 on their true corners: of the 546 sides the fit moved off the
#: field's edge, these keep 55 and 48, among them the sides of 11 of the 12 snaps beyond the
#: dead zone that cost a board (the pattern beyond +0.09 to +0.45, or contrast -0.63 to -0.96;
#: not 1262, its left end 1.3% out at -0.21).  Corners clicked 2% and 4% of an edge off every
#: way (seeds 0-199, see :mod:`vision.corner_evaluate`): of the 4491 sides the fit brought
#: nearer the true ones they hold back 22 (contrast down to -0.6, beyond up to +0.16); boards
#: read exact on those 2000 frames, snapped: 1960 (snapped without the vetoes and with a 1% dead
#: zone: 1957; as given: 1703).
SIDE_VETO = 0.3
BEYOND_RISE = 0.08
#: The sides as :func:`calibration.locate.side_evidence` names them, each as the corners it runs
#: between (corners go top-left, top-right, bottom-right, bottom-left).
SIDES = {"top": (0, 1), "right": (1, 2), "bottom": (2, 3), "left": (3, 0)}


@dataclass(frozen=True)
class Snap:
    """The corners to read with, whether they were snapped, how far the farthest corner moved
    (share of the field's diagonal, 0 when kept) and why the given corners were kept."""

    corners: Corners
    snapped: bool
    moved: float
    reason: str = ""


def corner_shift(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> float:
    """The largest distance between matching corners, as a share of ``b``'s longer diagonal.

    >>> corner_shift(((0, 0), (100, 0), (100, 100), (0, 100)), ((0, 0), (100, 0), (100, 100), (0, 90)))
    0.07071067811865475
    """
    p, q = np.asarray(a, np.float64), np.asarray(b, np.float64)
    diagonal = max(np.linalg.norm(q[2] - q[0]), np.linalg.norm(q[3] - q[1]))
    return float(np.linalg.norm(p - q, axis=1).max() / diagonal)


def with_sides(given: Sequence[Sequence[float]], found: Sequence[Sequence[float]],
               moved: set[str]) -> Corners:
    """The outline whose sides named in ``moved`` run as ``found``'s do, the others as
    ``given``'s, its corners where neighbouring sides meet.

    >>> square = ((0, 0), (10, 0), (10, 10), (0, 10))
    >>> wider = ((0, 0), (12, 0), (12, 10), (0, 10))
    >>> moved = with_sides(square, wider, {"right"})
    >>> [tuple(round(v, 6) + 0.0 for v in corner) for corner in moved]
    [(0.0, 0.0), (12.0, 0.0), (12.0, 10.0), (0.0, 10.0)]
    >>> with_sides(square, wider, set()) == tuple(map(tuple, np.asarray(square, float).tolist()))
    True
    """
    from calibration.locate import line_intersection

    g, f = np.asarray(given, np.float64), np.asarray(found, np.float64)
    lines = {name: tuple(map(tuple, (f if name in moved else g)[list(ends)]))
             for name, ends in SIDES.items()}
    order = (("left", "top"), ("top", "right"), ("right", "bottom"), ("bottom", "left"))
    return tuple((float(x), float(y)) for x, y in  # type: ignore[return-value]
                 (line_intersection(lines[a], lines[b]) for a, b in order))


def snap_corners(frame: np.ndarray, corners: Sequence[Sequence[float]]) -> Snap:
    """The given corners moved onto the field's edges found near them, or kept (see the module
    notes).  ``frame`` is BGR (a fourth channel is ignored); raises
    :class:`~calibration.geometry.GeometryError` for corners that are no field at all."""
    from calibration.locate import board_score, refine_corners, side_evidence, work_copy

    given = check_corners(corners)
    image = frame[..., :3] if frame.ndim == 3 and frame.shape[2] == 4 else frame
    try:
        found = check_corners(refine_corners(image, np.asarray(given, np.float64)))
    except GeometryError:
        return Snap(given, False, 0.0, "no field found near the corners")
    moved = corner_shift(found, given)
    if moved < SNAP_DEAD_ZONE:
        return Snap(given, False, 0.0, "the corners lie on the field's edges")
    if moved > MAX_SNAP:
        return Snap(given, False, 0.0, f"the nearest field outline is {100 * moved:.1f}% away")
    # Each side goes where the fit put it unless it shows the field's edge far less clearly
    # there, or the points' pattern beyond it (the fit jumped to another edge).
    small, scale = work_copy(image)
    contrast_before, beyond_before = side_evidence(small, np.asarray(given) * scale)
    contrast_after, beyond_after = side_evidence(small, np.asarray(found) * scale)
    kept = {name for name in SIDES if contrast_after[name] < contrast_before[name] - SIDE_VETO}
    kept |= {name for name in beyond_before
             if beyond_after[name] > beyond_before[name] + BEYOND_RISE}
    if kept:
        try:
            found = check_corners(with_sides(given, found, set(SIDES) - kept))
        except GeometryError:
            return Snap(given, False, 0.0, "no field found near the corners")
        moved = corner_shift(found, given)
        if moved < SNAP_DEAD_ZONE:
            return Snap(given, False, 0.0, "the corners lie on the field's edges (the fit moved "
                        + " and ".join(sorted(kept)) + " off them)")
    before, _ = board_score(image, given)
    after, _ = board_score(image, found)
    if after < (1 - WORSE_PATTERN) * before:
        return Snap(given, False, 0.0, "the snapped field shows the points less clearly")
    return Snap(found, True, moved)
