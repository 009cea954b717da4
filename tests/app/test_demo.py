"""`bgbridge demo`: the bundled match refereed move by move and recorded in the journal."""
import re
import subprocess
import sys

from bgbridge.journal import Journal
from engine.matfile import read_mat


def test_demo_referees_and_records_the_bundled_match(tmp_path):
    env = {"BGBRIDGE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "bgbridge", "demo", "--delay", "0"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    legal, unfinished, illegal = map(int, re.search(
        r"verdicts: (\d+) legal plays, (\d+) unfinished moves seen, (\d+) illegal moves caught", out.stdout).groups())
    assert legal > 100 and unfinished > 100 and illegal >= 3
    match_id = int(re.search(r"recorded as match (\d+)", out.stdout).group(1))
    with Journal(tmp_path / "bgbridge.sqlite3") as journal:
        recorded = journal.load(match_id)
    from importlib import resources
    source = read_mat(resources.files("bgbridge").joinpath("data/demo-match.mat").read_bytes())
    assert recorded.score == source.score
    assert [e.to_dict() for e in recorded.events] == [e.to_dict() for e in source.events]


def test_demo_rejects_an_unreadable_match_file(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_bytes(b"\x00\x01garbage")
    out = subprocess.run([sys.executable, "-m", "bgbridge", "demo", "--match", str(bad), "--no-record"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr
