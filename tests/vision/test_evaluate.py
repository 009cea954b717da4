"""The evaluation script's plumbing (its numbers are printed by ``python -m vision.evaluate``)."""
from __future__ import annotations

import json
import sys
import types

import cv2
import numpy as np

from engine.position import Position
from vision import evaluate
from vision.render import CHECKER_SCHEMES, RenderOptions, render_board, rows_from_position


def test_score_board_counts_points_bar_and_names():
    truth = rows_from_position(Position.start(), ("red", "white"))
    assert evaluate.score_board(truth, truth)["exact"]
    wrong = rows_from_position(Position.from_points(x={6: 5, 8: 3, 13: 5, 24: 1, 25: 1},
                                                    o={6: 5, 8: 3, 13: 5, 24: 2}),
                               ("red", "white"))
    score = evaluate.score_board(wrong, truth)
    assert score["points_right"] == 23 and not score["bar_right"] and not score["exact"]


def test_synthetic_run_reports_every_stage():
    result = evaluate.run_synthetic(n=2, seed=5)
    for key in ("point_accuracy", "exact_board_rate", "frames_per_second"):
        assert key in result["read_given_corners"]
    assert 0 <= result["locate"]["found_rate"] <= 1
    stages = result["_stages"]
    assert stages.tries["occluded, no hand"] + stages.tries.get("occluded, hand", 0) == 2
    assert sum(v for k, v in stages.tries.items() if k.startswith("off,")) == 2


def test_off_is_scored_through_the_colour_mapping():
    truth = rows_from_position(Position.from_points(x={6: 5}, o={13: 3}), ("red", "white"))
    seen = rows_from_position(Position.from_points(x={6: 5}, o={13: 3}), ("dark", "light"))
    assert evaluate.score_off(seen, truth) == {"off_right": True, "tray_right": None}
    seen.tray_off = {"dark": 10, "light": 11}
    assert evaluate.score_off(seen, truth)["tray_right"] is False
    seen.tray_off = {"dark": 10, "light": 12}
    assert evaluate.score_off(seen, truth)["tray_right"] is True


def test_real_set_from_a_labelled_folder(tmp_path, monkeypatch, capsys):
    scene = render_board(Position.start(), RenderOptions(seed=4, hard=False, scheme=CHECKER_SCHEMES[0]))
    cv2.imwrite(str(tmp_path / "a.jpg"), scene.image)
    cv2.imwrite(str(tmp_path / "b.jpg"), scene.image)
    rows = scene.truth
    labels = {"images": {
        "a.jpg": {"corners": [list(c) for c in scene.corners], "colours": list(rows.colours),
                  "top": [[r.colour, r.count] if r else None for r in rows.top],
                  "bottom": [[r.colour, r.count] if r else None for r in rows.bottom], "bar": {}},
        "b.jpg": {"corners": [list(c) for c in scene.corners], "hands": True}}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    monkeypatch.setenv("BGBRIDGE_REAL_BOARDS", str(tmp_path))
    assert evaluate.main(["--set", "real", "--no-dice"]) == 0
    out = capsys.readouterr().out
    assert "a.jpg" in out and "points 24/24" in out and "not scored" in out and "b.jpg" in out
    # The same clear frame is no hand: one frame of two "with hands" is missed, none falsely.
    assert "hands called occluded 0/1" in out and "no hands called occluded 0/1" in out
    assert "stage trays" in out and "borne off right" in out


def test_missing_real_set_and_dice_stage_are_reported(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BGBRIDGE_REAL_BOARDS", str(tmp_path / "absent"))
    monkeypatch.setitem(sys.modules, "vision.dice.evaluate", None)  # import fails
    assert evaluate.main(["--set", "real", "--dice-frames", "1"]) == 0
    out = capsys.readouterr().out
    assert "not present: skipped" in out and "dice stage missing" in out


def test_dice_numbers_are_printed_when_the_stage_is_there(monkeypatch, capsys):
    fake = types.ModuleType("vision.dice.evaluate")
    fake.run = lambda set_name, n, seed: {"value_accuracy": 0.5, "frames": n}
    monkeypatch.setitem(sys.modules, "vision.dice.evaluate", fake)
    monkeypatch.setenv("BGBRIDGE_REAL_BOARDS", "/nonexistent")
    assert evaluate.main(["--set", "real", "--dice-frames", "3"]) == 0
    out = capsys.readouterr().out
    assert "value_accuracy" in out and "0.5000" in out


def _labelled_folder(tmp_path, scene):
    cv2.imwrite(str(tmp_path / "a.png"), scene.image)
    rows = scene.truth
    labels = {"images": {
        "a.png": {"corners": [list(c) for c in scene.corners], "colours": list(rows.colours),
                  "top": [[r.colour, r.count] if r else None for r in rows.top],
                  "bottom": [[r.colour, r.count] if r else None for r in rows.bottom],
                  "bar": {}}}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))


def test_real_photos_under_transforms(tmp_path, monkeypatch, capsys):
    from vision import augment

    scene = render_board(Position.start(), RenderOptions(seed=4, hard=False, scheme=CHECKER_SCHEMES[0]))
    _labelled_folder(tmp_path, scene)
    monkeypatch.setenv("BGBRIDGE_REAL_BOARDS", str(tmp_path))
    # Two transforms keep the test fast; the command runs all of vision.augment.TRANSFORMS.
    monkeypatch.setattr(augment, "TRANSFORMS", {
        "rotate 90": augment.TRANSFORMS["rotate 90"],
        "hidden": lambda image, corners: (image * 0, corners)})
    assert evaluate.main(["--set", "real-aug", "--no-locate", "--save-dir",
                          str(tmp_path / "seen")]) == 0
    out = capsys.readouterr().out
    lines = {line.split(" given")[0].strip(): line for line in out.splitlines() if " given:" in line}
    assert set(lines) == {"as photographed", "rotate 90", "hidden"}
    # The corners turn with the frame, so the turned board reads as the original does.
    assert "points 100.000%  exact 1/1" in lines["as photographed"]
    assert "points 100.000%  exact 1/1" in lines["rotate 90"]
    # A black frame shows nothing: the 16 empty points are right, the 8 held are listed missed.
    assert "points  66.667%  exact 0/1" in lines["hidden"]
    assert "top[0] saw None want ('white', 5)" in out and out.count(" saw None want ") == 8
    # Only the frame not read exactly is kept to look at.
    assert [p.name for p in (tmp_path / "seen").iterdir()] == ["a--hidden.png"]
    assert evaluate.main(["--set", "real-aug", "--no-locate", "--only", "ROTATE"]) == 0
    out = capsys.readouterr().out
    assert "rotate 90" in out and "hidden" not in out


def test_layered_set_scores_tall_stacks():
    result = evaluate.run_synthetic(n=1, seed=3, layered=True)
    tall = result["_tall"]
    assert tall and all(want >= 6 for want, _, _ in tall)
    assert evaluate.tall_summary(tall)[0].startswith("stacks of 6+: ")
