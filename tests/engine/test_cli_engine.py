"""`bgbridge legal`, `judge` and `show`: the JSON contracts other tools build on, and clean errors."""
import json
import subprocess
import sys

import pytest

START = "4HPwATDgc/ABMA"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bgbridge", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_legal_json_contract():
    out = run("legal", START, "62", "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert set(answer) == {"position_id", "dice", "plays"}
    assert answer["position_id"] == START and answer["dice"] == [6, 2]
    assert len(answer["plays"]) == 14
    for play in answer["plays"]:
        assert set(play) == {"notation", "result_position_id"}
    assert {"notation": "24/18 13/11", "result_position_id": "4HPwATDgc+RBIA"} in answer["plays"]


def test_legal_accepts_dash_dice_and_prints_text():
    out = run("legal", START, "6-2")
    assert out.returncode == 0
    assert "24/18 13/11" in out.stdout


def test_legal_jsonl_many_requests_one_process():
    lines = [json.dumps({"position_id": START, "dice": [a, b]}) for a in range(1, 7) for b in range(1, 7)]
    out = run("legal", "--jsonl", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == 36
    assert answers[0]["dice"] == [1, 1] and answers[-1]["dice"] == [6, 6]


def test_legal_jsonl_bad_line_reported_and_rest_answered():
    stdin = "\n".join([json.dumps({"position_id": START, "dice": [6, 2]}), "{oops", json.dumps({"position_id": START, "dice": [9, 2]}), json.dumps({"position_id": START, "dice": [3, 1]})]) + "\n"
    out = run("legal", "--jsonl", stdin=stdin)
    assert out.returncode == 2
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert "plays" in answers[0] and "error" in answers[1] and "error" in answers[2] and "plays" in answers[3]
    assert "line 2" in answers[1]["error"]


def test_judge_json_contract():
    out = run("judge", START, "4HPwATDgc+RBIA", "62", "--json")
    assert json.loads(out.stdout) == {"legal": True, "finished": True, "notation": "24/18 13/11", "reason": "legal"}
    out = run("judge", START, "4HPwATDgc/ABMA", "62", "--json")
    assert json.loads(out.stdout)["finished"] is False


def test_judge_jsonl():
    stdin = json.dumps({"before_id": START, "after_id": "4HPwATDgc+RBIA", "dice": [6, 2]}) + "\n"
    out = run("judge", "--jsonl", stdin=stdin)
    assert out.returncode == 0
    assert json.loads(out.stdout)["notation"] == "24/18 13/11"


def test_show_draws_the_board():
    out = run("show", START)
    assert out.returncode == 0
    assert "Position ID 4HPwATDgc/ABMA" in out.stdout and "BAR" in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("legal", "nonsense", "62"),
        ("legal", START, "72"),
        ("legal", START),
        ("judge", START, "garbage!!!!!!!", "62"),
        ("show", "XGID=zz"),
        ("legal", "//////////////", "62"),
    ],
)
def test_bad_input_one_line_exit_2(args):
    out = run(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
