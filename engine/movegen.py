"""Legal plays: every way the side on roll may play its dice, one per resulting position.

The rules (``../shared/rules/``, FFBG where they differ) as the generator applies them:

- a checker on the bar must enter before any other checker moves;
- each die is a separate move; a checker may land on an empty point, its own point or a
  single opposing checker (a blot, which is hit and goes to the bar), never on a point the
  opponent holds with two or more (blocked); a combined move goes through open intermediate
  points, one die at a time;
- doubles give four moves of that number;
- as many dice as possible must be used; when only one die of a non-double can be used, the
  larger one if it can be;
- bearing off only with every checker in the home board (a hit checker must come home again),
  with the exact number, or with a larger number from the highest occupied point;
- as gnubg does, both dice must be used where both can be, even when the last checker leaves
  the board (a lone checker on the 2-point with 3-1 plays ``2/1 1/off``, not ``2/off``).

Plays are identified by the position they lead to, as gnubg's move generator does.

>>> from engine.position import Position
>>> plays = Position.start().legal_plays((3, 1))
>>> len(plays)
16
>>> any(str(p) == "8/5 6/5" for p in plays)
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from engine.position import BAR, OFF, Position, PositionError, other

Move = tuple[int, int]
"""One single-die step ``(from, to)`` in the mover's own numbering: 25 is the bar, 0 is off."""


class DiceError(ValueError):
    """Dice that cannot be rolled: not two numbers from 1 to 6."""


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Return ``dice`` as a pair, or raise :class:`DiceError`.

    >>> check_dice([6, 2])
    (6, 2)
    >>> check_dice((7, 1))
    Traceback (most recent call last):
    ...
    engine.movegen.DiceError: dice are two numbers from 1 to 6, got (7, 1)
    """
    try:
        pair = tuple(int(d) for d in dice)
    except (TypeError, ValueError):
        raise DiceError(f"dice are two numbers from 1 to 6, got {dice!r}") from None
    if len(pair) != 2 or not all(1 <= d <= 6 for d in pair) or any(
        isinstance(d, bool) for d in dice
    ):
        raise DiceError(f"dice are two numbers from 1 to 6, got {tuple(dice)!r}")
    return pair[0], pair[1]


@dataclass(frozen=True)
class Rules:
    """Switches for the rules of a single step.  Legal play uses the defaults; the referee
    turns single rules off to find out which rule an illegal move broke."""

    blocks: bool = True              #: points held by two or more opposing checkers are closed
    bar_first: bool = True           #: checkers on the bar enter before anything else moves
    home_to_bear_off: bool = True    #: bearing off needs every checker in the home board
    highest_for_larger: bool = True  #: a larger number bears off only from the highest point


STANDARD_RULES = Rules()

# Result keys: the mover's 26 counts in 4-bit fields (index 0 = borne off, 25 = bar), then one
# bit per point where an opposing blot was hit.  Plays leading to one position share one key.
_OWN = tuple(1 << (4 * p) for p in range(26))
_HIT = tuple(1 << (110 + p) for p in range(26))


def _split(position: Position) -> tuple[list[int], list[int]]:
    """Mover's counts by own point (index 25 bar) and the opponent's counts on those points."""
    me = [0]
    me.extend(position.board[position.turn])
    opp = position.board[1 - position.turn]
    opp_at = [0]
    opp_at.extend(opp[23::-1])
    opp_at.append(0)
    return me, opp_at


def generate(position: Position, dice: Sequence[int]) -> list[tuple[Move, ...]]:
    """The move sequences of every legal play, one per distinct resulting position.

    Empty when the side on roll cannot move.  Faster than building :class:`Play` objects;
    :class:`LegalPlays` wraps it.

    >>> generate(Position.start(), (6, 5))[:2]
    [((24, 18), (18, 13)), ((13, 7), (7, 2))]
    """
    d1, d2 = dice
    me, opp_at = _split(position)
    if d1 == d2:
        if not me[25] and sum(me[7:25]) >= 4:
            return _generate_double_plain(me, opp_at, d1)
        return _generate_double(me, opp_at, d1)
    if d1 < d2:
        d1, d2 = d2, d1
    if not me[25]:
        outside = 0
        for p in range(7, 25):
            outside += me[p]
        if outside >= 2:
            return _generate_plain(me, opp_at, d1, d2)
    return _generate_general(me, opp_at, (d1, d2))


def _generate_plain(me: list[int], opp_at: list[int], big: int, small: int) -> list[tuple[Move, ...]]:
    """Non-doubles with nothing on the bar and at least two checkers outside the home board:
    no entering, no bearing off with either die, so a step's legality does not depend on the
    other step except through the checker it moves.  Pairs of single steps, plus one checker
    moving twice through an intermediate point it did not occupy before."""
    steps_big = []
    steps_small = []
    for s in range(24, 0, -1):
        if me[s]:
            t = s - big
            if t > 0 and opp_at[t] < 2:
                steps_big.append((s, t))
            t = s - small
            if t > 0 and opp_at[t] < 2:
                steps_small.append((s, t))
    found: dict[int, tuple[Move, ...]] = {}
    for first, second in ((big, small), (small, big)):
        for s in range(24, 0, -1):
            if me[s]:
                t = s - first
                if t > 0 and opp_at[t] < 2:
                    t2 = t - second
                    if t2 > 0 and opp_at[t2] < 2:
                        key = _OWN[t2] - _OWN[s]
                        if opp_at[t] == 1:
                            key += _HIT[t]
                        if opp_at[t2] == 1:
                            key += _HIT[t2]
                        if key not in found:
                            found[key] = ((s, t), (t, t2))
    for s, t in steps_big:
        k1 = _OWN[t] - _OWN[s]
        if opp_at[t] == 1:
            k1 += _HIT[t]
        lone = me[s] == 1
        for s2, t2 in steps_small:
            if s2 == s and lone:
                continue
            key = k1 + _OWN[t2] - _OWN[s2]
            if opp_at[t2] == 1 and t2 != t:
                key += _HIT[t2]
            if key not in found:
                found[key] = ((s, t), (s2, t2))
    if found:
        return list(found.values())
    # At most one die can be played: the larger one where it can be.
    if steps_big:
        return [((s, t),) for s, t in steps_big]
    return [((s, t),) for s, t in steps_small]


def _generate_general(me: list[int], opp_at: list[int], dice: tuple[int, int]) -> list[tuple[Move, ...]]:
    """Non-doubles in every situation: both orders of the dice, one step at a time."""
    outside = [sum(me[7:26])]
    found: dict[int, tuple[Move, ...]] = {}
    best = [(-1, -1)]  # (dice used, pips used) of the plays in ``found``
    moves: list[Move] = []

    def record(key: int, pips: int) -> None:
        rank = (len(moves), pips)  # most dice, then the larger die when only one is played
        if rank < best[0]:
            return
        if rank > best[0]:
            best[0] = rank
            found.clear()
        if key not in found:
            found[key] = tuple(moves)

    def walk(order: tuple[int, ...], depth: int, key: int, pips: int) -> None:
        die = order[depth]
        moved = False
        for s in _sources(me, STANDARD_RULES):
            t = _target(me, opp_at, outside[0], s, die, STANDARD_RULES)
            if t < 0:
                continue
            moved = True
            hit = _apply(me, opp_at, outside, s, t)
            moves.append((s, t))
            k = key + _OWN[t] - _OWN[s] + (_HIT[t] if hit else 0)
            if depth + 1 < len(order):
                walk(order, depth + 1, k, pips + die)
            else:
                record(k, pips + die)
            moves.pop()
            _undo(me, opp_at, outside, s, t, hit)
        if not moved:
            record(key, pips)

    walk(dice, 0, 0, 0)
    walk((dice[1], dice[0]), 0, 0, 0)
    if best[0][0] <= 0:
        return []
    return list(found.values())


def _generate_double_plain(me: list[int], opp_at: list[int], die: int) -> list[tuple[Move, ...]]:
    """Doubles with nothing on the bar and at least four checkers outside the home board: no
    step can enter or bear off, so whether a checker may step from a point is fixed before the
    first step.  Same canonical order as :func:`_generate_double`, with the rule checks hoisted."""
    sources = [s for s in range(24, die, -1) if opp_at[s - die] < 2]
    found: list[tuple[Move, ...]] = []
    most = 0
    moves: list[Move] = []
    count = me
    last = len(sources)

    def walk(first: int, left: int) -> None:
        nonlocal most
        moved = False
        for i in range(first, last):
            s = sources[i]
            if count[s]:
                moved = True
                t = s - die
                count[s] -= 1
                count[t] += 1
                moves.append((s, t))
                if left > 1:
                    walk(i, left - 1)
                else:
                    if most < 4:
                        most = 4
                        found.clear()
                    found.append(tuple(moves))
                moves.pop()
                count[t] -= 1
                count[s] += 1
        if not moved and moves:
            n = len(moves)
            if n > most:
                most = n
                found.clear()
            if n == most:
                found.append(tuple(moves))

    walk(0, 4)
    return found


def _generate_double(me: list[int], opp_at: list[int], die: int) -> list[tuple[Move, ...]]:
    """Doubles: up to four steps of one number.  Steps are taken from non-increasing source
    points, which reaches every multiset of steps exactly once, and distinct multisets lead to
    distinct positions, so no de-duplication is needed."""
    outside = [sum(me[7:26])]
    found: list[tuple[Move, ...]] = []
    most = [0]
    moves: list[Move] = []

    def walk(top: int, depth: int) -> None:
        moved = False
        sources: Sequence[int] = (25,) if me[25] else range(top, 0, -1)
        for s in sources:
            if not me[s]:
                continue
            t = _target(me, opp_at, outside[0], s, die, STANDARD_RULES)
            if t < 0:
                continue
            moved = True
            hit = _apply(me, opp_at, outside, s, t)
            moves.append((s, t))
            if depth < 3:
                walk(s, depth + 1)
            else:
                _keep()
            moves.pop()
            _undo(me, opp_at, outside, s, t, hit)
        if not moved and depth:
            _keep()

    def _keep() -> None:
        n = len(moves)
        if n < most[0]:
            return
        if n > most[0]:
            most[0] = n
            found.clear()
        found.append(tuple(moves))

    walk(25, 0)
    return found


def _sources(me: list[int], rules: Rules) -> Sequence[int]:
    if me[25] and rules.bar_first:
        return (25,)
    return [p for p in range(25, 0, -1) if me[p]]


def _target(me: list[int], opp_at: list[int], outside: int, s: int, die: int, rules: Rules) -> int:
    """Where a checker on ``s`` lands with ``die`` (0 = off), or -1 if it may not move."""
    if not me[s]:
        return -1
    t = s - die
    if t > 0:
        if rules.blocks and opp_at[t] >= 2:
            return -1
        return t
    if rules.home_to_bear_off and outside:
        return -1
    if t < 0 and rules.highest_for_larger:
        for q in range(s + 1, 7):
            if me[q]:
                return -1
    return OFF


def _apply(me: list[int], opp_at: list[int], outside: list[int], s: int, t: int) -> bool:
    me[s] -= 1
    me[t] += 1
    if s >= 7 and t < 7:
        outside[0] -= 1
    if t and opp_at[t] == 1:
        opp_at[t] = 0
        return True
    return False


def _undo(me: list[int], opp_at: list[int], outside: list[int], s: int, t: int, hit: bool) -> None:
    me[s] += 1
    me[t] -= 1
    if s >= 7 and t < 7:
        outside[0] += 1
    if hit:
        opp_at[t] = 1


def explore(
    position: Position, dice: Sequence[int], rules: Rules = STANDARD_RULES
) -> dict[Position, tuple[tuple[Move, ...], tuple[int, ...]]]:
    """Every position reachable by playing some of ``dice`` one step at a time under ``rules``
    (the most-dice rule aside), with one step sequence that reaches it and the dice it leaves
    unplayed.  The start position is included with no steps.  The referee uses it to tell an
    unfinished move from an illegal one and to name the rule an illegal one broke.

    ``dice`` may also be the single-die steps still to play, like ``(6,)`` or ``(3, 3, 3)``.

    >>> from engine.position import Position
    >>> reached = explore(Position.start(), (6, 2))
    >>> reached[Position.start()]
    ((), (6, 2))
    >>> len(reached) > len(Position.start().legal_plays((6, 2)))
    True
    """
    if len(dice) == 2 and dice[0] == dice[1]:
        d = check_dice(dice)[0]
        steps: tuple[int, ...] = (d, d, d, d)
    else:
        steps = tuple(sorted((int(d) for d in dice), reverse=True))
        if not all(1 <= d <= 6 for d in steps):
            raise DiceError(f"dice are numbers from 1 to 6, got {tuple(dice)!r}")
    me, opp_at = _split(position)
    outside = [sum(me[7:26])]
    mover = position.turn
    opp_bar = position.bar(1 - mover)
    reached: dict[Position, tuple[tuple[Move, ...], tuple[int, ...]]] = {position: ((), steps)}
    seen: set[tuple[int, tuple[int, ...]]] = set()
    moves: list[Move] = []

    def visit(key: int, remaining: tuple[int, ...], hits: int) -> None:
        if (key, remaining) in seen:
            return
        seen.add((key, remaining))
        if moves and not any(me[p] and opp_at[p] for p in range(1, 25)):
            own = tuple(me[1:26])
            opp = tuple(opp_at[24:0:-1]) + (opp_bar + hits,)
            board = (own, opp) if mover == 0 else (opp, own)
            reached.setdefault(Position._trusted(board, mover), (tuple(moves), remaining))
        for i, die in enumerate(remaining):
            if i and die == remaining[i - 1]:
                continue
            rest = remaining[:i] + remaining[i + 1:]
            for s in _sources(me, rules):
                t = _target(me, opp_at, outside[0], s, die, rules)
                if t < 0:
                    continue
                hit = _apply(me, opp_at, outside, s, t)
                moves.append((s, t))
                visit(key + _OWN[t] - _OWN[s] + (_HIT[t] if hit else 0), rest, hits + hit)
                moves.pop()
                _undo(me, opp_at, outside, s, t, hit)

    visit(0, steps, 0)
    return reached


# --- plays -------------------------------------------------------------------------------

def apply_moves(position: Position, moves: Sequence[Move]) -> tuple[Position, tuple[bool, ...]]:
    """The position after ``moves`` (side to move unchanged) and which steps hit.

    Checks only that each step moves a checker that is there, forwards, onto a point not held
    by two or more opposing checkers; the full rules are :func:`generate`'s business.
    """
    mover = position.turn
    me = list(position.board[mover])
    opp = list(position.board[1 - mover])
    hits = []
    for s, t in moves:
        if not (1 <= s <= BAR and 0 <= t < s):
            raise PositionError(f"{s}/{t} is not a forward move")
        if not me[s - 1]:
            where = "the bar" if s == BAR else f"point {s}"
            raise PositionError(f"no checker on {where} to move")
        me[s - 1] -= 1
        hit = False
        if t:
            opposing = opp[24 - t]
            if opposing >= 2:
                raise PositionError(f"point {t} is blocked")
            if opposing == 1:
                opp[24 - t] = 0
                opp[24] += 1
                hit = True
            me[t - 1] += 1
        hits.append(hit)
    board = [None, None]
    board[mover] = tuple(me)
    board[other(mover)] = tuple(opp)
    return Position._trusted((board[0], board[1]), mover), tuple(hits)  # type: ignore[arg-type]


class Play:
    """One legal play: the position before, the dice and the single-die steps in the order
    played.  Two plays are equal when they start from and lead to the same position.

    >>> from engine.position import Position
    >>> play = Position.start().legal_plays((6, 2)).find_moves([(24, 18), (13, 11)])
    >>> str(play), play.result.position_id()
    ('24/18 13/11', '4HPwATDgc+RBIA')
    """

    __slots__ = ("position", "dice", "moves", "_result", "_hits")

    def __init__(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...]) -> None:
        self.position = position
        self.dice = dice
        self.moves = moves
        self._result: Position | None = None
        self._hits: tuple[bool, ...] = ()

    def _compute(self) -> None:
        self._result, self._hits = apply_moves(self.position, self.moves)

    @property
    def result(self) -> Position:
        """The position after the play, the mover still marked to move (unswapped, as gnubg's
        move generator keys it); ``result.pass_turn()`` hands the dice over."""
        if self._result is None:
            self._compute()
        return self._result  # type: ignore[return-value]

    @property
    def hits(self) -> tuple[bool, ...]:
        """Whether each step hit a blot."""
        if self._result is None:
            self._compute()
        return self._hits

    @property
    def mover(self) -> int:
        return self.position.turn

    def notation(self, absolute: bool = False, off: str = "off") -> str:
        from engine.notation import format_play

        return format_play(self, absolute=absolute, off=off)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<Play {self.dice[0]}-{self.dice[1]}: {self.notation()}>"

    def __eq__(self, other_play: object) -> bool:
        if not isinstance(other_play, Play):
            return NotImplemented
        return self.position == other_play.position and self.result == other_play.result

    def __hash__(self) -> int:
        return hash((self.position, self.result))


class LegalPlays:
    """The legal plays of a position and a roll, generated when first asked for.

    >>> from engine.position import Position
    >>> plays = Position.start().legal_plays((6, 6))
    >>> len(plays), bool(plays)
    (11, True)
    """

    def __init__(self, position: Position, dice: Sequence[int]) -> None:
        self.position = position
        self.dice = check_dice(dice)
        self._plays: list[Play] | None = None
        self._by_result: dict[Position, Play] | None = None

    def _all(self) -> list[Play]:
        if self._plays is None:
            self._plays = [Play(self.position, self.dice, m) for m in generate(self.position, self.dice)]
        return self._plays

    def by_result(self) -> dict[Position, Play]:
        """Each legal play keyed by the position it leads to (mover still on roll)."""
        if self._by_result is None:
            self._by_result = {p.result: p for p in self._all()}
        return self._by_result

    def find(self, result: Position) -> Play | None:
        """The legal play leading to ``result`` (either side marked to move), if any."""
        return self.by_result().get(result.with_turn(self.position.turn))

    def find_moves(self, moves: Sequence[Move]) -> Play | None:
        """The legal play whose steps lead where ``moves`` lead, if any."""
        try:
            result, _ = apply_moves(self.position, moves)
        except PositionError:
            return None
        return self.find(result)

    def __iter__(self) -> Iterator[Play]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return item.position == self.position and self.find(item.result) is not None
        if isinstance(item, Position):
            return self.find(item) is not None
        return False

    def __repr__(self) -> str:
        return f"<LegalPlays {self.dice[0]}-{self.dice[1]}: {len(self)} plays>"
