"""Points holding a pile the reader could not count are called doubtful
(:data:`vision.checkers.DOUBT_RUN_LEAST`), not passed off as a confident empty point.

Development seed 2750 (a blurred red 6 on wood: read empty) shows the ring map's own proposals
lined up as a pile from a clear base at the edge; 3966 (a blurred red 15 read 11) shows four
more than were read.  (Seed 2861, a red 14 read empty so, is read whole now that its rims'
rhythm confirms the faint fit: see test_blurred_piles.py.)  Development seed 3702 (a blurred
blue 13 on a red point, read 10) was taken only as a nearly whole pile
(:func:`vision.checkers._nearly_whole_pile`) whose rims' rhythm counts 13, not 10
(:data:`vision.checkers.NEARLY_RHYTHM`).  A board read right has no doubtful point.
"""
from __future__ import annotations

import pytest

from engine.position import Position
from vision.observation import BoardObservation
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board


@pytest.mark.parametrize("seed, point", [(2750, ("bottom", 2)), (3966, ("bottom", 9)),
                                         (3702, ("top", 4))])
def test_a_pile_read_empty_or_short_is_doubtful(seed: int, point: tuple[str, int]):
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    row, column = point
    want = getattr(scene.truth, row)[column].count
    seen = getattr(obs, row)[column]
    assert (seen.count if seen else 0) < want
    assert obs.doubtful == [point]
    assert obs.to_json()["doubtful"] == {r: [column] if r == row else [] for r in ("top", "bottom")}


def test_a_board_read_right_has_no_doubtful_point():
    scene = render_board(Position.start(), RenderOptions(seed=5, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert obs.doubtful == []
    assert obs.to_json()["doubtful"] == {"top": [], "bottom": []}


def test_labels_say_nothing_of_doubt():
    rows = BoardObservation.from_rows([None] * 12, [None] * 12, ("white", "black"))
    assert rows.doubtful is None and "doubtful" not in rows.to_json()
