"""Throughput of the gnubg client, as ratios against peers run in the same process.

Run: ``.venv/bin/python tests/gnubg/bench_gnubg.py [positions]`` (default 40 positions x 21 rolls).
Prints the time per position-roll of (a) our engine's ``legal_plays``, (b) one gnubg client,
(c) three gnubg clients in threads, and the ratios between them.  Not a test: nothing asserted.
"""
from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from engine.gnubg import Gnubg
from engine.sampling import ALL_ROLLS, game_positions, scatter


def main(count: int) -> None:
    rng = random.Random(7)
    positions = list(game_positions(rng, count // 2)) + [scatter(rng) for _ in range(count - count // 2)]
    jobs = [(p, dice) for p in positions for dice in ALL_ROLLS]

    start = time.perf_counter()
    for position, dice in jobs:
        {play.result.position_id() for play in position.legal_plays(dice)}
    ours = (time.perf_counter() - start) / len(jobs)

    with Gnubg() as client:
        start = time.perf_counter()
        for position, dice in jobs:
            client.legal_result_ids(position.position_id(), dice)
        one = (time.perf_counter() - start) / len(jobs)

    def run(part: list) -> None:
        with Gnubg() as client:
            for position, dice in part:
                client.legal_result_ids(position.position_id(), dice)

    start = time.perf_counter()
    with ThreadPoolExecutor(3) as pool:
        list(pool.map(run, [jobs[i::3] for i in range(3)]))
    three = (time.perf_counter() - start) / len(jobs)

    print(f"{len(jobs)} position-rolls")
    print(f"our engine legal_plays      {ours * 1e6:9.0f} us each")
    print(f"gnubg, one client           {one * 1e6:9.0f} us each  ({one / ours:.0f}x our engine)")
    print(f"gnubg, three clients        {three * 1e6:9.0f} us each  ({one / three:.2f}x one client)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
