"""The ``bgbridge`` command line: a thin dispatcher.

Each group of sub-commands lives in its own ``bgbridge.cmd_*`` module with a
``register(subparsers)`` function; a sub-command's handler takes the parsed
arguments and returns the exit status.  A :class:`~bgbridge.errors.UserError`
(or an ``engine`` input error) becomes one line on standard error and exit
status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from bgbridge.errors import UserError

#: Sub-command modules, in the order their commands appear in ``--help``.
COMMAND_MODULES = (
    "bgbridge.cmd_engine",
    "bgbridge.cmd_record",
    "bgbridge.cmd_vision",
    "bgbridge.cmd_dice",
    "bgbridge.cmd_device",
    "bgbridge.cmd_web",
    "bgbridge.cmd_demo",
)


class _Parser(argparse.ArgumentParser):
    """argparse exits with status 2 on bad usage already; keep its message to one line."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bgbridge",
        description="A bridge between a physical backgammon board and software.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # that group is not part of this build (yet)
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return int(args.handler(args) or 0)
    except UserError as exc:
        print(f"bgbridge: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
