"""A tall pile ends before a ring off its rhythm beyond it that is the facing point's base or
of another paint (:func:`vision.checkers._without_stray_ends`).

An empty point's base rings like a checker, and a pile of 14 or 15 from one edge reaches the
facing one: the chain went on to that base, one step longer than the pile's others, and the
pile was read one too many (development seeds 3605, 4089, 4457 and 4822).  A logo printed
just beyond a pile's end, or a die touching it, rings like a checker of a colour near the
pile's: seeds 1892 (a white 7 read 8 with the "fm" print) and 2026 (a white 6 read 7 with a
die).  A pile whose top really lies against the facing edge, in its rhythm, is read whole, and
so is one whose last checker, of its paint, lies a little off its rhythm.
"""
from __future__ import annotations

import pytest
from checker_frames import assert_hard_frame_counts_read, drawn_column

from vision import checkers

RADIUS = 12.0
STEP_R = 1.47  # radii between the centres of an overlapped pile, as the renderer draws them
HEIGHT_R = 23.2  # the field's height in radii
WHITE, PRINT = (230, 230, 230), (150, 175, 205)  # a checker's paint; a tan print, as a logo's


def _read_column(centres_r: list[float], fills: list[tuple[int, int, int]] | None = None) -> int:
    """The stack read over discs drawn at ``centres_r`` (radii from the top edge, each over the
    one before; ``fills`` default white) on a grey field :data:`HEIGHT_R` radii tall, once its
    stray end is dropped."""
    height = int(RADIUS * HEIGHT_R)
    _, cand = drawn_column(centres_r, RADIUS, HEIGHT_R, 60, (110, 110, 110), WHITE, (60, 60, 60),
                           fills=fills)
    chains = {("top", 0): cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD,
                                     height - checkers.FAR_REACH * RADIUS)}
    checkers._without_stray_ends({("top", 0): cand}, chains, RADIUS, height)
    return len(chains["top", 0][0])


def test_a_ring_at_the_facing_base_beyond_a_piles_rhythm_is_not_its_checker():
    pile = [1.0 + k * STEP_R for k in range(14)]
    facing_base = HEIGHT_R - 1.0  # a radius from the facing edge: 0.6 radii past the rhythm
    assert facing_base - (pile[-1] + STEP_R) > checkers.REGULAR_SLACK
    assert _read_column(pile + [facing_base]) == 14


def test_a_pile_whose_top_lies_against_the_facing_edge_in_its_rhythm_is_read_whole():
    step = (HEIGHT_R - 2.0) / 14  # fifteen from a radius off one edge to a radius off the other
    assert _read_column([1.0 + k * step for k in range(15)]) == 15


def test_a_ring_of_another_paint_touching_a_piles_end_is_not_its_checker():
    pile = [1.0 + k * STEP_R for k in range(7)]
    touching = pile[-1] + 2.0  # 0.53 radii past the rhythm
    assert _read_column(pile + [touching], [WHITE] * 7 + [PRINT]) == 7
    # Of the pile's paint, a checker so placed is the pile's.
    assert _read_column(pile + [touching]) == 8


@pytest.mark.parametrize("seed, tallest", [(3605, 14), (4089, 14), (1892, 7), (2026, 6)])
def test_hard_frames_with_a_ring_beyond_a_piles_end_read_right(seed: int, tallest: int):
    """Development seeds 3605 (a red 14 read 15 at an empty facing point), 4089 (a white 14 on
    white paint likewise), 1892 (a white 7 and a logo) and 2026 (a white 6 and a die)."""
    assert_hard_frame_counts_read(seed, tallest)
