"""Our legal plays against gnubg's own move generator (PyPI gnubg-nn, a test-only dependency):
identical sets of resulting positions, on random game positions and random scatters, every roll."""
import random

import pytest

from engine import Position
from engine.movegen import apply_moves, generate
from engine.sampling import ALL_ROLLS, game_positions, scatter

gnubg_nn = pytest.importorskip("gnubg_nn")


def gnubg_results(position: Position, dice) -> set[str]:
    me, opp = position.board[position.turn], position.board[1 - position.turn]
    return set(gnubg_nn.moves([list(opp), list(me)], dice[0], dice[1]))


def our_results(position: Position, dice) -> set[str]:
    keys = set()
    for moves in generate(position, dice):
        result, _ = apply_moves(position, moves)
        keys.add(gnubg_nn.key_of_board([list(result.board[1 - position.turn]), list(result.board[position.turn])]))
    return keys


def compare(positions) -> tuple[int, list]:
    checked, wrong = 0, []
    for position in positions:
        for dice in ALL_ROLLS:
            checked += 1
            ours, theirs = our_results(position, dice), gnubg_results(position, dice)
            if ours != theirs:
                wrong.append((position.position_id(), position.turn, dice, len(ours), len(theirs)))
    return checked, wrong


@pytest.mark.slow
def test_ten_thousand_positions_every_roll():
    rng = random.Random(20261122)
    positions = list(game_positions(rng, 5000)) + [scatter(rng) for _ in range(5000)]
    assert len(set(positions)) > 9000
    checked, wrong = compare(positions)
    assert checked == 210_000
    assert not wrong, wrong[:10]


@pytest.mark.parametrize(
    "x, o",
    [
        ({2: 1}, {12: 2}),                      # last checker: 3-1 plays 2/1 1/off, both dice
        ({1: 1}, {12: 2}),
        ({6: 1, 1: 3}, {12: 2}),                # a larger number from the highest point
        ({5: 2, 4: 1, 1: 1}, {12: 2}),          # 1-1 bear-offs that trip other generators
        ({25: 2, 6: 3}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}),  # entering against a 5-point board
        ({25: 1, 13: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}),  # closed board: dance
        ({7: 1, 6: 3, 2: 2}, {12: 2, 17: 1}),   # last checker comes home, then bears off
        ({8: 1}, {1: 2, 3: 2}),                 # one checker, blocked landing spots
    ],
)
def test_edge_cases_match_gnubg(x, o):
    position = Position.from_points(x=x, o=o)
    mirrored = Position.from_points(x=o, o=x, turn=0)
    checked, wrong = compare([position, mirrored])
    assert not wrong, wrong
