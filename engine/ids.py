"""Text identifiers of positions and match states: gnubg's Position ID and Match ID, and XGID.

These are the only encoders and decoders of those formats in bgbridge.  They work on plain
tuples (gnubg's board layout) so that :mod:`engine.position` and :mod:`engine.match` can both use
them without importing each other.

A *board* here is ``(side0, side1)``, each a tuple of 25 counts in that side's own numbering:
index 0..23 are its points 1..24, index 24 its bar (gnubg's ``TanBoard``).

>>> board = decode_position_id("4HPwATDgc/ABMA")
>>> board[1][5], board[1][7], board[1][12], board[1][23]
(5, 3, 5, 2)
>>> encode_position_id(board)
'4HPwATDgc/ABMA'
"""
from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Sequence

BoardTuple = tuple[tuple[int, ...], tuple[int, ...]]

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12


class IdError(ValueError):
    """A Position ID, Match ID or XGID that cannot be read."""


# --- Position ID -------------------------------------------------------------------------

def encode_position_id(board: Sequence[Sequence[int]]) -> str:
    """The 14-character Position ID of ``board``; ``board[1]`` is the side on roll.

    gnubg's layout: the side *not* on roll first (``board[0]``), then the side on roll.
    """
    key = 0
    bit = 0
    for side in board:
        for count in side:
            # ``count`` one-bits then a zero-bit, least significant bit first.
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    if bit > 80:
        raise IdError("too many checkers for a Position ID")
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:POSITION_ID_LENGTH]


def decode_position_id(text: str) -> BoardTuple:
    """Decode a Position ID into ``(side not on roll, side on roll)``, 25 counts each.

    >>> decode_position_id("not an id")
    Traceback (most recent call last):
    ...
    engine.ids.IdError: a Position ID has 14 characters of A-Z a-z 0-9 + /, got 'not an id'
    """
    text = text.strip()
    if len(text) != POSITION_ID_LENGTH or not re.fullmatch(r"[A-Za-z0-9+/]{14}", text):
        raise IdError(f"a Position ID has 14 characters of A-Z a-z 0-9 + /, got {text!r}")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex above already filters
        raise IdError(f"bad Position ID {text!r}: {exc}") from None
    key = int.from_bytes(raw, "little")
    sides: list[tuple[int, ...]] = []
    bit = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            count = 0
            while bit < 80 and (key >> bit) & 1:
                count += 1
                bit += 1
            bit += 1  # the terminating zero
            counts.append(count)
        sides.append(tuple(counts))
    if any(sum(side) > 15 for side in sides):
        raise IdError(f"Position ID {text!r} holds more than 15 checkers for one side")
    return sides[0], sides[1]


# --- Match ID ----------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchIdFields:
    """The fields of a gnubg Match ID, in gnubg's own terms (players 0 and 1).

    ``cube_owner`` is 0, 1, or ``None`` for a centred cube; ``dice`` is ``(0, 0)`` when not
    rolled yet; ``match_length`` 0 means money play; ``game_state`` is gnubg's
    (0 no game, 1 playing, 2 over, 3 resigned, 4 dropped).

    >>> fields = MatchIdFields(cube_value=1, cube_owner=None, player_on_roll=1, crawford=False,
    ...     game_state=1, turn=1, double_offered=False, resignation=0, dice=(5, 2),
    ...     match_length=7, score=(2, 4))
    >>> decode_match_id(encode_match_id(fields)) == fields
    True
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 1
    crawford: bool = False
    game_state: int = 1
    turn: int = 1
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True


def _cube_log2(value: int) -> int:
    if value < 1 or value & (value - 1):
        raise IdError(f"cube value must be a power of two, got {value}")
    return value.bit_length() - 1


def encode_match_id(fields: MatchIdFields) -> str:
    """The 12-character gnubg Match ID of ``fields``."""
    owner = 3 if fields.cube_owner is None else fields.cube_owner
    parts = (
        (_cube_log2(fields.cube_value), 4),
        (owner, 2),
        (fields.player_on_roll, 1),
        (int(fields.crawford), 1),
        (fields.game_state, 3),
        (fields.turn, 1),
        (int(fields.double_offered), 1),
        (fields.resignation, 2),
        (fields.dice[0], 3),
        (fields.dice[1], 3),
        (fields.match_length, 15),
        (fields.score[0], 15),
        (fields.score[1], 15),
        (0 if fields.jacoby else 1, 1),  # gnubg's undocumented "no Jacoby" bit
    )
    key = 0
    bit = 0
    for value, width in parts:
        if not 0 <= value < (1 << width):
            raise IdError(f"value {value} does not fit a {width}-bit Match ID field")
        key |= value << bit
        bit += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchIdFields:
    """Decode a gnubg Match ID (12 characters)."""
    text = text.strip()
    if len(text) != MATCH_ID_LENGTH or not re.fullmatch(r"[A-Za-z0-9+/]{12}", text):
        raise IdError(f"a Match ID has 12 characters of A-Z a-z 0-9 + /, got {text!r}")
    key = int.from_bytes(base64.b64decode(text), "little")
    values = []
    bit = 0
    for width in (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1):
        values.append((key >> bit) & ((1 << width) - 1))
        bit += width
    (cube, owner, on_roll, crawford, state, turn, doubled, resign, d0, d1,
     length, score0, score1, no_jacoby) = values
    return MatchIdFields(
        cube_value=1 << cube,
        cube_owner=None if owner == 3 else owner,
        player_on_roll=on_roll,
        crawford=bool(crawford),
        game_state=state,
        turn=turn,
        double_offered=bool(doubled),
        resignation=resign,
        dice=(d0, d1),
        match_length=length,
        score=(score0, score1),
        jacoby=not no_jacoby,
    )


# --- XGID -------------------------------------------------------------------------------

@dataclass(frozen=True)
class XgidFields:
    """An eXtreme Gammon position ID, in gnubg's player terms: X is player 1, O is player 0.

    ``board`` is in gnubg's layout ``(O's 25 counts, X's 25 counts)`` regardless of who is on
    roll; ``turn`` is the player to act; ``dice`` is ``(0, 0)`` before the roll and ``None``
    when a double has been offered ("D"); ``score`` is ``(O's, X's)``.
    For money play (``match_length == 0``) ``jacoby`` and ``beaver`` come from the flags field;
    in a match ``crawford`` does.
    """

    board: BoardTuple
    turn: int = 1
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] | None = (0, 0)
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    match_length: int = 0
    max_cube: int = 10


_XGID_RE = re.compile(r"(?:XGID=)?([-A-Pa-p]{26})((?::[^:]*){0,9})")


def encode_xgid(fields: XgidFields) -> str:
    """Write an XGID (gnubg reads XGIDs but cannot write them).

    >>> from engine.ids import decode_position_id
    >>> o, x = decode_position_id("4HPwATDgc/ABMA")
    >>> encode_xgid(XgidFields(board=(o, x), match_length=7))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10'
    """
    o_side, x_side = fields.board
    chars = []
    for i in range(26):
        # char 0: O's bar; chars 1..24: X's points 1..24; char 25: X's bar
        if i == 0:
            x_count, o_count = 0, o_side[24]
        elif i == 25:
            x_count, o_count = x_side[24], 0
        else:
            x_count, o_count = x_side[i - 1], o_side[24 - i]
        if x_count and o_count:
            raise IdError(f"both sides have checkers on X's point {i}")
        if x_count:
            chars.append(chr(ord("A") + x_count - 1))
        elif o_count:
            chars.append(chr(ord("a") + o_count - 1))
        else:
            chars.append("-")
    cube_pos = 0 if fields.cube_owner is None else (1 if fields.cube_owner == 1 else -1)
    turn = 1 if fields.turn == 1 else -1
    if fields.dice is None:
        dice = "D"
    else:
        dice = f"{fields.dice[0]}{fields.dice[1]}"
    if fields.match_length:
        flags = int(fields.crawford)
    else:
        flags = int(fields.jacoby) | (int(fields.beaver) << 1)
    return (
        "XGID=" + "".join(chars)
        + f":{_cube_log2(fields.cube_value)}:{cube_pos}:{turn}:{dice}"
        + f":{fields.score[1]}:{fields.score[0]}:{flags}:{fields.match_length}:{fields.max_cube}"
    )


def decode_xgid(text: str) -> XgidFields:
    """Read an XGID; fields left out take their defaults.

    >>> f = decode_xgid("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:52:3:2:0:7:10")
    >>> f.turn, f.cube_value, f.cube_owner, f.dice, f.score, f.match_length
    (0, 2, 0, (5, 2), (2, 3), 7)
    """
    match = _XGID_RE.fullmatch(text.strip())
    if not match:
        raise IdError(
            f"an XGID is 'XGID=' then 26 characters of - A-P a-p then ':'-separated fields, got {text!r}"
        )
    chars = match.group(1)
    fields = match.group(2).split(":")[1:]
    x_side = [0] * 25
    o_side = [0] * 25
    for i, ch in enumerate(chars):
        if ch == "-":
            continue
        if "A" <= ch <= "P":
            count, side, index = ord(ch) - ord("A") + 1, x_side, (24 if i == 25 else i - 1)
            if i == 0:
                raise IdError("an XGID's first character is O's bar: it cannot hold X's checkers")
        else:
            count, side, index = ord(ch) - ord("a") + 1, o_side, (24 if i == 0 else 24 - i)
            if i == 25:
                raise IdError("an XGID's last character is X's bar: it cannot hold O's checkers")
        side[index] = count

    def number(pos: int, default: int) -> int:
        if pos >= len(fields) or fields[pos] == "":
            return default
        try:
            return int(fields[pos])
        except ValueError:
            raise IdError(f"XGID field {pos + 1} should be a number, got {fields[pos]!r}") from None

    cube_log = number(0, 0)
    if not 0 <= cube_log <= 15:
        raise IdError(f"XGID cube value 2^{cube_log} is out of range")
    cube_pos = number(1, 0)
    turn = number(2, 1)
    if cube_pos not in (-1, 0, 1) or turn not in (-1, 1):
        raise IdError("XGID cube position must be -1, 0 or 1 and turn 1 or -1")
    dice_text = fields[3] if len(fields) > 3 else "00"
    dice: tuple[int, int] | None
    if dice_text.upper() in ("D", "B", "R"):
        dice = None
    elif re.fullmatch(r"[0-6]{2}", dice_text) and (dice_text == "00" or "0" not in dice_text):
        dice = (int(dice_text[0]), int(dice_text[1]))
    else:
        raise IdError(f"XGID dice must be '00', 'D' or two digits 1-6, got {dice_text!r}")
    flags = number(6, 0)
    length = number(7, 0)
    return XgidFields(
        board=(tuple(o_side), tuple(x_side)),
        turn=1 if turn == 1 else 0,
        cube_value=1 << cube_log,
        cube_owner=None if cube_pos == 0 else (1 if cube_pos == 1 else 0),
        dice=dice,
        score=(number(5, 0), number(4, 0)),
        crawford=bool(flags & 1) if length else False,
        jacoby=bool(flags & 1) if not length else False,
        beaver=bool(flags & 2) if not length else False,
        match_length=length,
        max_cube=number(8, 10),
    )
