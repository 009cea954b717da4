"""``bgbridge device``: talk to the LED cube / indicator unit.

    bgbridge device --port auto status            what the unit shows, its firmware, the link
    bgbridge device --port /dev/ttyACM0 cube 4 --owner black
    bgbridge device listen                         prints button presses until Ctrl-C

``--port`` is ``auto`` (the unit found by USB VID/PID), a device path, or any pyserial URL
(``socket://127.0.0.1:7000``, e.g. an emulator).  Only what a command names changes on the unit.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import time

from bgbridge.errors import UserError
from engine.position import O, X
from engine.sgf import COLOURS
from firmware_link.display import CUBE_VALUES
from firmware_link.link import DeviceError, Unit, find_unit_port
from firmware_link.protocol import USB_IDS

#: ``--owner`` words.  Colours follow the SGF convention the engine uses (Black is X, White O).
OWNERS = {
    "centre": None, "center": None, "none": None,
    "x": X, "o": O,
    "black": COLOURS["B"], "white": COLOURS["W"],
}
_PLAYER_NAME = {X: "X", O: "O", None: "centre"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "device",
        help="the LED cube / indicator unit: status, cube, listen",
        description="Talk to the LED cube / indicator unit on a serial port.",
    )
    parser.add_argument(
        "--port", default="auto",
        help="'auto' (find the unit by USB VID/PID, the default), a device path such as "
             "/dev/ttyACM0, or a pyserial URL such as socket://127.0.0.1:7000",
    )
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds to wait for the unit to answer (default 5; an Uno resets "
                             "when the port opens and needs 1-2 s)")
    actions = parser.add_subparsers(dest="device_action", metavar="ACTION", required=True)

    status = actions.add_parser("status", help="what the unit shows, its firmware and the link")
    status.add_argument("--json", action="store_true", help="one JSON object instead of text")
    status.set_defaults(handler=run_status)

    cube = actions.add_parser("cube", help="show a cube value and its owner")
    cube.add_argument("value", type=int, help="1, 2, 4, ... 32768")
    cube.add_argument("--owner", default="centre", type=str.lower,
                      help="centre (default), x, o, black (= X) or white (= O)")
    cube.set_defaults(handler=run_cube)

    listen = actions.add_parser("listen", help="print button presses as they come (Ctrl-C stops)")
    listen.add_argument("--count", type=int, default=0,
                        help="stop after this many presses (default: run until interrupted)")
    listen.set_defaults(handler=run_listen)


def _port(args: argparse.Namespace) -> str:
    port = args.port
    if port == "auto":
        found = find_unit_port()
        if found is None:
            ids = ", ".join(f"{vid:04x}:{pid:04x}" for vid, pid in USB_IDS)
            raise UserError(f"no unit found on USB (looked for {ids}); name its port with --port")
        return found
    if "://" not in port and not os.path.exists(port):
        raise UserError(f"no such port: {port}")
    return port


def _connect(args: argparse.Namespace, port: str, ack_events: bool = False) -> Unit:
    """A ready Unit that adopted what the unit shows, or a UserError.  Only ``listen`` takes
    (acknowledges) button events; the other commands leave them for the next host."""
    if args.timeout <= 0:
        raise UserError("--timeout must be positive")
    unit = Unit(port, adopt_state=True, ack_events=ack_events).start()
    deadline = time.monotonic() + args.timeout
    while not unit.wait_ready(0.1):
        if time.monotonic() > deadline:
            why = unit.last_error or "no answer"
            unit.close()
            raise UserError(f"the unit on {port} did not answer within {args.timeout:g} s ({why})")
    return unit


def _ask(unit: Unit, timeout: float, *words: str):
    try:
        return unit.request(*words).result(timeout)
    except TimeoutError:
        raise UserError(f"the unit did not answer {' '.join(words)!r} within {timeout:g} s") from None
    except DeviceError as exc:
        raise UserError(f"the unit refused it: {exc}") from None


def run_status(args: argparse.Namespace) -> int:
    port = _port(args)
    unit = _connect(args, port)
    try:
        state = unit.desired
        leds = _ask(unit, args.timeout, "leds").words
        stats = _ask(unit, args.timeout, "stats").words
    finally:
        unit.close()
    info = unit.info
    assert info is not None
    acted, dups, crc_errors, overruns, lost, pending = (int(w) for w in stats[1:7])
    report = {
        "port": port,
        "device": info.name,
        "protocol": info.protocol,
        "firmware": info.firmware,
        "boot_count": info.boot_count,
        "cube": state.cube,
        "owner": _PLAYER_NAME[state.owner],
        "turn": _PLAYER_NAME[state.turn] if state.turn is not None else None,
        "dice": list(state.dice) if any(state.dice) else None,
        "verdict": {True: "legal", False: "illegal", None: None}[state.verdict],
        "brightness": state.brightness,
        "lamp_test": state.lamp_test,
        "leds": leds[1],
        "link": {"crc_errors": crc_errors, "rx_overruns": overruns, "lost_events": lost,
                 "pending_events": pending, "requests": acted, "repeats_answered": dups},
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"unit:       {info.name} firmware {info.firmware}, protocol {info.protocol}, "
          f"boot {info.boot_count}, on {port}")
    owner = "" if state.owner is None else f", owned by {_PLAYER_NAME[state.owner]}"
    print(f"cube:       {state.cube}{' (centre)' if state.owner is None else owner}")
    print(f"turn:       {report['turn'] or '-'}")
    print(f"dice:       {' '.join(map(str, state.dice)) if report['dice'] else '-'}")
    print(f"verdict:    {report['verdict'] or '-'}")
    print(f"brightness: {state.brightness}{'  (lamp test on)' if state.lamp_test else ''}")
    print(f"leds:       {leds[1]}")
    print(f"link:       {crc_errors} bad frames, {overruns} receive overruns, "
          f"{pending} events pending, {lost} lost")
    return 0


def run_cube(args: argparse.Namespace) -> int:
    if args.value not in CUBE_VALUES:
        raise UserError(f"the cube shows 1, 2, 4, ... 32768, not {args.value}")
    if args.owner not in OWNERS:
        raise UserError(f"--owner is one of {', '.join(OWNERS)}, not {args.owner!r}")
    owner = OWNERS[args.owner]
    if args.value == 1 and owner is not None:
        raise UserError("a cube on 1 is in the centre; give --owner only for 2 and up")
    port = _port(args)
    unit = _connect(args, port)
    try:
        unit.set_cube(args.value, owner).result(args.timeout)
    except TimeoutError:
        raise UserError(f"the unit did not confirm the cube within {args.timeout:g} s") from None
    except DeviceError as exc:
        raise UserError(f"the unit refused it: {exc}") from None
    finally:
        unit.close()
    where = "in the centre" if owner is None else f"on {_PLAYER_NAME[owner]}'s side"
    print(f"cube {args.value} {where}")
    return 0


def run_listen(args: argparse.Namespace) -> int:
    if args.count < 0:
        raise UserError("--count must be 0 (no limit) or more")
    port = _port(args)
    unit = _connect(args, port, ack_events=True)
    seen = 0
    try:
        while not args.count or seen < args.count:
            try:
                event = unit.events.get(timeout=0.5)
            except queue.Empty:  # keep waiting; Ctrl-C ends it
                continue
            stamp = time.strftime("%H:%M:%S", time.localtime()) + f".{int(time.time() * 1000) % 1000:03d}"
            print(f"{stamp} {event.button}", flush=True)
            seen += 1
    finally:
        unit.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    from bgbridge.cli import main

    sys.exit(main(["device", *sys.argv[1:]]))
