"""Board geometry: corners, the canonical warp, the bar measured from the image, true aspect."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import (
    BoardGeometry, GeometryError, check_corners, field_aspect, find_bar, parse_corners, warp,
)
from vision.observation import BoardObservation
from vision.render import BOARD_STYLES, CHECKER_SCHEMES, FRAME_SIZE, draw_topdown, random_rows
from vision.solid import CameraPose, SolidView


def test_parse_corners_accepts_spaces_and_rejects_nonsense():
    assert parse_corners(" 1,2 ; 30,2; 30,40 ;1,40") == ((1, 2), (30, 2), (30, 40), (1, 40))
    with pytest.raises(GeometryError, match="x,y"):
        parse_corners("1,2;3,4;5;6,7")
    with pytest.raises(GeometryError, match="clockwise"):
        parse_corners("0,0;0,100;100,100;100,0")  # counter-clockwise in the image
    with pytest.raises(GeometryError, match="no area|clockwise"):
        check_corners([(0, 0), (1, 0), (1, 1), (0, 1)])


def test_columns_are_ordered_and_avoid_the_bar():
    geo = BoardGeometry.default(0.9, bar_fraction=0.08)
    xs = [geo.column_x(i) for i in range(12)]
    assert xs == sorted(xs)
    assert xs[5] < geo.bar_left and xs[6] > geo.bar_right
    assert geo.checker_radius < geo.point_width / 2
    with pytest.raises(GeometryError):
        geo.column_x(12)


@pytest.mark.parametrize("bar_fraction", [0.04, 0.065, 0.09])
@pytest.mark.parametrize("style", BOARD_STYLES[:4], ids=lambda s: s.name)
def test_find_bar_measures_the_drawn_bar(style, bar_fraction):
    rng = np.random.default_rng(7)
    rows = random_rows(rng, CHECKER_SCHEMES[0].names, 10.0, hard=False)
    image, (x0, y0, x1, y1), _ = draw_topdown(rows, style, CHECKER_SCHEMES[0], rng, 640, 0.86,
                                              bar_fraction, dice=False)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    geo = BoardGeometry.default(field_aspect(corners))
    found = find_bar(warp(frame, corners, geo), geo)
    assert found.bar_fraction == pytest.approx(bar_fraction, abs=0.012)
    assert found.bar_x == pytest.approx(geo.width / 2, abs=3)


#: Black points on a black board beside a stack on the left: the comb there fits only 0.49 (not
#: clearly) and the stack's far side fits 0.67 of it, so that side is still taken for the edge.
_COMB_UNCLEAR = pytest.mark.xfail(strict=True, reason="the comb is not clear enough there")


@pytest.mark.parametrize("style, column, azimuth", [
    pytest.param(style, column, azimuth, id=f"{style.name}-{side}",
                 marks=_COMB_UNCLEAR if (style.name, column) == ("black-board", 5) else ())
    for style in BOARD_STYLES for column, azimuth, side in ((5, 270.0, "left"),
                                                            (6, 90.0, "right"))])
def test_find_bar_where_a_stack_hides_an_edge(style, column, azimuth):
    """Fifteen checkers on the point beside the bar, seen as solids from the far end of the
    board at 55 degrees: their tops lean over the bar and hide that edge all along, and the
    stack's far side lies where the edge would be looked for."""
    scheme = CHECKER_SCHEMES[0]
    top, bottom = [None] * 12, [None] * 12
    top[column] = (scheme.names[0], 15)
    bottom[column] = (scheme.names[1], 1)
    rows = BoardObservation.from_rows(top, bottom, scheme.names)
    view = SolidView(CameraPose(55.0, azimuth), np.random.default_rng(5), FRAME_SIZE)
    bar_fraction = 0.06
    image, (x0, y0, x1, y1), _ = draw_topdown(rows, style, scheme, np.random.default_rng(3),
                                              760, 0.86, bar_fraction, dice=False, solid=view)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))  # the board plane, straight on
    geo = BoardGeometry.default(field_aspect(corners), bar_fraction=0.03)
    found = find_bar(warp(frame, corners, geo), geo)
    w = geo.width
    assert found.bar_left == pytest.approx(w * (0.5 - bar_fraction / 2), abs=0.01 * w)
    assert found.bar_right == pytest.approx(w * (0.5 + bar_fraction / 2), abs=0.01 * w)


def test_true_aspect_is_recovered_from_a_tilted_view():
    # A 100 x 85 rectangle seen by a pinhole camera (principal point at the frame centre).
    w, h, focal = 1280, 720, 1100.0
    pts = np.array([[-50, -42.5, 0], [50, -42.5, 0], [50, 42.5, 0], [-50, 42.5, 0]], float)
    tilt, turn = np.radians(38), np.radians(25)
    rot = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    spin = np.array([[np.cos(turn), -np.sin(turn), 0], [np.sin(turn), np.cos(turn), 0], [0, 0, 1]])
    cam = pts @ spin.T @ rot.T + np.array([10, -5, 260])
    image = focal * cam[:, :2] / cam[:, 2:3] + np.array([w / 2, h / 2])
    corners = tuple(map(tuple, image))
    assert field_aspect(corners, (w, h)) == pytest.approx(0.85, abs=0.01)
    assert abs(field_aspect(corners) - 0.85) > 0.05  # the side lengths alone are fooled


def test_aspect_with_an_unobservable_focal_length_assumes_a_typical_lens():
    w, h = 1280, 720
    focal = 0.9 * w
    pts = np.array([[-50, -42.5, 0], [50, -42.5, 0], [50, 42.5, 0], [-50, 42.5, 0]], float)
    tilt = np.radians(35)  # straight away from the camera: the top and bottom edges stay level
    rot = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    cam = pts @ rot.T + np.array([0, 0, 250])
    image = focal * cam[:, :2] / cam[:, 2:3] + np.array([w / 2, h / 2])
    assert field_aspect(tuple(map(tuple, image)), (w, h)) == pytest.approx(0.85, abs=0.02)


def test_warp_maps_corners_to_the_canonical_corners():
    frame = np.zeros((300, 400, 3), np.uint8)
    cv2.circle(frame, (50, 40), 6, (255, 255, 255), -1)
    corners = ((50, 40), (350, 60), (340, 280), (60, 260))
    geo = BoardGeometry.default(0.8)
    field = warp(frame, corners, geo)
    assert field[:4, :4].mean() > 100  # the top-left corner's dot lands at the top left
    assert field[-4:, -4:].mean() < 20
