"""Host-side rules checked against a scripted device (what a real unit does only by chance)."""
from __future__ import annotations

import socket
import threading
import time

from firmware_link.link import Unit
from firmware_link.protocol import FrameDecoder, encode


def _listening_socket() -> tuple[socket.socket, str]:
    """A local TCP server socket on a free port, and its URL for the link."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    return server, f"socket://127.0.0.1:{server.getsockname()[1]}"


class ScriptedDevice:
    """A TCP 'unit' that answers every request with ``ok`` (hello properly) and lets the test
    send any frame; it records the requests it got."""

    def __init__(self) -> None:
        self.server, self.url = _listening_socket()
        self.requests: list[tuple[int, tuple[str, ...]]] = []
        self.conn: socket.socket | None = None
        self.replies_to_drop = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.conn, _ = self.server.accept()
        decoder = FrameDecoder(kinds="!")
        while True:
            data = self.conn.recv(4096)
            if not data:
                return
            for frame in decoder.feed(data):
                self.requests.append((frame.seq, frame.words))
                if frame.words[0] == "hello":
                    reply = "ok bgled 1 1.0 7"
                elif frame.words[0] == "state":
                    reply = "ok 1 c - 0 0 - 128 0"
                else:
                    reply = "ok"
                if self.replies_to_drop:
                    self.replies_to_drop -= 1
                    continue
                self.conn.sendall(encode(f"={frame.seq:02X} {reply}"))

    def send(self, text: str) -> None:
        assert self.conn is not None
        self.conn.sendall(encode(text))

    def close(self) -> None:
        if self.conn:
            self.conn.close()
        self.server.close()


def test_an_event_sent_again_is_delivered_once_and_acknowledged_again():
    device = ScriptedDevice()
    try:
        with Unit(device.url) as unit:
            assert unit.wait_ready(5)
            for _ in range(3):
                device.send("^05 btn take")
                time.sleep(0.05)
            device.send("^06 btn drop")
            assert unit.events.get(timeout=2).button == "take"
            assert unit.events.get(timeout=2).button == "drop"
            time.sleep(0.2)
            assert unit.events.empty() and unit.stats.duplicate_events == 2
            acks = [words for _, words in device.requests if words[0] == "ack"]
            assert ("ack", "05") in acks and ("ack", "06") in acks
    finally:
        device.close()


def test_a_lost_reply_is_retried_with_the_same_sequence_number():
    device = ScriptedDevice()
    try:
        with Unit(device.url, reply_timeout=0.05) as unit:
            assert unit.wait_ready(5)
            time.sleep(0.3)  # let the state push finish
            device.replies_to_drop = 2
            assert unit.set_dice(3, 4).result(5)
            sent = [(seq, words) for seq, words in device.requests if words == ("dice", "3", "4")]
            assert len(sent) == 3 and len({seq for seq, _ in sent}) == 1
            assert unit.stats.retries >= 2
    finally:
        device.close()


def test_a_boot_event_makes_the_host_push_the_state_again():
    device = ScriptedDevice()
    try:
        with Unit(device.url) as unit:
            assert unit.wait_ready(5)
            unit.set_cube(8, 1).result(5)
            before = len([w for _, w in device.requests if w == ("cube", "8", "x")])
            device.send("^01 boot 8 wdt")  # a new boot count: the chip was reset
            deadline = time.monotonic() + 3
            while len([w for _, w in device.requests if w == ("cube", "8", "x")]) < before + 1:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            assert unit.stats.device_resets == 1 and unit.last_boot.args == ("8", "wdt")
    finally:
        device.close()


def test_commands_for_the_same_field_merge_while_waiting():
    device = ScriptedDevice()
    try:
        with Unit(device.url) as unit:
            futures = [unit.set_brightness(level) for level in range(1, 101)]  # before the hello
            for fut in futures:
                fut.result(5)
            sent = [w for _, w in device.requests if w[0] == "bright"]
            assert sent[-1] == ("bright", "100") and len(sent) <= 3
    finally:
        device.close()


class RememberingDevice:
    """A TCP 'unit' with the device's one-request memory (a request with the last sequence
    number is answered again, not acted on) that counts what it acted on.  ``mute`` drops its
    replies (the reply is lost on the line); ``event_before_hello`` makes it send that event on a
    new connection before it answers the first ``hello``.  ``cut()`` drops the host's connection
    (a pulled cable); the host may connect again."""

    def __init__(self) -> None:
        self.server, self.url = _listening_socket()
        self.requests: list[tuple[int, tuple[str, ...]]] = []
        self.acted: list[tuple[int, tuple[str, ...]]] = []
        self.last_seq: int | None = None
        self.last_reply = b""
        self.mute = False
        self.event_before_hello: str | None = None
        self.conn: socket.socket | None = None
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.conn = conn
            self.connections += 1
            greeted = False
            decoder = FrameDecoder(kinds="!")
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    break
                if not data:
                    break
                for frame in decoder.feed(data):
                    self.requests.append((frame.seq, frame.words))
                    if frame.words[0] == "hello":
                        if not greeted and self.event_before_hello:
                            conn.sendall(encode(self.event_before_hello))
                            time.sleep(0.05)  # the host handles the event before the reply
                        greeted = True
                        out = encode(f"={frame.seq:02X} ok bgled 1 1.0 7")
                    elif frame.seq == self.last_seq:
                        out = self.last_reply  # a repeat: answered again, not acted on
                    else:
                        self.acted.append((frame.seq, frame.words))
                        self.last_seq = frame.seq
                        self.last_reply = out = encode(f"={frame.seq:02X} ok")
                    if not self.mute:
                        try:
                            conn.sendall(out)
                        except OSError:
                            break

    def cut(self) -> None:
        if self.conn is not None:
            self.conn.shutdown(socket.SHUT_RDWR)
            self.conn.close()

    def close(self) -> None:
        self.cut()
        self.server.close()


def test_a_request_parked_by_a_reconnect_is_sent_again_before_any_new_request():
    """The device acted on a request whose reply the cut lost; while the host greets it again,
    an event arrives.  The parked request must go out (same sequence number, answered from the
    device's memory) before the event's ``ack``: an ``ack`` first would take a new sequence
    number, the device would forget the parked one and act on it a second time."""
    device = RememberingDevice()
    try:
        with Unit(device.url, reply_timeout=0.05, reconnect_interval=0.05) as unit:
            assert unit.wait_ready(5)
            unit.set_cube(2, 1).result(5)
            time.sleep(0.3)  # let the state push finish
            device.mute = True  # the reply to the next request is lost
            fut = unit.set_dice(3, 4)
            deadline = time.monotonic() + 2
            while not any(words == ("dice", "3", "4") for _, words in device.acted):
                assert time.monotonic() < deadline
                time.sleep(0.01)
            device.event_before_hello = "^05 btn take"
            device.cut()
            device.mute = False
            assert fut.result(5)
            assert unit.events.get(timeout=2).button == "take"
            unit.request("ping").result(5)
            seqs = [seq for seq, _ in device.acted]
            assert len(seqs) == len(set(seqs)), device.requests[-12:]  # none acted on twice
            assert len(device.acted) == unit.stats.replies
            assert device.connections == 2
    finally:
        device.close()
