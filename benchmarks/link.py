"""Round-trip latency of the indicator unit's link: the firmware under simavr vs the emulator.

    .venv/bin/python benchmarks/link.py [--count 500] [--emulator-only]

For each device, ``--count`` short requests (``ping`` -> ``ok``, 14 bytes out, 12 back) one at a
time, measured two ways: through the whole host stack (``Unit.request(...).result()``: worker
thread, reader thread, futures) and with a bare pyserial loop (write the frame, read until the
reply).  Prints median and p99 in milliseconds and each figure's ratio to the same measurement
on the emulator, run in the same process.  The time the bytes need on a 115200-baud wire
(11 bits per byte as simavr counts them) is printed for scale.  The simavr run needs the AVR
tool chain and libsimavr (``scripts/setup.sh --test``).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import serial  # noqa: E402

from firmware_link.emulator import Emulator  # noqa: E402
from firmware_link.link import Unit  # noqa: E402
from firmware_link.protocol import BAUD_RATE, PROTO_VERSION, FrameDecoder, encode, request  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def through_unit(url: str, count: int) -> list[float]:
    with Unit(url) as unit:
        if not unit.wait_ready(10):
            raise SystemExit(f"link.py: no answer from {url}")
        for _ in range(20):  # warm up
            unit.request("ping").result(5)
        times = []
        for _ in range(count):
            start = time.perf_counter()
            unit.request("ping").result(5)
            times.append(time.perf_counter() - start)
    return times


def bare(url: str, count: int) -> list[float]:
    port = serial.serial_for_url(url, BAUD_RATE, timeout=1)
    decoder = FrameDecoder()
    try:
        port.write(request(0, "hello", PROTO_VERSION, "B00B"))
        time.sleep(0.3)
        port.reset_input_buffer()
        times = []
        for i in range(count):
            seq = (i + 1) & 0xFF
            start = time.perf_counter()
            port.write(request(seq, "ping"))
            done = False
            while not done:
                for frame in decoder.feed(port.read(port.in_waiting or 1)):
                    done = done or (frame.kind == "=" and frame.seq == seq)
            times.append(time.perf_counter() - start)
    finally:
        port.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=500, help="requests per measurement (default 500)")
    parser.add_argument("--emulator-only", action="store_true", help="skip the simavr run")
    args = parser.parse_args()
    if args.count < 10:
        parser.error("--count must be at least 10")

    results: dict[str, dict[str, list[float]]] = {}
    with Emulator() as emulator:
        url = emulator.start("pty")
        results["emulator"] = {"Unit": through_unit(url, args.count), "bare": bare(url, args.count)}

    if not args.emulator_only:
        from firmware_link.sim import BuildError, SimulatedUnit, build

        with tempfile.TemporaryDirectory(prefix="bgled-bench-") as tmp:
            try:
                paths = build(tmp)
            except (BuildError, OSError) as exc:
                print(f"link.py: cannot build the firmware and harness ({str(exc).splitlines()[0]}); "
                      "install the tools with scripts/setup.sh --test or use --emulator-only",
                      file=sys.stderr)
                return 2
            with SimulatedUnit(paths, link=Path(tmp) / "uart0") as chip:
                url = chip.start()
                results["simavr"] = {"Unit": through_unit(url, args.count), "bare": bare(url, args.count)}

    wire = (len(request(1, "ping")) + len(encode("=01 ok"))) * 11 / BAUD_RATE
    print(f"round trip of ping/ok, {args.count} requests each, one at a time "
          f"(wire time at {BAUD_RATE} baud: {wire * 1000:.2f} ms)")
    print(f"{'device':10} {'path':6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} "
          f"{'median/emu':>11} {'p99/emu':>8}")
    for device, runs in results.items():
        for path, times in runs.items():
            base = results["emulator"][path]
            med, p99 = statistics.median(times), percentile(times, 99)
            print(f"{device:10} {path:6} {med * 1000:10.2f} {p99 * 1000:8.2f} {max(times) * 1000:8.2f} "
                  f"{med / statistics.median(base):11.1f} {p99 / percentile(base, 99):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
