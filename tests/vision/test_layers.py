"""vision.layers: stacks built in layers are counted by the pyramid rule, flat stacks (touching
or overlapped) are never taken for layered ones.  Boards drawn by the renderer."""
from __future__ import annotations

import numpy as np
import pytest

from vision.checkers import find_checkers
from vision.layers import LayeredStack, read_layered
from vision.observation import BoardObservation
from vision.reader import rectify
from vision.render import CHECKER_SCHEMES, RenderOptions, render_board

SCHEME = CHECKER_SCHEMES[0]


def _read_points(rows: BoardObservation, layered: bool, seed: int
                 ) -> dict[tuple[str, int], tuple[int, LayeredStack | None]]:
    """Per point holding checkers: the true count and what read_layered makes of the point,
    given what the checker stage found there (as the reader would call it)."""
    scene = render_board(rows, RenderOptions(seed=seed, hard=False, layered=layered, dice=False,
                                             hands=False, scheme=SCHEME))
    rect = rectify(scene.image, scene.corners)
    geometry = rect.geometry
    findings = find_checkers(rect.field, geometry)
    out = {}
    for stack in findings.stacks:
        if stack.row == "bar":
            continue
        truth = getattr(scene.truth, stack.row)[stack.column]
        if truth is None:
            continue
        top = stack.row == "top"
        edge = geometry.margin if top else geometry.margin + geometry.height
        got = read_layered(rect.field, edge, 1 if top else -1, findings.radius, stack.centres)
        out[stack.row, stack.column] = (truth.count, got)
    return out


def _board(top: dict[int, tuple[int, int]], bottom: dict[int, tuple[int, int]]
           ) -> BoardObservation:
    """Rows from {column: (colour index, count)}."""
    names = SCHEME.names

    def row(spec: dict[int, tuple[int, int]]) -> list:
        return [(names[spec[c][0]], spec[c][1]) if c in spec else None for c in range(12)]

    return BoardObservation.from_rows(row(top), row(bottom), names, {})


@pytest.fixture(scope="module")
def layered_points():
    # Tall stacks of every pyramid shape class (5+1, 5+4, 5+4+3, the full pyramid) beside
    # small flat stacks on a board drawn with layers.
    rows = _board({1: (0, 6), 4: (0, 9), 8: (1, 2), 10: (1, 3)},
                  {0: (1, 12), 3: (1, 5), 6: (0, 15), 11: (1, 4)})  # not a legal total: no need
    return _read_points(rows, layered=True, seed=0)


def test_tall_layered_stacks_are_counted_by_the_pyramid_rule(layered_points):
    assert sorted(count for count, _ in layered_points.values() if count > 5) == [6, 9, 12, 15]
    for (row, column), (count, got) in layered_points.items():
        if count <= 5:
            continue
        assert got is not None, (row, column, count)
        assert got.count == count, (row, column, count, got.layers)
        # Each layer holds at most one fewer than the layer it rests on.
        assert all(a > b for a, b in zip(got.layers, got.layers[1:]))
        # Every checker has a centre, hidden ones included, on the point's side of the field.
        assert len(got.centres) == got.count


def test_small_stacks_beside_layered_ones_stay_flat(layered_points):
    for (row, column), (count, got) in layered_points.items():
        if count <= 5:
            assert got is None, (row, column, count, got)


def test_flat_stacks_overlapped_or_touching_are_never_layered():
    # Without layers the renderer overlaps tall stacks evenly: the same counts must read flat.
    rows = _board({1: (0, 6), 4: (0, 9), 8: (1, 2), 10: (1, 3)},
                  {0: (1, 12), 3: (1, 5), 6: (0, 15), 11: (1, 4)})
    for seed in (4, 7):
        for (row, column), (count, got) in _read_points(rows, layered=False, seed=seed).items():
            assert got is None, (seed, row, column, count, got)


def test_nothing_found_nothing_read():
    field = np.full((300, 200, 3), 128, np.uint8)
    assert read_layered(field, 0.0, 1, 10.0, []) is None
    # A plain field with a few "found" places: no rims anywhere, nothing layered.
    assert read_layered(field, 0.0, 1, 10.0, [(100.0, 10.0), (100.0, 30.0)]) is None


@pytest.mark.parametrize("seed", [0, 3, 15])
def test_first_layer_checkers_between_two_upper_ones_need_not_show_their_slivers(seed):
    # Hard layered boards whose tall stacks hold first-layer checkers between two upper ones
    # showing a fifth to a half of their rim slivers (in the upper checkers' shadow): they
    # were read as the five checkers found, the layered reading refused for those slivers.
    from vision.reader import BoardReader

    scene = render_board(None, RenderOptions(seed=seed, hard=True, layered=True))
    seen = BoardReader(layered_stacks=True).read(scene.image, corners=scene.corners)
    for row in ("top", "bottom"):
        for want, got in zip(getattr(scene.truth, row), getattr(seen, row)):
            if want is not None and want.count > 5:
                assert got is not None and got.count == want.count, (row, want, got)
