"""firmware_link: the LED cube / indicator unit beside the board, and the host's link to it.

* :mod:`firmware_link.protocol` — frames, checksum, constants (read from ``firmware/protocol.h``);
  the protocol is written down in ``PROTOCOL.md``.
* :mod:`firmware_link.display` — :class:`DisplayState` (cube, owner, turn, dice, verdict,
  brightness, lamp test) and its LEDs (wiring read from ``firmware/wiring.h``).
* :mod:`firmware_link.link` — :class:`Unit`, the host link: never blocks, retries, reconnects,
  restores the display after a reset or a pulled cable.
* :mod:`firmware_link.emulator` — :class:`Emulator`, the unit in software on a pty or
  ``socket://`` port; :func:`attach` gives a :class:`Unit` on the real unit, or on an emulator
  when none is attached.
* :mod:`firmware_link.sim` — the real firmware under simavr (tests and benchmarks).
* ``firmware/`` — the ATmega328P firmware (C, avr-libc) and its Makefile; ``harness/`` — the
  simavr harness.
"""
from firmware_link.display import BUTTONS, DisplayState
from firmware_link.emulator import Emulator
from firmware_link.link import DeviceError, DeviceEvent, DeviceInfo, LinkClosed, Unit, attach, find_unit_port

__all__ = [
    "BUTTONS",
    "DeviceError",
    "DeviceEvent",
    "DeviceInfo",
    "DisplayState",
    "Emulator",
    "LinkClosed",
    "Unit",
    "attach",
    "find_unit_port",
]
