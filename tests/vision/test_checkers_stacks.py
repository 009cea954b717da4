"""Tall overlapped stacks counted right, on frames drawn by the renderer.

A stack of nine or more is drawn overlapped; fitted as a whole, a count a few too high used to
score as well as the right one (the rings snap onto the stack's straight sides).
"""
from __future__ import annotations

import pytest

from engine.position import Position
from vision.evaluate import score_board
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board

#: Twelve and nine overlapped on facing rows, with shorter stacks beside them.
TALL = Position.from_points(x={24: 12, 8: 3}, o={16: 9, 20: 6})


@pytest.mark.parametrize("seed, hard", [(1, True), (0, False), (2, False)])
def test_tall_stacks_counted_exactly(seed, hard):
    scene = render_board(TALL, RenderOptions(seed=seed, hard=hard, dice=False, hands=False))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    score = score_board(obs, scene.truth)
    assert score["exact"], (obs.to_json(), scene.truth.to_json())


#: Two stacks of fifteen: each reaches across the field to the facing point's edge.
FIFTEENS = Position.from_points(x={13: 15}, o={8: 15})


@pytest.mark.parametrize("seed", [0, 1])
def test_a_stack_reaching_the_facing_edge_is_no_checker_there(seed):
    """The far end of a stack of fifteen lies where the facing point's first checker would:
    it belongs to the long stack, not to the facing point."""
    scene = render_board(FIFTEENS, RenderOptions(seed=seed, hard=False, dice=False, hands=False))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    score = score_board(obs, scene.truth)
    assert score["exact"], (obs.to_json(), scene.truth.to_json())
