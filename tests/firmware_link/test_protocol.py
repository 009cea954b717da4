"""Frames, checksum and the display/LED map, without a device."""
from __future__ import annotations

import random

import pytest

from engine.position import O, X
from firmware_link.display import BUTTONS, CUBE_VALUES, LED_COUNT, DisplayState
from firmware_link.protocol import (
    FRAME_MAX,
    EVENT_QUEUE,
    Frame,
    FrameDecoder,
    ProtocolError,
    crc16,
    encode,
    parse,
    request,
)


def test_crc_is_ccitt_false():
    # check value of CRC-16/CCITT-FALSE from the CRC catalogue
    assert crc16(b"123456789") == 0x29B1


def test_constants_come_from_the_firmware_headers():
    assert FRAME_MAX == 64 and EVENT_QUEUE == 16
    assert BUTTONS == ("endx", "endo", "double", "take", "drop", "undo")


def test_request_round_trip():
    frame = parse(request(0xFE, "cube", 64, "o")[:-1])
    assert frame == Frame("!", 0xFE, ("cube", "64", "o"))


def test_frames_longer_than_the_device_buffer_are_refused():
    with pytest.raises(ProtocolError):
        encode("!01 " + "x" * FRAME_MAX)


def test_corrupted_frames_are_dropped_and_counted():
    good = encode("=07 ok")
    original = parse(good[:-1])
    decoder = FrameDecoder()
    accepted = 0
    for i in range(len(good) - 1):  # every single-bit error in the text or checksum is caught
        for bit in range(8):
            bad = bytearray(good)
            bad[i] ^= 1 << bit
            frames = decoder.feed(bytes(bad))
            # the only flips that pass turn a checksum letter's case: same value, same frame
            assert all(f == original for f in frames)
            accepted += len(frames)
    assert accepted == sum(c in b"ABCDEF" for c in good[-5:-1])
    assert decoder.feed(good) == [original]


def test_decoder_gets_back_in_step_after_random_garbage():
    rng = random.Random(6)
    decoder = FrameDecoder()
    sent, stream = [], bytearray()
    for i in range(2000):
        frame = encode(f"^{i % 256:02X} btn {rng.choice(BUTTONS)}")
        sent.append(parse(frame[:-1]))
        stream += frame
        # garbage between frames: anything but the device's start characters
        stream += bytes(rng.choice([b for b in range(256) if b not in b"=^~"]) for _ in range(rng.randrange(6)))
    got = []
    for start in range(0, len(stream), 37):  # arbitrary chunking, as a serial port delivers
        got += decoder.feed(bytes(stream[start:start + 37]))
    assert got == sent


def test_a_frame_cut_short_by_the_next_start_character_is_dropped():
    decoder = FrameDecoder()
    frames = decoder.feed(b"=01 o" + encode("=02 ok"))
    assert [f.seq for f in frames] == [2] and decoder.bad_frames == 1


def test_display_state_validation():
    with pytest.raises(ValueError):
        DisplayState(dice=(7, 1))
    with pytest.raises(ValueError):
        DisplayState(brightness=256)
    with pytest.raises(ValueError):
        DisplayState(owner=2)


def test_every_state_reads_back_from_its_words():
    rng = random.Random(3)
    for _ in range(500):
        state = random_state(rng)
        words = [w for cmd in state.commands() for w in cmd[1:]]
        assert DisplayState.from_words(words) == state


def test_led_map():
    assert DisplayState(lamp_test=True).leds() == (1 << LED_COUNT) - 1
    masks = {DisplayState(cube=v, owner=X).leds() for v in CUBE_VALUES[:12]}
    assert len(masks) == 12  # 1 .. 2048 all look different
    # each die value lights its number of pips
    for value in range(7):
        assert bin(DisplayState(dice=(value, 0)).leds()).count("1") == value + 1  # + centre LED
    assert DisplayState(turn=X).leds() != DisplayState(turn=O).leds()


def random_state(rng: random.Random) -> DisplayState:
    return DisplayState(
        cube=rng.choice(CUBE_VALUES),
        owner=rng.choice((None, X, O)),
        turn=rng.choice((None, X, O)),
        dice=(rng.randint(0, 6), rng.randint(0, 6)),
        verdict=rng.choice((None, True, False)),
        brightness=rng.randrange(256),
        lamp_test=rng.random() < 0.1,
    )
