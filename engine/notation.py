"""Move notation of the FFBG rules, written and read: ``24/18 13/11``, ``24/16``, ``13/10(2)``,
``13/9*``, ``bar/21``, ``5/O`` or ``5/off``, ``13/11*/9``.

Points are numbered from the mover's side (it moves from 24 towards 1), or, with
``absolute=True``, in the absolute numbering of the web game's rules, which is ``X``'s own:
``O``'s point ``p`` is absolute point ``25 - p``.  The bar is ``bar`` (or ``25``, ``b``); borne
off is ``off`` (or ``O``, ``0``).

>>> from engine.position import Position, O
>>> start = Position.start()
>>> str(parse_play(start, (6, 2), "24/18 13/11"))
'24/18 13/11'
>>> str(parse_play(start, (3, 3), "13/10 (2) 24/21(2)"))
'24/21(2) 13/10(2)'
>>> parse_play(start.with_turn(O), (6, 2), "1/7 12/14", absolute=True).notation(absolute=True)
'1/7 12/14'
>>> parse_play(start, (6, 2), "24/18 13/12")
Traceback (most recent call last):
...
engine.notation.NotationError: 13/12 moves 1 pip, which neither die (6-2) gives (at column 7 of '24/18 13/12')
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from engine.movegen import LegalPlays, Move, Play, check_dice, DiceError
from engine.position import BAR, OFF, Position, absolute_point


class NotationError(ValueError):
    """Notation that cannot be read, or that names a play the rules do not allow."""


# --- dice --------------------------------------------------------------------------------

_DICE_RE = re.compile(r"\s*\[?\s*([1-6])\s*[-,:/ ]?\s*([1-6])\s*\]?\s*:?\s*")


def parse_dice(text: str) -> tuple[int, int]:
    """``"62"``, ``"6-2"``, ``"6 2"``, ``"6,2"`` all give ``(6, 2)``.

    >>> parse_dice("6-2"), parse_dice("11")
    ((6, 2), (1, 1))
    >>> parse_dice("7-2")
    Traceback (most recent call last):
    ...
    engine.notation.NotationError: dice are two numbers from 1 to 6 like 62 or 6-2, got '7-2'
    """
    match = _DICE_RE.fullmatch(text)
    if not match:
        raise NotationError(f"dice are two numbers from 1 to 6 like 62 or 6-2, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def format_dice(dice: Sequence[int]) -> str:
    """``(6, 2)`` gives ``'6-2'``."""
    return f"{dice[0]}-{dice[1]}"


# --- writing -----------------------------------------------------------------------------

def _chains(moves: Sequence[Move], hits: Sequence[bool]) -> list[list[tuple[int, bool]]]:
    """Join the steps of one checker: ``[(24, False), (18, False), (16, False)]`` for 24/18 18/16.

    Steps are taken from the highest source down, so a checker's later steps come after its
    earlier ones; a step continues the first chain that ends where it starts.
    """
    order = sorted(range(len(moves)), key=lambda i: -moves[i][0])
    chains: list[list[tuple[int, bool]]] = []
    for i in order:
        s, t = moves[i]
        for chain in chains:
            if chain[-1][0] == s and s != OFF:
                chain.append((t, hits[i]))
                break
        else:
            chains.append([(s, False), (t, hits[i])])
    return chains


def _point_text(point: int, mover: int, absolute: bool, off: str) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return off
    return str(absolute_point(mover, point) if absolute else point)


def format_moves(
    moves: Sequence[Move],
    hits: Sequence[bool],
    mover: int,
    absolute: bool = False,
    off: str = "off",
) -> str:
    """Notation of single-die steps (see :func:`format_play`)."""
    # Journeys of several checkers between the same points are written once with a count; a
    # hit by any of them marks the shared point (``13/9*(2)``), as gnubg writes it.
    journeys: dict[tuple[int, ...], list] = {}
    for chain in _chains(moves, hits):
        points = tuple(point for point, _ in chain)
        entry = journeys.setdefault(points, [0, [False] * len(chain)])
        entry[0] += 1
        entry[1] = [a or b for a, (_, b) in zip(entry[1], chain)]
    out = []
    for points, (count, hit_marks) in journeys.items():
        last = len(points) - 1
        text = [_point_text(points[0], mover, absolute, off)]
        for i in range(1, len(points)):
            # Intermediate points are shown only where a checker hit on its way.
            if i == last or hit_marks[i]:
                text.append(_point_text(points[i], mover, absolute, off) + ("*" if hit_marks[i] else ""))
        part = "/".join(text)
        out.append(part if count == 1 else f"{part}({count})")
    return " ".join(out)


def format_play(play: Play, absolute: bool = False, off: str = "off", with_dice: bool = False) -> str:
    """The FFBG notation of ``play``: steps of one checker joined (``24/16``), a hit on the way
    shown (``13/11*/9``), repeated moves counted (``13/10(2)``), highest starting point first.

    >>> from engine.position import Position
    >>> pos = Position.from_points(x={13: 2, 6: 1}, o={16: 1, 24: 2})
    >>> sorted(format_play(p, with_dice=True) for p in pos.legal_plays((2, 2)))[:4]
    ['2-2 13/11(2) 6/2', '2-2 13/9* 13/11 6/4', '2-2 13/9* 6/2', '2-2 13/9*(2)']
    >>> format_play(next(iter(Position.from_points(x={5: 4}).legal_plays((5, 5)))), off="O")
    '5/O(4)'
    """
    text = format_moves(play.moves, play.hits, play.mover, absolute, off)
    if with_dice:
        return f"{format_dice(play.dice)} {text}".rstrip()
    return text


# --- reading -----------------------------------------------------------------------------

_TOKEN_RE = re.compile(r"\S+")
_POINT_RE = re.compile(r"(bar|b|off|o|\d{1,2})(\*?)", re.IGNORECASE)
_COUNT_RE = re.compile(r"\((\d)\)")


def _error(message: str, text: str, column: int) -> NotationError:
    return NotationError(f"{message} (at column {column + 1} of {text!r})")


def _parse_point(word: str, text: str, column: int, mover: int, absolute: bool, first: bool) -> int:
    low = word.lower()
    if low in ("bar", "b"):
        point = BAR
    elif low in ("off", "o"):
        point = OFF
    else:
        number = int(word)
        if number == 25 and first:
            point = BAR
        elif number == 0 and not first:
            point = OFF
        elif 1 <= number <= 24:
            point = absolute_point(mover, number) if absolute else number
        else:
            raise _error(f"no point {word}: points are 1-24, bar and off", text, column)
    if first and point == OFF:
        raise _error("a move cannot start from off", text, column)
    if not first and point == BAR:
        raise _error("a move cannot end on the bar", text, column)
    return point


def _parse_chains(
    text: str, mover: int, absolute: bool
) -> tuple[tuple[int, int] | None, list[tuple[list[tuple[int, bool]], int, int]]]:
    """Split notation into an optional roll and chains ``([(point, hit)...], count, column)``."""
    dice = None
    chains: list[tuple[list[tuple[int, bool]], int, int]] = []
    for index, match in enumerate(_TOKEN_RE.finditer(text)):
        word, column = match.group(), match.start()
        if index == 0 and "/" not in word and _DICE_RE.fullmatch(word):
            dice = parse_dice(word)
            continue
        count_match = _COUNT_RE.fullmatch(word)
        if count_match:
            if not chains:
                raise _error(f"{word} must follow a move", text, column)
            points, count, col = chains[-1]
            chains[-1] = (points, count * int(count_match.group(1)), col)
            continue
        count = 1
        tail = re.search(r"\((\d)\)$", word)
        if tail:
            count = int(tail.group(1))
            word = word[: tail.start()]
        pieces = word.split("/")
        if len(pieces) < 2:
            raise _error(f"{word!r} is not a move like 24/18", text, column)
        points: list[tuple[int, bool]] = []
        offset = column
        for i, piece in enumerate(pieces):
            found = _POINT_RE.fullmatch(piece)
            if not found:
                raise _error(f"{piece!r} is not a point (1-24, bar, off)", text, offset)
            point = _parse_point(found.group(1), text, offset, mover, absolute, first=(i == 0))
            if i == 0 and found.group(2):
                raise _error("a hit mark belongs after the point the checker lands on", text, offset)
            if i and point >= points[-1][0]:
                raise _error(f"{word} moves backwards", text, column)
            points.append((point, bool(found.group(2))))
            offset += len(piece) + 1
        if count < 1 or count > 4:
            raise _error(f"a move is repeated 1 to 4 times, got ({count})", text, column)
        chains.append((points, count, column))
    return dice, chains


def parse_play(
    position: Position,
    dice: Sequence[int] | None,
    text: str,
    absolute: bool = False,
) -> Play:
    """The legal play of ``dice`` that ``text`` names, for the side on roll in ``position``.

    ``text`` may start with the roll (``6-2 24/18 13/11``); with ``dice=None`` it must.  The
    play may be written in any legal way: ``24/16``, ``24/18/16`` and ``24/18 18/16`` are one
    play; a hit mark on the landing point may be left out.  Raises :class:`NotationError` saying
    what and where when the text cannot be read or names no legal play.

    >>> from engine.position import Position
    >>> parse_play(Position.start(), None, "6-2 24/16").moves
    ((24, 18), (18, 16))
    """
    mover = position.turn
    text_dice, chains = _parse_chains(text, mover, absolute)
    if dice is None:
        if text_dice is None:
            raise NotationError(f"no roll given: write it first, like '6-2 {text.strip()}'")
        dice = text_dice
    try:
        dice = check_dice(dice)
    except DiceError as exc:
        raise NotationError(str(exc)) from None
    if text_dice is not None and sorted(text_dice) != sorted(dice):
        raise NotationError(f"the text says {format_dice(text_dice)} but the roll is {format_dice(dice)}")
    legal = LegalPlays(position, dice)
    if not chains:
        if not legal:
            return Play(position, dice, ())
        raise NotationError(
            f"no move given, but {format_dice(dice)} can be played (for example {next(iter(legal))})"
        )
    steps_wanted = _segments(chains, dice, text)
    play = legal.find(_literal_result(position, chains, text))
    if play is None:
        # Hit marks aside, does exactly one legal play move these checkers so?
        candidates = [p for p in legal if _endpoints(p) == steps_wanted]
        if len(candidates) == 1:
            play = candidates[0]
        elif len(candidates) > 1:
            options = " or ".join(sorted(str(p) for p in candidates))
            raise NotationError(f"{text.strip()!r} could mean {options}: mark the hits with *")
    if play is None:
        if not legal:
            raise NotationError(f"no move is possible with {format_dice(dice)}: the side on roll dances")
        raise NotationError(f"{text.strip()!r} is not a legal play of {format_dice(dice)} here")
    hit_points = {t for (_, t), hit in zip(play.moves, play.hits) if hit}
    for points, _, column in chains:
        for point, marked in points[1:]:
            if marked and point not in hit_points:
                raise _error(f"nothing is hit on {_show(point)}: no single opposing checker there", text, column)
    return play


def _segments(chains: list, dice: tuple[int, int], text: str) -> Counter:
    """Checker journeys ``(from, to)`` with their counts, checked against the dice."""
    wanted: Counter = Counter()
    biggest = max(dice)
    most_pips = sum(dice) * (2 if dice[0] == dice[1] else 1)
    for points, count, column in chains:
        start, end = points[0][0], points[-1][0]
        for (a, _), (b, _) in zip(points, points[1:]):
            pips = a - b
            if b != OFF and dice[0] != dice[1] and pips not in (dice[0], dice[1], sum(dice)):
                raise _error(
                    f"{_show(a)}/{_show(b)} moves {pips} pip{'s' if pips != 1 else ''}, which "
                    f"neither die ({format_dice(dice)}) gives",
                    text,
                    column,
                )
            if b != OFF and dice[0] == dice[1] and pips % dice[0]:
                raise _error(
                    f"{_show(a)}/{_show(b)} moves {pips} pips, not a multiple of {dice[0]}", text, column
                )
            if b == OFF and pips > most_pips and pips > biggest:
                raise _error(f"{_show(a)}/off needs more than {format_dice(dice)}", text, column)
        wanted[(start, end)] += count
    return wanted


def _show(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _literal_result(position: Position, chains: list, text: str) -> Position:
    """The position the chains lead to, each written step taken as one jump (a blot on a
    written point is hit)."""
    from engine.movegen import apply_moves
    from engine.position import PositionError

    result = position
    for points, count, column in chains:
        steps = [(a, b) for (a, _), (b, _) in zip(points, points[1:])] * count
        try:
            result, _ = apply_moves(result, steps)
        except PositionError as exc:
            raise _error(str(exc), text, column) from None
    return result


def _endpoints(play: Play) -> Counter:
    return Counter((chain[0][0], chain[-1][0]) for chain in _chains(play.moves, play.hits))
