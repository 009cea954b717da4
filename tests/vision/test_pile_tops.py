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

import cv2
import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
STEP_R = 1.36  # radii between the centres of an overlapped pile


def _pile(count: int, open_top: bool) -> checkers._Candidates:
    """Candidates at the centres of ``count`` red discs with a dark outline on grey, each lying
    on the one before, from the top edge down; with ``open_top`` the last one's outline is
    missing where it lies on the one under it (its near arc), as blur leaves it."""
    image = np.full((int(RADIUS * 22), 90, 3), 150, np.uint8)
    ys_r = [1.05 + k * STEP_R for k in range(count)]
    for k, y in enumerate(ys_r):
        centre = (45, int(round(y * RADIUS)))
        cv2.circle(image, centre, int(RADIUS), (40, 40, 190), -1)
        if k == count - 1 and open_top:
            cv2.ellipse(image, centre, (int(RADIUS), int(RADIUS)), 0, -30, 210, (20, 20, 90), 1)
        else:
            cv2.circle(image, centre, int(RADIUS), (20, 20, 90), 1)
    scorer = RingScorer(image, RADIUS)
    ys = np.float32(ys_r) * np.float32(RADIUS)
    px = np.full(ys.shape, 45, np.float32)
    full, no_far, no_near, far_arc = scorer.coverage(px, ys, True)
    return checkers._Candidates(ys, px, ys.copy(), full, no_far, no_near,
                                scorer.colour_at(px, ys), far_arc)


def _read(cand: checkers._Candidates) -> int:
    chain, _ = cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, 21.4 * RADIUS)
    return len(chain)


@pytest.mark.parametrize("count", [4, 7])
def test_a_pile_whose_top_is_open_where_it_lies_on_the_pile_is_read_whole(count: int):
    cand = _pile(count, open_top=True)
    assert cand.full[-1] < checkers.COVERAGE_THRESHOLD <= cand.no_near[-1]
    assert _read(cand) == count
    assert _read(_pile(count, open_top=False)) == count


@pytest.mark.parametrize("count", [2, 3])
def test_a_short_overlapped_stack_with_such_an_end_is_not_taken(count: int):
    """A ring overlapping a lone checker or a pair is where a faint ring beyond a short stack
    lies: such an end closes only a pile of PILE_TOP_LEAST."""
    assert count < checkers.PILE_TOP_LEAST
    assert _read(_pile(count, open_top=True)) == 0


@pytest.mark.parametrize("seed, tallest", [(3849, 13), (3544, 13)])
def test_hard_frames_whose_pile_top_is_open_read_right(seed: int, tallest: int):
    """Development seeds 3849 (chain) and 3544 (whole-stack fit of a faint pile)."""
    assert_hard_frame_counts_read(seed, tallest)


def test_a_pile_running_the_whole_point_belongs_to_the_base_a_radius_out():
    """Development seed 3964: a white 15 from the top edge to near the bottom one."""
    assert_hard_frame_counts_read(3964, 15)
