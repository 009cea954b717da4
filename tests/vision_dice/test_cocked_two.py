"""A small cocked two whose pips were not grouped is not read as a one (issue 5).

A translucent two of 26 px cocked 20-40 degrees shows its side face's small pips next to the
nearer pip of its top.  They link to it as pips of one face do, the group they make fits no
layout, and it is split at its longest link: the two's own diagonal.  Each of the two's pips is
left a "one", and the sheen of the translucent top closes around one of them like a one's face.
A lone pip linked to a pip like it (as clear, as large, as round) within a two's diagonal is the
other pip of a two, not a one: it is not read.
"""
from __future__ import annotations

from dice_frames import cocked_read_as_a_number, die_on_wood, flat_twins_misread
from vision.dice.reader import ReaderSettings, _linked_to_a_like_pip, _pairs, find_faces, find_pips

#: Cocked twos whose pips were read as a one (cases of tests/dice_frames.py: top value, style,
#: edge, blur, turn and tilt, seed).
TWO_SPLIT_INTO_ONES = [
    (2, "red", 26, 0.8, 60, 20, 2134),
    (2, "red", 26, 0.8, 60, 25, 2134),
    (2, "red", 26, 0.8, 60, 40, 2134),
    (2, "red", 26, 0.8, 0, 30, 2132),
    (2, "green", 26, 0.8, 100, 25, 2167),
]


def test_a_cocked_two_split_into_ones_is_not_read():
    assert not cocked_read_as_a_number(TWO_SPLIT_INTO_ONES)


def test_the_same_twos_lying_flat_are_read():
    assert not flat_twins_misread(TWO_SPLIT_INTO_ONES)


def test_a_pip_of_the_split_two_is_linked_to_its_other_pip():
    frame = die_on_wood(*TWO_SPLIT_INTO_ONES[0])
    field_ = find_pips(frame, split_joined=True)
    ones = [face.pips[0] for face in find_faces(field_, frame) if face.value == 1]
    links = _pairs(field_, frame, ReaderSettings())
    assert len(ones) == 2 and all(_linked_to_a_like_pip(field_, pip, links) for pip in ones)


def test_a_flat_ones_pip_has_no_such_link():
    frame = die_on_wood(1, "red", 26, 0.8, 60, None, 1134)
    field_ = find_pips(frame, split_joined=True)
    (one,) = find_faces(field_, frame)
    assert not _linked_to_a_like_pip(field_, one.pips[0], _pairs(field_, frame, ReaderSettings()))

