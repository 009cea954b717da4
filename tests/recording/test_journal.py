"""The SQLite journal: events committed as they happen, matches listed, reopened and resumed,
nothing lost when the recording process is killed, nothing half-imported."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bgbridge.journal import Journal, JournalError, data_dir, default_path
from engine.match import Double, GameError, Match, Move, OpeningRoll, Roll, Take, TakeBack
from engine.matfile import read_mat
from engine.position import O, X

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]


def test_data_directory_comes_from_bgbridge_home(home):
    assert data_dir() == home and default_path() == home / "bgbridge.sqlite3"
    with Journal() as journal:
        assert journal.path == home / "bgbridge.sqlite3"
    assert (home / "bgbridge.sqlite3").exists()
    assert not any(p.name.endswith(".sqlite3") for p in ROOT.iterdir())


def test_events_are_committed_as_they_happen_and_resume_after_reopening(home):
    journal = Journal()
    rec = journal.new_match(Match(7, players={X: "Xavier", O: "Olga"}))
    rec.record(OpeningRoll(x=3, o=1))
    rec.record(Move(X, "8/5 6/5"))
    # Another connection (another process, say) sees both events already.
    other = sqlite3.connect(home / "bgbridge.sqlite3")
    assert other.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
    other.close()
    journal.close()

    with Journal() as journal:
        [summary] = journal.matches()
        assert (summary.players, summary.length, summary.events, summary.status) == (("Xavier", "Olga"), 7, 2, "playing")
        rec = journal.open(summary.id)
        assert rec.match.game.turn == O
        rec.record(Double(O))
        rec.record(Take(X))
        rec.record(Roll(O, (6, 2)))
        rec.record(TakeBack("dice misread"))
        rec.record(Roll(O, (5, 2)))
    with Journal() as journal:
        match = journal.load(summary.id)
        assert match.game.cube_value == 2 and match.game.dice == (5, 2)
        assert journal.matches()[0].events == 7


def test_a_refused_event_is_not_written(home):
    with Journal() as journal:
        rec = journal.new_match(Match(3))
        rec.record(OpeningRoll(x=3, o=1))
        with pytest.raises(GameError):
            rec.record(Move(O, "8/5 6/5"))
        assert journal.event_count(rec.id) == 1


def test_import_is_all_or_nothing(home):
    match = read_mat((DATA / "gnubg_5pt.mat").read_bytes())
    with Journal() as journal:
        match_id = journal.add_match(match, source="import")
        again = journal.load(match_id)
        assert [e.to_dict() for e in again.events] == [e.to_dict() for e in match.events]
        # A match whose events do not replay (tampered in memory) writes nothing at all.
        broken = read_mat((DATA / "gnubg_5pt.mat").read_bytes())
        broken.events.insert(5, Move(X, "24/18 13/11"))
        with pytest.raises(GameError):
            journal.add_match(broken, source="import")
        assert [s.id for s in journal.matches()] == [match_id]
        assert journal.check() == "ok"


def test_unknown_match_and_unreadable_database_are_clear_errors(home, tmp_path):
    with Journal() as journal:
        with pytest.raises(JournalError, match="no match 42"):
            journal.open(42)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal(junk)


RECORDER = textwrap.dedent("""
    import random, sys
    from bgbridge.journal import Journal
    from engine.match import Double, Drop, Match, Move, OpeningRoll, Roll, Take
    from engine.position import X, O

    rng = random.Random(int(sys.argv[1]))
    journal = Journal()
    matches = journal.matches()
    rec = journal.open(matches[0].id) if matches else journal.new_match(Match(0, players={X: "x", O: "o"}))
    print("resumed", rec.seq, flush=True)
    while True:
        game = rec.match.game
        if game is None or game.over or game.phase == "opening":
            event = OpeningRoll(x=rng.randint(1, 6), o=rng.randint(1, 6))
        elif game.phase == "roll":
            if game.may_double(game.turn) and rng.random() < 0.03:
                event = Double(game.turn)
            else:
                event = Roll(game.turn, (rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase == "doubled":
            event = Take(game.turn) if rng.random() < 0.8 else Drop(game.turn)
        else:
            plays = list(game.legal_plays())
            event = Move(game.turn, str(rng.choice(plays)) if plays else "")
        rec.record(event)
        print("committed", rec.seq, flush=True)
""")


def test_sigkill_in_the_middle_of_a_match_loses_nothing_committed(home, tmp_path):
    """A recording process is killed with SIGKILL three times at different moments; each time
    the journal opens cleanly, holds every event the process had reported committed, replays,
    and the next process resumes the same match."""
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    acknowledged = 0
    for round_, stop_after in enumerate((25, 60, 140)):
        proc = subprocess.Popen([sys.executable, str(script), str(round_)], stdout=subprocess.PIPE, env=env,
                                text=True)
        assert proc.stdout is not None
        first = proc.stdout.readline().split()
        assert first[0] == "resumed" and int(first[1]) >= acknowledged
        seen = 0
        for line in proc.stdout:
            kind, seq = line.split()
            acknowledged = max(acknowledged, int(seq))
            seen += 1
            if seen == stop_after:
                proc.send_signal(signal.SIGKILL)
                break
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        with Journal() as journal:
            assert journal.check() == "ok"
            [summary] = journal.matches()
            assert summary.events >= acknowledged
            match = journal.load(summary.id)  # every stored event replays
            assert len(match.events) == summary.events
    assert acknowledged > 200
