"""Game flow, the doubling cube, scoring and matches: the events of a backgammon match.

Like python-chess's ``Board`` with its move stack, a :class:`Match` is built by applying small
event values one after another; an event that comes out of turn is refused with a
:class:`GameError` in plain words and changes nothing.  Events are frozen dataclasses that turn
into plain dicts and back (:meth:`Event.to_dict`, :func:`event_from_dict`), which is how the
journal stores them and how the match files (:mod:`engine.matfile`, :mod:`engine.sgf`) read into
and write out of this model.

Rules (the FFBG's where sources differ): the opening roll gives each side one die, the higher die
starts and plays both, ties are re-rolled; the cube starts centred at 1; a side may double only
on its own turn before rolling (even if it will not be able to move), and only when the cube is
centred or its own; a take doubles the stake and gives the taker the cube; a drop gives the
doubler the stake before the double; a finished game scores 1, 2 (gammon) or 3 (backgammon)
times the cube; matches run to N points with the Crawford rule (no doubling in the game right
after a side first reaches N-1); money play (length 0) may use the Jacoby rule (gammons count
single while the cube is centred), never a match.

>>> m = Match(length=3, players={X: "Xavier", O: "Olga"})
>>> for event in (OpeningRoll(x=5, o=2), Move(X, "13/8 13/11"), Roll(O, (6, 4)), Move(O, "24/18 13/9"),
...               Double(X), Take(O), Roll(X, (3, 1)), Move(X, "8/5 6/5")):
...     m.apply(event)
>>> m.game.cube_value, m.game.cube_owner == O, m.game.turn == O, m.game.phase
(2, True, True, 'roll')
>>> m.gnubg_id()
'sOfIATDgc+FBIA:AQFgAAAAAAAE'
>>> m.xgid()
'XGID=-a---BDaC--AdC--ac-e----B-:1:-1:-1:00:0:0:0:3:10'
>>> m.apply(Double(X))
Traceback (most recent call last):
...
engine.match.GameError: X cannot double: it is O's turn
>>> m.apply(Double(O)); m.apply(Drop(X))
GameResult(winner=0, points=2, kind=1, reason='drop')
>>> m.score[O], str(m.game.result)
(2, 'O wins 2 points (drop)')
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Iterable, Iterator, Mapping

from engine import ids
from engine.position import O, X, Position, PositionError, other, parse_player, player_name

#: The largest cube a gnubg Match ID can hold (4 bits of log2).  The cube's faces stop at 64, the
#: stake does not (FFBG: "une partie peut avoir un enjeu de 128, 256 ou encore 4096").
MAX_CUBE = 1 << 15

WIN_NAMES = {1: "single game", 2: "gammon", 3: "backgammon"}

#: Phases of a game: who must do what next.
OPENING = "opening"  # before the opening roll
ROLL = "roll"  # the side to act may double or roll
MOVE = "move"  # dice are rolled; the side to act must play them
DOUBLED = "doubled"  # a double is offered; the side to act must take or drop
RESIGNED = "resigned"  # a resignation is offered; the side to act must accept or reject it
OVER = "over"


class GameError(ValueError):
    """An event that is not allowed at this moment of the game or match (out of turn, illegal)."""


# --- events ------------------------------------------------------------------------------

_EVENT_TYPES: dict[str, type["Event"]] = {}


@dataclass(frozen=True)
class Event:
    """One thing that happened at the board.  Subclasses name themselves with ``kind``."""

    kind: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            _EVENT_TYPES[cls.kind] = cls

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-ready): ``{"type": kind, ...fields}``; players as ``"X"``/``"O"``.

        >>> Roll(X, (6, 2)).to_dict()
        {'type': 'roll', 'player': 'X', 'dice': [6, 2]}
        """
        out: dict[str, Any] = {"type": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "player":
                value = player_name(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    def __str__(self) -> str:
        return _describe(self)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The inverse of :meth:`Event.to_dict`; raises :class:`GameError` on a malformed dict.

    >>> event_from_dict({"type": "move", "player": "O", "play": "24/18 13/11"})
    Move(player=0, play='24/18 13/11')
    >>> event_from_dict({"type": "castle"})
    Traceback (most recent call last):
    ...
    engine.match.GameError: unknown event type 'castle'
    """
    if not isinstance(data, Mapping):
        raise GameError(f"an event is a dict, got {type(data).__name__}")
    kind = data.get("type")
    cls = _EVENT_TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise GameError(f"unknown event type {kind!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING:
                continue
            raise GameError(f"a {kind} event needs {f.name!r}")
        value = data[f.name]
        if f.name == "player":
            try:
                value = parse_player(value)
            except PositionError as exc:
                raise GameError(str(exc)) from None
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise GameError(f"bad {kind} event: {exc}") from None


def _check_die(value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise GameError(f"a die shows 1 to 6, got {value!r}")


def _check_player(value: Any) -> None:
    if value not in (O, X) or isinstance(value, bool):
        raise GameError(f"a player is X (1) or O (0), got {value!r}")


@dataclass(frozen=True)
class OpeningRoll(Event):
    """Each side rolls one die; the higher die starts and plays both.  Equal dice: roll again.

    >>> Game().apply(OpeningRoll(x=3, o=3)).phase
    'opening'
    """

    kind: ClassVar[str] = "opening_roll"
    x: int
    o: int

    def __post_init__(self) -> None:
        _check_die(self.x)
        _check_die(self.o)


@dataclass(frozen=True)
class Roll(Event):
    """The side on roll rolls both dice."""

    kind: ClassVar[str] = "roll"
    player: int
    dice: tuple[int, int]

    def __post_init__(self) -> None:
        _check_player(self.player)
        if not isinstance(self.dice, tuple) or len(self.dice) != 2:
            raise GameError(f"a roll is two dice, got {self.dice!r}")
        for die in self.dice:
            _check_die(die)


@dataclass(frozen=True)
class Move(Event):
    """The side on roll plays its dice: ``play`` in its own numbering (``"24/18 13/11"``,
    ``"bar/21"``, ``"6/off"``), ``""`` when it cannot move at all (a dance)."""

    kind: ClassVar[str] = "move"
    player: int
    play: str

    def __post_init__(self) -> None:
        _check_player(self.player)
        if not isinstance(self.play, str):
            raise GameError(f"a play is written as text, got {self.play!r}")


@dataclass(frozen=True)
class Double(Event):
    """The side on roll offers the cube, before rolling."""

    kind: ClassVar[str] = "double"
    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True)
class Take(Event):
    """The doubled side accepts: the stake doubles and the cube is its own."""

    kind: ClassVar[str] = "take"
    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True)
class Drop(Event):
    """The doubled side refuses and loses the stake before the double."""

    kind: ClassVar[str] = "drop"
    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True)
class Resign(Event):
    """A side offers to lose a single game (1), a gammon (2) or a backgammon (3)."""

    kind: ClassVar[str] = "resign"
    player: int
    points: int = 1

    def __post_init__(self) -> None:
        _check_player(self.player)
        if self.points not in (1, 2, 3):
            raise GameError(f"a resignation is of 1, 2 or 3 points, got {self.points!r}")


@dataclass(frozen=True)
class AcceptResign(Event):
    """The opponent accepts the resignation: the game ends."""

    kind: ClassVar[str] = "accept_resign"
    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True)
class RejectResign(Event):
    """The opponent rejects the resignation: the game goes on where it stood."""

    kind: ClassVar[str] = "reject_resign"
    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True)
class SetBoard(Event):
    """A person sets the board by hand (a correction, or a file's "illegal play" note): the
    checkers of ``position_id`` (gnubg's Position ID seen from ``player``), ``player`` to roll
    next.  Before the opening roll it sets the starting position instead.

    >>> g = Game().apply(OpeningRoll(x=6, o=1))
    >>> g.apply(SetBoard(O, "4HPwATDgc/ABMA")).turn == O, g.phase
    (True, 'roll')
    """

    kind: ClassVar[str] = "set_board"
    player: int
    position_id: str

    def __post_init__(self) -> None:
        _check_player(self.player)
        try:
            Position.from_position_id(self.position_id, turn=self.player)
        except (PositionError, AttributeError) as exc:
            raise GameError(f"set_board: {exc}") from None

    def position(self) -> Position:
        return Position.from_position_id(self.position_id, turn=self.player)


def force_steps(match: "Match", steps: Iterable[tuple[int, int]]) -> bool:
    """Put the board where ``steps`` (``(from, to)`` in the mover's numbering) lead, as a
    :class:`SetBoard` with the other side to roll next, when the checkers are there to make them.

    A match file's replay (``--check``) uses it after an illegal play, so the rest can go on.
    Returns False, changing nothing, when the steps cannot be made.
    """
    from engine.movegen import apply_moves

    game = match.game
    if game is None:
        return False
    try:
        after, _ = apply_moves(game.position, list(steps))
    except PositionError:
        return False
    following = other(game.turn)
    try:
        match.apply(SetBoard(following, after.with_turn(following).position_id()))
    except GameError:
        return False
    return True


@dataclass(frozen=True)
class TakeBack(Event):
    """A correction made by a person: the last event of the match did not happen.

    The journal stays append-only; the take-back is an event of its own, with why.
    """

    kind: ClassVar[str] = "take_back"
    reason: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str):
            raise GameError("a take-back's reason is text")


def _describe(event: Event) -> str:
    """Plain words for an event.

    >>> str(Roll(X, (6, 2))), str(Move(O, "")), str(Resign(X, 2)), str(OpeningRoll(x=2, o=5))
    ('X rolls 62', 'O cannot move', 'X resigns a gammon', 'opening roll: X 2, O 5')
    """
    who = player_name(getattr(event, "player", 0))
    if isinstance(event, OpeningRoll):
        return f"opening roll: X {event.x}, O {event.o}"
    if isinstance(event, Roll):
        return f"{who} rolls {event.dice[0]}{event.dice[1]}"
    if isinstance(event, Move):
        return f"{who} plays {event.play}" if event.play else f"{who} cannot move"
    if isinstance(event, Double):
        return f"{who} doubles"
    if isinstance(event, Take):
        return f"{who} takes"
    if isinstance(event, Drop):
        return f"{who} drops"
    if isinstance(event, Resign):
        return f"{who} resigns a {WIN_NAMES[event.points]}"
    if isinstance(event, AcceptResign):
        return f"{who} accepts the resignation"
    if isinstance(event, RejectResign):
        return f"{who} rejects the resignation"
    if isinstance(event, SetBoard):
        return f"the board is set by hand ({event.position_id}), {who} to roll"
    if isinstance(event, TakeBack):
        return "take back the last event" + (f" ({event.reason})" if event.reason else "")
    return repr(event)  # pragma: no cover


# --- a game -------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameResult:
    """How a game ended: ``winner`` wins ``points`` (cube and Jacoby included); ``kind`` 1, 2 or 3
    (single, gammon, backgammon); ``reason`` ``"played"``, ``"drop"`` or ``"resign"``."""

    winner: int
    points: int
    kind: int
    reason: str

    def __str__(self) -> str:
        how = {"played": "", "drop": " (drop)", "resign": " (resignation)"}[self.reason]
        unit = "point" if self.points == 1 else "points"
        return f"{player_name(self.winner)} wins {self.points} {unit}{how}"


@dataclass
class PlayRecord:
    """A play made in a game: the position before (side on roll to move), the dice, the engine's
    :class:`~engine.movegen.Play` (``None`` for a dance) and the referee's verdict."""

    before: Position
    dice: tuple[int, int]
    play: Any
    after: Position

    @property
    def notation(self) -> str:
        return str(self.play) if self.play is not None else ""

    def verdict(self) -> Any:
        """The engine referee's :class:`~engine.judge.Verdict` of this play (always legal: the
        game refused illegal ones).  ``after`` is the board with the mover still marked to
        move, as the referee compares boards."""
        from engine.judge import judge

        return judge(self.before, self.after, self.dice)


class Game:
    """One game: the board, the cube and whose turn it is, built by applying events.

    ``turn`` is the side that must act next (the doubled side while a double is pending);
    ``on_roll`` the side whose turn it is on the board.  ``cube_enabled`` is False in a Crawford
    game; ``jacoby`` counts gammons single while the cube is centred (money play only).

    >>> g = Game()
    >>> g.apply(Roll(X, (6, 2)))
    Traceback (most recent call last):
    ...
    engine.match.GameError: the game starts with the opening roll (one die each), not a roll by X
    >>> g.apply(OpeningRoll(x=6, o=2)).apply(Move(O, "24/18 13/11"))
    Traceback (most recent call last):
    ...
    engine.match.GameError: O cannot play: it is X's turn
    >>> g.apply(Move(X, "24/18 13/11")).apply(Move(O, "13/11"))
    Traceback (most recent call last):
    ...
    engine.match.GameError: a play was made before the dice were rolled: O must roll first
    """

    def __init__(
        self,
        *,
        cube_enabled: bool = True,
        jacoby: bool = False,
        start: Position | None = None,
        crawford: bool = False,
    ) -> None:
        self.cube_enabled = cube_enabled and not crawford
        self.crawford = crawford
        self.jacoby = jacoby
        self.position = start if start is not None else Position.start()
        self.phase = OPENING
        self.on_roll = X
        self.turn = X
        self.dice: tuple[int, int] | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.resign_points = 0
        self.resigner: int | None = None
        self.result: GameResult | None = None
        self.events: list[Event] = []
        self.plays: list[PlayRecord] = []
        self.opening_ties = 0
        self._phase_before_resign = ROLL

    # --- queries --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def may_double(self, player: int) -> bool:
        """Whether ``player`` may offer the cube right now."""
        try:
            self._check_double(player)
        except GameError:
            return False
        return True

    def legal_plays(self) -> Any:
        """The legal plays of the rolled dice (phase ``"move"`` only)."""
        if self.phase != MOVE or self.dice is None:
            raise GameError("no dice are rolled")
        return self.position.legal_plays(self.dice)

    # --- applying events --------------------------------------------------------------

    def apply(self, event: Event) -> "Game":
        """Apply ``event`` or raise :class:`GameError` leaving the game unchanged; returns self."""
        handler = {
            OpeningRoll: self._opening_roll,
            Roll: self._roll,
            Move: self._move,
            Double: self._double,
            Take: self._take,
            Drop: self._drop,
            Resign: self._resign,
            AcceptResign: self._accept_resign,
            RejectResign: self._reject_resign,
            SetBoard: self._set_board,
        }.get(type(event))
        if handler is None:
            raise GameError(f"a game cannot apply {event!r}")
        if self.phase == OVER:
            raise GameError(f"the game is over ({self.result}): {event} cannot follow")
        # A handler may hand back the event in canonical form (a play in the engine's notation).
        self.events.append(handler(event) or event)  # type: ignore[operator]
        return self

    def _wrong_turn(self, who: int, what: str) -> GameError:
        me = player_name(who)
        them = player_name(self.turn)
        if self.phase == OPENING:
            return GameError(f"the game starts with the opening roll (one die each), not {what} by {me}")
        if who == self.turn:
            need = {
                ROLL: f"{me} must roll or double",
                MOVE: f"{me} must play the {self.dice_text()} rolled",
                DOUBLED: f"{me} must take or drop the cube",
                RESIGNED: f"{me} must accept or reject the resignation",
            }[self.phase]
            return GameError(f"{me} cannot make {what} now: {need}")
        return GameError(f"{me} cannot {what}: it is {them}'s turn")

    def dice_text(self) -> str:
        return f"{self.dice[0]}{self.dice[1]}" if self.dice else ""

    def _opening_roll(self, event: OpeningRoll) -> None:
        if self.phase != OPENING:
            raise GameError("the opening roll was made already: " + self._what_now())
        if event.x == event.o:
            self.opening_ties += 1
            return
        starter = X if event.x > event.o else O
        self.on_roll = self.turn = starter
        self.position = self.position.with_turn(starter)
        self.dice = (max(event.x, event.o), min(event.x, event.o))
        self.phase = MOVE

    def _what_now(self) -> str:
        who = player_name(self.turn)
        return {
            OPENING: "the opening roll is next",
            ROLL: f"{who} must roll or double",
            MOVE: f"{who} must play {self.dice_text()}",
            DOUBLED: f"{who} must take or drop",
            RESIGNED: f"{who} must accept or reject the resignation",
            OVER: "the game is over",
        }[self.phase]

    def _roll(self, event: Roll) -> None:
        if self.phase == OPENING:
            raise self._wrong_turn(event.player, "a roll")
        if event.player != self.turn:
            if self.phase == ROLL:
                raise GameError(
                    f"{player_name(self.turn)} must roll: it is not {player_name(event.player)}'s turn"
                )
            raise GameError(f"{player_name(event.player)} cannot roll: {self._what_now()}")
        if self.phase == MOVE:
            raise GameError(
                f"{player_name(event.player)} rolled already: it must play the {self.dice_text()}"
            )
        if self.phase != ROLL:
            raise GameError(f"{player_name(event.player)} cannot roll: {self._what_now()}")
        self.dice = event.dice
        self.phase = MOVE

    def _move(self, event: Move) -> Move:
        who = player_name(event.player)
        if self.phase == OPENING:
            raise GameError("a play was made before the opening roll")
        if event.player != self.turn and self.phase in (ROLL, MOVE):
            raise GameError(f"{who} cannot play: it is {player_name(self.turn)}'s turn")
        if self.phase == ROLL:
            raise GameError(f"a play was made before the dice were rolled: {who} must roll first")
        if self.phase != MOVE:
            raise GameError(f"{who} cannot play now: {self._what_now()}")
        assert self.dice is not None
        before = self.position
        legal = before.legal_plays(self.dice)
        text = event.play.strip()
        if not text or text in ("-", "#"):
            if len(legal):
                raise GameError(
                    f"{who} can move with {self.dice_text()}: a play must be made "
                    f"(for example {next(iter(legal))})"
                )
            play = None
            after = before
        else:
            if not len(legal):
                raise GameError(f"{who} cannot move with {self.dice_text()}: the play {text!r} is illegal")
            from engine.notation import NotationError, parse_play

            try:
                play = parse_play(before, self.dice, text)
            except NotationError as exc:
                raise GameError(f"{who}'s play {text} with {self.dice_text()}: {exc}") from None
            after = play.result
        self.plays.append(PlayRecord(before, self.dice, play, after))
        self.position = after.pass_turn()
        self.dice = None
        canonical = Move(event.player, str(play) if play is not None else "")
        if after.is_game_over():
            winner = after.winner()
            assert winner is not None
            kind = after.win_kind()
            self.on_roll = other(event.player)  # gnubg shows the finished board from the loser
            self._finish(winner, kind, "played")
            return canonical
        self.on_roll = self.turn = other(event.player)
        self.phase = ROLL
        return canonical

    def _set_board(self, event: SetBoard) -> None:
        if self.phase not in (OPENING, ROLL, MOVE):
            raise GameError(f"the board cannot be set now: {self._what_now()}")
        position = event.position()
        self.position = position
        self.dice = None
        if self.phase == OPENING:
            return
        self.on_roll = self.turn = event.player
        self.phase = ROLL
        if position.is_game_over():
            winner = position.winner()
            assert winner is not None
            self._finish(winner, position.win_kind(), "played")

    def _check_double(self, player: int) -> None:
        who = player_name(player)
        if self.phase == OPENING:
            raise GameError(f"{who} cannot double before the opening roll")
        if self.phase in (ROLL, MOVE) and player != self.on_roll:
            raise GameError(f"{who} cannot double: it is {player_name(self.on_roll)}'s turn")
        if self.phase == MOVE:
            raise GameError(f"{who} cannot double after rolling: a double comes before the roll")
        if self.phase != ROLL:
            raise GameError(f"{who} cannot double now: {self._what_now()}")
        if self.crawford:
            raise GameError(f"{who} cannot double: no doubling in the Crawford game")
        if not self.cube_enabled:
            raise GameError(f"{who} cannot double: the cube is not in use")
        if self.cube_owner is not None and self.cube_owner != player:
            raise GameError(f"{who} cannot double: {player_name(self.cube_owner)} owns the cube")
        if self.cube_value * 2 > MAX_CUBE:
            raise GameError(f"{who} cannot double: the cube is at {self.cube_value}, the most a match records")

    def _double(self, event: Double) -> None:
        self._check_double(event.player)
        self.turn = other(event.player)
        self.phase = DOUBLED

    def _answer_double(self, player: int, what: str) -> None:
        if self.phase != DOUBLED:
            raise GameError(f"{player_name(player)} cannot {what}: no double is offered")
        if player != self.turn:
            raise GameError(f"{player_name(player)} cannot {what} its own double")

    def _take(self, event: Take) -> None:
        self._answer_double(event.player, "take")
        self.cube_value *= 2
        self.cube_owner = event.player
        self.turn = self.on_roll
        self.phase = ROLL

    def _drop(self, event: Drop) -> None:
        self._answer_double(event.player, "drop")
        self._finish(other(event.player), 1, "drop")

    def _resign(self, event: Resign) -> None:
        if self.phase not in (ROLL, MOVE):
            raise GameError(f"{player_name(event.player)} cannot resign now: {self._what_now()}")
        self._phase_before_resign = self.phase
        self.resign_points = event.points
        self.resigner = event.player
        self.turn = other(event.player)
        self.phase = RESIGNED

    def _answer_resign(self, player: int, verb: str) -> None:
        if self.phase != RESIGNED:
            raise GameError(f"{player_name(player)} cannot {verb} a resignation: nobody resigned")
        if player != self.turn:
            raise GameError(f"{player_name(player)} cannot {verb} its own resignation")

    def _accept_resign(self, event: AcceptResign) -> None:
        self._answer_resign(event.player, "accept")
        self._finish(event.player, self.resign_points, "resign")

    def _reject_resign(self, event: RejectResign) -> None:
        self._answer_resign(event.player, "reject")
        self.resign_points = 0
        self.phase = self._phase_before_resign
        self.turn = self.on_roll

    def _finish(self, winner: int, kind: int, reason: str) -> None:
        self.result = GameResult(winner, self.stake(kind) if reason != "drop" else self.cube_value,
                                 kind, reason)
        self.phase = OVER
        # As gnubg's Match ID has it: the turn stays with the side that gave up (or moved last).
        self.turn = other(winner)

    def stake(self, kind: int) -> int:
        """Points a win of ``kind`` (1, 2, 3) is worth now: cube times kind; with the Jacoby rule
        a centred cube counts gammons and backgammons single.

        >>> Game(jacoby=True).stake(2), Game().stake(2)
        (1, 2)
        """
        if self.jacoby and self.cube_owner is None:
            kind = 1
        return kind * self.cube_value


# --- a match ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Moment:
    """A match right after its event number ``index`` (from 0): gnubg's Position ID and Match
    ID, the XGID, the game's result when that event ended a game, and the game number (from 1)."""

    index: int
    event: Event
    position_id: str
    match_id: str
    xgid: str
    result: GameResult | None
    game: int


def _crawford_next(score: Mapping[int, int], length: int, before: Mapping[int, int]) -> bool:
    """Whether the game after one that moved the score from ``before`` to ``score`` is the
    Crawford game: a side has just reached ``length - 1`` and the other is still short of it."""
    for player in (X, O):
        if score[player] == length - 1 and before[player] < length - 1 and score[other(player)] < length - 1:
            return True
    return False


class Match:
    """A match to ``length`` points (0 = money play), built by applying events.

    ``players`` maps X and O to names; ``crawford`` turns the Crawford rule on (matches);
    ``jacoby`` the Jacoby rule (money play only: the FFBG never uses it in a match);
    ``info`` carries free-form facts for the files (event, place, date...).
    ``games`` are the games so far; ``score`` maps each player to its points.

    >>> m = Match(length=1)
    >>> m.apply(OpeningRoll(x=1, o=6))
    >>> m.apply(Double(O))
    Traceback (most recent call last):
    ...
    engine.match.GameError: O cannot double after rolling: a double comes before the roll
    >>> m.apply(Resign(X, 2)); m.apply(AcceptResign(O))
    GameResult(winner=0, points=2, kind=2, reason='resign')
    >>> m.winner() == O, m.score[O], m.over
    (True, 2, True)
    >>> Match(length=5, jacoby=True)
    Traceback (most recent call last):
    ...
    engine.match.GameError: the Jacoby rule is for money play, not a match
    """

    def __init__(
        self,
        length: int = 0,
        *,
        players: Mapping[int, str] | None = None,
        crawford: bool = True,
        jacoby: bool = False,
        info: Mapping[str, str] | None = None,
    ) -> None:
        if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length < (1 << 15):
            raise GameError(f"a match length is 0 (money) to 32767 points, got {length!r}")
        if jacoby and length:
            raise GameError("the Jacoby rule is for money play, not a match")
        self.length = length
        self.players = {X: "X", O: "O"}
        if players:
            self.players.update({int(k): str(v) for k, v in players.items()})
        self.crawford = bool(crawford) and length > 0
        self.jacoby = bool(jacoby)
        self.info: dict[str, str] = dict(info or {})
        self.games: list[Game] = []
        self.scores_before: list[dict[int, int]] = []
        self.score = {X: 0, O: 0}
        self.events: list[Event] = []
        self._crawford_played = False

    # --- settings as data ------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        """The match's settings as a plain dict (the journal stores it; :meth:`from_settings`)."""
        return {
            "length": self.length,
            "players": {"X": self.players[X], "O": self.players[O]},
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "info": dict(self.info),
        }

    @classmethod
    def from_settings(cls, data: Mapping[str, Any], events: Iterable[Event | Mapping[str, Any]] = ()) -> "Match":
        """A match from :meth:`settings` and its events (dicts or :class:`Event`)."""
        try:
            players = {parse_player(k): v for k, v in dict(data.get("players") or {}).items()}
            match = cls(
                int(data.get("length", 0)),
                players=players,
                crawford=bool(data.get("crawford", True)),
                jacoby=bool(data.get("jacoby", False)),
                info=dict(data.get("info") or {}),
            )
        except (TypeError, ValueError) as exc:
            raise GameError(f"bad match settings: {exc}") from None
        for event in events:
            match.apply(event if isinstance(event, Event) else event_from_dict(event))
        return match

    # --- queries ------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game in progress or the last one played (None before the first opening roll)."""
        return self.games[-1] if self.games else None

    @property
    def over(self) -> bool:
        return self.winner() is not None

    def winner(self) -> int | None:
        if not self.length:
            return None
        for player in (X, O):
            if self.score[player] >= self.length:
                return player
        return None

    def next_game_is_crawford(self) -> bool:
        if not self.crawford or self._crawford_played or not self.games:
            return False
        return _crawford_next(self.score, self.length, self.scores_before[-1])

    def _new_game(self) -> Game:
        return Game(jacoby=self.jacoby and not self.length, crawford=self.next_game_is_crawford())

    # --- applying events ------------------------------------------------------------------

    def apply(self, event: Event) -> GameResult | None:
        """Apply ``event`` (or raise :class:`GameError`, changing nothing); returns the game's
        result when this event ended a game."""
        if not isinstance(event, Event):
            raise GameError(f"not a match event: {event!r}")
        if isinstance(event, TakeBack):
            if not self.events:
                raise GameError("nothing to take back: the match has no events")
            kept = self.events[:-1]
            fresh = Match(self.length, players=self.players, crawford=self.crawford,
                          jacoby=self.jacoby, info=self.info)
            for old in kept:
                fresh.apply(old)
            self.__dict__.update(fresh.__dict__)
            return None
        if self.over:
            a, b = sorted(self.score.values(), reverse=True)
            raise GameError(
                f"the match is over: {player_name(self.winner())} won {a}-{b}; {event} cannot follow"  # type: ignore[arg-type]
            )
        game = self.game
        started = False
        if game is None or game.over:
            game = self._new_game()
            started = True
        game.apply(event)
        if started:
            self.games.append(game)
            self.scores_before.append(dict(self.score))
            self._crawford_played |= game.crawford
        self.events.append(game.events[-1])
        if game.over:
            assert game.result is not None
            self.score[game.result.winner] += game.result.points
            return game.result
        return None

    # --- identifiers of this moment -----------------------------------------------------

    def _state(self) -> Game:
        # Before the first opening roll: a game not started yet.
        return self.game if self.game is not None else self._new_game()

    def position(self) -> Position:
        """The board now, with the side on roll to move."""
        return self._state().position.with_turn(self._state().on_roll)

    def position_id(self) -> str:
        """gnubg's Position ID of this moment (from the side on roll)."""
        return self.position().position_id()

    def match_id_fields(self) -> ids.MatchIdFields:
        game = self._state()
        if game.phase == OVER:
            assert game.result is not None
            state = {"played": 2, "resign": 3, "drop": 4}[game.result.reason]
        elif game.phase == OPENING:
            state = 0
        else:
            state = 1
        dice = game.dice if game.phase == MOVE and game.dice else (0, 0)
        return ids.MatchIdFields(
            cube_value=game.cube_value,
            cube_owner=game.cube_owner,
            player_on_roll=game.on_roll,
            crawford=game.crawford,
            game_state=state,
            turn=game.turn,
            double_offered=game.phase == DOUBLED,
            resignation=game.resign_points if game.phase in (RESIGNED, OVER) else 0,
            dice=(max(dice), min(dice)),
            match_length=min(self.length, (1 << 15) - 1),
            score=(self.score[O], self.score[X]),
            jacoby=self.jacoby,  # gnubg sets its "no Jacoby" bit in matches
        )

    def match_id(self) -> str:
        """gnubg's Match ID of this moment."""
        return ids.encode_match_id(self.match_id_fields())

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, what gnubg's ``set gnubgid`` reads."""
        return f"{self.position_id()}:{self.match_id()}"

    def xgid(self) -> str:
        """The XGID of this moment (gnubg reads it but cannot write it)."""
        game = self._state()
        if game.phase == DOUBLED:
            dice: tuple[int, int] | None = None
        elif game.phase == MOVE and game.dice:
            dice = game.dice
        else:
            dice = (0, 0)
        return ids.encode_xgid(ids.XgidFields(
            board=game.position.board,
            turn=game.on_roll,
            cube_value=game.cube_value,
            cube_owner=game.cube_owner,
            dice=dice,
            score=(self.score[O], self.score[X]),
            crawford=game.crawford,
            jacoby=self.jacoby and not self.length,
            match_length=self.length,
        ))

    def moments(self) -> Iterator["Moment"]:
        """Every moment of the match: after each event, its gnubg IDs and XGID.

        >>> m = Match(3)
        >>> m.apply(OpeningRoll(x=6, o=2)); m.apply(Move(X, "24/18 13/11"))
        >>> [(str(mo.event), mo.position_id) for mo in m.moments()]
        [('opening roll: X 6, O 2', '4HPwATDgc/ABMA'), ('X plays 24/18 13/11', '4HPkQSDgc/ABMA')]
        """
        replay = Match(self.length, players=self.players, crawford=self.crawford, jacoby=self.jacoby,
                       info=self.info)
        for index, event in enumerate(self.events):
            result = replay.apply(event)
            yield Moment(index, event, replay.position_id(), replay.match_id(), replay.xgid(), result,
                         len(replay.games))

    def __repr__(self) -> str:
        kind = f"{self.length}-point match" if self.length else "money session"
        return (f"<Match {kind} {self.players[X]} (X) {self.score[X]} - {self.score[O]} "
                f"{self.players[O]} (O), {len(self.games)} games>")
