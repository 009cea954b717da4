"""bgbridge's rules engine: positions, legal plays, notation, the referee, cube and match.

Pure Python and no I/O (but for :mod:`engine.gnubg`, the client for a real gnubg); imports
nothing else of bgbridge.  Everything else in bgbridge speaks these types.

>>> from engine import Position, judge, parse_play
>>> start = Position.start()
>>> play = parse_play(start, (6, 2), "24/18 13/11")
>>> play.result.position_id(), judge(start, play.result, (6, 2)).legal
('4HPwATDgc+RBIA', True)
>>> len(start.legal_plays((6, 2)))
14
"""
from engine.judge import Verdict, judge  # noqa: F401
from engine.match import Game, GameError, GameResult, Match  # noqa: F401
from engine.movegen import DiceError, LegalPlays, Play, check_dice  # noqa: F401
from engine.notation import NotationError, format_play, parse_dice, parse_play  # noqa: F401
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
