"""A side face's pips found but not grouped as one face still tell how open it is seen (issue 5).

A cocked die's side face is dimmer than its top and foreshortened; its pips are often found but
not grouped as that face: a side three as three lone pips, a side six's rows as a "three" (one row)
and two lone pips.  Each piece alone is a row along the top's edge, seen shut; their centres
together show the face open by the tilt's sine (sin 20 = 0.34), where a flat die's side face shows
only a row of slivers along the top's outline.
"""
from __future__ import annotations

import numpy as np

from dice_frames import cocked_read_as_a_number, flat_twins_misread
from vision.dice.reader import Face, Pip, PipField, _loose_side_opening

#: Cocked dice whose side face, turned up toward the camera, is found only in pieces (their side
#: faces' values are drawn from the seed): top value, style, edge (pixels), blur, turn and tilt
#: (degrees), seed.
SPLIT_SIDE_FACES = [
    (2, "white", 26, 0.8, 0, 20, 2004),
    (2, "white", 32, 0.5, 0, 25, 2008),
    (2, "white", 32, 0.8, 0, 20, 2012),
    (2, "ivory", 26, 0.8, 0, 30, 2036),
    (2, "black", 26, 0.8, 100, 20, 2103),
    (1, "white", 32, 0.8, 0, 20, 1012),
    (1, "ivory", 32, 0.8, 30, 20, 1045),
    (1, "white_red_pips", 44, 0.8, 0, 20, 1092),
    (3, "ivory", 32, 0.8, 0, 25, 3044),
    (3, "white_red_pips", 32, 0.8, 0, 25, 3076),
]
#: Cocked dice of four to six pips whose side face turned up shows its middle pip alone (the rest
#: too faint or not there), same fields.
LONE_SIDE_PIPS = [
    (4, "white", 38, 0.5, 0, 20, 4016),
    (4, "black", 38, 0.8, 100, 20, 4119),
    (5, "white", 32, 0.8, 0, 25, 5012),
    (5, "black", 44, 0.8, 0, 25, 5124),
    (5, "red", 32, 0.5, 60, 25, 5138),
]


def test_a_cocked_die_whose_side_face_is_found_in_pieces_is_not_read():
    assert not cocked_read_as_a_number(SPLIT_SIDE_FACES + LONE_SIDE_PIPS)


def test_the_same_dice_lying_flat_are_read():
    assert not flat_twins_misread(SPLIT_SIDE_FACES + LONE_SIDE_PIPS)


def _field(points: list[tuple[float, float]]) -> tuple[PipField, Face]:
    """A one's large round pip at the origin (its face 24 px) and sliver pips at ``points``."""
    sliver = np.array([[0.5, 0.0], [0.0, 2.0]])        # narrow along x, the way away from the top
    pips = [Pip(0.0, 0.0, np.eye(2) * 4.0, 12, 1, 60.0)] + [Pip(x, y, sliver, 6, 1, 60.0) for x, y in points]
    corners = np.array([(-12.0, -12.0), (12.0, -12.0), (12.0, 12.0), (-12.0, 12.0)])
    top = Face([0], 1, np.zeros(2), corners, 0.0, 1, np.eye(2), 2.0, 2.0, 1.0)
    return PipField(pips, np.zeros((1, 1)), np.full((1, 1), -1)), top


def test_the_measure_itself():
    # A side three seen 0.4 open (4 px deep over 10 px across).
    field_, top = _field([(14.0, -5.0), (16.0, 0.0), (18.0, 5.0)])
    assert round(_loose_side_opening(field_, top, set()), 2) == 0.4
    # A row of slivers along the top's edge: shut.
    field_, top = _field([(13.5, -6.0), (13.5, 0.0), (13.5, 6.0)])
    assert _loose_side_opening(field_, top, set()) == 0.0
    # Pips of other dice's faces are no side face of this one.
    field_, top = _field([(14.0, -5.0), (16.0, 0.0), (18.0, 5.0)])
    assert _loose_side_opening(field_, top, {1, 2, 3}) == 0.0
    # Pips on two sides of the top are no one side face.
    field_, top = _field([(14.0, 0.0), (0.0, 16.0)])
    assert _loose_side_opening(field_, top, set()) == 0.0


def test_a_lone_side_pip_by_the_middle_of_a_fours_edge():
    # A four's top (pips 6 px from its centre, its edge 24 px) and a sliver 4 px beyond its right
    # edge's middle: the side face's middle pip, its face seen 2 x 4 / 24 = 0.33 open.
    def four_and(points: list[tuple[float, float]], sliver: np.ndarray) -> tuple[PipField, Face]:
        pips = [Pip(x, y, np.eye(2) * 2.0, 9, 1, 60.0) for x, y in ((-6, -6), (6, -6), (6, 6), (-6, 6))]
        pips += [Pip(x, y, sliver, 6, 1, 60.0) for x, y in points]
        corners = np.array([(-12.0, -12.0), (12.0, -12.0), (12.0, 12.0), (-12.0, 12.0)])
        top = Face([0, 1, 2, 3], 4, np.zeros(2), corners, 0.0, 1, np.eye(2), 1.4, 2.8, 1.0)
        return PipField(pips, np.zeros((1, 1)), np.full((1, 1), -1)), top

    narrow = np.array([[0.3, 0.0], [0.0, 1.5]])        # narrow across the edge, a pip's length along it
    field_, top = four_and([(16.0, 0.5)], narrow)
    assert round(_loose_side_opening(field_, top, set()), 2) == 0.33
    # By a corner it may be a pip of a side two, four or six, at any depth: no measure.
    field_, top = four_and([(16.0, 8.0)], narrow)
    assert _loose_side_opening(field_, top, set()) == 0.0
    # A streak along the edge (slivers blur joined) is no side face's pip.
    field_, top = four_and([(16.0, 0.5)], np.array([[0.3, 0.0], [0.0, 12.0]]))
    assert _loose_side_opening(field_, top, set()) == 0.0
