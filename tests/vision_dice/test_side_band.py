"""A cocked die's side face whose pips are too faint to find still shows as a band of the die's
colour, shaded, beyond its top's edge (issue 5).

Red pips on a white die's shaded side face stand out from it too little to be found (their ring
takes in the bright top and the board on either side of a face a third of an edge deep), and at a
tilt of 20-25 degrees the top's own outline and pips pass as flat.  The side face itself is there:
a band of the top's colour, shaded, as deep as the face is open (sin 20 = 0.34 of the edge); a
flat die seen from above shows none.  A one's outline is only a guess from its size: it is turned
as the face's colour ends around the pip (a square turned 30 degrees is no square at 0) before the
band beyond it is measured; a cocked one's top, seen shortened along its tilt, as a rectangle so
shortened (a square spreads past it onto the band, or is turned off to fit it).

A side face turned toward the light is lit as brightly as the top: the band is the die's colour,
shaded or not, and only its excess over the opposite edge counts (where the outline is off, too
small, the die's colour runs on past every edge alike).

A band shaded clearly darker than the top often ends on the die's own shadow, cast on its shaded
side: on a wooden board the shadow's hue is near a shaded ivory or red die's, and the blurred pixels of the
edge between them are only just off the die's colour.  Judged past that blur, the band's end counts
where every ray across it ends so, all as deep: the far edge of a side face, parallel to the top's.

A ray across the band that meets one of the side face's pips (the rays three eighths of the edge
from its middle skim a side two's, three's or six's pips) runs on past it: off the band's colour
for no more than a pip's width, and of the pips' kind (darker than the band for dark pips, lighter
for light ones: a dark gap between a red die and a red point beside it is none), the band goes
on beyond.
"""
from __future__ import annotations

import numpy as np

from dice_frames import cocked_read_as_a_number, die_on_wood, flat_twins_misread
from vision.dice.reader import Face, _one_outline, _side_band_depth, find_faces, find_pips

#: Cocked dice whose side face turned up shows no pip found (its values drawn from the seed): top
#: value, style, edge (pixels), blur, turn and tilt (degrees), seed.
FAINT_SIDE_FACES = [
    (3, "white_red_pips", 32, 0.8, 0, 20, 3076),
    (2, "white_red_pips", 26, 0.8, 30, 20, 2069),
    (3, "white_red_pips", 26, 0.5, 0, 30, 3064),
    (4, "white_red_pips", 32, 0.8, 0, 20, 4076),
    (5, "white_red_pips", 32, 0.8, 0, 30, 5076),
    (6, "white_red_pips", 44, 0.8, 0, 20, 6092),
    (2, "ivory", 26, 0.8, 30, 20, 2037),
    (2, "black", 26, 0.8, 30, 20, 2101),
    (3, "white", 26, 0.8, 30, 20, 3005),
    (3, "green", 32, 0.5, 30, 30, 3169),
]


#: Cocked ones whose side face shows no pip found, turned 0 and 30 degrees (cases as above).
ONES_WITH_FAINT_SIDE_FACES = [
    (1, "white", 26, 0.8, 30, 20, 1005),
    (1, "white", 32, 0.8, 0, 25, 1012),
    (1, "ivory", 26, 0.8, 30, 20, 1037),
    (1, "white_red_pips", 26, 0.5, 0, 20, 1064),
    (1, "white_red_pips", 32, 0.8, 0, 20, 1076),
    (1, "white_red_pips", 32, 0.8, 30, 25, 1077),
    (1, "white_red_pips", 38, 0.8, 0, 20, 1084),
]


#: Cocked ones whose top, seen shortened along its tilt (by its cosine), was fitted as a square:
#: turned off, or spread past the top onto the band (cases as above).
ONES_SEEN_SHORTENED = [
    (1, "white_red_pips", 26, 0.8, 0, 25, 1068),
    (1, "white_red_pips", 26, 0.8, 0, 30, 1068),
    (1, "white_red_pips", 32, 0.8, 30, 20, 1077),
    (1, "white_red_pips", 38, 0.8, 0, 25, 1084),
]


#: Cocked dice whose side face, turned toward the light, is as bright as the top (cases as above).
LIT_SIDE_FACES = [
    (1, "white_red_pips", 26, 0.8, 100, 25, 1071),
    (1, "white_red_pips", 32, 0.8, 100, 20, 1079),
    (2, "white_red_pips", 26, 0.8, 100, 20, 2071),
    (3, "white_red_pips", 26, 0.5, 100, 20, 3067),
    (3, "black", 44, 0.8, 0, 30, 3124),
]


#: Cocked ivory dice tilted 20 degrees and translucent red ones tilted 25 whose shaded side face
#: ends on their shadow on the wooden board, of a hue near its own (cases as above).
SIDE_FACES_ON_THEIR_SHADOW = [
    (1, "ivory", 26, 0.8, 0, 20, 1036),
    (2, "ivory", 26, 0.8, 0, 20, 2036),
    (3, "ivory", 26, 0.8, 0, 20, 3036),
    (3, "red", 32, 0.8, 0, 25, 3140),
    (5, "red", 32, 0.8, 0, 25, 5140),
]


#: Cocked dice whose band was measured only as deep as its side face's pips, where the rays
#: crossing them stopped (cases as above).
SIDE_PIPS_ACROSS_THE_BAND = [
    (1, "white_red_pips", 26, 0.8, 30, 25, 1069),
    (1, "white_red_pips", 32, 0.8, 0, 30, 1076),
    (1, "white_red_pips", 32, 0.8, 60, 20, 1078),
    (2, "red", 26, 0.5, 100, 30, 2131),
    (2, "red", 32, 0.8, 100, 25, 2143),
    (3, "white_red_pips", 26, 0.5, 30, 20, 3065),
    (3, "black", 26, 0.8, 30, 20, 3101),
]


def test_a_cocked_die_whose_band_shows_its_pips_is_not_read():
    assert not cocked_read_as_a_number(SIDE_PIPS_ACROSS_THE_BAND)


def test_the_same_dice_with_pips_on_their_sides_lying_flat_are_read():
    assert not flat_twins_misread(SIDE_PIPS_ACROSS_THE_BAND)


def test_a_cocked_die_whose_side_face_is_lit_is_not_read():
    assert not cocked_read_as_a_number(LIT_SIDE_FACES)


def test_the_same_lit_dice_lying_flat_are_read():
    assert not flat_twins_misread(LIT_SIDE_FACES)


def test_a_cocked_die_whose_side_face_ends_on_its_shadow_is_not_read():
    assert not cocked_read_as_a_number(SIDE_FACES_ON_THEIR_SHADOW)


def test_the_same_dice_beside_their_shadow_lying_flat_are_read():
    assert not flat_twins_misread(SIDE_FACES_ON_THEIR_SHADOW)


def test_a_cocked_die_whose_side_face_shows_no_pip_is_not_read():
    assert not cocked_read_as_a_number(FAINT_SIDE_FACES)


def test_a_cocked_one_whose_side_face_shows_no_pip_is_not_read():
    assert not cocked_read_as_a_number(ONES_WITH_FAINT_SIDE_FACES)


def test_the_same_ones_lying_flat_are_read():
    assert not flat_twins_misread(ONES_WITH_FAINT_SIDE_FACES)


def test_a_cocked_one_seen_shortened_is_not_read():
    assert not cocked_read_as_a_number(ONES_SEEN_SHORTENED)


def test_the_same_shortened_ones_lying_flat_are_read():
    assert not flat_twins_misread(ONES_SEEN_SHORTENED)


def test_a_ones_outline_is_turned_as_its_face():
    # The flat twin of a one turned 30 degrees: the outline found around its pip is turned so too.
    frame = die_on_wood(1, "white", 38, 0.5, 30, None, 1005)
    field_ = find_pips(frame)
    (one,) = find_faces(field_, frame)
    corners = _one_outline(frame, field_.pips[one.pips[0]], 19.0)
    edge = corners[1] - corners[0]
    assert abs(np.degrees(np.arctan2(edge[1], edge[0])) % 90.0 - 30.0) <= 4.0


def test_the_same_dice_lying_flat_are_read():
    assert not flat_twins_misread(FAINT_SIDE_FACES)


def _top_and_band(board: tuple[int, int, int], band_px: int) -> tuple[np.ndarray, Face]:
    """A white top 30 px square (centred at 50, 50) and, below it, a grey band ``band_px`` deep."""
    frame = np.full((100, 100, 3), board, np.uint8)
    frame[35:65, 35:65] = 225
    frame[65:65 + band_px, 35:65] = 120
    corners = np.array([(35.0, 35.0), (65.0, 35.0), (65.0, 65.0), (35.0, 65.0)])
    return frame, Face([0], 5, corners.mean(axis=0), corners, 0.0, 1, np.eye(2), 2.0, 2.0, 1.0)


def test_the_band_of_a_side_face_measures_its_depth():
    white = np.array([225.0, 225.0, 225.0])
    # A grey band 10 px deep below a top 30 px wide, on an orange board: a third of the edge
    # (less the half pixel the top's colour runs on above it: its outline lies on pixel centres).
    frame, top = _top_and_band((60, 130, 200), 10)
    assert round(_side_band_depth(frame, top, white), 2) == 0.32
    # No band: a pixel at most (where the top's outline falls between pixels).
    frame, top = _top_and_band((60, 130, 200), 0)
    assert _side_band_depth(frame, top, white) < 0.05
    # On a grey board (the die's colour, shaded) a band may be the board's: no measure.
    frame, top = _top_and_band((110, 110, 110), 10)
    assert _side_band_depth(frame, top, white) == 0.0


def test_the_band_runs_on_past_a_side_faces_pip():
    white = np.array([225.0, 225.0, 225.0])
    # A grey band 14 px deep with a dark pip (5 px wide) across every ray 3 px into it: the band
    # is measured to its end, past the pip (less the half pixel above it, as before).
    frame, top = _top_and_band((60, 130, 200), 14)
    frame[68:73, 35:65] = 60
    assert round(_side_band_depth(frame, top, white), 2) == round(13.5 / 30.0, 2)
    # A dark stripe wider than a pip (10 px, a third of the edge) is no pip: the band ends there.
    frame, top = _top_and_band((60, 130, 200), 14)
    frame[68:78, 35:65] = 60
    assert _side_band_depth(frame, top, white) < 0.15
    # Nor is a light one on a die with dark pips (its top's polarity, +1).
    frame, top = _top_and_band((60, 130, 200), 14)
    frame[68:73, 35:65] = 250
    assert _side_band_depth(frame, top, white) < 0.15


def test_a_lit_band_counts_and_a_rim_all_round_does_not():
    white = np.array([225.0, 225.0, 225.0])
    # A side face as bright as the top, 10 px deep below it: a third of the edge.
    frame, top = _top_and_band((60, 130, 200), 0)
    frame[65:75, 35:65] = 225
    assert round(_side_band_depth(frame, top, white), 2) == 0.32
    # The top's colour running on 3 px past every edge (an outline guessed too small): nothing
    # (but the pixel or two its outline's rounding on pixel centres makes).
    frame, top = _top_and_band((60, 130, 200), 0)
    frame[32:68, 32:68] = 225
    assert _side_band_depth(frame, top, white) < 0.1
