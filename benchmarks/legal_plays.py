"""Time our legal-play generator against gnubg's C generator (PyPI gnubg-nn) on the same positions.

    .venv/bin/python benchmarks/legal_plays.py [--positions 10000] [--seed 1]

Prints, per generator, the median, mean and 99th percentile time per position (one random roll
each, positions from random legal games; the least of ``--repeats`` runs), and the ratios.  Both run in this process, one after
the other on each position, so machine load affects both alike.  ``engine.generate`` returns the
step sequences of every distinct play; ``LegalPlays`` also builds Play objects and their results.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg_nn  # noqa: E402  (GPL, test/benchmark only)

from engine.movegen import LegalPlays, generate  # noqa: E402
from engine.sampling import game_positions, roll  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="runs per position; the least counts")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [(p, roll(rng)) for p in game_positions(rng, args.positions)]
    boards = [[list(p.board[1 - p.turn]), list(p.board[p.turn])] for p, _ in cases]

    clock = time.perf_counter

    def best_of(repeats: int, work) -> float:
        # The least of a few runs: on a shared machine the rest is other processes' time.
        best = float("inf")
        for _ in range(repeats):
            t0 = clock()
            work()
            best = min(best, clock() - t0)
        return best

    def materialise(position, dice) -> None:
        for play in LegalPlays(position, dice):
            play.result

    ours, full, theirs = [], [], []
    for (position, dice), board in zip(cases, boards):
        ours.append(best_of(args.repeats, lambda: generate(position, dice)))
        full.append(best_of(args.repeats, lambda: materialise(position, dice)))
        theirs.append(best_of(args.repeats, lambda: gnubg_nn.moves(board, dice[0], dice[1])))

    def row(name: str, times: list[float]) -> str:
        us = sorted(t * 1e6 for t in times)
        p99 = us[int(0.99 * (len(us) - 1))]
        return f"{name:<34} median {statistics.median(us):7.1f} us   mean {statistics.fmean(us):7.1f} us   p99 {p99:8.1f} us"

    doubles = [i for i, (_, d) in enumerate(cases) if d[0] == d[1]]
    print(f"{len(cases)} positions from random games, one random roll each ({len(doubles)} doubles)")
    print(row("bgbridge engine.generate", ours))
    print(row("bgbridge LegalPlays + results", full))
    print(row("gnubg-nn moves (C)", theirs))
    print(row("bgbridge generate, doubles only", [ours[i] for i in doubles]))
    print(row("gnubg-nn, doubles only", [theirs[i] for i in doubles]))
    print(
        f"ratio of medians  generate/gnubg-nn {statistics.median(ours) / statistics.median(theirs):.1f}x   "
        f"LegalPlays/gnubg-nn {statistics.median(full) / statistics.median(theirs):.1f}x"
    )
    print(f"ratio of means    generate/gnubg-nn {statistics.fmean(ours) / statistics.fmean(theirs):.1f}x")


if __name__ == "__main__":
    main()
