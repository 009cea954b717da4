"""Tall stacks counted to their whole-rimmed top (:func:`vision.checkers._regular_stack`).

The whole-stack fit tries evenly spaced models from a base at the edge to a checker showing a
clear rim further out, first with every centre on the line through the model's ends, and only
when none passes with each centre where the ring map puts it beside that line.  A tall stack
often holds a member whose rim shows almost whole (0.84-0.88 of the ring) a few checkers
before its real top: the model ending there passed on the line, while the model running on to
the top (a whole rim) failed there by one checker a hand had put a little beside the line,
and the sideways fit was never tried.  On the development seeds 2400-2999 a gold 15 read as 6
(seed 2404) and a white 12 as 9 (seed 2460).  A best model on the line that ends short of a
whole rim now has the longer models from its base to a whole-rimmed end fitted sideways too.
"""
from __future__ import annotations

from checker_frames import assert_hard_frame_counts_read, drawn_column

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
FIELD, LIGHT, OUTLINE = (70, 90, 110), (225, 225, 225), (140, 140, 140)


def _column(offsets_r: list[float], step_r: float = 1.4, fill=LIGHT
            ) -> tuple[RingScorer, checkers._Candidates]:
    """Discs drawn ``fill`` with a grey outline on a dark field, overlapped ``step_r`` radii
    apart from the top edge, each later one over the one before and ``offsets_r`` radii beside
    the column."""
    centres_r = [1 + step_r * k for k in range(len(offsets_r))]
    return drawn_column(centres_r, RADIUS, 20, 80, FIELD, fill, OUTLINE, offsets_r=offsets_r)


def _fit(scorer: RingScorer, cand: checkers._Candidates) -> list[int] | None:
    return checkers._regular_stack(scorer, cand, [0], True, RADIUS,
                                   checkers.COVERAGE_THRESHOLD, RADIUS * 19, checkers.FIRST_MIN)


def test_a_member_beside_the_line_does_not_end_a_tall_stack():
    """Ten discs, the seventh half a radius beside the column: the sixth then shows most of
    its rim (a possible top), the seventh little of its own on the column.  The stack still
    runs to the tenth, its whole-rimmed top."""
    offsets = [0.0] * 10
    offsets[6] = 0.55
    scorer, cand = _column(offsets)
    assert cand.full[5] >= checkers.COVERAGE_THRESHOLD > cand.no_far[6]
    assert cand.full[9] >= checkers.WHOLE_RIM
    out = _fit(scorer, cand)
    assert out is not None and len(out) == 10


def test_a_stack_on_its_line_is_fitted_as_before():
    scorer, cand = _column([0.0] * 10)
    out = _fit(scorer, cand)
    assert out is not None and len(out) == 10


def test_hard_frame_with_a_gold_fifteen_reads_right():
    """Development seed 2404: a gold 15 on a green-cork board read as 6."""
    assert_hard_frame_counts_read(2404, 15)


def test_hard_frame_with_a_white_twelve_reads_right():
    """Development seed 2460: a white 12 on an olive felt board under glare read as 9."""
    assert_hard_frame_counts_read(2460, 12)
