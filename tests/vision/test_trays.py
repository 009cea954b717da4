"""The borne-off trays: the renderer draws them, vision.trays finds and counts them, and the
reader settles ``off`` from the tray and the field."""
from __future__ import annotations

import numpy as np
import pytest

from engine.position import Position
from vision.evaluate import score_off
from vision.reader import BoardReader, settle_off
from vision.render import CHECKER_SCHEMES, RenderOptions, render_board
from vision.observation import BoardObservation
from vision.trays import TrayReading, count_run

#: Eight red (X) and ten blue (O) borne off.
BEARING_OFF = Position.from_points(x={4: 2, 5: 3, 6: 2}, o={4: 3, 5: 2})


def _scene(seed: int):
    return render_board(BEARING_OFF, RenderOptions(seed=seed, hard=False, scheme=CHECKER_SCHEMES[2]))


def test_renderer_puts_the_off_checkers_in_a_tray_and_labels_them():
    scene = _scene(34)
    assert scene.tray_side in ("left", "right")
    assert scene.truth.off == {"red": 8, "blue": 10}
    # The same seed without checkers off draws no tray, and the board keeps its place.
    start = render_board(Position.start(), RenderOptions(seed=34, hard=False,
                                                         scheme=CHECKER_SCHEMES[2]))
    assert start.tray_side is None and start.corners == scene.corners


def test_tray_in_view_is_found_and_counted():
    right = 0
    for seed in (5, 16, 34):
        scene = _scene(seed)
        obs = BoardReader().read(scene.image, corners=scene.corners)
        assert obs.tray_visible, seed
        assert obs.tray_off["red"] == 8, (seed, obs.tray_off)
        assert abs(obs.tray_off["blue"] - 10) <= 1, (seed, obs.tray_off)
        right += obs.tray_off == {"red": 8, "blue": 10}
        # Whatever the tray says, off never contradicts the field's count without a note.
        assert obs.off == {"red": 8, "blue": 10}
        assert obs.off_by_count == (obs.tray_off != obs.off)
        assert obs.off_by_count == any("tray shows" in n for n in obs.notes)
        assert score_off(obs, scene.truth)["off_right"]
    assert right >= 2


def test_no_tray_in_view_falls_back_to_the_count():
    scene = render_board(Position.start(), RenderOptions(seed=3, hard=False))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert obs.tray_visible is False and obs.tray_off is None
    assert obs.off_by_count and sum(obs.off.values()) == 0


def test_settle_off_prefers_agreement_and_notes_disagreement():
    obs = BoardObservation.from_rows([("red", 7)] + [None] * 11, [("blue", 5)] + [None] * 11,
                                     ("red", "blue"))
    settle_off(obs, TrayReading(True, {"red": 8, "blue": 10}, "right", 0.9))
    assert obs.off == {"red": 8, "blue": 10} and not obs.off_by_count and not obs.notes
    settle_off(obs, TrayReading(True, {"red": 8}, "right", 0.9))  # blue not countable there
    assert obs.off == {"red": 8, "blue": 10} and obs.off_by_count and not obs.notes
    settle_off(obs, TrayReading(False))
    assert obs.tray_off is None and obs.off_by_count


def test_a_long_even_run_without_seams_is_the_floor_not_checkers():
    diameter = 40.0
    assert count_run(np.ones(400), np.full(400, 120.0), diameter)[0] is None
    assert count_run(np.ones(8), np.full(8, 120.0), diameter)[0] == 1


@pytest.mark.parametrize("count", [3, 9, 15])
def test_slabs_counted_by_their_seams(count):
    pitch = 10
    luminance = np.tile(np.r_[90.0, np.full(pitch - 1, 200.0)], count)
    n, confidence = count_run(np.ones(len(luminance)), luminance, diameter=44.0)
    assert n == count and confidence > 0.5


def test_a_side_cut_off_by_the_frame_is_not_drawn_and_its_tray_not_read():
    """A frame cut at the field's edge on the tray's side: that strip is not even warped (too
    few columns in view for a tray), and no tray is read on that side, as when the
    strip was drawn and its band found out of the frame."""
    from calibration.geometry import BoardGeometry, field_aspect, with_fourth_channel
    from vision.trays import STRIP_SCALE, TRAY_WIDTH, _side_strip, read_trays

    scene = _scene(34)
    corners = np.asarray(scene.corners, np.float64)
    image = scene.image
    if scene.tray_side == "left":
        cut = int(corners[:, 0].min()) - 2
        image, corners = image[:, cut:], corners - [cut, 0]
    else:
        image = image[:, : int(corners[:, 0].max()) + 3]
    image = np.ascontiguousarray(image)
    corners_t = tuple(map(tuple, corners))
    geometry = BoardGeometry.default(field_aspect(corners_t, (image.shape[1], image.shape[0])))
    least = TRAY_WIDTH[0] * 2 * geometry.checker_radius * STRIP_SCALE + 3
    frame4 = with_fourth_channel(image)
    strip, inside = _side_strip(frame4, corners_t, geometry, scene.tray_side, least)
    assert strip is None and inside.sum() < least
    drawn, _ = _side_strip(frame4, corners_t, geometry, scene.tray_side)
    assert drawn is not None and drawn.shape[1] == len(inside)
    tray = read_trays(frame4, corners_t, geometry, ("red", "blue"),
                      np.float32([[120, 180, 160], [90, 140, 80]]))
    # (The other side, in full view, may show a band of the frame as an empty tray.)
    assert not tray.visible or (tray.side != scene.tray_side and not any(tray.counts.values()))
