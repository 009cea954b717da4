"""The host side of the link: :class:`Unit` keeps an indicator unit showing what the host wants.

Like pyserial's ``serial.threaded``, framing is apart from transport: a
``serial.threaded.ReaderThread`` reads whatever the port (opened by URL, so a pty path,
``socket://host:port`` or a real ``/dev/ttyACM0`` work the same) delivers and a
:class:`~firmware_link.protocol.FrameDecoder` cuts it into frames; one worker thread runs the
protocol.  Callers never block: every command returns a ``concurrent.futures.Future``.

What the worker does (PROTOCOL.md says why):

* one request in flight at a time (the device's receive buffer is 128 bytes), retried with the
  same sequence number until its reply comes, so a retried command is never acted on twice;
* a ``hello`` handshake after opening the port, retried while an Uno/Nano boots after the
  DTR auto-reset, and again after any silence; then the whole display state is pushed;
* a ``ping`` when idle (host heartbeat); device heartbeats and frames are watched, and a device
  that goes quiet gets a new handshake;
* device events are acknowledged and delivered once, in order, even when the device sends them
  again; a ``boot`` event from a reset chip makes the worker push the display state again;
* a pulled cable (an exception from the port) closes the port and the worker reopens it (for
  ``auto``, finding the unit again by USB VID/PID) and carries on where it stopped.

>>> from firmware_link.emulator import Emulator
>>> from engine.position import X
>>> with Emulator() as emulator, Unit(emulator.start()) as unit:
...     unit.set_cube(4, owner=X).result(timeout=5).words
...     emulator.state.cube, emulator.state.owner == X
('ok',)
(4, True)
"""
from __future__ import annotations

import collections
import logging
import queue
import random
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

import serial
import serial.threaded
from serial.tools import list_ports

from firmware_link.display import BUTTONS, DisplayState
from firmware_link.protocol import (
    BAUD_RATE,
    EVENT,
    HEARTBEAT,
    HEARTBEAT_MS,
    HOST_PING_MS,
    PROTO_VERSION,
    REPLY,
    USB_IDS,
    Frame,
    FrameDecoder,
    request,
)

if TYPE_CHECKING:  # pragma: no cover
    from firmware_link.emulator import Emulator

log = logging.getLogger(__name__)

#: The device is taken for gone (and greeted again) after this long without a frame from it.
SILENCE_TIMEOUT = 3.5 * HEARTBEAT_MS / 1000
#: ``hello`` is retried this often while the device does not answer (it may be booting).
HELLO_RETRY = 0.25


class DeviceError(Exception):
    """The unit answered a request with ``err``."""


class LinkClosed(Exception):
    """The :class:`Unit` was closed before the request was answered."""


def attach(port: str = "auto", **options) -> tuple["Unit", "Emulator | None"]:
    """A started :class:`Unit` on ``port``; for ``"auto"`` with no unit on USB, on a freshly
    started software :class:`~firmware_link.emulator.Emulator` instead (returned too, for the
    dashboard to show and for the caller to ``stop()``).  ``options`` go to :class:`Unit`::

        unit, emulator = attach("auto")
        shown = emulator.state if emulator else unit.desired
    """
    if port == "auto" and find_unit_port() is None:
        from firmware_link.emulator import Emulator

        emulator = Emulator()
        return Unit(emulator.start("pty"), **options).start(), emulator
    return Unit(port, **options).start(), None


def find_unit_port() -> str | None:
    """The device path of the first serial port whose USB VID/PID is a known unit board."""
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if (port.vid, port.pid) in USB_IDS:
            return port.device
    return None


@dataclass(frozen=True)
class DeviceInfo:
    """What the unit said in reply to ``hello``."""

    name: str
    protocol: int
    firmware: str
    boot_count: int


@dataclass(frozen=True)
class DeviceEvent:
    """An event from the unit: ``kind`` is ``btn`` (``args[0]`` the button), ``boot``
    (``args`` = boot count, reset cause) or ``err`` (``rx``/``lost`` and a running count)."""

    seq: int
    kind: str
    args: tuple[str, ...]
    received: float

    @property
    def button(self) -> str | None:
        return self.args[0] if self.kind == "btn" and self.args else None


@dataclass
class LinkStats:
    """Counters since the :class:`Unit` started."""

    frames_sent: int = 0
    retries: int = 0
    replies: int = 0  # requests (not hello) answered: the device's ``acted`` counter should agree
    errors: int = 0
    stale_replies: int = 0
    events: int = 0
    duplicate_events: int = 0
    device_resets: int = 0
    connects: int = 0
    handshakes: int = 0
    garbage_bytes: int = 0
    bad_frames: int = 0


@dataclass
class _Request:
    words: tuple[str, ...]
    futures: list[Future] = field(default_factory=list)
    verb_key: str | None = None  # display field it sets (queued ones with the same key merge)
    seq: int | None = None
    frame: bytes = b""
    sent_at: float = 0.0
    tries: int = 0


class _FrameProtocol(serial.threaded.Protocol):
    """Transport to frames: bytes from the reader thread into the decoder, frames to the unit."""

    def __init__(self, unit: "Unit", generation: int) -> None:
        self.unit = unit
        self.generation = generation
        self.decoder = FrameDecoder()

    def data_received(self, data: bytes) -> None:
        frames = self.decoder.feed(data)
        self.unit._from_reader(self.generation, frames, self.decoder)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.unit._lost(self.generation, exc)


class _ReaderThread(serial.threaded.ReaderThread):
    """``serial.threaded.ReaderThread`` that also treats an ``OSError`` as a lost connection
    (pyserial's ``in_waiting`` raises a bare EIO when a pty or USB port goes away)."""

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        self.protocol.connection_made(self)
        self._connection_made.set()
        error: BaseException | None = None
        while self.alive and self.serial.is_open:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                error = exc  # TypeError/AttributeError: the port was closed under us
                break
            if data:
                self.protocol.data_received(data)
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None


class Unit:
    """The indicator unit on a serial port, kept showing :attr:`desired`.

    ``port``: ``"auto"`` (find by USB VID/PID), a device path or any pyserial URL
    (``socket://127.0.0.1:7000``).  ``on_event`` is called (on the worker thread) with each
    button :class:`DeviceEvent`; they are also put on :attr:`events`.  With ``adopt_state`` the
    first handshake reads what the unit shows and takes it as :attr:`desired` instead of
    pushing the default state (for a one-off command that changes one thing).  Without
    ``ack_events`` events are seen but left on the unit for the next host (a one-off command
    must not swallow the players' button presses).
    """

    def __init__(
        self,
        port: str = "auto",
        *,
        baudrate: int = BAUD_RATE,
        reply_timeout: float = 0.1,
        reconnect_interval: float = 0.5,
        on_event: Callable[[DeviceEvent], None] | None = None,
        adopt_state: bool = False,
        ack_events: bool = True,
    ) -> None:
        self.port = port
        self.adopt_state = adopt_state
        self.ack_events = ack_events
        self.baudrate = baudrate
        self.reply_timeout = reply_timeout
        self.reconnect_interval = reconnect_interval
        self.on_event = on_event
        self.events: "queue.Queue[DeviceEvent]" = queue.Queue()
        self.stats = LinkStats()
        self.info: DeviceInfo | None = None
        self.last_boot: DeviceEvent | None = None  # the unit's latest boot event (count, cause)
        #: the unit's ``err`` events (receive overruns, button presses lost to a full queue)
        self.device_errors: collections.deque[DeviceEvent] = collections.deque(maxlen=100)
        self.last_error: str | None = None
        self.session = random.randrange(1, 0x10000)

        self._cond = threading.Condition(threading.RLock())
        self._desired = DisplayState()
        self._queue: collections.deque[_Request] = collections.deque()
        self._priority: collections.deque[_Request] = collections.deque()
        self._inflight: _Request | None = None
        self._parked: _Request | None = None
        self._hello: _Request | None = None
        self._next_seq = random.randrange(0x100)
        self._phase = "closed"  # closed -> hello -> ready
        self._serial: serial.SerialBase | None = None
        self._reader: _ReaderThread | None = None
        self._generation = 0
        self._inbox: list[Frame] = []
        self._lost_error: BaseException | None | bool = False
        self._last_heard = 0.0
        self._last_sent = 0.0
        self._next_open = 0.0
        self._last_event_seq: int | None = None
        self._boot_count: int | None = None
        self._acks_queued: set[int] = set()
        self._garbage_base = 0
        self._bad_base = 0
        self._next_hello_at = 0.0
        self._ready = threading.Event()
        self._stopping = False
        self._worker = threading.Thread(target=self._run, name=f"unit-link {port}", daemon=True)

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> "Unit":
        """Starts the worker (returns at once; see :meth:`wait_ready`)."""
        self._worker.start()
        return self

    def close(self) -> None:
        """Stops the worker and closes the port; unanswered requests fail with LinkClosed."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._worker.is_alive():
            self._worker.join(5)
        self._close_port()
        with self._cond:
            pending = [r for r in (self._inflight, self._parked, self._hello) if r]
            pending += list(self._priority) + list(self._queue)
            self._queue.clear()
            self._priority.clear()
            self._inflight = self._parked = self._hello = None
        for req in pending:
            for fut in req.futures:
                if not fut.done():
                    fut.set_exception(LinkClosed("the link was closed"))

    def __enter__(self) -> "Unit":
        if not self._worker.is_alive() and not self._stopping:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Waits until the unit has answered ``hello``.  The whole display state is then queued
        ahead of anything else, so any later request's reply means the unit shows it."""
        return self._ready.wait(timeout)

    @property
    def ready(self) -> bool:
        """True while the link is up (handshake done, not silent, port open)."""
        return self._ready.is_set()

    @property
    def status(self) -> str:
        """``closed`` (no port), ``hello`` (port open, waiting for the unit) or ``ready``."""
        return self._phase

    @property
    def desired(self) -> DisplayState:
        """What the unit should show (every accepted command already applied)."""
        return self._desired

    # --- commands -----------------------------------------------------------------------

    def show(self, state: DisplayState) -> Future:
        """Puts ``state`` on the unit (only the parts that differ from :attr:`desired` are sent).

        The future's result is the list of replies (empty if nothing changed)."""
        with self._cond:
            old = self._desired.field_commands()
            new = state.field_commands()
            self._desired = state
            futures = [self._enqueue(words, key) for key, words in new.items() if old[key] != words]
        return _gather(futures)

    def set_cube(self, value: int, owner: int | None = None) -> Future:
        """The cube shows ``value``, on ``owner``'s side (X or O) or in the centre (None)."""
        return self._set(cube=value, owner=owner)

    def set_turn(self, player: int | None) -> Future:
        return self._set(turn=player)

    def set_dice(self, die1: int, die2: int) -> Future:
        """Dice values 1..6; ``(0, 0)`` shows none."""
        return self._set(dice=(die1, die2))

    def set_verdict(self, legal: bool | None) -> Future:
        """Green for a legal move, red for an illegal one (until set again), None for dark."""
        return self._set(verdict=legal)

    def set_brightness(self, level: int) -> Future:
        return self._set(brightness=level)

    def lamp_test(self, on: bool) -> Future:
        return self._set(lamp_test=bool(on))

    def request(self, *words: str | int) -> Future:
        """Any request (``state``, ``leds``, ``stats``, ``ping``); the future gives the reply
        :class:`~firmware_link.protocol.Frame` (words after ``ok`` in ``frame.words[1:]``)."""
        with self._cond:
            return self._enqueue(tuple(str(w) for w in words), None)

    def _set(self, **changes) -> Future:
        with self._cond:
            state = self._desired.with_(**changes)  # ValueError for a bad value, at the caller
            self._desired = state
            new = state.field_commands()
            keys = {"cube": "cube", "owner": "cube", "turn": "turn", "dice": "dice",
                    "verdict": "verdict", "brightness": "bright", "lamp_test": "test"}
            key = keys[next(iter(changes))]
            return self._enqueue(new[key], key)

    def _enqueue(self, words: tuple[str, ...], key: str | None) -> Future:
        """Queues a request (lock held).  A queued, unsent command for the same display field
        is replaced: commands set absolute state, so only the last one matters."""
        fut: Future = Future()
        fut.set_running_or_notify_cancel()
        if key is not None:
            for req in self._queue:
                if req.verb_key == key:
                    req.words = words
                    req.futures.append(fut)
                    self._cond.notify_all()
                    return fut
        self._queue.append(_Request(words, [fut], key))
        self._cond.notify_all()
        return fut

    # --- reader thread side -------------------------------------------------------------

    def _from_reader(self, generation: int, frames: list[Frame], decoder: FrameDecoder) -> None:
        with self._cond:
            if generation != self._generation:
                return
            self.stats.garbage_bytes = self._garbage_base + decoder.garbage_bytes
            self.stats.bad_frames = self._bad_base + decoder.bad_frames
            if frames:
                self._inbox.extend(frames)
                self._cond.notify_all()

    def _lost(self, generation: int, exc: BaseException | None) -> None:
        with self._cond:
            if generation == self._generation:
                self._lost_error = exc if exc is not None else True
                self._cond.notify_all()

    # --- worker -------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    if self._stopping:
                        return
                    self._cond.wait(self._wait_time())
                    if self._stopping:
                        return
                    inbox, self._inbox = self._inbox, []
                    lost, self._lost_error = self._lost_error, False
                if lost is not False:
                    self._drop_connection(f"connection lost: {lost}" if lost is not True else "connection lost")
                if self._serial is None:
                    if time.monotonic() >= self._next_open:
                        self._open()
                    continue
                deliveries: list[DeviceEvent] = []
                with self._cond:
                    for frame in inbox:
                        self._handle(frame, deliveries)
                    out = self._due_output()
                for event in deliveries:
                    self.events.put(event)
                    if self.on_event:
                        try:
                            self.on_event(event)
                        except Exception:  # a listener's bug must not stop the link
                            log.exception("on_event callback failed")
                if out:
                    self._write(out)
        except Exception:  # pragma: no cover - a bug; keep it visible
            log.exception("unit link worker crashed")
            raise

    def _wait_time(self) -> float:
        now = time.monotonic()
        if self._inbox or self._lost_error is not False:
            return 0
        if self._serial is None:
            return max(0.0, self._next_open - now)
        deadlines = [now + 0.5]
        if self._inflight:
            timeout = HELLO_RETRY if self._inflight is self._hello else self.reply_timeout
            deadlines.append(self._inflight.sent_at + timeout)
        elif self._phase == "ready":
            if self._parked or self._priority or self._queue:
                return 0
            deadlines.append(self._last_sent + HOST_PING_MS / 1000)
        elif self._phase == "hello":
            deadlines.append(self._next_hello_at)
        return max(0.0, min(deadlines) - now)

    def _open(self) -> None:
        url = self.port
        if url == "auto":
            url = find_unit_port()
            if url is None:
                self.last_error = "no unit found by USB VID/PID"
                self._next_open = time.monotonic() + self.reconnect_interval
                return
        try:
            port = serial.serial_for_url(url, baudrate=self.baudrate, exclusive=True, do_not_open=True)
            port.open()
        except (serial.SerialException, OSError, ValueError) as exc:
            self.last_error = f"cannot open {url}: {exc}"
            self._next_open = time.monotonic() + self.reconnect_interval
            return
        with self._cond:
            self._generation += 1
            self._garbage_base = self.stats.garbage_bytes
            self._bad_base = self.stats.bad_frames
            reader = _ReaderThread(port, _make_factory(self, self._generation))
            reader.daemon = True
            self._serial, self._reader = port, reader
            self._phase = "hello"
            self._last_heard = time.monotonic()
            self.stats.connects += 1
        reader.start()
        log.info("opened %s", url)

    def _close_port(self) -> None:
        with self._cond:
            port, reader = self._serial, self._reader
            self._serial = self._reader = None
            self._generation += 1
        if reader is not None:
            reader.alive = False
            if hasattr(port, "cancel_read"):
                try:
                    port.cancel_read()
                except Exception:
                    pass
            else:  # socket:// has no cancel_read: closing the socket wakes the reader
                _quiet_close(port)
            if reader is not threading.current_thread():
                reader.join(2)
        if port is not None:
            _quiet_close(port)

    def _drop_connection(self, why: str) -> None:
        log.info("%s; reconnecting", why)
        self.last_error = why
        self._close_port()
        with self._cond:
            self._park()
            self._phase = "closed"
            self._ready.clear()
            self._next_open = time.monotonic() + self.reconnect_interval

    def _park(self) -> None:
        """The request in flight waits (keeping its sequence number) until after the next hello;
        then it is the first request sent (:meth:`_due_output`), so the device, which remembers
        only its last request, recognises it as a repeat if it acted on it already."""
        if self._inflight is not None and self._inflight is not self._hello:
            self._parked = self._inflight
        self._inflight = None
        self._hello = None

    def _write(self, data: bytes) -> None:
        port = self._serial
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._drop_connection(f"write failed: {exc}")

    def _new_seq(self) -> int:
        seq = self._next_seq
        self._next_seq = (seq + 1) & 0xFF
        return seq

    def _send(self, req: _Request, now: float) -> bytes:
        if req.seq is None:
            req.seq = self._new_seq()
            req.frame = request(req.seq, *req.words)
        elif req.tries:
            self.stats.retries += 1
        req.tries += 1
        req.sent_at = now
        self._inflight = req
        self._last_sent = now
        self.stats.frames_sent += 1
        return req.frame

    def _due_output(self) -> bytes:
        """What to send now, if anything (lock held)."""
        now = time.monotonic()
        if self._phase in ("hello", "ready") and now - self._last_heard > SILENCE_TIMEOUT:
            # the device went quiet (reset, hung, line dead): greet it again
            self.last_error = "the unit went silent"
            self._park()
            self._phase = "hello"
            self._ready.clear()
            self._last_heard = now
        if self._inflight is not None:
            timeout = HELLO_RETRY if self._inflight is self._hello else self.reply_timeout
            if now - self._inflight.sent_at >= timeout:
                return self._send(self._inflight, now)
            return b""
        if self._phase == "hello":
            if now < self._next_hello_at:
                return b""
            self._hello = _Request(("hello", str(PROTO_VERSION), f"{self.session:04X}"))
            self.stats.handshakes += 1
            return self._send(self._hello, now)
        if self._phase != "ready":
            return b""
        if self._parked is not None:
            # a request sent before the reconnect or silence goes first, with its own number:
            # anything new (an ack queued meanwhile) would take a new number, the device would
            # forget the parked one (it remembers only the last) and act on it a second time
            req, self._parked = self._parked, None
            return self._send(req, now)
        if self._priority:
            return self._send(self._priority.popleft(), now)
        if self._queue:
            return self._send(self._queue.popleft(), now)
        if now - self._last_sent >= HOST_PING_MS / 1000:
            self._priority.append(_Request(("ping",)))
            return self._send(self._priority.popleft(), now)
        return b""

    def _handle(self, frame: Frame, deliveries: list[DeviceEvent]) -> None:
        """One frame from the device (lock held)."""
        now = time.monotonic()
        self._last_heard = now
        if frame.kind == REPLY:
            req = self._inflight
            if req is None or frame.seq != req.seq:
                self.stats.stale_replies += 1
                return
            self._inflight = None
            if req is self._hello:
                self._hello = None
                self._on_hello(frame)
                return
            self.stats.replies += 1
            if frame.words[:1] == ("ok",):
                for fut in req.futures:
                    if not fut.done():
                        fut.set_result(frame)
            else:
                self.stats.errors += 1
                for fut in req.futures:
                    if not fut.done():
                        fut.set_exception(DeviceError(f"{' '.join(req.words)}: {' '.join(frame.words)}"))
        elif frame.kind == EVENT:
            self._on_event(frame, now, deliveries)
        elif frame.kind == HEARTBEAT:
            pass  # being heard is all a heartbeat says

    def _on_hello(self, frame: Frame) -> None:
        words = frame.words
        if words[:1] != ("ok",) or len(words) != 5:
            self._refused(f"the unit refused hello: {' '.join(words)}")
            return
        try:
            info = DeviceInfo(words[1], int(words[2]), words[3], int(words[4]))
        except ValueError:
            self._refused(f"not a hello reply: {' '.join(words)}")
            return
        if self._boot_count is not None and info.boot_count != self._boot_count:
            self.stats.device_resets += 1
        self._boot_count = info.boot_count
        self.info = info
        self._phase = "ready"
        if self.adopt_state:
            self.adopt_state = False
            adopt = _Request(("state",))
            adopt.futures.append(_adopt(self))
            self._priority.appendleft(adopt)
            return
        self._push_state()
        self._ready.set()

    def _refused(self, why: str) -> None:
        """A wrong protocol version or a garbled hello reply: keep asking, once a second."""
        self.last_error = why
        log.warning(why)
        self._phase = "hello"
        self._next_hello_at = time.monotonic() + 1.0

    def _push_state(self) -> None:
        """The whole display state goes out before anything else queued (lock held); a parked
        request still goes before it (:meth:`_due_output`)."""
        pushes = [_Request(words) for words in self._desired.commands()]
        # acks stay first: they are cheap and let the device send its next event
        acks = [r for r in self._priority if r.words[0] == "ack"]
        rest = [r for r in self._priority if r.words[0] != "ack"]
        self._priority = collections.deque(acks + pushes + rest)

    def _on_event(self, frame: Frame, now: float, deliveries: list[DeviceEvent]) -> None:
        seq = frame.seq
        assert seq is not None
        kind, args = (frame.words[0], frame.words[1:]) if frame.words else ("", ())
        new_boot = kind == "boot" and args and args[0] != str(self._boot_count)
        if seq == self._last_event_seq and not new_boot:
            self.stats.duplicate_events += 1
        else:
            self._last_event_seq = seq
            self.stats.events += 1
            event = DeviceEvent(seq, kind, tuple(args), now)
            if kind == "boot":
                self.last_boot = event
                if self._boot_count is not None and new_boot:
                    self.stats.device_resets += 1
                    self._push_state()
                try:
                    self._boot_count = int(args[0])
                except (IndexError, ValueError):
                    pass
            elif kind == "btn" and args and args[0] in BUTTONS:
                deliveries.append(event)
            elif kind == "err":
                self.device_errors.append(event)
                self.last_error = f"the unit reports: {' '.join(frame.words)}"
                log.warning(self.last_error)
        if self.ack_events and seq not in self._acks_queued:
            self._acks_queued.add(seq)
            ack = _Request(("ack", f"{seq:02X}"))
            ack.futures.append(_forget_ack(self, seq))
            self._priority.appendleft(ack)


def _adopt(unit: Unit) -> Future:
    """Takes the unit's ``state`` reply as the desired state, then declares the link ready."""
    fut: Future = Future()

    def done(f: Future) -> None:
        with unit._cond:
            if f.exception() is None:
                try:
                    unit._desired = DisplayState.from_words(f.result().words[1:])
                except ValueError as exc:
                    log.warning("cannot adopt the unit's state: %s", exc)
        unit._ready.set()

    fut.add_done_callback(done)
    return fut


def _forget_ack(unit: Unit, seq: int) -> Future:
    fut: Future = Future()
    fut.add_done_callback(lambda _: unit._acks_queued.discard(seq))
    return fut


def _make_factory(unit: Unit, generation: int) -> Callable[[], _FrameProtocol]:
    return lambda: _FrameProtocol(unit, generation)


def _quiet_close(port: serial.SerialBase | None) -> None:
    if port is None:
        return
    try:
        port.close()
    except Exception:
        pass


def _gather(futures: list[Future]) -> Future:
    """One future for several: the list of results, or the first exception."""
    combined: Future = Future()
    combined.set_running_or_notify_cancel()
    if not futures:
        combined.set_result([])
        return combined
    remaining = [len(futures)]
    lock = threading.Lock()

    def done(_: Future) -> None:
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            errors = [f.exception() for f in futures if f.exception()]
            if errors:
                combined.set_exception(errors[0])
            else:
                combined.set_result([f.result() for f in futures])

    for fut in futures:
        fut.add_done_callback(done)
    return combined
