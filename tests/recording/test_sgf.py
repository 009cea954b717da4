"""SGF backgammon: gnubg's save-match files read, ours written the same way, bad files refused."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.match import Match, Move, OpeningRoll, SetBoard
from engine.matfile import read_mat
from engine.position import O, X, Position
from engine.sgf import SgfError, format_move, parse_move, parse_sgf, read_sgf, write_sgf

DATA = Path(__file__).parent / "data"


def test_gnubg_sgf_and_mat_of_one_match_read_to_the_same_events():
    from_sgf = read_sgf((DATA / "gnubg_5pt.sgf").read_bytes())
    from_mat = read_mat((DATA / "gnubg_5pt.mat").read_bytes())
    assert [e.to_dict() for e in from_sgf.events] == [e.to_dict() for e in from_mat.events]
    assert from_sgf.crawford and from_sgf.length == 5 and from_sgf.info["EventDate"] == "2026.11.22"


def test_written_sgf_has_gnubgs_nodes_and_reads_back():
    match = read_sgf((DATA / "gnubg_5pt.sgf").read_bytes())
    text = write_sgf(match)
    theirs = (DATA / "gnubg_5pt.sgf").read_text()
    # Same root information per game (apart from the application name) and the same cube nodes.
    assert text.count("(;FF[4]GM[6]") == theirs.count("(;FF[4]GM[6]") == 6
    for prop in ("MI[length:5][game:3][ws:1][bs:3]", "RE[B+6R]", "RE[W+1]", ";W[double]", ";B[take]", ";W[66]\n"):
        assert prop in text and prop in theirs, prop
    assert [e.to_dict() for e in read_sgf(text).events] == [e.to_dict() for e in match.events]


def test_point_letters_follow_each_colour():
    assert format_move(X, (2, 1), [(13, 11), (24, 23)]) == "21lnab"
    assert format_move(O, (5, 4), [(25, 21), (3, 0)]) == "54yucz"
    assert parse_move(X, "21yxaz") == ((2, 1), [(25, 1), (24, 0)])


def test_escapes_variations_and_comments_parse():
    games = parse_sgf(r"(;GM[6]C[a \] bracket \\ and more]PW[A\]B](;W[31hfkf];B[double])(;W[52]))")
    assert games[0].root["C"] == ["a ] bracket \\ and more"] and games[0].root["PW"] == ["A]B"]
    assert [list(n) for n in games[0].nodes] == [["W"], ["B"]]  # the main line only, as gnubg


def test_board_set_by_hand_round_trips():
    m = Match(0)
    pos = Position.from_points(x={6: 3, 5: 2}, o={6: 2, 24: 1}, turn=X)
    m.apply(SetBoard(X, pos.position_id()))
    m.apply(OpeningRoll(x=6, o=1))
    m.apply(Move(X, "6/off 6/5"))
    text = write_sgf(m)
    assert ";AE[a:y]" in text and "PL[B]" in text
    again = read_sgf(text)
    assert again.game.plays[0].before == pos


def test_resignation_result_becomes_a_resignation():
    text = "(;GM[6]MI[length:3][game:0][ws:0][bs:0]RU[Crawford]RE[W+2R];B[31qtst];W[52mhxv])"
    m = read_sgf(text)
    assert m.game.result.reason == "resign" and m.score[O] == 2


@pytest.mark.parametrize("text, message", [
    ("", "no game"),
    ("(;GM[1];B[aa])", "no backgammon game"),
    ("(;GM[6];W[52", "not closed"),
    ("(;GM[6];W[52mhxv]", "missing '\\)'"),
    ("(;GM[6]MI[length:3];B[31qtqt])", "game 1, move 1: X plays 31"),
    ("(;GM[6]MI[length:3];B[31qtst];W[take])", "game 1, move 2: O cannot take: no double is offered"),
    ("(;GM[6]MI[length:3];B[3?qt])", "cannot read the move"),
    ("(;GM[6]MI[length:x];B[31qtst])", "MI length should be a number"),
    ("(;GM[6]MI[length:3];B[31qtst];DI[11])", "edited during play"),
])
def test_bad_sgf_gives_one_clear_error(text, message):
    with pytest.raises(SgfError, match=message):
        read_sgf(text)


def test_binary_and_huge_values_are_refused_or_read_without_blowing_up():
    with pytest.raises(SgfError, match="binary"):
        read_sgf(bytes(range(256)) * 4)
    with pytest.raises(SgfError):
        read_sgf("(;GM[6];B[" + "q" * 10_000_000 + "])")
    with pytest.raises(SgfError, match="nested too deeply"):
        read_sgf("(;GM[6]" + "(;W[52mhxv]" * 100_000)
