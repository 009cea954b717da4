"""A stack found beside its column's axis, on a quarter whose corners sit off, is given to the
column the quarter's fit says it lies on, whichever column's search found it.

On a real photo (start-red-black, a corner placed on the frame) the top-right quarter's outer
column lies about half a point width inward of where the geometry puts it; darkened (a dim
room), its black pair was found only by its own column's search beside the axis, a pixel beyond
half a point width from it after the lateral offsets, and was handed to the neighbouring column
without the fits being compared.  Seen from a seat, the pair was found by the inner neighbour's
search instead, a pixel beyond half a point width from its own axis, and kept there untried on
its own column; defocused, both columns' searches found it and it was counted twice.  Fields are
drawn with OpenCV (discs on a plain field); the real photo's reads skip where the labelled photos
are absent.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import POINTS_PER_ROW, BoardGeometry
from vision import checkers
from vision.evaluate import load_real, real_dir
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



def _found_by(scorer: RingScorer, columns: tuple[int, ...]) -> dict:
    """The outer pair as :func:`checkers._off_axis_stacks` reports it when the searches of
    ``columns`` find it (each search's probe on the pair's ring peak)."""
    ys = np.arange(RADIUS * checkers.FIRST_MIN, GEOMETRY.height - RADIUS * 0.5, 1.0,
                   dtype=np.float32)
    limit = GEOMETRY.height - RADIUS * checkers.FAR_REACH
    pair_x = _axis(OUTER) + OUTER_OFF * WIDTH
    found = {}
    for column in columns:
        cand = checkers._point_candidates(scorer, {("top", column): pair_x}, ys,
                                          GEOMETRY)[("top", column)]
        chain = cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, limit, checkers.FIRST_MIN)
        assert len(chain[0]) == 2
        found["top", column] = (cand, chain)
    return found


def _owner_of(found: dict) -> list[int]:
    """The columns of the top row holding a stack once the pair ``found`` has been given an
    owner (the axes' own readings as :func:`checkers.find_checkers` makes them)."""
    scorer = _shifted_quarter()
    ys = np.arange(RADIUS * checkers.FIRST_MIN, GEOMETRY.height - RADIUS * 0.5, 1.0,
                   dtype=np.float32)
    limit = GEOMETRY.height - RADIUS * checkers.FAR_REACH
    centres = {(row, column): _axis(column) for row in ("top", "bottom")
               for column in range(POINTS_PER_ROW)}
    candidates = checkers._point_candidates(scorer, centres, ys, GEOMETRY)
    chains = {key: cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, limit, checkers.FIRST_MIN)
              for key, cand in candidates.items()}
    _, measured = checkers._with_off_axis_stacks(scorer, GEOMETRY, centres, candidates, chains,
                                                 found)
    return [column for column in range(POINTS_PER_ROW) if measured["top", column][0]]


def test_pair_found_by_the_inner_neighbours_search_is_tried_on_the_column_it_lies_toward():
    # Real start-red-black seen from a seat at 45 degrees: the pair lay 11.1 pixels from the
    # inner neighbour's axis and 13.6 from its own, a pixel past what the neighbour's owner
    # test allowed, and was read on the inner neighbour without its own column being tried.
    found = _found_by(_shifted_quarter(), (OUTER - 1,))
    x = float(np.median(found["top", OUTER - 1][0].px[found["top", OUTER - 1][1][0]]))
    assert x - _axis(OUTER - 1) < 0.5 * WIDTH < _axis(OUTER) - x - 1.0
    assert _owner_of(found) == [INNER, OUTER]


def test_pair_found_by_both_neighbours_searches_counts_once():
    # Real start-red-black defocused by 0.5% of the field width: both empty axes' searches
    # found the pair; counted on both, the quarter's checkers fitted no line and no column was
    # moved, and the pair was lost.
    assert _owner_of(_found_by(_shifted_quarter(), (OUTER - 1, OUTER))) == [INNER, OUTER]


needs_real = pytest.mark.skipif(not (real_dir() / "labels.json").exists(),
                                reason="real labelled boards not present")
#: Read wrong so far (issue 4): under-exposed, the black pair on its dark-brown point shows
#: its rim only against the light field beside it (the checkers and the point are the same
#: one to three 8-bit lightness levels), a share of 0.62 to 0.81 all round, under the ring
#: threshold; at gamma 1.8 the empty olive point beside it, between dark bases, shows 0.91
#: on the expanded darks (vision.exposure) and is read as a pair.
rims_under_threshold = pytest.mark.xfail(strict=True, reason="dark pair on a dark point")


@needs_real
@pytest.mark.parametrize("transform", [
    "from a seat: 45 deg from the bottom edge, field 400 px",
    "defocus (disc radius 0.5% of field width)",
    pytest.param("darker (gamma 1.8)", marks=rims_under_threshold),
    pytest.param("darker still (gamma 2.2)", marks=rims_under_threshold),
])
def test_real_pair_half_a_point_off_its_axis_is_read_on_its_column(transform: str):
    """start-red-black's black pair on top[11], half a point width inward of where the label
    corners put the column, is read there and top[10] stays empty."""
    from vision.augment import TRANSFORMS
    from vision.evaluate import _wrong_points, score_board
    from vision.reader import BoardReader

    frame = next(f for f in load_real() if f["name"] == "start-red-black.jpg")
    assert frame["truth"].top[10] is None
    assert (frame["truth"].top[11].colour, frame["truth"].top[11].count) == ("black", 2)
    image, corners = TRANSFORMS[transform](frame["image"], frame["corners"])
    obs = BoardReader().read(image, corners=corners)
    wrong = _wrong_points(obs, frame["truth"], score_board(obs, frame["truth"])["mapping"])
    assert not [w for w in wrong if w.startswith(("top[10] ", "top[11] "))], wrong
