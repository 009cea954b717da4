"""Issue 3's check against the real gnubg: gnubg plays 100 matches against itself; our readers
replay every move of its .mat and .sgf exports; our writers' files are imported back into gnubg,
and gnubg's position and match state after every record agree with our Match model's."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.gnubg import Gnubg, replay_match
from engine.match import AcceptResign, Double, Drop, Match, Move, OpeningRoll, Resign, Take
from engine.matfile import read_mat, write_mat
from engine.sgf import read_sgf, write_sgf

#: gnubg records one entry per play, cube action or resignation.
RECORDED = (Move, Double, Take, Drop, Resign)

#: 100 matches: mostly short ones (gnubg needs ~10 ms a move), some longer with more cube play.
JOBS = [(1, seed) for seed in range(45)] + [(3, seed) for seed in range(40)] + [(5, seed) for seed in range(15)]


def moments(match: Match) -> list[tuple[str, str, str]]:
    """Our (event, Position ID, Match ID) at each point where gnubg shows a record: after a play,
    cube action or resignation, with the next roll already made (gnubg's record holds its dice)."""
    replay = Match.from_settings(match.settings())
    out = []
    pending = None
    for event in match.events:
        if pending is not None and isinstance(event, RECORDED + (OpeningRoll,)):
            out.append((str(pending), replay.position_id(), replay.match_id()))
            pending = None
        replay.apply(event)
        if isinstance(event, RECORDED):
            pending = event
    if pending is not None:
        out.append((str(pending), replay.position_id(), replay.match_id()))
    return out


def agree(ours: Match, replay, label: str) -> int:
    expected = moments(ours)
    got = [(r.position_id, r.match_id) for r in replay.records]
    assert len(expected) == len(got), f"{label}: {len(expected)} moments, gnubg has {len(got)} records"
    for (event, pid, mid), (gpid, gmid) in zip(expected, got):
        assert (pid, mid) == (gpid, gmid), f"{label}: after {event}: ours {pid}:{mid}, gnubg {gpid}:{gmid}"
    return len(got)


@pytest.mark.slow
@pytest.mark.gnubg
def test_gnubg_self_play_files_read_write_and_replay_in_gnubg(gnubg_binary, tmp_path):
    started = time.perf_counter()

    def run(part: list[tuple[int, int]]) -> tuple[int, int]:
        plays = records = 0
        with Gnubg(gnubg_binary) as client:
            for length, seed in part:
                files = client.play_match(length, seed=1000 + seed)
                label = f"{length}-point match, seed {1000 + seed}"
                # Our readers replay every move of gnubg's exports, each checked by the engine.
                from_mat = read_mat(files["mat"])
                from_sgf = read_sgf(files["sgf"])
                assert [e.to_dict() for e in from_mat.events] == [e.to_dict() for e in from_sgf.events], label
                assert from_mat.score == from_sgf.score and from_mat.over, label
                plays += sum(len(g.plays) for g in from_mat.games)
                # Our writers' files, imported into gnubg, agree with our model record by record.
                for kind, text in (("mat", write_mat(from_mat)), ("sgf", write_sgf(from_mat))):
                    path = tmp_path / f"ours-{length}-{seed}.{kind}"
                    path.write_text(text, encoding="utf-8")
                    records += agree(from_mat, replay_match(path, binary=client.binary), f"{label}, our .{kind}")
                    assert [e.to_dict() for e in (read_mat(text) if kind == "mat" else read_sgf(text)).events] == \
                        [e.to_dict() for e in from_mat.events], f"{label}: our .{kind} reads back differently"
                if seed % 5 == 0:
                    # And gnubg's own export, as gnubg replays it, agrees with our reading of it.
                    path = tmp_path / f"gnubg-{length}-{seed}.mat"
                    path.write_text(files["mat"], encoding="utf-8")
                    records += agree(from_mat, replay_match(path, binary=client.binary), f"{label}, gnubg's .mat")
        return plays, records

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, [JOBS[i::4] for i in range(4)]))
    plays = sum(p for p, _ in results)
    records = sum(r for _, r in results)
    print(f"\n{len(JOBS)} gnubg matches: {plays} plays read from .mat and .sgf; "
          f"{records} gnubg records agree with ours; {time.perf_counter() - started:.0f} s")
    assert len(JOBS) >= 100 and plays > 3000


@pytest.mark.slow
@pytest.mark.gnubg
def test_our_xgid_of_every_moment_reads_in_gnubg_as_our_gnubg_ids(gnubg_binary):
    """gnubg reads XGIDs but cannot write them: for every moment of a 5-point match where a side
    is to roll or to play, gnubg's reading of our XGID gives our Position ID and our Match ID's
    fields (XGID carries no game state, resignation or Jacoby bit, so those are left out)."""
    from engine.ids import decode_match_id

    match = read_sgf((Path(__file__).parent / "data" / "gnubg_5pt.sgf").read_bytes())
    checked = 0
    with Gnubg(gnubg_binary) as client:
        for moment in match.moments():
            fields = decode_match_id(moment.match_id)
            if fields.game_state != 1 or fields.double_offered:
                continue
            state = client.state_from_xgid(moment.xgid)
            theirs = decode_match_id(state.match_id)
            assert state.position_id == moment.position_id, moment
            for name in ("cube_value", "cube_owner", "player_on_roll", "crawford", "dice", "match_length", "score"):
                assert getattr(theirs, name) == getattr(fields, name), (name, moment)
            checked += 1
    assert checked > 250
