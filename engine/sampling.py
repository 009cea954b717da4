"""Random positions for tests, benchmarks and the renderer: from random games and random scatters.

Deterministic for a given ``random.Random``.

>>> import random
>>> rng = random.Random(1)
>>> positions = list(game_positions(rng, 50))
>>> len(positions), all(isinstance(p, Position) for p in positions)
(50, True)
>>> scatter(random.Random(2)).off(X) <= 15
True
"""
from __future__ import annotations

import random
from typing import Iterator

from engine.movegen import generate
from engine.position import O, X, Position

ALL_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls, larger die last: (1, 1), (1, 2), ... (6, 6)."""


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def game_positions(rng: random.Random, count: int) -> Iterator[Position]:
    """Positions met in games of random legal plays, started afresh when a game ends."""
    produced = 0
    while produced < count:
        position = Position.start(turn=rng.choice((O, X)))
        while not position.is_game_over() and produced < count:
            yield position
            produced += 1
            plays = generate(position, roll(rng))
            if plays:
                from engine.movegen import apply_moves

                position, _ = apply_moves(position, rng.choice(plays))
            position = position.pass_turn()


def scatter(rng: random.Random) -> Position:
    """A random legal-looking position: each side's 15 checkers spread over its points, bar and
    tray, never both colours on one point.  Skewed towards bar, home-board and bear-off
    situations, where move generators go wrong."""
    kind = rng.random()
    occupied_by_x: set[int] = set()  # absolute (X) numbering
    board: list[list[int]] = [[0] * 25, [0] * 25]
    for player in (X, O):
        side = board[player]
        left = 15
        if kind < 0.35:  # bear-off: everything home or off
            points = list(range(1, 7))
            left = rng.randint(1, 15)
        elif kind < 0.5:  # one or two stragglers outside
            points = list(range(1, 7)) + rng.sample(range(7, 25), 2)
        else:
            points = list(range(1, 25))
            left = rng.randint(8, 15)
        if rng.random() < 0.3:
            bar = rng.randint(1, min(3, left))
            side[24] = bar
            left -= bar
        for _ in range(left):
            candidates = [
                p for p in points
                if (p if player == X else 25 - p) not in occupied_by_x or player == X
            ]
            if player == O:
                candidates = [p for p in candidates if (25 - p) not in occupied_by_x]
            if not candidates:
                break
            p = rng.choice(candidates)
            side[p - 1] += 1
        if player == X:
            occupied_by_x = {p for p in range(1, 25) if side[p - 1]}
    return Position(board, rng.choice((O, X)))
