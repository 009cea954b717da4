"""Candidates placed beside their rim's centre, read again in line with their stack.

The coarse ring map that places candidate centres is made at half resolution and sampled at a
few lateral offsets, so a stack's next checker may be placed a pixel or two beside its rim's
centre, where its ring misses the rim on one side and its share falls just short.  Fields are
drawn with OpenCV (discs) or by the renderer.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.checkers import COVERAGE_THRESHOLD, _in_line_with_neighbours, find_checkers
from vision.reader import rectify
from vision.render import RenderOptions, render_board
from vision.rings import RingScorer

RADIUS = 12
AXIS_X = 40
#: How far beside its rim's centre the second checker's candidate is put: its share all round
#: is then borderline (asserted below).
BESIDE = 5.75


def _two_touching_checkers() -> RingScorer:
    """A stack of two touching light checkers against the top edge of a plain field."""
    field = np.full((8 * RADIUS, 80, 3), (60, 110, 170), np.uint8)
    for cy in (RADIUS, 3 * RADIUS):
        cv2.circle(field, (AXIS_X, cy), RADIUS, (235, 235, 235), -1, cv2.LINE_AA)
        cv2.circle(field, (AXIS_X, cy), RADIUS, (150, 150, 150), 1, cv2.LINE_AA)
    return RingScorer(field, float(RADIUS))


def _refined(scorer: RingScorer, px: list[float], py: list[float], point: list[int]):
    px_arr, py_arr = np.float32(px), np.float32(py)
    up = np.ones(len(px), bool)
    evidence = scorer.coverage_and_contact_free(px_arr, py_arr, up)
    return evidence, _in_line_with_neighbours(scorer, np.array(point), py_arr, px_arr, up,
                                              evidence)


def test_borderline_candidate_is_read_again_in_line_with_the_clear_one_next_to_it():
    scorer = _two_touching_checkers()
    evidence, (px, refined) = _refined(scorer, [AXIS_X, AXIS_X + BESIDE],
                                       [RADIUS, 3 * RADIUS], [0, 0])
    assert evidence[0][0] >= COVERAGE_THRESHOLD
    assert COVERAGE_THRESHOLD - 0.12 <= evidence[0][1] < COVERAGE_THRESHOLD
    assert px.tolist() == [AXIS_X, AXIS_X]
    assert refined[0][1] >= COVERAGE_THRESHOLD
    # Every share is the one read at the new place.
    again = scorer.coverage_and_contact_free(np.float32([AXIS_X]), np.float32([3 * RADIUS]),
                                             np.array([True]))
    assert [float(share[1]) for share in refined] == [float(share[0]) for share in again]


def test_candidate_without_a_clear_neighbour_on_its_point_stays_where_it_was():
    scorer = _two_touching_checkers()
    # The clear checker belongs to another point; then none at all.
    _, (px, refined) = _refined(scorer, [AXIS_X, AXIS_X + BESIDE], [RADIUS, 3 * RADIUS],
                                [0, 1])
    assert px.tolist() == [AXIS_X, AXIS_X + BESIDE]
    _, (px, _) = _refined(scorer, [AXIS_X + BESIDE], [3 * RADIUS], [0])
    assert px.tolist() == [AXIS_X + BESIDE]


def test_clear_candidate_more_than_a_stack_step_away_is_no_neighbour():
    scorer = _two_touching_checkers()
    _, (px, _) = _refined(scorer, [AXIS_X, AXIS_X + BESIDE], [RADIUS, 5 * RADIUS], [0, 0])
    assert px.tolist() == [AXIS_X, AXIS_X + BESIDE]


def test_drawn_two_stack_read_whole_where_the_ring_map_put_its_second_checker_beside():
    # Hard synthetic seed 288 (blue-white): bottom[0] holds two blue checkers; the ring map
    # put the second a pixel or two beside its centre (rim share 0.81) and it was lost.
    scene = render_board(None, RenderOptions(seed=288, hard=True))
    rect = rectify(scene.image, scene.corners)
    findings = find_checkers(rect.field, rect.geometry)
    stack = next(s for s in findings.stacks if s.row == "bottom" and s.column == 0)
    assert scene.truth.bottom[0].count == 2
    assert len(stack.centres) == 2
