"""Checker columns found where the checkers are, when the corners given sit a little off.

Real corners are clicked by hand or found automatically; either may land on the frame's lip or
make a slightly skewed quadrilateral, which shifts whole quarters of points sideways in the
warped field.  Frames are drawn by the renderer.
"""
from __future__ import annotations

import numpy as np
import pytest
from checker_frames import assert_drawn_board_read_exactly, bottom_left_out

from calibration.geometry import BoardGeometry
from engine.position import Position
from vision.checkers import find_checkers
from vision.reader import rectify
from vision.render import RenderOptions, render_board

#: Single checkers and a short stack in the bottom-left quarter, where a bottom-left corner
#: placed too far out shifts the columns most.
POSITION = Position.from_points(x={12: 1, 10: 1, 8: 3, 6: 5, 13: 5},
                                o={23: 2, 20: 5, 16: 3, 14: 1, 5: 4})


def _left_side_in(corners, share: float):
    """The corners with the left side moved inward by ``share`` of the field width (corners
    found a little inside the field): the outermost checkers are cut by the image's side."""
    quad = np.asarray(corners, float)
    quad[0] = quad[0] + share * (quad[1] - quad[0])
    quad[3] = quad[3] + share * (quad[2] - quad[3])
    return tuple(map(tuple, quad))


@pytest.mark.parametrize("seed", [1, 2])
def test_checkers_cut_by_the_image_side_are_still_read(seed):
    assert_drawn_board_read_exactly(POSITION, seed, lambda c: _left_side_in(c, 0.02), dice=False)


@pytest.mark.parametrize("seed", [0, 3])
def test_quarter_shifted_by_a_corner_off_the_field_is_still_read(seed):
    # 4% of the bottom edge: the outermost column moves by more than half a checker.
    assert_drawn_board_read_exactly(POSITION, seed, lambda c: bottom_left_out(c, 0.04))


def test_columns_where_the_geometry_puts_them_are_not_moved():
    """With exact corners the checkers found sit on their columns: the second look does not
    move them (found centres stay within the lateral search around each column)."""
    scene = render_board(POSITION, RenderOptions(seed=5, hard=False))
    rect = rectify(scene.image, scene.corners)
    findings = find_checkers(rect.field, rect.geometry)
    geometry: BoardGeometry = rect.geometry
    for stack in findings.stacks[:24]:
        for x, _ in stack.centres:
            assert abs(x - geometry.column_x(stack.column)) <= 0.2 * geometry.point_width
