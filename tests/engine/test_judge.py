"""The referee names the rule each illegal move breaks, and accepts every legal play and its parts."""
import random

import pytest

from engine import O, X, Position
from engine.judge import judge
from engine.movegen import apply_moves
from engine.sampling import game_positions, roll, scatter

fp = Position.from_points
START_O = {24: 2, 13: 5, 8: 3, 6: 5}


def test_legal_play_gives_notation():
    start = Position.start()
    after = fp(x={24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}, o=START_O)
    verdict = judge(start, after, (6, 2))
    assert (verdict.legal, verdict.finished, verdict.notation) == (True, True, "24/18 13/11")
    assert verdict.to_dict() == {"legal": True, "finished": True, "notation": "24/18 13/11", "reason": "legal"}


def test_after_may_mark_either_side_to_move():
    start = Position.start()
    after = fp(x={24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}, o=START_O, turn=O)
    assert judge(start, after, (6, 2)).legal


def test_unfinished_move():
    start = Position.start()
    verdict = judge(start, fp(x={24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, o=START_O), (6, 2))
    assert (verdict.legal, verdict.finished, verdict.notation) == (True, False, "24/18")
    assert "2 still to play" in verdict.reason
    assert judge(start, start, (6, 2)).reason == "unfinished: nothing moved yet"


@pytest.mark.parametrize(
    "before, after, dice, words",
    [
        # a checker was left on the bar
        (fp(x={25: 1, 13: 5, 8: 3, 6: 6}, o=START_O), fp(x={25: 1, 13: 4, 7: 1, 8: 3, 6: 6}, o=START_O), (6, 1),
         "left on the bar"),
        # both dice could have been played: 24/18 only, when 24/18 13/12... (6-1)
        (Position.start(), fp(x={24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, o=START_O), (6, 1), None),
        # point 18 and 22 blocked: 24/16 with 6-2 impossible
        (fp(x={24: 1, 6: 14}, o={7: 2, 3: 2, 2: 11}), fp(x={16: 1, 6: 14}, o={7: 2, 3: 2, 2: 11}), (6, 2),
         "point 18 is blocked"),
        # bearing off with a checker outside
        (fp(x={7: 1, 6: 14}, o={24: 15}), fp(x={7: 1, 6: 13}, o={24: 15}), (6, 1), "outside the home board"),
        # larger number from a lower point while a higher one is occupied
        (fp(x={6: 1, 3: 14}, o={24: 15}), fp(x={6: 1, 3: 13}, o={24: 15}), (5, 4), "highest point"),
        # the wrong side moved
        (Position.start(), fp(x=START_O, o={24: 1, 18: 1, 13: 5, 8: 3, 6: 5}), (6, 1), "wrong side moved"),
        # backwards
        (Position.start(), fp(x={24: 2, 14: 1, 13: 4, 8: 3, 6: 5}, o=START_O), (6, 1), "backwards"),
        # a checker vanished
        (Position.start(), fp(x={24: 2, 13: 4, 8: 3, 6: 5}, o=START_O), (6, 1), "vanished"),
        # an opposing checker vanished
        (Position.start(), fp(x=START_O, o={24: 2, 13: 5, 8: 3, 6: 4}), (6, 1), "vanished"),
        # too many pips
        (Position.start(), fp(x={24: 2, 13: 4, 3: 1, 8: 3, 6: 5}, o=START_O), (6, 1), "more than 6-1"),
        # wrong roll
        (Position.start(), fp(x={24: 1, 21: 1, 13: 5, 8: 3, 6: 5}, o=START_O), (6, 2), "does not match the roll"),
    ],
)
def test_illegal_moves_name_the_rule(before, after, dice, words):
    verdict = judge(before, after, dice)
    if words is None:  # a part of a legal play is unfinished, not illegal
        assert verdict.legal and not verdict.finished
        return
    assert not verdict.legal and not verdict.finished
    assert words in verdict.reason, verdict.reason


def test_both_dice_could_have_been_played():
    # O holds X's 23, 17 and 3.  With 6-1, 24/18 10/9 plays both dice; 10/4 first leaves no 1.
    o = {2: 2, 8: 2, 22: 2, 6: 9}
    before = fp(x={24: 1, 10: 1}, o=o)
    assert {str(p) for p in before.legal_plays((6, 1))} == {"24/18 10/9"}
    verdict = judge(before, fp(x={24: 1, 4: 1}, o=o), (6, 1))
    assert not verdict.legal
    assert verdict.reason == "both dice could have been played (for example 24/18 10/9)"


def test_larger_die_must_be_played():
    # X's last checker on 24, O holds X's 13: 6 or 5 alone, never both; the 6 it must be.
    o = {12: 2, 5: 13}
    before = fp(x={24: 1}, o=o)
    assert {str(p) for p in before.legal_plays((6, 5))} == {"24/18"}
    verdict = judge(before, fp(x={19: 1}, o=o), (6, 5))
    assert not verdict.legal
    assert verdict.reason.startswith("the larger die must be played")


def test_dance():
    before = fp(x={25: 1, 6: 14}, o={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert judge(before, before, (6, 5)).legal
    moved = fp(x={25: 1, 6: 13, 5: 1}, o={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    verdict = judge(before, moved, (6, 5))
    assert not verdict.legal and "cannot move" in verdict.reason


def test_every_legal_play_and_its_prefixes_on_random_positions():
    rng = random.Random(3)
    positions = list(game_positions(rng, 25)) + [scatter(rng) for _ in range(25)]
    for before in positions:
        dice = roll(rng)
        for play in before.legal_plays(dice):
            verdict = judge(before, play.result, dice)
            assert verdict.legal and verdict.finished, (before, dice, play)
            results = before.legal_plays(dice).by_result()
            if len(play.moves) > 1:
                half, _ = apply_moves(before, play.moves[:1])
                if half in results:  # a part of one play can be the whole of another
                    continue
                v = judge(before, half, dice)
                assert v.legal and not v.finished, (before, dice, play, v)
