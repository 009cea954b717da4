"""Matches gnubg plays against itself, exported as .mat and .sgf and replayed by gnubg:
the client's side of issue 3, and every recorded move checked against our engine."""
from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.gnubg import Gnubg, GnubgError, ReplayRecord, replay_match
from engine.ids import decode_match_id
from engine.notation import parse_play
from engine.position import Position


def without_date(mat: str) -> str:
    return "\n".join(line for line in mat.splitlines() if "EventDate" not in line)


def play_and_replay(client: Gnubg, length: int, seed: int, tmp_path) -> tuple[dict, object, object]:
    files = client.play_match(length, seed)
    mat = tmp_path / f"m{length}-{seed}.mat"
    sgf = tmp_path / f"m{length}-{seed}.sgf"
    mat.write_text(files["mat"], encoding="utf-8")
    sgf.write_text(files["sgf"], encoding="utf-8")
    return files, replay_match(mat, binary=client.binary), replay_match(sgf, binary=client.binary)


def check_move_with_engine(record: ReplayRecord) -> None:
    """Our engine finds gnubg's recorded move legal and reaches gnubg's position after it."""
    before = Position.from_position_id(record.position_id_before, turn=record.player)
    legal = before.legal_plays(record.dice)
    after = record.position_after().with_turn(record.player)
    if not record.steps:
        assert not legal, f"gnubg recorded a dance but we have plays: {record}"
        assert after == before, record
        return
    play = legal.find_moves(record.steps)
    assert play is not None, f"our engine finds gnubg's move illegal: {record}"
    assert play.result == after, record
    # gnubg's own notation of the move reads back as the same play.
    assert parse_play(before, record.dice, record.move).result == play.result, record


def check_replays(replay_mat, replay_sgf, length: int) -> int:
    assert replay_mat.match_length == replay_sgf.match_length == length
    assert replay_mat.names == replay_sgf.names
    assert len(replay_mat.records) == len(replay_sgf.records)
    moves = 0
    for a, b in zip(replay_mat.records, replay_sgf.records):
        assert (a.game, a.index, a.player, a.action) == (b.game, b.index, b.player, b.action)
        assert (a.position_id, a.match_id) == (b.position_id, b.match_id), (a, b)
        if a.action == "move":
            # gnubg may write a move's steps in another order in each format
            assert sorted(a.dice) == sorted(b.dice)
            assert Counter(a.steps) == Counter(b.steps), (a, b)
            check_move_with_engine(a)
            moves += 1
    # The match ends with one player at the match length or beyond.
    last = decode_match_id(replay_mat.records[-1].match_id)
    final_game = replay_mat.games[-1]
    total = list(final_game["score"])
    total[final_game["winner"]] += final_game["points"]
    assert max(total) >= length, (replay_mat.games, last)
    return moves


def test_play_match_exports_mat_and_sgf(gnubg, tmp_path):
    files, replay_mat, replay_sgf = play_and_replay(gnubg, 3, seed=5, tmp_path=tmp_path)
    assert " 3 point match" in files["mat"]
    assert "gnubg_O : 0" in files["mat"] and "gnubg_X : 0" in files["mat"]
    assert files["sgf"].startswith("(;FF[4]GM[6]")
    assert "MI[length:3]" in files["sgf"]
    assert replay_mat.names == ("gnubg_O", "gnubg_X")
    assert check_replays(replay_mat, replay_sgf, 3) > 20
    first = replay_mat.records[0]
    assert (first.game, first.index, first.action) == (1, 0, "move")


def test_play_match_is_reproducible(gnubg):
    one = gnubg.play_match(1, seed=3)
    two = gnubg.play_match(1, seed=3)
    other_seed = gnubg.play_match(1, seed=4)
    assert without_date(one["mat"]) == without_date(two["mat"])
    assert without_date(one["mat"]) != without_date(other_seed["mat"])
    # the client is usable for other requests after a match
    assert len(gnubg.legal_result_ids("4HPwATDgc/ABMA", (6, 2))) == 14


def test_play_match_rejects_bad_arguments(gnubg):
    with pytest.raises(GnubgError, match="match length"):
        gnubg.play_match(0, seed=1)
    with pytest.raises(GnubgError, match="seed"):
        gnubg.play_match(3, seed=-1)
    with pytest.raises(GnubgError, match="player names"):
        gnubg.play_match(3, seed=1, names=("two words", "x"))


@pytest.mark.slow
def test_many_matches_replay_and_agree_with_engine(gnubg_binary, tmp_path):
    """12 matches of 1 to 7 points: .mat and .sgf replays agree record by record, and every
    move is legal for our engine and lands on gnubg's position."""
    jobs = [(length, 100 + seed) for seed in range(4) for length in (1, 3, 7)]

    def run(part: list[tuple[int, int]]) -> int:
        # One client per thread: gnubg's 10 ms polls overlap (see test_legal_plays.CLIENTS).
        moves = 0
        with Gnubg(gnubg_binary) as client:
            for length, seed in part:
                _, replay_mat, replay_sgf = play_and_replay(client, length, seed, tmp_path)
                moves += check_replays(replay_mat, replay_sgf, length)
        return moves

    with ThreadPoolExecutor(3) as pool:
        moves = sum(pool.map(run, [jobs[i::3] for i in range(3)]))
    assert moves > 500


def test_replay_reports_an_illegal_move_in_a_file(gnubg, tmp_path):
    """gnubg refuses a .mat holding an illegal play, and the refusal reaches the caller."""
    mat = gnubg.play_match(1, seed=5)["mat"]
    lines = mat.splitlines()
    # Move line 2's first play becomes "13/1 ..." : a 12-pip step no roll allows.
    index = next(i for i, line in enumerate(lines) if line.lstrip().startswith("2)"))
    entry = lines[index].split(")", 1)[1].split(":", 1)[1].split()
    assert entry, lines[index]
    broken = lines[index].replace(entry[0], "13/1", 1)
    assert broken != lines[index]
    lines[index] = broken
    path = tmp_path / "broken.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(GnubgError, match="had errors"):
        replay_match(path, binary=gnubg.binary)
