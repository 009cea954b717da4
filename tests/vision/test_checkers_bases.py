"""Checkers against empty point bases.

An empty point's base (the wide end of its triangle, against the field's edge) rings like a
checker: the triangle's sides and the edge give radial gradient on most of a checker-sized ring.
Only toward the point's tip does the ring cross the triangle's plain inside, while a lone
checker's rim shows there too.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from vision.checkers import COVERAGE_THRESHOLD, LONE_FAR_ARC, _chain, find_checkers
from vision.rings import RingScorer
from vision.reader import rectify
from vision.render import RenderOptions, render_board

GEOMETRY = BoardGeometry.default(aspect=0.9)
WOOD, IVORY, SHADE = (60, 110, 170), (225, 235, 240), (150, 160, 165)


def _bottom_triangle(field: np.ndarray, column: int, colour: tuple[int, int, int]) -> None:
    """Draw the point ``column`` of the bottom row: base on the field's edge, tip 0.4 up."""
    x, half = GEOMETRY.column_x(column), GEOMETRY.point_width / 2
    h = GEOMETRY.height
    corners = np.array([[x - half, h], [x + half, h], [x, 0.6 * h]])
    cv2.fillPoly(field, [np.rint(corners * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _board(lone_checker_on: int | None) -> np.ndarray:
    """A wooden field with ivory bottom points 0..5, one ivory checker (shaded rim) on one."""
    field = np.full((GEOMETRY.height, GEOMETRY.width, 3), WOOD, np.uint8)
    for column in range(6):
        _bottom_triangle(field, column, IVORY)
    if lone_checker_on is not None:
        radius = GEOMETRY.checker_radius
        centre = (int(round(GEOMETRY.column_x(lone_checker_on))),
                  int(round(GEOMETRY.height - 1.05 * radius)))
        cv2.circle(field, centre, int(round(radius)), SHADE, -1, cv2.LINE_AA)
        cv2.circle(field, centre, int(round(0.88 * radius)), IVORY, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(field, (0, 0), 0.8)


def test_an_empty_base_shows_no_rim_toward_the_tip_and_a_lone_checker_does():
    radius = GEOMETRY.checker_radius
    y = GEOMETRY.height - 1.05 * radius
    x = np.array([GEOMETRY.column_x(2)], np.float32)
    empty = RingScorer(_board(None), radius).coverage(x, np.array([y], np.float32), False)
    checker = RingScorer(_board(2), radius).coverage(x, np.array([y], np.float32), False)
    assert empty[3][0] < LONE_FAR_ARC <= checker[3][0]
    assert checker[0][0] >= COVERAGE_THRESHOLD


def test_ivory_points_read_empty_and_a_lone_ivory_checker_is_found():
    found = find_checkers(_board(4), GEOMETRY)
    counts = [s.count for s in found.row("bottom")[:6]]
    assert counts == [0, 0, 0, 0, 1, 0]


def test_a_lone_candidate_needs_its_rim_toward_the_tip():
    """The same ring evidence all round, with and without the arc toward the tip."""
    radius = 10.0
    ys, full = np.array([10.0], np.float32), np.array([0.9], np.float32)
    args = (ys, full, full.copy(), full.copy(), radius, COVERAGE_THRESHOLD, 200.0)
    assert _chain(*args, far_arc=np.array([1.0], np.float32))[0] == [0]
    assert _chain(*args, far_arc=np.array([0.5], np.float32))[0] == []
    assert _chain(*args)[0] == [0]  # without the arc's evidence nothing changes


@pytest.mark.parametrize("seed", [9, 268])
def test_hard_renders_read_empty_points_empty(seed):
    """Hard synthetic frames where an empty point's base once read as one checker."""
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    rect = rectify(scene.image, scene.corners)
    found = find_checkers(rect.field, rect.geometry)
    truth = {"top": scene.truth.top, "bottom": scene.truth.bottom}
    for stack in found.stacks[:24]:
        if truth[stack.row][stack.column] is None:
            assert stack.count == 0, (stack.row, stack.column)
