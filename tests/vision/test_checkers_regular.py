"""The whole-stack fit (:func:`vision.checkers._regular_stack`) on drawn discs.

The fit puts evenly spaced checkers from a base at the edge to a fully visible checker further
out, each allowed a hand's slack (:data:`vision.checkers.REGULAR_SLACK`).  On a real photo
(fm-wood, brightened) it ran past the end of a touching stack onto a logo printed beyond it
and moved the stack's last checker, seen whole, by 0.64 radii: a checker the chain saw whole
stays where it is.
"""
from __future__ import annotations

import numpy as np
from checker_frames import drawn_column

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0


def _candidates(centres_r: list[float]) -> tuple[RingScorer, checkers._Candidates]:
    """Discs drawn light on a dark field, each with a grey outline (see :func:`drawn_column`)."""
    return drawn_column(centres_r, RADIUS, 16, 60, (70, 90, 110), (225, 225, 225), (140, 140, 140))


def _fit(scorer: RingScorer, cand: checkers._Candidates, chain: list[int]) -> list[int] | None:
    return checkers._regular_stack(scorer, cand, chain, True, RADIUS,
                                   checkers.COVERAGE_THRESHOLD, RADIUS * 15, checkers.FIRST_MIN)


def test_a_fit_never_moves_a_checker_seen_whole():
    """Five touching discs seen whole and a sixth 2.4 radii on: six evenly spaced checkers
    would move the fifth 0.32 radii (more than the slack), so no fit is made (the chain,
    which allows uneven steps, is the one to judge the sixth)."""
    scorer, cand = _candidates([1, 3, 5, 7, 9, 11.4])
    assert all(cand.full[:5] >= checkers.COVERAGE_THRESHOLD)
    assert _fit(scorer, cand, [0, 1, 2, 3, 4]) is None
    chain, _ = cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, RADIUS * 15)
    assert len(chain) == 6


def test_a_tall_overlapped_stack_is_still_fitted_from_its_base():
    """Eight discs overlapped at 1.4 radii, the chain holding the base alone (its far arc is
    hidden, so it is not seen whole): the fit finds all eight."""
    centres = [1 + 1.4 * k for k in range(8)]
    scorer, cand = _candidates(centres)
    out = _fit(scorer, cand, [0])
    assert out is not None
    assert len(out) == 8
    assert np.allclose(cand.ys[out] / RADIUS, centres, atol=0.25)
