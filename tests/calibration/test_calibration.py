"""The calibration file: round trip, atomic save, versions, and noticing a bumped board."""
from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.calibration import Calibration, CalibrationError
from engine.position import O, X
from vision.render import CHECKER_SCHEMES, RenderOptions, render_board


def _cal(**kw) -> Calibration:
    base = dict(corners=((10, 10), (300, 12), (298, 250), (12, 248)), colours=("white", "black"),
                colour_lab=((230, 128, 130), (40, 128, 128)), x_colour="black",
                x_home="top-left")
    base.update(kw)
    return Calibration(**base)


def test_round_trip_through_a_file(tmp_path):
    cal = _cal(bar=(0.47, 0.53), aspect=0.88)
    path = tmp_path / "sub" / "cal.json"
    cal.save(path)
    assert Calibration.load(path) == cal
    assert [p.name for p in path.parent.iterdir()] == ["cal.json"]  # no temporary left behind
    assert cal.player_of("black") == X and cal.player_of("white") == O
    assert cal.colour_of(O) == "white"


def test_bad_files_and_values_give_clear_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CalibrationError, match="JSON"):
        Calibration.load(bad)
    bad.write_text(json.dumps({"corners": [[0, 0], [1, 0], [1, 1], [0, 1]], "version": 99}))
    with pytest.raises(CalibrationError, match="newer"):
        Calibration.load(bad)
    with pytest.raises(CalibrationError, match="cannot read"):
        Calibration.load(tmp_path / "missing.json")
    with pytest.raises(CalibrationError, match="not one of"):
        _cal(x_colour="red")
    with pytest.raises(CalibrationError, match="x_home"):
        _cal(x_home="middle")


def test_a_moved_board_is_noticed():
    scene = render_board(None, RenderOptions(seed=5, hard=False, scheme=CHECKER_SCHEMES[0]))
    cal = _cal(corners=scene.corners).with_signature(scene.image)
    assert cal.moved(scene.image) is False
    shifted = np.roll(scene.image, (25, 40), axis=(0, 1))
    assert cal.moved(shifted) is True
    assert cal.alignment(scene.image) > cal.alignment(shifted) + 0.3
    assert _cal().moved(scene.image) is None  # nothing stored to compare with


def test_a_hand_over_the_board_is_told_from_a_bump():
    base = dict(seed=40, camera_seed=40, hard=False, scheme=CHECKER_SCHEMES[1], dice=False)
    clear = render_board(None, RenderOptions(hands=False, **base))
    cal = _cal(corners=clear.corners).with_signature(clear.image)
    assert cal.check(clear.image) == "ok"
    other = render_board(None, RenderOptions(hands=False, **{**base, "seed": 41}))
    assert cal.check(other.image) == "ok"  # checkers moved, board did not
    hand = render_board(None, RenderOptions(hands=True, **{**base, "seed": 41}))
    assert cal.check(hand.image) == "occluded"
    assert cal.check(np.roll(clear.image, 30, axis=1)) == "moved"
