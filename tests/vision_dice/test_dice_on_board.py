"""DiceReader on dice lying on a backgammon board, read within the playing field's corners:
small dice (pips of a pixel or two, too small to show a tilt by their shape), black dice with
white pips and translucent dice, beside checkers and points of similar colours.  A die is
called cocked only on positive evidence of a tilt, never because it is small."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.dice import DiceReader
from vision.dice.render import draw_die

READER = DiceReader()
FIELD = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])


def _board(seed: int, slant: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A board seen by a camera looking down at it (``slant``: how much the far edge narrows):
    the frame, the field's corners in it and the field-to-frame homography."""
    rng = np.random.default_rng(seed)
    w, h = 520, 420
    top = np.full((h, w, 3), (200, 222, 232), np.float32)           # ivory field
    colours = ((40, 40, 160), (35, 35, 35))                         # red and black points
    pw = w / 13
    for k in range(12):
        x0 = k * pw + (pw if k >= 6 else 0)                           # a bar in the middle
        for y_base, y_tip in ((0, 0.42 * h), (h, 0.58 * h)):
            tri = np.int32([[x0, y_base], [x0 + pw, y_base], [x0 + pw / 2, y_tip]])
            cv2.fillPoly(top, [tri], colours[(k + (y_base > 0)) % 2])
    cv2.rectangle(top, (int(6 * pw), 0), (int(7 * pw), h), (30, 60, 90), -1)
    for k in rng.choice(12, 5, replace=False):                        # checkers: discs, dark and light
        x = k * pw + (pw if k >= 6 else 0) + pw / 2
        colour = (30, 30, 30) if rng.random() < 0.5 else (225, 232, 235)
        for j in range(int(rng.integers(1, 4))):
            cv2.circle(top, (int(x), int(pw / 2 + j * pw)), int(pw / 2 - 1), colour, -1)
            cv2.circle(top, (int(x), int(pw / 2 + j * pw)), int(pw / 2 - 1), (90, 90, 90), 1)
    frame_size = (640, 480)
    inset = slant * w
    corners = np.float32([[60 + inset, 40], [580 - inset, 40], [600, 440], [40, 440]])
    homography = cv2.getPerspectiveTransform(FIELD, corners)
    to_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    frame = cv2.warpPerspective(top, to_frame, frame_size, borderValue=(60, 80, 100))
    frame += rng.normal(0, 2.5, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8), corners, homography


def _at(homography: np.ndarray, u: float, v: float) -> tuple[float, float]:
    p = cv2.perspectiveTransform(np.float32([[[u, v]]]), homography)[0, 0]
    return float(p[0]), float(p[1])


def test_small_flat_dice_on_a_board_are_read_not_cocked():
    """Dice of 17 px (pips of ~1.5 px radius) in four styles on a board seen from above and a
    little slanted.  They were all reported without a value, or called cocked when their pips'
    ellipses (too coarse at that size) looked slanted; now none is called cocked, none misread,
    and 16 of the 24 are read (the others are not found or not read)."""
    spots = [(0.30, 0.50, 3, 15.0), (0.72, 0.47, 5, 50.0), (0.55, 0.62, 2, 80.0)]
    read = total = 0
    for style in ("black", "red", "green", "white"):
        for slant in (0.0, 0.04):
            frame, corners, homography = _board(seed=3, slant=slant)
            for u, v, value, angle in spots:
                draw_die(frame, _at(homography, u, v), 17, value, angle_deg=angle, style=style)
            observation = READER.read(frame, [tuple(c) for c in corners])
            assert not any(d.cocked for d in observation.dice), (style, slant)
            values = [d.value for d in observation.dice if d.value is not None]
            assert set(values) <= {3, 5, 2} and len(values) == len(set(values)), (style, slant)
            read += len(values)
            total += len(spots)
    assert read >= 0.6 * total


@pytest.mark.parametrize("style", ["black", "red"])
def test_larger_flat_black_and_translucent_dice_on_a_board(style):
    frame, corners, homography = _board(seed=5, slant=0.03)
    draw_die(frame, _at(homography, 0.35, 0.52), 30, 6, angle_deg=20, style=style)
    draw_die(frame, _at(homography, 0.68, 0.50), 30, 4, angle_deg=-35, style=style)
    observation = READER.read(frame, [tuple(c) for c in corners])
    assert [(d.value, d.cocked) for d in observation.dice] == [(6, False), (4, False)]


def test_a_cocked_small_die_is_not_given_a_number():
    """A small die leaning 30 degrees (its top's outline clearly not square on the board) gets
    no value, cocked or not."""
    frame, corners, homography = _board(seed=7, slant=0.0)
    drawn = draw_die(frame, _at(homography, 0.40, 0.50), 20, 5, angle_deg=10, style="white",
                     cocked=True, tilt_deg=30.0, rng=np.random.default_rng(2))
    draw_die(frame, _at(homography, 0.65, 0.50), 20, 4, angle_deg=30, style="white")
    observation = READER.read(frame, [tuple(c) for c in corners])
    near = [d for d in observation.dice if abs(d.x - drawn.centre[0]) + abs(d.y - drawn.centre[1]) < 12]
    assert all(d.value is None for d in near)
    assert [d.value for d in observation.dice if d not in near] == [4]


@pytest.mark.parametrize("style", ["white", "black"])
def test_a_small_flat_one_is_read_by_its_outline_and_a_leaning_one_is_not(style):
    """A one whose pip is too small to show its shape (about 2 px) was never read on a board:
    nothing told it from a leaning one.  The outline of its face, found by rays from the pip,
    does: square on the board plane, it is read; a one leaning 35 degrees beside it gets no value."""
    for size, slant in ((18, 0.0), (18, 0.04), (22, 0.04)):
        frame, corners, homography = _board(seed=3, slant=slant)
        flat = draw_die(frame, _at(homography, 0.30, 0.50), size, 1, angle_deg=25, style=style)
        leaning = draw_die(frame, _at(homography, 0.70, 0.48), size, 1, angle_deg=10, style=style,
                           cocked=True, tilt_deg=35.0, rng=np.random.default_rng(4))
        observation = READER.read(frame, [tuple(c) for c in corners])

        def near(die, drawn) -> bool:
            return abs(die.x - drawn.centre[0]) + abs(die.y - drawn.centre[1]) < 8

        assert [(d.value, d.cocked) for d in observation.dice if near(d, flat)] == [(1, False)], (size, slant)
        assert all(d.value is None for d in observation.dice if near(d, leaning)), (size, slant)
        assert all(near(d, flat) or near(d, leaning) for d in observation.dice), (size, slant)


def test_a_one_whose_face_has_a_scratch_beside_its_pip_is_read():
    """A scratch on a one's face, out from its pip, stops one of the rays that find the face's
    edge well short of the others (a speck, a glint, a translucent die's far pip do the same in
    the synthetic scenes).  The one was lost: its outline was taken for no square.  One short ray,
    like one long ray into a side face, is now let pass; rays toward a checker's near rim, short
    side by side, still are not."""
    from vision.dice.reader import _face_edge_distances, find_pips

    frame, corners, homography = _board(seed=3, slant=0.0)
    size = 30
    drawn = draw_die(frame, _at(homography, 0.30, 0.50), size, 1, angle_deg=25, style="green")
    cx, cy = drawn.centre
    along = np.array([math.cos(math.radians(67.5)), math.sin(math.radians(67.5))])
    start, end = (np.array([cx, cy]) + f * size * along for f in (0.26, 0.36))
    face_bgr = frame[int(cy) + 3, int(cx) + 3].astype(int)
    cv2.line(frame, tuple(int(round(v)) for v in start), tuple(int(round(v)) for v in end),
             tuple(int(255 - v) for v in face_bgr), 1, cv2.LINE_AA)
    # The case at hand: one ray stopped at under half the length of the outline's longer rays.
    field_ = find_pips(frame)
    pip = min(field_.pips, key=lambda p: float(np.hypot(p.x - cx, p.y - cy)))
    rays = np.sort(_face_edge_distances(field_, pip, frame))
    assert rays[0] < 0.5 * rays[-2] and rays[1] >= 0.5 * rays[-2]
    observation = READER.read(frame, [tuple(c) for c in corners])
    assert [(d.value, d.cocked) for d in observation.dice] == [(1, False)]

