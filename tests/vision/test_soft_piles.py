"""Short overlapped piles on a defocused field (:data:`vision.checkers.SOFT_PILE_TOP_LEAST`).

The top of a pile lies on a checker of its own paint, and where they meet its rim is a line
between two faces of one colour that defocus wipes out; on a sharp field only a pile of
:data:`~vision.checkers.PILE_TOP_LEAST` may end on such a top (a ring overlapping a lone
checker or a pair is where a faint ring beyond a short stack lies).  On a field measured soft
(:data:`vision.rings.SOFT_FIELD`) a pile of three may too, when the checkers under its top show
their rims clearly but for their far arcs: the real photo start-red-black defocused by 1% of the
field's width, top[4] (red 3, its top's rim 0.78 all round, 0.91 but its near arc, the two
under it 0.94 and 0.91 but their far arcs); solid seed 462 has a ring over a lone white
checker, the one "under" it 0.70 but its far arc, which stays a lone checker.
"""
from __future__ import annotations

import numpy as np
from checker_frames import PILE_RADIUS, painted_pile

from vision import checkers
from vision.rings import RingScorer

def _pile(count: int, soft: bool, broken_under: bool = False) -> checkers._Candidates:
    """A painted pile of ``count`` whose top is open where it lies on the one under it
    (:func:`checker_frames.painted_pile`); ``soft``: the field was measured soft."""
    cand = painted_pile(count, open_top=True, broken_under=broken_under)
    cand.soft = soft
    return cand


def _read(cand: checkers._Candidates) -> int:
    chain, _ = cand.chain(PILE_RADIUS, checkers.COVERAGE_THRESHOLD, 21.4 * PILE_RADIUS)
    return len(chain)


def test_a_pile_of_three_ends_on_a_top_open_where_it_lies_only_on_a_soft_field():
    assert checkers.SOFT_PILE_TOP_LEAST == 3 < checkers.PILE_TOP_LEAST
    cand = _pile(3, soft=True)
    assert cand.full[-1] < checkers.COVERAGE_THRESHOLD <= cand.no_near[-1]
    assert _read(cand) == 3
    assert _read(_pile(3, soft=False)) == 0


def test_a_pair_does_not_end_on_such_a_top_even_on_a_soft_field():
    assert _read(_pile(2, soft=True)) == 0


def test_a_short_pile_whose_checker_under_the_top_shows_a_broken_rim_is_not_taken():
    cand = _pile(3, soft=True, broken_under=True)
    assert cand.no_far[-2] < checkers.COVERAGE_THRESHOLD, cand.no_far
    assert _read(cand) == 0
    assert _read(_pile(4, soft=True, broken_under=True)) == 4  # a tall pile's rule is unchanged


def test_a_defocused_field_marks_its_candidates_soft():
    """The candidates of a rendered start position defocused by 1% of the field's width are
    those of a soft field; the sharp frame's are not."""
    from engine.position import Position
    from vision.augment import defocus, field_width
    from vision.reader import rectify
    from vision.render import RenderOptions, render_board
    from calibration.geometry import with_fourth_channel

    scene = render_board(Position.start(), RenderOptions(seed=2, hard=False))
    for share, soft in ((0.0, False), (0.01, True)):
        image, corners = defocus(scene.image, scene.corners, share * field_width(scene.corners))
        rect = rectify(with_fourth_channel(image, None), corners, None)
        geometry = rect.geometry
        scorer = RingScorer(rect.field, geometry.checker_radius)
        ys = np.arange(geometry.checker_radius, geometry.height / 2, 1.0, dtype=np.float32)
        found = checkers._point_candidates(
            scorer, {("top", 0): geometry.margin + geometry.column_x(0)}, ys, geometry, None)
        assert found["top", 0].soft is soft
