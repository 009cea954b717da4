"""Tall stacks that run the whole point: which side owns them, and checkers placed beside the line.

A pile of fourteen or fifteen reaches the facing edge, so both points read a stack of the same
length; the pile belongs to the side from which each checker lies on the one before
(:func:`vision.checkers._rises`).  Hands put each checker of a tall stack a little off the
line through its ends: the whole-stack fit looks beside the line too
(:func:`vision.checkers._beside`) when no model on the line explains the stack.  A chain that
skipped a checker where two centres blurred is fitted again up to its own end when the rhythm
of its rims asks for more.  On the held-out hard seeds this put a black 15 on the facing point
(582) and lost a red 15 and a red 14 (682, 754); on the first set a blue 9 was read as 8 (328).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
STEP_R = 1.36  # a stack of fifteen is overlapped about this much (radii between centres)
HEIGHT_R = 22  # the field's height in radii


def _stack_image(centres_r: list[float], beside_r: list[float]) -> np.ndarray:
    """Red discs with a dark outline on a mid-grey field, centres (radii from the top edge)
    ``centres_r``, each ``beside_r`` radii off the column, each later one over the one before."""
    image = np.full((int(RADIUS * HEIGHT_R), 90, 3), 150, np.uint8)
    for y, dx in zip(centres_r, beside_r):
        centre = (int(round(45 + dx * RADIUS)), int(round(y * RADIUS)))
        cv2.circle(image, centre, int(RADIUS), (40, 40, 190), -1)
        cv2.circle(image, centre, int(RADIUS), (20, 20, 90), 1)
    return image


def _candidates(scorer: RingScorer, ys_r: list[float], xs_r: list[float]
                ) -> checkers._Candidates:
    """Candidates at the given places (radii from the top edge, radii off the column), read
    from the top edge."""
    ys = np.float32(ys_r) * np.float32(RADIUS)
    px = np.float32(45 + np.float32(xs_r) * RADIUS)
    full, no_far, no_near, far_arc = scorer.coverage(px, ys, True)
    return checkers._Candidates(ys, px, ys.copy(), full, no_far, no_near,
                                scorer.colour_at(px, ys), far_arc)


def test_a_pile_rises_from_its_own_edge_not_from_the_facing_one():
    """Ten overlapped discs from the top edge read from there lie each on the one before;
    the same pile turned upside down (as the facing point sees it) lies the other way."""
    centres = [1 + STEP_R * k for k in range(10)]
    image = _stack_image(centres, [0.0] * 10)
    own = _candidates(RingScorer(image, RADIUS), centres, [0.0] * 10)
    flipped = RingScorer(np.ascontiguousarray(image[::-1]), RADIUS)
    facing = _candidates(flipped, [HEIGHT_R - y for y in centres[::-1]], [0.0] * 10)
    chain = list(range(10))
    assert checkers._rises(own, chain) is True
    assert checkers._rises(facing, chain) is False
    assert checkers._rises(own, chain[:2]) is None  # too short to tell


def test_the_whole_stack_fit_finds_checkers_placed_beside_the_line():
    """Twelve overlapped discs placed alternately a third of a radius either side of the
    column: the fit from the base to the whole-rimmed top counts all twelve."""
    centres = [1 + STEP_R * k for k in range(12)]
    beside = [0.35 * (-1) ** k for k in range(12)]
    scorer = RingScorer(_stack_image(centres, beside), RADIUS)
    # The ring map proposes the ends where they are, the checkers between on the column.
    cand = _candidates(scorer, centres, [beside[0]] + [0.0] * 10 + [beside[-1]])
    out = checkers._regular_stack(scorer, cand, [], True, RADIUS, checkers.COVERAGE_THRESHOLD,
                                  RADIUS * (HEIGHT_R - 1), checkers.FIRST_MIN)
    assert out is not None and len(out) == 12
    assert np.allclose(cand.ys[out] / RADIUS, centres, atol=0.25)


@pytest.mark.parametrize("seed", [582, 682, 754, 328, 275, 372])
def test_boards_with_tall_stacks_are_read_exactly(seed: int):
    """Hard synthetic frames with tall stacks: a black 15 read on the facing point (582); a
    red 15 and a red 14 whose checkers sit off the line through their ends (682, 754); a blue 9
    whose chain skipped a checker near its base (328); a red 13 that a fit from the facing
    edge, beside the line, claims as a longer stack lying the other way (275); a white 10 that
    a sideways slack for every model would read as 13 (372)."""
    assert_hard_frame_counts_read(seed, 9)
