"""A stack found beside its column's axis, on a quarter whose corners sit off, is given to the
column whose search found it when the quarter's fit says it lies there.

On a real photo (start-red-black, a corner placed on the frame) the top-right quarter's outer
column lies about half a point width inward of where the geometry puts it; darkened (a dim
room), its black pair was found only by its own column's search beside the axis, a pixel beyond
half a point width from it after the lateral offsets, and was handed to the neighbouring column
without the fits being compared.  Fields are drawn with OpenCV (discs on a plain field).
"""
from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import POINTS_PER_ROW, BoardGeometry
from vision import checkers
from vision.rings import RingScorer

GEOMETRY = BoardGeometry.default(aspect=0.85)
RADIUS = GEOMETRY.checker_radius
WIDTH = GEOMETRY.point_width
#: The quarter's inner column (by the bar) holds four checkers a little beside its axis; the
#: outer one (by the field's side) a pair this many point widths inward of its axis: a little
#: over half a point width, nearer its own axis's fit than its neighbour's (see below).
INNER, OUTER = 6, 11
INNER_OFF, OUTER_OFF = -0.08, -0.55


def _axis(column: int) -> float:
    return GEOMETRY.margin + GEOMETRY.column_x(column)


def _shifted_quarter_field() -> np.ndarray:
    """Red checkers on a tan field (BGR): the top-right quarter's columns drawn where corners
    placed too far out put them (the inner column near its axis, the outer one half a point
    inward)."""
    field = np.full((GEOMETRY.height, GEOMETRY.width, 3), (120, 170, 200), np.uint8)
    for column, count, offset in ((INNER, 4, INNER_OFF), (OUTER, 2, OUTER_OFF)):
        for k in range(count):
            centre = (int(round(_axis(column) + offset * WIDTH)), int(round(RADIUS * (1 + 2 * k))))
            cv2.circle(field, centre, int(RADIUS), (40, 40, 200), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(field, (0, 0), 0.8)


def _shifted_quarter() -> RingScorer:
    """The ring evidence of :func:`_shifted_quarter_field`, as :func:`checkers.find_checkers`
    makes it."""
    return RingScorer(_shifted_quarter_field(), RADIUS, (0, 0, GEOMETRY.width, GEOMETRY.height),
                      unseen=True)


def _measured_owner(scorer: RingScorer) -> list[int]:
    """The columns of the top row holding a stack once the outer pair, found by its own
    column's search beside the axis, has been given an owner."""
    ys = np.arange(RADIUS * checkers.FIRST_MIN, GEOMETRY.height - RADIUS * 0.5, 1.0,
                   dtype=np.float32)
    limit = GEOMETRY.height - RADIUS * checkers.FAR_REACH
    centres = {(row, column): _axis(column) for row in ("top", "bottom")
               for column in range(POINTS_PER_ROW)}

    def chain(cand: checkers._Candidates) -> tuple:
        return cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, limit, checkers.FIRST_MIN)

    candidates = checkers._point_candidates(scorer, centres, ys, GEOMETRY)
    chains = {key: chain(cand) for key, cand in candidates.items()}
    # The outer column's search window reaches half a point width inward of its axis.
    probe = {("top", OUTER): _axis(OUTER) - 0.5 * WIDTH}
    found = checkers._point_candidates(scorer, probe, ys, GEOMETRY)[("top", OUTER)]
    found_chain = chain(found)
    assert len(found_chain[0]) == 2
    # Beyond the half point width (and the pixel of slack) that the neighbour's ownership asks.
    x = float(np.median(found.px[found_chain[0]]))
    assert _axis(OUTER) - x > 0.5 * WIDTH + 1.0
    _, measured = checkers._with_off_axis_stacks(scorer, GEOMETRY, centres, candidates, chains,
                                                 {("top", OUTER): (found, found_chain)})
    return [column for column in range(POINTS_PER_ROW) if measured["top", column][0]]


def test_stack_beside_its_axis_stays_with_the_column_whose_fit_moves_least():
    # On the outer column the quarter's line moves no column by more than the pair's own
    # offset; on its neighbour it would put the outer column beyond the field's side.
    assert _measured_owner(_shifted_quarter()) == [INNER, OUTER]


def test_pair_beside_the_outer_axis_is_read_on_its_column():
    findings = checkers.find_checkers(_shifted_quarter_field(), GEOMETRY)
    counts = {stack.column: stack.count for stack in findings.row("top") if stack.count}
    assert counts == {INNER: 4, OUTER: 2}

