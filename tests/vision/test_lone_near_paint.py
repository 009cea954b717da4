"""A lone reading whose middle is near its point's paint but not of it (glare, a shade).

Glare or a shade lifts a bare base's colour a little off the paint of its empty twins (more
than :data:`vision.checkers.SAME_PAINT`, less than :data:`vision.checkers.OFF_PAINT`), so its
ring passes for a checker of a colour of its own.  Such a reading must show a rim on its far
arc, either as a step in colour (:func:`vision.checkers._far_step`) or as a line beyond the
lightness of both its sides (:func:`vision.checkers._far_rim_line`); glare's edge is a ramp
and shows neither.  A checker of a colour close to the paint's shows one of them.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from checker_frames import (
    POINTS_CENTRE as CENTRE, POINTS_COLUMN as COLUMN, POINTS_GEOMETRY as GEOMETRY,
    POINTS_RADIUS as RADIUS, painted_points, with_disc,
)
from vision.checkers import OFF_PAINT, SAME_PAINT, _Candidates, _paint_gap, _paint_lone
from vision.rings import RingScorer

WOOD = (60, 110, 170)
SAND = (150, 190, 200)
SIBLINGS = [("bottom", 0), ("bottom", 4)]


def _field(kind: str) -> np.ndarray:
    """Wood with sand bottom points 0..5 (BGR) and on point 2's base: nothing (``empty``), a
    broad glare spot centred there (``glare``), or a checker a little darker than the sand
    with a darker rim line (``line``) or with its face's edge as its rim (``step``)."""
    field = painted_points(WOOD, SAND)
    if kind == "glare":
        h, w = field.shape[:2]
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        spot = np.exp(-((xs - CENTRE[0]) ** 2 + (ys - CENTRE[1]) ** 2) / (2 * (1.2 * RADIUS) ** 2))
        field += 30 * spot[:, :, None]
    elif kind in ("line", "step"):
        face = tuple(0.9 * c for c in SAND)
        rim = tuple(0.75 * c for c in SAND) if kind == "line" else face
        field = with_disc(field, face, rim, 0.9)
    return cv2.GaussianBlur(np.clip(field, 0, 255).astype(np.uint8), (0, 0), 0.8)


def _reading(field: np.ndarray) -> tuple[RingScorer, dict, dict]:
    scorer = RingScorer(field, RADIUS)
    x = np.array([CENTRE[0]], np.float32)
    y = np.array([CENTRE[1]], np.float32)
    share = np.array([0.9], np.float32)
    cand = _Candidates(np.array([1.05 * RADIUS], np.float32), x, y, share, share.copy(),
                       share.copy(), scorer.colour_at(x, y), np.array([1.0], np.float32))
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    return scorer, {("bottom", COLUMN): cand}, centres


@pytest.mark.parametrize("kind, empty", [("glare", True), ("line", False), ("step", False)])
def test_a_reading_near_its_paint_needs_a_rim_step_or_line(kind, empty):
    scorer, candidates, centres = _reading(_field(kind))
    # Each case is near the paint but not of it: the band this test is about.
    gap = _paint_gap(scorer, candidates["bottom", COLUMN], 0, SIBLINGS, centres)
    assert SAME_PAINT <= gap < OFF_PAINT
    found = _paint_lone(scorer, candidates, [(("bottom", COLUMN), 0, SIBLINGS)], centres, RADIUS)
    assert found == ([("bottom", COLUMN)] if empty else [])
