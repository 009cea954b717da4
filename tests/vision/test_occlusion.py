"""Something over the board, from one frame: the renderer's hands, and frames without any."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from engine.position import Position
from vision.occlusion import LIGHTNESS, band_cover, edge_runs, find_occlusion
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board
from vision.solid import CameraPose

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


def _plain_bands(width: int, height: int) -> list[list[np.ndarray]]:
    """Both frame bands of a plain wooden frame: strips along the top, right, bottom, left."""
    return [[np.full((4, length, 3), (60, 90, 130), np.uint8)
             for length in (width, height, width, height)] for _ in range(2)]


def test_an_arm_across_the_frame_is_found_on_its_own_edge_only():
    diameter = 30.0
    bands = _plain_bands(320, 280)
    for band in bands:  # something blue across both bands of the bottom edge, at its far end
        band[2][:, 290:] = (200, 60, 20)
    assert edge_runs(bands, np.zeros((0, 3), np.float32), diameter) == ["bottom"]


def test_short_foreign_runs_at_the_ends_of_two_edges_do_not_join():
    # Each run is shorter than MIN_RUN_DIAMETERS checkers; the top line ends where the right
    # one begins (they meet at the corner), so run together they would be long enough.
    diameter = 30.0
    bands = _plain_bands(320, 280)
    for band in bands:
        band[0][:, 310:] = (200, 60, 20)
        band[1][:, :10] = (200, 60, 20)
    assert edge_runs(bands, np.zeros((0, 3), np.float32), diameter) == []


def test_raised_checker_tops_over_the_far_frame_are_not_an_arm():
    # Two white checkers at the top edge, seen from the bottom edge's seat: their tops are seen
    # 12 pixels further up, over both frame bands.  An arm of its own colour there still is one.
    geometry = BoardGeometry.default(0.88)
    radius = geometry.checker_radius
    checkers = [(geometry.column_x(3), radius), (geometry.column_x(4), radius)]
    tops = np.array([[1.0, 0, 0], [0, 1.0, -12.0], [0, 0, 1]])
    raised = band_cover(geometry, checkers, radius, tops)
    across = np.flatnonzero(raised[1][0])  # where the farther band is covered
    assert len(across) > 2 * radius
    colours = WHITE_BLACK * np.float32([LIGHTNESS, 1, 1])
    white = cv2.cvtColor(np.uint8([[[235, 128, 128]]]), cv2.COLOR_LAB2BGR)[0, 0]
    bands = _plain_bands(geometry.width, geometry.height)
    for band in bands:
        band[0][:, across[0]: across[-1] + 1] = white
    assert edge_runs(bands, np.zeros((0, 3), np.float32), 2 * radius) == ["top"]
    assert edge_runs(bands, np.zeros((0, 3), np.float32), 2 * radius, raised, colours) == []
    for band in bands:
        band[0][:, across[0]: across[-1] + 1] = (200, 60, 20)  # a blue sleeve over them
    assert edge_runs(bands, np.zeros((0, 3), np.float32), 2 * radius, raised,
                     colours) == ["top"]


@pytest.mark.slow
@pytest.mark.parametrize("azimuth, edge", [(0.0, "top"), (180.0, "bottom")])
def test_far_checkers_seen_from_a_seat_are_not_an_arm(azimuth, edge):
    # The start position photographed from a seat 58 degrees from vertical: the far edge's
    # checkers' tops stand over the frame beyond it (called an arm on that edge before).
    options = RenderOptions(seed=1, hard=False, hands=False, solid=True,
                            pose=CameraPose(58.0, azimuth))
    scene = render_board(Position.start(), options)
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert not obs.occluded, obs.notes


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
