"""Tall stacks too faint for the chain and the whole-stack fit
(:func:`vision.checkers._faint_tall_stack`).

Glare clipped to plain white hides the middle of a white stack: nothing can show there, rim or
not, so those checkers count as unseen rather than missing.  On the synthetic hard set this
lost whole stacks of 11 and 15 (seeds 58, 156, 356); a red 15 on a red point whose top
checker's rim is faint where it lies on the one under it was lost too (seed 29).
"""
from __future__ import annotations

import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read, drawn_column

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
STEP_R = 1.36  # a stack of fifteen is overlapped about this much (radii between centres)


def _drawn(centres_r: list[float], clipped_r: tuple[float, float] | None
           ) -> tuple[RingScorer, checkers._Candidates]:
    """White discs with a grey outline on a mid-grey field (see :func:`drawn_column`)."""
    return drawn_column(centres_r, RADIUS, 24, 80, (150, 150, 150), (235, 235, 235),
                        (120, 120, 120), clipped_r)


def _faint(scorer: RingScorer, cand: checkers._Candidates, chain: list[int]) -> list[int] | None:
    return checkers._faint_tall_stack(scorer, cand, chain, True, RADIUS,
                                      checkers.COVERAGE_THRESHOLD, RADIUS * 23, checkers.FIRST_MIN)


def test_a_stack_partly_under_clipped_glare_is_counted_whole():
    """Eleven overlapped discs, four of them in a clipped band: the whole-stack fit gives up
    (their rims are missing), the faint-stack fit counts all eleven, evenly spaced."""
    centres = [1 + STEP_R * k for k in range(11)]
    scorer, cand = _drawn(centres, (3.6, 8.8))
    assert (cand.full[3:7] < checkers.MEMBER_FLOOR).all()
    assert checkers._regular_stack(scorer, cand, [0], True, RADIUS, checkers.COVERAGE_THRESHOLD,
                                   RADIUS * 23, checkers.FIRST_MIN) is None
    out = _faint(scorer, cand, [0])
    assert out is not None and len(out) == 11
    assert np.allclose(cand.ys[out] / RADIUS, centres, atol=0.25)


def test_glare_does_not_join_two_checkers_into_a_stack():
    """A checker at the edge and one further out with clipped glare between them: the stack a
    fit would put there needs rims outside the glare too, and there are none."""
    scorer, cand = _drawn([1.0, 10.0], (3.0, 8.0))
    assert _faint(scorer, cand, [0]) is None


def test_a_stack_mostly_unseen_is_not_read():
    """Eleven overlapped discs with seven of them clipped: too little shows to count them."""
    centres = [1 + STEP_R * k for k in range(11)]
    scorer, cand = _drawn(centres, (2.2, 11.8))
    assert _faint(scorer, cand, [0]) is None


@pytest.mark.parametrize("seed", [29, 58, 156, 87])
def test_boards_with_faint_tall_stacks_are_read_exactly(seed: int):
    """Hard synthetic frames whose stacks of ten or more were read as empty points: a red 15
    on a red point (29), a white 15 and a white 11 under glare (58, 156); and a black 14 whose
    far end, seen from the facing edge, must not become a faint stack of that point (87)."""
    assert_hard_frame_counts_read(seed, 10)
