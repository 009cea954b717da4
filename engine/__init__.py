"""bgbridge's rules engine: positions, legal plays, notation, the referee, cube and match.

Pure Python, no I/O, imports nothing else of bgbridge.

>>> from engine import Position, X
>>> pos = Position.start()
>>> pos.turn == X
True
"""
from engine.position import (  # noqa: F401
    BAR,
    CHECKERS_PER_SIDE,
    NUM_POINTS,
    O,
    OFF,
    PLAYERS,
    X,
    Position,
    PositionError,
    absolute_point,
    other,
    parse_player,
    player_name,
)
