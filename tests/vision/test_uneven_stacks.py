"""Tall stacks stacked unevenly: one dimmed checker in the middle of a pile.

A whole-stack model (:func:`vision.checkers._best_regular`,
:func:`vision.checkers._faint_tall_stack`) asks every checker for :data:`~vision.checkers.MEMBER_FLOOR` of its rim.  In a tall overlapped
pile each checker shows only a crescent between the one on it and the one under it; a hand's
blur, glare or a checker pushed a little off the pile can dim one crescent below that floor
while its neighbours bracket it, and the right count then failed while a shorter stack passed
(hard seeds 2894: a blue 15 on a blue board read as 4; 2492: a blue 9 read as 7).  One such
checker in the middle of a pile of :data:`~vision.checkers.BLURRED_LEAST` or more may show
less, down to :data:`~vision.checkers.BLURRED_FLOOR`, when it has the pile's paint: a model
running across the bare board between two stacks (a white 9 and the facing white 5 of seed
2400) finds the board's paint there and still fails.

The frame's lip hides rims only at a point's own edge (:data:`vision.rings.LIP_BAND`): a stack
that reached the facing edge is in view there.  A pile holds fifteen at most: when the clear
rhythm of its rims counts more over the stack found, the stack ran on past the pile's end.
"""
from __future__ import annotations

import numpy as np
import pytest

from vision import checkers
from vision.rings import RingScorer

RADIUS = 10.0
COUNT = 9
STEP_R = 1.4  # overlapped, as players stack nine


def _model(image: np.ndarray, weak: dict[int, float]) -> tuple | None:
    """The one model of ``COUNT`` checkers on the column of ``image`` (x 30) from 1 radius
    down, every checker's rim share 0.95 (the top's whole rim 1.0) but those in ``weak``,
    judged by :func:`vision.checkers._best_regular`."""
    scorer = RingScorer(image, RADIUS)
    d = (1.0 + STEP_R * np.arange(COUNT)) * RADIUS
    x = np.full(COUNT, 30.0, np.float32)
    y = d.astype(np.float32)
    share = np.full(COUNT, 0.95, np.float32)
    share[-1] = 1.0
    for k, v in weak.items():
        share[k] = v
    evidence = (share, share.copy(), share.copy(), share.copy())
    return checkers._best_regular(scorer, [(0, 1, COUNT)], [x], [y], [d], evidence, RADIUS,
                                  checkers.COVERAGE_THRESHOLD)


def _column(gap_at: int | None = None) -> np.ndarray:
    """A red column on a grey field; with ``gap_at``, the grey board shows around that
    checker's centre (two stacks meeting there, not one)."""
    image = np.full((int(RADIUS * (2 + STEP_R * COUNT)), 60, 3), 150, np.uint8)
    image[:, 20:41] = (40, 40, 190)
    if gap_at is not None:
        centre = int((1.0 + STEP_R * gap_at) * RADIUS)
        image[centre - 6:centre + 7, 20:41] = 150
    return image


def test_one_dimmed_checker_in_the_middle_keeps_the_count() -> None:
    """Nine overlapped, the fifth's crescent dimmed to 0.55 (below MEMBER_FLOOR): the model
    of nine still passes, the dimmed one costing it its shortfall."""
    assert 0.55 < checkers.MEMBER_FLOOR
    plain = _model(_column(), {})
    dimmed = _model(_column(), {4: 0.55})
    assert plain is not None and dimmed is not None
    assert len(dimmed[3]) == COUNT
    assert dimmed[0] < plain[0]


@pytest.mark.parametrize("weak", [
    {4: 0.55, 6: 0.55},  # two dimmed: not one blur
    {0: 0.55},  # the base
    {4: checkers.BLURRED_FLOOR - 0.05},  # hardly any rim
])
def test_more_than_one_blur_fails(weak: dict[int, float]) -> None:
    """Only one checker, in the middle, with some rim, is excused."""
    assert _model(_column(), weak) is None


def test_a_weak_checker_on_bare_board_fails() -> None:
    """Where the weak checker's middle is the board's paint, the model runs across the gap
    between two stacks: not excused."""
    assert _model(_column(gap_at=4), {4: 0.55}) is None


def test_short_stacks_are_not_excused() -> None:
    """A pile shorter than BLURRED_LEAST shows its rims well enough: no checker is excused."""
    assert checkers._blurred_member(np.array([0.9, 0.55, 0.9, 0.95]), True) is None


def _counts(seed: int) -> tuple[list[int], list[int], list[int], list[int]]:
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    counts = [[r.count if r else 0 for r in row] for row in (obs.top, obs.bottom,
                                                             scene.truth.top, scene.truth.bottom)]
    return counts[0], counts[1], counts[2], counts[3]


def test_blue_fifteen_on_a_blue_board_is_read() -> None:
    """Hard seed 2894: a blue 15 on a blue board, one crescent dimmed (0.57), read as 4."""
    top, bottom, want_top, want_bottom = _counts(2894)
    assert want_bottom[1] == 15
    assert (top, bottom) == (want_top, want_bottom)


def test_blue_nine_is_read() -> None:
    """Hard seed 2492: a blue 9 (top[5]) read as 7."""
    top, _, want_top, _ = _counts(2492)
    assert want_top[5] == 9
    assert top[5] == 9


def test_facing_stacks_of_one_colour_stay_apart() -> None:
    """Hard seed 2400: a white 9 and the facing white 5 on one column; a model across the
    board between them (one weak checker there) must not join them."""
    top, bottom, want_top, want_bottom = _counts(2400)
    assert (want_top[7], want_bottom[7]) == (5, 9)
    assert (top, bottom) == (want_top, want_bottom)


def _lip_inside(y: float, edge_up: bool | np.ndarray | None, unseen: bool = True
                ) -> np.ndarray:
    """Which ring directions count as seen (``_ring_hits``' second output) around a centre
    ``y`` down a plain field 10 radii tall: nothing rings there, so only the lip decides."""
    field = np.full((int(RADIUS * 10), 60, 3), 120, np.uint8)
    scorer = RingScorer(field, RADIUS, (0.0, 0.0, 60.0, RADIUS * 10), unseen=unseen)
    centre = np.float32([30.0]), np.float32([y])
    return scorer._ring_hits(*centre, edge_up)[1][0].astype(bool)


@pytest.mark.parametrize("y, own_edge_up", [(RADIUS * 0.9, True),
                                            (RADIUS * 10 - RADIUS * 0.9, False)])
def test_the_lip_hides_rims_at_the_points_own_edge_only(y: float, own_edge_up: bool) -> None:
    """A ring beside the field's top (or bottom) edge: for a point whose edge that is (the
    stack's base, under the frame's lip) the directions in the lip's band are unseen; for the
    facing point (a stack that reached across) they count, as anywhere in the field, and a rim
    missing there is missing."""
    both = _lip_inside(y, None)
    plain = _lip_inside(y, None, unseen=False)
    assert (plain & ~both).any()  # the band matters here
    assert np.array_equal(_lip_inside(y, own_edge_up), both)
    assert np.array_equal(_lip_inside(y, not own_edge_up), plain)
    # Per centre, as both rows are sampled at once.
    assert np.array_equal(_lip_inside(y, np.array([own_edge_up])), both)


def test_a_pile_ends_within_fifteen_steps_of_its_rhythm() -> None:
    """Hard seed 2578: a white 15 whose end lies in glare on the facing point's white paint was
    fitted on to the facing base as 14 wider steps; its rims' rhythm, clear, counts 18 over
    that span, which no pile holds: the pile ends at its furthest clear checker a whole number
    of steps out."""
    top, bottom, want_top, want_bottom = _counts(2578)
    assert want_bottom[2] == 15
    assert (top, bottom) == (want_top, want_bottom)
