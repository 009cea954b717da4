"""Small dice (16-24 px, pips of 1-2 px radius, blurred): a pip by its face's edge is still a pip.

On a phone photo of a whole board a die may be 18 px across (the green five on the real
fm-gold-a.jpg): the ring around a pip near the face's edge, where the reader measures the face
it sits on, then reaches over the face's blurred edge onto the board, and the pip no longer
stands out from that "face".  The reader judges such a pip against the plainest half of its ring.
"""
from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from vision.dice.reader import DiceReader, find_pips
from vision.dice.render import draw_die

#: The whole small test frame is the playing field.
REGION = ((10.0, 10.0), (150.0, 10.0), (150.0, 110.0), (10.0, 110.0))


def small_die_frame(style: str, size_px: float, value: int, angle_deg: float, blur: float):
    """One die in the middle of a pale grey field (like the fm board's), blurred as a small die
    in a photo is; returns the frame and what was drawn."""
    frame = np.full((120, 160, 3), (150, 152, 155), np.uint8)
    die = draw_die(frame, (80.0, 60.0), size_px, value, angle_deg=angle_deg, style=style)
    return cv2.GaussianBlur(frame, (0, 0), blur), die


def pips_on_top(frame: np.ndarray, die) -> list:
    """The pips found on the die's top, looked for as the reader does on a board."""
    outline = die.top_face.astype(np.float32).reshape(-1, 1, 2)
    return [p for p in find_pips(frame, split_joined=True).pips
            if cv2.pointPolygonTest(outline, (p.x, p.y), False) >= 0]


@pytest.mark.parametrize("style, size_px, value, angle_deg, blur", [
    ("red", 16, 5, 30, 1.2),        # a corner pip's ring reaches over the face's edge
    # Translucent, turned like the real five: blur joins each column of three pips into one
    # streak, still a filled ellipse at half its peak.
    ("green", 18, 6, 45, 0.8),
    ("black", 18, 6, 45, 0.8),
])
def test_every_pip_of_a_small_blurred_die_is_found_and_the_die_read(style, size_px, value, angle_deg, blur):
    frame, die = small_die_frame(style, size_px, value, angle_deg, blur)
    pips = pips_on_top(frame, die)
    assert len(pips) == value
    # Some of them only against the plainest half of their ring: the face ends close by.
    assert any(p.by_an_edge for p in pips)
    observation = DiceReader().read(frame, REGION)
    assert [(d.value, d.cocked) for d in observation.dice] == [(value, False)]


def test_a_column_of_a_small_six_is_not_read_as_a_three():
    # The two columns of this six are 8 px apart; the right one's pips are blurred into one
    # streak (no pips), and the left one's middle pip is clear only against the gap between
    # the columns.  Three pips in a row fit a three's diagonal: a pip kept by the plainest half
    # of its ring must not make a face of one to three pips.
    frame, die = small_die_frame("red", 16, 6, 0, 0.8)
    assert any(p.by_an_edge for p in pips_on_top(frame, die))
    observation = DiceReader().read(frame, REGION)
    assert all(d.value in (None, 6) for d in observation.dice)


def test_small_dice_are_never_misread():
    # A die is read right or not at all, whatever its style, size, value and turn.
    reader = DiceReader()
    wrong = []
    for style, size_px, value, angle_deg in itertools.product(("green", "black", "white"), (16, 20),
                                                              (2, 3, 5, 6), (0, 45)):
        frame, _ = small_die_frame(style, size_px, value, angle_deg, 1.0)
        read = [d.value for d in reader.read(frame, REGION).dice]
        if any(v not in (None, value) for v in read) or len(read) > 1:
            wrong.append((style, size_px, value, angle_deg, read))
    assert not wrong


def test_small_sixes_turned_any_way_are_read_or_not_at_all():
    # Every 10 degrees of a quarter turn: blur joins a column of three pips of 1.5 px radius
    # into one streak at most turns.  A six is never read as another value (one column alone
    # passes for a three), and most turns are read.
    reader = DiceReader()
    read, wrong = 0, []
    for style, angle_deg in itertools.product(("green", "red", "black", "white"), range(0, 90, 10)):
        frame, _ = small_die_frame(style, 18, 6, angle_deg, 0.8)
        values = [d.value for d in reader.read(frame, REGION).dice]
        read += values == [6]
        if any(v not in (None, 6) for v in values) or len(values) > 1:
            wrong.append((style, angle_deg, values))
    assert not wrong
    assert read >= 20      # of 36: 23 (12 before a streak was split into its pips)


@pytest.mark.parametrize("table, style, size_px, blur", [
    ((200, 215, 225), "white", 24, 1.5), ((200, 215, 225), "white", 28, 2.0),
    ((120, 160, 200), "red", 24, 2.0), ((120, 160, 200), "green", 28, 2.0),
    ((90, 110, 140), "black", 28, 2.0), ((90, 110, 140), "blue", 24, 2.0),
    ((200, 215, 225), "yellow", 20, 1.0), ((200, 215, 225), "red", 20, 1.0)])
def test_a_small_one_out_of_focus_is_read(table, style: str, size_px: int, blur: float):
    """A small one out of focus on a table: blur spreads its pip's light or dark into the ring
    around it, where the reader takes the face's colour, and every ray that looks for the face's
    edge stopped in that halo, short of any face.  Where the ring's colour closes no face, the
    rays are judged again against the face seen just beyond the halo (``_face_beyond_halo``):
    these eight ones were all lost before and are read now."""
    frame = np.full((160, 200, 3), table, np.uint8)
    draw_die(frame, (100.0, 80.0), size_px, 1, angle_deg=20, style=style)
    around = (slice(80 - size_px, 80 + size_px), slice(100 - size_px, 100 + size_px))
    frame[around] = cv2.GaussianBlur(frame[around], (0, 0), blur)
    frame = np.clip(frame + np.random.default_rng(1).normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)
    assert [(d.value, d.cocked) for d in DiceReader().read(frame).dice] == [(1, False)]
