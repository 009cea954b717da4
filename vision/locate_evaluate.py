"""Evaluate the calibration stages on their own: finding the field, and the board check.

It lives in :mod:`vision` because it draws its frames with :mod:`vision.render`, and
``calibration`` imports nothing of ``vision``.

``python -m vision.locate_evaluate`` prints, for the automatic localisation
(:func:`calibration.locate.locate_field`), the share of frames where a board was found, the corner
error (largest corner distance as a share of the field's diagonal, up to the half turn the
calibration decides) and the share of frames within 1% and 2% of it, on the synthetic hard set
and, when present, on the labelled real photos (``../shared/data/boards`` or
``$BGBRIDGE_REAL_BOARDS``), as they are and changed by each transform of :mod:`vision.augment`
(turned, smaller, tilted further, darker, brighter, JPEG...: photos the reader will meet).  Then the board check (:meth:`Calibration.check`): calibrated on one
frame, it must say ``ok`` for frames of the same board with other checkers and dice, ``occluded``
for a hand over the board and ``moved`` for a bumped camera; scored on rendered sequences and on
the real frames that share a camera.

>>> summary = summarise_errors([0.005, 0.015, 0.5], tried=4)
>>> summary["within_1pct"], summary["found"], summary["wrong"]
(0.25, 0.75, 0.25)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.calibration import Calibration
from calibration.locate import LocateError, align_to, corner_error, locate_field
from vision.evaluate import real_dir
from vision.render import RenderOptions, render_board


def summarise_errors(errors: list[float], tried: int) -> dict[str, float]:
    """Found rate, median error, the shares within 1% and 2% (misses count as failures) and the
    share found wrong: more than 5% off (a field a point astray; the real labels are only good
    to about 2-3%)."""
    tried = max(tried, 1)
    return {
        "found": len(errors) / tried,
        "median_error": statistics.median(errors) if errors else float("nan"),
        "within_1pct": sum(e <= 0.01 for e in errors) / tried,
        "within_2pct": sum(e <= 0.02 for e in errors) / tried,
        "wrong": sum(e > 0.05 for e in errors) / tried,
    }


def _locate_one(image: np.ndarray, truth: Any) -> tuple[float | None, float, str]:
    start = time.process_time()
    try:
        found = locate_field(image)
    except LocateError as exc:
        return None, time.process_time() - start, str(exc)
    seconds = time.process_time() - start
    return corner_error(align_to(found, truth), truth), seconds, ""


def locate_synthetic(n: int, seed: int, cache: Path | None = None) -> dict[str, Any]:
    """Localisation on ``n`` hard rendered frames (drawn frames kept in ``cache``, as
    :mod:`vision.evaluate` keeps them: the same hard frames)."""
    from vision.evaluate import _scene

    errors, seconds, worst, refused = [], [], [], []
    for i in range(n):
        scene, _ = _scene(RenderOptions(seed=seed + i, hard=True), cache)
        error, took, _ = _locate_one(scene.image, scene.corners)
        seconds.append(took)
        if error is not None:
            errors.append(error)
        else:
            refused.append(took)
        worst.append((1.0 if error is None else error, seed + i))
    summary = summarise_errors(errors, n)
    summary["ms_median"] = 1000 * statistics.median(seconds) if seconds else 0.0
    summary["ms_max"] = 1000 * max(seconds) if seconds else 0.0
    # A camera loop asks again and again while no board is found: what a refusal costs.
    summary["ms_refused_mean"] = 1000 * statistics.mean(refused) if refused else 0.0
    summary["worst"] = sorted(worst, reverse=True)[:8]
    summary["wrong_seeds"] = sorted(k for e, k in worst if 0.05 < e < 1.0)
    return summary


def load_real(directory: Path) -> list[dict[str, Any]]:
    """The labelled real frames: name, image, corners, hands."""
    labels = json.loads((directory / "labels.json").read_text())["images"]
    frames = []
    for name, label in sorted(labels.items()):
        image = cv2.imread(str(directory / name), cv2.IMREAD_COLOR)
        if image is not None:
            frames.append({"name": name, "image": image, "corners": label["corners"],
                           "hands": bool(label.get("hands"))})
    return frames


def locate_real(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Localisation on the real frames without hands (a hand may hide a corner)."""
    rows, errors, seconds = [], [], []
    clear = [f for f in frames if not f["hands"]]
    for frame in clear:
        error, took, why = _locate_one(frame["image"], frame["corners"])
        seconds.append(took)
        if error is not None:
            errors.append(error)
        rows.append((frame["name"], error, 1000 * took, why))
    summary = summarise_errors(errors, len(clear))
    summary["ms_median"] = 1000 * statistics.median(seconds) if seconds else 0.0
    summary["rows"] = rows
    return summary


def locate_real_augmented(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Localisation on the real frames without hands, each changed by every transform of
    :data:`vision.augment.TRANSFORMS` (turned, smaller, tilted further, darker or brighter,
    a colour cast, JPEG, noise; the label corners carried along): per transform, the share
    found, the median corner error and each photo's error (None: not found)."""
    from vision.augment import TRANSFORMS

    clear = [f for f in frames if not f["hands"]]
    results = []
    for name, transform in TRANSFORMS.items():
        errors: dict[str, float | None] = {}
        for frame in clear:
            image, corners = transform(frame["image"], frame["corners"])
            errors[frame["name"]] = _locate_one(image, corners)[0]
        summary = summarise_errors([e for e in errors.values() if e is not None], len(clear))
        summary.update(transform=name, errors=errors)
        results.append(summary)
    return results


def check_real(frames: list[dict[str, Any]]) -> list[tuple[str, str, str, str | None]]:
    """Calibrate on the first clear frame of each camera, check the others."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for frame in frames:
        groups.setdefault(json.dumps(frame["corners"]), []).append(frame)
    checks = []
    for group in groups.values():
        references = [f for f in group if not f["hands"]]
        if len(group) < 2 or not references:
            continue
        reference = references[0]
        cal = Calibration(corners=tuple(map(tuple, reference["corners"]))).with_signature(
            reference["image"])
        for other in group:
            if other is not reference:
                want = "occluded" if other["hands"] else "ok"
                checks.append((reference["name"], other["name"], want, cal.check(other["image"])))
    return checks


def check_synthetic(n: int, seed: int) -> list[tuple[str, str, str | None]]:
    """For ``n`` rendered cameras: another position (ok), a hand (occluded), a bump (moved)."""

    checks = []
    for i in range(n):
        camera = seed + i
        base = dict(camera_seed=camera, hard=True)
        reference = render_board(None, RenderOptions(seed=camera, hands=False, **base))
        cal = Calibration(corners=reference.corners).with_signature(reference.image)
        later = render_board(None, RenderOptions(seed=camera + 1000, hands=False, **base))
        hand = render_board(None, RenderOptions(seed=camera + 2000, hands=True, **base))
        rng = np.random.default_rng(camera)
        dx, dy = (rng.choice([-1, 1], 2) * rng.uniform(12, 40, 2)).astype(int)
        bumped = np.roll(later.image, (int(dy), int(dx)), axis=(0, 1))
        for what, image, want in (("other position", later.image, "ok"),
                                  ("hand", hand.image, "occluded"),
                                  ("bumped", bumped, "moved")):
            checks.append((f"camera {camera} {what}", want, cal.check(image)))
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.locate_evaluate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--frames", type=int, default=100, help="synthetic frames (100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checks", type=int, default=30, help="synthetic cameras for the check")
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--no-augmented", action="store_true",
                        help="skip the transformed real photos (vision.augment)")
    parser.add_argument("--cache", type=Path, default=os.environ.get("BGBRIDGE_FRAME_CACHE"),
                        help="folder of drawn synthetic frames, shared with vision.evaluate "
                             "(default $BGBRIDGE_FRAME_CACHE; none: draw every frame)")
    args = parser.parse_args(argv)

    def line(title: str, s: dict[str, Any]) -> str:
        return (f"{title}: found {100 * s['found']:.1f}%  within 1% {100 * s['within_1pct']:.1f}%  "
                f"within 2% {100 * s['within_2pct']:.1f}%  median corner error "
                f"{100 * s['median_error']:.2f}%  wrong (>5%) {100 * s['wrong']:.1f}%"
                + (f"  {s['ms_median']:.0f} ms CPU/frame median" if "ms_median" in s else ""))

    if not args.no_synthetic and args.frames > 0:
        s = locate_synthetic(args.frames, args.seed, Path(args.cache) if args.cache else None)
        print(line(f"locate, synthetic hard ({args.frames} frames, seed {args.seed})", s)
              + f", max {s['ms_max']:.0f} ms, refused {s['ms_refused_mean']:.0f} ms mean")
        print("  worst:", ", ".join(f"seed {k} {100 * e:.1f}%" for e, k in s["worst"]))
        print("  wrong (>5%):", ", ".join(map(str, s["wrong_seeds"])) or "none")
    directory = real_dir()
    frames = load_real(directory) if (directory / "labels.json").exists() else []
    if frames:
        s = locate_real(frames)
        print(line(f"locate, real ({len(s['rows'])} photos)", s))
        for name, error, ms, why in s["rows"]:
            print(f"  {name:22s} " + (f"error {100 * error:5.1f}%" if error is not None
                                      else f"not found ({why})") + f"  {ms:.0f} ms")
        if not args.no_augmented:
            augmented = locate_real_augmented(frames)
            for s in augmented:
                print(line(f"  {s['transform']}", s) + "\n    " + "  ".join(
                    f"{name.rsplit('.', 1)[0]} " + ("-" if e is None else f"{100 * e:.1f}%")
                    for name, e in s["errors"].items()))
            found = [e for s in augmented for e in s["errors"].values()]
            print(line(f"locate, real transformed (all {len(found)} frames)",
                       summarise_errors([e for e in found if e is not None], len(found))))
    else:
        print(f"locate, real: no labelled photos at {directory}")
    if not args.no_synthetic and args.checks > 0:
        checks = check_synthetic(args.checks, args.seed)
        right = sum(want == got for _, want, got in checks)
        print(f"board check, synthetic ({args.checks} cameras): {right}/{len(checks)} right")
        for kind in ("ok", "occluded", "moved"):
            of_kind = [c for c in checks if c[1] == kind]
            print(f"  want {kind:8s}: {sum(w == g for _, w, g in of_kind)}/{len(of_kind)}"
                  + "".join(f"; {n} said {g}" for n, w, g in of_kind if w != g))
    if frames:
        checks = check_real(frames)
        right = sum(want == got for _, _, want, got in checks)
        print(f"board check, real: {right}/{len(checks)} right: "
              + ", ".join(f"{name} {got} (want {want})" for _, name, want, got in checks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
