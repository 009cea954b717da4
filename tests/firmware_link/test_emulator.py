"""The emulator as the dashboard and the main job use it: attach(), socket transport, on_change."""
from __future__ import annotations

import threading

from engine.position import X
from firmware_link.display import DisplayState
from firmware_link.emulator import DeviceModel, Emulator
from firmware_link.link import Unit, attach


def test_attach_falls_back_to_the_emulator_without_a_unit(monkeypatch):
    monkeypatch.setattr("firmware_link.link.find_unit_port", lambda: None)
    unit, emulator = attach("auto")
    try:
        assert emulator is not None and unit.wait_ready(5)
        unit.set_turn(X).result(5)
        assert emulator.state.turn == X
    finally:
        unit.close()
        emulator.stop()


def test_attach_uses_a_named_port_as_it_is(monkeypatch):
    with Emulator() as emulator:
        unit, none = attach(emulator.start("socket"))
        with unit:
            assert none is None and unit.wait_ready(5)


def test_socket_transport_and_change_notifications():
    changes = []
    seen = threading.Event()

    def on_change(emu):
        changes.append(emu.state)
        if emu.state.dice == (4, 2):
            seen.set()

    with Emulator(on_change=on_change) as emulator:
        url = emulator.start("socket")
        with Unit(url) as unit:
            unit.set_dice(4, 2)
            assert seen.wait(5)
    assert changes[-1].dice == (4, 2)


def test_reset_keeps_link_memory_power_cycle_does_not():
    model = DeviceModel(clock=lambda: 0.0)
    model.press("drop")
    model.reset()
    assert [text for _, text in model.memory.events] == ["boot 1 por", "btn drop", "boot 2 ext"]
    assert model.state == DisplayState()
    model.power_cycle()
    assert [text for _, text in model.memory.events] == ["boot 3 por"]
