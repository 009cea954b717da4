"""Jellyfish match files (``.mat``), read and written, like python-chess's ``pgn`` beside its board.

The writer produces what gnubg 1.07's ``export match mat`` writes (columns, trailing spaces and
all).  The reader does not trust columns: it splits each line into tokens, so files from other
programs (other column widths, dice written low-high, ``bar``/``off`` or ``25``/``0``,
``Wins 3 points and the match``, ``Illegal play`` lines, ``????`` for an unknown roll) read too.

Player ``O`` (gnubg's player 0) is the left column, ``X`` (player 1) the right one.  Each entry's
player follows from the game itself (who is on roll, who was doubled), so the reader only looks at
columns for the very first entry of a game, to see who opened.

Reading is two steps: :func:`parse_mat` turns the text into :class:`MatFile` (tokens, no rules),
then :func:`build_match` replays it into an :class:`engine.match.Match`, checking every play with
the engine; :func:`read_mat` does both.  Errors are :class:`MatError` naming the line, game and
move number.

>>> text = '''
...  3 point match
...
...  Game 1
...  Olga : 0                       Xavier : 0
...   1)                             31: 8/5 6/5
...   2) 62: 24/18 13/11              Doubles => 2
...   3)  Drops                       Wins 1 point
... '''
>>> match = read_mat(text)
>>> match.players[X], match.score[X], match.game.result.reason
('Xavier', 1, 'drop')
>>> print(write_mat(match))  # doctest: +NORMALIZE_WHITESPACE
 3 point match
<BLANKLINE>
 Game 1
 Olga : 0                       Xavier : 0
  1)                             31: 8/5 6/5
  2) 62: 24/18 13/11              Doubles => 2
  3)  Drops                       Wins 1 point
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from engine.match import (
    AcceptResign,
    Double,
    Drop,
    GameError,
    Match,
    Move,
    OpeningRoll,
    Resign,
    Roll,
    SetBoard,
    Take,
    force_steps,
    DOUBLED,
    MOVE,
    RESIGNED,
    ROLL,
)
from engine.position import BAR, O, OFF, X, Position, PositionError, other, player_name
from engine.textfile import decode_text


class MatError(ValueError):
    """A ``.mat`` file that cannot be read, or that records something the rules refuse.

    ``line`` counts from 1; ``game`` from 1; ``move`` is the move number of the file's
    ``N)`` column.
    """

    def __init__(self, message: str, *, line: int | None = None, game: int | None = None,
                 move: int | None = None) -> None:
        self.message = message
        self.line = line
        self.game = game
        self.move = move
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move is not None:
            where.append(f"move {move}")
        if line is not None:
            where.append(f"line {line}")
        super().__init__((", ".join(where) + ": " if where else "") + message)


# --- the token-level file --------------------------------------------------------------------

@dataclass
class MatEntry:
    """One cell of a game's move list.

    ``kind`` is ``"play"`` (``dice`` and ``steps``; no steps when the player could not move),
    ``"double"`` (``value``), ``"take"``, ``"drop"``, ``"wins"`` (``value`` = points),
    ``"unknown"`` (``????``) or ``"illegal"`` (an ``Illegal play`` note with ``text``).
    ``steps`` are ``(from, to, hit)`` in the mover's numbering (25 bar, 0 off).
    """

    kind: str
    line: int
    move: int | None
    column: int
    dice: tuple[int, int] | None = None
    steps: tuple[tuple[int, int, bool], ...] = ()
    value: int = 0
    text: str = ""


@dataclass
class MatGame:
    number: int
    line: int
    score: dict[int, int]
    entries: list[MatEntry] = field(default_factory=list)


@dataclass
class MatFile:
    length: int
    headers: dict[str, str]
    names: dict[int, str]
    games: list[MatGame]
    comments: list[str] = field(default_factory=list)


_HEADER_RE = re.compile(r';\s*\[\s*([A-Za-z0-9_ ]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH_RE = re.compile(r"^\s*(\d+)\s+points?\s+match\b", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE_RE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_MOVE_NO_RE = re.compile(r"^\s*(\d+)\)")
_DICE_RE = re.compile(r"^([1-6])([1-6]):$")
_STEP_RE = re.compile(r"^(bar|\d{1,2})((?:/(?:off|\d{1,2})\*?)+)(?:\((\d)\))?$", re.IGNORECASE)
#: Lines longer than this are not a match file's (a 10 MB line must not be tokenised).
MAX_LINE = 4000


def _parse_steps(words: list[str], line: int, move: int | None) -> tuple[tuple[int, int, bool], ...]:
    steps: list[tuple[int, int, bool]] = []
    for word in words:
        m = _STEP_RE.match(word)
        if not m:
            raise MatError(f"cannot read the move {word!r}", line=line, move=move)
        start = BAR if m.group(1).lower() == "bar" else int(m.group(1))
        chain = []
        for part in m.group(2).split("/")[1:]:
            hit = part.endswith("*")
            part = part.rstrip("*")
            end = OFF if part.lower() == "off" else int(part)
            chain.append((end, hit))
        repeat = int(m.group(3) or 1)
        for _ in range(repeat):
            src = start
            for end, hit in chain:
                if not (0 <= end <= 25 and 0 <= src <= 25):
                    raise MatError(f"{word!r}: points are 0 (off) to 25 (bar)", line=line, move=move)
                steps.append((src, end, hit))
                src = end
    return tuple(steps)


def _tokens(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]


def _entries(text: str, line: int, move: int | None, offset: int) -> list[MatEntry]:
    """The cells of one move line (after its ``N)``), by tokens."""
    tokens = _tokens(text)
    entries: list[MatEntry] = []
    i = 0
    while i < len(tokens):
        col, tok = tokens[i]
        col += offset
        low = tok.lower()
        dice = _DICE_RE.match(tok)
        if dice:
            j = i + 1
            words = []
            while j < len(tokens) and _STEP_RE.match(tokens[j][1]):
                words.append(tokens[j][1])
                j += 1
            entries.append(MatEntry("play", line, move, col, dice=(int(dice.group(1)), int(dice.group(2))),
                                    steps=_parse_steps(words, line, move)))
            i = j
        elif low == "doubles":
            j = i + 1
            value = 0
            if j < len(tokens) and tokens[j][1] == "=>":
                j += 1
            if j < len(tokens) and tokens[j][1].isdigit():
                value = int(tokens[j][1])
                j += 1
            entries.append(MatEntry("double", line, move, col, value=value))
            i = j
        elif low in ("takes", "accepts"):
            entries.append(MatEntry("take", line, move, col))
            i += 1
        elif low in ("drops", "passes", "refuses", "rejects"):
            entries.append(MatEntry("drop", line, move, col))
            i += 1
        elif low == "wins":
            if i + 1 >= len(tokens) or not tokens[i + 1][1].isdigit():
                raise MatError(f"'Wins' needs a number of points: {text.strip()!r}", line=line, move=move)
            entries.append(MatEntry("wins", line, move, col, value=int(tokens[i + 1][1])))
            i += 2
            # "point(s)", "and the match": words that carry nothing we need.
            while i < len(tokens) and tokens[i][1].lower().strip(".") in ("point", "points", "and", "the", "match"):
                i += 1
        elif tok.startswith("????"):
            entries.append(MatEntry("unknown", line, move, col))
            i += 1
        elif low == "illegal" and i + 1 < len(tokens) and tokens[i + 1][1].lower() == "play":
            rest = text[tokens[i][0]:]
            m = re.match(r"Illegal\s+play\s*\(([^)]*)\)", rest, re.IGNORECASE)
            note = m.group(1) if m else ""
            entries.append(MatEntry("illegal", line, move, col, text=note))
            consumed = tokens[i][0] + (m.end() if m else len("Illegal play"))
            i += 2
            while i < len(tokens) and tokens[i][0] < consumed:
                i += 1
        else:
            raise MatError(f"cannot read {tok!r} in {text.strip()!r}", line=line, move=move)
    return entries


def parse_mat(data: bytes | str) -> MatFile:
    """Split a ``.mat`` text into headers, games and entries; no rules are checked here.

    >>> f = parse_mat(" 1 point match\\n\\n Game 1\\n a : 0    b : 0\\n  1) 31: 8/5 6/5  42: 8/4 6/4\\n")
    >>> f.length, f.names, [(e.kind, e.dice, e.steps) for e in f.games[0].entries]
    (1, {0: 'a', 1: 'b'}, [('play', (3, 1), ((8, 5, False), (6, 5, False))), ('play', (4, 2), ((8, 4, False), (6, 4, False)))])
    >>> parse_mat("hello")
    Traceback (most recent call last):
    ...
    engine.matfile.MatError: line 1: expected ' N point match' before anything else, got 'hello'
    """
    text = decode_text(data, "a .mat", MatError)
    headers: dict[str, str] = {}
    comments: list[str] = []
    names: dict[int, str] = {}
    games: list[MatGame] = []
    length: int | None = None
    game: MatGame | None = None
    expect_score = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE:
            raise MatError(f"a line of {len(raw)} characters: not a match file", line=number)
        line = raw.rstrip()
        if not line.strip():
            continue
        stripped = line.strip()
        if stripped.startswith(";"):
            m = _HEADER_RE.match(stripped)
            if m:
                headers[m.group(1).strip()] = m.group(2)
            else:
                comments.append(stripped[1:].strip())
            continue
        if length is None:
            m = _LENGTH_RE.match(line)
            if not m:
                raise MatError(f"expected ' N point match' before anything else, got {stripped[:60]!r}",
                               line=number)
            length = int(m.group(1))
            continue
        m = _GAME_RE.match(line)
        if m:
            game = MatGame(int(m.group(1)), number, {O: 0, X: 0})
            games.append(game)
            expect_score = True
            continue
        if game is None:
            raise MatError(f"expected ' Game 1', got {stripped[:60]!r}", line=number)
        if expect_score:
            expect_score = False
            m = _SCORE_RE.match(line)
            if not m:
                raise MatError(f"expected the score line 'name : points   name : points', got {stripped[:60]!r}",
                               line=number, game=game.number)
            left, right = m.group(1).strip(), m.group(3).strip()
            game.score = {O: int(m.group(2)), X: int(m.group(4))}
            if not games[:-1]:
                names = {O: left, X: right}
            continue
        m = _MOVE_NO_RE.match(line)
        if m:
            move = int(m.group(1))
            body_start = m.end()
            game.entries.extend(_entries(line[body_start:], number, move, body_start))
        else:
            # "Wins N points" on a line of its own, or a continuation.
            game.entries.extend(_entries(line, number, game.entries[-1].move if game.entries else None, 0))
    if length is None:
        raise MatError("empty file: no ' N point match' line")
    return MatFile(length, headers, names, games, comments)


# --- replaying into a Match -------------------------------------------------------------------

#: ``.mat`` header keys we keep in ``Match.info`` (and write back).
HEADER_KEYS = ("Site", "Event", "Round", "EventDate", "Transcriber")

ErrorHandler = Callable[[MatError], None]


def _snowie_board(note: str) -> tuple[Position, int] | None:
    """The position of a Snowie text record (``Illegal play (...)``), if readable: fields
    separated by ``;``; field 4 the player on roll (0 first), 12 its bar, 13..36 its points 1..24
    (its checkers positive), 37 the opponent's bar."""
    fields = note.split(";")
    if len(fields) < 38:
        return None
    try:
        on_roll = int(fields[4])
        counts = [int(fields[12])] + [int(v) for v in fields[13:37]] + [int(fields[37])]
    except ValueError:
        return None
    turn = O if on_roll == 0 else X
    try:
        return Position.from_simple(counts, turn=turn), turn
    except PositionError:
        return None


def build_match(mat: MatFile, on_error: ErrorHandler | None = None) -> Match:
    """Replay ``mat`` into a :class:`Match`, checking every play with the engine.

    Without ``on_error`` the first problem raises :class:`MatError`.  With it (``bgbridge replay
    --check``), each problem is handed to ``on_error`` and the replay goes on where it can: an
    illegal play is applied step by step as written when the checkers allow it, else the rest of
    that game is skipped.
    """
    match = Match(mat.length, players=mat.names or None,
                  info={k: v for k, v in mat.headers.items() if k in HEADER_KEYS})

    def fail(error: MatError) -> None:
        if on_error is None:
            raise error
        on_error(error)

    for mgame in mat.games:
        try:
            _build_game(match, mgame, fail, lenient=on_error is not None)
        except _SkipGame:
            continue
    return match


class _SkipGame(Exception):
    pass


def _check_score(match: Match, mgame: MatGame, fail: Callable[[MatError], None]) -> None:
    if mgame.score != match.score:
        fail(MatError(
            f"the file's score {mgame.score[O]}-{mgame.score[X]} does not follow from the games before "
            f"({match.score[O]}-{match.score[X]})", line=mgame.line, game=mgame.number))


def _build_game(match: Match, mgame: MatGame, fail: Callable[[MatError], None], lenient: bool) -> None:
    if match.game is not None and not match.game.over:
        fail(MatError("the game before this one has no end (no 'Wins' line)", line=mgame.line,
                      game=mgame.number))
        if not lenient:
            return
        _abandon(match)
    if match.over:
        fail(MatError("the match was already over before this game", line=mgame.line, game=mgame.number))
        raise _SkipGame
    _check_score(match, mgame, fail)
    if lenient and mgame.score != match.score:
        match.score = dict(mgame.score)
    entries = [e for e in mgame.entries]
    if not entries:
        fail(MatError("a game without moves", line=mgame.line, game=mgame.number))
        raise _SkipGame
    first = entries[0]
    if first.kind != "play" or first.dice is None:
        fail(MatError("a game starts with a roll", line=first.line, game=mgame.number, move=first.move))
        raise _SkipGame
    # Who opened: the right column (X) when the first cell sits past the middle of the line.
    starter = X if first.column >= 20 else O
    hi, lo = first.dice
    if hi == lo:
        fail(MatError(f"the opening roll cannot be a double ({hi}{lo})", line=first.line,
                      game=mgame.number, move=first.move))
        raise _SkipGame
    winner_die, loser_die = max(hi, lo), min(hi, lo)
    opening = OpeningRoll(x=winner_die, o=loser_die) if starter == X else OpeningRoll(x=loser_die, o=winner_die)

    def where(entry: MatEntry) -> dict:
        return {"line": entry.line, "game": mgame.number, "move": entry.move}

    match.apply(opening)
    game = match.game
    assert game is not None
    for index, entry in enumerate(entries):
        if game.over:
            if entry.kind == "wins":
                result = game.result
                assert result is not None
                if entry.value != result.points:
                    fail(MatError(f"the file says {player_name(result.winner)} wins {entry.value} "
                                  f"point(s); the game gives {result.points}", **where(entry)))
                continue
            fail(MatError(f"'{_entry_text(entry)}' after the end of the game ({game.result})", **where(entry)))
            return
        try:
            if entry.kind == "play":
                assert entry.dice is not None
                if index > 0:
                    if game.phase == ROLL:
                        match.apply(Roll(game.turn, entry.dice))
                    elif game.phase != MOVE:
                        raise GameError(f"a roll, but {game._what_now()}")
                elif sorted(entry.dice) != sorted(game.dice or ()):
                    raise GameError("the opening roll does not match")
                if index + 1 < len(entries) and entries[index + 1].kind == "illegal" and not entry.steps:
                    continue  # the dice of a play corrected by hand: the note that follows sets the board
                mover = game.turn
                text = " ".join(f"{s}/{d}{'*' if h else ''}" for s, d, h in entry.steps)
                try:
                    match.apply(Move(mover, _notation(game.position, game.dice, entry.steps, text)))
                except GameError as exc:
                    assert game.dice is not None
                    reason = engine_reason(game.position, game.dice, entry.steps) or str(exc)
                    fail(MatError(f"{player_name(mover)} plays {game.dice_text()}: {text or '(no move)'}: "
                                  f"{reason}", **where(entry)))
                    if not force_steps(match, [(s, d) for s, d, _ in entry.steps]):
                        fail(MatError("the rest of this game cannot be replayed", **where(entry)))
                        raise _SkipGame
            elif entry.kind == "double":
                match.apply(Double(game.turn))
                if entry.value and entry.value != game.cube_value * 2:
                    fail(MatError(f"the file doubles to {entry.value}; the cube is at {game.cube_value}",
                                  **where(entry)))
            elif entry.kind == "take":
                match.apply(Take(game.turn))
            elif entry.kind == "drop":
                match.apply(Drop(game.turn))
            elif entry.kind == "wins":
                _resignation(match, entry, mgame, fail)
            elif entry.kind == "unknown":
                if all(e.kind in ("unknown", "wins") for e in entries[index:]):
                    continue  # a roll not shown before a resignation: nothing to replay
                raise GameError("an unknown roll (????) in the middle of a game: "
                                "the position after it cannot be known")
            elif entry.kind == "illegal":
                board = _snowie_board(entry.text)
                if board is None:
                    raise GameError(f"cannot read the position of the 'Illegal play' note {entry.text[:40]!r}")
                position, _ = board
                following = other(game.turn) if game.phase == MOVE else game.turn
                match.apply(SetBoard(following, position.with_turn(following).position_id()))
        except GameError as exc:
            fail(MatError(str(exc), **where(entry)))
            raise _SkipGame from None
    # A last game without an end is a match still being played; the caller decides.


def _entry_text(entry: MatEntry) -> str:
    return {"play": f"{entry.dice[0]}{entry.dice[1]}:" if entry.dice else "roll", "double": "Doubles",
            "take": "Takes", "drop": "Drops", "wins": f"Wins {entry.value}", "unknown": "????",
            "illegal": "Illegal play"}[entry.kind]


def _notation(position: Position, dice: tuple[int, int] | None, steps, text: str) -> str:
    """Our notation for the play the file's steps make (the engine's canonical text), or the
    file's text when it does not name a legal play (the game then says why)."""
    if not steps or dice is None:
        return ""
    play = position.legal_plays(dice).find_moves([(s, d) for s, d, _ in steps])
    return str(play) if play is not None else text


def engine_reason(position: Position, dice: tuple[int, int], steps) -> str | None:
    """The referee's (:func:`engine.judge.judge`) reason why ``steps`` (``(from, to)``, as a file
    writes them) are not a legal play of ``dice``, or ``None`` when they are one."""
    from engine.judge import judge
    from engine.movegen import apply_moves

    try:
        after, _ = apply_moves(position, [(s, d) for s, d, *_ in steps])
    except PositionError as exc:
        return str(exc)
    verdict = judge(position, after, dice)
    if verdict.legal and verdict.finished:
        return None
    if verdict.legal:
        return "the play is not complete (" + verdict.reason.removeprefix("unfinished: ") + ")"
    return verdict.reason


def _resignation(match: Match, entry: MatEntry, mgame: MatGame, fail: Callable[[MatError], None]) -> None:
    game = match.game
    assert game is not None
    # The winner is the side whose column holds "Wins"; a lone "Wins" line after a left-column
    # cell (6 spaces in) belongs to the left player, the one 34 spaces in to the right.
    winner = X if entry.column >= 20 else O
    loser = other(winner)
    kind, rest = divmod(entry.value, game.cube_value)
    if game.phase == DOUBLED:
        raise GameError("'Wins' while a double waits for an answer")
    if rest or kind not in (1, 2, 3):
        raise GameError(f"{player_name(winner)} wins {entry.value} with the cube at {game.cube_value}: "
                        "not a single game, gammon or backgammon")
    # The file only says who won: the resignation comes from the side that lost.
    match.apply(Resign(loser, kind))
    match.apply(AcceptResign(winner))


def _abandon(match: Match) -> None:
    """Lenient replay only: close an unfinished game as if its last side to act resigned."""
    game = match.game
    assert game is not None
    if game.phase in (ROLL, MOVE):
        loser = game.turn
        match.apply(Resign(loser, 1))
        match.apply(AcceptResign(other(loser)))
    elif game.phase == DOUBLED:
        match.apply(Drop(game.turn))
    elif game.phase == RESIGNED:
        match.apply(AcceptResign(game.turn))


def read_mat(data: bytes | str, on_error: ErrorHandler | None = None) -> Match:
    """Parse and replay a ``.mat`` file (see :func:`build_match`)."""
    return build_match(parse_mat(data), on_error)


# --- writing -----------------------------------------------------------------------------------

def _format_steps(play) -> str:
    """gnubg's ``FormatMovePlain``: each single-die step ``from/to`` (25 bar, 0 off), ``*`` on
    the first landing that hits, a space after each of the first three steps."""
    out = []
    landed: set[int] = set()
    for i, ((src, dst), hit) in enumerate(zip(play.moves, play.hits)):
        star = "*" if hit and dst not in landed else ""
        landed.add(dst)
        out.append(f"{src}/{dst}{star}" + (" " if i < 3 else ""))
    return "".join(out)


def _game_cells(game) -> list[tuple[int, str]]:
    """(player, cell text) for each thing gnubg writes of a game, in order."""
    from engine.match import AcceptResign as _Accept, RejectResign, Resign as _Resign, SetBoard as _Set

    cells: list[tuple[int, str]] = []
    plays = iter(game.plays)
    cube = 1
    dice: tuple[int, int] | None = None
    for event in game.events:
        if isinstance(event, OpeningRoll):
            if event.x != event.o:
                dice = (max(event.x, event.o), min(event.x, event.o))
        elif isinstance(event, Roll):
            dice = event.dice
        elif isinstance(event, Move):
            record = next(plays)
            assert dice is not None
            text = f"{dice[0]}{dice[1]}: " + (_format_steps(record.play) if record.play is not None else "")
            cells.append((event.player, text))
        elif isinstance(event, Double):
            cube *= 2
            cells.append((event.player, f" Doubles => {cube}"))
        elif isinstance(event, Take):
            cells.append((event.player, " Takes"))
        elif isinstance(event, Drop):
            cells.append((event.player, " Drops"))
        elif isinstance(event, (_Resign, _Accept, RejectResign, _Set)):
            continue
    return cells


def _write_game(out: list[str], game, number: int, names: dict[int, str], score: dict[int, int]) -> None:
    out.append(f" Game {number}\n")
    left = f"{names[O]} : {score[O]}"
    out.append(f" {left:<31}{names[X]} : {score[X]}\n")
    cells = _game_cells(game)
    result = game.result
    i = 0
    for player, text in cells:
        if i == 0 and player == X:
            out.append("  1)                             ")
            i = 1
        if (i & 1) != (player == X):
            # Out of column (gnubg never does this): keep the columns honest with an empty cell.
            out.append(f"{(i >> 1) + 1:3d}) {'':<27} " if not i & 1 else "\n")
            i += 1
        last = text.strip() in ("Drops",) and result is not None
        if last:
            assert result is not None
            points = result.points
            sep = "\n      " if i & 1 else "                       "
            text = f" Drops{sep}Wins {points} point{'' if points == 1 else 's'}"
        if i & 1:
            out.append(text + "\n")
        else:
            out.append(f"{(i >> 1) + 1:3d}) {text:<27} ")
        if last:
            out.append("\n")
            if not i & 1:
                out.append("\n")
        i += 1
    if result is not None and result.reason != "drop":
        points = result.points
        plural = "s" if points > 1 else ""
        if result.reason == "played":
            # gnubg writes the win right after the last play, in that play's column.
            lead = "                                  " if (i - 1) & 1 else "\n      "
            out.append(f"{lead}Wins {points} point{plural}\n\n")
        elif result.winner == O:
            out.append(("\n" if i & 1 else "") + f"      Wins {points} point{plural}\n\n")
        else:
            out.append((" " if i & 1 else " " * 34) + f"Wins {points} point{plural}\n\n")
    elif result is None:
        if i & 1:
            out.append("\n")
        out.append("\n")


def write_mat(match: Match) -> str:
    """The match as gnubg 1.07's ``export match mat`` writes it."""
    out: list[str] = []
    for key in HEADER_KEYS:
        if key in match.info:
            out.append(f'; [{key} "{match.info[key]}"]\n')
    if out:
        out.append("\n")
    out.append(f" {match.length} point match\n\n")
    names = {O: match.players[O], X: match.players[X]}
    for number, game in enumerate(match.games, start=1):
        score = match.scores_before[number - 1]
        _write_game(out, game, number, names, score)
    return "".join(out)
