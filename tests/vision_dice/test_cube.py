"""A doubling cube lying in the playing field is not a die (issue 5).

The cube's bold numerals have light holes (the loops of "4", "6", "8", "9") that look like the
white pip of a one on a dark die, their strokes like its face; that "face" is a third of the
cube's, and the cube is larger than the dice.  On a board, where the dice's sizes can be compared
on the board's plane, the reader must report the dice and not the cube.
"""
from __future__ import annotations

import numpy as np
import pytest

from vision.dice import DiceReader
from vision.dice.render import draw_die, draw_doubling_cube

READER = DiceReader()
WIDTH, HEIGHT = 320, 200
FIELD = ((0.0, 0.0), (WIDTH - 1.0, 0.0), (WIDTH - 1.0, HEIGHT - 1.0), (0.0, HEIGHT - 1.0))
DIE_PX = 44.0


def _board(colour: tuple[int, int, int]) -> np.ndarray:
    return np.full((HEIGHT, WIDTH, 3), colour, np.uint8)


def _in_box(die, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    return x0 <= die.x <= x1 and y0 <= die.y <= y1


@pytest.mark.parametrize("felt", [(40, 60, 130), (50, 120, 40)])
def test_the_hole_of_a_cubes_four_is_no_one_beside_the_roll(felt):
    frame = _board(felt)
    cube = draw_doubling_cube(frame, (160, 100), 1.3 * DIE_PX, 64, 0.0)
    # (Before the dice's sizes were compared, the hole of the "4" of this "64" read as a one.)
    draw_die(frame, (60, 100), DIE_PX, 5, angle_deg=15, style="white")
    draw_die(frame, (265, 100), DIE_PX, 3, angle_deg=-30, style="white")
    dice = READER.read(frame, FIELD).dice
    assert not any(_in_box(d, cube) for d in dice)
    assert [d.value for d in dice] == [5, 3]
    assert READER.read(frame, FIELD).roll() == (5, 3)


@pytest.mark.parametrize("style", ["white", "black", "red"])
def test_a_real_one_beside_the_cube_is_still_read(style):
    frame = _board((50, 120, 40))
    cube = draw_doubling_cube(frame, (160, 100), 1.3 * DIE_PX, 64, 0.0)
    draw_die(frame, (60, 100), DIE_PX, 1, angle_deg=15, style=style)
    draw_die(frame, (265, 100), DIE_PX, 4, angle_deg=-30, style=style)
    dice = READER.read(frame, FIELD).dice
    assert not any(_in_box(d, cube) for d in dice)
    assert [d.value for d in dice] == [1, 4]
