"""DiceReader on a board tilted straight away from the camera, whose field's corners leave the
lens (hence the board's slant) open: the top and bottom edges of the field look parallel, and
a long lens shows a steeper slant than a short one for the same quadrilateral.  Flat dice that
agree on a slant are read under it; a single die, which cannot tell a steeper slant from its
own lean, is judged as before; a cocked die is never given a number."""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.dice import DiceReader
from vision.dice.render import draw_die

READER = DiceReader()
BOARD_W, BOARD_H = 600, 400
FRAME_W, FRAME_H = 640, 480


def _board_from_above() -> np.ndarray:
    top = np.full((BOARD_H, BOARD_W, 3), (200, 222, 232), np.uint8)          # ivory field
    for k in range(12):
        x0 = k * 46 + (28 if k >= 6 else 0)                                     # a bar in the middle
        for y_base, y_tip in ((0, 160), (BOARD_H, 240)):
            points = np.int32([[x0, y_base], [x0 + 46, y_base], [x0 + 23, y_tip]])
            cv2.fillPoly(top, [points], ((40, 40, 160), (35, 35, 35))[(k + (y_base > 0)) % 2])
    return top


def _seen_by(top: np.ndarray, tilt_deg: float, focal_share: float) -> tuple[np.ndarray, list]:
    """The board (drawn from above) seen by a camera tilted ``tilt_deg`` straight away from it,
    with a lens of ``focal_share`` times the frame's width: the frame and the field's corners."""
    focal, tilt = focal_share * FRAME_W, math.radians(tilt_deg)
    distance = focal * BOARD_W / 560

    def project(x: float, y: float) -> tuple[float, float]:
        u, v = x - BOARD_W / 2, y - BOARD_H / 2
        depth = distance + v * math.sin(tilt)
        return FRAME_W / 2 + focal * u / depth, FRAME_H / 2 + focal * v * math.cos(tilt) / depth

    source = np.float32([[0, 0], [BOARD_W, 0], [BOARD_W, BOARD_H], [0, BOARD_H]])
    corners = np.float32([project(x, y) for x, y in source])
    frame = cv2.warpPerspective(top, cv2.getPerspectiveTransform(source, corners), (FRAME_W, FRAME_H),
                                flags=cv2.INTER_AREA, borderValue=(60, 80, 100))
    noise = np.random.default_rng(0).normal(0, 2.0, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8), [tuple(map(float, c)) for c in corners]


def test_flat_dice_under_a_long_lens_are_read_not_cocked():
    """Two flat dice on a board seen through a long lens: the field's sides alone suggest a
    gentler slant, under which their tops look foreshortened (once called cocked or left
    unread); both dice square under a steeper slant, so they are read."""
    for tilt_deg, focal_share in ((50, 2.0), (40, 1.6)):
        top = _board_from_above()
        draw_die(top, (200, 200), 34, 5, angle_deg=20, style="white")
        draw_die(top, (410, 210), 30, 4, angle_deg=-25, style="red")
        frame, corners = _seen_by(top, tilt_deg, focal_share)
        observation = READER.read(frame, corners)
        assert [(d.value, d.cocked) for d in observation.dice] == [(5, False), (4, False)], tilt_deg


def test_a_cocked_die_beside_flat_ones_under_a_long_lens_gets_no_number():
    """The slant the flat dice agree on does not excuse a die leaning 35 degrees beside them."""
    for angle_deg in (0.0, 60.0):
        top = _board_from_above()
        draw_die(top, (150, 200), 32, 5, angle_deg=20, style="white")
        draw_die(top, (300, 190), 32, 6, angle_deg=-10, style="white")
        drawn = draw_die(top, (460, 205), 32, 4, angle_deg=angle_deg, style="white", cocked=True,
                         tilt_deg=35.0, rng=np.random.default_rng(2))
        frame, corners = _seen_by(top, 50, 2.0)
        observation = READER.read(frame, corners)
        values = [d.value for d in observation.dice]
        assert 5 in values and 6 in values, angle_deg
        leaning = [d for d in observation.dice if d.x > 0.6 * FRAME_W]
        assert all(d.value is None for d in leaning), (angle_deg, drawn.value)


def test_a_single_die_cannot_tell_a_steeper_slant_from_its_own_lean():
    """Alone, a die whose top looks foreshortened beyond the slant the field's sides suggest
    gets no number (it may be leaning): the steeper slant is taken only from two dice agreeing."""
    top = _board_from_above()
    draw_die(top, (300, 200), 30, 4, angle_deg=20, style="white")
    frame, corners = _seen_by(top, 50, 2.0)
    assert all(d.value is None for d in READER.read(frame, corners).dice)
