"""Whole tall stacks that were read as empty points (:func:`vision.checkers._faint_tall_stack`).

A blurred tall overlapped stack (soft focus on fm-tan, a red pile on a red point) shows every
checker's crescent, but each a little dimmed: its best whole-stack fit, the right count,
missed the threshold by one ring direction, in its mean (seed 1008: blue 8, mean 0.81) or at
its top's whole rim (seed 2066: red 13, top 0.8125 with a mean of 0.92), and the point was
read empty.  A fit that no fit passes clearly is now taken when every checker shows at least
:data:`~vision.checkers.MEMBER_FLOOR` and it falls short by no more than one direction
(:func:`vision.checkers._nearly_whole_pile`).

A tall stack's count follows the rhythm of its rims only where that rhythm is clear
(:data:`~vision.checkers.PERIOD_CLEAR`); a blurred pile's is faint, yet says the right count
when the stack's span is a whole number of its steps.  Seeds 2180 (red 8 read 7, rhythm 7.09
steps at 0.28) and 2262 (red 13 read 15, 11.97 steps at 0.34) are now recounted from a faint
rhythm that lands within :data:`~vision.checkers.PERIOD_TIGHT` of a whole number of steps and
places every checker on a rim; so is seed 5806's white 12 under glare (read 11: its span lies
0.105 steps off 12 of its rhythm's, beyond the 0.1 that PERIOD_TIGHT was).

A tall chain that stops where glare clipped to white hides the rest of its pile is fitted
again as a whole through the glare (:func:`vision.checkers._tall_into_glare`): seed 5398.
"""
from __future__ import annotations

import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read, assert_solid_point_read

from vision import checkers


def test_a_pile_short_by_one_direction_is_nearly_whole():
    every_rim = np.array([0.96, 0.87, 0.74, 0.78, 0.7, 0.74, 0.78, 0.91])
    short = checkers.COVERAGE_THRESHOLD - checkers.PILE_SHORT
    assert checkers._nearly_whole_pile(every_rim, 0.91, checkers.COVERAGE_THRESHOLD)
    assert checkers._nearly_whole_pile(np.full(8, 0.9), short, checkers.COVERAGE_THRESHOLD)


def test_a_missing_member_a_short_pile_or_a_dim_top_is_not():
    threshold = checkers.COVERAGE_THRESHOLD
    gap = np.array([0.96, 0.87, 0.74, checkers.MEMBER_FLOOR - 0.01, 0.9, 0.74, 0.78, 0.91])
    assert not checkers._nearly_whole_pile(gap, 0.91, threshold)
    assert not checkers._nearly_whole_pile(np.full(checkers.BLURRED_LEAST - 1, 0.8), 0.9,
                                           threshold)
    dim_top = threshold - checkers.PILE_SHORT - 0.01
    assert not checkers._nearly_whole_pile(np.full(8, 0.9), dim_top, threshold)
    dim_mean = np.full(8, threshold - checkers.PILE_SHORT - 0.01)
    assert not checkers._nearly_whole_pile(dim_mean, 0.95, threshold)


@pytest.mark.parametrize("seed, tallest", [(1008, 8), (2066, 13)])
def test_hard_frames_with_a_blurred_tall_stack_read_right(seed: int, tallest: int):
    """Development seeds 1008 (fm-tan, blue 8 read empty) and 2066 (tournament, red 13 read
    empty)."""
    assert_hard_frame_counts_read(seed, tallest)


@pytest.mark.parametrize("seed, tallest", [(2180, 8), (2262, 13), (5806, 12)])
def test_hard_frames_recounted_from_a_faint_tight_rhythm_read_right(seed: int, tallest: int):
    """Development seeds 2180 (fm-tan, red 8 read 7), 2262 (blue-white, red 13 read 15) and
    5806 (white 12 under glare read 11)."""
    assert_hard_frame_counts_read(seed, tallest)


def test_hard_frame_with_a_tall_pile_running_into_glare_read_right():
    """Development seed 5398 (blue-white): a white 14 whose far half lies in glare clipped to
    white was read 8 (the chain stopped at the glare) with a phantom white 7 on the facing
    point (the pile's far end seen from the other edge); fitted again through the glare
    (:func:`vision.checkers._tall_into_glare`) it is read 14 and the facing point empty."""
    assert_hard_frame_counts_read(5398, 14)


def test_hard_frame_with_a_faint_pile_whose_top_lies_in_glare_read_right():
    """Development seed 8430: a white 14 on ivory paint, each checker 0.72-0.84 of its rim, its
    top a third clipped by glare, was read 4 (the chain stopped at the one ring that reached
    the threshold, and nothing further out showed a whole rim to end a fit at); its top,
    proposed by the rim it shows where the glare leaves one to see
    (:data:`vision.checkers.GLARE_PAST_LEAST`), ends the fit through it."""
    assert_hard_frame_counts_read(8430, 14)


@pytest.mark.parametrize("seed", [5338, 5795])
def test_hard_frames_with_small_white_stacks_under_glare_read_right(seed: int):
    """Development seeds 5338 and 5795: a white 3 under glare.  Proposing far ends clipped in
    their middle for every faint pile, not only for a chain known to run into the glare, read
    them 4 and 6."""
    assert_hard_frame_counts_read(seed, 3)


@pytest.mark.parametrize("seed, tallest", [(3823, 13), (6384, 15)])
def test_hard_frames_with_a_pile_end_lost_in_glare_read_right(seed: int, tallest: int):
    """Development seeds 3823 (a white 13 read 9) and 6384 (a white 15 read 11, with a
    phantom white 3 on the facing point): the chain stopped where glare clipped the pile to
    white; carried on at its own step to the furthest place showing a pile's top over the ring
    directions that could show one (:func:`vision.checkers._glare_pile_ends`), each is read
    right, and the facing point empty."""
    assert_hard_frame_counts_read(seed, tallest)


@pytest.mark.slow
@pytest.mark.parametrize("seed, point, count", [
    (3, ("top", 10), 8),        # white 8 read 7: its fit began a step off the edge
    (161, ("top", 10), 15),     # red 15 read 14, likewise
    (340, ("top", 6), 13),      # black 13 read 12, likewise
    (74, ("bottom", 3), 8),     # blue 8 read 7: recounted to a top one step short
])
def test_solid_piles_read_from_their_base_to_their_top(seed: int, point: tuple[str, int],
                                                      count: int):
    """Development solid seeds whose tall pile was read one short: a fit whose first checker
    lay about 1.7-2 radii out, a clear base of its paint by the edge left out (carried down to
    it by :func:`vision.checkers._with_edge_base`), or a rhythm's recount that stopped a
    step below the checker on top showing its whole rim (carried on to it by
    :func:`vision.checkers._whole_top_beyond`)."""
    assert_solid_point_read(seed, point, count)


@pytest.mark.slow
@pytest.mark.parametrize("seed, point, count", [
    (429, ("bottom", 0), 12),   # black 12 on dark red paint read 8
    (383, ("bottom", 7), 14),   # black 14 read 12
    (112, ("top", 0), 8),       # white 8 read 7
])
def test_solid_piles_carried_on_at_their_rhythm_to_their_top(seed: int, point: tuple[str, int],
                                                            count: int):
    """Development solid seeds whose chain stopped short of its pile's top where the ring map
    proposed no candidate for a faint crescent, though the rims go on repeating: carried on at
    the chain's clear rhythm to the furthest whole top the rhythm still runs to
    (:func:`vision.checkers._rhythm_top`), each is read right."""
    assert_solid_point_read(seed, point, count)


@pytest.mark.slow
@pytest.mark.parametrize("seed, tallest", [(3672, 15), (6971, 8)])
def test_hard_frames_with_a_pile_fitted_off_its_base_read_right(seed: int, tallest: int):
    """Development seeds 3672 (a black 15 read 14) and 6971 (a white 8 read 7): each fit began
    a step off the edge, its base by the edge left out; carried down to that base
    (:func:`vision.checkers._with_edge_base`) each is read right."""
    assert_hard_frame_counts_read(seed, tallest)
