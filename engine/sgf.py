"""SGF for backgammon (``GM[6]``, red-bean.com/sgf/backgammon.html), read and written.

The writer produces what gnubg's ``save match`` writes, without analysis data: one game tree per
game, its root node holding the match information (``MI[length:5][game:0][ws:0][bs:0]``, players,
rules, result), then one node per action: ``;B[21lnab]`` (dice, then from/to letter pairs),
``;W[double]``, ``;B[take]``, ``;B[drop]``.  White is player ``O`` (gnubg's player 0), Black is
``X``; points ``a``..``x`` are White's 1..24 (so Black's point ``p`` is letter ``24 - p``), ``y``
is the bar and ``z`` off.  A game won by resignation ends with ``RE[W+2R]`` (gnubg writes no
node for it).

Reading replays every action into an :class:`engine.match.Match` and checks every play with the
engine; problems are :class:`SgfError` with the game and move (node) number.

>>> text = "(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Olga]PB[Xavier]RU[Crawford]RE[W+1];B[31qtst];W[double];B[drop])"
>>> match = read_sgf(text)
>>> match.players[X], match.winner() == O, match.game.result.reason
('Xavier', True, 'drop')
>>> print(write_sgf(match, app="test"))
(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:1][game:0][ws:0][bs:0]PW[Olga]PB[Xavier]RU[Crawford]RE[W+1]
;B[31qtst]
;W[double]
;B[drop])
<BLANKLINE>
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

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
    ROLL,
)
from engine.position import BAR, O, OFF, X, Position, PositionError, other, player_name
from engine.textfile import decode_text

COLOURS = {"W": O, "B": X}
COLOUR_OF = {O: "W", X: "B"}


class SgfError(ValueError):
    """An SGF file that cannot be read, or that records something the rules refuse."""

    def __init__(self, message: str, *, game: int | None = None, move: int | None = None,
                 offset: int | None = None) -> None:
        self.message = message
        self.game = game
        self.move = move
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move is not None:
            where.append(f"move {move}")
        if offset is not None and game is None:
            where.append(f"character {offset}")
        super().__init__((", ".join(where) + ": " if where else "") + message)


# --- the SGF syntax ----------------------------------------------------------------------------

Node = dict[str, list[str]]


@dataclass
class SgfGame:
    """One game tree's main line: the root node, then the action nodes."""

    root: Node
    nodes: list[Node]


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_space(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def error(self, message: str) -> SgfError:
        return SgfError(message, offset=self.pos)

    def collection(self) -> list[SgfGame]:
        games = []
        self.skip_space()
        while self.pos < len(self.text):
            if self.text[self.pos] != "(":
                raise self.error(f"expected '(' to start a game tree, found {self.text[self.pos:self.pos + 20]!r}")
            nodes = self.tree()
            if not nodes:
                raise self.error("an empty game tree")
            games.append(SgfGame(nodes[0], nodes[1:]))
            self.skip_space()
        return games

    def tree(self) -> list[Node]:
        """A game tree's main line (the first variation at each branch, as gnubg reads it)."""
        assert self.text[self.pos] == "("
        self.pos += 1
        nodes: list[Node] = []
        taken_variation = False
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                raise self.error("the file ends inside a game tree (a missing ')')")
            ch = self.text[self.pos]
            if ch == ";":
                self.pos += 1
                if taken_variation:
                    raise self.error("a node after a variation")
                nodes.append(self.node())
            elif ch == "(":
                sub = self.tree()
                if not taken_variation:
                    nodes.extend(sub)
                    taken_variation = True
            elif ch == ")":
                self.pos += 1
                return nodes
            else:
                raise self.error(f"unexpected {ch!r}")

    def node(self) -> Node:
        node: Node = {}
        while True:
            self.skip_space()
            start = self.pos
            text = self.text
            while self.pos < len(text) and text[self.pos].isalpha():
                self.pos += 1
            ident = text[start:self.pos]
            if not ident:
                return node
            if not ident.isupper():
                # FF[1] style lower-case letters in identifiers are ignored by the spec.
                ident = "".join(c for c in ident if c.isupper())
            values = []
            self.skip_space()
            while self.pos < len(text) and text[self.pos] == "[":
                values.append(self.value())
                self.skip_space()
            if not values:
                raise self.error(f"property {ident} has no value")
            node.setdefault(ident, []).extend(values)

    def value(self) -> str:
        text = self.text
        self.pos += 1
        out = []
        start = self.pos
        while True:
            end = text.find("]", self.pos)
            if end < 0:
                self.pos = start
                raise self.error("a property value is not closed with ']'")
            # A ']' preceded by an odd number of backslashes is escaped.
            backslashes = 0
            k = end - 1
            while k >= start and text[k] == "\\":
                backslashes += 1
                k -= 1
            if backslashes % 2:
                self.pos = end + 1
                continue
            raw = text[start:end]
            self.pos = end + 1
            break
        if "\\" not in raw:
            return raw
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                if nxt != "\n":  # a soft line break disappears
                    out.append(nxt)
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out)


def parse_sgf(data: bytes | str) -> list[SgfGame]:
    """The backgammon game trees of an SGF collection (main lines only).

    >>> [g.root["GM"] for g in parse_sgf("(;GM[6];W[52mhxv])")]
    [['6']]
    >>> parse_sgf("(;GM[6];W[52")
    Traceback (most recent call last):
    ...
    engine.sgf.SgfError: character 10: a property value is not closed with ']'
    """
    try:
        games = _Reader(decode_text(data, "an SGF", SgfError)).collection()
    except RecursionError:
        raise SgfError("game trees nested too deeply to be a match") from None
    if not games:
        raise SgfError("no game in the file")
    backgammon = [g for g in games if g.root.get("GM", ["6"])[0].strip() == "6"]
    if not backgammon:
        raise SgfError("no backgammon game (GM[6]) in the file")
    return backgammon


# --- points and moves -------------------------------------------------------------------------

def _letter(player: int, point: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + (point - 1 if player == O else 24 - point))


def _point(player: int, letter: str) -> int:
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    if not "a" <= letter <= "x":
        raise ValueError(f"{letter!r} is not a point (a-x, y bar, z off)")
    index = ord(letter) - ord("a")
    return index + 1 if player == O else 24 - index


def format_move(player: int, dice: tuple[int, int], steps) -> str:
    """An SGF move value: ``format_move(X, (2, 1), [(13, 11), (24, 23)]) == '21lnab'``.

    >>> format_move(X, (2, 1), [(13, 11), (24, 23)]), format_move(O, (5, 2), [(13, 8), (24, 22)])
    ('21lnab', '52mhxv')
    """
    return f"{dice[0]}{dice[1]}" + "".join(_letter(player, s) + _letter(player, d) for s, d in steps)


def parse_move(player: int, value: str) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Dice and ``(from, to)`` steps of an SGF move value.

    >>> parse_move(X, "21lnab")
    ((2, 1), [(13, 11), (24, 23)])
    """
    value = value.strip()
    if len(value) < 2 or not value[:2].isdigit() or not all("1" <= c <= "6" for c in value[:2]):
        raise ValueError(f"a move starts with two dice 1-6, got {value!r}")
    dice = (int(value[0]), int(value[1]))
    letters = value[2:]
    if len(letters) > 8:
        raise ValueError(f"a move has at most 4 steps (8 letters), got {len(letters)} letters")
    if len(letters) % 2:
        raise ValueError(f"move {value!r} has an odd number of point letters")
    steps = [(_point(player, letters[i]), _point(player, letters[i + 1])) for i in range(0, len(letters), 2)]
    return dice, steps


# --- replaying into a Match -------------------------------------------------------------------

ErrorHandler = Callable[[SgfError], None]


class _SkipGame(Exception):
    pass


def _mi(root: Node) -> dict[str, str]:
    out = {}
    for item in root.get("MI", []):
        if ":" in item:
            key, _, value = item.partition(":")
            out[key.strip()] = value.strip()
    return out


def _int(value: str, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise SgfError(f"{what} should be a number, got {value!r}") from None


def build_match(games: list[SgfGame], on_error: ErrorHandler | None = None) -> Match:
    """Replay SGF game trees into a :class:`Match`, checking every play with the engine.

    Without ``on_error`` the first problem raises :class:`SgfError`; with it each problem is
    reported and the replay goes on where it can (``bgbridge replay --check``).
    """
    first = games[0].root
    info = _mi(first)
    length = _int(info.get("length", "0"), "MI length")
    rules = {r.split(":")[0] for r in first.get("RU", [])}
    match = Match(
        max(length, 0),
        players={O: first.get("PW", ["White"])[0], X: first.get("PB", ["Black"])[0]},
        crawford=bool(length) and "Crawford" in rules,  # as gnubg: no RU[Crawford], no Crawford rule
        jacoby="Jacoby" in rules and not length,
        info={k: v for k, v in (("Event", first.get("EV", [None])[0]), ("Site", first.get("PC", [None])[0]),
                                ("Round", first.get("RO", [None])[0]),
                                ("EventDate", (first.get("DT", [""])[0] or "").replace("-", ".")))
              if v},
    )

    def fail(error: SgfError) -> None:
        if on_error is None:
            raise error
        on_error(error)

    for number, sgame in enumerate(games, start=1):
        try:
            _build_game(match, sgame, number, fail, lenient=on_error is not None)
        except _SkipGame:
            continue
    return match


def _build_game(match: Match, sgame: SgfGame, number: int, fail, lenient: bool) -> None:
    if match.game is not None and not match.game.over:
        fail(SgfError("the game before this one has no end", game=number))
        if not lenient:
            return
        from engine.matfile import _abandon

        _abandon(match)
    if match.over:
        fail(SgfError("the match was already over before this game", game=number))
        raise _SkipGame
    info = _mi(sgame.root)
    if "ws" in info and "bs" in info:
        score = {O: _int(info["ws"], "MI ws"), X: _int(info["bs"], "MI bs")}
        if score != match.score:
            fail(SgfError(f"the file's score {score[O]}-{score[X]} does not follow from the games before "
                          f"({match.score[O]}-{match.score[X]})", game=number))
            if lenient:
                match.score = score
    started = False
    setup: SetBoard | None = None
    for index, node in enumerate(sgame.nodes, start=1):
        def where() -> dict:
            return {"game": number, "move": index}

        if any(k in node for k in ("AE", "AB", "AW")):
            setup = _setup(node, match, where)
            if match.game is not None and not match.game.over and started:
                try:
                    match.apply(setup)
                except GameError as exc:
                    fail(SgfError(str(exc), **where()))
                    raise _SkipGame from None
                setup = None
            continue
        for ident in ("DI", "CV", "CP"):
            if ident in node:
                fail(SgfError(f"the game was edited during play ({ident}[...]): it cannot be replayed", **where()))
                raise _SkipGame
        colour = "B" if "B" in node else "W" if "W" in node else None
        if colour is None:
            continue
        player = COLOURS[colour]
        value = node[colour][0].strip()
        game = match.game
        try:
            if not started:
                if value in ("double", "take", "drop"):
                    raise GameError(f"a game starts with a roll, not {value}")
                dice, _ = _parse(player, value, where)
                if dice[0] == dice[1]:
                    raise GameError(f"the opening roll cannot be a double ({dice[0]}{dice[1]})")
                hi, lo = max(dice), min(dice)
                if setup is not None:
                    match.apply(setup)
                match.apply(OpeningRoll(x=hi, o=lo) if player == X else OpeningRoll(x=lo, o=hi))
                started = True
                game = match.game
            assert game is not None
            if game.over:
                raise GameError(f"{player_name(player)} {value} after the end of the game ({game.result})")
            if value == "double":
                match.apply(Double(player))
            elif value == "take":
                match.apply(Take(player))
            elif value == "drop":
                match.apply(Drop(player))
            else:
                dice, steps = _parse(player, value, where)
                if game.phase == ROLL:
                    match.apply(Roll(player, dice))
                elif game.phase != MOVE or player != game.turn:
                    raise GameError(f"{player_name(player)} plays, but {game._what_now()}")
                elif sorted(dice) != sorted(game.dice or ()):
                    raise GameError(f"{player_name(player)} plays {dice[0]}{dice[1]} after rolling {game.dice_text()}")
                text = " ".join(f"{s}/{d}" for s, d in steps)
                legal = game.position.legal_plays(game.dice)
                play = legal.find_moves(steps) if steps else None
                try:
                    match.apply(Move(player, str(play) if play is not None else text))
                except GameError as exc:
                    from engine.matfile import engine_reason

                    assert game.dice is not None
                    reason = engine_reason(game.position, game.dice, steps) or str(exc)
                    fail(SgfError(f"{player_name(player)} plays {game.dice_text()}: {text or '(no move)'}: {reason}",
                                  **where()))
                    if not force_steps(match, steps):
                        fail(SgfError("the rest of this game cannot be replayed", **where()))
                        raise _SkipGame from None
        except GameError as exc:
            fail(SgfError(str(exc), **where()))
            raise _SkipGame from None
    _result(match, sgame, number, fail)


def _parse(player: int, value: str, where) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    try:
        return parse_move(player, value)
    except ValueError as exc:
        raise GameError(f"cannot read the move {value!r}: {exc}") from None


def _setup(node: Node, match: Match, where) -> SetBoard:
    """A board set by hand (``AE``/``AB``/``AW``/``PL``) as a :class:`SetBoard` event."""
    game = match.game
    if game is not None and not game.over:
        board = [list(game.position.board[O]), list(game.position.board[X])]
    else:
        start = Position.start()
        board = [list(start.board[O]), list(start.board[X])]

    def points(values: list[str]) -> Iterator[str]:
        for value in values:
            if ":" in value:
                a, _, b = value.partition(":")
                for c in range(ord(a), ord(b) + 1):
                    yield chr(c)
            else:
                yield value

    try:
        for letter in points(node.get("AE", [])):
            for player in (O, X):
                p = _point(player, letter)
                if p != OFF:
                    board[player][p - 1] = 0
        for ident, player in (("AW", O), ("AB", X)):
            for letter in points(node.get(ident, [])):
                p = _point(player, letter)
                if p != OFF:
                    board[player][p - 1] += 1
        turn = COLOURS.get(node.get("PL", [""])[0].strip().upper()[:1], game.turn if game else X)
        position = Position(board, turn)
    except (ValueError, PositionError) as exc:
        raise SgfError(f"cannot read the board set by hand: {exc}", **where()) from None
    return SetBoard(turn, position.position_id())


def _result(match: Match, sgame: SgfGame, number: int, fail) -> None:
    game = match.game
    if game is None:
        return
    re_values = sgame.root.get("RE", [])
    if not re_values:
        return
    text = re_values[0].strip()
    if len(text) < 3 or text[0].upper() not in "WB" or text[1] != "+":
        return
    winner = COLOURS[text[0].upper()]
    rest = text[2:]
    digits = "".join(c for c in rest if c.isdigit())
    points = int(digits) if digits else 1
    resigned = rest.upper().endswith("R")
    if game.over:
        result = game.result
        assert result is not None
        if result.winner != winner or result.points != points:
            fail(SgfError(f"the file's result {text} does not match the game ({result})", game=number))
        return
    if not resigned:
        if game.phase in (ROLL, MOVE):
            # A played-out game whose last moves are missing.
            fail(SgfError(f"the file says {text} but the game is not over", game=number))
        return
    if game.phase == DOUBLED:
        fail(SgfError(f"the file says {text} while a double waits for an answer", game=number))
        return
    kind, extra = divmod(points, game.cube_value)
    kind = min(max(kind, 1), 3)  # as gnubg: the resignation is of 1 to 3 times the cube
    try:
        match.apply(Resign(other(winner), kind))
        match.apply(AcceptResign(winner))
    except GameError as exc:
        fail(SgfError(str(exc), game=number))
        return
    if game.result is not None and game.result.points != points:
        fail(SgfError(f"the file's result {text} gives {points} points; a resignation of "
                      f"{kind} with the cube at {game.cube_value} gives {game.result.points}", game=number))


def read_sgf(data: bytes | str, on_error: ErrorHandler | None = None) -> Match:
    """Parse and replay an SGF backgammon match."""
    return build_match(parse_sgf(data), on_error)


# --- writing -----------------------------------------------------------------------------------

def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(match: Match, app: str = "bgbridge") -> str:
    """The match as gnubg's ``save match`` writes it, without analysis."""
    out: list[str] = []
    rules = []
    if match.length and match.crawford:
        rules.append("Crawford")
    if not match.length and match.jacoby:
        rules.append("Jacoby")
    for index, game in enumerate(match.games):
        score = match.scores_before[index]
        head = (f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(app)}]MI[length:{match.length}][game:{index}]"
                f"[ws:{score[O]}][bs:{score[X]}]PW[{_escape(match.players[O])}]PB[{_escape(match.players[X])}]")
        if index == 0:
            for key, prop in (("Event", "EV"), ("Site", "PC"), ("Round", "RO"), ("EventDate", "DT")):
                if match.info.get(key):
                    value = match.info[key].replace(".", "-") if prop == "DT" else match.info[key]
                    head += f"{prop}[{_escape(value)}]"
        if rules:
            rule = rules[0] + (":CrawfordGame" if game.crawford and rules[0] == "Crawford" else "")
            head += f"RU[{rule}]"
        if game.result is not None:
            r = game.result
            head += f"RE[{COLOUR_OF[r.winner]}+{r.points}{'R' if r.reason == 'resign' else ''}]"
        out.append(head + "\n")
        plays = iter(game.plays)
        dice = None
        for event in game.events:
            if isinstance(event, OpeningRoll):
                if event.x != event.o:
                    dice = (max(event.x, event.o), min(event.x, event.o))
            elif isinstance(event, Roll):
                dice = event.dice
            elif isinstance(event, Move):
                record = next(plays)
                steps = record.play.moves if record.play is not None else ()
                out.append(f";{COLOUR_OF[event.player]}[{format_move(event.player, dice, steps)}]\n")
            elif isinstance(event, Double):
                out.append(f";{COLOUR_OF[event.player]}[double]\n")
            elif isinstance(event, Take):
                out.append(f";{COLOUR_OF[event.player]}[take]\n")
            elif isinstance(event, Drop):
                out.append(f";{COLOUR_OF[event.player]}[drop]\n")
            elif isinstance(event, SetBoard):
                out.append(_format_setup(event) + "\n")
        out[-1] = out[-1].rstrip("\n") + ")\n"
    return "".join(out)


def _format_setup(event: SetBoard) -> str:
    position = event.position()
    parts = [";AE[a:y]"]
    for ident, player in (("AW", O), ("AB", X)):
        letters = []
        for point in range(1, 26):
            letters += [_letter(player, point)] * position.checkers(player, point)
        if letters:
            parts.append(ident + "".join(f"[{c}]" for c in letters))
    parts.append(f"PL[{COLOUR_OF[event.player]}]")
    return "".join(parts)
