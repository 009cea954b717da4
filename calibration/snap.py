"""Corners clicked loosely, snapped to the field's edges seen in the frame.

A user clicks the playing field's four corners a few pixels inside or outside the field, on the
frame's outer edge or on its lip.  The reader warps the field from those corners, so a corner a
few per cent off shifts the points under it by a good part of a point: checkers on the first or
last point are cut or missed.  :func:`snap_corners` moves the given corners onto the field's own
edges nearby, with the sharpening the automatic localisation uses
(:func:`calibration.locate.refine_corners`: the long sides on the innermost long straight edge
with the points' pattern just inside, the short sides where six equal points fit between them
and the bar, all polished on the nearest clear straight edge), and keeps the given corners
whenever the evidence is not clear:

* a snap that moves no corner by more than :data:`SNAP_DEAD_ZONE` of the field's diagonal is
  not made (corners that good read as well as any; the edge fit itself is only that sure);
* a snap that moves a corner by more than :data:`MAX_SNAP` is refused: a loose click is a few
  per cent off, so an outline that far away is another edge (a tray, the board's outer rim);
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
#: within a per cent read about as well as exact ones, while the edge fit, started on exact
#: corners, strays by a few tenths of a per cent up to 2% (synthetic seeds 0-2999).
SNAP_DEAD_ZONE = 0.01
#: Largest corner movement (share of the field's diagonal) a snap may make: a click 4% of the
#: edges off along and across is about 4.3% of the diagonal off; started on exact corners the
#: edge fit jumps to another outline (a point over) by 4-8% on about 1% of frames.
MAX_SNAP = 0.05
#: The snapped field's board score may fall below the given field's by this share at most
#: (the score varies a little with any outline; a wrong edge loses the points' rhythm).
WORSE_PATTERN = 0.15


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


def snap_corners(frame: np.ndarray, corners: Sequence[Sequence[float]]) -> Snap:
    """The given corners moved onto the field's edges found near them, or kept (see the module
    notes).  ``frame`` is BGR (a fourth channel is ignored); raises
    :class:`~calibration.geometry.GeometryError` for corners that are no field at all."""
    from calibration.locate import board_score, refine_corners

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
    before, _ = board_score(image, given)
    after, _ = board_score(image, found)
    if after < (1 - WORSE_PATTERN) * before:
        return Snap(given, False, 0.0, "the snapped field shows the points less clearly")
    return Snap(found, True, moved)
