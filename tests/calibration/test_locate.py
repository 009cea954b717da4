"""Finding the field without clicks, on rendered frames; saying so when there is no board."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.locate import LocateError, align_to, corner_error, locate_field
from vision.render import RenderOptions, render_board


def _corner_errors(seeds: range, hard: bool) -> list[float]:
    """Corner error of the automatic localisation on rendered frames (1.0 where none is found)."""
    errors = []
    for seed in seeds:
        scene = render_board(None, RenderOptions(seed=seed, hard=hard))
        try:
            found = align_to(locate_field(scene.image), scene.corners)
        except LocateError:
            errors.append(1.0)
            continue
        errors.append(corner_error(found, scene.corners))
    return errors


def test_finds_the_field_on_most_easy_frames():
    errors = _corner_errors(range(300, 306), hard=False)
    assert sum(e <= 0.03 for e in errors) >= 5, errors


@pytest.mark.slow
def test_hard_frames_are_found_to_within_two_percent():
    """Tilted, rotated, glare, trays beside the field: the rough outline is sharpened by the
    field's edges and the points' rhythm (the reader needs about 1-2% of the field size)."""
    errors = _corner_errors(range(400, 408), hard=True)
    assert sum(e <= 0.02 for e in errors) >= 5, errors
    assert float(np.median(errors)) <= 0.015, errors


@pytest.mark.parametrize("frame", [
    np.zeros((360, 640, 3), np.uint8),
    np.random.default_rng(1).integers(0, 255, (360, 640, 3)).astype(np.uint8),
])
def test_no_board_is_said_clearly(frame):
    with pytest.raises(LocateError, match="cannot find the board: no backgammon board"):
        locate_field(frame)


def test_half_turn_alignment():
    field = ((0, 0), (10, 0), (10, 8), (0, 8))
    turned = ((10, 8), (0, 8), (0, 0), (10, 0))
    assert align_to(turned, field) == field
