"""``bgbridge read`` and ``bgbridge calibrate``: the board camera on the command line.

* ``bgbridge read IMAGE [--corners "x,y;x,y;x,y;x,y" [--no-snap]] [--calibration FILE] [--json]``: read the
  checkers of one photo.  ``--json`` prints ``{"colours": [...], "top": [12 entries], "bottom":
  [12 entries], "bar": {colour: n}, "off": {colour: n}}``, each entry ``null`` or ``{"colour",
  "count", "confidence"}``; ``top``/``bottom`` are the upright field's top and bottom edges, left to
  right.  Without ``--corners`` (or a calibration) the board is looked for automatically.
  Corners given with ``--corners`` are snapped onto the field's edges seen nearby when those are
  clear (:func:`calibration.snap.snap_corners`: a loose click reads as an exact one, corners
  that are right stay); ``--no-snap`` reads them as given (``--snap``, the default, is accepted).
* ``bgbridge calibrate IMAGE --corners ... [--no-snap] [--x-colour NAME] [--x-home CORNER] [--output FILE]``:
  learn the bar, the two colours and the sides from a frame (the starting position tells the
  sides by itself) and save the calibration (default: ``calibration.json`` in the data directory).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from bgbridge.errors import UserError

HOME_CHOICES = ("bottom-right", "bottom-left", "top-right", "top-left")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "read", help="read the checkers on a board photo",
        description="Read how many checkers of which colour stand on each point, the bar and "
                    "(by count) borne off, from one photo of a board.")
    p.add_argument("image", metavar="IMAGE", help="a photo or frame (JPEG, PNG...)")
    p.add_argument("--corners", metavar="X,Y;X,Y;X,Y;X,Y",
                   help="the playing field's corners in pixels: top-left;top-right;bottom-right;"
                        "bottom-left of the upright board (default: found automatically)")
    p.add_argument("--snap", action=argparse.BooleanOptionalAction, default=None,
                   help="move the given corners onto the field's edges seen nearby, when those "
                        "are clear (default with --corners; --no-snap reads them as given)")
    p.add_argument("--calibration", metavar="FILE",
                   help="a calibration from 'bgbridge calibrate' (corners, colours, sides)")
    p.add_argument("--layered-stacks", action="store_true",
                   help="also read stacks built in layers (checkers beyond five on top of the "
                        "first row); slower")
    p.add_argument("--json", action="store_true", help="print the reading as JSON")
    p.set_defaults(handler=cmd_read)

    p = subparsers.add_parser(
        "calibrate", help="learn a board's corners, bar, colours and sides from a photo",
        description="Fit a calibration from a photo (ideally of the starting position) and save it.")
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--corners", metavar="X,Y;X,Y;X,Y;X,Y",
                   help="the playing field's corners (default: found automatically)")
    p.add_argument("--snap", action=argparse.BooleanOptionalAction, default=None,
                   help="move the given corners onto the field's edges seen nearby, when those "
                        "are clear, and keep the snapped ones (default with --corners; --no-snap "
                        "keeps them as given)")
    p.add_argument("--x-colour", metavar="NAME", help="the colour player X plays")
    p.add_argument("--x-home", choices=HOME_CHOICES,
                   help="where X's home board is on the upright field (default: from the "
                        "starting position)")
    p.add_argument("--names", metavar="LIGHT,DARK",
                   help="names for the two colours, lighter first (default: by their look)")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="where to save (default: calibration.json in the data directory)")
    p.set_defaults(handler=cmd_calibrate)


def _load_image(path: str) -> np.ndarray:
    import cv2

    if not os.path.exists(path):
        raise UserError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UserError(f"{path}: is a directory, not an image")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"{path}: not an image this build can read (JPEG, PNG, BMP, TIFF...)")
    return image


def _corners(text: str | None):
    from calibration.geometry import GeometryError, parse_corners

    if text is None:
        return None
    try:
        return parse_corners(text)
    except GeometryError as exc:
        raise UserError(f"--corners: {exc}") from None


def _check_inside(corners, image: np.ndarray) -> None:
    h, w = image.shape[:2]
    margin = 0.25 * max(w, h)
    for x, y in corners:
        if not (-margin <= x <= w + margin and -margin <= y <= h + margin):
            raise UserError(f"--corners: ({x:g}, {y:g}) is far outside the {w}x{h} image")


def cmd_read(args: argparse.Namespace) -> int:
    from calibration.calibration import Calibration, CalibrationError
    from calibration.locate import LocateError
    from vision.observation import ObservationError
    from vision.reader import BoardReader, ReadError

    image = _load_image(args.image)
    corners = _corners(args.corners)
    if corners is not None:
        _check_inside(corners, image)
    elif args.snap:
        raise UserError("--snap moves given corners: give them with --corners")
    snap = corners is not None and args.snap is not False
    calibration = None
    if args.calibration:
        try:
            calibration = Calibration.load(args.calibration)
        except CalibrationError as exc:
            raise UserError(str(exc)) from None
    try:
        observation = BoardReader(calibration, layered_stacks=args.layered_stacks).read(
            image, corners=corners, snap=snap)
    except LocateError as exc:
        raise UserError(str(exc)) from None
    except ReadError as exc:
        raise UserError(f"{args.image}: {exc}") from None
    if observation.board_moved:
        print("bgbridge: warning: the board is not where the calibration put it "
              "(camera or board moved): calibrate again", file=sys.stderr)
    elif observation.occluded:
        print("bgbridge: warning: something covers part of the board (a hand?): "
              "this reading may be wrong", file=sys.stderr)
    if args.json:
        data = observation.to_json()
        print(json.dumps({key: data[key]
                          for key in ("colours", "top", "bottom", "bar", "off", "doubtful")}))
        return 0
    print(_diagram(observation))
    if calibration is not None:
        try:
            position = observation.to_position(calibration)
            print(f"Position ID {position.position_id()}  (X plays {calibration.x_colour}, "
                  f"X's home {calibration.x_home})")
        except ObservationError as exc:
            print(f"not a position: {exc}")
    return 0


def _diagram(observation) -> str:
    """A plain-text picture of the reading: one column per point."""
    short = {name: name[0].upper() if i == 0 else name[0].lower()
             for i, name in enumerate(observation.colours)}
    if len(set(short.values())) < 2:
        short = dict(zip(observation.colours, ("A", "b")))

    def cell(reading) -> str:
        return f"{reading.count:>2}{short[reading.colour]}" if reading else "  ."

    lines = ["top    " + " ".join(cell(r) for r in observation.top[:6]) + "  | "
             + " ".join(cell(r) for r in observation.top[6:]),
             "bottom " + " ".join(cell(r) for r in observation.bottom[:6]) + "  | "
             + " ".join(cell(r) for r in observation.bottom[6:])]
    legend = ", ".join(f"{short[c]} = {c}" for c in observation.colours)
    bar = ", ".join(f"{n} {c}" for c, n in observation.bar.items() if n) or "empty"
    off = ", ".join(f"{n} {c}" for c, n in observation.off.items())
    lines.append(f"bar: {bar}; off (by count): {off}; {legend}; "
                 f"least confidence {observation.confidence:.2f}")
    return "\n".join(lines)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from calibration.calibration import CalibrationError
    from calibration.locate import LocateError, locate_field
    from vision.calibrate import fit_calibration

    image = _load_image(args.image)
    corners = _corners(args.corners)
    if corners is not None:
        _check_inside(corners, image)
        if args.snap is not False:
            from calibration.snap import snap_corners
            corners = snap_corners(image, corners).corners
    elif args.snap:
        raise UserError("--snap moves given corners: give them with --corners")
    else:
        try:
            corners = locate_field(image)
        except LocateError as exc:
            raise UserError(str(exc)) from None
    names = None
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != 2 or not all(names):
            raise UserError("--names takes two names separated by a comma, lighter colour first")
    try:
        calibration = fit_calibration(image, corners, x_colour=args.x_colour, x_home=args.x_home,
                                      colour_names=names)
    except CalibrationError as exc:
        raise UserError(str(exc)) from None
    if args.output:
        path = Path(args.output)
    else:
        from bgbridge.journal import data_dir
        path = data_dir() / "calibration.json"
    try:
        calibration.save(path)
    except OSError as exc:
        raise UserError(f"{path}: cannot write: {exc.strerror}") from None
    print(f"saved {path}: colours {calibration.colours[0]} and {calibration.colours[1]}, "
          f"X plays {calibration.x_colour}, X's home {calibration.x_home}")
    return 0
