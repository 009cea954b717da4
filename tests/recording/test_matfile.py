"""Jellyfish .mat: gnubg's layout written exactly, other writers' variants read by tokens, bad
files refused with the line, game and move."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.match import AcceptResign, Double, Match, Move, OpeningRoll, Resign, Roll, Take
from engine.matfile import MatError, parse_mat, read_mat, write_mat
from engine.position import O, X

DATA = Path(__file__).parent / "data"


def step_free(line: str) -> list[tuple[int, str]]:
    """The tokens of a line that are not checker steps, with their columns."""
    import re

    return [(m.start(), m.group()) for m in re.finditer(r"\S+", line) if "/" not in m.group()]


def test_gnubg_export_reads_and_writes_back_in_gnubgs_layout():
    """gnubg 1.07's own export (5 points, cube actions, drops, resignations) reads, and our
    writer reproduces it line by line: same cells in the same columns; the steps of a play may
    come in another order or decomposition (gnubg's own re-exports differ the same way)."""
    original = (DATA / "gnubg_5pt.mat").read_text()
    match = read_mat(original)
    assert match.players == {X: "root", O: "gnubg"} and match.score == {X: 10, O: 2} and match.over
    assert [g.result.reason for g in match.games] == ["drop", "resign", "drop", "drop", "resign", "resign"]
    ours = write_mat(match)
    theirs = [line for line in original.splitlines() if "EventDate" not in line]
    mine = [line for line in ours.splitlines() if "EventDate" not in line]
    for lines in (theirs, mine):
        while lines and not lines[0].strip():
            lines.pop(0)
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        assert step_free(a) == step_free(b), (a, b)
    assert [e.to_dict() for e in read_mat(ours).events] == [e.to_dict() for e in match.events]


def played_match() -> Match:
    m = Match(3, players={X: "Xavier", O: "Olga"}, info={"Event": "Club night"})
    for event in (OpeningRoll(x=1, o=3), Move(O, "8/5 6/5"), Roll(X, (6, 2)), Move(X, "24/18 13/11"),
                  Double(O), Take(X), Roll(O, (6, 6)), Move(O, "24/18(2) 13/7(2)"),
                  Roll(X, (4, 3)), Move(X, "bar/21 13/10"),
                  Resign(X, 1), AcceptResign(O),
                  OpeningRoll(x=6, o=2), Move(X, "24/18 13/11"), Roll(O, (3, 1)), Move(O, "8/5 6/5"),
                  Resign(X, 1), AcceptResign(O)):
        m.apply(event)
    return m


def test_written_files_read_back_to_the_same_events():
    m = played_match()
    text = write_mat(m)
    assert '; [Event "Club night"]' in text
    assert f" Game 2\n {'Olga : 2':<31}Xavier : 0\n" in text
    again = read_mat(text)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in m.events]
    assert again.score == m.score == {X: 0, O: 3}
    assert again.info == {"Event": "Club night"}


def test_other_writers_variants_read_by_tokens():
    text = (
        "; [Site \"FIBS\"]\r\n"
        "5 points match\r\n\r\n"
        "Game 1\r\n"
        "Ol\xe9 : 0   Xavier : 0\r\n"
        "1) 13: 8/5 6/5    26: 24/18 13/11\r\n"
        "2) 66: 24/18(2) 13/7(2)     Doubles => 2\r\n"
        "3) Takes    43: bar/21 13/10\r\n"
        "4) ????\r\n"
        "   Wins 2 points and the match\r\n"
    ).encode("latin-1")
    m = read_mat(text)
    assert m.players[O] == "Ol\xe9" and m.info == {"Site": "FIBS"}
    assert m.game.plays[0].dice == (3, 1) and m.game.cube_value == 2
    assert m.game.result.winner == O and m.game.result.points == 2 and m.game.result.reason == "resign"


def test_bar_and_off_words_and_combined_moves():
    text = " 1 point match\n\n Game 1\n a : 0     b : 0\n  1) 62: 24/16                 31: 8/5 6/5\n"
    m = read_mat(text)
    assert str(m.game.plays[0].play) == "24/16"


def test_dance_and_hits_read():
    original = (DATA / "gnubg_5pt.mat").read_text()
    m = read_mat(original)
    dances = [p for g in m.games for p in g.plays if p.play is None]
    hits = [p for g in m.games for p in g.plays if p.play is not None and any(p.play.hits)]
    assert dances and hits


@pytest.mark.parametrize("text, message", [
    ("", "empty file"),
    ("hello\n", "line 1: expected ' N point match'"),
    (" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   62: 24/18 13/1x\n",
     "move 1, line 5: cannot read '13/1x'"),
    (" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/4\n", "game 1, move 1, line 5: O plays 31: 8/5 6/4"),
    (" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   62: 24/18 13/11\n  2) Takes\n",
     "game 1, move 2, line 6: O cannot take: no double is offered"),
    (" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 33: 8/5 6/5\n", "opening roll cannot be a double"),
    (" 3 point match\n\n Game 1\n nonsense\n", "expected the score line"),
    (" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   62: 24/18 13/11\n\n Game 2\n a : 5  b : 0\n"
     "  1) 31: 8/5 6/5\n", "the game before this one has no end"),
])
def test_bad_files_give_one_clear_error(text, message):
    with pytest.raises(MatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_mat(text)


def test_a_10_mb_line_and_binary_data_are_refused_quickly():
    with pytest.raises(MatError, match="a line of 10000000 characters"):
        read_mat(" 3 point match\n" + "x" * 10_000_000)
    with pytest.raises(MatError, match="binary file"):
        read_mat(bytes(range(256)) * 10)


def test_truncated_gnubg_file_is_refused_or_unfinished():
    original = (DATA / "gnubg_5pt.mat").read_bytes()
    for cut in range(30, len(original), 397):
        try:
            m = read_mat(original[:cut])
        except MatError as exc:
            assert "line" in str(exc) or "empty" in str(exc)
        else:
            assert m.game is None or not m.over or cut >= len(original) - 20


def test_check_mode_reports_every_problem_and_goes_on():
    original = (DATA / "gnubg_5pt.mat").read_text()
    broken = original.replace("  3) 53: 8/3 6/3 ", "  3) 53: 8/2 6/3 ").replace(" 15) 43: 25/21 8/5", " 15) 43: 25/20 8/5")
    problems: list[MatError] = []
    m = read_mat(broken, problems.append)
    assert len(m.games) == 6
    first = problems[0]
    assert (first.game, first.move, first.line) == (1, 3, 9)
    assert "O moved 9 pips, more than 5-3 allows (8)" in str(first)
    assert any(p.game == 2 and p.move == 15 for p in problems)


def test_parse_keeps_tokens_and_columns():
    f = parse_mat((DATA / "gnubg_5pt.mat").read_text())
    assert f.length == 5 and len(f.games) == 6 and f.headers["EventDate"] == "2026.11.22"
    first = f.games[0].entries[0]
    assert first.kind == "play" and first.column > 20 and first.dice == (2, 1)


def snowie_note(position, on_roll: int) -> str:
    """A Snowie text record (gnubg's ``export match snowietxt`` puts one in an ``Illegal play``
    note): length; Jacoby; 0; money; player on roll; names; Crawford; scores; cube; owner; then
    the board from the side on roll (its checkers positive), bar first and the opponent's bar last;
    the dice."""
    simple = position.with_turn(on_roll).to_simple()
    fields = [3, 0, 0, 0, on_roll, "p", "q", 0, 0, 0, 1, 0, *simple, 0, 0]
    return ";".join(str(f) for f in fields)


def test_illegal_play_note_sets_the_board_and_the_game_goes_on():
    from engine.movegen import apply_moves
    from engine.position import Position

    start = Position.start()
    after_x, _ = apply_moves(start.with_turn(X), [(24, 23), (13, 11)])
    after_o, _ = apply_moves(after_x.with_turn(O), [(8, 4)])  # 31 played as 8/4 8/4?: one 4-step, illegal
    note = snowie_note(after_o, X)
    text = (" 3 point match\n\n Game 1\n a : 0                          b : 0\n"
            "  1)                             21: 13/11 24/23\n"
            f"  2) 31: Illegal play ({note})\n"
            "                                 62: 24/18 13/11\n")
    m = read_mat(text)
    assert m.game.plays[-1].before == after_o.with_turn(X)
    assert any(type(e).__name__ == "SetBoard" for e in m.game.events)


def test_unknown_roll_in_the_middle_of_a_game_is_reported():
    text = (" 3 point match\n\n Game 1\n a : 0                          b : 0\n"
            "  1)                             21: 13/11 24/23\n"
            "  2) ????                        62: 24/18 13/11\n")
    with pytest.raises(MatError, match="game 1, move 2, line 6: an unknown roll"):
        read_mat(text)


def test_every_recorded_play_has_the_referees_verdict():
    match = read_mat((DATA / "gnubg_5pt.mat").read_bytes())
    verdicts = [(record, record.verdict()) for game in match.games for record in game.plays]
    assert len(verdicts) == 190
    for record, verdict in verdicts:
        assert verdict.legal and verdict.finished, (record.notation, verdict)
        assert verdict.notation == record.notation
