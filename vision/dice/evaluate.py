"""The dice stage's own evaluation: how many dice are found and read right, on labelled frames.

``python -m vision.dice.evaluate [--set synthetic|real|real-train|real-all|boards] [-n N] [--seed S]``
prints the figures; :func:`run` returns them (the aggregate ``python -m vision.evaluate``
prints them in its dice section).

Sets:

- ``synthetic`` — ``n`` seeded scenes from :mod:`vision.dice.scenes` (boards and tables,
  eight dice styles, cocked dice, doubling cubes);
- ``real`` — the validation photos of the real labelled dice set (``valid/``), ``real-train``
  its development photos (``train/``), ``real-all`` both.  The set is looked for in
  ``$BGBRIDGE_DICE_DATA``, else ``../shared/data/dice/matteop65`` next to the checkout.
  Labels are YOLO boxes around each top face (class 0..5 = value 1..6).
- ``boards`` — dice lying on real backgammon boards (``boards/`` of the shared real data, looked
  for in ``$BGBRIDGE_REAL_BOARDS``, else ``../shared/data/boards``): read with the labelled
  playing field's corners as the region, scored against the labelled dice centres and the
  values read by eye (:data:`BOARD_DICE_BY_EYE`).  A die whose value cannot be made out by eye
  counts for ``dice_found_recall`` only.

Figures (fractions unless named otherwise):

- ``dice_found_recall`` — labelled dice with a reported die on them;
- ``dice_read_accuracy`` — flat labelled dice reported with their right value;
- ``dice_misread`` — flat labelled dice reported with a wrong value (the costly error);
- ``dice_unread`` — flat labelled dice found but reported without a value;
- ``cocked_read_as_number`` — cocked dice reported with a value (must be 0);
- ``cocked_flagged`` — cocked dice reported as cocked;
- ``false_dice`` — reported dice on no labelled die, per frame; ``cube_read_as_die`` — doubling
  cubes reported as a die, as a fraction of the cubes shown;
- ``frames_all_right`` — frames where every die is found and read right and nothing else reported;
- ``ms_per_frame`` — mean reading time.

With ``--errata`` the few labels found wrong by eye (:data:`LABEL_ERRATA`, each with its reason)
are replaced before scoring; without it the labels count exactly as published.

>>> figures = run("synthetic", n=3)
>>> sorted(figures)[:3]
['cocked_dice', 'cocked_flagged', 'cocked_read_as_number']
>>> 0.0 <= figures["dice_read_accuracy"] <= 1.0
True
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from vision.dice.reader import DiceObservation, DiceReader
from vision.dice.scenes import make_scene

SETS = ("synthetic", "real", "real-train", "real-all", "boards")

#: The top values of the dice lying on the real board photos (``boards/labels.json`` gives only
#: their centres), read BY EYE from crops enlarged 6-12x, in the order of the labels' ``dice``
#: lists.  ``None``: not readable by eye (a translucent red die on a black point shows one bright
#: pip off its face's centre, and its other pips, if any, are lost in the glare).  No die in
#: these photos looks cocked.
BOARD_DICE_BY_EYE: dict[str, tuple[int | None, ...]] = {
    "wtc2022-a.jpg": (3, 5),            # black dice, white pips
    "wtc2022-b.jpg": (3, 3),
    "fm-gold-a.jpg": (5, 2),            # translucent green, translucent red
    "fm-gold-b.jpg": (4, None),         # translucent green; translucent red on a black point
    "fm-wood.jpg": (3, 5),              # black dice, white pips
    "start-red-black.jpg": (4, 2, 5, 1),  # translucent red (2), white (2), seen at a slant
}


@dataclass(frozen=True)
class TruthDie:
    """A labelled die: centre, value, whether it is cocked, and how far a report may be from it."""

    x: float
    y: float
    value: int | None  # None: a flat die whose value the labels do not give (not readable by eye)
    cocked: bool
    reach: float


@dataclass(frozen=True)
class LabelledFrame:
    name: str
    image: np.ndarray
    dice: tuple[TruthDie, ...]
    region: tuple[tuple[float, float], ...] | None = None
    cube: tuple[float, float, float, float] | None = None


#: Labels of the real set that are wrong, found by eye: (photo, line number from 1) -> the line
#: that describes the die as it lies (empty where no die lies), and why.  Used only with ``--errata``.
LABEL_ERRATA: dict[tuple[str, int], tuple[str, str]] = {
    ("valid/valid_56.jpg", 3): (
        "0 0.739844 0.569792 0.090000 0.120000",
        "the die at (473, 273) shows a single pip on top; its box (13x9 px, around that pip) "
        "is labelled 4",
    ),
    ("train/five_1.jpg", 1): (
        "",
        "the box labelled 1 at (464, 208) holds bare table: the photo shows one die, the 5 beside it",
    ),
}


def real_data_dir() -> Path:
    """Where the real labelled dice photos are expected."""
    env = os.environ.get("BGBRIDGE_DICE_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice" / "matteop65"


def read_yolo_labels(path: Path, width: int, height: int,
                     replace: dict[int, str] | None = None) -> tuple[TruthDie, ...]:
    """One die per line: ``class x y w h`` relative to the image, class 0..5 for values 1..6.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = f.write_text("2 0.5 0.25 0.1 0.2\\n")
    >>> read_yolo_labels(f, 640, 480)
    (TruthDie(x=320.0, y=120.0, value=3, cocked=False, reach=57.6),)
    """
    dice = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        parts = (replace or {}).get(number, line).split()
        if len(parts) != 5:
            continue
        cls, x, y, w, h = int(parts[0]), *map(float, parts[1:])
        size = max(w * width, h * height)
        dice.append(TruthDie(x * width, y * height, cls + 1, False, round(0.6 * size, 2)))
    return tuple(dice)


def real_frames(set_name: str, limit: int | None = None, errata: bool = False
                ) -> Iterator[LabelledFrame]:
    """The labelled real photos of a set, in name order (with :data:`LABEL_ERRATA` if asked)."""
    root = real_data_dir()
    folders = {"real": ["valid"], "real-train": ["train"], "real-all": ["train", "valid"]}[set_name]
    if not root.is_dir():
        raise FileNotFoundError(f"the real dice photos are not at {root} (set BGBRIDGE_DICE_DATA)")
    count = 0
    for folder in folders:
        for image_path in sorted((root / folder).glob("*.jpg"), key=lambda p: (len(p.stem), p.stem)):
            if limit is not None and count >= limit:
                return
            image = cv2.imread(str(image_path))
            label_path = image_path.with_suffix(".txt")
            if image is None or not label_path.exists():
                continue
            h, w = image.shape[:2]
            count += 1
            name = f"{folder}/{image_path.name}"
            replace = ({line: fix for (photo, line), (fix, _) in LABEL_ERRATA.items() if photo == name}
                       if errata else None)
            yield LabelledFrame(name, image, read_yolo_labels(label_path, w, h, replace))


def board_frames(limit: int | None = None) -> Iterator[LabelledFrame]:
    """The real board photos with dice on their field, read within the labelled field's corners.

    A report counts for a labelled die within 3% of the field's width of its centre (a die's
    edge is about 3-5% of the field's width; the labelled centres are approximate).
    """
    import json

    from vision.evaluate import real_dir

    root = real_dir()
    labels_path = root / "labels.json"
    if not labels_path.is_file():
        raise FileNotFoundError(f"the real board photos are not at {root} (set BGBRIDGE_REAL_BOARDS)")
    images = json.loads(labels_path.read_text())["images"]
    count = 0
    for name, label in sorted(images.items()):
        if name not in BOARD_DICE_BY_EYE or not label.get("dice"):
            continue
        if limit is not None and count >= limit:
            return
        image = cv2.imread(str(root / name))
        if image is None:
            continue
        count += 1
        corners = tuple((float(x), float(y)) for x, y in label["corners"])
        width = 0.5 * (math.dist(corners[0], corners[1]) + math.dist(corners[3], corners[2]))
        values = BOARD_DICE_BY_EYE[name]
        dice = tuple(TruthDie(float(x), float(y), value, False, round(0.03 * width, 2))
                     for (x, y), value in zip(label["dice"], values))
        yield LabelledFrame(f"boards/{name}", image, dice, corners)


def synthetic_frames(n: int, seed: int = 0) -> Iterator[LabelledFrame]:
    for k in range(n):
        scene = make_scene(seed + k)
        dice = tuple(TruthDie(d.centre[0], d.centre[1], d.value, d.cocked, 0.6 * d.size_px) for d in scene.dice)
        yield LabelledFrame(f"synthetic/{seed + k}", scene.image, dice, scene.region, scene.cube)


@dataclass
class Tally:
    frames: int = 0
    frames_all_right: int = 0
    flat: int = 0
    cocked: int = 0
    found: int = 0
    right: int = 0
    misread: int = 0
    unread: int = 0
    cocked_numbered: int = 0
    cocked_flagged: int = 0
    false: int = 0
    cubes: int = 0
    cubes_as_dice: int = 0
    flat_cocked: int = 0      # flat labelled dice called cocked
    unknown: int = 0          # flat dice whose value is not labelled (found or not)
    unknown_found: int = 0
    unknown_cocked: int = 0   # ... of them called cocked
    seconds: float = 0.0


def match(truth: tuple[TruthDie, ...], observation: DiceObservation) -> tuple[dict[int, int], list[int]]:
    """Pair labelled dice with reported ones (closest first, within reach); returns (truth->report, unmatched reports)."""
    pairs = []
    for t, die in enumerate(truth):
        for r, seen in enumerate(observation.dice):
            d = math.hypot(seen.x - die.x, seen.y - die.y)
            if d <= die.reach:
                pairs.append((d, t, r))
    matched: dict[int, int] = {}
    used: set[int] = set()
    for _, t, r in sorted(pairs):
        if t not in matched and r not in used:
            matched[t] = r
            used.add(r)
    return matched, [r for r in range(len(observation.dice)) if r not in used]


def score_frame(frame: LabelledFrame, observation: DiceObservation, tally: Tally) -> list[str]:
    """Add one frame to the tally; returns descriptions of its mistakes."""
    matched, extra = match(frame.dice, observation)
    mistakes = []
    tally.frames += 1
    for t, die in enumerate(frame.dice):
        seen = observation.dice[matched[t]] if t in matched else None
        if die.cocked:
            tally.cocked += 1
            if seen is not None and seen.value is not None:
                tally.cocked_numbered += 1
                mistakes.append(f"cocked die at ({die.x:.0f},{die.y:.0f}) read as {seen.value}")
            if seen is not None and seen.cocked:
                tally.cocked_flagged += 1
            if seen is not None:
                tally.found += 1
            continue
        if die.value is None:
            tally.unknown += 1
            if seen is None:
                mistakes.append(f"unlabelled die at ({die.x:.0f},{die.y:.0f}) not found")
            else:
                tally.unknown_found += 1
                if seen.cocked:
                    tally.unknown_cocked += 1
                    mistakes.append(f"unlabelled flat die at ({die.x:.0f},{die.y:.0f}) called cocked")
            continue
        tally.flat += 1
        if seen is None:
            mistakes.append(f"{die.value} at ({die.x:.0f},{die.y:.0f}) not found")
            continue
        tally.found += 1
        if seen.value == die.value:
            tally.right += 1
        elif seen.value is None:
            tally.unread += 1
            tally.flat_cocked += seen.cocked
            mistakes.append(f"{die.value} at ({die.x:.0f},{die.y:.0f}) found but not read"
                            f"{' (called cocked)' if seen.cocked else ''}")
        else:
            tally.misread += 1
            mistakes.append(f"{die.value} at ({die.x:.0f},{die.y:.0f}) read as {seen.value}")
    if frame.cube is not None:
        tally.cubes += 1
        x0, y0, x1, y1 = frame.cube
        if any(x0 <= observation.dice[r].x <= x1 and y0 <= observation.dice[r].y <= y1 for r in extra):
            tally.cubes_as_dice += 1
            mistakes.append("doubling cube reported as a die")
    tally.false += len(extra)
    for r in extra:
        d = observation.dice[r]
        mistakes.append(f"false die at ({d.x:.0f},{d.y:.0f}) value {d.value}")
    if not mistakes:
        tally.frames_all_right += 1
    return mistakes


def figures(tally: Tally) -> dict[str, float]:
    def ratio(a: int, b: int) -> float:
        return round(a / b, 4) if b else float("nan")

    return {
        "dice_read_accuracy": ratio(tally.right, tally.flat),
        "dice_found_recall": ratio(tally.found + tally.unknown_found, tally.flat + tally.cocked + tally.unknown),
        "dice_misread": ratio(tally.misread, tally.flat),
        "dice_unread": ratio(tally.unread, tally.flat),
        "flat_called_cocked": ratio(tally.flat_cocked + tally.unknown_cocked, tally.flat + tally.unknown),
        "cocked_read_as_number": ratio(tally.cocked_numbered, tally.cocked),
        "cocked_flagged": ratio(tally.cocked_flagged, tally.cocked),
        "false_dice": ratio(tally.false, tally.frames),
        "cube_read_as_die": ratio(tally.cubes_as_dice, tally.cubes),
        "frames_all_right": ratio(tally.frames_all_right, tally.frames),
        "ms_per_frame": round(1000.0 * tally.seconds / max(tally.frames, 1), 1),
        "frames": float(tally.frames),
        "dice": float(tally.flat + tally.unknown),
        "cocked_dice": float(tally.cocked),
    }


def frames_of(set_name: str, n: int, seed: int = 0, errata: bool = False) -> Iterator[LabelledFrame]:
    if set_name == "synthetic":
        return synthetic_frames(n, seed)
    if set_name == "boards":
        return board_frames(limit=n)
    if set_name in SETS:
        return real_frames(set_name, limit=n, errata=errata)
    raise ValueError(f"unknown dice evaluation set {set_name!r} (one of {', '.join(SETS)})")


def run(set_name: str = "synthetic", n: int = 500, seed: int = 0, reader: DiceReader | None = None,
        verbose: bool = False, errata: bool = False) -> dict[str, float]:
    """Read ``n`` frames of a set (all of a real set if it has fewer) and return the figures."""
    reader = reader or DiceReader()
    tally = Tally()
    for frame in frames_of(set_name, n, seed, errata):
        start = time.perf_counter()
        observation = reader.read(frame.image, frame.region)
        tally.seconds += time.perf_counter() - start
        mistakes = score_frame(frame, observation, tally)
        if verbose and mistakes:
            print(f"{frame.name}: " + "; ".join(mistakes))
    return figures(tally)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.dice.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="set_name", choices=SETS, default="synthetic")
    parser.add_argument("-n", type=int, default=500, help="frames to read (default 500; a real set has fewer)")
    parser.add_argument("--seed", type=int, default=0, help="first synthetic scene")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every mistake")
    parser.add_argument("--errata", action="store_true",
                        help="score the real set with the labels found wrong by eye corrected")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("-n must be at least 1")
    try:
        result = run(args.set_name, args.n, args.seed, verbose=args.verbose, errata=args.errata)
    except FileNotFoundError as exc:
        print(f"vision.dice.evaluate: {exc}", file=sys.stderr)
        return 2
    print(f"dice set {args.set_name}:")
    if args.errata and args.set_name not in ("synthetic", "boards"):
        folders = {"real": ("valid/",), "real-train": ("train/",), "real-all": ("train/", "valid/")}[args.set_name]
        for (photo, line), (_, why) in LABEL_ERRATA.items():
            if photo.startswith(folders):
                print(f"  erratum {photo} line {line}: {why}")
    for key, value in result.items():
        print(f"  {key:24s} {value:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
