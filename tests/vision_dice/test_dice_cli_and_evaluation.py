"""``bgbridge dice`` (its JSON contract and its one-line errors) and the dice evaluation."""
from __future__ import annotations

import json
import math
import os

import cv2
import numpy as np
import pytest

from bgbridge.cli import main
from vision.dice import evaluate
from vision.dice.render import draw_die
from vision.evaluate import real_dir


@pytest.fixture()
def photo(tmp_path):
    frame = np.full((240, 400, 3), (40, 110, 45), np.uint8)
    draw_die(frame, (110, 120), 50, 6, angle_deg=12, style="white")
    draw_die(frame, (290, 120), 50, 2, angle_deg=55, style="white")
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), frame)
    return path


def test_json_output_is_the_contract(photo, capsys):
    assert main(["dice", str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["dice"]
    assert [list(d) for d in out["dice"]] == [["x", "y", "value", "confidence", "cocked"]] * 2
    assert [(round(d["x"] / 10), d["value"], d["cocked"]) for d in out["dice"]] == [(11, 6, False), (29, 2, False)]


def test_region_and_plain_output(photo, capsys):
    assert main(["dice", str(photo), "--region", "200,0;399,0;399,239;200,239", "--json"]) == 0
    assert [d["value"] for d in json.loads(capsys.readouterr().out)["dice"]] == [2]
    assert main(["dice", str(photo)]) == 0
    text = capsys.readouterr().out
    assert "roll: 6-2" in text and text.count("die at") == 2


@pytest.mark.parametrize("args, message", [
    (["dice", "/no/such/photo.jpg"], "no such image file"),
    (["dice", "{bad}", "--json"], "not an image"),
    (["dice", "{photo}", "--region", "1,2;3,4"], "four corners"),
    (["dice", "{photo}", "--region", "a,b;1,1;2,2;3,3"], "is not"),
    (["dice", "{photo}", "--region", "0,0;0,0;0,0;0,0"], "no area"),
])
def test_user_mistakes_are_one_line(photo, tmp_path, capsys, args, message):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a picture")
    args = [a.format(photo=photo, bad=bad) for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("bgbridge: ") and message in err and err.count("\n") == 1


def test_synthetic_evaluation_reports_its_figures():
    figures = evaluate.run("synthetic", n=4, seed=100)
    for key in ("dice_read_accuracy", "dice_found_recall", "cocked_read_as_number", "false_dice", "ms_per_frame"):
        assert key in figures
    assert figures["frames"] == 4
    assert 0.0 <= figures["dice_read_accuracy"] <= 1.0


@pytest.mark.slow
def test_synthetic_scenes_are_read_well():
    """Thirty seeded scenes (boards and tables, all styles, cubes, cocked dice); measured
    0.84 read, 0 misread, 0 cocked read as a number on them when this test was written,
    0.87 read (0 misread, 0 cocked read) since ones are sized by their short rays."""
    figures = evaluate.run("synthetic", n=30, seed=1000)
    assert figures["dice_read_accuracy"] >= 0.84
    assert figures["dice_misread"] <= 0.02
    assert figures["cocked_read_as_number"] == 0.0
    assert figures["cube_read_as_die"] == 0.0
    assert figures["false_dice"] <= 0.2


def test_scoring_counts_misreads_cocked_and_false_dice():
    from vision.dice.reader import DiceObservation, Die

    frame = evaluate.LabelledFrame("t", np.zeros((10, 10, 3), np.uint8), (
        evaluate.TruthDie(10, 10, 3, False, 5), evaluate.TruthDie(50, 10, 4, False, 5),
        evaluate.TruthDie(90, 10, 5, True, 5), evaluate.TruthDie(130, 10, 6, False, 5)))
    seen = DiceObservation((Die(11, 10, 3, 1, False), Die(50, 12, 2, 1, False), Die(90, 10, 5, 1, False),
                            Die(300, 300, 1, 1, False)))
    tally = evaluate.Tally()
    mistakes = evaluate.score_frame(frame, seen, tally)
    figures = evaluate.figures(tally)
    assert figures["dice_read_accuracy"] == pytest.approx(1 / 3, abs=1e-3)
    assert figures["dice_misread"] == pytest.approx(1 / 3, abs=1e-3)
    assert figures["cocked_read_as_number"] == 1.0
    assert figures["false_dice"] == 1.0
    assert figures["dice_found_recall"] == 0.75
    assert len(mistakes) == 4 and math.isnan(figures["cube_read_as_die"])


def test_unknown_set_and_missing_real_data(monkeypatch, tmp_path):
    with pytest.raises(ValueError):
        evaluate.run("imaginary", n=1)
    monkeypatch.setenv("BGBRIDGE_DICE_DATA", str(tmp_path / "nothing-here"))
    with pytest.raises(FileNotFoundError):
        evaluate.run("real", n=1)
    assert evaluate.main(["--set", "real", "-n", "1"]) == 2


def test_yolo_labels_fixture_is_read(tmp_path, monkeypatch):
    """A tiny labelled set made here (the real photos are not part of the repository)."""
    valid = tmp_path / "valid"
    valid.mkdir()
    frame = np.full((240, 320, 3), (180, 200, 210), np.uint8)
    die = draw_die(frame, (160, 120), 60, 4, angle_deg=20, style="white")
    cv2.imwrite(str(valid / "a.jpg"), frame)
    x0, y0, x1, y1 = die.bbox
    (valid / "a.txt").write_text(f"3 {die.centre[0] / 320} {die.centre[1] / 240} {(x1 - x0) / 320} {(y1 - y0) / 240}\n")
    monkeypatch.setenv("BGBRIDGE_DICE_DATA", str(tmp_path))
    figures = evaluate.run("real", n=10)
    assert figures["frames"] == 1 and figures["dice_read_accuracy"] == 1.0


@pytest.mark.slow
@pytest.mark.skipif(not evaluate.real_data_dir().is_dir() or os.environ.get("BGBRIDGE_DICE_DATA") == "",
                    reason="the real dice photos are not on this machine (they are not part of the repository)")
def test_real_validation_photos_are_read():
    # measured 0.996 read, 0.004 misread (1 of 255, a label error), 0 false dice; was 0.961, then 0.988
    figures = evaluate.run("real", n=1000)
    assert figures["dice_misread"] <= 0.01
    assert figures["dice_read_accuracy"] >= 0.99
    assert figures["false_dice"] <= 0.02


def test_an_erratum_may_remove_a_label_of_no_die(tmp_path):
    """An empty replacement line: the box held no die (train/five_1.jpg labels bare table)."""
    labels = tmp_path / "b.txt"
    labels.write_text("0 0.5 0.5 0.1 0.1\n4 0.25 0.25 0.1 0.1\n")
    assert [d.value for d in evaluate.read_yolo_labels(labels, 640, 480)] == [1, 5]
    assert [d.value for d in evaluate.read_yolo_labels(labels, 640, 480, {1: ""})] == [5]
    assert all(fix == "" or len(fix.split()) == 5 for fix, _ in evaluate.LABEL_ERRATA.values())


def test_a_die_of_unknown_value_counts_for_found_only():
    """The boards set has a die whose value is not readable by eye: finding it counts, its value
    does not, and calling it cocked counts as a flat die called cocked."""
    from vision.dice.reader import DiceObservation, Die

    frame = evaluate.LabelledFrame("t", np.zeros((10, 10, 3), np.uint8), (
        evaluate.TruthDie(10, 10, 3, False, 5), evaluate.TruthDie(50, 10, None, False, 5)))
    tally = evaluate.Tally()
    evaluate.score_frame(frame, DiceObservation((Die(10, 10, 3, 1, False), Die(50, 10, None, 1, True))), tally)
    figures = evaluate.figures(tally)
    assert figures["dice_read_accuracy"] == 1.0 and figures["dice_found_recall"] == 1.0
    assert figures["flat_called_cocked"] == 0.5 and figures["dice"] == 2


def test_board_set_is_skipped_cleanly_without_its_photos(monkeypatch, tmp_path):
    monkeypatch.setenv("BGBRIDGE_REAL_BOARDS", str(tmp_path / "nothing-here"))
    with pytest.raises(FileNotFoundError):
        evaluate.run("boards", n=1)
    assert evaluate.main(["--set", "boards"]) == 2
    assert all(len(values) >= 1 for values in evaluate.BOARD_DICE_BY_EYE.values())


@pytest.mark.slow
@pytest.mark.skipif(not (real_dir() / "labels.json").is_file(),
                    reason="the real board photos are not on this machine (they are not part of the repository)")
def test_dice_on_real_boards_are_read():
    # measured 9 of 13 read (0 misread), 1 of 14 flat dice called cocked, 4 false dice in 6
    # frames; before the reader knew small dice on a board: 1 of 13 read, 4 called cocked
    figures = evaluate.run("boards", n=100)
    assert figures["dice_misread"] == 0.0
    assert figures["dice_read_accuracy"] >= 0.65
    assert figures["flat_called_cocked"] <= 0.1
