"""Small stacks whose last checker shows a faint rim: a pair painted like its point, or a
stack's last checker on paint of its colour (:func:`vision.checkers._paint_stack_ends`).

The second checker of a pair lies where the triangle has narrowed, so its far arc's outer
directions cross the triangle's sides; its rim is judged on the directions near the axis
(:func:`vision.checkers._far_axis_circle_step`), which stay on the paint.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from vision.checkers import LONE_RIM_STEP, _far_axis_circle_step
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board

GEOMETRY = BoardGeometry.default(aspect=0.9)
RADIUS = GEOMETRY.checker_radius
WOOD = (60, 110, 170)
NAVY, NAVY_RIM = (70, 40, 30), (100, 70, 60)
COLUMN = 2
#: A second checker's centre: three radii from the bottom edge, where the triangle narrows.
SECOND = (GEOMETRY.column_x(COLUMN), GEOMETRY.height - 3.0 * RADIUS)


def _lab(second: bool) -> np.ndarray:
    """Wood with a navy bottom point 2 (its tip 9 radii from the edge, as on real boards),
    optionally a navy checker with a faint lighter rim at :data:`SECOND`; as float Lab."""
    h, w = GEOMETRY.height, GEOMETRY.width
    field = np.full((h, w, 3), WOOD, np.uint8)
    x, half = GEOMETRY.column_x(COLUMN), GEOMETRY.point_width / 2
    corners = np.array([[x - half, h], [x + half, h], [x, h - 9 * RADIUS]])
    cv2.fillPoly(field, [np.rint(corners * 16).astype(np.int32)], NAVY, cv2.LINE_AA, 4)
    if second:
        centre = (int(round(SECOND[0])), int(round(SECOND[1])))
        cv2.circle(field, centre, int(round(RADIUS)), NAVY_RIM, -1, cv2.LINE_AA)
        cv2.circle(field, centre, int(round(0.92 * RADIUS)), NAVY, -1, cv2.LINE_AA)
    return cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)


def test_axis_circle_sees_a_faint_rim_near_the_tip() -> None:
    lightness = np.ascontiguousarray(_lab(True)[:, :, 0])
    assert _far_axis_circle_step(lightness, *SECOND, RADIUS, False) >= LONE_RIM_STEP


def test_axis_circle_of_bare_paint_near_the_tip_is_flat() -> None:
    lightness = np.ascontiguousarray(_lab(False)[:, :, 0])
    assert _far_axis_circle_step(lightness, *SECOND, RADIUS, False) < LONE_RIM_STEP


@functools.lru_cache(maxsize=None)
def _read(seed: int):
    """A hard synthetic board and its reading with the renderer's corners."""
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    return scene.truth, BoardReader().read(scene.image, corners=scene.corners)


@pytest.mark.parametrize("seed, row, column", [
    (695, "bottom", 11),  # black pair on black paint, the first read alone before
    (651, "bottom", 10),  # red pair on red paint, read empty before
    (2902, "top", 8),     # black pair, the second's rim just short of the threshold
])
def test_pair_of_its_points_paint_is_read_whole(seed: int, row: str, column: int) -> None:
    truth, seen = _read(seed)
    want = getattr(truth, row)[column]
    got = getattr(seen, row)[column]
    assert want is not None and want.count == 2
    assert got is not None and got.count == 2


def test_lone_checker_of_its_points_paint_stays_alone() -> None:
    # Seed 651 bottom[6]: a red checker alone on red paint, the paint beyond it of its colour.
    truth, seen = _read(651)
    assert truth.bottom[6] is not None and truth.bottom[6].count == 1
    assert seen.bottom[6] is not None and seen.bottom[6].count == 1


@pytest.mark.parametrize("seed, row, column", [
    (5922, "bottom", 8),  # black on black, glare lighting the point beyond it: read 2 before
    (5963, "top", 2),     # black on black, the point narrowing into the field: read 2 before
])
def test_the_paint_beyond_a_lone_checker_of_its_point_is_no_second_checker(
        seed: int, row: str, column: int) -> None:
    """The bare point one touching step beyond a lone checker of its paint rings on the
    checker's rim behind it and on the triangle's sides; its far arc steps only faintly and
    as a ramp (see :data:`vision.checkers.PAINT_END_FAINT`), where a checker shows its rim."""
    truth, seen = _read(seed)
    want = getattr(truth, row)[column]
    got = getattr(seen, row)[column]
    assert want is not None and want.count == 1
    assert got is not None and got.count == 1
