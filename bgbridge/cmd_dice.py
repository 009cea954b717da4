"""``bgbridge dice IMAGE [--region "x,y;x,y;x,y;x,y"] [--json]``: read the dice in a photo.

With ``--json`` it prints exactly ``{"dice": [{"x", "y", "value", "confidence", "cocked"}]}``
(the issue's contract); without, one line per die and the roll.  ``value`` is ``null`` for a die that is cocked or
cannot be read.

>>> parse_region("10,20; 110,20; 110,80; 10,80")
((10.0, 20.0), (110.0, 20.0), (110.0, 80.0), (10.0, 80.0))
>>> parse_region("1,2;3,4")
Traceback (most recent call last):
...
bgbridge.errors.UserError: --region needs four corners "x,y;x,y;x,y;x,y", got 2
"""
from __future__ import annotations

import argparse
import json
import math
import os

from bgbridge.errors import UserError


def parse_region(text: str) -> tuple[tuple[float, float], ...]:
    """Four ``x,y`` corners separated by semicolons (in order around the playing field)."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if len(parts) != 4:
        raise UserError(f'--region needs four corners "x,y;x,y;x,y;x,y", got {len(parts)}')
    corners = []
    for part in parts:
        xy = part.replace(" ", "").split(",")
        try:
            x, y = (float(v) for v in xy)
        except ValueError:
            raise UserError(f'--region corner {part!r} is not "x,y"') from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise UserError(f"--region corner {part!r} is not a finite point")
        corners.append((x, y))
    return tuple(corners)


def _read_image(path: str):
    import cv2
    import numpy as np

    if not os.path.isfile(path):
        raise UserError(f"{path}: no such image file")
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UserError(f"{path}: not an image OpenCV can read (JPEG, PNG, ...)")
    return image


def run_dice(args: argparse.Namespace) -> int:
    from vision.dice import DiceReader

    image = _read_image(args.image)
    region = parse_region(args.region) if args.region is not None else None
    if region is not None:
        import cv2
        import numpy as np

        area = abs(cv2.contourArea(np.array(region, np.float32)))
        if area < 16:
            raise UserError("--region encloses no area")
    observation = DiceReader().read(image, region)
    roll = observation.roll()
    if args.json:
        print(json.dumps(observation.to_json()))
        return 0
    if not observation.dice:
        print("no dice found")
        return 0
    for die in observation.dice:
        what = "cocked" if die.cocked else (str(die.value) if die.value is not None else "unreadable")
        print(f"die at ({die.x:.0f}, {die.y:.0f}): {what} (confidence {die.confidence:.2f})")
    if roll:
        print(f"roll: {roll[0]}-{roll[1]}")
    elif observation.any_cocked:
        print("roll: none (a die is cocked: roll again)")
    else:
        print("roll: none (not exactly two readable dice)")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "dice", help="read the dice in a photo",
        description="Find the dice in IMAGE (or in --region of it) and read their top faces.")
    parser.add_argument("image", metavar="IMAGE", help="photo or camera frame (JPEG, PNG, ...)")
    parser.add_argument("--region", metavar='"x,y;x,y;x,y;x,y"',
                        help="the playing field's four corners, in order around it (default: whole image)")
    parser.add_argument("--json", action="store_true", help='print {"dice": [{"x", "y", "value", "confidence", "cocked"}]}')
    parser.set_defaults(handler=run_dice)
