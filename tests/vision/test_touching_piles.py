"""A short pile of touching checkers, each seen whole, is not fitted as a longer overlapped
pile (:func:`vision.checkers._touching_whole`): overlapped checkers hide part of each other's
rims, so a chain of whole rims a touching step apart is where its checkers lie.  On a point
of the checkers' own paint the rims and the paint beyond give a rhythm an overlapped model
of more checkers passes on (hard synthetic frames, ``python -m vision.evaluate`` numbers
them by seed)."""
from __future__ import annotations

import pytest

from vision.reader import BoardReader
from vision.render import RenderOptions, render_board


@pytest.mark.parametrize("seed, row, column, count", [
    (4674, "bottom", 2, 4),  # black 4 touching: was read as an overlapped 7
    (9862, "bottom", 3, 5),  # white 5 touching on a white point: was read as 8
])
def test_touching_pile_of_whole_checkers_keeps_its_count(seed, row, column, count):
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    want = getattr(scene.truth, row)[column]
    assert want is not None and want.count == count  # the frame is the one meant
    obs = BoardReader().read(scene.image, corners=scene.corners)
    seen = getattr(obs, row)[column]
    assert seen is not None and seen.count == count, (obs.to_json(), scene.truth.to_json())
