"""Ring directions where a rim cannot show are unseen, not missing (vision.rings.LIP_BAND):
under the frame's lip at the field's near and far edges a miss is no evidence against a
checker, while nothing is made of a plain field or a bare edge where no rim shows."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.position import Position
from vision.checkers import COVERAGE_THRESHOLD, find_checkers
from vision.reader import Rectified, rectify
from vision.render import RenderOptions, render_board
from vision.rings import LIP_BAND, RingScorer

RADIUS = 12.0
SIZE = (120, 160)  # height, width
BOX = (0.0, 0.0, float(SIZE[1]), float(SIZE[0]))


def _scorer(field: np.ndarray, unseen: bool) -> RingScorer:
    return RingScorer(field, RADIUS, BOX, unseen=unseen)


@pytest.fixture(scope="module")
def frame_529() -> Rectified:
    """Hard seed 529's field (corners given): a red 6 touching the frame at the field's top
    right corner."""
    scene = render_board(None, RenderOptions(seed=529, hard=True))
    return rectify(scene.image, scene.corners)


def test_a_base_under_the_lip_keeps_its_rim(frame_529: Rectified) -> None:
    """The stack's base, its rim along the field's top edge under the frame's lip: without the
    arcs there it shows a clear rim but for its far arc (the next checker touches it there);
    counted as missing they sank the whole stack."""
    field, radius = frame_529.field, frame_529.geometry.checker_radius
    box = (0.0, 0.0, float(field.shape[1]), float(field.shape[0]))
    x, y = np.array([307.5], np.float32), np.array([11.6], np.float32)
    plain = RingScorer(field, radius, box).coverage(x, y, True)[1][0]
    seen = RingScorer(field, radius, box, unseen=True).coverage(x, y, True)[1][0]
    assert plain < COVERAGE_THRESHOLD <= seen


def test_stack_against_the_frame_is_read(frame_529: Rectified) -> None:
    """Hard seed 529: the red 6 was not read at all (and the colours were named the wrong way
    round for want of it)."""
    found = find_checkers(frame_529.field, frame_529.geometry)
    stack = next(s for s in found.stacks if s.row == "top" and s.column == 11)
    assert len(stack.centres) == 6


def test_only_misses_under_the_lip_are_unseen(frame_529: Rectified) -> None:
    """Around the base of seed 529's stack (its rim along the field's top edge) the directions
    whose ring sample lies within the band of the edge and show no rim are left out; those
    that show one, and every direction further in, count as before."""
    field, radius = frame_529.field, frame_529.geometry.checker_radius
    box = (0.0, 0.0, float(field.shape[1]), float(field.shape[0]))
    x, y = 307.5, 11.6
    centre = np.array([x], np.float32), np.array([y], np.float32)
    plain_hit, plain_inside = (v[0].astype(bool) for v in
                               RingScorer(field, radius, box)._ring_hits(*centre))
    hit, inside = (v[0].astype(bool) for v in
                   RingScorer(field, radius, box, unseen=True)._ring_hits(*centre))
    assert np.array_equal(hit, plain_hit)
    angles = np.linspace(0, 2 * np.pi, len(hit), endpoint=False)
    mid_y = np.rint(np.float32(y) + np.float32(radius) * np.sin(angles).astype(np.float32))
    under = mid_y < LIP_BAND * radius
    assert np.array_equal(inside, plain_inside & (~under | hit))
    assert (plain_inside & under & ~hit).any()  # the case is one where it matters


@pytest.mark.parametrize("y", [RADIUS * 0.5, RADIUS, 60.0, SIZE[0] - RADIUS])
def test_no_rim_is_made_where_nothing_shows(y: float) -> None:
    """Unseen arcs are left out, never counted as rims: a plain field, at the edges and
    between them, gives no rim share with or without them."""
    field = np.full((*SIZE, 3), 90, np.uint8)
    cv2.rectangle(field, (0, 0), (20, 20), (200, 200, 200), -1)  # an edge elsewhere
    scorer = _scorer(field, True)
    shares = scorer.coverage(np.array([90.0], np.float32), np.array([y], np.float32))
    assert max(float(v[0]) for v in shares[:3]) <= 0.0


def test_a_bare_edge_is_no_checker() -> None:
    """A bright band along the field's top edge (a frame's lit lip, a straight print): a ring
    centred on it rings where it crosses the band's lower edge only; what lies under the lip
    is left out, and what is left is no rim all round."""
    field = np.full((*SIZE, 3), 90, np.uint8)
    field[:6] = 230
    full = _scorer(field, True).coverage(np.array([80.0], np.float32),
                                         np.array([RADIUS], np.float32))[0][0]
    assert full < 0.5


def test_start_position_unchanged() -> None:
    """A plain render of the start: every stack as many checkers as it has."""
    scene = render_board(Position.start(), RenderOptions(seed=3))
    rect = rectify(scene.image, scene.corners)
    counts = sorted(len(s.centres) for s in find_checkers(rect.field, rect.geometry).stacks
                    if s.centres)
    assert counts == [2, 2, 3, 3, 5, 5, 5, 5]
