"""``bgbridge read`` and ``bgbridge calibrate`` on frames drawn by the renderer."""
from __future__ import annotations

import json

import cv2
import pytest

from bgbridge.cli import main
from engine.position import Position
from vision.render import CHECKER_SCHEMES, RenderOptions, render_board


@pytest.fixture(scope="module")
def start_frame(tmp_path_factory):
    scene = render_board(Position.start(), RenderOptions(seed=21, hard=False,
                                                         scheme=CHECKER_SCHEMES[0]))
    path = tmp_path_factory.mktemp("frames") / "start.png"
    cv2.imwrite(str(path), scene.image)
    corners = ";".join(f"{x:.1f},{y:.1f}" for x, y in scene.corners)
    return path, corners, scene


def test_read_json_contract(start_frame, capsys):
    path, corners, scene = start_frame
    assert main(["read", str(path), "--corners", corners, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["colours", "top", "bottom", "bar", "off", "doubtful"]
    assert data["doubtful"] == {"top": [], "bottom": []}
    assert sorted(data["colours"]) == ["black", "white"]
    assert len(data["top"]) == len(data["bottom"]) == 12
    assert data["top"][0]["count"] == 5 and data["top"][0]["colour"] == "white"
    assert set(data["top"][0]) == {"colour", "count", "confidence"}
    assert 0 <= data["top"][0]["confidence"] <= 1
    assert data["top"][1] is None
    assert data["bar"] == {} and data["off"] == {"white": 0, "black": 0}


def test_calibrate_then_read_gives_the_position(start_frame, tmp_path, capsys):
    path, corners, _ = start_frame
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(path), "--corners", corners, "--output", str(cal)]) == 0
    assert "X plays white" in capsys.readouterr().out
    assert main(["read", str(path), "--calibration", str(cal)]) == 0
    out = capsys.readouterr().out
    assert f"Position ID {Position.start().position_id()}" in out


@pytest.mark.parametrize("args, message", [
    (["read", "/no/such/file.jpg"], "no such file"),
    (["read", "{tmp}"], "is a directory"),
    (["read", "{text}"], "not an image"),
    (["read", "{image}", "--corners", "1,2;3,4"], "four x,y pairs"),
    (["read", "{image}", "--corners", "0,0;0,99;99,99;99,0"], "clockwise"),
    (["read", "{image}", "--corners", "0,0;9000,0;9000,9000;0,9000"], "far outside"),
    (["read", "{image}", "--calibration", "{text}"], "JSON"),
    (["read", "{image}", "--snap"], "give them with --corners"),
])
def test_user_mistakes_give_one_line(start_frame, tmp_path, capsys, args, message):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    values = {"tmp": str(tmp_path), "text": str(text), "image": str(start_frame[0])}
    assert main([a.format(**values) for a in args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bgbridge: ") and message in err and err.count("\n") == 1


def test_read_layered_stacks_on_request(tmp_path, capsys):
    # Tall stacks built in layers (a second row on top of the first): read short by default,
    # counted with --layered-stacks; the small stacks beside them read the same either way.
    from vision.observation import BoardObservation

    names = CHECKER_SCHEMES[0].names
    top = [None] * 12
    bottom = [None] * 12
    top[1], top[4], top[8] = (names[0], 6), (names[0], 9), (names[1], 2)
    bottom[0], bottom[3], bottom[6] = (names[1], 12), (names[1], 3), (names[0], 4)
    rows = BoardObservation.from_rows(top, bottom, names, {})
    scene = render_board(rows, RenderOptions(seed=0, hard=False, layered=True, dice=False,
                                             hands=False, scheme=CHECKER_SCHEMES[0]))
    path = tmp_path / "layered.png"
    cv2.imwrite(str(path), scene.image)
    corners = ";".join(f"{x:.1f},{y:.1f}" for x, y in scene.corners)

    def counts(*extra: str) -> tuple[list, list]:
        assert main(["read", str(path), "--corners", corners, "--json", *extra]) == 0
        data = json.loads(capsys.readouterr().out)
        return ([e and e["count"] for e in data["top"]],
                [e and e["count"] for e in data["bottom"]])

    want_top = [e and e[1] for e in top]
    want_bottom = [e and e[1] for e in bottom]
    assert counts("--layered-stacks") == (want_top, want_bottom)
    plain_top, plain_bottom = counts()
    assert plain_top[8] == 2 and plain_bottom[3] == 3 and plain_bottom[6] == 4
    assert (plain_top, plain_bottom) != (want_top, want_bottom)


def test_read_snaps_loosely_clicked_corners(start_frame, capsys):
    """Corners clicked 4% of the field's width inside the field on its left side are snapped
    by default (``--snap`` says so too): the start position reads as with exact corners (how
    close the snap lands is tested in tests/calibration/test_snap.py); ``--no-snap`` reads them
    as given, and misses checkers on the first point."""
    path, exact, scene = start_frame

    def counts(corners: str, *extra: str) -> list:
        assert main(["read", str(path), "--corners", corners, "--json", *extra]) == 0
        data = json.loads(capsys.readouterr().out)
        return [(e["colour"], e["count"]) if e else None for e in data["top"] + data["bottom"]]

    (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = scene.corners
    off = 0.04 * (trx - tlx)
    loose = ";".join(f"{x:.1f},{y:.1f}" for x, y in [(tlx + off, tly), (trx, try_), (brx, bry),
                                                      (blx + off, bly)])
    right = counts(exact)
    assert sum(c[1] for c in right if c) == 30
    assert counts(loose) == right
    assert counts(loose, "--snap") == right
    assert counts(loose, "--no-snap") != right
