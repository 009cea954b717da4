"""A software indicator unit: the firmware's behaviour in Python, on a pty or a TCP port.

:class:`DeviceModel` is the firmware's protocol logic (PROTOCOL.md), byte for byte: same frames,
same replies, the same link memory that survives a reset, the same event queue.  The tests run
the same host-side checks against it and against the real firmware under simavr.

:class:`Emulator` serves a model on a pseudo-terminal (``start()`` returns its path) or on
``socket://127.0.0.1:PORT`` (``start("socket")``), so :class:`~firmware_link.link.Unit` and the
``bgbridge`` command cannot tell it from a unit on a USB port.  Its :attr:`Emulator.state`,
:attr:`Emulator.leds`, :attr:`Emulator.link` are what the unit shows now (for the dashboard);
``on_change`` is called after each change.

>>> model = DeviceModel(clock=lambda: 0.0)
>>> for line in model.step(b"garbage!01 cube 4 x*%04X\\n" % crc16(b"!01 cube 4 x")).splitlines():
...     parse(line)
Frame(kind='=', seq=1, words=('ok',))
Frame(kind='^', seq=1, words=('boot', '1', 'por'))
>>> model.state.cube
4
"""
from __future__ import annotations

import os
import select
import socket
import threading
import time
import tty
from dataclasses import dataclass, field
from typing import Callable

from engine.position import O, X
from firmware_link.display import BUTTONS, DisplayState
from firmware_link.protocol import (
    DEVICE_NAME,
    EVENT,
    EVENT_QUEUE,
    EVENT_RETRY_MS,
    FIRMWARE_VERSION,
    FRAME_MAX,
    HEARTBEAT,
    HEARTBEAT_MS,
    HOST_TIMEOUT_MS,
    PROTO_VERSION,
    REPLY,
    REQUEST,
    CUBE_LOG2_MAX,
    ProtocolError,
    crc16,
    encode,
    parse,
)

__all__ = ["DeviceModel", "Emulator", "crc16", "parse"]


@dataclass
class _LinkMemory:
    """What the firmware keeps in .noinit RAM: survives a reset, not a power cycle."""

    session: int = 0
    last_seq: int | None = None
    last_reply: str = ""
    acted: int = 0
    dups: int = 0
    lost: int = 0
    next_event_seq: int = 1
    events: list[tuple[int, str]] = field(default_factory=list)  # (seq, text after seq)


class DeviceModel:
    """The unit's protocol behaviour.  ``step(data)`` takes received bytes and returns the
    bytes to send; call it now and then with ``b""`` so heartbeats and event repeats go out.
    Not thread-safe: :class:`Emulator` serialises access."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.boot_count = 0  # EEPROM: survives everything
        self.memory = _LinkMemory()
        self.crc_errors = 0
        self._boot("por")

    # --- what the outside world does to the chip -------------------------------------------

    def reset(self, cause: str = "ext") -> None:
        """A reset (pin, DTR, watchdog): RAM keeps the link memory, the display starts dark."""
        self._boot(cause)

    def power_cycle(self) -> None:
        self.memory = _LinkMemory()
        self._boot("por")

    def press(self, button: str) -> None:
        """A debounced press of ``button`` (one of :data:`~firmware_link.display.BUTTONS`)."""
        if button not in BUTTONS:
            raise ValueError(f"no button {button!r}; the unit has {', '.join(BUTTONS)}")
        self._push_event(f"btn {button}")

    # --- what it shows ----------------------------------------------------------------------

    @property
    def link(self) -> bool:
        """The link LED: a valid host frame within HOST_TIMEOUT_MS."""
        return self._host_seen is not None and (self.clock() - self._host_seen) * 1000 < HOST_TIMEOUT_MS

    @property
    def leds(self) -> int:
        return self.state.leds(link=self.link)

    # --- the protocol -----------------------------------------------------------------------

    def _boot(self, cause: str) -> None:
        self.state = DisplayState()
        self.boot_count = (self.boot_count + 1) & 0xFFFF
        self._frame = bytearray()
        self._in_frame = False
        self._host_seen: float | None = None
        now = self.clock()
        self._booted_at = now
        self._heartbeat_at = now
        self._event_sent_at = now
        self._event_due = True
        self._push_event(f"boot {self.boot_count} {cause}")
        self._event_due = True
        self._lost_reported = self.memory.lost

    def _push_event(self, text: str) -> None:
        mem = self.memory
        if len(mem.events) >= EVENT_QUEUE:
            mem.lost += 1
            return
        mem.events.append((mem.next_event_seq, text))
        mem.next_event_seq = 1 if mem.next_event_seq == 0xFF else mem.next_event_seq + 1
        if len(mem.events) == 1:
            self._event_due = True

    def step(self, data: bytes = b"") -> bytes:
        """Consumes received bytes; returns replies, due events and heartbeats."""
        out = bytearray()
        for byte in data:
            out += self._parse_byte(byte)
        now = self.clock()
        mem = self.memory
        if mem.events and (self._event_due or (now - self._event_sent_at) * 1000 >= EVENT_RETRY_MS):
            seq, text = mem.events[0]
            out += encode(f"{EVENT}{seq:02X} {text}")
            self._event_sent_at = now
            self._event_due = False
        if mem.lost != self._lost_reported and len(mem.events) < EVENT_QUEUE:
            self._lost_reported = mem.lost
            self._push_event(f"err lost {mem.lost}")
        if (now - self._heartbeat_at) * 1000 >= HEARTBEAT_MS:
            out += encode(f"{HEARTBEAT}hb {int(now - self._booted_at)} {len(mem.events)}")
            self._heartbeat_at = now
        return bytes(out)

    def _parse_byte(self, byte: int) -> bytes:
        # the firmware's parse_byte(): '!' always starts a frame; control bytes end it
        if byte == ord(REQUEST):
            self._frame = bytearray((byte,))
            self._in_frame = True
            return b""
        if not self._in_frame:
            return b""
        if byte in (0x0A, 0x0D):  # either ends a frame: a terminal's Enter sends CR
            self._in_frame = False
            return self._handle(bytes(self._frame))
        if byte < 0x20 or byte > 0x7E or len(self._frame) >= FRAME_MAX - 1:
            self._in_frame = False
            self.crc_errors += 1
            return b""
        self._frame.append(byte)
        return b""

    def _handle(self, line: bytes) -> bytes:
        try:
            frame = parse(line)
        except ProtocolError:
            self.crc_errors += 1
            return b""
        if frame.kind != REQUEST or frame.seq is None:
            self.crc_errors += 1
            return b""
        self._host_seen = self.clock()
        seq, words = frame.seq, frame.words
        mem = self.memory
        head = f"{REPLY}{seq:02X} "
        if words[:1] == ("hello",):
            if len(words) != 3 or not words[1].isdigit() or len(words[2]) != 4 or not _is_hex(words[2]):
                return encode(head + "err arg")
            if int(words[1]) != PROTO_VERSION:
                return encode(head + f"err version {PROTO_VERSION}")
            session = int(words[2], 16)
            if session != mem.session:
                mem.session = session
                mem.last_seq = None
                mem.acted = mem.dups = 0
            return encode(head + f"ok {DEVICE_NAME} {PROTO_VERSION} {FIRMWARE_VERSION} {self.boot_count}")
        if mem.last_seq == seq:
            mem.dups += 1
            return encode(mem.last_reply)
        reply = head + (self._act(words) if words else "err verb")
        mem.acted += 1
        mem.last_seq = seq
        mem.last_reply = reply
        return encode(reply)

    def _act(self, words: tuple[str, ...]) -> str:
        verb, args = words[0], words[1:]
        s = self.state
        try:
            if verb == "ping" and not args:
                return "ok"
            if verb == "cube" and len(args) == 2:
                value = _uint(args[0], 1 << CUBE_LOG2_MAX)
                if value & (value - 1) or value == 0 or args[1] not in ("c", "x", "o"):
                    return "err arg"
                self.state = s.with_(cube=value, owner={"c": None, "x": X, "o": O}[args[1]])
            elif verb == "turn" and len(args) == 1:
                if args[0] not in ("x", "o", "-"):
                    return "err arg"
                self.state = s.with_(turn={"-": None, "x": X, "o": O}[args[0]])
            elif verb == "dice" and len(args) == 2:
                self.state = s.with_(dice=(_uint(args[0], 6), _uint(args[1], 6)))
            elif verb == "verdict" and len(args) == 1:
                if args[0] not in ("-", "ok", "bad"):
                    return "err arg"
                self.state = s.with_(verdict={"-": None, "ok": True, "bad": False}[args[0]])
            elif verb == "bright" and len(args) == 1:
                self.state = s.with_(brightness=_uint(args[0], 255))
            elif verb == "test" and len(args) == 1:
                self.state = s.with_(lamp_test=bool(_uint(args[0], 1)))
            elif verb == "state" and not args:
                return "ok " + " ".join(_state_words(s))
            elif verb == "leds" and not args:
                return f"ok {self.leds:08X} {s.brightness}"
            elif verb == "stats" and not args:
                mem = self.memory
                return f"ok {mem.acted + 1} {mem.dups} {self.crc_errors} 0 {mem.lost} {len(mem.events)}"
            elif verb == "ack" and len(args) == 1:
                if len(args[0]) != 2 or not _is_hex(args[0]):
                    return "err arg"
                events = self.memory.events
                if events and events[0][0] == int(args[0], 16):
                    events.pop(0)
                    self._event_due = bool(events)
            elif verb == "wdtest" and not args:
                self._wdtest_pending = True
            else:
                return "err verb"
        except ValueError:
            return "err arg"
        return "ok"


def _state_words(s: DisplayState) -> list[str]:
    return [w for words in s.commands() for w in words[1:]]


def _uint(text: str, maximum: int) -> int:
    if not text.isdigit() or int(text) > maximum:
        raise ValueError(text)
    return int(text)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


class Emulator:
    """A :class:`DeviceModel` served on a pty or a local TCP port by a background thread.

    >>> with Emulator() as emulator:
    ...     url = emulator.start("socket")
    ...     url.startswith("socket://127.0.0.1:"), emulator.state.cube
    (True, 1)
    """

    def __init__(self, on_change: Callable[["Emulator"], None] | None = None) -> None:
        self.on_change = on_change
        self.model = DeviceModel()
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._transport = ""
        self._link_path: str | None = None
        self._master = self._slave_keep = -1
        self._server: socket.socket | None = None
        self._client: socket.socket | None = None
        self._port = 0
        self._plugged = False
        self.url: str | None = None
        self._shown: tuple | None = None

    # --- life cycle ---------------------------------------------------------------------

    def start(self, transport: str = "pty", link: str | None = None, port: int = 0) -> str:
        """Serves the model; returns the URL for ``Unit``/pyserial.  ``transport`` is ``pty``
        (``link``: also make this symbolic link to the pty) or ``socket`` (``port`` 0: any)."""
        if transport not in ("pty", "socket"):
            raise ValueError(f"transport is 'pty' or 'socket', not {transport!r}")
        if self._thread is not None:
            raise RuntimeError("the emulator is already running")
        self._transport, self._link_path, self._port = transport, link, port
        self._plug()
        self._thread = threading.Thread(target=self._serve, name="unit-emulator", daemon=True)
        self._thread.start()
        assert self.url is not None
        return self.url

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        self._unplug()

    def __enter__(self) -> "Emulator":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- what a test or the dashboard does ----------------------------------------------

    @property
    def state(self) -> DisplayState:
        with self._lock:
            return self.model.state

    @property
    def leds(self) -> int:
        with self._lock:
            return self.model.leds

    @property
    def brightness(self) -> int:
        with self._lock:
            return self.model.state.brightness

    @property
    def link(self) -> bool:
        with self._lock:
            return self.model.link

    def snapshot(self) -> dict:
        """Everything the unit shows, JSON-friendly (for the dashboard).

        >>> Emulator().snapshot()["leds"], Emulator().snapshot()["cube"]
        ('00000040', 1)
        """
        with self._lock:
            return {**self.model.state.as_dict(), "leds": f"{self.model.leds:08X}", "link": self.model.link}

    def press(self, button: str) -> None:
        with self._lock:
            self.model.press(button)

    def wait_leds(self, mask: int, timeout: float = 5.0, care: int = 0xFFFFFFFF) -> bool:
        """Waits until ``leds & care == mask & care`` (as :class:`~firmware_link.sim.SimulatedUnit`)."""
        deadline = time.monotonic() + timeout
        while (self.leds & care) != (mask & care):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def reset(self) -> None:
        """Resets the chip (reset pin): the display goes dark, the link memory stays."""
        with self._lock:
            self.model.reset()

    def power_cycle(self) -> None:
        with self._lock:
            self.model.power_cycle()

    def unplug(self) -> None:
        """Pulls the cable: the host's port fails; the unit keeps running (and queuing events)."""
        with self._lock:
            self._unplug()

    def plug(self) -> None:
        """Plugs the cable back in (a new pty behind the same link path, or the same TCP port)."""
        with self._lock:
            if not self._plugged:
                self._plug()

    # --- transport ----------------------------------------------------------------------

    def _plug(self) -> None:
        if self._transport == "pty":
            self._master, self._slave_keep = os.openpty()
            tty.setraw(self._slave_keep)
            os.set_blocking(self._master, False)
            path = os.ttyname(self._slave_keep)
            if self._link_path:
                tmp = f"{self._link_path}.tmp{os.getpid()}"
                if os.path.lexists(tmp):
                    os.unlink(tmp)
                os.symlink(path, tmp)
                os.replace(tmp, self._link_path)
                path = self._link_path
            self.url = path
        else:
            server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", self._port))
            server.listen(1)
            self._port = server.getsockname()[1]
            self._server = server
            self.url = f"socket://127.0.0.1:{self._port}"
        self._plugged = True

    def _unplug(self) -> None:
        self._plugged = False
        for fd in (self._master, self._slave_keep):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave_keep = -1
        if self._link_path and os.path.lexists(self._link_path):
            os.unlink(self._link_path)
        for sock in (self._client, self._server):
            if sock is not None:
                sock.close()
        self._client = self._server = None

    def _serve(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                readers = [fd for fd in (self._master,) if fd >= 0]
                readers += [s for s in (self._server, self._client) if s is not None]
            try:
                ready, _, _ = select.select(readers, [], [], 0.01)
            except (OSError, ValueError):  # closed under us by unplug()
                ready = []
            with self._lock:
                data = b""
                for r in ready:
                    if r is self._server and self._server is not None:
                        self._accept()
                    elif r is self._client and self._client is not None:
                        data += self._recv_client()
                    elif r == self._master and self._master >= 0:
                        try:
                            data += os.read(self._master, 4096)
                        except (BlockingIOError, OSError):
                            pass
                out = self.model.step(data)
                if getattr(self.model, "_wdtest_pending", False):
                    self.model._wdtest_pending = False
                    self._send(out)
                    self.model.reset("wdt")
                    out = self.model.step(b"")
                self._send(out)
                shown = (self.model.state, self.model.link)
                changed = shown != self._shown
                self._shown = shown
            if changed and self.on_change is not None:
                self.on_change(self)

    def _accept(self) -> None:
        assert self._server is not None
        client, _ = self._server.accept()
        if self._client is not None:  # one host at a time, like a serial port
            client.close()
            return
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._client = client

    def _recv_client(self) -> bytes:
        assert self._client is not None
        try:
            data = self._client.recv(4096)
        except OSError:
            data = b""
        if not data:
            self._client.close()
            self._client = None
        return data

    def _send(self, out: bytes) -> None:
        if not out or not self._plugged:
            return  # nobody listening: the bytes are lost on the wire
        if self._master >= 0:
            try:
                os.write(self._master, out)
            except (BlockingIOError, OSError):
                pass  # pty buffer full: nobody is reading, the line drops bytes
        elif self._client is not None:
            try:
                self._client.sendall(out)
            except OSError:
                self._client.close()
                self._client = None
