"""A die lying on a point is not a checker (:func:`vision.checkers._die_like`): inside a
checker's circle a die shows its square's straight sides in two perpendicular orientation
families, a checker's face little edge, or round or one-family edges.

Drawn scenes check the shape test on its own (dice of every style at every turn, drawn by the
dice renderer, against plain, printed, grained, touching and half-hidden checkers); rendered
boards check that a die touching a stack's end is not read as one more checker.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.checkers import _die_like
from vision.dice.render import STYLES, draw_die
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board
from vision.rings import RingScorer

#: About a checker's radius in the canonical field (pixels).
RADIUS = 11.5
FELT, IVORY, EBONY, RIM = (60, 110, 80), (215, 228, 235), (40, 40, 40), (150, 160, 165)


def _canvas() -> np.ndarray:
    return np.full((100, 120, 3), FELT, np.uint8)


def _checker(image: np.ndarray, centre: tuple[int, int], colour=IVORY, print_ring: bool = False,
             grain: bool = False) -> None:
    """A checker of ``RADIUS`` with a darker rim; with ``print_ring`` a printed ring inside
    (as on printed and turned checkers), with ``grain`` parallel dark lines across its face
    (a wooden checker's grain)."""
    cv2.circle(image, centre, round(RADIUS), RIM, -1, cv2.LINE_AA)
    cv2.circle(image, centre, round(RADIUS) - 1, colour, -1, cv2.LINE_AA)
    if print_ring:
        cv2.circle(image, centre, round(0.5 * RADIUS), (60, 60, 120), 1, cv2.LINE_AA)
    if grain:
        for dx in range(-8, 9, 3):
            cv2.line(image, (centre[0] + dx, centre[1] - 8), (centre[0] + dx + 2, centre[1] + 8),
                     (110, 130, 150), 1, cv2.LINE_AA)


def _is_die(image: np.ndarray, x: float, y: float) -> bool:
    scorer = RingScorer(image, RADIUS)
    return bool(_die_like(scorer, np.array([x], np.float32), np.array([y], np.float32),
                          RADIUS)[0])


@pytest.mark.parametrize("style", sorted(STYLES))
def test_dice_of_every_style_are_squares(style: str) -> None:
    """Dice the size the renderer draws them (a checker's radius to 1.3 of it), at turns
    0 to 80 degrees, showing each face: most are told from checkers (those that are not
    stay checkers; the test only drops)."""
    told = []
    for size in (1.0, 1.3):
        for turn in range(0, 90, 20):
            for value in (1, 4, 6):
                image = _canvas()
                draw_die(image, (60.0, 50.0), size * RADIUS, value, angle_deg=turn, style=style)
                told.append(_is_die(image, 60, 50))
    assert np.mean(told) >= 0.75


@pytest.mark.parametrize("colour", [IVORY, EBONY])
@pytest.mark.parametrize("decoration", ["plain", "print_ring", "grain"])
def test_a_checker_is_not_a_die(colour: tuple[int, int, int], decoration: str) -> None:
    image = _canvas()
    _checker(image, (60, 50), colour, print_ring=decoration == "print_ring",
             grain=decoration == "grain")
    assert not _is_die(image, 60, 50)


def test_touching_and_half_hidden_checkers_are_not_dice() -> None:
    """A stack's end touching the checker before it (the contact's arcs straight-ish), two
    checkers touching side by side, and checkers half under the frame's lip or cut by the
    image's edge."""
    image = _canvas()
    for y in (20, 43, 66):
        _checker(image, (30, y), IVORY)
    _checker(image, (75, 66), EBONY)
    _checker(image, (98, 66), IVORY)
    assert not _is_die(image, 30, 66)
    assert not _is_die(image, 30, 43)
    assert not _is_die(image, 75, 66)
    lip = _canvas()
    _checker(lip, (40, 12), IVORY)
    lip[:6] = (30, 50, 70)  # the frame's lip over the checker's near side
    _checker(lip, (80, 3), EBONY)  # the image cuts the rest
    assert not _is_die(lip, 40, 12)
    assert not _is_die(lip, 80, 3)


def test_a_straight_band_is_not_a_die() -> None:
    """One family of parallel edges (an overlapped stack's straight sides, a strip of paint,
    a point's edge) is not a square's two."""
    image = _canvas()
    cv2.rectangle(image, (53, 0), (67, 99), IVORY, -1)
    assert not _is_die(image, 60, 50)


@pytest.mark.parametrize("seed, row, column, count", [(941, "bottom", 8, 7),
                                                      (1388, "bottom", 2, 5)])
def test_a_die_at_a_stacks_end_is_not_one_more_checker(seed: int, row: str, column: int,
                                                        count: int) -> None:
    """Rendered hard boards (dice drawn with their shadows, in perspective): a die lying
    against a stack's end was read as one more checker."""
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    assert getattr(scene.truth, row)[column].count == count
    obs = BoardReader().read(scene.image, corners=scene.corners)
    reading = getattr(obs, row)[column]
    assert reading is not None and reading.count == count
