"""``bgbridge export``, ``import``, ``replay`` and ``matches``: match recording on the command line.

* ``bgbridge export MATCH --format mat|sgf [--output FILE]``: MATCH is a match id of the journal
  or a match file (``.mat``/``.sgf``); without ``--output`` the file goes to standard output.
* ``bgbridge import FILE``: read a ``.mat`` or ``.sgf`` into the journal, every play checked by
  the engine; problems are reported with game and move number and nothing is imported.
* ``bgbridge replay FILE [--check]``: replay a file; with ``--check`` print each illegal play
  with the engine's reason and exit 1 if there is any; without it print every moment with its
  gnubg Position ID, Match ID and XGID.
* ``bgbridge matches``: list the journal's matches.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable

from bgbridge.errors import UserError
from bgbridge.journal import Journal, JournalError
from engine.match import Match
from engine.matfile import MatError, read_mat, write_mat
from engine.sgf import SgfError, read_sgf, write_sgf

FORMATS = ("mat", "sgf")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("export", help="write a match as a .mat or .sgf file",
                              description="Write a match of the journal (by id) or a match file as .mat or .sgf.")
    p.add_argument("match", metavar="MATCH", help="a match id from the journal, or a .mat/.sgf file")
    p.add_argument("--format", required=True, choices=FORMATS, help="the file format to write")
    p.add_argument("--output", "-o", metavar="FILE", help="where to write (default: standard output)")
    p.set_defaults(handler=cmd_export)

    p = subparsers.add_parser("import", help="import a .mat or .sgf match into the journal",
                              description="Import a match file into the journal; every play is checked "
                                          "and nothing is imported when any is illegal or unreadable.")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(handler=cmd_import)

    p = subparsers.add_parser("replay", help="replay a .mat or .sgf file",
                              description="Replay a match file move by move with the engine.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--check", action="store_true",
                   help="print each illegal play with the engine's reason; exit 1 if any")
    p.set_defaults(handler=cmd_replay)

    p = subparsers.add_parser("matches", help="list the matches in the journal")
    p.set_defaults(handler=cmd_matches)


# --- files ---------------------------------------------------------------------------------

def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a match file") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None


def file_format(path: str, data: bytes) -> str:
    """``"sgf"`` or ``"mat"``, from the name, else from the content."""
    suffix = Path(path).suffix.lower()
    if suffix == ".sgf":
        return "sgf"
    if suffix in (".mat", ".txt"):
        return "mat"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return "sgf" if head.startswith(b"(") else "mat"


def read_match_file(path: str, on_error: Callable[[ValueError], None] | None = None) -> Match:
    """Read a match file; a problem becomes a :class:`UserError` (or goes to ``on_error``)."""
    data = _read_bytes(path)
    kind = file_format(path, data)
    reader = read_sgf if kind == "sgf" else read_mat
    try:
        return reader(data, on_error)  # type: ignore[arg-type]
    except (MatError, SgfError) as exc:
        raise UserError(f"{path}: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise UserError(f"{path}: not a readable {kind} file ({exc})") from None


def _journal() -> Journal:
    try:
        return Journal()
    except JournalError as exc:
        raise UserError(str(exc)) from None


def _load_match(spec: str) -> Match:
    if spec.isdigit() and not os.path.exists(spec):
        with _journal() as journal:
            try:
                return journal.load(int(spec))
            except JournalError as exc:
                raise UserError(str(exc)) from None
    if not os.path.exists(spec):
        raise UserError(f"{spec}: neither a match id of the journal nor a file")
    return read_match_file(spec)


# --- handlers --------------------------------------------------------------------------------

def cmd_export(args: argparse.Namespace) -> int:
    match = _load_match(args.match)
    if args.format == "mat":
        from engine.match import SetBoard

        edited = [n for n, g in enumerate(match.games, start=1) if any(isinstance(e, SetBoard) for e in g.events)]
        if edited:
            # gnubg warns the same way: a .mat has no way to say "the board was set by hand".
            print(f"bgbridge: warning: game {', '.join(map(str, edited))} had the board set by hand, which a "
                  ".mat file cannot record; use --format sgf to keep it", file=sys.stderr)
    text = write_mat(match) if args.format == "mat" else write_sgf(match)
    if args.output:
        tmp = f"{args.output}.tmp{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            os.replace(tmp, args.output)
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise UserError(f"{args.output}: cannot write: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    problems: list[ValueError] = []
    match = read_match_file(args.file, problems.append)
    if match.game is not None and not match.game.over and not problems:
        problems.append(ValueError(f"game {len(match.games)} has no end: the file is cut short "
                                   "(a match still being played is recorded live, not imported)"))
    if problems:
        for problem in problems:
            print(f"bgbridge: {args.file}: {problem}", file=sys.stderr)
        print(f"bgbridge: {args.file}: not imported ({len(problems)} problem"
              f"{'s' if len(problems) > 1 else ''})", file=sys.stderr)
        return 1
    if not match.games:
        raise UserError(f"{args.file}: no game in the file")
    with _journal() as journal:
        try:
            match_id = journal.add_match(match, source=f"import {os.path.basename(args.file)}")
        except JournalError as exc:
            raise UserError(str(exc)) from None
    kind = f"{match.length}-point match" if match.length else "money session"
    print(f"imported match {match_id}: {match.players[1]} (X) - {match.players[0]} (O), {kind}, "
          f"{len(match.games)} games, score {match.score[1]}-{match.score[0]}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if args.check:
        problems: list[ValueError] = []
        match = read_match_file(args.file, problems.append)
        for problem in problems:
            print(f"{args.file}: {problem}")
        plays = sum(len(g.plays) for g in match.games)
        if problems:
            games = len(match.games)
            print(f"{len(problems)} problem{'s' if len(problems) > 1 else ''} in {games} game{'s' if games != 1 else ''}")
            return 1
        unfinished = match.game is not None and not match.game.over
        note = f" (game {len(match.games)} has no end)" if unfinished else ""
        print(f"ok: {len(match.games)} games, {plays} plays, all legal{note}")
        return 0
    match = read_match_file(args.file)
    _print_moments(match)
    return 0


def _print_moments(match: Match) -> None:
    """Each event of ``match`` with the IDs of the moment after it."""
    game_no = 0
    for moment in match.moments():
        if moment.game != game_no:
            game_no = moment.game
            before = match.scores_before[game_no - 1]
            print(f"game {game_no}  score X {before[1]} - O {before[0]}")
        print(f"  {str(moment.event):<40} {moment.position_id}:{moment.match_id}  {moment.xgid}")
        if moment.result is not None:
            print(f"  {moment.result}")


def cmd_matches(args: argparse.Namespace) -> int:
    with _journal() as journal:
        try:
            summaries = journal.matches()
        except JournalError as exc:
            raise UserError(str(exc)) from None
    if not summaries:
        print("no matches in the journal")
    for summary in summaries:
        print(summary)
    return 0
