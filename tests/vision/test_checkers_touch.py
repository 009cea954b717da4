"""Touching checkers of one colour: credited with their rims off the contact arcs, without a
false stack end on the bare board and a print beyond the stack.

The candidates below are what the chain search saw on point top[5] of a real photo (five red
checkers touching in a row, then bare wood, then a red square logo printed on the board) after
JPEG compression at quality 60; the rim shares are rounded to two places.
"""
from __future__ import annotations

import cv2
import numpy as np
from vision.checkers import COVERAGE_THRESHOLD, HIDDEN_END_JUMP, _chain, _colour_close, _rim_aside
from vision.rings import RingScorer

RADIUS = 11.5
LIMIT = 290.0

#: y (from the edge), rim share all round, without the far arc, without the near arc, without
#: the contact arcs (RingScorer.contact_free), on the far arc alone.
#: Five checkers at about 12, 37, 61, 84 and 107, bare wood at 129, the logo at 147.
NEAR_A_PRINT = np.array([
    (11.6, 0.88, 0.96, 0.87, 0.95, 0.67),
    (26.6, 0.50, 0.57, 0.57, 0.55, 0.33),
    (31.6, 0.69, 0.78, 0.74, 0.77, 0.44),
    (36.6, 0.81, 0.91, 0.83, 0.95, 0.56),
    (60.6, 0.84, 0.91, 0.87, 1.00, 0.67),
    (83.6, 0.69, 0.74, 0.83, 0.86, 0.56),
    (106.6, 0.88, 0.83, 1.00, 1.00, 1.00),
    (124.6, 0.69, 0.74, 0.78, 0.68, 1.00),
    (128.6, 0.78, 0.78, 0.78, 0.73, 1.00),
    (146.6, 0.84, 0.87, 0.87, 0.82, 1.00),
    (164.6, 0.59, 0.65, 0.65, 0.59, 1.00),
], np.float32)

#: The same point brightened (gamma 0.55): the wood at 127 lies a little closer to the last
#: checker, as if overlapped by it, and the logo as if overlapped by the wood.
BRIGHTER_NEAR_A_PRINT = np.array([
    (10.6, 0.86, 0.95, 0.87, 0.95, 0.67),
    (36.6, 0.81, 0.83, 0.87, 0.95, 0.78),
    (60.6, 0.84, 0.96, 0.83, 1.00, 0.56),
    (83.6, 0.84, 0.83, 0.96, 0.95, 0.89),
    (107.6, 0.97, 0.96, 1.00, 1.00, 1.00),
    (126.6, 0.78, 0.78, 0.83, 0.73, 1.00),
    (146.6, 0.88, 0.91, 0.87, 0.82, 1.00),
    (164.6, 0.59, 0.70, 0.65, 0.64, 1.00),
    (168.6, 0.69, 0.91, 0.65, 0.73, 1.00),
], np.float32)

#: The same point seen along the unshifted column: the middle checkers' rims are faint all
#: round (where they touch) but whole on their sides.
TOUCHING_FIVE = np.array([
    (11.6, 0.88, 1.00, 0.83, 0.95, 0.56),
    (31.6, 0.72, 0.83, 0.74, 0.82, 0.44),
    (36.6, 0.69, 0.83, 0.74, 0.86, 0.33),
    (60.6, 0.81, 0.87, 0.87, 1.00, 0.67),
    (83.6, 0.75, 0.83, 0.83, 0.91, 0.56),
    (108.6, 0.94, 0.91, 1.00, 1.00, 1.00),
    (124.6, 0.62, 0.65, 0.74, 0.59, 1.00),
    (148.6, 0.78, 0.78, 0.83, 0.73, 1.00),
    (164.6, 0.59, 0.65, 0.65, 0.59, 1.00),
], np.float32)


def _stack_ys(table: np.ndarray, contact: bool = True) -> list[float]:
    ys, full, no_far, no_near, contact_free, far_arc = table.T
    chain, _ = _chain(ys, full, no_far, no_near, RADIUS, COVERAGE_THRESHOLD, LIMIT,
                      far_arc=far_arc, contact_free=contact_free if contact else None)
    return [round(float(ys[i])) for i in chain]


def test_touching_checkers_are_read_from_their_sides():
    assert _stack_ys(TOUCHING_FIVE) == [12, 37, 61, 84, 109]


def test_touching_checkers_with_faint_rims_all_round_alone_are_no_stack():
    """Without the contact-free share the stack's mean rim share is below the threshold."""
    assert _stack_ys(TOUCHING_FIVE, contact=False) == []


def test_no_stack_end_on_bare_board_and_a_print_beyond():
    """The wood between the last checker and the logo rings on its axis arcs (the checker's
    rim above, the logo's edge below) but not on its sides: it is no checker, and the logo,
    a whole step and more beyond the last checker, is out of reach."""
    assert _stack_ys(NEAR_A_PRINT) == [12, 37, 61, 84, 107]


def test_no_stack_end_on_bare_board_overlapped_by_the_last_checker():
    """Seen brighter, the wood would lie under the last checker and on the logo: between two
    neighbours, its sides show less than its ring all round and the rest of its ring is no
    clear rim either; nor is it a far end lying under the last checker, which lies flat
    beside the one before it."""
    assert _stack_ys(BRIGHTER_NEAR_A_PRINT) == [11, 37, 61, 84, 108]


def _scorer(image: np.ndarray, radius: float) -> RingScorer:
    return RingScorer(image, radius, (0.0, 0.0, float(image.shape[1]), float(image.shape[0])))


def test_bare_board_between_two_discs_rings_on_its_axis_arcs_only():
    """A ring centred between two discs a little more than a diameter apart (rim to rim)
    meets their rims along the axis and nothing on its sides: its sides show less than its
    ring all round, as no checker's do."""
    radius = 12.0
    image = np.full((120, 60, 3), (60, 120, 170), np.uint8)
    for y in (24, 24 + 46):
        cv2.circle(image, (30, y), 12, (40, 30, 150), -1, cv2.LINE_AA)
    scorer = _scorer(image, radius)
    x, y = np.float32([30.0]), np.float32([47.0])
    full = float(scorer.coverage(x, y)[0][0])
    sides = float(scorer.contact_free(x, y)[0])
    assert sides < min(full, COVERAGE_THRESHOLD)
    assert not _rim_aside(sides, full, COVERAGE_THRESHOLD)


def test_touching_discs_of_one_colour_ring_on_their_sides():
    """Three discs touching in a column: the middle one's rim is faint where it meets its
    neighbours and whole elsewhere."""
    radius = 12.0
    image = np.full((120, 60, 3), (60, 120, 170), np.uint8)
    for y in (24, 48, 72):
        cv2.circle(image, (30, y), 12, (40, 30, 150), -1, cv2.LINE_AA)
    scorer = _scorer(image, radius)
    full = float(scorer.coverage(np.float32([30.0]), np.float32([48.0]))[0][0])
    sides = float(scorer.contact_free(np.float32([30.0]), np.float32([48.0]))[0])
    assert sides >= COVERAGE_THRESHOLD > full
    assert _rim_aside(sides, full, COVERAGE_THRESHOLD)


#: Five white checkers touching in a row on a drawn board (synthetic hard seed 677, top[4]):
#: glare dims the second one's sides below its ring all round.
GLARED_FIVE = np.array([
    (11.5, 0.97, 0.96, 0.96, 0.95, 0.90),
    (33.5, 0.81, 0.74, 0.74, 0.73, 0.70),
    (56.5, 0.91, 0.91, 0.87, 0.86, 0.90),
    (78.5, 0.97, 1.00, 0.96, 0.95, 0.90),
    (100.5, 0.94, 0.96, 0.96, 1.00, 1.00),
    (125.5, 0.09, 0.13, 0.00, 0.00, 0.10),
], np.float32)

RED, WOOD, WHITE = (110.0, 175.0, 160.0), (140.0, 150.0, 165.0), (235.0, 128.0, 132.0)


def _stack_ys_coloured(table: np.ndarray, colours: list) -> list[float]:
    ys, full, no_far, no_near, contact_free, far_arc = table.T
    chain, _ = _chain(ys, full, no_far, no_near, RADIUS, COVERAGE_THRESHOLD, LIMIT,
                      np.float32(colours), far_arc=far_arc, contact_free=contact_free)
    return [round(float(ys[i])) for i in chain]


def test_touching_checkers_of_one_paint_need_no_rims_aside():
    """A checker between two of its own paint is one of the stack even when glare dims its
    sides (it would fail :func:`_rim_aside` alone)."""
    assert not _rim_aside(0.73, 0.81, COVERAGE_THRESHOLD)
    assert _stack_ys_coloured(GLARED_FIVE, [WHITE] * 6) == [12, 34, 56, 78, 100]


def test_bare_board_of_another_paint_still_ends_the_stack():
    """The wood beyond the stack is close enough in colour to pass for one stack's neighbour
    (:data:`COLOUR_JUMP`) but not clearly of the checkers' paint: the guard still holds."""
    colours = [RED] * 7 + [WOOD, WOOD, RED, WOOD]
    close = _colour_close(np.float32([RED, WOOD]))
    alike = _colour_close(np.float32([RED, WOOD]), HIDDEN_END_JUMP)
    assert close[0, 1] and not alike[0, 1]
    assert _stack_ys_coloured(NEAR_A_PRINT, colours) == [12, 37, 61, 84, 107]
    assert _stack_ys_coloured(BRIGHTER_NEAR_A_PRINT, colours[2:]) == [11, 37, 61, 84, 108]
