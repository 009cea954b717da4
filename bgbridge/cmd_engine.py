"""``bgbridge legal``, ``bgbridge judge`` and ``bgbridge show``: the rules engine on the command line.

Contracts other tools build on (keep names, options and JSON fields as they are):

- ``bgbridge legal POSITION_ID DICE [--json | --jsonl]``: ``{"position_id", "dice", "plays":
  [{"notation", "result_position_id"}]}``; ``result_position_id`` is the board after the play
  from the mover's side (not swapped), as gnubg's move generator keys it.  ``--jsonl`` reads
  ``{"position_id": "...", "dice": [6, 2]}`` per line from standard input.
- ``bgbridge judge BEFORE_ID AFTER_ID DICE [--json | --jsonl]``: ``{"legal", "finished",
  "notation", "reason"}``; AFTER from the mover's side, unswapped.  ``--jsonl`` reads
  ``{"before_id": "...", "after_id": "...", "dice": [6, 2]}`` per line.
- ``bgbridge show POSITION_ID`` (or an XGID) draws the board.

Bad input: one line on standard error, exit status 2.  In ``--jsonl`` mode a bad request gets
``{"error": "..."}`` on its own output line, the rest go on, and the exit status is 2 at the end.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from bgbridge.errors import UserError
from engine.judge import judge
from engine.movegen import DiceError, check_dice
from engine.notation import NotationError, parse_dice
from engine.position import X, Position, PositionError


def register(subparsers: argparse._SubParsersAction) -> None:
    legal = subparsers.add_parser("legal", help="list every legal play of a roll")
    legal.add_argument("position_id", nargs="?", metavar="POSITION_ID", help="gnubg Position ID (side on roll)")
    legal.add_argument("dice", nargs="?", metavar="DICE", help="the roll, like 62 or 6-2")
    _output_options(legal)
    legal.add_argument("--absolute", action="store_true", help="notation in absolute numbering (X's)")
    legal.set_defaults(handler=_legal)

    jud = subparsers.add_parser("judge", help="judge a move from one position to another")
    jud.add_argument("before_id", nargs="?", metavar="BEFORE_ID")
    jud.add_argument("after_id", nargs="?", metavar="AFTER_ID", help="from the mover's side, unswapped")
    jud.add_argument("dice", nargs="?", metavar="DICE")
    _output_options(jud)
    jud.set_defaults(handler=_judge)

    show = subparsers.add_parser("show", help="draw a position in the terminal")
    show.add_argument("position", metavar="POSITION_ID", help="gnubg Position ID or XGID")
    show.set_defaults(handler=_show)


def _output_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="print one JSON object")
    group.add_argument("--jsonl", action="store_true", help="read JSON requests from standard input, one per line")


# --- shared parsing ------------------------------------------------------------------------

def _position(text: Any, what: str = "position") -> Position:
    if not isinstance(text, str):
        raise UserError(f"{what}: expected a Position ID string, got {text!r}")
    try:
        if text.strip().upper().startswith("XGID="):
            return Position.from_xgid(text)
        return Position.from_position_id(text, turn=X)
    except PositionError as exc:
        raise UserError(f"{what}: {exc}") from None


def _dice(value: Any) -> tuple[int, int]:
    try:
        if isinstance(value, str):
            return parse_dice(value)
        if isinstance(value, (list, tuple)):
            return check_dice(value)
    except (NotationError, DiceError) as exc:
        raise UserError(str(exc)) from None
    raise UserError(f"dice are like 62, 6-2 or [6, 2], got {value!r}")


def _require(args: argparse.Namespace, *names: str) -> None:
    missing = [n.upper() for n in names if getattr(args, n) is None]
    if missing and not args.jsonl:
        raise UserError(f"missing {' and '.join(missing)} (or use --jsonl to read requests from standard input)")
    if args.jsonl and any(getattr(args, n) is not None for n in names):
        raise UserError("--jsonl reads requests from standard input: give no positions or dice on the command line")


def _jsonl(answer: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """Answer each JSON request line; a bad one gets an error object, the rest go on."""
    status = 0
    out = sys.stdout
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise UserError("a request is a JSON object")
            result = answer(request)
        except json.JSONDecodeError as exc:
            result, status = {"error": f"line {number}: not JSON ({exc.msg})"}, 2
        except UserError as exc:
            result, status = {"error": f"line {number}: {exc}"}, 2
        out.write(json.dumps(result) + "\n")
        out.flush()
    return status


# --- legal ---------------------------------------------------------------------------------

def legal_answer(position: Position, dice: tuple[int, int], absolute: bool = False) -> dict[str, Any]:
    """The ``bgbridge legal --json`` object for one request."""
    plays = [
        {"notation": play.notation(absolute=absolute), "result_position_id": play.result.position_id()}
        for play in position.legal_plays(dice)
    ]
    return {"position_id": position.position_id(), "dice": list(dice), "plays": plays}


def _legal(args: argparse.Namespace) -> int:
    _require(args, "position_id", "dice")
    if args.jsonl:
        return _jsonl(
            lambda req: legal_answer(_position(req.get("position_id"), "position_id"), _dice(req.get("dice")), args.absolute)
        )
    answer = legal_answer(_position(args.position_id), _dice(args.dice), args.absolute)
    if args.json:
        print(json.dumps(answer))
    elif not answer["plays"]:
        print(f"no legal play with {args.dice}: the side on roll cannot move")
    else:
        for play in answer["plays"]:
            print(f"{play['notation']:<28} {play['result_position_id']}")
    return 0


# --- judge ---------------------------------------------------------------------------------

def _judge_request(req: dict[str, Any]) -> dict[str, Any]:
    before = _position(req.get("before_id", req.get("before")), "before_id")
    after = _position(req.get("after_id", req.get("after")), "after_id")
    return judge(before, after, _dice(req.get("dice"))).to_dict()


def _judge(args: argparse.Namespace) -> int:
    _require(args, "before_id", "after_id", "dice")
    if args.jsonl:
        return _jsonl(_judge_request)
    verdict = judge(_position(args.before_id, "BEFORE_ID"), _position(args.after_id, "AFTER_ID"), _dice(args.dice))
    if args.json:
        print(json.dumps(verdict.to_dict()))
    elif verdict.legal and verdict.finished:
        print(f"legal: {verdict.notation or '(no move possible)'}")
    elif verdict.legal:
        print(f"{verdict.reason} (so far: {verdict.notation or 'nothing'})")
    else:
        print(f"illegal: {verdict.reason}")
    return 0


# --- show ----------------------------------------------------------------------------------

def _show(args: argparse.Namespace) -> int:
    print(_position(args.position))
    return 0
