"""Something over the board, from one frame: the renderer's hands, and frames without any."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from engine.position import Position
from vision.occlusion import find_occlusion
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board

WHITE_BLACK = np.float32([[235, 128, 128], [35, 128, 128]])


def _field(geometry: BoardGeometry) -> np.ndarray:
    """A plain field with points of two colours, drawn as columns of triangles."""
    field = np.full((geometry.height, geometry.width, 3), (190, 215, 225), np.uint8)
    colours = [(40, 40, 180), (40, 40, 40)]
    for c in range(12):
        x = geometry.column_x(c)
        half = geometry.point_width / 2
        for row in ("top", "bottom"):
            base = 0 if row == "top" else geometry.height
            tip = geometry.height * (0.4 if row == "top" else 0.6)
            colour = colours[(c + (row == "bottom")) % 2]
            cv2.fillPoly(field, [np.int32([[x - half, base], [x + half, base], [x, tip]])], colour)
    return field


def test_plain_board_is_clear_and_a_patch_over_it_is_not():
    geometry = BoardGeometry.default(0.88)
    field = _field(geometry)
    assert not find_occlusion(field, geometry, WHITE_BLACK).occluded
    covered = field.copy()
    covered[0: 150, 60: 120] = (70, 120, 200)  # an arm from the top edge
    result = find_occlusion(covered, geometry, WHITE_BLACK)
    assert result.occluded and "top-left" in result.places
    assert "hand" in result.note()


def test_checkers_found_are_not_occlusion():
    geometry = BoardGeometry.default(0.88)
    field = _field(geometry)
    centres = []
    for k in range(5):  # a stack of white checkers on the first point
        centre = (geometry.column_x(0), geometry.checker_radius * (1 + 2 * k))
        cv2.circle(field, tuple(int(v) for v in centre), int(geometry.checker_radius),
                   (235, 235, 235), -1)
        centres.append(centre)
    assert not find_occlusion(field, geometry, WHITE_BLACK, centres).occluded


@pytest.mark.slow
def test_renderer_hands_mostly_seen_and_clear_frames_mostly_not():
    reader = BoardReader()
    hands = clear = 0
    seeds = range(203, 207)
    for seed in seeds:
        scene = render_board(None, RenderOptions(seed=seed, hard=False, hands=True))
        hands += bool(reader.read(scene.image, corners=scene.corners).occluded)
        scene = render_board(None, RenderOptions(seed=seed, hard=False, hands=False))
        clear += not reader.read(scene.image, corners=scene.corners).occluded
    assert hands >= 3 and clear == len(seeds), (hands, clear)


def test_start_position_is_not_occluded():
    scene = render_board(Position.start(), RenderOptions(seed=7, hard=False, hands=False))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert obs.occluded is False and not obs.notes
