"""Lone checkers: one checker on a point against an empty point whose base looks like a disc.

Three decisions are tested: a lone checker that shows less than the usual share of its rim is
still taken when the arc an empty base lacks (toward the point's tip) shows a clear rim; a
point read with one checker whose far arc touches the facing stack's end is read empty when
that "checker" has the point's own paint; and one of the point's own paint anywhere must show
its far rim as a step at its radius (glare across a base is a ramp).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from checker_frames import assert_solid_point_read
from vision.checkers import (
    COVERAGE_THRESHOLD, FACING_TOUCH, LONE_FAR_ARC, LONE_MOST_RIM, LONE_RIM_CLEAR, LONE_RIM_STEP,
    _Candidates, _far_rim, _far_step, _lone_verdict, _paint_lone, find_checkers,
)
from vision.reader import rectify
from vision.render import RenderOptions, render_board
from vision.rings import RingScorer

GEOMETRY = BoardGeometry.default(aspect=0.9)
RADIUS = GEOMETRY.checker_radius
WOOD, IVORY, SHADE = (60, 110, 170), (225, 235, 240), (150, 160, 165)
EBONY, EBONY_RIM = (40, 40, 40), (15, 15, 15)
COLUMN = 2


def _field(lone: tuple[int, int, int] | None = None, die: bool = False,
           die_beyond: float = 0.0) -> np.ndarray:
    """Wood with ivory bottom points 0..5; optionally a checker (``lone``, its middle colour)
    against the bottom edge of point 2, or a die lying on that point's base (``die_beyond``
    radii further toward the point's tip: its near edge then crosses a checker's far rim)."""
    h = GEOMETRY.height
    field = np.full((h, GEOMETRY.width, 3), WOOD, np.uint8)
    half = GEOMETRY.point_width / 2
    for column in range(6):
        x = GEOMETRY.column_x(column)
        corners = np.array([[x - half, h], [x + half, h], [x, 0.6 * h]])
        cv2.fillPoly(field, [np.rint(corners * 16).astype(np.int32)], IVORY, cv2.LINE_AA, 4)
    centre = (int(round(GEOMETRY.column_x(COLUMN))), int(round(h - 1.05 * RADIUS)))
    if lone is not None:
        cv2.circle(field, centre, int(round(RADIUS)), EBONY_RIM if lone == EBONY else SHADE, -1,
                   cv2.LINE_AA)
        cv2.circle(field, centre, int(round(0.88 * RADIUS)), lone, -1, cv2.LINE_AA)
    if die:
        side = int(round(0.85 * RADIUS))
        x0 = centre[0] - side // 2
        y0 = centre[1] - side // 2 - int(round(die_beyond * RADIUS))
        cv2.rectangle(field, (x0, y0), (x0 + side, y0 + side), (250, 250, 250), -1)
        cv2.rectangle(field, (x0, y0), (x0 + side, y0 + side), (30, 30, 30), 1)
        for dx, dy in ((0.25, 0.25), (0.75, 0.75), (0.5, 0.5)):
            cv2.circle(field, (x0 + int(dx * side), y0 + int(dy * side)), 1, (0, 0, 0), -1)
    return cv2.GaussianBlur(field, (0, 0), 0.8)


def _one_candidate(scorer: RingScorer, full: float, no_near: float | None = None,
                   from_edge: float = 1.05) -> _Candidates:
    """The base candidate of bottom point 2 (on the drawn checker's place; said to lie
    ``from_edge`` radii from the edge) with the given rim shares (``no_near``: without the arc
    toward the edge; default ``full``)."""
    x = np.array([GEOMETRY.column_x(COLUMN)], np.float32)
    y = np.array([GEOMETRY.height - 1.05 * RADIUS], np.float32)
    share = np.array([full], np.float32)
    near = np.array([full if no_near is None else no_near], np.float32)
    return _Candidates(np.array([from_edge * RADIUS], np.float32), x, y, share, share.copy(),
                       near, scorer.colour_at(x, y), np.array([1.0], np.float32))


def _verdict(field: np.ndarray, full: float, chain: list[int], facing: float = float("inf"),
             no_near: float | None = None, from_edge: float = 1.05) -> list[int] | None:
    scorer = RingScorer(field, RADIUS)
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    siblings = [("bottom", 0), ("bottom", 4)]
    return _lone_verdict(scorer, _one_candidate(scorer, full, no_near, from_edge), chain, False,
                         facing, siblings, centres, RADIUS, COVERAGE_THRESHOLD, GEOMETRY.height,
                         0.4)


def test_a_rim_shows_toward_the_tip_on_a_checker_not_on_an_empty_base_or_a_die():
    lab = {name: cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)
           for name, field in (("ebony", _field(EBONY)), ("ivory", _field(IVORY)),
                               ("empty", _field()), ("die", _field(die=True)))}
    x, y = GEOMETRY.column_x(COLUMN), GEOMETRY.height - 1.05 * RADIUS
    rim = {name: _far_rim(image, x, y, RADIUS, False) for name, image in lab.items()}
    assert rim["ebony"] >= LONE_RIM_CLEAR and rim["ivory"] >= LONE_RIM_CLEAR
    assert rim["empty"] < 2 and rim["die"] < LONE_RIM_CLEAR


def test_a_lone_checker_short_of_the_threshold_is_taken_when_its_far_rim_is_clear():
    short = (LONE_MOST_RIM + COVERAGE_THRESHOLD) / 2
    assert _verdict(_field(EBONY), short, []) == [0]
    # The same shares on an empty base or a die lying there: nothing.
    assert _verdict(_field(), short, []) is None
    assert _verdict(_field(die=True), short, []) is None
    # A die just beyond the base puts a straight rim on its far arc, but the paint inside
    # shows the base for what it is.
    beyond = _field(die=True, die_beyond=1.0 + 0.42)
    lab = cv2.cvtColor(beyond, cv2.COLOR_BGR2LAB).astype(np.float32)
    x, y = GEOMETRY.column_x(COLUMN), GEOMETRY.height - 1.05 * RADIUS
    assert _far_rim(lab, x, y, RADIUS, False) >= LONE_RIM_CLEAR
    assert _verdict(beyond, short, []) is None
    # Too little of the rim, or the facing stack's end touching it: nothing either.
    assert _verdict(_field(EBONY), LONE_MOST_RIM - 0.05, []) is None
    assert _verdict(_field(EBONY), short, [], facing=2.0 * RADIUS) is None


def test_a_lone_checker_on_the_edge_may_hide_its_near_arc():
    """Less than three quarters of the rim, but all of it save the arc on the field's edge."""
    low = LONE_MOST_RIM - 0.05
    assert _verdict(_field(EBONY), low, [], no_near=0.95) == [0]
    # Away from the edge the near arc has no lip to hide under.
    assert _verdict(_field(EBONY), low, [], no_near=0.95, from_edge=1.5) is None
    assert _verdict(_field(), low, [], no_near=0.95) is None


def test_a_lone_reading_touched_by_the_facing_stack_needs_a_colour_of_its_own():
    touching = 1.05 * RADIUS + 0.9 * FACING_TOUCH * RADIUS
    # An empty ivory base (its far arc the facing checker's rim) is not a checker...
    assert _verdict(_field(), 0.9, [0], facing=touching) == []
    # ...an ebony checker there is, and nothing changes away from the facing stack.
    assert _verdict(_field(EBONY), 0.9, [0], facing=touching) is None
    assert _verdict(_field(), 0.9, [0], facing=touching + 0.2 * FACING_TOUCH * RADIUS) is None


@pytest.mark.parametrize("seed, row, column, count", [
    (292, "top", 6, 1),  # a black checker half under the frame's lip, near arc unseen
    (545, "top", 6, 1),  # a gold checker on a black point, its near arc on the frame's lip
    (335, "top", 0, 0),  # a white base touched by a facing white stack of 10
    (5044, "top", 10, 0),  # a white base touched by a facing white pile of 15, lit unlike
    (5261, "top", 10, 0),  # the white bases across the board (brighter; darker)
    (5457, "top", 6, 1),  # a white checker on a black point touched by the facing stack
    # lone readings of the point's own paint
    (356, "bottom", 1, 0),  # glare across a black base read as a black checker
    (798, "top", 9, 0),  # glare across a walnut board's black base
    (816, "top", 9, 0),  # glare across a claret base
    (9, "bottom", 0, 1),  # a red checker on a red point, its rim shaded across
    # a faint rim of the point's own paint (_paint_rim_lone)
    (680, "bottom", 4, 1),  # a red checker on a red point, its far arc faint
    (1360, "bottom", 7, 1),  # a black checker on a black point, short of the threshold
    (867, "top", 3, 0),  # a shadow's soft edge across an olive base
    (851, "bottom", 2, 0),  # a navy base, its chroma blotchy
    # a reading near its point's paint but not of it (_paint_lone's rim step or line)
    (1057, "top", 4, 0),  # glare lifting a walnut board's ivory base
    (5723, "bottom", 1, 0),  # glare on a blurred cream base: steps in lightness, not colour
    (1549, "bottom", 10, 0),  # glare on a green-cork base
    (2801, "top", 9, 0),  # glare on a green-cork base
    (1819, "bottom", 4, 1),  # a checker near its point's paint: a faint step, a clear line
    (595, "top", 1, 1),  # a checker near its point's paint: a step, no line
])
def test_hard_renders_lone_decisions(seed, row, column, count):
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    truth = getattr(scene.truth, row)[column]
    assert (truth.count if truth else 0) == count
    rect = rectify(scene.image, scene.corners)
    found = find_checkers(rect.field, rect.geometry)
    assert found.row(row)[column].count == count


@pytest.mark.slow
@pytest.mark.parametrize("seed, row, column, count", [
    # a red checker on a red point whose far rim steps in every direction (its candidate a
    # little beside its centre: the averaged profile smears the rim) and shows no ramp
    (1058, "bottom", 0, 1),
    (1420, "bottom", 2, 1),
    (2076, "bottom", 6, 1),
    (3596, "bottom", 6, 1),  # its middle a little off the paint
    # a red checker on a red point, its far rim a line rather than a step (_paint_lone)
    (3045, "top", 7, 1),
    # a soft edge stepping in every direction across a bare base: a ramp
    (1404, "top", 9, 0),
])
def test_hard_renders_faint_lone_checkers_of_their_points_paint(seed, row, column, count):
    test_hard_renders_lone_decisions(seed, row, column, count)


@pytest.mark.slow
@pytest.mark.parametrize("seed, row, column, count", [
    # red checkers on the tournament set's red points: their groove a clear far line, their
    # shadow beyond them keeping the cream border there dark, so that their lightness less
    # their bare siblings' steps down across the rim rather than dipping there
    (7335, "bottom", 4, 1),
    (7026, "bottom", 2, 1),  # ... and it steps in colour a little less than LONE_RIM_STEP
    (1838, "bottom", 10, 1),  # ... short of most of a rim all round (OWN_LINE_FAINT)
    (6348, "bottom", 10, 1),  # ... its face 9.7 darker than the bare siblings' paint there
    # the bare base of its point's paint whose far line comes nearest (4.87, beyond its
    # siblings' 4.66; a walnut board)
    (2624, "bottom", 6, 0),
])
def test_hard_renders_lone_checkers_of_their_points_paint_by_a_line_their_siblings_lack(
        seed, row, column, count):
    """See :func:`vision.checkers._line_siblings_lack`: the line is compared with the bare
    siblings' two ways, profile less profile and line less line."""
    test_hard_renders_lone_decisions(seed, row, column, count)


@pytest.mark.slow
@pytest.mark.parametrize("seed, row, column, count", [
    # glare washing a green-cork red point's base pale: a colour off the paint, no rim at all
    (6198, "top", 3, 0),
    # the lone checkers of a colour of their own whose far arcs step least in colour
    (4153, "top", 7, 1),  # black on a blue-white board, 2.07
    (3367, "bottom", 2, 1),  # red on a tournament board, 2.20
])
def test_hard_renders_a_lone_reading_of_a_colour_of_its_own_steps_on_its_far_arc(
        seed, row, column, count):
    """See :data:`vision.checkers.OWN_COLOUR_STEP`."""
    test_hard_renders_lone_decisions(seed, row, column, count)


@pytest.mark.slow
def test_a_lone_checker_seen_at_a_slant_of_its_players_stacked_colour_is_kept():
    """Solid seed 119's top[6]: its far arc shows the checker's side and steps -0.71 in colour,
    but its colour is that of its player's stacks, which :func:`vision.checkers._paint_lone`
    does not look into further (see :data:`vision.checkers.OWN_COLOUR_STEP`)."""
    assert_solid_point_read(119, ("top", 6), 1)



# --- lone readings of the point's own paint -------------------------------------------------

CLARET, CLARET_RIM = (40, 40, 150), (30, 30, 118)


def _claret_field(lone: bool = False, glare: bool = False) -> np.ndarray:
    """Wood with claret bottom points 0..5; optionally a claret checker with a faint darker rim
    against the bottom edge of point 2 (``lone``), or glare across that point's base: a smooth
    bright patch, centred beyond the base, that changes the paint evenly along the axis."""
    h = GEOMETRY.height
    field = np.full((h, GEOMETRY.width, 3), WOOD, np.float32)
    half = GEOMETRY.point_width / 2
    for column in range(6):
        x = GEOMETRY.column_x(column)
        corners = np.array([[x - half, h], [x + half, h], [x, 0.6 * h]])
        paint = np.zeros((h, GEOMETRY.width), np.uint8)
        cv2.fillPoly(paint, [np.rint(corners * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        field += (paint[:, :, None] / 255.0) * (np.float32(CLARET) - np.float32(WOOD))
    centre = (int(round(GEOMETRY.column_x(COLUMN))), int(round(h - 1.05 * RADIUS)))
    if lone:
        disc = np.zeros((h, GEOMETRY.width, 3), np.uint8)
        cv2.circle(disc, centre, int(round(RADIUS)), CLARET_RIM, -1, cv2.LINE_AA)
        cv2.circle(disc, centre, int(round(0.9 * RADIUS)), CLARET, -1, cv2.LINE_AA)
        inside = np.zeros((h, GEOMETRY.width), np.uint8)
        cv2.circle(inside, centre, int(round(RADIUS)), 255, -1, cv2.LINE_AA)
        share = inside[:, :, None] / 255.0
        field = field * (1 - share) + disc * share
    if glare:
        ys, xs = np.mgrid[0:h, 0:GEOMETRY.width].astype(np.float32)
        spot = np.exp(-((xs - centre[0]) ** 2 + (ys - (centre[1] - 3.0 * RADIUS)) ** 2)
                      / (2 * (1.5 * RADIUS) ** 2))
        field += 90 * spot[:, :, None]
    return cv2.GaussianBlur(np.clip(field, 0, 255).astype(np.uint8), (0, 0), 0.8)


def test_a_rim_is_a_step_at_the_checkers_radius_glare_is_a_ramp():
    x, y = GEOMETRY.column_x(COLUMN), GEOMETRY.height - 1.05 * RADIUS
    lab = {name: cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)
           for name, field in (("checker", _claret_field(lone=True)),
                               ("glare", _claret_field(glare=True)), ("empty", _claret_field()))}
    step = {name: _far_step(image, x, y, RADIUS, False) for name, image in lab.items()}
    assert step["checker"] >= LONE_RIM_STEP
    assert step["glare"] < LONE_RIM_STEP and step["empty"] < LONE_RIM_STEP
    # The glare rings on the far arc (where an empty base shows nothing) as a checker's rim
    # does: only the step tells them apart.
    far = {name: float(RingScorer(field, RADIUS).coverage(np.array([x]), np.array([y]),
                                                          False)[3][0])
           for name, field in (("glare", _claret_field(glare=True)), ("empty", _claret_field()))}
    assert far["glare"] >= LONE_FAR_ARC > far["empty"]


def test_a_lone_reading_of_the_points_paint_needs_a_stepped_far_rim():
    siblings = [("bottom", 0), ("bottom", 4)]
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}

    point = ("bottom", COLUMN)

    def empty_base(field: np.ndarray) -> bool:
        scorer = RingScorer(field, RADIUS)
        found = _paint_lone(scorer, {point: _one_candidate(scorer, 0.9)}, [(point, 0, siblings)],
                            centres, RADIUS)
        assert found in ([], [point])
        return found == [point]

    assert empty_base(_claret_field(glare=True))
    assert not empty_base(_claret_field(lone=True))
    # A checker of a colour of its own needs no such rim (its paint tells it).
    assert not empty_base(_field(EBONY))
    # Several readings at once, with as many siblings or not, as one look-up.
    scorer = RingScorer(_claret_field(glare=True), RADIUS)
    other = ("bottom", 3)
    readings = [(point, 0, siblings), (other, 0, [("bottom", 1), ("bottom", 5)]),
                (point, 0, [("bottom", 0)])]
    candidates = {point: _one_candidate(scorer, 0.9), other: _one_candidate(scorer, 0.9)}
    assert _paint_lone(scorer, candidates, readings, centres, RADIUS) == [point, other, point]
