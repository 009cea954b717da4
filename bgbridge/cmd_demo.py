"""``bgbridge demo``: the referee at work on a bundled match, with no camera or unit attached.

A real 5-point match (GNU Backgammon against itself) is fed to the referee the way a camera
would feed it: the board after each checker is moved, so the referee sees unfinished moves, once
a game a miscounted move that is then put right, and the finished play.  Every verdict is
printed and shown on the indicator unit (the software emulator when no unit is plugged in: cube
and owner, turn, dice, green or red); the match is recorded in the journal, ready for
``bgbridge export``.
"""
from __future__ import annotations

import argparse
import sys
import time
from importlib import resources
from pathlib import Path

from bgbridge.errors import UserError
from engine.judge import Verdict, judge
from engine.match import Game, GameError, Match, Move
from engine.matfile import MatError, read_mat
from engine.movegen import apply_moves
from engine.notation import format_dice, parse_play
from engine.position import Position, PositionError, player_name


def register(subparsers: argparse._SubParsersAction) -> None:
    demo = subparsers.add_parser("demo", help="referee and record a bundled demo match (no camera or unit needed)")
    demo.add_argument("--match", metavar="FILE", help="a .mat file to referee instead of the bundled one")
    demo.add_argument("--delay", type=float, default=None, help="seconds between moves (default 0.4 on a terminal, else 0)")
    demo.add_argument("--board", action="store_true", help="draw the board after every play")
    demo.add_argument("--no-record", action="store_true", help="do not record the match in the journal")
    demo.add_argument("--port", default="auto",
                      help="the indicator unit: auto (a unit on USB, else the emulator), a port or URL, or none")
    demo.set_defaults(handler=_demo)


def _load(path: str | None) -> Match:
    try:
        if path:
            data = Path(path).read_bytes()
        else:
            data = resources.files("bgbridge").joinpath("data/demo-match.mat").read_bytes()
        return read_mat(data)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    except MatError as exc:
        raise UserError(f"{path}: {exc}") from None


def _camera_views(before: Position, dice: tuple[int, int], text: str, miscount: bool) -> list[tuple[str, Position]]:
    """Boards a camera would see while ``text`` is played: each step, and, with ``miscount``, a
    last checker set one point short first (the player then puts it right)."""
    play = parse_play(before, dice, text)
    views = []
    for n in range(1, len(play.moves)):
        views.append(("partial", apply_moves(before, play.moves[:n])[0]))
    if miscount and play.moves:
        s, t = play.moves[-1]
        for wrong in (t + 1, t - 1):
            if 0 < wrong < s:
                try:
                    board, _ = apply_moves(before, play.moves[:-1] + ((s, wrong),))
                except PositionError:
                    continue
                if not judge(before, board, dice).legal:
                    views.append(("miscount", board))
                    break
    views.append(("final", play.result))
    return views


def _display(game: Game | None, verdict: Verdict | None) -> "DisplayState":
    """What the unit shows for ``game``: cube and owner, the side to act, the dice, the verdict."""
    from firmware_link import DisplayState

    if game is None:
        return DisplayState()
    legal = None if verdict is None or (verdict.legal and not verdict.finished) else verdict.legal
    return DisplayState(
        cube=min(game.cube_value, 1 << 15), owner=game.cube_owner, turn=None if game.over else game.turn,
        dice=game.dice or (0, 0), verdict=legal,
    )


_LIGHT = {True: "green", False: "red", None: "off"}


def _say(verdict: Verdict) -> str:
    if verdict.legal and verdict.finished:
        return f"LEGAL    {verdict.notation or '(no move possible)'}"
    if verdict.legal:
        return f"...      {verdict.reason} ({verdict.notation})"
    return f"ILLEGAL  {verdict.reason}"


def _demo(args: argparse.Namespace) -> int:
    source = _load(args.match)
    delay = args.delay if args.delay is not None else (0.4 if sys.stdout.isatty() else 0.0)
    match = Match.from_settings(source.settings())
    recorder = None
    if not args.no_record:
        from bgbridge.journal import Journal, JournalError

        try:
            journal = Journal()
            recorder = journal.new_match(match, source="demo")
        except JournalError as exc:
            raise UserError(str(exc)) from None
    unit = emulator = None
    if args.port != "none":
        from firmware_link import attach

        unit, emulator = attach(args.port)
        unit.wait_ready(timeout=5)
        print(f"indicator unit: {'software emulator on ' + unit.port if emulator else unit.port}")
    try:
        return _referee(args, source, match, recorder, unit, emulator, delay)
    finally:
        if unit is not None:
            unit.close()
        if emulator is not None:
            emulator.stop()


def _referee(args, source: Match, match: Match, recorder, unit, emulator, delay: float) -> int:
    def show(game: Game | None, verdict: Verdict | None = None) -> None:
        if unit is not None:
            state = _display(game, verdict)
            unit.show(state)
            shown = state.as_dict()
            print(f"  unit: cube {shown['cube']} ({shown['owner'] or 'centre'}), turn {shown['turn'] or '-'}, "
                  f"dice {'-'.join(map(str, shown['dice']))}, light {_LIGHT[state.verdict]}")

    names = match.players
    print(f"Refereeing a {source.length}-point match: {names[1]} (X) against {names[0]} (O)")
    verdicts = {"legal": 0, "illegal": 0, "unfinished": 0}
    miscount_game = -1
    for event in source.events:
        game: Game | None = recorder.match.game if recorder else match.game
        if isinstance(event, Move) and game is not None and game.dice is not None:
            before, dice = game.position, game.dice
            number = len(game.plays) + 1
            who = f"{player_name(event.player)} {names[event.player]}"
            print(f"\ngame {len(source.games) and len((recorder.match if recorder else match).games)}, "
                  f"play {number}: {who} rolled {format_dice(dice)}")
            games_so_far = len((recorder.match if recorder else match).games)
            for kind, board in _camera_views(before, dice, event.play, miscount=games_so_far != miscount_game and number > 2):
                verdict = judge(before, board, dice)
                if kind == "miscount":
                    miscount_game = games_so_far
                key = "legal" if verdict.legal and verdict.finished else ("unfinished" if verdict.legal else "illegal")
                verdicts[key] += 1
                print(f"  camera: {_say(verdict)}")
                if kind != "partial":
                    show(game, verdict)
                if delay:
                    time.sleep(delay)
            if args.board:
                print(parse_play(before, dice, event.play).result.pass_turn())
        elif not isinstance(event, Move):
            print(f"\n{event}")
        try:
            result = recorder.record(event) if recorder else match.apply(event)
        except GameError as exc:  # the bundled match is legal; a user's file may not be
            raise UserError(f"the match cannot go on: {exc}") from None
        if result is not None:
            print(f"  => {result}")
        if not isinstance(event, Move):
            show((recorder.match if recorder else match).game)
    final = recorder.match if recorder else match
    print(f"\nfinal score: {names[1]} (X) {final.score[1]}, {names[0]} (O) {final.score[0]}")
    print(f"verdicts: {verdicts['legal']} legal plays, {verdicts['unfinished']} unfinished moves seen, "
          f"{verdicts['illegal']} illegal moves caught")
    if recorder:
        print(f"recorded as match {recorder.id} in {recorder.journal.path}; "
              f"export it with: bgbridge export {recorder.id} --format mat")
    return 0
