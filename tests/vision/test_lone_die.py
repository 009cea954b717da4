"""An empty point's base with a small die on it is not a lone checker
(:func:`vision.checkers._die_on_paint`).

A die well under a checker's size lying on an empty base changes the colour of the base's
middle, and so passes the lone-checker paint tests; a checker's middle is one face, all the
point's paint or all a colour of its own.  Drawn patches check the test on its own: a small
die with pips, as sharp as a real photo's warped field shows one, is a die; a checker of its
own colour, a checker of the point's paint with a smooth highlight, a printed ring or specks
of noise, and bare paint are not.  The two real photos where it was seen (when the labelled
photos are at hand) check it on the whole read.  A checker of its point's paint with a printed
ring may look like a die there too (the ring's arc, off the paint, sharp); its rim along the
whole far arc, a line, tells it (:data:`vision.checkers.DIE_NOT_RIM`).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.checkers import _die_on_paint
from vision.evaluate import load_real, real_dir

#: About a checker's radius in a real photo's canonical field (pixels).
RADIUS = 11.5
CREAM, CLARET, EBONY = (200, 225, 235), (50, 40, 140), (30, 30, 30)
CENTRE = (40, 40)


def _paint(colour) -> np.ndarray:
    return np.full((80, 80, 3), colour, np.uint8)


def _is_die(image: np.ndarray, paint_bgr) -> bool:
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    paint = cv2.cvtColor(np.uint8([[paint_bgr]]), cv2.COLOR_BGR2LAB)[0, 0].astype(float)
    return _die_on_paint(lab, float(CENTRE[0]), float(CENTRE[1]), paint.tolist(), RADIUS)


def _die(image: np.ndarray, centre: tuple[int, int], body, pip) -> None:
    """A die 8 pixels across (0.7 of a checker's radius) showing five, its pips a pixel or
    two wide."""
    x, y = centre
    cv2.rectangle(image, (x - 4, y - 4), (x + 3, y + 3), body, -1)
    for dx, dy in ((-2, -2), (2, -2), (0, 0), (-2, 2), (2, 2)):
        image[y + dy - 1:y + dy + 1, x + dx - 1:x + dx + 1] = pip


@pytest.mark.parametrize("paint", [CREAM, CLARET])
@pytest.mark.parametrize("offset", [(0, 0), (3, -2), (-2, 4)])
def test_a_small_die_with_pips_on_bare_paint_is_a_die(paint, offset) -> None:
    """A black die with white pips, and one unlike the paint with pips unlike its body (a
    die of the paint's colour shows only its pips: too little to tell, and it is left)."""
    other_die = ((40, 40, 200), (250, 250, 250)) if paint == CREAM else ((240, 240, 240), EBONY)
    for body, pip in ((EBONY, (250, 250, 250)), other_die):
        image = _paint(paint)
        _die(image, (CENTRE[0] + offset[0], CENTRE[1] + offset[1]), body, pip)
        assert _is_die(image, paint)


@pytest.mark.parametrize("paint", [CREAM, CLARET])
def test_checkers_and_bare_paint_are_not_dice(paint) -> None:
    other = CLARET if paint == CREAM else CREAM
    own = _paint(paint)  # a checker of its own colour, with a die on it
    cv2.circle(own, CENTRE, round(RADIUS), other, -1, cv2.LINE_AA)
    _die(own, CENTRE, EBONY, (250, 250, 250))
    assert not _is_die(own, paint)
    lit = _paint(paint)  # a checker of the paint, a smooth highlight on it
    cv2.circle(lit, (CENTRE[0] + 3, CENTRE[1] - 3), 4,
               tuple(min(255, c + 60) for c in paint), -1, cv2.LINE_AA)
    assert not _is_die(cv2.GaussianBlur(lit, (0, 0), 2.0), paint)
    printed = _paint(paint)  # a printed ring on it
    cv2.circle(printed, CENTRE, round(0.5 * RADIUS), other, 1, cv2.LINE_AA)
    assert not _is_die(printed, paint)
    noisy = np.clip(_paint(paint) + np.random.default_rng(3).normal(0, 12, (80, 80, 3)),
                    0, 255).astype(np.uint8)  # specks of a camera's noise
    assert not _is_die(noisy, paint)
    assert not _is_die(_paint(paint), paint)


@pytest.mark.skipif(not (real_dir() / "labels.json").exists(),
                    reason="the labelled real photos are not at hand")
def test_real_bases_with_small_dice_read_empty() -> None:
    """fm-wood.jpg bottom[4] (corners found automatically) and fm-gold-b.jpg top[9] (made
    brighter): empty bases with a small die on them."""
    from calibration.locate import align_to, locate_field
    from vision.augment import TRANSFORMS
    from vision.reader import BoardReader

    reader = BoardReader()
    frames = {frame["name"]: frame for frame in load_real()}
    wood = frames["fm-wood.jpg"]
    corners = align_to(locate_field(wood["image"]), wood["corners"])
    assert reader.read(wood["image"], corners=corners).bottom[4] is None
    gold = frames["fm-gold-b.jpg"]
    image, corners = TRANSFORMS["brighter (gamma 0.55)"](gold["image"], gold["corners"])
    assert reader.read(image, corners=corners).top[9] is None


def test_a_white_checker_with_a_printed_ring_on_a_white_point_is_no_die() -> None:
    """Hard synthetic frame 4771: a white checker alone on the white point top[0], its face a
    shade off the paint with a grey printed ring, which the die test sees as a die's face (the
    ring's sharp arc beside the reading's middle, the rest the paint).  Its far arc shows its
    rim in every direction, as a line: it is read, and so is every other point."""
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=4771, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert scene.truth.top[0] is not None and scene.truth.top[0].count == 1
    for row in ("top", "bottom"):
        truth = [r.count if r else 0 for r in getattr(scene.truth, row)]
        assert [r.count if r else 0 for r in getattr(obs, row)] == truth, row
