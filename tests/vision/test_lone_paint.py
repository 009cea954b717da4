"""A lone checker painted like its point: only a faint rim tells it from the bare base.

Such a checker shows less than the usual share of its rim, and on the arc toward the point's
tip (where an empty base shows plain paint) perhaps too little to pass the far-arc test.  It is
taken when that arc shows a step in lightness at the checker's radius in each direction
(:func:`vision.checkers._far_step`) and at one distance in all of them
(:func:`vision.checkers._far_circle_step`), as a line beyond the lightness of both its sides
(:func:`vision.checkers._far_rim_line`): a rim is a circle and a line; a dark paint's blotchy
noise, a shadow's soft edge and glare are not.  A checker whose candidate centre lies a little
beside its own shows its rim at a different distance in each direction, which the averaged
profile smears: it is taken when every direction steps (:func:`vision.checkers._far_steps`)
and its lightness there is no ramp (see :data:`vision.checkers.RIM_NOT_RAMP`).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from checker_frames import (
    POINTS_CENTRE as CENTRE, POINTS_GEOMETRY as GEOMETRY,
    POINTS_RADIUS as RADIUS, painted_points, with_disc,
)
from vision.checkers import (
    LONE_MOST_RIM, LONE_OWN_LINE, LONE_RIM_LINE, LONE_RIM_STEP, NEAR_PAINT_LINE, OFF_PAINT,
    OWN_LINE_FAINT, OWN_LINE_RIM, RIM_NOT_RAMP, SAME_PAINT, _Candidates, _far_circle_step,
    _far_rim_line, _far_step, _far_steps, _line_siblings_lack, _paint_gap, _paint_rim_lone,
    _sibling_rim_line,
)
from vision.rings import RingScorer

WOOD = (60, 110, 170)
NAVY, NAVY_RIM = (70, 40, 30), (100, 70, 60)
SAND = (150, 190, 200)


def _field(lone: bool = False, blotches: float = 0.0, shadow: bool = False,
           glare: bool = False) -> np.ndarray:
    """Wood with navy bottom points 0..5 (BGR); optionally a navy checker with a faint lighter
    rim against the bottom edge of point 2 (``lone``), chroma blotches of a rim's size over the
    paint (``blotches``: their spread, in 8-bit units of the blue channel alone, as a camera's
    noise in dark colours), or (on sand points instead) a shadow whose soft edge crosses point 2
    beyond its base, or glare: a bright round spot two radii beyond the base, its edge on the
    far arc."""
    field = painted_points(WOOD, SAND if shadow or glare else NAVY)
    h, w = field.shape[:2]
    if lone:
        field = with_disc(field, NAVY, NAVY_RIM, 0.92)
    if blotches:
        rng = np.random.default_rng(7)
        noise = rng.normal(0, blotches, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        field[:, :, 0] += cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    if shadow:
        # Darker toward the edge; its soft edge lies a little beyond a checker's radius from
        # point 2's base and runs on past it.
        beyond = (CENTRE[1] - np.arange(h, dtype=np.float32)[:, None]) / RADIUS
        field *= (0.4 + 0.6 / (1 + np.exp(-(beyond - 1.4) / 0.2)))[:, :, None]
    if glare:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        spot = np.exp(-((xs - CENTRE[0]) ** 2 + (ys - (CENTRE[1] - 2.0 * RADIUS)) ** 2)
                      / (2 * (0.8 * RADIUS) ** 2))
        field += 120 * spot[:, :, None]
    return cv2.GaussianBlur(np.clip(field, 0, 255).astype(np.uint8), (0, 0), 0.8)


def _lightness(field: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(field, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)


def test_a_rim_is_a_step_at_one_radius_blotches_and_a_shadows_edge_are_not():
    fields = {"checker": _field(lone=True), "blotches": _field(blotches=12.0),
              "shadow": _field(shadow=True), "empty": _field()}
    circle = {name: _far_circle_step(_lightness(f), *CENTRE, RADIUS, False)
              for name, f in fields.items()}
    assert circle["checker"] >= LONE_RIM_STEP
    assert all(circle[name] < LONE_RIM_STEP for name in ("blotches", "shadow", "empty"))
    # The shadow's edge is a step in each direction as much as a faint rim is: only the
    # averaged profile, peaking in the band or not, tells them apart.
    assert _far_step(_lightness(fields["shadow"]), *CENTRE, RADIUS, False) >= LONE_RIM_STEP
    # A glare spot's edge is round and steps on the whole arc; but it goes from one level to
    # another, where a rim between a face and paint of one colour is a line beyond both.
    glare = _lightness(_field(glare=True))
    assert _far_circle_step(glare, *CENTRE, RADIUS, False) >= LONE_RIM_STEP
    assert _far_rim_line(glare, *CENTRE, RADIUS, False) < 0
    assert _far_rim_line(_lightness(fields["checker"]), *CENTRE, RADIUS, False) >= LONE_RIM_LINE
    # Blotches of chroma change the Lab colour at a rim's distance; lightness does not see them.
    lab = cv2.cvtColor(fields["blotches"], cv2.COLOR_BGR2LAB).astype(np.float32)
    assert _far_step(lab, *CENTRE, RADIUS, False) > _far_step(_lightness(fields["blotches"]),
                                                              *CENTRE, RADIUS, False)


def _candidate(scorer: RingScorer, full: float, beside: float = 0.0) -> _Candidates:
    """Bottom point 2's base candidate, on the drawn checker's place (``beside`` radii to its
    right), with rim share ``full`` all round and no far arc to speak of."""
    x = np.array([CENTRE[0] + beside * RADIUS], np.float32)
    y = np.array([CENTRE[1]], np.float32)
    share = np.array([full], np.float32)
    return _Candidates(np.array([1.05 * RADIUS], np.float32), x, y, share, share.copy(),
                       share.copy(), scorer.colour_at(x, y), np.array([0.3], np.float32))


@pytest.mark.parametrize("kind, full, taken", [
    ("checker", 0.8, True),
    ("checker", LONE_MOST_RIM - 0.05, False),  # too little rim all round
    ("shadow", 0.8, False),
    ("glare", 0.8, False),
    ("blotches", 0.8, False),
    ("empty", 0.8, False),
])
def test_a_point_read_empty_takes_a_lone_checker_of_its_paint_by_its_far_rim(kind, full, taken):
    field = _field(lone=kind == "checker", blotches=12.0 if kind == "blotches" else 0.0,
                   shadow=kind == "shadow", glare=kind == "glare")
    scorer = RingScorer(field, RADIUS)
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    verdict = _paint_rim_lone(scorer, _candidate(scorer, full), False, float("inf"),
                              [("bottom", 0), ("bottom", 4)], centres, RADIUS,
                              GEOMETRY.height, 0.4)
    assert verdict == ([0] if taken else None)
    # Against the facing stack's end the far arc tells nothing: never taken this way.
    assert _paint_rim_lone(scorer, _candidate(scorer, full), False, 2.0 * RADIUS,
                           [("bottom", 0), ("bottom", 4)], centres, RADIUS, GEOMETRY.height,
                           0.4) is None


@pytest.mark.parametrize("kind, taken", [("checker", True), ("glare", False), ("shadow", False),
                                         ("empty", False)])
def test_a_candidate_beside_a_checkers_centre_still_sees_its_rim_in_every_direction(kind, taken):
    """The ring map proposes centres on a grid: a candidate a third of a radius beside the
    checker's centre sees the rim nearer on one side of the arc than on the other."""
    field = _field(lone=kind == "checker", shadow=kind == "shadow", glare=kind == "glare")
    scorer = RingScorer(field, RADIUS)
    x, y = CENTRE[0] + 0.3 * RADIUS, CENTRE[1]
    lightness = _lightness(field)
    if kind == "checker":
        # The averaged profile loses the rim, and the rim line is faint there ...
        assert _far_circle_step(lightness, x, y, RADIUS, False) < LONE_RIM_STEP
        assert _far_rim_line(lightness, x, y, RADIUS, False) < LONE_RIM_LINE
        # ... but every direction steps, and no ramp.
        assert _far_steps(lightness, x, y, RADIUS, False).min() >= LONE_RIM_STEP
        assert _far_rim_line(lightness, x, y, RADIUS, False) >= RIM_NOT_RAMP
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    verdict = _paint_rim_lone(scorer, _candidate(scorer, 0.8, beside=0.3), False, float("inf"),
                              [("bottom", 0), ("bottom", 4)], centres, RADIUS,
                              GEOMETRY.height, 0.4)
    assert verdict == ([0] if taken else None)


CREAM, RED = (170, 205, 215), (45, 45, 175)


def _domed_field(lone: bool = False, band: bool = False, beside: float = 0.15,
                 soft: bool = False, tint: float = 1.0, depth: float | None = None
                 ) -> np.ndarray:
    """Cream with red bottom points 0..5 (BGR); optionally (``lone``) a red checker on point 2's
    base, ``beside`` radii right of the candidate's place, as a tournament set's: its face
    shaded darker toward its rim (a dome) and a soft dark groove at its edge (``soft``: a
    flatter face, its groove deeper but wider, the whole a little blurred: its rim steps on
    less than most of the far arc; ``tint``: its face that much lighter than the paint, a red a
    little off the point's; ``depth``: its groove's depth, a share of the light, in place of
    the usual one); or (``band``) a
    dark line printed across every base (parallel to the edge) a checker's radius beyond the
    candidate's place."""
    field = painted_points(CREAM, RED)
    h, w = field.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if lone:
        d = np.hypot(xs - (CENTRE[0] + beside * RADIUS), ys - CENTRE[1]) / RADIUS
        usual, width, dome = (0.3, 0.2, 0.1) if soft else (0.12, 0.1, 0.25)
        groove = 1 - (usual if depth is None else depth) * np.exp(-((d - 0.93) / width) ** 2 / 2)
        shade = np.where(d < 1.0, tint * (1 + dome * (0.5 - np.minimum(d, 0.93))), 1.0)
        field *= (shade * groove)[:, :, None]
    if band:
        beyond = (CENTRE[1] - ys) / RADIUS
        field *= (1 - 0.2 * np.exp(-((beyond - 0.95) / 0.1) ** 2 / 2))[:, :, None]
    return cv2.GaussianBlur(np.clip(field, 0, 255).astype(np.uint8), (0, 0), 2.0 if soft else 1.5)


@pytest.mark.parametrize("kind, taken", [("checker", True), ("band", False), ("empty", False)])
def test_a_domed_checker_of_its_paint_is_taken_by_a_groove_its_bare_siblings_lack(kind, taken):
    """A red checker on a red point whose face darkens toward a soft groove at its rim: seen from
    a candidate a little beside its centre, the groove is too soft and spread to step in every
    direction or to keep its step averaged over the arc (synthetic seeds 5302 bottom[4] and
    5705 bottom[2] were read empty so), but it is a clear line there, which the bare bases of
    the same paint at that height do not show (see :data:`vision.checkers.LONE_OWN_LINE`).  A
    line printed across every base is as clear a line, but shows on them too."""
    field = _domed_field(lone=kind == "checker", band=kind == "band")
    lightness = _lightness(field)
    x, y = CENTRE
    siblings = [GEOMETRY.column_x(c) for c in (0, 4)]
    line = _far_rim_line(lightness, x, y, RADIUS, False)
    assert (line >= LONE_OWN_LINE) == (kind != "empty")
    assert (_sibling_rim_line(lightness, x, y, RADIUS, False, siblings) >= LONE_OWN_LINE) == taken
    if kind == "checker":
        # It steps on most of the arc, but neither all along it nor averaged over it: the
        # tests a lone checker of its paint passed before see no rim.
        steps = _far_steps(lightness, x, y, RADIUS, False)
        assert np.median(steps) >= LONE_RIM_STEP > steps.min()
        assert _far_circle_step(lightness, x, y, RADIUS, False) < LONE_RIM_STEP
    scorer = RingScorer(field, RADIUS)
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    verdict = _paint_rim_lone(scorer, _candidate(scorer, 0.8), False, float("inf"),
                              [("bottom", 0), ("bottom", 4)], centres, RADIUS,
                              GEOMETRY.height, 0.4, ("bottom", 2))
    assert verdict == ([0] if taken else None)



@pytest.mark.parametrize("kind, soft, full, taken", [
    ("checker", True, 0.8, True),                      # steps on less than most of its arc
    ("checker", False, (OWN_LINE_RIM + LONE_MOST_RIM) / 2, True),  # short of most of a rim
    ("checker", False, OWN_LINE_RIM - 0.05, False),
    ("band", True, 0.8, False),
    ("empty", True, 0.8, False),
])
def test_a_fainter_checker_of_its_paint_is_taken_by_its_groove_alone(kind, soft, full, taken):
    """The tournament set's red checkers on red points (synthetic 2620 bottom[10], 3161
    bottom[4], 6348 bottom[2]) show their groove as a clear line on the far arc that the bare
    bases beside them lack, but too faint a rim for the other tests: less than
    :data:`vision.checkers.LONE_MOST_RIM` of it all round, or a step on less than most of the
    far arc.  The line, and the line beyond the siblings', are then the cue (see
    :data:`vision.checkers.OWN_LINE_RIM`); a line printed across every base is not."""
    field = _domed_field(lone=kind == "checker", band=kind == "band", soft=soft)
    lightness = _lightness(field)
    x, y = CENTRE
    if kind == "checker":
        assert (np.median(_far_steps(lightness, x, y, RADIUS, False)) < LONE_RIM_STEP) == soft
        assert _sibling_rim_line(lightness, x, y, RADIUS, False,
                                 [GEOMETRY.column_x(c) for c in (0, 4)]) >= OWN_LINE_FAINT
    scorer = RingScorer(field, RADIUS)
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    verdict = _paint_rim_lone(scorer, _candidate(scorer, full), False, float("inf"),
                              [("bottom", 0), ("bottom", 4)], centres, RADIUS,
                              GEOMETRY.height, 0.4, ("bottom", 2))
    assert verdict == ([0] if taken else None)


@pytest.mark.parametrize("kind, tint, full, taken", [
    ("checker", 1.2, 0.8, True),                               # steps on less than most of it
    ("checker", 1.2, (OWN_LINE_RIM + LONE_MOST_RIM) / 2, True),  # short of most of a rim
    ("band", 1.2, 0.8, False),
])
def test_a_checker_near_its_paint_is_taken_by_a_groove_its_bare_siblings_lack(kind, tint, full,
                                                                              taken):
    """A red checker a little lighter than its red point (its middle near the point's paint but
    not of it, :data:`vision.checkers.SAME_PAINT` to :data:`vision.checkers.OFF_PAINT` off)
    shows its groove as the line its bare siblings lack, as one of the point's very paint does
    (synthetic 8104 bottom[4], 8620 bottom[2], 7084 bottom[4], 2656 bottom[10] were read empty:
    only the paint's own colour was asked for that line).  A bare base under a printed line,
    lit as light by a soft spot, is no checker: the line shows on its siblings too."""
    if kind == "band":  # a bare base lit that much by a soft spot: the print its only line
        field = _domed_field(band=True).astype(np.float32)
        ys, xs = np.mgrid[0:field.shape[0], 0:field.shape[1]].astype(np.float32)
        spot = np.exp(-((xs - CENTRE[0]) ** 2 + (ys - CENTRE[1]) ** 2) / (2 * RADIUS ** 2))
        field = np.clip(field * (1 + (tint - 1) * spot)[:, :, None], 0, 255).astype(np.uint8)
    else:
        field = _domed_field(lone=True, soft=True, tint=tint)
    scorer = RingScorer(field, RADIUS)
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    candidate = _candidate(scorer, full)
    siblings = [("bottom", 0), ("bottom", 4)]
    assert SAME_PAINT <= _paint_gap(scorer, candidate, 0, siblings, centres) < OFF_PAINT
    if kind == "checker":  # (no step all along the arc: RIM_NOT_RAMP's test does not take it)
        assert _far_steps(_lightness(field), *CENTRE, RADIUS, False).min() < LONE_RIM_STEP
    verdict = _paint_rim_lone(scorer, candidate, False, float("inf"), siblings, centres, RADIUS,
                              GEOMETRY.height, 0.4, ("bottom", 2))
    assert verdict == ([0] if taken else None)


@pytest.mark.parametrize("tint, depth, full, taken", [
    (1.2, 0.15, 0.8, True),                                 # steps on most of its arc
    (1.2, 0.15, (OWN_LINE_RIM + LONE_MOST_RIM) / 2, True),  # short of most of a rim
    (1.2, 0.10, 0.8, False),                                # its groove too faint a line
    (1.0, 0.15, 0.8, False),                                # of the paint's very colour
])
def test_a_checker_near_its_paint_is_taken_by_a_fainter_groove(tint, depth, full, taken):
    """A red checker a little lighter than its red point whose groove is a fainter line than
    one of the point's very paint is asked for (:data:`vision.checkers.NEAR_PAINT_LINE`, under
    :data:`vision.checkers.LONE_OWN_LINE`): synthetic 9523 bottom[8] (4.49 beyond its bare
    siblings), 9295 bottom[4] (4.25, short of most of a rim all round), 3068 bottom[4] and 7451
    bottom[10] were read empty so.  Bare bases a glare or shade lifts so far off their paint
    show no such line (2.96 at most); bare bases of the paint's very colour do (4.65), so a
    checker of that colour with as faint a groove is still not taken."""
    field = _domed_field(lone=True, soft=True, tint=tint, depth=depth)
    scorer = RingScorer(field, RADIUS)
    centres = {("bottom", c): GEOMETRY.column_x(c) for c in range(6)}
    candidate = _candidate(scorer, full)
    siblings = [("bottom", 0), ("bottom", 4)]
    near = tint != 1.0
    assert (SAME_PAINT <= _paint_gap(scorer, candidate, 0, siblings, centres) < OFF_PAINT) == near
    lightness = _lightness(field)
    lack = _line_siblings_lack(lightness, *CENTRE, RADIUS, False,
                               [GEOMETRY.column_x(c) for c in (0, 4)])
    if near:
        assert (NEAR_PAINT_LINE <= lack < LONE_OWN_LINE) == taken
    else:  # (its far arc steps on less than most: a line of OWN_LINE_FAINT is asked of it)
        assert np.median(_far_steps(lightness, *CENTRE, RADIUS, False)) < LONE_RIM_STEP
        assert NEAR_PAINT_LINE <= lack < OWN_LINE_FAINT
    verdict = _paint_rim_lone(scorer, candidate, False, float("inf"), siblings, centres, RADIUS,
                              GEOMETRY.height, 0.4, ("bottom", 2))
    assert verdict == ([0] if taken else None)
