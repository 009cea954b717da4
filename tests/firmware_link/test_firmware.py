"""Checks only the real firmware can answer: debouncing, sleep, watchdog, receive buffer, size."""
from __future__ import annotations

import subprocess
import time

import pytest

from firmware_link.link import Unit
from firmware_link.protocol import RX_RING, request

pytestmark = pytest.mark.simavr


def test_fits_the_chip(firmware_build):
    out = subprocess.run(["avr-size", "-A", str(firmware_build.elf)], capture_output=True, text=True,
                         check=True).stdout
    sizes = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()
             if line.startswith(".") and len(line.split()) >= 2}
    assert sizes[".text"] + sizes[".data"] <= 32 * 1024 - 512  # room for the Optiboot bootloader
    ram = sizes[".data"] + sizes.get(".bss", 0) + sizes.get(".noinit", 0)
    assert ram <= 1024, ram  # half the 2 KiB SRAM, the rest is stack


def test_chatter_is_not_a_press_and_a_bouncy_press_is_one(chip, raw_host):
    host = raw_host(chip.url)
    host.hello(0)
    boot = [f for f in host.read_for(0.4) if f.kind == "^"]
    host.ask(1, "ack", f"{boot[0].seq:02X}")
    chip.press("undo", ms=3)  # shorter than the debounce time: contact noise, not a press
    chip.press("double", ms=25, bounce=True)
    events = [f for f in host.read_for(0.5) if f.kind == "^"]
    assert {f.words for f in events} == {("btn", "double")}
    assert len({f.seq for f in events}) == 1


def test_sleeps_when_idle(chip):
    with Unit(chip.url) as unit:
        assert unit.wait_ready(5)
        total0, asleep0 = chip.cycles()
        time.sleep(1.0)  # the unit pings once a second; otherwise nothing happens
        total1, asleep1 = chip.cycles()
    share = (asleep1 - asleep0) / (total1 - total0)
    assert share > 0.9, share
    # and simulated time keeps up with the wall clock (16 MHz)
    assert 0.7 < (total1 - total0) / 16e6 < 1.5


def test_watchdog_resets_a_hung_chip(chip, raw_host):
    with Unit(chip.url) as unit:
        unit.set_cube(32, 1).result(5)
        unit.request("wdtest").result(5)  # the firmware stops kicking the watchdog
        deadline = time.monotonic() + 5
        while unit.stats.device_resets == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert unit.stats.device_resets == 1
        assert chip.wait_leds(unit.desired.leds(link=True))  # and the host put the cube back
        assert unit.last_boot.args[1] == "wdt"


def test_a_burst_overflows_the_receive_buffer(chip, raw_host):
    """Why the host keeps one frame in flight: replies longer than their requests back up the
    transmit ring, the main loop waits for it, and a burst fills the receive ring meanwhile."""
    host = raw_host(chip.url)
    host.hello(0)
    boot = [f for f in host.read_for(0.4) if f.kind == "^"]
    host.ask(0x60, "ack", f"{boot[0].seq:02X}")  # so that the next event goes out
    burst = b"".join(request(i, "state") for i in range(1, 41))
    assert len(burst) > RX_RING
    host.port.write(burst)
    replies = [f for f in host.read_for(1.0) if f.kind == "="]
    stats = host.stats(0x50)
    assert stats["rx_overruns"] > 0
    assert len(replies) < 40
    errors = [f for f in host.read_for(0.5) + host.seen if f.kind == "^" and f.words[0] == "err"]
    assert errors and errors[0].words[1] == "rx"  # reported as an event too
