"""``bgbridge device status | cube | listen`` against the emulator (and one run on simavr)."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from bgbridge.cli import main
from engine.position import O, X
from firmware_link.display import DisplayState
from firmware_link.emulator import Emulator


@pytest.fixture
def emulator():
    with Emulator() as emu:
        emu.start("pty")
        yield emu


def test_status_reads_without_changing_anything(emulator, capsys):
    emulator.model.state = DisplayState(cube=8, owner=O, turn=X, dice=(2, 5), verdict=False)
    before = emulator.state
    assert main(["device", "--port", emulator.url, "status", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["cube"] == 8 and report["owner"] == "O" and report["turn"] == "X"
    assert report["dice"] == [2, 5] and report["verdict"] == "illegal"
    assert report["device"] == "bgled" and report["protocol"] == 1
    assert emulator.state == before
    assert main(["device", "--port", emulator.url, "status"]) == 0
    assert "cube:       8, owned by O" in capsys.readouterr().out


def test_cube_sets_only_the_cube(emulator, capsys):
    emulator.model.state = DisplayState(turn=O, dice=(6, 6))
    assert main(["device", "--port", emulator.url, "cube", "4", "--owner", "black"]) == 0
    assert capsys.readouterr().out.strip() == "cube 4 on X's side"
    assert emulator.state == DisplayState(cube=4, owner=X, turn=O, dice=(6, 6))
    assert main(["device", "--port", emulator.url, "cube", "64", "--owner", "o"]) == 0
    assert emulator.state.cube == 64 and emulator.state.owner == O


def test_status_and_cube_leave_button_presses_for_the_game(emulator, capsys):
    emulator.press("double")
    assert main(["device", "--port", emulator.url, "status"]) == 0
    assert len(emulator.model.memory.events) == 2  # boot and the press, still waiting
    capsys.readouterr()


def test_listen_prints_presses(emulator, capsys):
    def players():
        time.sleep(0.5)
        for button in ("endx", "double", "take"):
            emulator.press(button)

    threading.Thread(target=players, daemon=True).start()
    assert main(["device", "--port", emulator.url, "--timeout", "5", "listen", "--count", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines] == ["endx", "double", "take"]


@pytest.mark.parametrize("argv, message", [
    (["--port", "/dev/no-such-unit", "status"], "no such port: /dev/no-such-unit"),
    (["--port", "socket://127.0.0.1:9", "--timeout", "0.5", "status"], "did not answer within 0.5 s"),
    (["--port", "/dev/null", "cube", "3"], "the cube shows 1, 2, 4, ... 32768, not 3"),
    (["--port", "/dev/null", "cube", "4", "--owner", "purple"], "--owner is one of"),
    (["--port", "/dev/null", "cube", "1", "--owner", "x"], "a cube on 1 is in the centre"),
])
def test_user_mistakes_are_one_line(argv, message, capsys):
    assert main(["device", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bgbridge: ") and message in err and err.count("\n") == 1


def test_auto_without_a_unit_says_so(monkeypatch, capsys):
    monkeypatch.setattr("bgbridge.cmd_device.find_unit_port", lambda: None)
    assert main(["device", "status"]) == 2
    assert "no unit found on USB" in capsys.readouterr().err


def test_auto_finds_the_unit_by_usb_id(monkeypatch):
    from firmware_link import link

    class Port:
        def __init__(self, device, vid, pid):
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Port("/dev/ttyS0", None, None), Port("/dev/ttyUSB3", 0x0403, 0x6015),
             Port("/dev/ttyACM1", 0x2341, 0x0043)]
    monkeypatch.setattr(link.list_ports, "comports", lambda: ports)
    assert link.find_unit_port() == "/dev/ttyACM1"


def test_console_script_has_no_traceback():
    result = subprocess.run([sys.executable, "-m", "bgbridge", "device", "--port", "/dev/nope", "status"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stderr == "bgbridge: no such port: /dev/nope\n"


@pytest.mark.simavr
def test_cube_on_the_simulated_firmware(chip, capsys):
    assert main(["device", "--port", chip.url, "cube", "2", "--owner", "white"]) == 0
    assert chip.wait_leds(DisplayState(cube=2, owner=O).leds(), care=0x1FF)
    assert main(["device", "--port", chip.url, "status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["cube"] == 2
