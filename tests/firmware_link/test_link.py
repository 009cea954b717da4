"""The same host-side checks against the emulator and against the real firmware under simavr."""
from __future__ import annotations

import time

import pytest

from engine.position import O, X
from firmware_link.display import BUTTONS, LED_LINK, DisplayState
from firmware_link.link import DeviceError, Unit
from firmware_link.protocol import EVENT_QUEUE, HEARTBEAT_MS, HOST_TIMEOUT_MS, crc16

LINK = 1 << LED_LINK


def press(device, button):
    if device.kind == "simavr":
        device.press(button, ms=20, bounce=True)  # with contact chatter: debouncing must hold
    else:
        device.press(button)


def test_handshake_and_default_state(device):
    with Unit(device.url) as unit:
        assert unit.wait_ready(5)
        assert unit.info.name == "bgled" and unit.info.protocol == 1
        reply = unit.request("state").result(5)
        assert DisplayState.from_words(reply.words[1:]) == DisplayState()
        assert device.wait_leds(DisplayState().leds(link=True))


def test_commands_set_the_leds(device):
    state = DisplayState(cube=8, owner=O, turn=X, dice=(5, 3), verdict=False, brightness=200)
    with Unit(device.url) as unit:
        unit.show(state).result(5)
        assert device.wait_leds(state.leds(link=True))
        assert device.brightness == 200
        assert DisplayState.from_words(unit.request("state").result(5).words[1:]) == state
        unit.set_cube(4096, X).result(5)
        unit.set_verdict(True).result(5)
        unit.set_dice(1, 6).result(5)
        assert device.wait_leds(unit.desired.leds(link=True))
        unit.lamp_test(True).result(5)
        assert device.wait_leds((1 << 28) - 1)
        unit.lamp_test(False).result(5)
        unit.set_brightness(0).result(5)
        assert device.wait_leds(unit.desired.leds(link=True))
        deadline = time.monotonic() + 2
        while device.brightness != 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert device.brightness == 0


def test_a_repeated_sequence_number_is_answered_again_not_acted_twice(device, raw_host):
    host = raw_host(device.url)
    assert host.hello(0).words[0] == "ok"
    first = host.ask(5, "cube", 2, "x")
    again = host.ask(5, "cube", 2, "x")
    assert first == again and first.words == ("ok",)
    stats = host.stats(6)
    assert stats["acted"] == 2 and stats["dups"] == 1  # cube once, stats itself


def test_hello_from_a_new_host_session_forgets_the_old_sequence_numbers(device, raw_host):
    host = raw_host(device.url)
    host.hello(0, session="0001")
    host.ask(9, "turn", "x")
    host.hello(1, session="0002")  # a new host process that also starts at 9
    assert host.ask(9, "turn", "o").words == ("ok",)
    assert host.ask(10, "state").words[3] == "o"


def test_garbage_and_bad_frames_are_skipped(device, raw_host):
    host = raw_host(device.url)
    host.hello(0)
    host.port.write(b"\x00\xff noise !!! \r\n!12 cube 2 x*0000\n!13 dice 1")  # bad CRC, truncated
    assert host.ask(14, "dice", 4, 4).words == ("ok",)
    assert host.reply(0x12, timeout=0.3) is None and host.reply(0x13, timeout=0.1) is None
    stats = host.stats(15)
    assert stats["crc_errors"] >= 2
    assert host.ask(16, "state").words[4:6] == ("4", "4")


def test_a_request_typed_at_a_terminal_is_taken(device, raw_host):
    host = raw_host(device.url)
    host.hello(0)
    host.port.write(b"!31 turn x*" + b"%04X" % crc16(b"!31 turn x") + b"\r")  # Enter sends CR
    assert host.reply(0x31).words == ("ok",)
    host.port.write(b"!32 turn o*" + b"%04x" % crc16(b"!32 turn o") + b"\r\n")  # lower-case hex
    assert host.reply(0x32).words == ("ok",)


def test_bad_requests_get_one_error_each(device, raw_host):
    host = raw_host(device.url)
    # The first request may reach a chip still booting on a loaded machine: resend as a host would.
    assert host.ask(1, "hello", 99, "BEEF", tries=3).words == ("err", "version", "1")
    host.hello(2)
    assert host.ask(3, "fly").words == ("err", "verb")
    assert host.ask(4, "cube", 3, "x").words == ("err", "arg")
    assert host.ask(5, "dice", 7, 1).words == ("err", "arg")
    assert host.ask(6, "turn", "q").words == ("err", "arg")
    with Unit(device.url) as unit:
        with pytest.raises(DeviceError):
            unit.request("fly").result(5)


def test_button_press_is_delivered_once(device):
    with Unit(device.url) as unit:
        assert unit.wait_ready(5)
        press(device, "double")
        event = unit.events.get(timeout=3)
        assert event.button == "double"
        press(device, "undo")
        assert unit.events.get(timeout=3).button == "undo"
        time.sleep(0.6)  # longer than the device's repeat interval
        assert unit.events.empty()


def test_events_repeat_until_acknowledged(device, raw_host):
    host = raw_host(device.url)
    host.hello(0)
    boot = [f for f in host.read_for(0.5) if f.kind == "^"]
    assert boot and boot[0].words[0] == "boot"  # the boot event waits at the head of the queue
    host.ask(1, "ack", f"{boot[0].seq:02X}")
    press(device, "take")
    frames = [f for f in host.read_for(0.8) if f.kind == "^"]
    assert len(frames) >= 2 and {f.seq for f in frames} == {boot[0].seq + 1}
    assert all(f.words == ("btn", "take") for f in frames)
    host.ask(2, "ack", f"{frames[0].seq:02X}")
    host.read_for(0.1)
    assert not [f for f in host.read_for(0.6) if f.kind == "^"]
    assert host.stats(3)["pending"] == 0


def test_a_full_event_queue_reports_lost_presses(device, raw_host):
    host = raw_host(device.url)
    host.hello(0)  # a host that never acknowledges
    pressed = [BUTTONS[i % len(BUTTONS)] for i in range(EVENT_QUEUE + 4)]
    for button in pressed:
        press(device, button)
    stats = host.stats(1)
    assert stats["pending"] == EVENT_QUEUE and stats["lost"] == 5  # boot + 15 presses fit
    host.close()
    with Unit(device.url) as unit:  # the next host gets every press that fitted, then the error
        got = [unit.events.get(timeout=5).button for _ in range(EVENT_QUEUE - 1)]
        assert got == pressed[:EVENT_QUEUE - 1]
        deadline = time.monotonic() + 5
        while not unit.device_errors and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [e.args for e in unit.device_errors] == [("lost", "5")]


def test_heartbeats_and_link_led(device, raw_host):
    host = raw_host(device.url)
    host.hello(0)
    assert device.wait_leds(LINK, care=LINK, timeout=2)
    beats = [f for f in host.read_for(2.5 * HEARTBEAT_MS / 1000) if f.kind == "~"]
    assert len(beats) >= 2
    # a host that says nothing for HOST_TIMEOUT_MS: the link LED goes out
    assert device.wait_leds(0, care=LINK, timeout=HOST_TIMEOUT_MS / 1000 + 1)


def test_reset_chip_gets_its_state_back(device):
    state = DisplayState(cube=2, owner=X, turn=O, dice=(3, 3), verdict=True)
    with Unit(device.url) as unit:
        unit.show(state).result(5)
        assert device.wait_leds(state.leds(link=True))
        device.reset()
        deadline = time.monotonic() + 5
        while unit.stats.device_resets == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert unit.stats.device_resets == 1
        assert device.wait_leds(state.leds(link=True))
        time.sleep(0.3)
        assert unit.events.empty()  # a reset is no button press


def test_a_press_not_yet_acknowledged_survives_a_reset(device, raw_host):
    host = raw_host(device.url)
    host.hello(0)  # never acknowledges
    press(device, "double")
    device.reset()
    host.close()
    with Unit(device.url) as unit:
        assert unit.events.get(timeout=5).button == "double"
        deadline = time.monotonic() + 3
        while (unit.last_boot is None or unit.last_boot.args[1] != "ext") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert unit.last_boot.args[1] == "ext"  # the boots, the press between them, in order


def test_pulled_cable_keeps_events_and_commands(device):
    with Unit(device.url, reconnect_interval=0.1) as unit:
        assert unit.wait_ready(5)
        device.unplug()
        cube = unit.set_cube(16, O)  # while the cable is out: never blocks, waits for the unit
        press(device, "take")
        press(device, "drop")
        time.sleep(0.5)
        assert not cube.done()
        device.plug()
        assert cube.result(10)
        assert [unit.events.get(timeout=5).button for _ in range(2)] == ["take", "drop"]
        assert device.wait_leds(unit.desired.leds(link=True))
        assert unit.stats.connects >= 2


def test_many_queued_commands_arrive_one_frame_at_a_time(device, raw_host):
    with Unit(device.url) as unit:
        futures = [unit.request("ping") for _ in range(200)]  # far more than the device buffers
        for fut in futures:
            assert fut.result(20).words == ("ok",)
        stats = unit.request("stats").result(5).words
        assert int(stats[1]) == unit.stats.replies  # acted on each exactly once
        assert int(stats[4]) == 0  # no receive overruns
