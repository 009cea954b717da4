"""Soak: 10,000 commands and 1,000 button presses over a noisy line that is cut and restored,
with the chip reset in the middle; run against the emulator and the firmware under simavr.

Nothing may be lost (every command confirmed, every press delivered, in order), nothing done
twice (the device's count of requests acted on equals the host's count of requests answered,
though noise made the host repeat many), and the LEDs end as the host last set them.
"""
from __future__ import annotations

import random
import threading
import time

import pytest

from engine.position import O, X
from firmware_link.display import BUTTONS, CUBE_VALUES
from firmware_link.link import Unit

COMMANDS = 10_000
PRESSES = 1_000
#: Players do not press faster than the unit can hand presses on: at most this many unanswered.
PLAYERS_AHEAD = 8


def random_command(unit: Unit, rng: random.Random):
    kind = rng.randrange(6)
    if kind == 0:
        value = rng.choice(CUBE_VALUES)
        return unit.set_cube(value, None if value == 1 else rng.choice((X, O)))
    if kind == 1:
        return unit.set_turn(rng.choice((X, O, None)))
    if kind == 2:
        return unit.set_dice(rng.randint(1, 6), rng.randint(1, 6))
    if kind == 3:
        return unit.set_verdict(rng.choice((True, False, None)))
    if kind == 4:
        return unit.set_brightness(rng.randrange(1, 256))
    return unit.lamp_test(rng.random() < 0.3)


@pytest.mark.slow
def test_soak(device, noisy_line):
    rng = random.Random(6)
    line = noisy_line(device.url, garbage=0.01, flips=0.0003, seed=6)
    pressed: list[str] = []
    received: list[str] = []
    events = []
    hands = threading.Lock()  # held while a finger is on a button
    press_times = []

    def players() -> None:
        prng = random.Random(7)
        for _ in range(PRESSES):
            while len(pressed) - len(received) >= PLAYERS_AHEAD:
                time.sleep(0.005)
            button = prng.choice(BUTTONS)
            with hands:
                pressed.append(button)
                device.press(button)
                press_times.append(time.monotonic() - started)
            time.sleep(0.005 if device.kind == "simavr" else 0.01)

    started = time.monotonic()
    with Unit(line.url, reply_timeout=0.04, reconnect_interval=0.1,
              on_event=lambda e: (events.append(e), received.append(e.button))) as unit:
        assert unit.wait_ready(10)
        presser = threading.Thread(target=players, daemon=True)
        presser.start()
        for i in range(COMMANDS):
            if i == COMMANDS // 3:  # the cable is cut while a command is under way
                line.cut()
                fut = random_command(unit, rng)
                time.sleep(1.0)
                line.restore()
            elif i == 2 * COMMANDS // 3:  # the chip resets (no finger on a button meanwhile)
                with hands:
                    device.reset()
                    reset_at = time.monotonic() - started
                fut = random_command(unit, rng)
            else:
                fut = random_command(unit, rng)
            fut.result(30)
        presser.join(120)
        deadline = time.monotonic() + 30
        while len(received) < PRESSES and time.monotonic() < deadline:
            time.sleep(0.05)
        stats = unit.request("stats").result(30).words
        acted, dups, lost = int(stats[1]), int(stats[2]), int(stats[5])
        assert device.wait_leds(unit.desired.leds(link=True), timeout=5), (
            f"{device.leds:08X} != {unit.desired.leds(link=True):08X}")
        assert device.brightness == unit.desired.brightness
        link = unit.stats
    took = time.monotonic() - started
    print(f"\nsoak on {device.kind}: {COMMANDS} commands, {len(received)} presses in {took:.1f} s; "
          f"{line.garbage_bytes} garbage bytes and {line.flipped} flipped bits injected; "
          f"host retries {link.retries}, device answered {dups} repeats from memory, "
          f"acted {acted} = host replies {link.replies}; reconnects {link.connects - 1}, "
          f"resets seen {link.device_resets}, duplicate events dropped {link.duplicate_events}")
    assert lost == 0  # the device's event queue never overflowed
    # none lost, none twice, in order (on failure: the last presses, the reset, the last events)
    assert received == pressed, (pressed[-5:], press_times[-3:], reset_at,
                                 [(e.seq, e.button, round(e.received - started, 3)) for e in events[-12:]])
    assert acted == link.replies  # nothing done twice, nothing skipped
    assert link.retries > 0 and line.garbage_bytes > 0 and line.flipped > 0  # the noise did bite
    assert link.device_resets == 1 and link.connects >= 2
