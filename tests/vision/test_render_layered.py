"""vision.render's stacks built in layers (RenderOptions.layered): off by default, drawn only
where a point holds more than five, and no longer than five checkers along the point."""
from __future__ import annotations

import numpy as np

from engine.position import Position
from vision.observation import BoardObservation
from vision.render import (BOARD_STYLES, CHECKER_SCHEMES, RenderOptions, draw_topdown,
                           layer_positions, render_board)

RED_BLUE = CHECKER_SCHEMES[2]
BLUE_WHITE = next(s for s in BOARD_STYLES if s.name == "blue-white")


def test_off_by_default_and_free_without_tall_stacks():
    assert RenderOptions().layered is False
    # The starting position has no point above five: layers change nothing, not even the
    # random numbers drawn after the checkers (dice, camera, noise).
    plain = render_board(Position.start(), RenderOptions(seed=12))
    layered = render_board(Position.start(), RenderOptions(seed=12, layered=True))
    assert np.array_equal(plain.image, layered.image) and plain.corners == layered.corners


def test_random_layered_boards_hold_tall_stacks_of_every_colour():
    for seed in range(3):
        scene = render_board(None, RenderOptions(seed=seed, hard=False, layered=True))
        rows = [r for r in scene.truth.top + scene.truth.bottom if r]
        for name in scene.truth.colours:
            counts = [r.count for r in rows if r.colour == name]
            assert max(counts) >= 6
            assert sum(counts) + scene.truth.bar.get(name, 0) == 15


def test_layers_fill_hollows_and_make_a_pyramid_of_fifteen():
    placed = layer_positions(15)
    assert [sum(1 for layer, _ in placed if layer == k) for k in range(5)] == [5, 4, 3, 2, 1]
    # Every upper checker lies halfway between two of the layer below.
    for layer, along in placed:
        if layer:
            below = {a for lay, a in placed if lay == layer - 1}
            assert along - 0.5 in below and along + 0.5 in below


def _red_extent(layered: bool) -> float:
    """How far (in checker diameters) red reaches down the field's first top point when it
    holds twelve red checkers."""
    rows = BoardObservation.from_rows([("red", 12)] + [None] * 11, [None] * 12, RED_BLUE.names)
    image, (x0, y0, x1, y1), _ = draw_topdown(
        rows, BLUE_WHITE, RED_BLUE, np.random.default_rng(3), 760, 0.88, 0.06, dice=False,
        layout_rng=np.random.default_rng(4), layered=layered)
    field = image[int(y0):int(y1), int(x0):int(x1)]
    b, g, r = field[..., 0], field[..., 1], field[..., 2]
    red_rows = np.nonzero(((r > 130) & (g < 90) & (b < 90)).any(axis=1))[0]
    point_width = (x1 - x0) * (1 - 0.06) / 12
    diameter = 2 * point_width * 0.46  # radius_share is 0.43-0.49 of a point width
    return float(red_rows.max() + 1) / diameter


def test_a_layered_stack_reaches_five_checkers_an_overlapped_one_further():
    layered, overlapped = _red_extent(True), _red_extent(False)
    assert 4.6 < layered < 5.6
    assert overlapped > 7.5
