"""vision.exposure: a black checker's rim crushed by under-exposure shows again in the ring
evidence, a well exposed field is left as it is, and the expansion of the darks stops where it
would make their noise ring like rims."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.position import Position
from vision import exposure, rings
from vision.augment import exposure as expose
from vision.checkers import COVERAGE_THRESHOLD
from vision.reader import rectify
from vision.render import RenderOptions, render_board
from vision.rings import RingScorer

RADIUS = 12.0
BLACK_CHECKER = (35.0, 80.0)


def dark_corner_board() -> np.ndarray:
    """A tan field with rows of white and red checkers, and a black strip (a black point, the
    frame) with one black checker on it: the bright rims set the field's edge level."""
    field = np.full((160, 240, 3), (120, 170, 200), np.uint8)
    field[:, :70] = (22, 22, 24)
    for y in (20, 45, 70, 95, 120):
        cv2.circle(field, (150, y), int(RADIUS), (235, 240, 240), -1, cv2.LINE_AA)
        cv2.circle(field, (205, y), int(RADIUS), (60, 90, 170), -1, cv2.LINE_AA)
    cv2.circle(field, tuple(int(v) for v in BLACK_CHECKER), int(RADIUS), (40, 40, 42), -1,
               cv2.LINE_AA)
    return cv2.GaussianBlur(field, (0, 0), 0.8)


def black_checker_coverage(field: np.ndarray) -> float:
    x, y = BLACK_CHECKER
    return float(RingScorer(field, RADIUS).coverage(np.array([x]), np.array([y]))[0][0])


def test_an_under_exposed_black_checker_shows_its_rim(monkeypatch: pytest.MonkeyPatch) -> None:
    field = dark_corner_board()
    assert black_checker_coverage(field) >= COVERAGE_THRESHOLD
    dark, _ = expose(field, [(0, 0)] * 4, gamma=2.2)
    lightness = cv2.cvtColor(dark, cv2.COLOR_BGR2LAB)[..., 0]
    assert exposure.black_level(lightness) < exposure.WELL_EXPOSED_BLACK
    assert black_checker_coverage(dark) >= COVERAGE_THRESHOLD
    # The rim comes back because of the expanded darks: on the plain Lab lightness the
    # crushed rim is too faint beside the bright ones.  (Patched where the ring stage looks it
    # up: the doctests may import vision.exposure a second time.)
    monkeypatch.setattr(rings, "edge_lab", lambda lab8, lab: lab)
    assert black_checker_coverage(dark) < COVERAGE_THRESHOLD


def test_a_well_exposed_field_is_left_as_it_is() -> None:
    scene = render_board(Position.start(), RenderOptions(seed=5, hard=True))
    field = rectify(scene.image, scene.corners).field
    lab8 = cv2.cvtColor(field, cv2.COLOR_BGR2LAB)
    lab = lab8.astype(np.float32)
    assert exposure.black_level(lab8[..., 0]) >= exposure.WELL_EXPOSED_BLACK
    assert exposure.edge_lab(lab8, lab) is lab


@pytest.mark.parametrize("sigma", [0.0, 1.0, 3.0, 6.0])
def test_the_darks_noise_is_not_raised_past_the_limit(sigma: float) -> None:
    rng = np.random.default_rng(int(sigma * 10))
    lightness = np.full((120, 160), 130, np.float64)
    lightness[:, :100] = 3 + rng.normal(0, sigma, (120, 100))  # crushed blacks, with noise
    lab8 = np.dstack([np.clip(np.round(lightness), 0, 255).astype(np.uint8),
                      np.full((120, 160), 128, np.uint8), np.full((120, 160), 128, np.uint8)])
    toned = exposure.edge_lab(lab8, lab8.astype(np.float32))[..., 0]
    black = exposure.black_level(lab8[..., 0])
    gain = exposure.dark_gain(black, exposure.dark_noise(lab8[..., 0]))
    assert gain > 1.5  # crushed blacks are expanded ...
    # ... while their noise stays within the limit (a little over it allowed: the toe is
    # steeper below the black level, where noise reaching down to zero falls).
    assert float(toned[:, :100].std()) <= exposure.NOISE_LIMIT * 1.1
    # and the mid-tones keep their lightness
    assert np.all(toned[:, 100:] == 130)


def test_tone_curve_is_continuous_and_rising() -> None:
    for gain, black in ((1.5, 8.0), (4.0, 2.0), (15.0, 0.0)):
        curve = exposure.tone_curve(gain, black)
        assert np.all(np.diff(curve) > 0)
        knee = int(exposure.DARK_KNEE)
        assert abs(float(curve[knee] - curve[knee - 1]) - 1) < 0.05
        assert np.array_equal(curve[knee:], np.arange(knee, 256, dtype=np.float32))
