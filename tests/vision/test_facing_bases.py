"""A tall pile that runs up to the facing edge ends before the facing point's base
(:func:`vision.checkers._without_facing_bases`).

An empty point's base rings like a checker, and a pile of 14 or 15 from one edge reaches the
facing one: the chain went on to that base, one step longer than the pile's others, and the
pile was read one too many (development seeds 3605, 4089, 4457 and 4822).  A pile whose top
really lies against the facing edge, in its rhythm, is read whole.
"""
from __future__ import annotations

import pytest
from checker_frames import assert_hard_frame_counts_read, drawn_column

from vision import checkers

RADIUS = 12.0
STEP_R = 1.47  # radii between the centres of an overlapped pile, as the renderer draws them
HEIGHT_R = 23.2  # the field's height in radii


def _read_column(centres_r: list[float]) -> int:
    """The stack read over discs drawn at ``centres_r`` (radii from the top edge) on a field
    :data:`HEIGHT_R` radii tall, once the column's facing bases are dropped."""
    scorer, cand = drawn_column(centres_r, RADIUS, HEIGHT_R, 60, (150, 150, 150), (230, 230, 230),
                                (60, 60, 60))
    height = int(RADIUS * HEIGHT_R)
    chains = {("top", 0): cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD,
                                     height - checkers.FAR_REACH * RADIUS)}
    checkers._without_facing_bases({("top", 0): cand}, chains, RADIUS, height)
    return len(chains["top", 0][0])


def test_a_ring_at_the_facing_base_beyond_a_piles_rhythm_is_not_its_checker():
    pile = [1.0 + k * STEP_R for k in range(14)]
    facing_base = HEIGHT_R - 1.0  # a radius from the facing edge: 0.6 radii past the rhythm
    assert facing_base - (pile[-1] + STEP_R) > checkers.REGULAR_SLACK
    assert _read_column(pile + [facing_base]) == 14


def test_a_pile_whose_top_lies_against_the_facing_edge_in_its_rhythm_is_read_whole():
    step = (HEIGHT_R - 2.0) / 14  # fifteen from a radius off one edge to a radius off the other
    assert _read_column([1.0 + k * step for k in range(15)]) == 15


@pytest.mark.parametrize("seed", [3605, 4089])
def test_hard_frames_with_a_pile_reaching_an_empty_facing_point_read_right(seed: int):
    """Development seeds 3605 (a red 14 read 15) and 4089 (a white 14 on white paint)."""
    assert_hard_frame_counts_read(seed, 14)
