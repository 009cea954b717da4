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

from calibration.geometry import BoardGeometry
from vision.checkers import (
    OFF_PAINT, SAME_PAINT, _Candidates, _paint_gap, _paint_lone, find_checkers,
)
from vision.reader import rectify
from vision.render import RenderOptions, render_board
from vision.rings import RingScorer

GEOMETRY = BoardGeometry.default(aspect=0.9)
RADIUS = GEOMETRY.checker_radius
WOOD = (60, 110, 170)
SAND = (150, 190, 200)
COLUMN = 2
CENTRE = (GEOMETRY.column_x(COLUMN), GEOMETRY.height - 1.05 * RADIUS)
SIBLINGS = [("bottom", 0), ("bottom", 4)]


def _field(kind: str) -> np.ndarray:
    """Wood with sand bottom points 0..5 (BGR) and on point 2's base: nothing (``empty``), a
    broad glare spot centred there (``glare``), or a checker a little darker than the sand
    with a darker rim line (``line``) or with its face's edge as its rim (``step``)."""
    h, w = GEOMETRY.height, GEOMETRY.width
    field = np.full((h, w, 3), WOOD, np.float32)
    half = GEOMETRY.point_width / 2
    for column in range(6):
        x = GEOMETRY.column_x(column)
        corners = np.array([[x - half, h], [x + half, h], [x, 0.6 * h]])
        paint = np.zeros((h, w), np.uint8)
        cv2.fillPoly(paint, [np.rint(corners * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        field += (paint[:, :, None] / 255.0) * (np.float32(SAND) - np.float32(WOOD))
    centre = (int(round(CENTRE[0])), int(round(CENTRE[1])))
    if kind == "glare":
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        spot = np.exp(-((xs - CENTRE[0]) ** 2 + (ys - CENTRE[1]) ** 2) / (2 * (1.2 * RADIUS) ** 2))
        field += 30 * spot[:, :, None]
    elif kind in ("line", "step"):
        face = tuple(0.9 * c for c in SAND)
        rim = tuple(0.75 * c for c in SAND) if kind == "line" else face
        disc = np.zeros((h, w, 3), np.float32)
        cv2.circle(disc, centre, int(round(RADIUS)), rim, -1, cv2.LINE_AA)
        cv2.circle(disc, centre, int(round(0.9 * RADIUS)), face, -1, cv2.LINE_AA)
        inside = np.zeros((h, w), np.uint8)
        cv2.circle(inside, centre, int(round(RADIUS)), 255, -1, cv2.LINE_AA)
        share = inside[:, :, None] / 255.0
        field = field * (1 - share) + disc * share
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


@pytest.mark.parametrize("seed, row, column, count", [
    (1057, "top", 4, 0),  # glare lifting a walnut board's ivory base
    (1549, "bottom", 10, 0),  # glare on a green-cork base
    (2801, "top", 9, 0),  # glare on a green-cork base
    (1819, "bottom", 4, 1),  # a checker near its point's paint: a faint step, a clear line
    (595, "top", 1, 1),  # a checker near its point's paint: a step, no line
])
def test_hard_renders_near_paint_decisions(seed, row, column, count):
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    truth = getattr(scene.truth, row)[column]
    assert (truth.count if truth else 0) == count
    rect = rectify(scene.image, scene.corners)
    found = find_checkers(rect.field, rect.geometry)
    assert found.row(row)[column].count == count
