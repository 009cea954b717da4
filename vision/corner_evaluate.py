"""Evaluate board reading under loosely clicked corners, as given and snapped.

Users click the field's corners a few pixels off: inside or outside the field, on the frame's
outer edge or on its lip.  ``python -m vision.corner_evaluate`` reads frames with their true
corners (synthetic: as drawn; real: the labels) moved in ways such clicks go wrong, each read
twice: with the corners as given, and snapped (:func:`calibration.snap.snap_corners`, which the
reader applies with ``read(..., snap=True)``).  Variants:

* ``given``: the corners as they are;
* ``out-along S`` / ``in-along S``: one corner (a different one for each frame) moved outward
  or inward along its horizontal edge by ``S`` of that edge's length;
* ``out-across S`` / ``in-across S``: the same along its vertical edge;
* ``random S``: all four corners moved at random, each coordinate up to ``S`` of the edge it
  runs along, either way.

Printed per variant: points read right, exact boards, and the corners' error (largest corner
distance as a share of the diagonal) before and after the snap, median and worst, with the
frames not exact.  Synthetic frames come from the shared cache (``--cache``) as
:mod:`vision.evaluate` draws them; real photos from ``../shared/data/boards`` (or
``$BGBRIDGE_REAL_BOARDS``), the ones without hands, each read ``--repeats`` times with other
draws of the moves.  ``--transform`` changes every frame first by one of
:data:`vision.augment.TRANSFORMS` (a dim room, a tilted camera...), the corners carried along.

>>> moved = perturb(((0, 0), (100, 0), (100, 50), (0, 50)), "out-along", 0.04, corner=1)
>>> [tuple(map(float, c)) for c in moved]
[(0.0, 0.0), (104.0, 0.0), (100.0, 50.0), (0.0, 50.0)]
>>> moved = perturb(((0, 0), (100, 0), (100, 50), (0, 50)), "in-across", 0.1, corner=3)
>>> tuple(map(float, moved[3]))
(0.0, 45.0)
"""
from __future__ import annotations

import argparse
import os
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from calibration.locate import corner_error
from calibration.snap import snap_corners
from vision.evaluate import _scene, _wrong_points, load_real, parse_seeds, real_dir, score_board
from vision.reader import BoardReader
from vision.render import RenderOptions

#: The other corner on the same horizontal edge, and on the same vertical edge (corners go
#: top-left, top-right, bottom-right, bottom-left).
SAME_ROW = {0: 1, 1: 0, 2: 3, 3: 2}
SAME_COLUMN = {0: 3, 1: 2, 2: 1, 3: 0}
KINDS = ("out-along", "in-along", "out-across", "in-across", "random")
SHARES = (0.01, 0.02, 0.04)


def perturb(corners: Sequence[Sequence[float]], kind: str, share: float, corner: int = 0,
            rng: np.random.Generator | None = None) -> np.ndarray:
    """``corners`` moved as variant ``kind`` by ``share`` (see the module notes); ``corner``
    is the one moved by the one-corner kinds, ``rng`` draws the random moves."""
    q = np.asarray(corners, np.float64).copy()
    if kind == "given":
        return q
    if kind == "random":
        rng = rng or np.random.default_rng(0)
        for i in range(4):
            along = q[i] - q[SAME_ROW[i]]
            across = q[i] - q[SAME_COLUMN[i]]
            q[i] = q[i] + share * (rng.uniform(-1, 1) * along + rng.uniform(-1, 1) * across)
        return q
    direction, edge = kind.split("-")
    other = SAME_ROW[corner] if edge == "along" else SAME_COLUMN[corner]
    sign = 1.0 if direction == "out" else -1.0
    q[corner] = q[corner] + sign * share * (q[corner] - q[other])
    return q


@dataclass
class VariantTally:
    """Totals for one variant, read as given and snapped."""

    frames: int = 0
    points: int = 0
    right: dict[str, int] = field(default_factory=lambda: {"given": 0, "snapped": 0})
    exact: dict[str, int] = field(default_factory=lambda: {"given": 0, "snapped": 0})
    errors: dict[str, list[float]] = field(default_factory=lambda: {"given": [], "snapped": []})
    not_exact: dict[str, list[str]] = field(default_factory=lambda: {"given": [], "snapped": []})
    snapped: int = 0

    def line(self, name: str) -> str:
        def part(how: str) -> str:
            e = self.errors[how]
            return (f"{how}: points {100 * self.right[how] / max(self.points, 1):7.3f}% exact "
                    f"{self.exact[how]:4d}/{self.frames}  corner error median "
                    f"{100 * statistics.median(e):.2f}% worst {100 * max(e):.2f}%")
        return (f"{name:16s} {part('given')}  | {part('snapped')}  "
                f"(snapped {self.snapped}/{self.frames})")


def variants(kinds: Sequence[str], shares: Sequence[float]) -> list[tuple[str, float]]:
    """The variants to read: ``given`` first, then each kind at each share.

    >>> variants(["out-along"], [0.01, 0.04])
    [('given', 0.0), ('out-along', 0.01), ('out-along', 0.04)]
    """
    return [("given", 0.0)] + [(k, s) for k in kinds for s in shares]


def read_variants(reader: BoardReader, image: np.ndarray, corners: Any, truth: Any,
                  label: str, todo: list[tuple[str, float]], corner: int,
                  rng: np.random.Generator, tallies: dict[str, VariantTally],
                  verbose: bool = False) -> None:
    """Read one frame under every variant, as given and snapped, adding to ``tallies``."""
    for kind, share in todo:
        name = kind if kind == "given" else f"{kind} {share:g}"
        moved = perturb(corners, kind, share, corner, rng)
        snap = snap_corners(image, moved)
        tally = tallies.setdefault(name, VariantTally())
        tally.frames += 1
        tally.points += 24
        tally.snapped += int(snap.snapped)
        for how, used in (("given", moved), ("snapped", np.asarray(snap.corners))):
            if how == "snapped" and not snap.snapped:
                obs = given_obs
            else:
                obs = reader.read(image, corners=tuple(map(tuple, used)))
                if how == "given":
                    given_obs = obs
            score = score_board(obs, truth)
            tally.right[how] += score["points_right"]
            tally.exact[how] += int(score["exact"])
            tally.errors[how].append(corner_error(tuple(map(tuple, used)), corners))
            if not score["exact"]:
                tally.not_exact[how].append(label)
                if verbose:
                    print(f"  {label} {name} {how}: "
                          + "; ".join(_wrong_points(obs, truth, score["mapping"])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.corner_evaluate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-149", help="synthetic seeds, e.g. 0-149,400")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"variants beside 'given' ({','.join(KINDS)})")
    parser.add_argument("--shares", default=",".join(map(str, SHARES)),
                        help="how far corners move, shares of the edge (0.01,0.02,0.04)")
    parser.add_argument("--repeats", type=int, default=4, help="draws per real photo (4)")
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--transform", default=None,
                        help="a transform of vision.augment.TRANSFORMS applied to every frame "
                             "first (e.g. 'dim room: gamma 1.8, noise 6, JPEG 70')")
    parser.add_argument("--verbose", action="store_true", help="print every misread")
    parser.add_argument("--cache", type=Path, default=os.environ.get("BGBRIDGE_FRAME_CACHE"),
                        help="folder of drawn synthetic frames, shared with vision.evaluate")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds {sorted(unknown)}")
    todo = variants(kinds, [float(s) for s in args.shares.split(",") if s])
    reader = BoardReader()
    transform = None
    if args.transform:
        from vision.augment import TRANSFORMS
        if args.transform not in TRANSFORMS:
            parser.error(f"unknown transform; one of {sorted(TRANSFORMS)}")
        transform = TRANSFORMS[args.transform]

    def report(title: str, tallies: dict[str, VariantTally]) -> None:
        print(title)
        for name, tally in tallies.items():
            print("  " + tally.line(name))
        for name, tally in tallies.items():
            if tally.not_exact["given"] or tally.not_exact["snapped"]:
                print(f"    {name}: not exact given {tally.not_exact['given']}, "
                      f"snapped {tally.not_exact['snapped']}")

    if not args.no_synthetic:
        seeds = parse_seeds(args.seeds)
        tallies: dict[str, VariantTally] = {}
        for seed in seeds:
            scene, _ = _scene(RenderOptions(seed=seed, hard=True),
                              Path(args.cache) if args.cache else None)
            image, corners = (transform(scene.image, scene.corners) if transform
                              else (scene.image, scene.corners))
            read_variants(reader, image, corners, scene.truth, str(seed), todo,
                          seed % 4, np.random.default_rng(seed), tallies, args.verbose)
        report(f"synthetic hard, seeds {args.seeds} ({len(seeds)} frames)"
               + (f", {args.transform}" if transform else ""), tallies)
    directory = real_dir()
    if not args.no_real and (directory / "labels.json").exists():
        tallies = {}
        frames = [f for f in load_real(directory) if f["truth"] is not None]
        for k, frame in enumerate(frames):
            for repeat in range(args.repeats):
                rng = np.random.default_rng(1000 * k + repeat)
                image, corners = (transform(frame["image"], frame["corners"]) if transform
                                  else (frame["image"], frame["corners"]))
                read_variants(reader, image, corners, frame["truth"],
                              f"{frame['name']}#{repeat}", todo if repeat == 0 else todo[1:],
                              (k + repeat) % 4, rng, tallies, args.verbose)
        report(f"real, {len(frames)} photos x {args.repeats} draws (label corners as truth)"
               + (f", {args.transform}" if transform else ""),
               tallies)
    elif not args.no_real:
        print(f"real: no labelled photos at {directory}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
