"""DiceReader on what real photos of thrown dice show: motion blur, a camera slanting ~45 degrees,
dice touching, dice cut by the frame's border."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import DiceReader
from vision.dice.render import draw_die

READER = DiceReader()
PALE_TABLE = (190, 205, 215)


def _table(width: int = 400, height: int = 240, colour=(40, 110, 45), seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.empty((height, width, 3), np.float32)
    image[:] = colour
    image += rng.normal(0, 3, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def _motion_blur(frame: np.ndarray, length: int, angle_deg: float) -> np.ndarray:
    """The frame as a camera sees it when everything moves ``length`` pixels during the exposure."""
    kernel = np.zeros((length, length), np.float32)
    c = (length - 1) / 2
    dx, dy = c * np.cos(np.radians(angle_deg)), c * np.sin(np.radians(angle_deg))
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    return cv2.filter2D(frame, -1, kernel / kernel.sum())


@pytest.mark.parametrize("style", ["white", "red"])
@pytest.mark.parametrize("angle", [0, 90])
def test_motion_blurred_dice_are_read(style, angle):
    """Blur streaks every pip alike; taken for foreshortening, it squeezed the layout of a three
    (the reader found one of these two dice)."""
    frame = _table(colour=PALE_TABLE)
    draw_die(frame, (120, 120), 48, 3, angle_deg=20, style=style)
    draw_die(frame, (280, 120), 48, 3, angle_deg=-25, style=style)
    observation = READER.read(_motion_blur(frame, 11, angle))
    assert [(d.value, d.cocked) for d in observation.dice] == [(3, False), (3, False)]


@pytest.mark.parametrize("style", ["white", "red", "ivory"])
def test_camera_slanting_45_degrees_reads_the_upper_face(style):
    """Seen from ~45-50 degrees a flat die's front face looks as square as its top: the top is
    the upper one (the reader called 5 of these 12 dice cocked, and read one as a five)."""
    for seed in range(4):
        rng = np.random.default_rng(seed)
        frame = _table(colour=PALE_TABLE, seed=seed)
        value = int(rng.integers(1, 7))
        draw_die(frame, (200, 120), 56, value, angle_deg=float(rng.uniform(0, 90)), style=style, rng=rng,
                 view_tilt_deg=50)
        assert [(d.value, d.cocked) for d in READER.read(frame).dice] == [(value, False)], seed


def test_touching_dice_are_told_apart_and_never_misread():
    """Pips of two touching dice are linked across them; a face is the clique of its own pips
    (the reader read none of these 12 pairs fully)."""
    right = 0
    for style in ("white", "red"):
        for seed in range(6):
            rng = np.random.default_rng(seed)
            frame = _table(seed=seed)
            first, second = int(rng.integers(3, 7)), int(rng.integers(3, 7))
            draw_die(frame, (170, 120), 50, first, angle_deg=float(rng.uniform(0, 90)), style=style, rng=rng)
            draw_die(frame, (222, 120 + rng.uniform(-10, 10)), 50, second, angle_deg=float(rng.uniform(0, 90)),
                     style=style, rng=rng)
            values = [d.value for d in READER.read(frame).dice]
            assert set(values) <= {first, second, None}, (style, seed, values)
            right += values == [first, second]
    assert right >= 7           # measured 7 of 12


@pytest.mark.parametrize("style", ["white", "red"])
def test_die_cut_by_the_frame_border_is_never_misread(style):
    """Half a four shows two pips and half a six a row of three: a die whose hidden part could
    hold pips is not read (the reader read such a four as a two and such a six as a three)."""
    for value in (4, 6):
        for angle in (0, 20):
            frame = _table()
            draw_die(frame, (200, 120), 48, 3, angle_deg=10, style=style)
            draw_die(frame, (8, 120), 48, value, angle_deg=angle, style=style)
            observation = READER.read(frame)
            assert [d.value for d in observation.dice if d.x > 100] == [3]
            assert all(d.value in (None, value) for d in observation.dice if d.x < 100), (value, angle)


def test_one_cut_by_the_frame_border_is_read():
    """The unseen part of a one's face cannot hide pips that would make it another value (a three
    or five has pips on both sides of the middle one)."""
    for y in (226, 230):
        frame = _table()
        draw_die(frame, (200, 120), 48, 3, angle_deg=10, style="white")
        draw_die(frame, (320, y), 60, 1, angle_deg=30, style="white")
        assert [d.value for d in READER.read(frame).dice] == [3, 1], y
