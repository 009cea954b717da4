#!/usr/bin/env python3
"""Have real gnubg play matches against itself and write each as .mat and .sgf.

For looking at gnubg's own files by hand (the tests make theirs in a temporary directory, so
nothing generated lands in the tree).  Example::

    .venv/bin/python scripts/make_gnubg_matches.py /tmp/gnubg-matches --count 5 --length 3

writes ``match-3pt-seed0.mat``, ``match-3pt-seed0.sgf``, ... ``seed4`` there.  The same length
and seed always give the same match (only the .mat's EventDate line changes).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.gnubg import Gnubg, GnubgError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="where to write the files (created if needed)")
    parser.add_argument("--count", type=int, default=1, help="how many matches (default 1)")
    parser.add_argument("--length", type=int, default=3, help="match length in points (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match (default 0)")
    parser.add_argument("--gnubg", help="the gnubg binary (default: $BGBRIDGE_GNUBG, PATH, /usr/games/gnubg)")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    try:
        args.directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"make_gnubg_matches: cannot create {args.directory}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        with Gnubg(args.gnubg) as gnubg:
            for seed in range(args.seed, args.seed + args.count):
                files = gnubg.play_match(args.length, seed)
                stem = args.directory / f"match-{args.length}pt-seed{seed}"
                for kind, text in files.items():
                    stem.with_suffix("." + kind).write_text(text, encoding="utf-8")
                print(f"{stem}.mat  {stem}.sgf")
    except GnubgError as exc:
        print(f"make_gnubg_matches: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"make_gnubg_matches: cannot write into {args.directory}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
