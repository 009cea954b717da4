"""One die drawn alone on a plain board, cocked or lying flat: the frames of the dice reader's
cocked-die tests (tests/vision_dice/test_cocked_*.py, test_loose_side_pips.py, test_side_band.py).

A case is ``(value, style, edge_px, blur, turn_deg, tilt_deg, seed)``: the top's value, the die's
style (vision.dice.render), its edge in pixels, the Gaussian blur, its turn and its tilt in
degrees, and the seed that draws its side faces' values.  The same case with no tilt is its flat
twin: the same die, the same side faces, lying flat.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.dice import DiceReader
from vision.dice.render import draw_die

#: The whole test frame is the playing field, seen from straight above.
WHOLE_FRAME = ((0.0, 0.0), (319.0, 0.0), (319.0, 199.0), (0.0, 199.0))
READER = DiceReader()

Case = tuple[int, str, float, float, float, float, int]


def die_on_wood(value: int, style: str, edge_px: float, blur: float, turn_deg: float,
                tilt_deg: float | None, seed: int) -> np.ndarray:
    """A 320x200 frame of a wooden board's colour with the die at its centre (cocked by
    ``tilt_deg``, flat when None)."""
    frame = np.full((200, 320, 3), (60, 130, 200), np.uint8)
    draw_die(frame, (160, 100), edge_px, value, angle_deg=turn_deg, style=style,
             cocked=tilt_deg is not None, tilt_deg=tilt_deg, rng=np.random.default_rng(seed))
    return cv2.GaussianBlur(frame, (0, 0), blur)


def cocked_read_as_a_number(cases: list[Case]) -> list:
    """The cocked cases whose die the reader gives a value (none should be)."""
    read = []
    for case in cases:
        dice = READER.read(die_on_wood(*case), WHOLE_FRAME).dice
        if any(d.value is not None for d in dice):
            read.append((case, dice))
    return read


def flat_twins_misread(cases: list[Case]) -> list:
    """The cases whose flat twin is not read as one flat die of the case's value."""
    wrong = []
    for value, style, edge, blur, turn, _, seed in cases:
        dice = READER.read(die_on_wood(value, style, edge, blur, turn, None, seed), WHOLE_FRAME).dice
        if [(d.value, d.cocked) for d in dice] != [(value, False)]:
            wrong.append(((value, style, edge, blur, turn, seed), dice))
    return wrong
