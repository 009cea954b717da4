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
    assert list(data) == ["colours", "top", "bottom", "bar", "off"]
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
])
def test_user_mistakes_give_one_line(start_frame, tmp_path, capsys, args, message):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    values = {"tmp": str(tmp_path), "text": str(text), "image": str(start_frame[0])}
    assert main([a.format(**values) for a in args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bgbridge: ") and message in err and err.count("\n") == 1
