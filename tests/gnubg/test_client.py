"""The gnubg client itself: requests, answers, errors, lifetime."""
from __future__ import annotations

import os
import signal

import pytest

from engine.gnubg import (
    Gnubg,
    GnubgDied,
    GnubgError,
    GnubgNotFound,
    GnubgTimeout,
    find_binary,
    replay_file,
)
from engine.position import BAR, O, X, Position, other

START_ID = "4HPwATDgc/ABMA"


def test_missing_binary_is_a_clear_error(tmp_path):
    with pytest.raises(GnubgNotFound, match="gnubg not found at"):
        Gnubg(binary=tmp_path / "gnubg")
    not_executable = tmp_path / "gnubg"
    not_executable.write_text("#!/bin/sh\n")
    with pytest.raises(GnubgNotFound):
        find_binary(not_executable)


def test_binary_that_exits_at_once_is_reported_as_died(tmp_path):
    fake = tmp_path / "not-gnubg"
    fake.write_text("#!/bin/sh\necho 'no python here' >&2\nexit 3\n")
    fake.chmod(0o755)
    with pytest.raises(GnubgDied, match=r"exit status 3.*no python here"):
        Gnubg(binary=fake, timeout=10)


def test_version_and_context_manager(gnubg_binary):
    with Gnubg(gnubg_binary) as client:
        assert client.version.startswith("GNU Backgammon 1.")
        assert client.alive
    assert not client.alive
    with pytest.raises(GnubgDied, match="closed"):
        client.legal_result_ids(START_ID, (6, 2))
    client.close()  # closing twice is harmless


def test_opening_62_has_gnubgs_fourteen_plays(gnubg):
    plays = gnubg.legal_plays(START_ID, (6, 2))
    moves = {play.move for play in plays}
    assert len(plays) == 14
    assert {"24/18 13/11", "24/16", "13/5", "8/2 6/4", "24/22 8/2"} <= moves
    assert gnubg.legal_result_ids(START_ID, (2, 6)) == {play.result_id for play in plays}
    # The mover stays "on roll" in gnubg's keys: X's 24/18 13/11 changes the second half.
    ours = Position.start().legal_plays((6, 2)).find_moves([(24, 18), (13, 11)])
    assert ours.result.position_id() in {play.result_id for play in plays}


def test_a_dance_has_no_plays(gnubg):
    # X on the bar, O holds X's whole entry zone (O's points 1-6 = X's 24-19).
    closed = Position.from_points(x={BAR: 1, 6: 14}, o={p: 2 for p in range(1, 7)}, turn=X)
    assert gnubg.legal_plays(closed.position_id(), (6, 6)) == []
    assert gnubg.legal_result_ids(closed.position_id(), (3, 1)) == set()


def test_results_agree_with_gnubgs_own_move_command(gnubg):
    """The driver builds each result from gnubg's parsed move; gnubg's ``move`` command must
    reach the same position (hits, bar entries and bear-offs included)."""
    cases = [
        (Position.start(), (6, 2)),
        (Position.start(turn=O), (5, 5)),
        # hits and an entry from the bar
        (Position.from_points(x={BAR: 1, 13: 4, 8: 3, 6: 5}, o={20: 1, 22: 1, 6: 5, 8: 3, 13: 5}), (5, 3)),
        # bear-off with gnubg's "both dice" rule
        (Position.from_points(x={2: 1}, o={19: 3, 6: 5}), (3, 1)),
        (Position.from_points(x={6: 2, 4: 3, 1: 2}, o={18: 2, 3: 5}, turn=X), (6, 4)),
    ]
    checked = 0
    for position, dice in cases:
        plays = gnubg.legal_plays(position.position_id(), dice)
        assert plays, (position, dice)
        for play in plays[:6]:
            after = gnubg.play_move(position.position_id(), dice, play.move)
            mover_view = Position.from_position_id(play.result_id, turn=position.turn)
            assert after == mover_view.pass_turn().position_id(), (position, dice, play)
            checked += 1
    assert checked >= 15


def test_refusals_are_errors_and_the_client_goes_on(gnubg):
    with pytest.raises(GnubgError, match="Illegal position"):
        gnubg.legal_result_ids("not-a-position", (6, 2))
    with pytest.raises(GnubgError, match="dice are two numbers 1-6"):
        gnubg.legal_result_ids(START_ID, (7, 1))
    with pytest.raises(GnubgError, match="Not a valid XGID"):
        gnubg.position_id_from_xgid("XGID=nonsense")
    with pytest.raises(GnubgError):
        gnubg.play_move(START_ID, (6, 2), "24/10")
    assert len(gnubg.legal_result_ids(START_ID, (6, 2))) == 14


def test_timeout_kills_gnubg(gnubg_binary):
    client = Gnubg(gnubg_binary)
    with pytest.raises(GnubgTimeout, match="within 0.05 s; killed it"):
        client.play_match(7, seed=1, timeout=0.05)
    assert not client.alive
    with pytest.raises(GnubgDied):
        client.legal_result_ids(START_ID, (6, 2))


def test_a_killed_gnubg_is_reported(gnubg_binary):
    client = Gnubg(gnubg_binary)
    os.kill(client._process.pid, signal.SIGKILL)
    client._process.wait()
    with pytest.raises(GnubgDied, match="gnubg died"):
        client.legal_result_ids(START_ID, (6, 2))
    client.close()


def test_replay_rejects_bad_files(tmp_path, gnubg_binary):
    with pytest.raises(GnubgError, match="cannot read"):
        replay_file(tmp_path / "missing.mat", binary=gnubg_binary)
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(GnubgError, match=r"\.mat or \.sgf"):
        replay_file(text, binary=gnubg_binary)
    junk = tmp_path / "junk.mat"
    junk.write_text("this is not a match\n")
    with pytest.raises(GnubgError):
        replay_file(junk, binary=gnubg_binary)
