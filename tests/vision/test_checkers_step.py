"""Stacks far off their columns, and checkers on the bar whose rim is not whole.

Frames are drawn by the renderer.  A corner placed outside the field shifts the outer column of
a quarter by up to half a point width while the quarter's inner column stays put: a stack there
is found only beside its axis, and must still be read on its own point.  On the bar a dark
checker on a dark bar (or a glossy one) shows less than its whole rim; it is told from the bar's
hinges by being one of the players' checkers.
"""
from __future__ import annotations

import functools

import numpy as np
import pytest
from checker_frames import assert_drawn_board_read_exactly, bottom_left_out

from engine.position import Position
from calibration.colours import weighted
from vision.checkers import _bar_stack, _players_colour, find_checkers
from vision.evaluate import score_board
from vision.reader import BoardReader, rectify
from vision.render import RenderOptions, render_board
from vision.rings import RingScorer

#: In the bottom-left quarter only two checkers on its outermost point and five on its
#: innermost: the quarter's fit from the inner stack alone cannot tell the outer column's shift.
POSITION = Position.from_points(x={12: 2, 7: 5, 6: 5, 13: 3}, o={1: 2, 11: 5, 20: 3, 23: 5})


@functools.lru_cache(maxsize=None)
def _hard_scene(seed: int):
    """A hard frame, drawn once for the tests that look at it."""
    return render_board(None, RenderOptions(seed=seed, hard=True))


@pytest.mark.parametrize("seed", [1, 4])
def test_outer_stack_of_a_skewed_quarter_is_read_on_its_point(seed):
    # 4% of the bottom edge: the outermost column lies some 0.4 point widths off its axis, the
    # innermost hardly moves.
    assert_drawn_board_read_exactly(POSITION, seed, lambda c: bottom_left_out(c, 0.04), dice=False)


@pytest.mark.parametrize("seed", [95, 366, 5357])
def test_checker_with_a_broken_rim_on_the_bar_is_counted(seed):
    """Hard frames where a bar checker's rim covers about 0.9 of the ring (black on a black
    bar; a white one with a glint; on 5357 a black one of a colour 8.1 from the points' blacks,
    like the one beside it on the bar that shows more of its rim)."""
    scene = _hard_scene(seed)
    obs = BoardReader().read(scene.image, corners=scene.corners)
    score = score_board(obs, scene.truth)
    assert score["bar_right"], (obs.bar, scene.truth.bar)


def test_bar_ring_of_another_colour_needs_its_whole_rim():
    """A ring on the bar below the whole-rim level counts only in a players' colour: the same
    frame's bar read with no checker colours known keeps its checkers with whole rims, and
    the black one below that level only for the whole-rimmed black beside it on the bar."""
    scene = _hard_scene(95)
    rect = rectify(scene.image, scene.corners)
    geometry = rect.geometry
    findings = find_checkers(rect.field, geometry)
    on_points = np.array([c for stack in findings.stacks[:24] for c in stack.colours])
    radius, m = geometry.checker_radius, geometry.margin
    slack = min(m, 0.15 * radius)
    scorer = RingScorer(rect.field, radius, (m - slack, m - slack, m + geometry.width + slack,
                                             m + geometry.height + slack))
    unknown = _bar_stack(scorer, geometry, 0.82, None)
    assert unknown.count == 4 and sorted(unknown.scores)[1] >= 0.92
    broken = int(np.argmin(unknown.scores))
    wholes = weighted(np.array([c for i, c in enumerate(unknown.colours) if i != broken]))
    assert unknown.scores[broken] < 0.92 and _players_colour(unknown.colours[broken], wholes)
    assert _bar_stack(scorer, geometry, 0.82, on_points).count == 4


def test_players_colour_is_a_close_match():
    known = np.float32([[40, 128, 128]])
    assert _players_colour(np.float32([42, 128, 129]), weighted(known))
    assert not _players_colour(np.float32([120, 128, 128]), weighted(known))


def _two_candidates(end_colour, end_full: float, step: float, radius: float = 11.0):
    """Two candidate centres along a point, a whole checker at the edge and one ``step``
    radii further whose rim covers ``end_full`` of the ring."""
    from vision.checkers import _Candidates
    ys = np.float32([radius, radius + step * radius])
    ones = np.ones(2, np.float32)
    return _Candidates(ys=ys, px=np.float32([50, 50]), py=ys.copy(),
                       full=np.float32([1.0, end_full]), no_far=ones.copy(),
                       no_near=np.float32([1.0, 0.83]),
                       colours=np.float32([[235, 128, 128], end_colour]), far_arc=ones.copy())


def test_half_hidden_end_of_another_paint_is_not_a_checker():
    """Under its neighbour a checker shows part of a rim, as the point's paint beside a rim
    does: of a clearly different colour (a tan base beyond a white checker) it is dropped."""
    from vision.checkers import _without_odd_hidden_end
    tan = _two_candidates([160, 132, 150], 0.78, 1.77)
    assert _without_odd_hidden_end(tan, [0, 1], 11.0, 0.82) == [0]
    alike = _two_candidates([228, 128, 129], 0.78, 1.77)
    assert _without_odd_hidden_end(alike, [0, 1], 11.0, 0.82) == [0, 1]
    # A whole rim, or a touching neighbour, is evidence of its own: kept.
    assert _without_odd_hidden_end(_two_candidates([160, 132, 150], 0.9, 1.77),
                                   [0, 1], 11.0, 0.82) == [0, 1]
    assert _without_odd_hidden_end(_two_candidates([160, 132, 150], 0.78, 2.05),
                                   [0, 1], 11.0, 0.82) == [0, 1]


@pytest.mark.parametrize("seed, row, column", [(246, "bottom", 6), (275, "top", 6)])
def test_no_extra_checker_beside_or_between_whole_rims(seed, row, column):
    """Hard frames: a white checker alone below a tall red stack (the tan base between them
    rang like a second white one), and two touching black checkers (a ring between them and
    one on the grey paint beyond made a stack of three)."""
    scene = _hard_scene(seed)
    obs = BoardReader().read(scene.image, corners=scene.corners)
    seen = (obs.top if row == "top" else obs.bottom)[column]
    want = (scene.truth.top if row == "top" else scene.truth.bottom)[column]
    assert seen is not None and seen.count == want.count, (seen, want)


def test_no_third_checker_between_two_whole_rims():
    """Two checkers that touch both show whole rims; a weak ring between them (half a step
    from each) would lie on one of them, which could then not show its whole rim."""
    from vision.checkers import _chain
    ys = np.float32([12.7, 24.7, 37.7])
    full = np.float32([1.0, 0.62, 1.0])
    no_far, no_near = np.float32([1.0, 0.61, 1.0]), np.float32([1.0, 0.78, 1.0])
    colours = np.float32([[47, 128, 128], [60, 128, 128], [46, 128, 128]])
    chain, _ = _chain(ys, full, no_far, no_near, 11.7, 0.82, 250.0, colours, 0.4,
                      np.ones(3, np.float32))
    assert chain == [0, 2]
