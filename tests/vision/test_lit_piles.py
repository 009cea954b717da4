"""A tall pile lit along its length by a lamp's glare is one paint (:func:`vision.checkers._lit_along`),
and a pile that runs on crooked past a checker showing its whole rim is fitted to its top
(:func:`vision.checkers._on_to_whole_end`).

On development seed 4909 a black 14 was read 7: glare lifts the lightness of its checkers from
35 to about 110 and back along the pile, so the fit of the whole pile with each centre beside
its line failed the one-paint test (:data:`vision.checkers.HIDDEN_END_JUMP`) though its hue
never changes; and the fit on the line stopped at its seventh checker, which shows a whole rim
though the pile runs on, a little aside, one overlapped step further.

On development seed 6076 a red 14 too faint for the chain (white paint, blur) was read empty:
glare lights its upper half from lightness 116 to 185, and the one fit that passed on rims (each
centre beside its line) failed the one-paint test of :func:`vision.checkers._faint_tall_stack`,
which knew no lit pile.  On seed 4187 a gold 13 lit from lightness 146 at its base to 238 at its
top was read empty: its two ends differ by more than one paint's spread, so no fit was tried.
"""
from __future__ import annotations

import cv2
import numpy as np
from checker_frames import assert_hard_frame_counts_read

from vision import checkers

BLACK = (40, 128, 128)


def _lit(paint: tuple[int, int, int], white: float) -> list[float]:
    """``paint`` (8-bit Lab) with ``white`` light added in linear light, as glare on a glossy
    checker adds it, in 8-bit Lab."""
    lab = np.float32([[paint]])
    bgr = cv2.cvtColor(np.uint8(lab), cv2.COLOR_Lab2BGR).astype(np.float32) / 255
    linear = np.where(bgr <= 0.04045, bgr / 12.92, ((bgr + 0.055) / 1.055) ** 2.4) + white
    srgb = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    out = cv2.cvtColor(np.uint8(np.clip(srgb, 0, 1) * 255 + 0.5), cv2.COLOR_BGR2Lab)
    return out.reshape(3).astype(float).tolist()


def test_a_pile_lit_along_by_glare_is_one_paint():
    """A black pile whose glare rises and falls along it, step by small step."""
    ramp = [0.0, 0.03, 0.08, 0.15, 0.08, 0.03] + [0.0] * 8
    pile = np.float32([_lit(BLACK, white) for white in ramp])
    assert np.ptp(pile[:, 0]) > 60  # far more than one paint's spread allows
    assert checkers._lit_along(pile, checkers.HIDDEN_END_JUMP)


def test_a_pile_with_another_paint_on_its_end_is_not():
    """A black pile with white checkers on its end, or a step of glare all at once: not a
    ramp of light along one paint."""
    whites_on_end = np.float32([BLACK] * 10 + [(235, 128, 128)] * 2)
    assert not checkers._lit_along(whites_on_end, checkers.COLOUR_JUMP)
    red_on_gold = np.float32([(150, 140, 190)] * 8 + [(120, 175, 160)] * 3)
    assert not checkers._lit_along(red_on_gold, checkers.COLOUR_JUMP)


def test_hard_frame_with_a_glare_lit_crooked_pile_reads_right():
    """Development seed 4909: a black 14 lit along its length, read 7."""
    assert_hard_frame_counts_read(4909, 14)


def test_hard_frame_with_a_faint_pile_lit_along_its_top_half_reads_right():
    """Development seed 6076: a faint red 14 lit by glare over its upper half, read empty."""
    assert_hard_frame_counts_read(6076, 14)


def test_hard_frame_with_a_faint_pile_lit_toward_its_top_reads_right():
    """Development seed 4187: a faint gold 13 lit toward its top, its ends two colours."""
    assert_hard_frame_counts_read(4187, 13)


def test_the_lit_end_of_a_gold_pile_is_its_paint_lit():
    """The two ends of seed 4187's gold pile are one paint lit; red and gold are not."""
    assert checkers._lit_ends(np.float32([146, 141, 181]), np.float32([238, 120, 178]))
    assert not checkers._lit_ends(np.float32([120, 175, 160]), np.float32([150, 140, 190]))
