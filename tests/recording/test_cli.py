"""``bgbridge export``, ``import``, ``replay`` and ``matches`` as a user runs them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bgbridge.cli import main
from bgbridge.journal import Journal
from engine.matfile import read_mat
from engine.sgf import read_sgf

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_import_then_export_both_formats(home, capsys, tmp_path):
    status, out, err = run(capsys, "import", str(DATA / "gnubg_5pt.mat"))
    assert status == 0 and out.startswith("imported match 1: root (X) - gnubg (O), 5-point match, 6 games")
    status, out, _ = run(capsys, "import", str(DATA / "gnubg_5pt.sgf"))
    assert status == 0 and "imported match 2" in out
    status, out, _ = run(capsys, "matches")
    assert status == 0 and len(out.splitlines()) == 2 and "finished" in out

    status, mat_text, _ = run(capsys, "export", "1", "--format", "mat")
    assert status == 0 and mat_text.startswith("; [EventDate") and " 5 point match" in mat_text
    assert read_mat(mat_text).score == read_mat((DATA / "gnubg_5pt.mat").read_bytes()).score
    target = tmp_path / "out.sgf"
    status, out, _ = run(capsys, "export", "2", "--format", "sgf", "--output", str(target))
    assert status == 0 and out == ""
    assert [e.to_dict() for e in read_sgf(target.read_bytes()).events] == \
        [e.to_dict() for e in read_mat(mat_text).events]
    # A file can be exported straight, without the journal.
    status, out, _ = run(capsys, "export", str(DATA / "gnubg_5pt.sgf"), "--format", "mat")
    assert status == 0 and out == mat_text


def test_replay_check(home, capsys, tmp_path):
    status, out, _ = run(capsys, "replay", str(DATA / "gnubg_5pt.mat"), "--check")
    assert status == 0 and out.strip() == "ok: 6 games, 190 plays, all legal"
    bad = tmp_path / "bad.mat"
    bad.write_text((DATA / "gnubg_5pt.mat").read_text().replace("  3) 53: 8/3 6/3 ", "  3) 53: 8/2 6/3 "))
    status, out, _ = run(capsys, "replay", str(bad), "--check")
    assert status == 1
    assert out.splitlines()[0].startswith(f"{bad}: game 1, move 3, line 9: O plays 53: 8/2 6/3:")
    assert out.splitlines()[0].endswith("8/2 6/3: O moved 9 pips, more than 5-3 allows (8)")
    status, out, _ = run(capsys, "replay", str(DATA / "gnubg_5pt.sgf"))
    assert status == 0 and "XGID=" in out and "game 6" in out


def test_bad_files_give_one_line_and_import_nothing(home, capsys, tmp_path):
    samples = {
        "missing.mat": None,
        "truncated.mat": (DATA / "gnubg_5pt.mat").read_bytes()[:1500],
        "latin1.mat": " 3 point match\n\n Game 1\n \xe9 : 0   b : 0\n  1) 31: 8/5 6/9\n".encode("latin-1"),
        "utf16.mat": " 3 point match\n".encode("utf-16"),
        "nonsense.mat": b" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: banana\n",
        "huge.mat": b" 3 point match\n" + b"7" * 10_000_000 + b"\n",
        "broken.sgf": b"(;GM[6]MI[length:3];B[31qtst];W[52mh",
        "dir": "directory",
    }
    for name, content in samples.items():
        path = tmp_path / name
        if content == "directory":
            path.mkdir()
        elif content is not None:
            path.write_bytes(content)
        status, out, err = run(capsys, "import", str(path))
        assert status in (1, 2), name
        assert "Traceback" not in err and err.startswith("bgbridge: "), (name, err)
        if status == 2:
            assert len(err.strip().splitlines()) == 1, (name, err)
    with Journal() as journal:
        assert journal.matches() == [] and journal.check() == "ok"


def test_unknown_match_id_and_bad_arguments(home, capsys):
    status, _, err = run(capsys, "export", "7", "--format", "mat")
    assert status == 2 and err.strip() == f"bgbridge: no match 7 in the journal {home / 'bgbridge.sqlite3'}"
    with pytest.raises(SystemExit) as exc:
        main(["export", "7", "--format", "pgn"])
    assert exc.value.code == 2


def test_console_script_prints_no_traceback(home, tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;GM[6]")
    proc = subprocess.run([sys.executable, "-m", "bgbridge", "import", str(bad)], capture_output=True, text=True,
                          cwd=ROOT, env={"BGBRIDGE_HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
