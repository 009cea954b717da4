"""The real firmware under simavr: build it, run it in the harness, press its buttons.

Needs ``avr-gcc``/``avr-libc`` (firmware), ``simavr``'s library and headers and a C compiler
(harness): Debian packages ``gcc-avr avr-libc libsimavr-dev libelf-dev pkg-config make gcc``,
installed by ``scripts/setup.sh --test``::

    paths = build("/tmp/bgled-build")
    with SimulatedUnit(paths) as chip:
        url = chip.start()       # a pty path for Unit(url) or pyserial
        chip.press("double")     # returns when the button is up again (simulated time)
        chip.leds                # the 595 outputs the firmware latched

:class:`SimulatedUnit` offers the same test-facing methods as
:class:`~firmware_link.emulator.Emulator` (``start``, ``press``, ``reset``, ``unplug``, ``plug``,
``leds``, ``brightness``, ``stop``), so one test runs against both.
"""
from __future__ import annotations

import os
import queue
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from firmware_link.display import BUTTONS
from firmware_link.protocol import FIRMWARE_DIR

#: Tools the build needs (for ``tests/tools.require_tool``).
BUILD_TOOLS = ("avr-gcc", "avr-objcopy", "make", "cc", "pkg-config")


@dataclass(frozen=True)
class Build:
    """Paths of one build of the firmware and the harness."""

    elf: Path
    hex: Path
    harness: Path


class BuildError(RuntimeError):
    """``make`` failed; the message holds its output."""


def build(build_dir: str | os.PathLike) -> Build:
    """Builds firmware and harness into ``build_dir`` (``make`` in ``firmware/``)."""
    build_dir = Path(build_dir).resolve()
    result = subprocess.run(
        ["make", "-C", str(FIRMWARE_DIR), f"BUILD={build_dir}"],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise BuildError(f"make failed:\n{result.stdout}\n{result.stderr}")
    return Build(build_dir / "bgled.elf", build_dir / "bgled.hex", build_dir / "bgled-harness")


class SimulatedUnit:
    """One harness process running the firmware; ``start()`` returns the pty path (a symbolic
    link that stays the same across ``unplug()``/``plug()``)."""

    def __init__(self, paths: Build, link: str | os.PathLike | None = None) -> None:
        self.paths = paths
        self._tmp = None
        if link is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="bgled-")
            link = Path(self._tmp.name) / "uart0"
        self.link = str(link)
        self._proc: subprocess.Popen | None = None
        self._replies: "queue.Queue[str]" = queue.Queue()
        self._cond = threading.Condition()
        self._leds = 0
        self._brightness = 0
        self.led_changes = 0
        self.pty: str | None = None
        self.crashed = False

    def start(self) -> str:
        self._proc = subprocess.Popen(
            [str(self.paths.harness), str(self.paths.elf), self.link],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            text=True,
            bufsize=1,
        )
        threading.Thread(target=self._read_reports, daemon=True, name="simavr-reports").start()
        deadline = time.monotonic() + 10
        while self.pty is None:
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise RuntimeError("the simavr harness did not start")
            time.sleep(0.01)
        return self.link

    def stop(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                try:
                    self._proc.stdin.write("quit\n")
                    self._proc.stdin.flush()
                    self._proc.wait(2)
                except (OSError, subprocess.TimeoutExpired):
                    self._proc.kill()
                    self._proc.wait()
            self._proc = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "SimulatedUnit":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- the chip's outside world -------------------------------------------------------

    @property
    def leds(self) -> int:
        """The outputs latched in the 74HC595 chain."""
        with self._cond:
            return self._leds

    @property
    def brightness(self) -> int:
        """The /OE PWM duty, 0..255."""
        with self._cond:
            return self._brightness

    def press(self, button: str, ms: int = 20, bounce: bool = False, wait: bool = True) -> None:
        """Holds ``button`` down for ``ms`` ms (simulated), optionally with contact chatter;
        with ``wait``, returns once it is released again (as a finger would)."""
        if button not in BUTTONS:
            raise ValueError(f"no button {button!r}; the unit has {', '.join(BUTTONS)}")
        pin = BUTTONS.index(button)
        self._command(f"press {pin} {ms}" + (" bounce" if bounce else ""))
        if wait:  # until the release has happened in simulated time
            self._wait_reply(f"released {pin}", timeout=5 + ms / 1000)

    def reset(self) -> None:
        """Pulls the reset pin (as the DTR auto-reset does): registers cleared, RAM kept."""
        self._command("reset")

    def unplug(self) -> None:
        self._command("unplug")

    def plug(self) -> None:
        self._command("plug")

    def cycles(self) -> tuple[int, int]:
        """Simulated CPU cycles so far, and how many of them the CPU slept."""
        reply = self._command("stats", want="stats ")
        _, total, sleeping = reply.split()
        return int(total), int(sleeping)

    def wait_leds(self, mask: int, timeout: float = 5.0, care: int = 0xFFFFFFFF) -> bool:
        """Waits until ``leds & care == mask & care``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._leds & care) != (mask & care):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    # --- harness process ----------------------------------------------------------------

    def _command(self, line: str, want: str | None = None, timeout: float = 5.0) -> str:
        if self._proc is None or self._proc.poll() is not None:
            raise RuntimeError("the simavr harness is not running")
        self._proc.stdin.write(line + "\n")
        self._proc.stdin.flush()
        return self._wait_reply(want or f"ok {line}", timeout)

    def _wait_reply(self, want: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                reply = self._replies.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"the simavr harness did not report {want!r}") from None
            if reply.startswith(want):
                return reply

    def _read_reports(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            line = line.strip()
            if line.startswith("leds "):
                _, mask, bright = line.split()
                with self._cond:
                    self._leds = int(mask, 16)
                    self._brightness = int(bright)
                    self.led_changes += 1
                    self._cond.notify_all()
            elif line.startswith("pty "):
                self.pty = line[4:]
            elif line == "crashed":
                self.crashed = True
            else:
                self._replies.put(line)
