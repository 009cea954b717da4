"""The referee: was the move from one position to another legal for this roll?

:func:`judge` compares the position before a move with the position after it (the mover still
marked to move, as a camera sees the board before the dice pass) and returns a
:class:`Verdict`: legal (with the play in notation), unfinished (the checkers moved so far are
part of a legal play, dice remain), or illegal with the one rule broken, in plain words, so the
command line, the unit's LED and the dashboard all say the same thing.

>>> from engine.position import Position
>>> start = Position.start()
>>> after = start.legal_plays((6, 2)).find_moves([(24, 18), (13, 11)]).result
>>> judge(start, after, (6, 2))
Verdict(legal=True, finished=True, notation='24/18 13/11', reason='legal')
>>> judge(start, Position.from_points(x={24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, o={24: 2, 13: 5, 8: 3, 6: 5}), (6, 2))
Verdict(legal=True, finished=False, notation='24/18', reason='unfinished: 2 still to play')
>>> judge(start, Position.from_points(x={24: 1, 21: 1, 13: 5, 8: 3, 6: 5}, o={24: 2, 13: 5, 8: 3, 6: 5}), (6, 2)).reason
'the move does not match the roll: it needs 3 pips with one checker, 6-2 gives 6, 2 or 8'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.movegen import (
    BAR,
    LegalPlays,
    Play,
    Rules,
    apply_moves,
    check_dice,
    explore,
)
from engine.notation import format_dice, format_moves
from engine.position import PLAYER_NAMES, Position


@dataclass(frozen=True)
class Verdict:
    """The referee's word on one move.

    ``legal`` and ``finished``: a legal, complete play.  ``legal`` and not ``finished``: so far
    so good, dice remain.  Not ``legal``: ``reason`` names the rule broken.  ``notation`` is the
    play (or the part played so far) in FFBG notation, in the mover's numbering.
    """

    legal: bool
    finished: bool
    notation: str | None
    reason: str
    play: Play | None = None

    def to_dict(self) -> dict[str, object]:
        """The ``bgbridge judge --json`` form."""
        return {"legal": self.legal, "finished": self.finished, "notation": self.notation, "reason": self.reason}

    def __repr__(self) -> str:
        return (
            f"Verdict(legal={self.legal}, finished={self.finished}, notation={self.notation!r}, "
            f"reason={self.reason!r})"
        )


def judge(before: Position, after: Position, dice: Sequence[int]) -> Verdict:
    """Judge the move that turned ``before`` into ``after`` with ``dice``.

    ``after`` is compared board to board; which side it marks to move does not matter.
    """
    dice = check_dice(dice)
    mover = before.turn
    after = after.with_turn(mover)
    legal = LegalPlays(before, dice)
    name = PLAYER_NAMES[mover]

    if not legal:
        if after == before:
            return Verdict(True, True, "", f"no legal play: {name} cannot move with {format_dice(dice)}")
        return _illegal(f"{name} cannot move with {format_dice(dice)}: the board must stay as it was")
    play = legal.find(after)
    if play is not None:
        return Verdict(True, True, play.notation(), "legal", play)
    if after == before:
        return Verdict(True, False, "", "unfinished: nothing moved yet")

    reached = explore(before, dice)
    if after in reached:
        moves, remaining = reached[after]
        results = legal.by_result()
        if any(p in results for p in explore(after, remaining)):
            _, hits = apply_moves(before, moves)
            left = " and ".join(str(d) for d in remaining)
            return Verdict(
                True, False, format_moves(moves, hits, mover),
                f"unfinished: {left} still to play",
            )
        return _illegal(_too_few_dice(legal, dice, len(moves)))
    return _illegal(_diagnose(before, after, dice, legal))


def _illegal(reason: str) -> Verdict:
    return Verdict(False, False, None, reason)


def _example(legal: LegalPlays) -> str:
    return min((str(p) for p in legal), key=len)


def _too_few_dice(legal: LegalPlays, dice: tuple[int, int], used: int) -> str:
    need = len(next(iter(legal)).moves)
    if dice[0] == dice[1]:
        return f"{need} moves of {dice[0]} could have been played, not {used} (for example {_example(legal)})"
    if need == 2:
        return f"both dice could have been played (for example {_example(legal)})"
    big = max(dice)
    return f"the larger die must be played: the {big} can be played (for example {_example(legal)})"


def _diagnose(before: Position, after: Position, dice: tuple[int, int], legal: LegalPlays) -> str:
    """The first rule, in a fixed order, whose breach explains ``after``."""
    mover = before.turn
    opp = 1 - mover
    name, opp_name = PLAYER_NAMES[mover], PLAYER_NAMES[opp]
    me_before, me_after = before.side(mover), after.side(mover)
    opp_before, opp_after = before.side(opp), after.side(opp)

    # Checkers that appeared or vanished.
    on_board = sum(opp_after), sum(opp_before)
    if on_board[0] != on_board[1]:
        change = "appeared" if on_board[0] > on_board[1] else "vanished"
        return (
            f"checkers {change}: {opp_name} had {on_board[1]} checkers on the board and bar, now "
            f"{on_board[0]}"
        )
    if sum(me_after) > sum(me_before):
        return (
            f"checkers appeared: {name} had {sum(me_before)} checkers on the board and bar, now "
            f"{sum(me_after)}"
        )

    # The wrong side moved.
    if me_after == me_before:
        return f"the wrong side moved: {name} is on roll, but {opp_name}'s checkers changed"

    # A checker moved backwards: for each point, the checkers at or behind it may only fall.
    behind_before = behind_after = 0
    for index in range(24, -1, -1):  # bar, then points 24 down to 1 of the mover
        behind_before += me_before[index]
        behind_after += me_after[index]
        if behind_after > behind_before:
            where = "the bar" if index == 24 else f"point {index + 1}"
            return f"a checker moved backwards (onto {where})"

    # The opponent's checkers may only go to the bar, from points where the mover now stands.
    hit_points = []
    for point in range(1, 25):  # mover's numbering
        was, now = opp_before[24 - point], opp_after[24 - point]
        if now > was or (now < was and not (was == 1 and now == 0 and me_after[point - 1])):
            return f"{opp_name}'s checkers moved, which no play of {name} can do (on {name}'s point {point})"
        if was == 1 and now == 0:
            hit_points.append(point)
    if opp_after[24] - opp_before[24] != len(hit_points):
        return f"{opp_name}'s bar should hold the {len(hit_points)} checker(s) hit, it holds {opp_after[24]}"

    if sum(me_after) < sum(me_before):
        anything_goes = Rules(blocks=False, bar_first=False, home_to_bear_off=False, highest_for_larger=False)
        if after not in explore(before, dice, anything_goes):
            return (
                f"checkers vanished: {name} had {sum(me_before)} checkers on the board and bar, now "
                f"{sum(me_after)}, and no play of {format_dice(dice)} bears them off"
            )

    # Pips: a play moves at most the sum of its dice (four times one die for doubles).
    moved = before.pip_count(mover) - after.pip_count(mover)
    most = 4 * dice[0] if dice[0] == dice[1] else dice[0] + dice[1]
    if moved > most:
        return f"{name} moved {moved} pips, more than {format_dice(dice)} allows ({most})"

    # Which single rule, switched off, lets the move through?
    checks = (
        (Rules(bar_first=False), _bar_reason),
        (Rules(blocks=False), _block_reason),
        (Rules(home_to_bear_off=False), _home_reason),
        (Rules(highest_for_larger=False), _highest_reason),
    )
    for rules, reason in checks:
        relaxed = explore(before, dice, rules)
        if after in relaxed:
            return reason(before, relaxed[after][0])

    # Would another roll explain it?
    single = _single_journey(me_before, me_after)
    if single is not None and dice[0] != dice[1]:
        start, end, pips = single
        if pips not in (dice[0], dice[1], dice[0] + dice[1]):
            return (
                f"the move does not match the roll: it needs {pips} pips with one checker, "
                f"{format_dice(dice)} gives {dice[0]}, {dice[1]} or {dice[0] + dice[1]}"
            )
    for a in range(1, 7):
        for b in range(a, 7):
            if (a, b) != tuple(sorted(dice)) and LegalPlays(before, (a, b)).find(after):
                return f"the move does not match the roll: it is a play of {b}-{a}, the roll is {format_dice(dice)}"
    return f"no legal play of {format_dice(dice)} leads to this position (for example {_example(legal)} does not)"


def _single_journey(me_before: Sequence[int], me_after: Sequence[int]) -> tuple[int, int, int] | None:
    """``(from, to, pips)`` when exactly one checker moved between two points."""
    diff = [a - b for a, b in zip(me_after, me_before)]
    left = [i for i, d in enumerate(diff) if d < 0]
    arrived = [i for i, d in enumerate(diff) if d > 0]
    if len(left) == 1 and len(arrived) == 1 and diff[left[0]] == -1 and diff[arrived[0]] == 1:
        start, end = left[0] + 1, arrived[0] + 1
        return start, end, start - end
    return None


def _bar_reason(before: Position, moves: Sequence[tuple[int, int]]) -> str:
    return "a checker was left on the bar: it must enter before any other checker moves"


def _block_reason(before: Position, moves: Sequence[tuple[int, int]]) -> str:
    mover = before.turn
    opp = before.side(1 - mover)
    for _, t in moves:
        if t and opp[24 - t] >= 2:
            return (
                f"point {t} is blocked: {PLAYER_NAMES[1 - mover]} holds it with {opp[24 - t]} checkers "
                f"(a move passes only through open points)"
            )
    return "a blocked point was used"  # pragma: no cover - relaxed blocks only differ by landings


def _home_reason(before: Position, moves: Sequence[tuple[int, int]]) -> str:
    outside = sum(before.side(before.turn)[6:])
    return (
        f"bearing off with checkers outside the home board: all 15 must be home first "
        f"({outside} {'was' if outside == 1 else 'were'} outside)"
    )


def _highest_reason(before: Position, moves: Sequence[tuple[int, int]]) -> str:
    side = before.side(before.turn)
    for s, t in moves:
        if t == 0 and s < BAR:
            higher = [p for p in range(s + 1, 7) if side[p - 1]]
            if higher:
                return (
                    f"a number larger than the point bears off only from the highest point: "
                    f"{s}/off with a checker still on {max(higher)}"
                )
    return "a larger number bears off only from the highest point"
