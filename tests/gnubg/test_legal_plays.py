"""Our legal plays against real gnubg's (0-ply hint of all moves), all 21 rolls.

The lead compares 10,000+ positions against gnubg-nn elsewhere; this is the check against the
real Debian binary.  Results are compared as sets of Position IDs after the play with the mover
still on roll (gnubg's key for its move generator's output).
"""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.gnubg import Gnubg
from engine.position import BAR, O, X, Position
from engine.sampling import ALL_ROLLS, game_positions, scatter


#: gnubg waits for its worker threads by polling every 10 ms, and on a busy machine it often
#: has to: a few clients side by side overlap those waits (see ``bench_gnubg.py``).
CLIENTS = 3


def sample(seed: int, games: int, scatters: int) -> list[Position]:
    rng = random.Random(seed)
    positions = list(game_positions(rng, games)) + [scatter(rng) for _ in range(scatters)]
    return [p for p in positions if not p.is_game_over()]


def our_result_ids(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.result.position_id() for play in position.legal_plays(dice)}


def disagreements(gnubg: Gnubg, positions: list[Position]) -> list[str]:
    found = []
    for position in positions:
        for dice in ALL_ROLLS:
            theirs = gnubg.legal_result_ids(position.position_id(), dice)
            ours = our_result_ids(position, dice)
            if theirs != ours:
                found.append(
                    f"{position.position_id()} turn={'X' if position.turn == X else 'O'} "
                    f"dice={dice[0]}{dice[1]} ({position.xgid(dice=dice)}): "
                    f"only ours {sorted(ours - theirs)[:4]}, only gnubg's {sorted(theirs - ours)[:4]}"
                )
    return found


def compare_in_parallel(binary: str, positions: list[Position]) -> list[str]:
    def run(chunk: list[Position]) -> list[str]:
        with Gnubg(binary) as client:
            return disagreements(client, chunk)

    with ThreadPoolExecutor(CLIENTS) as pool:
        parts = pool.map(run, [positions[i::CLIENTS] for i in range(CLIENTS)])
        return [line for part in parts for line in part]


def test_special_positions_against_gnubg(gnubg):
    """Hand-picked corners of the rules: entering, bear-off with both dice, blocked sixes."""
    positions = [
        Position.start(),
        Position.start(turn=O),
        Position.from_points(x={2: 1}, o={19: 3, 6: 5}),                       # last checker, 2 dice
        Position.from_points(x={BAR: 2, 13: 5}, o={1: 2, 2: 2, 3: 2, 4: 2}),   # two on the bar
        Position.from_points(x={BAR: 1, 6: 5}, o={p: 2 for p in range(2, 7)}), # enter on the 24 only
        Position.from_points(x={24: 2, 13: 13}, o={p: 2 for p in range(13, 19)}, turn=X),  # a prime
        Position.from_points(x={5: 1, 4: 2}, o={19: 2, 3: 4}),                 # higher die first
        Position.from_points(x={8: 1, 3: 2}, o={18: 2, 19: 2, 20: 2}, turn=X),  # blocked straggler
        # fifteen singles: 1-1 has 1,547 distinct plays (the hint list must not be cut short)
        Position.from_points(x={p: 1 for p in range(4, 19)}, o={24: 2, 23: 2}, turn=X),
    ]
    found = disagreements(gnubg, positions)
    assert not found, "our legal plays differ from gnubg's:\n" + "\n".join(found[:10])
    assert len(gnubg.legal_result_ids(positions[-1].position_id(), (1, 1))) == 1547


def test_random_positions_against_gnubg_quick(gnubg):
    found = disagreements(gnubg, sample(seed=41, games=8, scatters=8))
    assert not found, "our legal plays differ from gnubg's:\n" + "\n".join(found[:10])


@pytest.mark.slow
def test_random_positions_against_gnubg(gnubg_binary):
    """A few hundred positions from random games and scatters, all 21 rolls each."""
    positions = sample(seed=42, games=150, scatters=150)
    assert len(positions) >= 300
    assert any(p.bar(p.turn) for p in positions) and any(p.off(p.turn) for p in positions)
    found = compare_in_parallel(gnubg_binary, positions)
    assert not found, (
        f"{len(found)} of {len(positions) * 21} position-rolls differ from gnubg:\n"
        + "\n".join(found[:10])
    )


def test_keys_are_those_of_gnubgs_move_generator(gnubg):
    """The real binary's result IDs are the keys of gnubg's C move generator (gnubg-nn's
    ``moves``): the board after the play with the mover still on roll, nothing swapped."""
    import gnubg_nn

    for position in sample(seed=43, games=5, scatters=5):
        board = [list(side) for side in gnubg_nn.board_from_position_id(position.position_id())]
        for dice in ((6, 2), (3, 3), (5, 1)):
            keys = gnubg_nn.moves(board, *dice)
            generator = {
                gnubg_nn.position_id([list(side) for side in gnubg_nn.board_from_position_key(key)])
                for key in keys
            }
            assert gnubg.legal_result_ids(position.position_id(), dice) == generator, (position, dice)
