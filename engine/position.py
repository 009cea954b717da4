"""The backgammon position: both sides' checkers and the side to move.

The board facts live here and nowhere else: 24 points, 15 checkers a side, the bar and the
borne-off tray, the home board (points 1-6 of each side's own numbering).

Each side counts its points in its own direction of travel: it moves from its 24-point towards
its 1-point and bears off from points 1-6.  A side's point ``p`` is the other side's ``25 - p``.
The *absolute* numbering of the web game's rules (``../shared/rules/003``) is player ``X``'s own
numbering; player ``O``'s point ``p`` is absolute point ``25 - p``.

Players are ``X`` (gnubg's player 1, upper case in an XGID) and ``O`` (gnubg's player 0).

>>> pos = Position.start()
>>> pos.turn == X, pos.position_id(), pos.pip_count(X), pos.pip_count(O)
(True, '4HPwATDgc/ABMA', 167, 167)
>>> pos.checkers(X, 13), pos.checkers(O, 13), pos.off(X)
(5, 5, 0)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from engine import ids

if TYPE_CHECKING:  # pragma: no cover
    from engine.movegen import LegalPlays

O = 0
X = 1
PLAYERS = (O, X)
PLAYER_NAMES = ("O", "X")

NUM_POINTS = 24
CHECKERS_PER_SIDE = 15
#: In a side's own numbering the bar is point 25 and borne off is point 0 (``bar/21``, ``5/0``).
BAR = 25
OFF = 0
HOME_POINTS = range(1, 7)

#: Counts of a side at the start, own numbering: two on the 24, five on the 13, three on the 8,
#: five on the 6.
START_POINTS = {24: 2, 13: 5, 8: 3, 6: 5}


class PositionError(ValueError):
    """A position that cannot exist, or a position text that cannot be read."""


def other(player: int) -> int:
    """The other player: ``other(X) == O``."""
    return 1 - player


def player_name(player: int) -> str:
    return PLAYER_NAMES[player]


def parse_player(text: str | int) -> int:
    """``"X"``/``"x"``/``1`` give ``X``; ``"O"``/``"o"``/``0`` give ``O``."""
    if text in (0, 1):
        return int(text)
    t = str(text).strip().upper()
    if t in ("X", "1"):
        return X
    if t in ("O", "0"):
        return O
    raise PositionError(f"a player is X or O, got {text!r}")


def absolute_point(player: int, point: int) -> int:
    """A point of ``player``'s own numbering in the absolute (``X``) numbering.

    >>> absolute_point(X, 6), absolute_point(O, 6)
    (6, 19)
    """
    if point in (BAR, OFF):
        return point
    return point if player == X else 25 - point


class Position:
    """An immutable backgammon position.

    ``board[player]`` holds 25 counts in that player's own numbering: index ``i`` (0..23) is its
    point ``i + 1``, index 24 its bar.  Checkers not on the board or the bar are borne off
    (``15 - sum``), as in gnubg.  ``turn`` is the side to move.

    >>> Position([[0] * 25, [0] * 24 + [16]])
    Traceback (most recent call last):
    ...
    engine.position.PositionError: X has 16 checkers; a side has at most 15
    """

    __slots__ = ("_board", "turn", "_hash")

    def __init__(self, board: Sequence[Sequence[int]], turn: int = X) -> None:
        if turn not in (O, X):
            raise PositionError(f"turn must be X or O (1 or 0), got {turn!r}")
        if len(board) != 2:
            raise PositionError("a board has two sides")
        sides = []
        for player in PLAYERS:
            side = tuple(board[player])
            if len(side) != 25:
                raise PositionError(
                    f"{PLAYER_NAMES[player]}'s side needs 25 counts (points 1-24 and the bar), "
                    f"got {len(side)}"
                )
            for i, count in enumerate(side):
                if not isinstance(count, int) or isinstance(count, bool):
                    raise PositionError(f"checker counts are whole numbers, got {count!r}")
                if count < 0:
                    where = "the bar" if i == 24 else f"point {i + 1}"
                    raise PositionError(
                        f"{PLAYER_NAMES[player]} has a negative count ({count}) on {where}"
                    )
            total = sum(side)
            if total > CHECKERS_PER_SIDE:
                raise PositionError(
                    f"{PLAYER_NAMES[player]} has {total} checkers; a side has at most 15"
                )
            sides.append(side)
        for point in range(1, 25):
            if sides[X][point - 1] and sides[O][24 - point]:
                raise PositionError(
                    f"both colours on one point: X's point {point} (O's point {25 - point}) holds "
                    f"{sides[X][point - 1]} X and {sides[O][24 - point]} O"
                )
        self._board: tuple[tuple[int, ...], tuple[int, ...]] = (sides[0], sides[1])
        self.turn = turn
        self._hash: int | None = None

    @classmethod
    def _trusted(cls, board: tuple[tuple[int, ...], tuple[int, ...]], turn: int) -> "Position":
        """Build without validation, for positions the engine derived from valid ones."""
        pos = object.__new__(cls)
        pos._board = board
        pos.turn = turn
        pos._hash = None  # computed when first asked: most derived positions are never hashed
        return pos

    # --- constructors ------------------------------------------------------------------

    @classmethod
    def start(cls, turn: int = X) -> "Position":
        """The starting position."""
        side = [0] * 25
        for point, count in START_POINTS.items():
            side[point - 1] = count
        return cls._trusted((tuple(side), tuple(side)), turn)

    @classmethod
    def from_points(
        cls,
        x: dict[int, int] | None = None,
        o: dict[int, int] | None = None,
        turn: int = X,
    ) -> "Position":
        """Build from ``{point: count}`` per side in that side's own numbering (25 = bar).

        Checkers not placed are borne off.

        >>> Position.from_points(x={6: 2, 25: 1}, o={24: 1}).to_simple()
        (1, -1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        """
        sides = []
        for player, counts in ((O, o or {}), (X, x or {})):
            side = [0] * 25
            for point, count in counts.items():
                if not isinstance(point, int) or not 1 <= point <= 25:
                    raise PositionError(
                        f"{PLAYER_NAMES[player]}: points are 1-24, or 25 for the bar; got {point!r}"
                    )
                side[point - 1] = count
            sides.append(side)
        return cls(sides, turn)

    @classmethod
    def from_position_id(cls, position_id: str, turn: int = X) -> "Position":
        """Decode a gnubg Position ID; ``turn`` names the side on roll (the ID does not).

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.start()
        True
        """
        try:
            not_on_roll, on_roll = ids.decode_position_id(position_id)
        except ids.IdError as exc:
            raise PositionError(str(exc)) from None
        board = (not_on_roll, on_roll) if turn == X else (on_roll, not_on_roll)
        return cls(board, turn)

    @classmethod
    def from_xgid(cls, xgid: str) -> "Position":
        """The board and side to move of an XGID (cube, score and dice are the match's business).

        >>> Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10") == Position.start()
        True
        """
        try:
            fields = ids.decode_xgid(xgid)
        except ids.IdError as exc:
            raise PositionError(str(exc)) from None
        return cls(fields.board, fields.turn)

    @classmethod
    def from_simple(cls, counts: Sequence[int], turn: int = X) -> "Position":
        """26 numbers from the side on roll's point of view, like gnubg's ``set board simple``:
        its bar, its points 1..24 (its checkers positive, the opponent's negative), the
        opponent's bar.

        >>> Position.from_simple(Position.start().to_simple()) == Position.start()
        True
        """
        values = list(counts)
        if len(values) != 26:
            raise PositionError(f"a simple board has 26 numbers, got {len(values)}")
        me = [0] * 25
        opp = [0] * 25
        me[24] = values[0]
        if values[25] < 0:
            raise PositionError("the opponent's bar count (the last number) cannot be negative")
        if values[0] < 0:
            raise PositionError("the bar count (the first number) cannot be negative")
        opp[24] = values[25]
        for point in range(1, 25):
            v = values[point]
            if v > 0:
                me[point - 1] = v
            elif v < 0:
                opp[24 - point] = -v
        board = [None, None]
        board[turn] = me
        board[1 - turn] = opp
        return cls(board, turn)  # type: ignore[arg-type]

    # --- writers -----------------------------------------------------------------------

    def position_id(self) -> str:
        """gnubg's Position ID, from the side on roll."""
        return ids.encode_position_id((self._board[1 - self.turn], self._board[self.turn]))

    def xgid(self, **match_fields: object) -> str:
        """An XGID of this board with the side to move; other XGID fields default to a centred
        cube, no dice, money play, unless given (see :class:`engine.ids.XgidFields`).

        >>> Position.start().xgid()
        'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
        """
        return ids.encode_xgid(ids.XgidFields(board=self._board, turn=self.turn, **match_fields))  # type: ignore[arg-type]

    def to_simple(self) -> tuple[int, ...]:
        """The inverse of :meth:`from_simple`."""
        me = self._board[self.turn]
        opp = self._board[1 - self.turn]
        values = [me[24]]
        for point in range(1, 25):
            values.append(me[point - 1] or -opp[24 - point])
        values.append(opp[24])
        return tuple(values)

    # --- queries -----------------------------------------------------------------------

    @property
    def board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg's layout: ``board[player][i]`` for points ``i + 1``, ``[24]`` the bar."""
        return self._board

    @property
    def on_roll(self) -> int:
        return self.turn

    def side(self, player: int) -> tuple[int, ...]:
        return self._board[player]

    def checkers(self, player: int, point: int) -> int:
        """Checkers of ``player`` on its own ``point`` (1-24), on the bar (25) or off (0)."""
        if point == OFF:
            return self.off(player)
        if not 1 <= point <= 25:
            raise PositionError(f"points are 0 (off), 1-24, or 25 (bar); got {point}")
        return self._board[player][point - 1]

    def bar(self, player: int) -> int:
        return self._board[player][24]

    def off(self, player: int) -> int:
        return CHECKERS_PER_SIDE - sum(self._board[player])

    def pip_count(self, player: int) -> int:
        """Pips ``player`` needs to bear everything off (a checker on the bar counts 25)."""
        side = self._board[player]
        return sum((i + 1) * n for i, n in enumerate(side))

    def all_home(self, player: int) -> bool:
        """True when every checker ``player`` has left is in its home board (may bear off)."""
        return not any(self._board[player][6:])

    def is_game_over(self) -> bool:
        return self.off(X) == CHECKERS_PER_SIDE or self.off(O) == CHECKERS_PER_SIDE

    def winner(self) -> int | None:
        if self.off(X) == CHECKERS_PER_SIDE:
            return X
        if self.off(O) == CHECKERS_PER_SIDE:
            return O
        return None

    def win_kind(self) -> int:
        """For a finished game: 1 single, 2 gammon, 3 backgammon; 0 while it goes on.

        Gammon: the loser has borne off nothing.  Backgammon: and has a checker on the bar or
        in the winner's home board.
        """
        winner = self.winner()
        if winner is None:
            return 0
        loser = self._board[1 - winner]
        if sum(loser) < CHECKERS_PER_SIDE:
            return 1
        # The winner's home board is the loser's points 19-24; the loser's bar is index 24.
        return 3 if any(loser[18:25]) else 2

    # --- derived positions -------------------------------------------------------------

    def with_turn(self, turn: int) -> "Position":
        """The same checkers with ``turn`` to move."""
        return Position._trusted(self._board, turn)

    def pass_turn(self) -> "Position":
        """The same checkers with the other side to move (after a play, or a dance)."""
        return Position._trusted(self._board, 1 - self.turn)

    def legal_plays(self, dice: Iterable[int]) -> "LegalPlays":
        """Every legal play of ``dice`` for the side on roll, one per resulting position.

        >>> plays = Position.start().legal_plays((6, 2))
        >>> len(plays)
        14
        """
        from engine.movegen import LegalPlays

        return LegalPlays(self, tuple(dice))

    # --- dunder ------------------------------------------------------------------------

    def __eq__(self, other_pos: object) -> bool:
        if not isinstance(other_pos, Position):
            return NotImplemented
        return self.turn == other_pos.turn and self._board == other_pos._board

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._board, self.turn))
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r}, turn={PLAYER_NAMES[self.turn]})"

    def __str__(self) -> str:
        from engine.diagram import diagram

        return diagram(self)
