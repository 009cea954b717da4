"""Where in the reader a synthetic scene's dice are lost: one stage per flat die not read right.

``python -m vision.dice.diagnose [-n N] [--seed S] [-v]`` reads ``n`` scenes of
:mod:`vision.dice.scenes` and attributes every flat (not cocked) die that is not read right to
the first stage of :mod:`vision.dice.reader` that lost it, then tabulates the stages per dice
style, size and value (``-v`` lists every lost die):

- ``pips: not found`` — fewer candidate pips inside its top face than its value, even before
  the plain-face clarity test;
- ``pips: clarity test`` — enough candidates, but the clarity test dropped some;
- ``faces: not grouped`` — its pips were found but grouped into no face lying on its top;
- ``faces: grouped as N`` — the face on its top has the wrong number of pips (its pips split, or
  joined with others: the far faces' pips seen through a translucent die);
- ``one: no outline`` — a one whose lone pip has no face edge closing around it
  (:func:`~vision.dice.reader._lone_pip_face_size`; no side faces vouch for it either);
- ``dice: no outline`` — on a board, a top of one to three pips whose colour does not end near
  its square on enough rays (:func:`~vision.dice.reader._face_outline_closes`);
- ``dice: other`` — the right face was found and lost while assembling dice (a ghost of a clearer
  face, a face cut by the border, marks on it, a missing pip, taken as a side face ...);
- ``read as cocked`` / ``read unread`` / ``read wrong`` — reported, but cocked, without a value,
  or with another value, though its right face was found.

Nothing here changes what the reader does: each stage is run again on its own.

>>> counts = diagnose(range(2))
>>> sum(counts.values()) > 0 and all(stage in STAGES for _, stage in counts)
True
"""
from __future__ import annotations

import argparse
import collections
import math
import sys
from dataclasses import dataclass
from typing import Iterable

import cv2
import numpy as np

from vision.dice.reader import (DiceReader, ReaderSettings, _face_outline_closes, _lone_pip_face_size,
                                find_faces, find_pips)
from vision.dice.render import RenderedDie
from vision.dice.scenes import DiceScene, make_scene

STAGES = ("read", "pips: not found", "pips: clarity test", "faces: not grouped", "faces: grouped wrong",
          "one: no outline", "dice: no outline", "dice: other", "read as cocked", "read unread", "read wrong")


@dataclass(frozen=True)
class DieTrace:
    """What became of one flat die of a scene."""

    seed: int
    style: str
    size_px: float
    value: int
    on_board: bool
    stage: str                  # one of STAGES
    detail: str = ""            # e.g. the value its face was grouped as

    def size_band(self) -> str:
        """The die's size band: ``"<30"``, ``"30-39"`` or ``">=40"`` pixels (edge).

        >>> DieTrace(0, "red", 34.0, 2, True, "read").size_band()
        '30-39'
        """
        return "<30" if self.size_px < 30 else "30-39" if self.size_px < 40 else ">=40"


def _within(die: RenderedDie, xy: Iterable[float], margin: float = 0.0) -> bool:
    """Is the point on the die's top face (or within ``margin`` pixels of it)?"""
    x, y = xy
    return cv2.pointPolygonTest(die.top_face.astype(np.float32).reshape(-1, 1, 2), (float(x), float(y)),
                                True) >= -margin


def trace_scene(scene: DiceScene, reader: DiceReader | None = None) -> list[DieTrace]:
    """The fate of each flat die of ``scene`` (cocked dice are left out: they must read as none)."""
    reader = reader or DiceReader()
    settings = reader.settings
    observation = reader.read(scene.image, scene.region)
    # (The reader works on the region's bounding box; a synthetic board's region is the whole
    # frame, so the stages run on the whole frame see the same pixels.)
    field_ = find_pips(scene.image, None, settings, split_joined=scene.region is not None)
    loose = find_pips(scene.image, None, ReaderSettings(**{**settings.__dict__, "min_pip_clarity": 0.0}),
                      split_joined=scene.region is not None)
    faces = find_faces(field_, scene.image, settings)
    out = []
    for die in scene.dice:
        if die.cocked:
            continue
        near = [d for d in observation.dice if math.hypot(d.x - die.centre[0], d.y - die.centre[1]) < 0.6 * die.size_px]
        on_top = [f for f in faces if _within(die, f.centre, 0.15 * die.size_px)]
        right = [f for f in on_top if f.value == die.value]
        detail = ""
        if any(d.value == die.value and not d.cocked for d in near):
            stage = "read"
        elif near and right:
            stage = ("read as cocked" if any(d.cocked for d in near) else
                     "read unread" if all(d.value is None for d in near) else "read wrong")
        elif right:
            face = right[0]
            if face.value == 1:
                pip = field_.pips[face.pips[0]]
                lost = _lone_pip_face_size(field_, scene.image, pip, settings) is None
                stage = "one: no outline" if lost else "dice: other"
            elif scene.region is not None and face.value <= 3 and \
                    not _face_outline_closes(field_, face, scene.image, settings.min_outline_share):
                stage = "dice: no outline"
            else:
                stage = "dice: other"
        else:
            kept = sum(_within(die, p.xy) for p in field_.pips)
            found = sum(_within(die, p.xy) for p in loose.pips)
            if kept < die.value:
                stage = "pips: clarity test" if found >= die.value else "pips: not found"
                detail = f"{kept} of {die.value} kept, {found} found"
            elif on_top:
                stage, detail = "faces: grouped wrong", f"as {max(f.value for f in on_top)}"
            else:
                stage = "faces: not grouped"
        out.append(DieTrace(scene.seed, die.style, die.size_px, die.value, scene.region is not None, stage, detail))
    return out


def diagnose(seeds: Iterable[int], verbose: bool = False) -> collections.Counter:
    """Counts of ``(style, stage)`` over the flat dice of the scenes ``seeds`` (printing each lost
    die with ``verbose``)."""
    reader = DiceReader()
    counts: collections.Counter = collections.Counter()
    for seed in seeds:
        for trace in trace_scene(make_scene(seed), reader):
            counts[(trace.style, trace.stage)] += 1
            counts[("size " + trace.size_band(), trace.stage)] += 1
            counts[(f"value {trace.value}", trace.stage)] += 1
            if verbose and trace.stage != "read":
                print(f"synthetic/{trace.seed}: {trace.style} {trace.value} ({trace.size_px:.0f} px, "
                      f"{'board' if trace.on_board else 'table'}): {trace.stage} {trace.detail}".rstrip())
    return counts


def table(counts: collections.Counter) -> str:
    """The counts as a table: one row per style / size band / value, one column per stage seen.

    >>> print(table(collections.Counter({("red", "read"): 3, ("red", "pips: not found"): 1})))
    group            n  read  pips: not found
    red              4     3                1
    """
    stages = [s for s in STAGES if any(stage == s for _, stage in counts)]
    groups = sorted({g for g, _ in counts}, key=lambda g: (g.startswith("size"), g.startswith("value"), g))
    lines = [f"{'group':14s} {'n':>3s}  " + "  ".join(f"{s:>{max(4, len(s))}s}" for s in stages)]
    for g in groups:
        n = sum(counts[(g, s)] for s in stages)
        lines.append(f"{g:14s} {n:3d}  " + "  ".join(f"{counts[(g, s)]:>{max(4, len(s))}d}" for s in stages))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.dice.diagnose", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300, help="scenes to read (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="first scene")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every lost die")
    args = parser.parse_args(argv)
    print(table(diagnose(range(args.seed, args.seed + args.n), args.verbose)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
