"""The board check: an arm over the field is "occluded", moved checkers are "ok", and files
written before the board picture existed still load and check."""
from __future__ import annotations

import json
import cv2
import numpy as np
import pytest

from calibration.calibration import Calibration
from vision.render import CHECKER_SCHEMES, RenderOptions, render_board

BASE = dict(camera_seed=60, hard=False, scheme=CHECKER_SCHEMES[0], dice=False, hands=False)


@pytest.fixture(scope="module")
def calibrated() -> tuple[Calibration, np.ndarray]:
    scene = render_board(None, RenderOptions(seed=60, **BASE))
    return Calibration(corners=scene.corners).with_signature(scene.image), scene.image


def _arm(image: np.ndarray, corners, start: float, end: float, width: float = 0.1,
         colour=(150, 185, 230)) -> np.ndarray:
    """A straight sleeve from beyond the field's top edge to ``end`` of the way down, entering
    at ``start`` of the way along the top edge (shares of the field)."""
    tl, tr, br, bl = (np.asarray(c, float) for c in corners)
    top = tl + (tr - tl) * start
    bottom_edge = bl + (br - bl) * (start + 0.1)
    tip = top + (bottom_edge - top) * end
    outside = top - (bottom_edge - top) * 0.5
    out = image.copy()
    thickness = int(width * np.linalg.norm(tr - tl))
    cv2.line(out, tuple(int(v) for v in outside), tuple(int(v) for v in tip), colour, thickness)
    return out


def test_other_checkers_are_ok(calibrated):
    cal, image = calibrated
    assert cal.check(image) == "ok"
    later = render_board(None, RenderOptions(seed=61, **BASE))
    assert cal.check(later.image) == "ok"


def test_an_arm_over_the_field_is_occluded(calibrated):
    cal, image = calibrated
    assert cal.check(_arm(image, cal.corners, 0.6, 0.7)) == "occluded"


def test_an_arm_from_beyond_the_view_is_occluded(calibrated):
    """The camera's view ends at the board's edge (as in tournament streams): the arm's
    sleeve is cut off by the frame's border and only its part over the field is seen."""
    cal, image = calibrated
    top = int(min(cal.corners[0][1], cal.corners[1][1])) - 2
    corners = tuple((x, y - top) for x, y in cal.corners)
    reference = image[top:]
    cal_cut = Calibration(corners=corners).with_signature(reference)
    assert cal_cut.check(reference) == "ok"
    assert cal_cut.check(_arm(image, cal.corners, 0.3, 0.75)[top:]) == "occluded"


def test_a_tall_stack_of_checkers_is_not_an_arm(calibrated):
    """Many checkers on one point reach past the middle; they stand upright on the point."""
    cal, image = calibrated
    tl, tr, br, bl = (np.asarray(c, float) for c in cal.corners)
    pitch = np.linalg.norm(tr - tl) / 13
    column = tl + (tr - tl) * (1.5 / 13)
    down = (bl - tl) / np.linalg.norm(bl - tl)
    stacked = image.copy()
    for k in range(9):
        centre = column + down * (0.5 + k * 0.85) * pitch * 0.92
        cv2.circle(stacked, tuple(int(v) for v in centre), int(0.45 * pitch), (235, 235, 235), -1)
    assert cal.check(stacked) == "ok"


def test_a_bump_is_still_moved(calibrated):
    cal, image = calibrated
    assert cal.check(np.roll(image, (20, 35), axis=(0, 1))) == "moved"


def test_files_without_the_board_picture_still_load_and_check(calibrated):
    cal, image = calibrated
    data = json.loads(cal.to_json())
    del data["board_picture"]
    old = Calibration.from_json(json.dumps(data))
    assert old.board_picture == ()
    assert old.check(image) == "ok"
    assert Calibration.from_json(cal.to_json()) == cal


def test_checkers_borne_off_into_a_tray_are_ok():
    """Bearing off fills a side tray, which lies in the band the check watches: that is a game
    going on, not a hand."""
    from engine.position import Position
    home = {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}
    before = Position.from_points(home, home)
    after = Position.from_points({3: 2, 4: 2, 5: 2, 6: 2}, {1: 1, 2: 2, 3: 3, 4: 2, 5: 2, 6: 2})
    options = dict(camera_seed=70, hard=False, scheme=CHECKER_SCHEMES[70 % len(CHECKER_SCHEMES)],
                   dice=False, hands=False)
    first = render_board(before, RenderOptions(seed=70, **options))
    later = render_board(after, RenderOptions(seed=70, **options))
    assert later.tray_side is not None
    cal = Calibration(corners=first.corners).with_signature(first.image)
    assert cal.check(later.image) == "ok"


@pytest.mark.parametrize("height", [0.3, 0.5, 0.7])
def test_a_sleeve_over_a_short_side_stopping_at_the_field_is_occluded(calibrated, height):
    """A sleeve over the frame beside a short side (where the side trays are), stopping at the
    field's edge: it hides little of the field, but it is a hand over the board all the same."""
    cal, image = calibrated
    tl, tr, br, bl = (np.asarray(c, float) for c in cal.corners)
    edge = tl + (bl - tl) * height
    inward = (tr - tl) / np.linalg.norm(tr - tl)
    sleeve = image.copy()
    thickness = int(0.1 * np.linalg.norm(bl - tl))
    cv2.line(sleeve, tuple(int(v) for v in edge - inward * 300), tuple(int(v) for v in edge),
             (150, 185, 230), thickness)
    assert cal.check(sleeve) == "occluded"


@pytest.mark.parametrize("camera", [0, 4])
def test_a_hand_over_a_side_tray_is_occluded(camera):
    """Rendered arms reaching in over a side tray (cameras 0 and 4 of the locate evaluation's
    board check): the trays' band does not vote by its mean change (borne-off checkers fill it),
    so the arm is told by crossing the frame from outside to the field's edge."""
    options = dict(camera_seed=camera, hard=True)
    reference = render_board(None, RenderOptions(seed=camera, hands=False, **options))
    cal = Calibration(corners=reference.corners).with_signature(reference.image)
    hand = render_board(None, RenderOptions(seed=camera + 2000, hands=True, **options))
    assert cal.check(hand.image) == "occluded"


def test_stacks_from_both_rows_that_meet_are_not_an_arm(calibrated):
    """A tall stack from the top row meeting a stack on the neighbouring point of the bottom row
    makes one changed region across the field whose middle steps by a point: still one checker
    wide, so a column of checkers, not an arm (rendered cameras 17, 133, 156, 157 of the board
    check were called occluded so)."""
    cal, image = calibrated
    tl, tr, br, bl = (np.asarray(c, float) for c in cal.corners)
    pitch = np.linalg.norm(tr - tl) / 13
    down = (bl - tl) / np.linalg.norm(bl - tl)
    stacked = image.copy()
    for start, step, count in ((tl + (tr - tl) * (1.5 / 13), down, 8),
                               (bl + (br - bl) * (2.5 / 13), -down, 7)):
        for k in range(count):
            centre = start + step * (0.5 + k * 0.85) * pitch * 0.92
            cv2.circle(stacked, tuple(int(v) for v in centre), int(0.45 * pitch), (235, 235, 235), -1)
    assert cal.check(stacked) == "ok"


def _glare(image: np.ndarray, corners, rng: np.random.Generator) -> np.ndarray:
    """A soft bright ellipse between a corner of the field and its middle, as the renderer
    draws glare, at a place the calibration frame did not have it."""
    poly = np.asarray(corners, np.float32)
    centre = poly[rng.integers(0, 4)] * 0.5 + poly.mean(axis=0) * 0.5 + rng.normal(0, 30, 2)
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.ellipse(mask, (int(centre[0]), int(centre[1])),
                (int(rng.uniform(30, 120)), int(rng.uniform(15, 60))), rng.uniform(0, 180),
                0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(10, 30))
    return np.clip(image + mask[..., None] * rng.uniform(40, 110), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("camera", [75, 166])
def test_glare_moved_onto_the_board_is_ok(camera):
    """Glare reaching from the frame into the field lets the board's detail show through: it is
    light, not an arm (rendered cameras of the board check with glare added)."""
    options = dict(camera_seed=camera, hard=True, hands=False)
    reference = render_board(None, RenderOptions(seed=camera, **options))
    cal = Calibration(corners=reference.corners).with_signature(reference.image)
    later = render_board(None, RenderOptions(seed=camera + 1000, **options))
    glared = _glare(later.image.astype(np.float32), cal.corners, np.random.default_rng(camera + 555))
    assert cal.check(glared) == "ok"
