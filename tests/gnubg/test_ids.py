"""Position ID, Match ID and XGID: ours against real gnubg's reading and writing of them."""
from __future__ import annotations

import random

import pytest

from engine.ids import MatchIdFields, XgidFields, decode_match_id, decode_xgid, encode_match_id, encode_xgid
from engine.position import O, X, Position, other
from engine.sampling import ALL_ROLLS, game_positions, scatter


def sample_positions(seed: int, games: int, scatters: int) -> list[Position]:
    """Positions from random games and scatters, each with both sides on roll."""
    rng = random.Random(seed)
    positions = list(game_positions(rng, games)) + [scatter(rng) for _ in range(scatters)]
    return [p for pos in positions for p in (pos, pos.pass_turn())]


def gnubg_layout(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(side not on roll, side on roll)``: gnubg's board for the side on roll."""
    return position.board[other(position.turn)], position.board[position.turn]


def test_position_ids_agree_with_gnubg(gnubg):
    positions = sample_positions(seed=11, games=150, scatters=150)
    assert any(p.bar(X) or p.bar(O) for p in positions), "sample needs checkers on the bar"
    assert any(p.off(X) or p.off(O) for p in positions), "sample needs borne-off checkers"
    assert {p.turn for p in positions} == {X, O}
    for position in positions:
        ours = position.position_id()
        assert gnubg.position_id_of(gnubg_layout(position)) == ours, position
        assert gnubg.board_of(ours) == gnubg_layout(position), ours
        assert Position.from_position_id(ours, turn=position.turn) == position


def test_position_ids_through_set_board(gnubg):
    """``set board <id>`` then gnubg's own ``positionid()``: the same ID and board back."""
    for position in sample_positions(seed=12, games=20, scatters=20):
        state = gnubg.read_ids(position.position_id())
        assert state.position_id == position.position_id()
        assert state.board == gnubg_layout(position)


def random_match_state(rng: random.Random) -> dict[str, object]:
    """Fields a real game can be in while a player is to roll or to move (no double pending)."""
    length = rng.choice((0, 0, 1, 3, 5, 7, 9, 11, 15, 25))
    if length:
        score = (rng.randrange(length), rng.randrange(length))
        at_match_point = [s == length - 1 for s in score]
        crawford = at_match_point.count(True) == 1 and rng.random() < 0.5
    else:
        score = (0, 0)
        crawford = False
    cube_value = 1 if crawford else rng.choice((1, 1, 2, 4, 8, 16, 64))
    owner = None if cube_value == 1 or rng.random() < 0.2 else rng.choice((O, X))
    dice = (0, 0) if rng.random() < 0.3 else tuple(sorted(rng.choice(ALL_ROLLS), reverse=True))
    return {
        "cube_value": cube_value, "cube_owner": owner, "dice": dice, "score": score,
        "match_length": length, "crawford": crawford,
        "jacoby": (not length) and rng.random() < 0.5,
        "beaver": (not length) and rng.random() < 0.5,
    }


def test_xgids_agree_with_gnubg(gnubg):
    """Our XGID of a position and match state, read by gnubg, gives gnubg's IDs for exactly that
    position and state; and gnubg's IDs, read by us, give back the same XGID."""
    rng = random.Random(21)
    positions = sample_positions(seed=22, games=60, scatters=60)
    seen = {"O on roll": 0, "owned cube": 0, "dice set": 0, "match score": 0, "crawford": 0}
    for position in positions:
        state_fields = random_match_state(rng)
        xgid = position.xgid(**state_fields)
        fields = decode_xgid(xgid)
        assert fields == XgidFields(board=position.board, turn=position.turn, **state_fields)
        assert Position.from_xgid(xgid) == position

        gnubg_state = gnubg.state_from_xgid(xgid)
        assert gnubg_state.player_on_roll == position.turn, xgid
        assert gnubg_state.position_id == position.position_id(), xgid
        assert gnubg_state.board == gnubg_layout(position), xgid
        assert gnubg_state.cube_value == fields.cube_value, xgid
        assert gnubg_state.cube_owner == fields.cube_owner, xgid
        assert gnubg_state.match_length == fields.match_length, xgid
        assert gnubg_state.score == fields.score, xgid
        assert gnubg_state.crawford == fields.crawford, xgid
        assert tuple(sorted(gnubg_state.dice)) == tuple(sorted(fields.dice)), xgid
        if not fields.match_length:
            assert gnubg_state.jacoby == fields.jacoby, xgid

        # gnubg's Match ID is ours for the same state (gnubg sets "no Jacoby" in match play).
        expected = MatchIdFields(
            cube_value=fields.cube_value, cube_owner=fields.cube_owner,
            player_on_roll=position.turn, crawford=fields.crawford, game_state=1,
            turn=position.turn, dice=fields.dice, match_length=fields.match_length,
            score=fields.score, jacoby=fields.jacoby if not fields.match_length else False,
        )
        assert gnubg_state.match_id == encode_match_id(expected), xgid

        # Back: gnubg's two IDs, read by us, write the same XGID.
        back = decode_match_id(gnubg_state.match_id)
        board = Position.from_position_id(gnubg_state.position_id, turn=back.player_on_roll)
        assert board.xgid(
            cube_value=back.cube_value, cube_owner=back.cube_owner, dice=back.dice,
            score=back.score, match_length=back.match_length, crawford=back.crawford,
            jacoby=back.jacoby and not back.match_length,
            beaver=fields.beaver,  # not in a Match ID
        ) == xgid

        seen["O on roll"] += position.turn == O
        seen["owned cube"] += fields.cube_owner is not None
        seen["dice set"] += fields.dice != (0, 0)
        seen["match score"] += any(fields.score)
        seen["crawford"] += fields.crawford
    assert all(seen.values()), seen


def test_xgid_dice_smaller_first(gnubg):
    """An XGID's "25" is read as the roll 5-2 and written larger die first."""
    assert decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10").dice == (2, 5)
    state = gnubg.state_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10")
    assert decode_match_id(state.match_id).dice == (5, 2)


def random_match_id_fields(rng: random.Random) -> MatchIdFields:
    state = random_match_state(rng)
    on_roll = rng.choice((O, X))
    return MatchIdFields(
        cube_value=state["cube_value"], cube_owner=state["cube_owner"],
        player_on_roll=on_roll, crawford=state["crawford"], game_state=1, turn=on_roll,
        double_offered=False, resignation=0, dice=state["dice"],
        match_length=state["match_length"], score=state["score"],
        jacoby=rng.random() < 0.5,
    )


def test_match_ids_agree_with_gnubg(gnubg):
    """gnubg reads our Match ID (``set gnubgid``), agrees on every field and writes the same ID."""
    rng = random.Random(31)
    positions = sample_positions(seed=32, games=40, scatters=40)
    for position in positions:
        fields = random_match_id_fields(rng)
        match_id = encode_match_id(fields)
        assert decode_match_id(match_id) == fields
        state = gnubg.read_ids(position.position_id(), match_id)
        assert state.match_id == match_id, fields
        assert state.position_id == position.position_id()
        assert state.player_on_roll == fields.player_on_roll
        assert state.turn == fields.turn
        assert state.cube_value == fields.cube_value
        assert state.cube_owner == fields.cube_owner
        assert state.match_length == fields.match_length
        assert state.score == fields.score
        assert state.crawford == fields.crawford
        assert state.dice == fields.dice
        if not fields.match_length:
            assert state.jacoby == fields.jacoby


def test_gnubg_rewrites_smaller_first_dice_larger_first(gnubg):
    fields = MatchIdFields(dice=(2, 5), match_length=7, score=(1, 3))
    state = gnubg.read_ids("4HPwATDgc/ABMA", encode_match_id(fields))
    assert decode_match_id(state.match_id) == MatchIdFields(dice=(5, 2), match_length=7, score=(1, 3))


@pytest.mark.parametrize("match_id", ["cBEAAAAAAAAA"])  # player 1 has doubled
def test_gnubg_refuses_a_pending_double(gnubg, match_id):
    from engine.gnubg import GnubgError

    assert decode_match_id(match_id).double_offered
    with pytest.raises(GnubgError, match="double has been offered"):
        gnubg.read_ids("4HPwATDgc/ABMA", match_id)
