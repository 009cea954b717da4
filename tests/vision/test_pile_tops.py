"""The top of a tall pile, which lies on a checker of its own paint, and which side owns a pile
that runs the whole point (:data:`vision.checkers.PILE_TOP_LEAST`).

Where the top checker of an overlapped pile lies on the one under it, its rim is a line between
two faces of one colour; blur, or glare clipped to white, wipes that arc out, and the top falls
short of a whole rim by an arc's worth.  Development seeds 3849 (white 13 under glare read 10:
the chain stopped at the last checker with a whole rim) and 3544 (a blurred red 13 read empty:
its whole-stack fit was refused at the top) are read right now that such a top ends a pile of
four or more.  A pile of fifteen touching both edges is read from both: seed 3964's belongs to
the top (its base a radius from the edge), not the bottom (a ring on the frame's lip 0.6 radii
out), which had won as the base nearer its edge.
"""
from __future__ import annotations

import pytest
from checker_frames import PILE_RADIUS, assert_hard_frame_counts_read, painted_pile

from vision import checkers

def _read(cand: checkers._Candidates) -> int:
    chain, _ = cand.chain(PILE_RADIUS, checkers.COVERAGE_THRESHOLD, 21.4 * PILE_RADIUS)
    return len(chain)


@pytest.mark.parametrize("count", [4, 7])
def test_a_pile_whose_top_is_open_where_it_lies_on_the_pile_is_read_whole(count: int):
    cand = painted_pile(count, open_top=True)
    assert cand.full[-1] < checkers.COVERAGE_THRESHOLD <= cand.no_near[-1]
    assert _read(cand) == count
    assert _read(painted_pile(count, open_top=False)) == count


@pytest.mark.parametrize("count", [2, 3])
def test_a_short_overlapped_stack_with_such_an_end_is_not_taken(count: int):
    """A ring overlapping a lone checker or a pair is where a faint ring beyond a short stack
    lies: such an end closes only a pile of PILE_TOP_LEAST."""
    assert count < checkers.PILE_TOP_LEAST
    assert _read(painted_pile(count, open_top=True)) == 0


@pytest.mark.parametrize("seed, tallest", [(3849, 13), (3544, 13)])
def test_hard_frames_whose_pile_top_is_open_read_right(seed: int, tallest: int):
    """Development seeds 3849 (chain) and 3544 (whole-stack fit of a faint pile)."""
    assert_hard_frame_counts_read(seed, tallest)


def test_a_pile_running_the_whole_point_belongs_to_the_base_a_radius_out():
    """Development seed 3964: a white 15 from the top edge to near the bottom one."""
    assert_hard_frame_counts_read(3964, 15)
