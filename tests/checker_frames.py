"""Shared helpers for the checker-stage tests: columns of drawn discs as the ring map sees them,
and hard synthetic frames read whole."""
from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from vision import checkers
from vision.rings import RingScorer

#: A drawn field for the lone-checker tests: six bottom points on wood, a checker's place at
#: point 2's base.
POINTS_GEOMETRY = BoardGeometry.default(aspect=0.9)
POINTS_RADIUS = POINTS_GEOMETRY.checker_radius
POINTS_COLUMN = 2
POINTS_CENTRE = (POINTS_GEOMETRY.column_x(POINTS_COLUMN),
                 POINTS_GEOMETRY.height - 1.05 * POINTS_RADIUS)


def painted_points(wood: tuple[int, int, int], paint: tuple[int, int, int]) -> np.ndarray:
    """:data:`POINTS_GEOMETRY`'s field (float BGR) of ``wood`` with bottom points 0..5 painted
    ``paint``, each reaching 0.4 of the field's height."""
    h, w = POINTS_GEOMETRY.height, POINTS_GEOMETRY.width
    field = np.full((h, w, 3), wood, np.float32)
    half = POINTS_GEOMETRY.point_width / 2
    for column in range(6):
        x = POINTS_GEOMETRY.column_x(column)
        corners = np.array([[x - half, h], [x + half, h], [x, 0.6 * h]])
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.rint(corners * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        field += (mask[:, :, None] / 255.0) * (np.float32(paint) - np.float32(wood))
    return field


def with_disc(field: np.ndarray, face, rim, face_share: float) -> np.ndarray:
    """``field`` with a checker at :data:`POINTS_CENTRE`: a disc of ``face`` whose outer
    ``1 - face_share`` of its radius is ``rim``."""
    h, w = field.shape[:2]
    centre = (int(round(POINTS_CENTRE[0])), int(round(POINTS_CENTRE[1])))
    disc = np.zeros((h, w, 3), np.float32)
    cv2.circle(disc, centre, int(round(POINTS_RADIUS)), rim, -1, cv2.LINE_AA)
    cv2.circle(disc, centre, int(round(face_share * POINTS_RADIUS)), face, -1, cv2.LINE_AA)
    inside = np.zeros((h, w), np.uint8)
    cv2.circle(inside, centre, int(round(POINTS_RADIUS)), 255, -1, cv2.LINE_AA)
    share = inside[:, :, None] / 255.0
    return field * (1 - share) + disc * share


def drawn_column(centres_r: list[float], radius: float, height_r: float, width: int,
                 field: tuple[int, int, int], fill: tuple[int, int, int],
                 outline: tuple[int, int, int], clipped_r: tuple[float, float] | None = None,
                 offsets_r: list[float] | None = None,
                 fills: list[tuple[int, int, int]] | None = None
                 ) -> tuple[RingScorer, checkers._Candidates]:
    """Discs of ``radius`` drawn ``fill`` with an ``outline`` on a ``field`` ``height_r`` radii
    tall, centres (radii from the top edge) on one column, each later one over the one before
    and ``offsets_r`` radii beside the column (default none), each disc ``fills`` (default all
    ``fill``); rows ``clipped_r`` (radii) clipped
    to plain white as glare does.  Every centre on the column is a candidate, as the ring map
    proposes."""
    image = np.full((int(radius * height_r), width, 3), field, np.uint8)
    x = width // 2
    for y, dx, paint in zip(centres_r, offsets_r or [0.0] * len(centres_r),
                            fills or [fill] * len(centres_r)):
        centre = (int(round(x + dx * radius)), int(round(y * radius)))
        cv2.circle(image, centre, int(radius), paint, -1)
        cv2.circle(image, centre, int(radius), outline, 1)
    if clipped_r is not None:
        image[int(clipped_r[0] * radius):int(clipped_r[1] * radius)] = 255
    scorer = RingScorer(image, radius)
    ys = np.float32(centres_r) * np.float32(radius)
    px = np.full(ys.shape, x, np.float32)
    full, no_far, no_near, far_arc = scorer.coverage(px, ys, True)
    cand = checkers._Candidates(ys, px, ys.copy(), full, no_far, no_near,
                                scorer.colour_at(px, ys), far_arc)
    return scorer, cand


#: A painted overlapped pile's checker radius (pixels) and the step between its centres (radii).
PILE_RADIUS, PILE_STEP_R = 12.0, 1.36


def painted_pile(count: int, open_top: bool = True, broken_under: bool = False
                 ) -> checkers._Candidates:
    """Candidates at the centres of ``count`` red discs with a dark outline on grey, each lying
    on the one before from the top edge down (:data:`PILE_RADIUS`, :data:`PILE_STEP_R`); with
    ``open_top`` the last one's outline is missing where it lies on the one under it (its near
    arc), as blur or defocus leaves it; ``broken_under``: the one under the top misses a third
    of its outline on a side as well."""
    image = np.full((int(PILE_RADIUS * 22), 90, 3), 150, np.uint8)
    ys_r = [1.05 + k * PILE_STEP_R for k in range(count)]
    axes = (int(PILE_RADIUS), int(PILE_RADIUS))
    for k, y in enumerate(ys_r):
        centre = (45, int(round(y * PILE_RADIUS)))
        cv2.circle(image, centre, int(PILE_RADIUS), (40, 40, 190), -1)
        if k == count - 1 and open_top:
            cv2.ellipse(image, centre, axes, 0, -30, 210, (20, 20, 90), 1)
        elif k == count - 2 and broken_under:
            cv2.ellipse(image, centre, axes, 0, 0, 230, (20, 20, 90), 1)
        else:
            cv2.circle(image, centre, int(PILE_RADIUS), (20, 20, 90), 1)
    scorer = RingScorer(image, PILE_RADIUS)
    ys = np.float32(ys_r) * np.float32(PILE_RADIUS)
    px = np.full(ys.shape, 45, np.float32)
    full, no_far, no_near, far_arc = scorer.coverage(px, ys, True)
    return checkers._Candidates(ys, px, ys.copy(), full, no_far, no_near,
                                scorer.colour_at(px, ys), far_arc)


def assert_hard_frame_counts_read(seed: int, tallest_at_least: int) -> None:
    """Hard synthetic frame ``seed``, which holds a stack of ``tallest_at_least`` or more, read
    with its corners given: every point's count right, row by row."""
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert any(r is not None and r.count >= tallest_at_least
               for r in scene.truth.top + scene.truth.bottom)
    for row in ("top", "bottom"):
        truth = [r.count if r else 0 for r in getattr(scene.truth, row)]
        seen = [r.count if r else 0 for r in getattr(obs, row)]
        assert seen == truth, row


def assert_solid_point_read(seed: int, point: tuple[str, int], count: int) -> None:
    """Solid synthetic frame ``seed`` (the evaluation's pose for it), whose ``point`` (row,
    column) holds ``count`` checkers, read with its corners given: that point's count right."""
    from vision import evaluate
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=seed, hard=True, solid=True,
                                             pose=evaluate.solid_pose(seed, None)))
    row, column = point
    assert getattr(scene.truth, row)[column].count == count
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert getattr(obs, row)[column] is not None
    assert getattr(obs, row)[column].count == count


def bottom_left_out(corners, share: float):
    """The corners with the bottom-left one moved outward along the bottom edge by ``share``
    of that edge (a click on the frame rather than the field)."""
    quad = np.asarray(corners, float)
    quad[3] = quad[3] + share * (quad[3] - quad[2])
    return tuple(map(tuple, quad))


def assert_drawn_board_read_exactly(position, seed: int, move_corners, dice: bool = True) -> None:
    """``position`` drawn plainly (seed ``seed``, a scheme and style chosen by it) and read with
    its corners moved by ``move_corners``: every point and the bar right."""
    from vision.evaluate import score_board
    from vision.reader import BoardReader
    from vision.render import BOARD_STYLES, CHECKER_SCHEMES, RenderOptions, render_board

    scene = render_board(position, RenderOptions(
        seed=seed, hard=False, dice=dice, scheme=CHECKER_SCHEMES[seed % len(CHECKER_SCHEMES)],
        style=BOARD_STYLES[seed % len(BOARD_STYLES)]))
    obs = BoardReader().read(scene.image, corners=move_corners(scene.corners))
    assert score_board(obs, scene.truth)["exact"], (obs.to_json(), scene.truth.to_json())


def solid_board_from_a_seat(seed: int, top: dict[int, tuple[int, int]],
                            bottom: dict[int, tuple[int, int]], slant: float, azimuth: float):
    """A board drawn as solids seen from a seat (``slant`` degrees from vertical, from
    ``azimuth``; see :class:`vision.solid.CameraPose`): ``top`` and ``bottom`` map columns to
    (colour 0 or 1 of the scheme, count)."""
    from vision.observation import BoardObservation
    from vision.render import CHECKER_SCHEMES, RenderOptions, render_board
    from vision.solid import CameraPose

    scheme = CHECKER_SCHEMES[seed % len(CHECKER_SCHEMES)]
    rows = []
    for stacks in (top, bottom):
        row = [None] * 12
        for column, (colour, count) in stacks.items():
            row[column] = (scheme.names[colour], count)
        rows.append(row)
    truth = BoardObservation.from_rows(*rows, scheme.names)
    return render_board(truth, RenderOptions(seed=seed, hard=False, solid=True, dice=False,
                                             scheme=scheme, pose=CameraPose(slant, azimuth)))
