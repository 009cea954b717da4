"""Finding the field without clicks, on rendered frames; saying so when there is no board."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.locate import LocateError, align_to, corner_error, locate_field
from vision.render import RenderOptions, render_board


def _corner_errors(seeds: range, hard: bool) -> list[float]:
    """Corner error of the automatic localisation on rendered frames (1.0 where none is found)."""
    errors = []
    for seed in seeds:
        scene = render_board(None, RenderOptions(seed=seed, hard=hard))
        try:
            found = align_to(locate_field(scene.image), scene.corners)
        except LocateError:
            errors.append(1.0)
            continue
        errors.append(corner_error(found, scene.corners))
    return errors


def test_finds_the_field_on_most_easy_frames():
    errors = _corner_errors(range(300, 306), hard=False)
    assert sum(e <= 0.03 for e in errors) >= 5, errors


@pytest.mark.slow
def test_hard_frames_are_found_to_within_one_percent():
    """Tilted, rotated, glare, trays beside the field: the rough outline is sharpened by the
    field's edges and the points' rhythm (the reader needs about 1-2% of the field size)."""
    errors = _corner_errors(range(400, 408), hard=True)
    assert sum(e <= 0.01 for e in errors) >= 7, errors
    assert float(np.median(errors)) <= 0.008, errors


def test_an_arm_across_the_boards_edge_does_not_hide_the_board():
    """Rendered frames where the board's outline runs into an arm that leaves the frame (the
    outline has more than four corners): the board's sides are among the outline's long sides."""
    errors = []
    for seed in (16, 97, 146):
        scene = render_board(None, RenderOptions(seed=seed, hard=True))
        errors.append(corner_error(align_to(locate_field(scene.image), scene.corners),
                                   scene.corners))
    assert max(errors) <= 0.03, errors


def test_the_whole_field_outranks_one_shifted_by_a_point():
    """An outline one point off still shows the points' rhythm and something like a bar (a
    triangle's edge, a column of checkers); the whole field's real bar must rank it higher."""
    import cv2

    from calibration.geometry import check_corners
    from calibration.locate import board_score

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406, 411):
        scene = render_board(None, RenderOptions(seed=seed, hard=True))
        small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
        truth = np.float32(scene.corners) / 2
        to_frame = cv2.getPerspectiveTransform(unit, truth)
        shifted = cv2.perspectiveTransform((unit + [1 / 12, 0]).astype(np.float32)[None],
                                           to_frame)[0]
        whole = board_score(small, check_corners(truth))
        off = board_score(small, check_corners(shifted))
        assert whole[1] > off[1], (seed, whole, off)


@pytest.mark.parametrize("frame", [
    np.zeros((360, 640, 3), np.uint8),
    np.random.default_rng(1).integers(0, 255, (360, 640, 3)).astype(np.uint8),
])
def test_no_board_is_said_clearly(frame):
    with pytest.raises(LocateError, match="cannot find the board: no backgammon board"):
        locate_field(frame)


def test_half_turn_alignment():
    field = ((0, 0), (10, 0), (10, 8), (0, 8))
    turned = ((10, 8), (0, 8), (0, 0), (10, 0))
    assert align_to(turned, field) == field


def test_a_side_a_point_astray_shows_no_edge():
    """The side check: at the true corners every side has the points' detail inside and plain
    frame outside; with the field shifted by a point along its rows one short side has points
    on both sides (or frame on both)."""
    import cv2

    from calibration.locate import side_contrast

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
        truth = np.float32(scene.corners) / 2
        to_frame = cv2.getPerspectiveTransform(unit, truth)
        right = side_contrast(small, truth)
        assert min(right["top"], right["bottom"]) > 0.5, (seed, right)
        for shift in (1 / 13, -1 / 13):
            shifted = cv2.perspectiveTransform((unit + [shift, 0]).astype(np.float32)[None],
                                               to_frame)[0]
            astray = side_contrast(small, shifted)
            assert min(astray["left"], astray["right"]) < min(right["left"], right["right"]) - 0.2, \
                (seed, shift, right, astray)


def test_wrong_fields_are_refused_or_put_right():
    """Frames where the refinement once went astray (a column of checkers beside the bar taken
    for it, a long side put on a row of checkers, an arm merged with the table's outline) give
    the field to within 2% or say that they cannot find it; never a wrong field (93: a side
    skewed onto a tray, its bar then too weak to vouch for it, once passed on the points alone;
    277: half the field, a column of checkers for its bar, passed without the points' rhythm;
    2408: both ends on the frame's outer rim, the rhythm's bar wider than the bar's edges)."""
    _refused_or_put_right((55, 93, 128, 173, 277, 2408))


@pytest.mark.slow
def test_an_end_slanting_against_the_bar_is_refused_or_put_right():
    """Hard seeds 2918 and 2965 were found 10% and 5% off: one end slanting onto the frame's
    rim or across a row of checkers, the bar blurred upright in the field found and clear
    leaning (:func:`calibration.locate.bar_lean`)."""
    _refused_or_put_right((2918, 2965))


@pytest.mark.slow
def test_an_end_on_the_frames_outer_rim_is_refused_or_put_right():
    """Found on the longest straight lines (no contour outlined the field), hard seed 1229 and
    solid seeds 973, 1229 and 1416 were found 4.5-7.3% off, an end on the frame's outer rim a
    point beyond the field's: that end shows the points faintly and the table, not the frame,
    lies beyond an end (:func:`calibration.locate.beyond_ends`)."""
    _refused_or_put_right((1229,))
    _refused_or_put_right((973, 1229, 1416), solid=True)


def _refused_or_put_right(seeds: tuple[int, ...], solid: bool = False) -> None:
    """Each rendered hard frame (of a solid board: ``solid``) gives the field to within 2% or
    says it cannot find it."""
    for seed in seeds:
        scene = render_board(None, RenderOptions(seed=seed, hard=True, solid=solid))
        try:
            found = locate_field(scene.image)
        except LocateError as exc:
            assert str(exc).startswith("cannot find the board: "), exc
            continue
        assert corner_error(align_to(found, scene.corners), scene.corners) <= 0.02, seed


def test_the_bar_is_one_piece_not_two_columns_of_checkers():
    """A wooden bar's edges can be no stronger than those of the checkers stacked on the
    points beside it; the bar is told by its colour, the same all along it, where the
    checkers' column is one colour at the top, another at the bottom and the field between."""
    import cv2

    from calibration.locate import _bar_edges

    rng = np.random.default_rng(3)
    mx, w, h = 20, 480, 400
    picture = np.full((h, w + 2 * mx, 3), (50, 105, 165), np.float32)
    picture += rng.normal(0, 3, picture.shape).astype(np.float32)  # the grain, roughly
    bar = (mx + 228, mx + 258)
    picture[:, bar[0]: bar[1]] *= 0.93  # a slightly darker strip, with faint edges
    column = (mx + 196, mx + 226)  # checkers on the point next to the bar: red, then white
    picture[20: 190, column[0]: column[1]] = (40, 40, 170)
    picture[210: 380, column[0]: column[1]] = (225, 230, 232)
    gx_abs = np.abs(cv2.Sobel(picture, cv2.CV_32F, 1, 0, ksize=3)).max(axis=2)
    rows = slice(int(0.04 * h), int(0.96 * h))
    by_edges = _bar_edges(gx_abs[rows], mx, w)
    judged = _bar_edges(gx_abs[rows], mx, w, picture=picture[rows])
    assert by_edges is not None and abs(by_edges[0] - column[0]) <= 3  # the edges alone: fooled
    assert judged is not None and abs(judged[0] - bar[0]) <= 3 and abs(judged[1] - bar[1]) <= 3


def test_the_points_rhythm_tells_the_field_from_one_out_of_step():
    """Without the bar, the points alone vouch for a field: six equal points from each short
    side to the bar put the comb's teeth on the triangles' borders; a field half a point off,
    or half the field, puts them on the triangles' middles or out of step."""
    import cv2

    from calibration.geometry import check_corners, field_aspect, warp
    from calibration.locate import CLEAR_RHYTHM, _scoring_geometry, points_rhythm

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners) / 2)

        def rhythm(left: float, right: float) -> float:
            outline = np.float32([[left, 0], [right, 0], [right, 1], [left, 1]])
            corners = check_corners(cv2.perspectiveTransform(outline[None], to_frame)[0])
            geometry = _scoring_geometry(field_aspect(corners, (640, 360)), 320)
            return points_rhythm(warp(small, corners, geometry), geometry)[0]

        assert rhythm(0, 1) >= CLEAR_RHYTHM, seed
        for left, right in ((0.5 / 13, 1 + 0.5 / 13), (-0.5 / 13, 1 - 0.5 / 13), (0, 0.5),
                            (0.5, 1)):
            assert rhythm(left, right) < CLEAR_RHYTHM, (seed, left, right)


def test_the_field_is_found_inside_an_outline_of_the_whole_board():
    """The clearest outline may be the whole board, side trays and all: the field's ends are
    found inside it by the points' rhythm (the true field among the few fields offered)."""
    import cv2

    from calibration.locate import INNER_CANDIDATES, inner_fields

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    found = []
    for seed in (0, 2, 3, 4, 6):
        scene = render_board(None, RenderOptions(seed=seed, hard=True))
        small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
        truth = np.float32(scene.corners) / 2
        to_frame = cv2.getPerspectiveTransform(unit, truth)
        # An outline reaching a sixth of the field's width beyond each end, long sides kept.
        whole = cv2.perspectiveTransform(
            np.float32([[-1 / 6, 0], [7 / 6, 0], [7 / 6, 1], [-1 / 6, 1]])[None], to_frame)[0]
        fields = inner_fields(small, whole)
        assert 1 <= len(fields) <= INNER_CANDIDATES
        found.append(min(corner_error(align_to(tuple(map(tuple, f)), tuple(map(tuple, truth))),
                                      tuple(map(tuple, truth))) for f in fields))
    assert sum(e <= 0.02 for e in found) >= 4, found


def test_points_beyond_a_long_side_tell_a_side_inside_the_field():
    """Beyond a field's long side lies the frame: at the true corners the points' pattern does
    not go on beyond either long side; a top side slanting into the field across a quarter's
    points' bases (one corner moved down by a tenth of the height, as a side run along a row of
    checkers once was) has the points' bases beyond it."""
    import cv2

    from calibration.locate import MAX_POINTS_BEYOND, side_evidence

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners) / 2)
        _, right = side_evidence(small, np.float32(scene.corners) / 2)
        assert max(right.values()) <= MAX_POINTS_BEYOND / 2, (seed, right)
        for corner in (0, 1):
            moved = unit.copy()
            moved[corner, 1] = 0.1
            slanted = cv2.perspectiveTransform(moved[None], to_frame)[0]
            _, astray = side_evidence(small, slanted)
            assert astray["top"] > MAX_POINTS_BEYOND, (seed, corner, astray)


def test_a_short_side_astray_at_one_end_is_put_on_the_fields_edge():
    """A short side whose end strayed onto the frame (the comb fooled by checkers covering the
    end points) is offered back on the field's straight edge nearby, the long sides kept (the
    check then chooses among the edges offered)."""
    import cv2

    from calibration.locate import _short_side_repairs

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners))
        leaning = unit.copy()
        leaning[0, 0] -= 0.2 / 13  # the top-left corner a fifth of a point out
        astray = cv2.perspectiveTransform(leaning[None], to_frame)[0].astype(np.float64)
        repairs = _short_side_repairs(scene.image, astray, ["left"])
        errors = [corner_error(tuple(map(tuple, r)), scene.corners) for r in repairs]
        assert errors and min(errors) < \
            corner_error(tuple(map(tuple, astray)), scene.corners) / 2, (seed, errors)


def test_the_points_rhythm_reaches_the_bars_own_edges():
    """On the true field the bar the points' rhythm puts lies on the bar's edges; with both
    ends a point out onto the frame the six points are longer and that bar is wider than the
    bar's edges by more than :data:`MAX_BAR_ASTRAY` of a point."""
    import cv2

    from calibration.geometry import field_aspect, warp
    from calibration.locate import MAX_BAR_ASTRAY, _scoring_geometry, rhythm_and_bar

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners))

        def astray(points_out: float) -> float:
            wide = unit.copy()
            wide[[0, 3], 0] -= points_out / 13
            wide[[1, 2], 0] += points_out / 13
            corners = cv2.perspectiveTransform(wide[None], to_frame)[0].astype(np.float64)
            geometry = _scoring_geometry(field_aspect(corners, scene.image.shape[1::-1]), 320)
            return rhythm_and_bar(warp(scene.image, corners, geometry), geometry)[1]

        assert astray(0.0) < 0.7 * MAX_BAR_ASTRAY, seed
        assert astray(1.0) > MAX_BAR_ASTRAY, seed


def test_a_bar_leaning_against_the_fields_ends_tells_an_end_astray():
    """The bar runs parallel to the field's ends: on the true field it is clearest upright; with
    one end slanting (a corner moved a point along its long side, as onto the frame's outer rim)
    the straightened bar leans, far clearer leaning than upright."""
    import cv2

    from calibration.geometry import field_aspect, warp
    from calibration.locate import BAR_EVIDENCE, MAX_BAR_LEAN_GAIN, _scoring_geometry, bar_lean

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 406):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners) / 2)

        def lean(moved_corner: int | None) -> tuple[float, float, float]:
            outline = unit.copy()
            if moved_corner is not None:
                outline[moved_corner, 0] += 1 / 13 if outline[moved_corner, 0] else -1 / 13
            corners = cv2.perspectiveTransform(outline[None], to_frame)[0].astype(np.float64)
            geometry = _scoring_geometry(field_aspect(corners, (640, 360)), 320)
            return bar_lean(warp(small, corners, geometry), geometry)

        upright, leaning, _ = lean(None)
        assert upright >= BAR_EVIDENCE and leaning < 1.5 * upright, (seed, upright, leaning)
        for corner in (0, 2):
            upright, leaning, tilt = lean(corner)
            assert leaning >= BAR_EVIDENCE and leaning > MAX_BAR_LEAN_GAIN * upright, \
                (seed, corner, upright, leaning, tilt)


def test_a_faint_bar_needs_the_points_clear_rhythm():
    """Out of focus a board's bar shows no clear edges (below :data:`BAR_EVIDENCE`) and the true
    field is vouched for by its points' clear rhythm instead; a field with one end slanting two
    points out onto the frame blurs the bar further and puts the points out of step, and is
    refused, however the frame's edges make its sides look (the defocused real start-red-black
    was once found 10.5% off so: bar 2.2, rhythm 0.40)."""
    import cv2

    from calibration.geometry import field_aspect, warp
    from calibration.locate import BAR_EVIDENCE, CLEAR_RHYTHM, _field_failures, \
        _scoring_geometry, rhythm_and_bar
    from vision.augment import defocus, field_width

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (401, 404, 409):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        blurred, corners = defocus(scene.image, scene.corners, 0.01 * field_width(scene.corners))
        small = cv2.resize(blurred, (640, 360), interpolation=cv2.INTER_AREA)
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(corners) / 2)
        truth = cv2.perspectiveTransform(unit[None], to_frame)[0].astype(np.float64)
        geometry = _scoring_geometry(field_aspect(truth, (640, 360)), 320)
        rhythm, _, bar = rhythm_and_bar(warp(small, truth, geometry), geometry)
        assert bar < BAR_EVIDENCE and rhythm >= CLEAR_RHYTHM, (seed, bar, rhythm)
        assert _field_failures(small, truth, 0.0) == [], seed
        for corner in range(4):
            slanting = unit.copy()
            slanting[corner, 0] += 2 / 13 if slanting[corner, 0] else -2 / 13
            outline = cv2.perspectiveTransform(slanting[None], to_frame)[0].astype(np.float64)
            assert _field_failures(small, outline, 0.0), (seed, corner)


def test_an_end_slanting_against_the_bar_is_turned_along_it():
    """A field with one end slanting a point across (a corner moved a point along its long side)
    leans the straightened bar by about half that: turning that end by twice the bar's lean
    about its middle makes it parallel to the true end again (:func:`_lean_repairs`), its
    corners half a point off each way: about half as far from the true field, for the
    refinement to finish."""
    import cv2

    from calibration.locate import _lean_repairs, work_copy

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        small, scale = work_copy(scene.image)
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners))
        for corner in range(4):
            moved = unit.copy()
            moved[corner, 0] += 1 / 13 if moved[corner, 0] else -1 / 13
            slanting = cv2.perspectiveTransform(moved[None], to_frame)[0].astype(np.float64)
            turned = _lean_repairs(small, scale, [slanting])
            assert len(turned) == 2, (seed, corner)
            errors = [corner_error(tuple(map(tuple, t)), scene.corners) for t in turned]
            assert min(errors) < 0.7 * corner_error(tuple(map(tuple, slanting)), scene.corners), \
                (seed, corner, errors)


@pytest.mark.slow
def test_a_field_with_an_end_slanting_is_found_once_turned():
    """Hard seed 2521 was refused: every refinement step had one end slanting, its bar clear
    only leaning; refined again with that end turned along the bar the field checks out."""
    scene = render_board(None, RenderOptions(seed=2521, hard=True))
    found = align_to(locate_field(scene.image), scene.corners)
    assert corner_error(found, scene.corners) <= 0.01


@pytest.mark.slow
def test_a_field_seen_from_a_seat_is_found_on_the_longest_straight_edges():
    """Seen from a seat the field fills much of the frame and no contour outlines it (hard
    seeds 13 and 14 seen at 35 and 45 degrees were refused): its sides are among the longest
    straight lines in view (:func:`calibration.locate.line_outlines`)."""
    from vision.augment import tilt

    for seed, degrees, azimuth in ((13, 35, 90), (14, 45, 0)):
        scene = render_board(None, RenderOptions(seed=seed, hard=True))
        image, corners = tilt(scene.image, scene.corners, degrees, azimuth, absolute=True)
        found = align_to(locate_field(image), corners)
        assert corner_error(found, corners) <= 0.01, (seed, corner_error(found, corners))


@pytest.mark.slow
def test_an_end_shown_faintly_is_slid_onto_the_fields_edge():
    """Refused before: every field found failed only at one end, a fifth of a point astray or
    slanting where checkers cover the end points; that end slid onto the clearest edge near it
    (:func:`calibration.locate._slid_ends`) gives the field (hard seed 802, solid seed 1480)."""
    for seed, solid in ((802, False), (1480, True)):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, solid=solid))
        found = locate_field(scene.image)
        assert corner_error(align_to(found, scene.corners), scene.corners) <= 0.02, seed


@pytest.mark.slow
def test_an_end_slid_onto_another_edge_is_refused():
    """Slid at an end, fields of these frames passed the checks 4.5-10% off (an end on a row of
    points, on the frame's rim or a tray's edge): the slid end must show the field's edge as
    clearly as a long side, and not lie on the frame's outer rim."""
    _refused_or_put_right((551, 1851))
    _refused_or_put_right((29, 973, 1115, 1135, 1416, 1439), solid=True)


def test_long_sides_stay_on_the_fields_edge_with_the_frames_shadow_beyond():
    """Beyond a long side the frame often shows two parallel edges a few pixels apart: the
    field's own and the far side of a dark band (the frame's shadow or lip).  Started from a
    rough outline slanting across both (as on the real photos), the long sides end on the
    field's edge: the edge with the points' detail right inside it and support all along it,
    not the band's far side nor a line slanting from one to the other."""
    import cv2

    from calibration.locate import refine_corners
    from vision.augment import field_width, motion_blur

    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for seed in (400, 402, 404):
        scene = render_board(None, RenderOptions(seed=seed, hard=True, hands=False))
        image = scene.image.copy()
        to_frame = cv2.getPerspectiveTransform(unit, np.float32(scene.corners))
        # A dark band of 2% of the field's height beyond each long side, plain frame beyond.
        for (y0, y1), colour in (((1.0, 1.02), (20, 20, 25)), ((1.02, 1.05), (60, 70, 90)),
                                 ((-0.02, 0.0), (20, 20, 25)), ((-0.05, -0.02), (60, 70, 90))):
            band = np.float32([[-0.03, y0], [1.03, y0], [1.03, y1], [-0.03, y1]])
            outline = cv2.perspectiveTransform(band[None], to_frame)[0]
            cv2.fillPoly(image, [np.int32(np.round(outline * 16))], colour, cv2.LINE_AA, 4)
        image, _ = motion_blur(image, scene.corners, 0.01 * field_width(scene.corners), 30)
        for near, far in ((0.0, 0.03), (0.02, -0.01)):
            rough = unit.copy()
            rough[[3, 1], 1] += near * np.array([1, -1])
            rough[[2, 0], 1] += far * np.array([1, -1])
            start = cv2.perspectiveTransform(rough[None], to_frame)[0].astype(np.float64)
            found = np.float32(refine_corners(image, start))
            back = cv2.perspectiveTransform(found[None], np.linalg.inv(to_frame))[0]
            off = max(np.abs(back[:2, 1]).max(), np.abs(back[2:, 1] - 1).max())
            assert off < 0.01, (seed, near, far, back.round(3).tolist())
