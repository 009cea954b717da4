"""A cocked one's large pip, linked to its side face's pips, is a face of its own (issue 5).

A one's pip is drawn larger than a side face's foreshortened pips beside it; the pip search links
them into one group, and the face fitted to that group keeps only the pips alike in size (the
side face's), so the one's pip was dropped and its side face, a "two" or "three", read as the top.
A pip of another size than the face fitted (as clear as its pips) is kept as a group of its own:
the one is then a face, seen more squarely than its side face, and the die's top.
"""
from __future__ import annotations

from dice_frames import cocked_read_as_a_number, die_on_wood, flat_twins_misread
from vision.dice.reader import find_faces, find_pips

#: Cocked ones whose side face was read as the top (its value drawn from the seed): cases of
#: tests/dice_frames.py.
ONE_LINKED_TO_ITS_SIDE_FACE = [
    (1, "ivory", 32, 0.5, 60, 25, 1042),
    (1, "ivory", 32, 0.5, 100, 30, 1043),
    (1, "ivory", 32, 0.8, 60, 30, 1046),
    (1, "ivory", 38, 0.8, 60, 25, 1054),
    (1, "white_red_pips", 38, 0.8, 100, 30, 1087),
]


def test_a_cocked_one_is_not_read_as_its_side_face():
    assert not cocked_read_as_a_number(ONE_LINKED_TO_ITS_SIDE_FACE)


def test_the_ones_large_pip_is_a_face_beside_its_side_face():
    frame = die_on_wood(*ONE_LINKED_TO_ITS_SIDE_FACE[0])
    field_ = find_pips(frame)
    faces = find_faces(field_, frame)
    assert sorted(face.value for face in faces) == [1, 3]
    one = next(face for face in faces if face.value == 1)
    side = next(face for face in faces if face.value == 3)
    assert field_.pips[one.pips[0]].radius > 1.45 * side.radius


def test_the_same_ones_lying_flat_are_read():
    assert not flat_twins_misread(ONE_LINKED_TO_ITS_SIDE_FACE)
