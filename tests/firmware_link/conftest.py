"""Fixtures: the same host-side tests run against the emulator and the real firmware under simavr.

``device`` is an :class:`~firmware_link.emulator.Emulator` or a
:class:`~firmware_link.sim.SimulatedUnit`; both have ``url`` (from ``start``), ``press``,
``reset``, ``unplug``, ``plug``, ``leds``, ``brightness``, ``wait_leds``.  The simavr one needs
the AVR tool chain and libsimavr: ``require_tool`` skips without them on a developer machine
and fails under the project's test command (BGBRIDGE_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import random
import select
import socket
import threading
import time
from pathlib import Path

import pytest
import serial

from firmware_link.emulator import Emulator
from firmware_link.protocol import BAUD_RATE, PROTO_VERSION, Frame, FrameDecoder, request
from firmware_link.sim import BUILD_TOOLS, SimulatedUnit, build
from tools import require_tool

SIMAVR_HEADER = Path("/usr/include/simavr/sim_avr.h")


@pytest.fixture(scope="session")
def firmware_build(tmp_path_factory):
    """Firmware and harness built once per session into a temporary directory."""
    require_tool(*BUILD_TOOLS)
    if not SIMAVR_HEADER.exists():
        require_tool(str(SIMAVR_HEADER))  # skip or fail with the same message
    return build(tmp_path_factory.mktemp("bgled-build"))


def _start(kind: str, request, tmp_path: Path):
    link = tmp_path / "uart0"
    if kind == "emulator":
        dev = Emulator()
        dev.url = dev.start("pty", link=str(link))
    else:
        dev = SimulatedUnit(request.getfixturevalue("firmware_build"), link=link)
        dev.url = dev.start()
    dev.kind = kind
    return dev


@pytest.fixture(params=["emulator", pytest.param("simavr", marks=pytest.mark.simavr)])
def device(request, tmp_path):
    dev = _start(request.param, request, tmp_path)
    yield dev
    dev.stop()


@pytest.fixture
def chip(request, tmp_path):
    """The real firmware under simavr only."""
    dev = _start("simavr", request, tmp_path)
    yield dev
    dev.stop()



class RawHost:
    def __init__(self, url: str) -> None:
        self.port = serial.serial_for_url(url, BAUD_RATE, timeout=0.02)
        self.decoder = FrameDecoder()
        self.seen: list[Frame] = []

    def close(self) -> None:
        self.port.close()

    def __enter__(self) -> "RawHost":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def send(self, seq: int, *words: str | int) -> None:
        self.port.write(request(seq, *words))

    def read_for(self, seconds: float) -> list[Frame]:
        frames: list[Frame] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            frames += self.decoder.feed(self.port.read(self.port.in_waiting or 1))
        self.seen += frames
        return frames

    def reply(self, seq: int, timeout: float = 2.0) -> Frame | None:
        """The next reply with ``seq`` (other frames are kept in ``seen``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.decoder.feed(self.port.read(self.port.in_waiting or 1)):
                self.seen.append(frame)
                if frame.kind == "=" and frame.seq == seq:
                    return frame
        return None

    def ask(self, seq: int, *words: str | int, timeout: float = 2.0, tries: int = 1) -> Frame | None:
        """Send and wait for the reply; with ``tries`` > 1 resend with the same sequence number
        (the protocol's retry: the device answers again without acting twice)."""
        for _ in range(tries):
            self.send(seq, *words)
            frame = self.reply(seq, timeout)
            if frame is not None:
                return frame
        return None

    def hello(self, seq: int = 0, session: str = "BEEF") -> Frame | None:
        return self.ask(seq, "hello", PROTO_VERSION, session, tries=3)

    def stats(self, seq: int) -> dict[str, int]:
        frame = self.ask(seq, "stats")
        assert frame is not None and frame.words[0] == "ok", frame
        names = ("acted", "dups", "crc_errors", "rx_overruns", "lost", "pending")
        return dict(zip(names, map(int, frame.words[1:])))


@pytest.fixture
def raw_host():
    """``raw_host(url)``: a bare protocol host (closed after the test)."""
    hosts = []

    def make(url: str) -> RawHost:
        host = RawHost(url)
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        host.close()


class NoisyLine:
    """A bad cable between host and device: a local TCP port (``url``) that forwards to the
    device's port, injects random garbage bytes and flips bits in both directions, and can be
    cut and restored (the host sees its connection dropped and refused meanwhile)."""

    def __init__(self, device_url: str, *, garbage: float = 0.0, flips: float = 0.0, seed: int = 1) -> None:
        self.device = serial.serial_for_url(device_url, BAUD_RATE, timeout=0)
        self.garbage = garbage  # chance per forwarded chunk of inserting 1..8 random bytes
        self.flips = flips  # chance per byte of one flipped bit
        self.rng = random.Random(seed)
        self.garbage_bytes = 0
        self.flipped = 0
        self._server: socket.socket | None = None
        self._client: socket.socket | None = None
        self._port = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._listen()
        self.url = f"socket://127.0.0.1:{self._port}"
        self._thread = threading.Thread(target=self._run, daemon=True, name="noisy-line")
        self._thread.start()

    def _listen(self) -> None:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self._port))
        server.listen(1)
        self._port = server.getsockname()[1]
        self._server = server

    def cut(self) -> None:
        with self._lock:
            for sock in (self._client, self._server):
                if sock is not None:
                    sock.close()
            self._client = self._server = None

    def restore(self) -> None:
        with self._lock:
            if self._server is None:
                self._listen()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.cut()
        self.device.close()

    def _mangle(self, data: bytes) -> bytes:
        out = bytearray(data)
        if self.flips:
            for i in range(len(out)):
                if self.rng.random() < self.flips:
                    out[i] ^= 1 << self.rng.randrange(8)
                    self.flipped += 1
        if self.garbage and self.rng.random() < self.garbage:
            junk = bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 8)))
            at = self.rng.randrange(len(out) + 1)
            out[at:at] = junk
            self.garbage_bytes += len(junk)
        return bytes(out)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                server, client = self._server, self._client
            readers = [self.device.fileno()] + [s for s in (server, client) if s is not None]
            try:
                ready, _, _ = select.select(readers, [], [], 0.01)
            except (OSError, ValueError):
                continue
            with self._lock:
                if self._server is not None and self._server in ready:
                    conn, _ = self._server.accept()
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    if self._client is None:
                        self._client = conn
                    else:
                        conn.close()
                if self._client is not None and self._client in ready:
                    try:
                        data = self._client.recv(4096)
                    except OSError:
                        data = b""
                    if data:
                        self.device.write(self._mangle(data))
                    else:
                        self._client.close()
                        self._client = None
                if self.device.fileno() in ready:
                    data = self.device.read(4096)
                    if data and self._client is not None:  # no host: the bytes are lost
                        try:
                            self._client.sendall(self._mangle(data))
                        except OSError:
                            self._client.close()
                            self._client = None


@pytest.fixture
def noisy_line():
    """``noisy_line(device_url, garbage=..., flips=...)``: a :class:`NoisyLine` (closed after)."""
    lines = []

    def make(url: str, **kw) -> NoisyLine:
        line = NoisyLine(url, **kw)
        lines.append(line)
        return line

    yield make
    for line in lines:
        line.close()
