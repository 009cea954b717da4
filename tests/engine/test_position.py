"""Position: constructors and writers round-trip; impossible positions are refused in plain words."""
import random

import pytest

from engine import O, X, Position, PositionError
from engine.ids import IdError, decode_match_id, decode_xgid, encode_match_id, MatchIdFields
from engine.sampling import game_positions, scatter


def sample(n=400, seed=5):
    rng = random.Random(seed)
    return list(game_positions(rng, n // 2)) + [scatter(rng) for _ in range(n // 2)]


def test_round_trips_through_every_format():
    for pos in sample():
        assert Position.from_position_id(pos.position_id(), turn=pos.turn) == pos
        assert Position.from_xgid(pos.xgid()) == pos
        assert Position.from_simple(pos.to_simple(), turn=pos.turn) == pos
        assert Position(pos.board, pos.turn) == pos
        assert hash(Position(pos.board, pos.turn)) == hash(pos)


def test_position_id_is_from_the_side_on_roll():
    start = Position.start()
    assert start.position_id() == start.with_turn(O).position_id() == "4HPwATDgc/ABMA"
    pos = Position.from_points(x={25: 1, 6: 5}, o={1: 3})
    assert pos.position_id() != pos.with_turn(O).position_id()
    assert Position.from_position_id(pos.with_turn(O).position_id(), turn=O) == pos.with_turn(O)


@pytest.mark.parametrize(
    "board, words",
    [
        ([[0] * 25, [0] * 24 + [16]], "16 checkers"),
        ([[0] * 25, [-1] + [0] * 24], "negative count"),
        ([[0] * 23 + [1, 0], [1] + [0] * 24], "both colours on one point"),
        ([[0] * 24, [0] * 25], "25 counts"),
        ([[0] * 25, [0.5] + [0] * 24], "whole numbers"),
        ([[0] * 25], "two sides"),
    ],
)
def test_impossible_positions_are_refused(board, words):
    with pytest.raises(PositionError) as info:
        Position(board)
    assert words in str(info.value)


def test_bad_texts_are_refused():
    for bad in ("", "4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////"):
        with pytest.raises(PositionError):
            Position.from_position_id(bad)
    for bad in ("XGID=", "XGID=-b----E-C---eE---c-e----B-:x", "XGID=-b----E-C---eE---c-e----B-:0:2:1:00",
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:77"):
        with pytest.raises(PositionError):
            Position.from_xgid(bad)
    with pytest.raises(PositionError):
        Position.from_simple([0] * 25)
    with pytest.raises(PositionError):
        Position.from_points(x={26: 1})


def test_pip_counts_and_game_end():
    start = Position.start()
    assert start.pip_count(X) == start.pip_count(O) == 167
    assert Position.from_points(x={25: 1}, o={1: 1}).pip_count(X) == 25
    assert Position.from_points(x={25: 1}, o={1: 1}).pip_count(O) == 1
    # X has borne everything off; O's leftovers decide single / gammon / backgammon.
    assert Position.from_points(x={}, o={6: 14}).win_kind() == 1
    assert Position.from_points(x={}, o={6: 15}).win_kind() == 2
    assert Position.from_points(x={}, o={20: 1, 6: 14}).win_kind() == 3
    assert Position.from_points(x={}, o={25: 1, 6: 14}).win_kind() == 3
    assert Position.from_points(x={}, o={6: 15}).winner() == X
    assert start.win_kind() == 0 and start.winner() is None


def test_xgid_fields_both_ways():
    fields = decode_xgid("XGID=-b----E-C---eE---c-e----B-:2:1:-1:D:4:1:1:7:10")
    assert (fields.cube_value, fields.cube_owner, fields.turn, fields.dice) == (4, X, O, None)
    assert (fields.score, fields.crawford, fields.match_length) == ((1, 4), True, 7)
    with pytest.raises(IdError):
        decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:0:00")


def test_match_id_round_trip():
    rng = random.Random(2)
    for _ in range(200):
        fields = MatchIdFields(
            cube_value=1 << rng.randint(0, 10), cube_owner=rng.choice((None, 0, 1)),
            player_on_roll=rng.randint(0, 1), crawford=rng.random() < 0.5, game_state=rng.randint(0, 4),
            turn=rng.randint(0, 1), double_offered=rng.random() < 0.5, resignation=rng.randint(0, 3),
            dice=(rng.randint(0, 6), rng.randint(0, 6)), match_length=rng.randint(0, 25),
            score=(rng.randint(0, 24), rng.randint(0, 24)), jacoby=rng.random() < 0.5,
        )
        assert decode_match_id(encode_match_id(fields)) == fields
