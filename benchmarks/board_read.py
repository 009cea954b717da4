"""CPU time of each stage of the board read (:meth:`vision.reader.BoardReader.read`).

    nice -n 5 .venv/bin/python benchmarks/board_read.py [-n 40] [--seed 0] [--easy]
        [--profile] [--dump out.json] [--against OLD_CHECKOUT]

Renders ``-n`` hard synthetic frames once (rendering is slow and not what is measured), then
reads each with its true corners, one OpenCV thread, timing every stage the reader calls
(rectification, checkers, trays, frame bands, occlusion; and within checkers the ring-evidence
maps, ``RingScorer``) in CPU seconds of this process.  Prints per-stage median and 90th
percentile in milliseconds, each stage's share of the whole read, and the minor page faults
per read (memory the process had to get from the system again: system CPU time, counted in
the figures).  ``--profile`` prints the top of a cProfile of the reads instead; ``--dump`` writes
every reading (the synthetic frames', then the real photos' when ``/work/shared/data`` or
``BGBRIDGE_REAL_BOARDS`` has them) as JSON, to check that a change leaves the readings identical.

``--against DIR`` times this checkout's whole read against another one's (a directory holding
its ``vision``, ``calibration`` and ``engine`` packages, e.g. from
``git archive COMMIT | tar -x -C DIR``), frame by frame in turn in this one process, and prints
both medians and their ratio: the machine is shared and its load swings, so only reads taken
side by side compare.
"""
from __future__ import annotations

import argparse
import cProfile
import functools
import json
import pstats
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

import vision.checkers as checkers_module  # noqa: E402
import vision.reader as reader_module  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import RenderOptions, render_board  # noqa: E402

#: The reader's stages, by the names it calls them under in :mod:`vision.reader`, and parts
#: of them by the names their modules call them under.
STAGES = ("rectify", "find_checkers", "read_trays", "frame_band", "find_occlusion")
PARTS = {"RingScorer": checkers_module}
#: The order of the table: each part under its stage.
SHOWN = ("rectify", "find_checkers", "RingScorer", "read_trays", "frame_band", "find_occlusion")


def _instrument(times: dict[str, list[float]]) -> None:
    """Wrap each stage in the reader's namespace (and each part in its caller's) so that every
    call adds its CPU time."""
    for name in STAGES + tuple(PARTS):
        module = PARTS.get(name, reader_module)
        original: Callable[..., Any] = getattr(module, name)

        @functools.wraps(original)
        def timed(*args: Any, _original: Callable[..., Any] = original, _name: str = name,
                  **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                times[_name].append(time.process_time() - start)

        setattr(module, name, timed)


def _reader_from(checkout: Path) -> Any:
    """A :class:`BoardReader` built from the packages of another checkout, its modules kept
    apart from this one's (each function keeps the module it was defined in)."""
    ours = ("vision", "calibration", "engine")

    def unload() -> dict[str, Any]:
        return {name: sys.modules.pop(name) for name in list(sys.modules)
                if name.split(".")[0] in ours}

    saved = unload()
    sys.path.insert(0, str(checkout))
    try:
        import vision.reader as theirs
        if not Path(theirs.__file__).resolve().is_relative_to(checkout.resolve()):
            raise SystemExit(f"{checkout} holds no vision package")
        return theirs.BoardReader()
    finally:
        sys.path.remove(str(checkout))
        unload()
        sys.modules.update(saved)


def _against(scenes: list, checkout: Path, repeat: int) -> int:
    """Whole reads of this checkout and another, interleaved (see the module notes)."""
    readers = {"this checkout": BoardReader(), str(checkout): _reader_from(checkout)}
    times: dict[str, list[float]] = {name: [] for name in readers}
    for reader in readers.values():  # first reads fill lookup tables; not counted
        reader.read(scenes[0].image, corners=scenes[0].corners)
    for _ in range(repeat):
        for scene in scenes:
            for name, reader in readers.items():
                start = time.process_time()
                reader.read(scene.image, corners=scene.corners)
                times[name].append(time.process_time() - start)
    base = statistics.median(times[str(checkout)])
    print(f"{len(scenes) * repeat} reads each, interleaved, CPU ms, 1 OpenCV thread")
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"  {name:<40} median {statistics.median(ms):6.2f}  p90 {_percentile(ms, 0.9):6.2f}"
              f"  ({statistics.median(values) / base:.3f} of the other's median)")
    return 0


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--frames", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--easy", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="reads of each frame")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--dump", type=Path, help="write every reading as JSON here")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="time against another checkout's reader, interleaved")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    scenes = [render_board(None, RenderOptions(seed=args.seed + i, hard=not args.easy))
              for i in range(args.frames)]
    if args.against:
        return _against(scenes, args.against, args.repeat)
    reader = BoardReader()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for scene in scenes:
            reader.read(scene.image, corners=scene.corners)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(35)
        return 0
    times: dict[str, list[float]] = {name: [] for name in STAGES + tuple(PARTS)}
    _instrument(times)
    whole: list[float] = []
    faults: list[int] = []
    readings = []
    for _ in range(args.repeat):
        for scene in scenes:
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            start = time.process_time()
            obs = reader.read(scene.image, corners=scene.corners)
            whole.append(time.process_time() - start)
            faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
            if len(readings) < len(scenes):
                readings.append(obs.to_json())
    print(f"{len(whole)} reads of {args.frames} {'easy' if args.easy else 'hard'} frames "
          f"({scenes[0].image.shape[1]}x{scenes[0].image.shape[0]}), CPU ms, 1 OpenCV thread")
    total = statistics.median(whole) * 1000
    for name, values in [(name, times[name]) for name in SHOWN] + [("whole read", whole)]:
        ms = [v * 1000 for v in values]
        median = statistics.median(ms)
        label = f"  {name}" if name in PARTS else name
        print(f"  {label:<15} median {median:6.2f}  p90 {_percentile(ms, 0.9):6.2f}  "
              f"({median / total:5.1%} of the whole read's median)")
    print(f"  minor page faults per read: median {statistics.median(faults):.0f}")
    if args.dump:
        from vision.evaluate import load_real, real_dir
        try:
            real = load_real(real_dir())
        except (FileNotFoundError, OSError):
            real = []
        for frame in real:
            obs = reader.read(frame["image"], corners=frame["corners"])
            readings.append({"name": frame["name"], **obs.to_json()})
        args.dump.write_text(json.dumps(readings, indent=1))
        print(f"wrote {len(readings)} readings ({len(real)} real) to {args.dump}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
