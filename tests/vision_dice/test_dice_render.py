"""The dice renderer draws what it says: the right number of pips, where it says, every style."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice.faces import PIP_LAYOUTS
from vision.dice.render import CUBE_VALUES, STYLES, draw_die, draw_doubling_cube
from vision.dice.scenes import make_scene


def _pip_count(image: np.ndarray, die, style) -> int:
    """Count blobs of the pip colour inside the drawn top face."""
    mask = np.zeros(image.shape[:2], np.uint8)
    inner = die.top_face.mean(axis=0) + 0.9 * (die.top_face - die.top_face.mean(axis=0))
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
    distance_to_pip = np.linalg.norm(image.astype(float) - np.array(style.pips, float), axis=2)
    distance_to_body = np.linalg.norm(image.astype(float) - np.array(style.body, float), axis=2)
    pips = ((distance_to_pip < distance_to_body) & (mask > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(pips)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 4)


@pytest.mark.parametrize("style_name", sorted(STYLES))
@pytest.mark.parametrize("value", range(1, 7))
def test_top_face_shows_its_value(style_name, value):
    style = STYLES[style_name]
    image = np.full((120, 120, 3), (60, 120, 40), np.uint8)
    die = draw_die(image, (60, 60), 60, value, angle_deg=17 * value, style=style_name, rng=np.random.default_rng(value))
    assert die.value == value and not die.cocked
    assert _pip_count(image, die, style) == len(PIP_LAYOUTS[value])
    assert np.allclose(die.centre, (60, 60), atol=0.5)


def test_only_the_patch_around_the_die_changes():
    image = np.full((200, 200, 3), 90, np.uint8)
    before = image.copy()
    die = draw_die(image, (50, 60), 30, 3, style="black")
    changed = np.argwhere((image != before).any(axis=2))
    (y0, x0), (y1, x1) = changed.min(axis=0), changed.max(axis=0)
    assert 50 - 30 <= x0 and x1 <= 50 + 50 and 60 - 30 <= y0 and y1 <= 60 + 50
    assert die.bbox[0] < 50 < die.bbox[2]


def test_die_at_the_frame_edge_is_clipped_not_an_error():
    image = np.zeros((50, 50, 3), np.uint8)
    draw_die(image, (2, 48), 30, 6, style="white")
    assert image[45:, :5].mean() > 50


def test_cocked_die_shows_a_side_face_and_expects_no_value():
    flat, cocked = (np.full((100, 100, 3), 50, np.uint8) for _ in range(2))
    d_flat = draw_die(flat, (50, 50), 40, 2, style="white", rng=np.random.default_rng(1))
    d_cocked = draw_die(cocked, (50, 50), 40, 2, style="white", cocked=True, tilt_deg=35, rng=np.random.default_rng(1))
    assert d_cocked.expected_value is None and d_flat.expected_value == 2
    # The tilted top face is foreshortened: its area shrinks by cos(35 degrees).
    area = lambda d: cv2.contourArea(d.top_face.astype(np.float32))  # noqa: E731
    assert area(d_cocked) == pytest.approx(area(d_flat) * np.cos(np.radians(35)), rel=0.02)


def test_bad_arguments_are_refused():
    image = np.zeros((40, 40, 3), np.uint8)
    with pytest.raises(ValueError):
        draw_die(image, (20, 20), 20, 7)
    with pytest.raises(ValueError):
        draw_die(image, (20, 20), 1, 3)
    with pytest.raises(ValueError):
        draw_doubling_cube(image, (20, 20), 20, 3)
    with pytest.raises(KeyError):
        draw_die(image, (20, 20), 20, 3, style="tartan")


def test_doubling_cube_is_drawn_with_its_number():
    image = np.full((100, 100, 3), 60, np.uint8)
    box = draw_doubling_cube(image, (50, 50), 50, CUBE_VALUES[-1], angle_deg=10)
    x0, y0, x1, y1 = map(int, box)
    face = image[y0:y1, x0:x1]
    assert (face.mean(axis=2) > 180).mean() > 0.3     # white body
    assert (face.mean(axis=2) < 80).sum() > 50        # dark digits


def test_scenes_are_reproducible_and_labelled():
    a, b = make_scene(11), make_scene(11)
    assert np.array_equal(a.image, b.image)
    assert a.dice == b.dice
    for die in a.dice:
        x, y = die.centre
        assert 0 <= x < a.image.shape[1] and 0 <= y < a.image.shape[0]
    assert not np.array_equal(make_scene(12).image, a.image)
