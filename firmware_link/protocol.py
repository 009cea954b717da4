"""The indicator unit's wire protocol: frames, their checksum and the shared constants.

The numbers (frame length, buffer sizes, timings, version) are read from the firmware's own
header ``firmware/protocol.h``, so host and firmware cannot disagree about them.  The protocol is
described in ``PROTOCOL.md`` next to this file.

A frame is one line of printable ASCII: a start character that says what it is, the text, a
``*``, the CRC-16/CCITT-FALSE of everything before the ``*`` in four hex digits, and a newline.

>>> encode("!05 cube 4 x")
b'!05 cube 4 x*5FF6\\n'
>>> decoder = FrameDecoder()
>>> decoder.feed(b"line noise \\x00\\xff=05 ok*" + b"%04X" % crc16(b"=05 ok") + b"\\n")
[Frame(kind='=', seq=5, words=('ok',))]
>>> decoder.garbage_bytes, decoder.bad_frames
(13, 0)
"""
from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().with_name("firmware")

_DEFINE = re.compile(r"^#define\s+([A-Z][A-Z0-9_]*)\s+(.+?)\s*(?:/\*.*)?$")


def read_defines(path: Path) -> dict[str, int | str | tuple]:
    """The ``#define NAME value`` lines of a C header: numbers, strings and comma lists.

    >>> read_defines(FIRMWARE_DIR / "protocol.h")["FRAME_MAX"]
    64
    """
    values: dict[str, int | str | tuple] = {}
    for line in path.read_text().splitlines():
        match = _DEFINE.match(line.strip())
        if not match:
            continue
        name, text = match.groups()
        items = [item.strip() for item in text.split(",")]
        parsed = tuple(_c_literal(item) for item in items)
        values[name] = parsed if len(parsed) > 1 else parsed[0]
    return values


def _c_literal(text: str) -> int | str:
    if text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    return int(text.rstrip("uUlL"), 0)


_C = read_defines(FIRMWARE_DIR / "protocol.h")

PROTO_VERSION: int = _C["PROTO_VERSION"]  # type: ignore[assignment]
FIRMWARE_VERSION: str = _C["FIRMWARE_VERSION"]  # type: ignore[assignment]
DEVICE_NAME: str = _C["DEVICE_NAME"]  # type: ignore[assignment]
BAUD_RATE: int = _C["BAUD_RATE"]  # type: ignore[assignment]
FRAME_MAX: int = _C["FRAME_MAX"]  # type: ignore[assignment]
RX_RING: int = _C["RX_RING"]  # type: ignore[assignment]
EVENT_QUEUE: int = _C["EVENT_QUEUE"]  # type: ignore[assignment]
HEARTBEAT_MS: int = _C["HEARTBEAT_MS"]  # type: ignore[assignment]
EVENT_RETRY_MS: int = _C["EVENT_RETRY_MS"]  # type: ignore[assignment]
HOST_TIMEOUT_MS: int = _C["HOST_TIMEOUT_MS"]  # type: ignore[assignment]
HOST_PING_MS: int = _C["HOST_PING_MS"]  # type: ignore[assignment]
DEBOUNCE_SAMPLE_MS: int = _C["DEBOUNCE_SAMPLE_MS"]  # type: ignore[assignment]
DEBOUNCE_SAMPLES: int = _C["DEBOUNCE_SAMPLES"]  # type: ignore[assignment]
CUBE_LOG2_MAX: int = _C["CUBE_LOG2_MAX"]  # type: ignore[assignment]
BRIGHTNESS_DEFAULT: int = _C["BRIGHTNESS_DEFAULT"]  # type: ignore[assignment]

#: Start characters: what a frame is.
REQUEST = "!"  # host -> device, carries the host's sequence number
REPLY = "="  # device -> host, carries the request's sequence number
EVENT = "^"  # device -> host, carries the device's event sequence number; the host acks it
HEARTBEAT = "~"  # device -> host, no sequence number, never acknowledged
KINDS = REQUEST + REPLY + EVENT + HEARTBEAT

#: USB vendor/product IDs of the boards the unit is built on (Arduino Uno/Nano and clones):
#: Arduino's own 16U2 bridge, the CH340 and FTDI FT232R of Nano clones, SparkFun/Silabs CP210x.
USB_IDS: tuple[tuple[int, int], ...] = (
    (0x2341, 0x0043),  # Arduino Uno R3
    (0x2341, 0x0001),  # Arduino Uno (first revisions)
    (0x2341, 0x0243),  # Arduino Uno R3 (16U2, later)
    (0x2A03, 0x0043),  # Arduino.org Uno
    (0x1A86, 0x7523),  # CH340 (Nano clones)
    (0x0403, 0x6001),  # FTDI FT232R (original Nano)
    (0x10C4, 0xEA60),  # CP2102
)


class ProtocolError(ValueError):
    """A frame or a reply that does not follow PROTOCOL.md."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as avr-libc's ``_crc_xmodem_update``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def encode(text: str) -> bytes:
    """A complete frame for ``text`` (start character included): appends ``*CRC`` and newline."""
    data = text.encode("ascii")
    if len(data) + 6 > FRAME_MAX:
        raise ProtocolError(f"frame too long ({len(data) + 6} > {FRAME_MAX} bytes): {text!r}")
    return data + b"*%04X\n" % crc16(data)


def request(seq: int, *words: str | int) -> bytes:
    """A host request frame.

    >>> request(0x2A, "dice", 6, 2)
    b'!2A dice 6 2*EDB7\\n'
    """
    return encode(f"{REQUEST}{seq & 0xFF:02X} " + " ".join(str(w) for w in words))


@dataclass(frozen=True)
class Frame:
    """One checked frame: its kind (start character), sequence number (None for heartbeats)
    and the words of its text."""

    kind: str
    seq: int | None
    words: tuple[str, ...]

    def text(self) -> str:
        seq = "" if self.seq is None else f"{self.seq:02X} "
        return f"{self.kind}{seq}{' '.join(self.words)}"


def parse(line: bytes) -> Frame:
    """Checks and splits one frame without its newline; raises :class:`ProtocolError`.

    >>> parse(b"^07 btn double*" + b"%04X" % crc16(b"^07 btn double"))
    Frame(kind='^', seq=7, words=('btn', 'double'))
    >>> parse(b"^07 btn dooble*1234")
    Traceback (most recent call last):
    ...
    firmware_link.protocol.ProtocolError: bad checksum
    """
    if len(line) < 6 or line[-5:-4] != b"*":
        raise ProtocolError("no checksum")
    body, check = line[:-5], line[-4:]
    try:
        want = int(check, 16)
    except ValueError:
        raise ProtocolError("no checksum") from None
    if crc16(body) != want:
        raise ProtocolError("bad checksum")
    text = body.decode("ascii")
    kind = text[0]
    if kind not in KINDS:
        raise ProtocolError(f"unknown frame kind {kind!r}")
    if kind == HEARTBEAT:
        return Frame(kind, None, tuple(text[1:].split()))
    if len(text) < 4 or text[3] != " ":
        raise ProtocolError("no sequence number")
    try:
        seq = int(text[1:3], 16)
    except ValueError:
        raise ProtocolError("no sequence number") from None
    return Frame(kind, seq, tuple(text[4:].split()))


class FrameDecoder:
    """Byte stream to frames, in step again at the next start character after any garbage.

    Only frames whose start character is in ``kinds`` are looked for (a host looks for the
    device's frames, the device for requests), so bytes of the other direction count as garbage.
    Counts what it threw away: ``garbage_bytes`` outside frames, ``bad_frames`` (checksum, length,
    unprintable characters).
    """

    def __init__(self, kinds: str = REPLY + EVENT + HEARTBEAT) -> None:
        self.kinds = kinds.encode("ascii")
        self._frame = bytearray()
        self._in_frame = False
        self.garbage_bytes = 0
        self.bad_frames = 0

    def feed(self, data: bytes) -> list[Frame]:
        frames = []
        for byte in data:
            if byte in self.kinds:
                if self._in_frame:
                    self.bad_frames += 1  # a frame cut short by the next one
                self._frame = bytearray((byte,))
                self._in_frame = True
            elif not self._in_frame:
                self.garbage_bytes += 1
            elif byte == 0x0A:  # newline ends a frame
                self._in_frame = False
                try:
                    frames.append(parse(bytes(self._frame)))
                except (ProtocolError, UnicodeDecodeError):
                    self.bad_frames += 1
            elif byte == 0x0D:
                continue
            elif byte < 0x20 or byte > 0x7E or len(self._frame) >= FRAME_MAX - 1:
                self._in_frame = False
                self.bad_frames += 1
            else:
                self._frame.append(byte)
        return frames
