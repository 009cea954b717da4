"""Notation: every legal play written and read back, in both numberings; errors say where."""
import random

import pytest

from engine import O, X, Position
from engine.notation import NotationError, format_play, parse_dice, parse_play
from engine.sampling import ALL_ROLLS, game_positions, scatter


def _sample(n: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    return list(game_positions(rng, n // 2)) + [scatter(rng) for _ in range(n // 2)]


@pytest.mark.parametrize("absolute, off", [(False, "off"), (True, "O")])
def test_every_legal_play_round_trips(absolute, off):
    checked = 0
    for position in _sample(30, seed=11):
        for dice in ALL_ROLLS:
            for play in position.legal_plays(dice):
                text = format_play(play, absolute=absolute, off=off)
                back = parse_play(position, dice, text, absolute=absolute)
                assert back.result == play.result, (position, dice, text)
                checked += 1
    assert checked > 5_000


def test_rule_book_examples():
    start = Position.start()
    assert str(parse_play(start, (6, 2), "24/18 13/11")) == "24/18 13/11"
    assert str(parse_play(start, (6, 2), "24/18 18/16")) == "24/16"
    assert str(parse_play(start, (6, 2), "6-2 24/16")) == "24/16"
    assert str(parse_play(start, (3, 3), "24/18 13/10 (2)")) == "24/18 13/10(2)"
    assert str(parse_play(start, (3, 3), "24/18(2)")) == "24/18(2)"
    # FFBG diagram 5: 3-1 13/10 10/9* (or 13/9*)
    pos = Position.from_points(x={13: 5, 8: 3, 6: 5, 24: 2}, o={16: 1, 24: 1, 13: 5, 8: 3, 6: 5})
    assert str(parse_play(pos, (3, 1), "13/10 10/9*")) == "13/9*"
    assert str(parse_play(pos, (3, 1), "13/9*")) == "13/9*"
    # bar entry and bearing off
    pos = Position.from_points(x={25: 1, 6: 14}, o={24: 15})
    assert str(parse_play(pos, (4, 3), "bar/21 6/3")) == "bar/21 6/3"
    assert str(parse_play(pos, (4, 3), "25/21 6/3")) == "bar/21 6/3"
    pos = Position.from_points(x={5: 4}, o={24: 15})
    assert str(parse_play(pos, (5, 5), "5/O(4)")) == "5/off(4)"
    assert str(parse_play(pos, (5, 5), "5/off (4)")) == "5/off(4)"


def test_intermediate_hit_is_written():
    pos = Position.from_points(x={13: 1, 6: 14}, o={14: 1, 24: 14})
    play = parse_play(pos, (2, 2), "13/11*/9 6/4 6/4")
    assert play.notation() == "13/11*/9 6/4(2)"


def test_absolute_numbering_for_o():
    pos = Position.start(turn=O)
    play = parse_play(pos, (6, 2), "24/18 13/11")
    assert play.notation(absolute=True) == "1/7 12/14"
    assert parse_play(pos, (6, 2), "1/7 12/14", absolute=True) == play


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("24/18 13/12", "column 7"),
        ("24/18 26/20", "no point 26"),
        ("24/18 x/20", "column 7"),
        ("18/24", "backwards"),
        ("off/3", "cannot start from off"),
        ("24/18 13/11*", "nothing is hit on 11"),
        ("24/16 13/11", "not a legal play"),
        ("5-3 24/18 13/11", "the text says 5-3"),
        ("24/18 13", "not a move"),
    ],
)
def test_bad_notation_says_what_and_where(text, fragment):
    with pytest.raises(NotationError) as info:
        parse_play(Position.start(), (6, 2), text)
    assert fragment in str(info.value)


def test_parse_dice_forms():
    assert parse_dice("62") == parse_dice("6-2") == parse_dice("6 2") == (6, 2)
    for bad in ("", "0-2", "6", "6-2-1", "ab"):
        with pytest.raises(NotationError):
            parse_dice(bad)
