"""Game flow, cube, scoring and match rules of engine.match."""
from __future__ import annotations

import json
import random

import pytest

from engine.match import (
    AcceptResign,
    Double,
    Drop,
    Game,
    GameError,
    Match,
    Move,
    OpeningRoll,
    RejectResign,
    Resign,
    Roll,
    SetBoard,
    Take,
    TakeBack,
    event_from_dict,
)
from engine import ids
from engine.position import O, X, Position


def opened(x: int = 3, o: int = 1, **kwargs) -> Game:
    return Game(**kwargs).apply(OpeningRoll(x=x, o=o))


def test_opening_roll_higher_die_starts_with_both_dice_and_ties_reroll():
    game = Game()
    game.apply(OpeningRoll(x=4, o=4)).apply(OpeningRoll(x=2, o=2))
    assert game.phase == "opening" and game.opening_ties == 2
    game.apply(OpeningRoll(x=2, o=5))
    assert game.turn == O and game.dice == (5, 2) and game.phase == "move"
    with pytest.raises(GameError, match="opening roll was made already"):
        game.apply(OpeningRoll(x=6, o=1))


def test_turns_alternate_and_out_of_turn_events_are_refused_in_plain_words():
    game = opened(3, 1)
    with pytest.raises(GameError, match="O cannot play: it is X's turn"):
        game.apply(Move(O, "8/5 6/5"))
    with pytest.raises(GameError, match="X rolled already: it must play the 31"):
        game.apply(Roll(X, (6, 6)))
    game.apply(Move(X, "8/5 6/5"))
    with pytest.raises(GameError, match="O must roll: it is not X's turn"):
        game.apply(Roll(X, (6, 2)))
    with pytest.raises(GameError, match="a play was made before the dice were rolled"):
        game.apply(Move(O, "24/18 13/11"))
    game.apply(Roll(O, (6, 2))).apply(Move(O, "24/18 13/11"))
    assert game.turn == X and game.phase == "roll"
    assert [str(e) for e in game.events][-2:] == ["O rolls 62", "O plays 24/18 13/11"]


def test_refused_event_changes_nothing():
    game = opened(3, 1)
    before = (game.position, game.phase, game.turn, len(game.events))
    with pytest.raises(GameError):
        game.apply(Move(X, "13/8"))  # 5 pips: not what 3-1 gives
    assert (game.position, game.phase, game.turn, len(game.events)) == before


def test_illegal_play_is_refused_with_the_engines_reason():
    game = opened(6, 2)
    with pytest.raises(GameError, match="X's play 24/18 13/12 with 62"):
        game.apply(Move(X, "24/18 13/12"))


def test_a_dance_is_an_empty_play_and_only_when_nothing_moves():
    # X has a checker on the bar facing a closed board.
    closed = Position.from_points(x={25: 1, 6: 14}, o={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}, turn=X)
    game = Game(start=closed).apply(OpeningRoll(x=6, o=5))
    with pytest.raises(GameError, match="cannot move with 65"):
        game.apply(Move(X, "bar/19"))
    game.apply(Move(X, ""))
    assert game.turn == O and game.position.checkers(X, 25) == 1
    game2 = opened(6, 5)
    with pytest.raises(GameError, match="X can move with 65: a play must be made"):
        game2.apply(Move(X, ""))


def test_doubling_rules():
    game = opened(3, 1)
    game.apply(Move(X, "8/5 6/5"))
    with pytest.raises(GameError, match="X cannot double: it is O's turn"):
        game.apply(Double(X))
    game.apply(Double(O))
    assert game.turn == X and game.phase == "doubled"
    with pytest.raises(GameError, match="O cannot take its own double"):
        game.apply(Take(O))
    with pytest.raises(GameError, match="X must take or drop"):
        game.apply(Roll(X, (1, 2)))
    game.apply(Take(X))
    assert (game.cube_value, game.cube_owner, game.turn, game.phase) == (2, X, O, "roll")
    game.apply(Roll(O, (6, 2)))
    with pytest.raises(GameError, match="cannot double after rolling"):
        game.apply(Double(O))
    game.apply(Move(O, "24/18 13/11"))
    game.apply(Double(X)).apply(Take(O))
    assert (game.cube_value, game.cube_owner) == (4, O)
    game.apply(Roll(X, (2, 1))).apply(Move(X, "13/11 6/5"))
    game.apply(Roll(O, (1, 1))).apply(Move(O, "6/5(2) 8/7(2)"))
    with pytest.raises(GameError, match="X cannot double: O owns the cube"):
        game.apply(Double(X))


def test_drop_gives_the_doubler_the_stake_before_the_double():
    game = opened(3, 1).apply(Move(X, "8/5 6/5"))
    game.apply(Double(O)).apply(Take(X))
    game.apply(Roll(O, (2, 1))).apply(Move(O, "13/11 6/5"))
    game.apply(Double(X)).apply(Drop(O))
    assert game.over and game.result.winner == X and game.result.points == 2


def test_cube_has_no_limit_at_64():
    game = opened(3, 1).apply(Move(X, "8/5 6/5"))
    for _ in range(7):  # 2, 4, ... 128: each time the side on roll owns the cube (or it is centred)
        doubler = game.turn
        game.apply(Double(doubler)).apply(Take(1 - doubler))
        game.apply(Roll(doubler, (2, 1)))
        plays = list(game.legal_plays())
        game.apply(Move(doubler, str(plays[0]) if plays else ""))
    assert game.cube_value == 128 and not game.over


def test_doubling_allowed_even_when_the_doubler_cannot_move():
    closed = Position.from_points(x={25: 1, 6: 14}, o={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}, turn=O)
    game = Game(start=closed).apply(OpeningRoll(x=1, o=2))
    game.apply(Move(O, "24/22 22/21"))
    game.apply(Double(X)).apply(Take(O))
    assert game.cube_owner == O


def test_scoring_single_gammon_backgammon_times_cube():
    # X bears off its last checker; O has nothing off and a checker in X's home: backgammon.
    pos = Position.from_points(x={1: 1}, o={20: 1, 13: 14}, turn=X)
    game = Game(start=pos).apply(OpeningRoll(x=2, o=1))
    game.apply(Move(X, "1/off"))
    assert game.result.kind == 3 and game.result.points == 3
    pos = Position.from_points(x={1: 1}, o={13: 15}, turn=X)
    game = Game(start=pos).apply(OpeningRoll(x=2, o=1)).apply(Move(X, "1/off"))
    assert game.result.kind == 2 and game.result.points == 2
    pos = Position.from_points(x={1: 1}, o={13: 14}, turn=X)
    game = Game(start=pos).apply(OpeningRoll(x=2, o=1)).apply(Move(X, "1/off"))
    assert game.result.kind == 1 and game.result.points == 1


def test_jacoby_counts_gammons_single_with_a_centred_cube_in_money_only():
    pos = Position.from_points(x={1: 1, 2: 1}, o={13: 15}, turn=X)
    m = Match(0, jacoby=True)
    m.apply(SetBoard(X, pos.position_id()))
    m.apply(OpeningRoll(x=2, o=1))
    m.apply(Move(X, "2/off 1/off"))
    assert m.game.result.kind == 2 and m.game.result.points == 1 and m.score[X] == 1
    with pytest.raises(GameError, match="Jacoby rule is for money play"):
        Match(5, jacoby=True)


def test_resignations_accepted_and_rejected():
    game = opened(3, 1).apply(Move(X, "8/5 6/5"))
    game.apply(Resign(O, 2))
    with pytest.raises(GameError, match="X must accept or reject the resignation"):
        game.apply(Double(X))
    with pytest.raises(GameError, match="O cannot accept its own resignation"):
        game.apply(AcceptResign(O))
    game.apply(RejectResign(X))
    assert game.phase == "roll" and game.turn == O
    game.apply(Double(O)).apply(Take(X))
    game.apply(Resign(O, 3)).apply(AcceptResign(X))
    assert game.result.winner == X and game.result.points == 6 and game.result.reason == "resign"


def crawford_match(length: int = 3) -> Match:
    return Match(length)


def play_out_by_resign(m: Match, winner: int, points: int) -> None:
    m.apply(OpeningRoll(x=3, o=1) if winner == O else OpeningRoll(x=1, o=3))
    loser = 1 - winner
    # The starter is the loser (it rolled the higher die), it resigns before playing.
    m.apply(Resign(loser, points))
    m.apply(AcceptResign(winner))


def test_crawford_game_has_no_doubling_and_post_crawford_does():
    m = Match(3)
    play_out_by_resign(m, X, 2)  # X 2, O 0: X is 1-away -> next game is Crawford
    assert m.next_game_is_crawford()
    m.apply(OpeningRoll(x=3, o=1))
    assert m.game.crawford
    m.apply(Move(X, "8/5 6/5"))
    with pytest.raises(GameError, match="no doubling in the Crawford game"):
        m.apply(Double(O))
    m.apply(Resign(O, 1))
    m.apply(RejectResign(X))
    m.apply(Resign(X, 1))
    with pytest.raises(GameError):
        m.apply(Resign(X, 1))
    m.apply(AcceptResign(O))
    assert m.score == {X: 2, O: 1}
    # Post-Crawford: doubling allowed again, and no second Crawford game.
    assert not m.next_game_is_crawford()
    m.apply(OpeningRoll(x=1, o=3))
    m.apply(Move(O, "8/5 6/5"))
    m.apply(Double(X))
    assert not m.game.crawford and m.game.phase == "doubled"
    m.apply(Drop(O))
    assert m.over and m.winner() == X
    with pytest.raises(GameError, match="the match is over: X won 3-1"):
        m.apply(OpeningRoll(x=3, o=1))


def test_crawford_rule_off():
    m = Match(3, crawford=False)
    play_out_by_resign(m, X, 2)
    assert not m.next_game_is_crawford()


def test_events_round_trip_through_plain_dicts_and_json():
    events = [OpeningRoll(x=3, o=1), Move(X, "8/5 6/5"), Roll(O, (6, 2)), Double(X), Take(O),
              Drop(X), Resign(O, 3), AcceptResign(X), RejectResign(O),
              SetBoard(O, "4HPwATDgc/ABMA"), TakeBack("dice misread")]
    for event in events:
        data = json.loads(json.dumps(event.to_dict()))
        assert event_from_dict(data) == event
    for bad in ({"type": "roll", "player": "X", "dice": [7, 1]}, {"type": "roll", "player": "Z", "dice": [1, 1]},
                {"type": "move", "player": "X"}, {"type": "resign", "player": "X", "points": 4}, [], {"type": 3}):
        with pytest.raises(GameError):
            event_from_dict(bad)


def test_take_back_undoes_the_last_event():
    m = Match(5)
    m.apply(OpeningRoll(x=3, o=1))
    m.apply(Move(X, "8/5 6/5"))
    m.apply(Roll(O, (6, 2)))
    m.apply(TakeBack("the dice were misread"))
    assert m.game.phase == "roll" and m.game.turn == O
    m.apply(Roll(O, (5, 2)))
    assert m.game.dice == (5, 2)


def test_ids_of_moments_agree_with_engine_ids():
    m = Match(7, players={X: "x", O: "o"})
    assert ids.decode_match_id(m.match_id()).game_state == 0
    m.apply(OpeningRoll(x=5, o=2))
    fields = ids.decode_match_id(m.match_id())
    assert (fields.dice, fields.player_on_roll, fields.match_length, fields.game_state) == ((5, 2), X, 7, 1)
    assert m.position_id() == Position.start().position_id()
    m.apply(Move(X, "13/8 13/11"))
    m.apply(Double(O))
    fields = ids.decode_match_id(m.match_id())
    assert fields.double_offered and fields.turn == X and fields.player_on_roll == O
    assert ":D:" in m.xgid()
    xg = ids.decode_xgid(m.xgid())
    assert xg.turn == O and xg.dice is None and xg.match_length == 7
    assert Position(xg.board, xg.turn) == m.position()


def test_verdicts_of_recorded_plays():
    m = Match(1)
    m.apply(OpeningRoll(x=6, o=2))
    m.apply(Move(X, "24/18 13/11"))
    verdict = m.game.plays[0].verdict()
    assert verdict.legal


def test_random_games_to_the_end_with_cube_and_every_event_round_trips():
    rng = random.Random(5)
    for _ in range(20):
        m = Match(rng.choice([0, 1, 3, 5]))
        log = []
        steps = 0
        while not m.over and len(m.games) < 4 and steps < 3000:
            steps += 1
            game = m.game
            if game is None or game.over or game.phase == "opening":
                event = OpeningRoll(x=rng.randint(1, 6), o=rng.randint(1, 6))
            elif game.phase == "roll":
                if game.may_double(game.turn) and rng.random() < 0.05:
                    event = Double(game.turn)
                else:
                    event = Roll(game.turn, (rng.randint(1, 6), rng.randint(1, 6)))
            elif game.phase == "doubled":
                event = Take(game.turn) if rng.random() < 0.7 else Drop(game.turn)
            else:
                plays = list(game.legal_plays())
                event = Move(game.turn, str(rng.choice(plays)) if plays else "")
            m.apply(event)
            log.append(event.to_dict())
        again = Match.from_settings(m.settings(), log)
        assert again.score == m.score and again.match_id() == m.match_id()
        assert again.position_id() == m.position_id()
