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

import cv2
import numpy as np
import pytest

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
STEP_R = 1.36  # radii between the centres of an overlapped pile


def _pile(count: int, soft: bool, broken_under: bool = False) -> checkers._Candidates:
    """Candidates at the centres of ``count`` red discs with a dark outline on grey, each lying
    on the one before from the top edge down, the last one's outline missing where it lies on
    the one under it (its near arc), as defocus leaves it; ``broken_under``: the one under the
    top misses a third of its outline on a side as well; ``soft``: the field was measured
    soft."""
    image = np.full((int(RADIUS * 22), 90, 3), 150, np.uint8)
    ys_r = [1.05 + k * STEP_R for k in range(count)]
    for k, y in enumerate(ys_r):
        centre, axes = (45, int(round(y * RADIUS))), (int(RADIUS), int(RADIUS))
        cv2.circle(image, centre, int(RADIUS), (40, 40, 190), -1)
        if k == count - 1:
            cv2.ellipse(image, centre, axes, 0, -30, 210, (20, 20, 90), 1)
        elif k == count - 2 and broken_under:
            cv2.ellipse(image, centre, axes, 0, 0, 230, (20, 20, 90), 1)
        else:
            cv2.circle(image, centre, int(RADIUS), (20, 20, 90), 1)
    scorer = RingScorer(image, RADIUS)
    ys = np.float32(ys_r) * np.float32(RADIUS)
    px = np.full(ys.shape, 45, np.float32)
    full, no_far, no_near, far_arc = scorer.coverage(px, ys, True)
    cand = checkers._Candidates(ys, px, ys.copy(), full, no_far, no_near,
                                scorer.colour_at(px, ys), far_arc)
    cand.soft = soft
    return cand


def _read(cand: checkers._Candidates) -> int:
    chain, _ = cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, 21.4 * RADIUS)
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
