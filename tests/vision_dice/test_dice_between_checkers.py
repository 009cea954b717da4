"""DiceReader on a board crowded with touching checkers and no die: the light gaps between
black discs paired up as a two, and the light logo inside a red disc, are no dice (a false die
called cocked would make the referee ask for a re-roll on every frame).  A die's top must show
a closed outline of its own colour around its pips, where their layout puts it."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import DiceReader
from vision.dice.reader import ReaderSettings
from vision.dice.render import draw_die

FIELD = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
BLACK, RED, LOGO = (32, 30, 30), (30, 30, 120), (150, 170, 200)


def _crowded_board(slant: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A light wooden field with columns of touching black and red checkers (the red ones with a
    light ring and dot for a logo) on every point, seen from above (``slant``: how much the far
    edge narrows); returns the frame and the field's corners in it."""
    rng = np.random.default_rng(seed)
    w, h = 520, 420
    top = np.full((h, w, 3), (175, 205, 225), np.float32)
    pw = w / 13
    radius = int(pw / 2)
    for k in range(12):
        x = k * pw + (pw if k >= 6 else 0) + pw / 2                    # a bar in the middle
        colour = RED if k % 3 == 0 else BLACK
        for y_first, direction in ((pw / 2, 1), (h - pw / 2, -1)):
            for j in range(5 if k % 2 else 3):
                centre = (int(round(x)), int(round(y_first + direction * j * (pw - 0.5))))
                cv2.circle(top, centre, radius, colour, -1, cv2.LINE_AA)
                cv2.circle(top, centre, radius - 2, tuple(0.8 * c for c in colour), 1, cv2.LINE_AA)
                if colour == RED:
                    cv2.circle(top, centre, int(radius * 0.35), LOGO, 2, cv2.LINE_AA)
                    cv2.circle(top, centre, 2, LOGO, -1, cv2.LINE_AA)
    corners = np.float32([[60 + slant * w, 40], [580 - slant * w, 40], [600, 440], [40, 440]])
    to_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    frame = cv2.warpPerspective(top, to_frame, (640, 480), borderValue=(60, 80, 100))
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8) + rng.normal(0, 2.5, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8), corners


@pytest.mark.parametrize("slant", [0.0, 0.04])
def test_touching_black_and_red_checkers_are_no_dice(slant):
    frame, corners = _crowded_board(slant)
    region = [tuple(c) for c in corners]
    assert DiceReader().read(frame, region).dice == ()
    # Without the outline test the gaps between black discs made a die (read as a two, or cocked).
    assert DiceReader(ReaderSettings(min_outline_share=0.0)).read(frame, region).dice != ()


@pytest.mark.parametrize("style", ["white", "black"])
def test_dice_beside_the_crowded_checkers_are_still_read(style):
    frame, corners = _crowded_board(0.04)
    homography = cv2.getPerspectiveTransform(FIELD, corners)
    for (u, v), value, angle in (((0.36, 0.50), 5, 20.0), ((0.72, 0.47), 3, -40.0)):
        at = cv2.perspectiveTransform(np.float32([[[u, v]]]), homography)[0, 0]
        draw_die(frame, (float(at[0]), float(at[1])), 22, value, angle_deg=angle, style=style)
    observation = DiceReader().read(frame, [tuple(c) for c in corners])
    assert [(d.value, d.cocked) for d in observation.dice] == [(5, False), (3, False)]
