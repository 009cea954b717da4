"""RingScorer (vision.rings): its maps and samples equal the plain formulas they are written
faster than, and a checker's rim shows as coverage where it should."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import percentile
from engine.position import Position
from vision.reader import rectify
from vision.render import RenderOptions, render_board
from vision.augment import defocus, field_width
from vision.rings import (COVERAGE_ANGLES, DARK_LIGHTNESS, DARK_OFFSET, EDGE_LEVEL, RING_RADII,
                          SOFT_FIELD, RingScorer, soft_norm, softness)


@pytest.fixture(scope="module")
def field() -> tuple[np.ndarray, float]:
    scene = render_board(Position.start(), RenderOptions(seed=5, hard=True))
    rect = rectify(scene.image, scene.corners)
    return rect.field, rect.geometry.checker_radius


def _reference_maps(field: np.ndarray, radius: float, soft: float | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The doubled-angle maps (a, b) by the plain formulas: three-channel filtering, the
    structure tensor summed over the channels, local normalisation (``soft``: the field's
    softness, its neighbourhood's edge level lowered by soft_norm of it, as on a defocused
    field)."""
    lab = cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)
    smooth = cv2.GaussianBlur(lab, (0, 0), max(0.7, radius * 0.06))
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    xx, yy, xy = gx * gx, gy * gy, gx * gy
    jxx = (xx[..., 0] + xx[..., 1]) + xx[..., 2]
    jyy = (yy[..., 0] + yy[..., 1]) + yy[..., 2]
    jxy = (xy[..., 0] + xy[..., 1]) + xy[..., 2]
    energy = jxx + jyy + 1e-6
    mag = np.sqrt(energy)
    cap = float(np.percentile(mag[::2, ::2], 80)) + 1e-3
    size = int(radius * 5) | 1
    # The floor, lowered where the neighbourhood's mean lightness is below DARK_LIGHTNESS.
    # (The neighbourhood's mean lightness on every fourth pixel each way, interpolated.)
    light = cv2.blur(cv2.cvtColor(field, cv2.COLOR_BGR2LAB)[::4, ::4, 0], (size // 4 | 1,) * 2)
    dark = np.minimum((light.astype(np.float32) + DARK_OFFSET) / (DARK_LIGHTNESS + DARK_OFFSET), 1)
    floor = cv2.resize((cap * 0.7 * dark).astype(np.float32), field.shape[1::-1],
                       interpolation=cv2.INTER_LINEAR)
    norm = np.maximum(cv2.blur(mag, (size, size)) * 1.2, floor)
    if soft is not None and soft < SOFT_FIELD:
        norm *= soft_norm(soft)
    weight = np.minimum(mag / norm, 1.0) / energy
    return (jxx - jyy) * weight, 2 * jxy * weight


def test_maps_equal_the_plain_formulas(field: tuple[np.ndarray, float]) -> None:
    """Equal but for float rounding: the smoothing and the Sobel gradients are one separable
    filter each in RingScorer (the maps lie in -1..1; they differ by a few millionths)."""
    image, radius = field
    scorer = RingScorer(image, radius)
    a, b = _reference_maps(image, radius)
    assert scorer.a.dtype == np.float32 and scorer.b.dtype == np.float32
    assert np.abs(scorer.a - a).max() < 1e-4 and np.abs(scorer.b - b).max() < 1e-4
    # Not everywhere 0: the maps show the board's edges.
    assert np.abs(a).max() > 0.9


def _defocused(seed: int, share: float) -> tuple[np.ndarray, float]:
    """The canonical field of a rendered start position (easy frame ``seed``), the frame
    defocused by a disc of ``share`` of the field's width (vision.augment.defocus), and the
    checker radius."""
    scene = render_board(Position.start(), RenderOptions(seed=seed, hard=False))
    image, corners = scene.image, scene.corners
    if share:
        image, corners = defocus(image, corners, share * field_width(corners))
    rect = rectify(image, corners)
    return rect.field, rect.geometry.checker_radius


def test_a_defocused_field_measures_soft_and_its_rims_count_from_a_weaker_gradient() -> None:
    """A rendered board measures sharp (softness near 2), its frame defocused by 1% of the
    field's width soft (below SOFT_FIELD, as the real photos so defocused are); the soft
    field's maps are the plain formulas with the edge level lowered by soft_norm."""
    sharp_field, _ = _defocused(2, 0.0)
    soft_field, radius = _defocused(2, 0.01)
    lightness = (cv2.cvtColor(f, cv2.COLOR_BGR2LAB)[..., 0] for f in (sharp_field, soft_field))
    sharp, soft = (softness(plane) for plane in lightness)
    assert sharp > 1.7 and soft < SOFT_FIELD - 0.05, (sharp, soft)
    scorer = RingScorer(soft_field, radius)
    # (The scorer's fine gradients are its own, smoothed at 0.06 radii when that is more than
    # SOFT_FINE_SIGMA.)
    assert scorer.softness == pytest.approx(soft, abs=0.01)
    a, b = _reference_maps(soft_field, radius, soft=scorer.softness)
    assert np.abs(scorer.a - a).max() < 1e-4 and np.abs(scorer.b - b).max() < 1e-4


def test_coverage_equals_sampling_each_ring_direction(field: tuple[np.ndarray, float]) -> None:
    image, radius = field
    h, w = image.shape[:2]
    box = (0.0, 6.0, float(w), h - 6.0)
    scorer = RingScorer(image, radius, box)
    rng = np.random.default_rng(0)
    # Centres anywhere, some with rings leaving the field box and the image.
    cx = rng.uniform(-radius, w + radius, 60).astype(np.float32)
    cy = rng.uniform(-radius, h + radius, 60).astype(np.float32)
    angles = np.linspace(0, 2 * np.pi, COVERAGE_ANGLES, endpoint=False)
    for edge_up in (True, False):
        shares = scorer.coverage(cx, cy, edge_up)
        for i in range(len(cx)):
            inside, hit = [], []
            for t in angles:
                ring = []
                for share in RING_RADII:
                    r = radius * np.float32(share)
                    x = int(np.rint(cx[i] + r * np.cos(t)))
                    y = int(np.rint(cy[i] + r * np.sin(t)))
                    if share == RING_RADII[len(RING_RADII) // 2]:
                        inside.append(box[1] <= y < box[3] and 0 <= x < w)
                    x, y = min(max(x, 0), w - 1), min(max(y, 0), h - 1)
                    ring.append(scorer.a[y, x] * np.float32(np.cos(2 * t))
                                + scorer.b[y, x] * np.float32(np.sin(2 * t)))
                hit.append(max(ring) > EDGE_LEVEL and inside[-1])
            up = np.sin(angles) < -np.cos(np.radians(55))
            down = np.sin(angles) > np.cos(np.radians(55))
            near, far = (up, down) if edge_up else (down, up)
            for column, arc in enumerate([np.ones_like(near), ~far, ~near, far]):
                seen = sum(v for v, k in zip(inside, arc) if k)
                got = sum(v for v, k in zip(hit, arc) if k) / max(seen, 1)
                total = arc.sum()
                want = got - 0.4 * max(0.75 - seen / total, 0) if seen >= 0.5 * total else 0.0
                assert shares[column][i] == pytest.approx(want, abs=1e-6)


def test_score_is_the_coarse_map_at_the_nearest_pixel(field: tuple[np.ndarray, float]) -> None:
    image, radius = field
    scorer = RingScorer(image, radius)
    xs = np.array([-3.2, 0.4, 17.5, 100.49, 500.0], np.float32)[:, None]
    ys = np.array([-1.0, 2.6, 40.5, 1000.0], np.float32)[None, :]
    want = scorer.map[np.clip(np.rint(ys).astype(int), 0, scorer.height - 1),
                      np.clip(np.rint(xs).astype(int), 0, scorer.width - 1)]
    assert np.array_equal(scorer.score(xs, ys), want)


def test_a_lone_disc_is_covered_all_round_at_its_centre_only() -> None:
    image = np.full((160, 200, 3), 70, np.uint8)
    cv2.circle(image, (100, 80), 14, (210, 220, 230), -1)
    scorer = RingScorer(image, 14.0)
    full, no_far, no_near, far = scorer.coverage(np.float32([100, 100, 40]),
                                                 np.float32([80, 80 + 14, 40]))
    assert full[0] == 1.0 and no_far[0] == 1.0 and no_near[0] == 1.0 and far[0] == 1.0
    assert full[1] < 0.6 and full[2] == 0.0


def _dark_and_light_board() -> np.ndarray:
    """A black frame holding a black checker (its rim a little lighter than the frame, as a
    glossy edge is) beside a striped light field with white checkers: the stripes set the
    field-wide strong-edge level, as a board's points do."""
    image = np.full((160, 320, 3), 150, np.uint8)
    image[:, 110:][np.arange(160) // 6 % 2 == 0] = 90
    image[:, :110] = 14
    cv2.circle(image, (55, 80), 14, (48, 48, 48), -1)
    cv2.circle(image, (55, 80), 12, (22, 22, 22), -1)
    for x in (170, 230, 290):
        cv2.circle(image, (x, 80), 14, (245, 245, 245), -1)
    noise = np.random.default_rng(2).normal(0, 1.5, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def test_a_black_rim_on_a_black_frame_stays_covered_in_a_darker_photo() -> None:
    """A gamma of 1.8 (an underexposed photo) squeezes the black rim's contrast far below the
    field's strong edges; relative to the dark around it, it is still a rim.  The flat black
    with its noise still rings nowhere."""
    image = _dark_and_light_board()
    darker = np.clip(255 * (image / 255.0) ** 1.8, 0, 255).astype(np.uint8)
    centres = np.float32([55, 170, 20, 60]), np.float32([80, 80, 30, 130])
    for frame in (image, darker):
        full = RingScorer(frame, 14.0).coverage(*centres)[0]
        assert full.tolist() == [1.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_percentile_equals_numpys(dtype: type) -> None:
    """The one-partition percentile RingScorer sets its edge cap with (ties and all)."""
    rng = np.random.default_rng(4)
    for size in (1, 2, 3, 7, 100, 4097):
        for values in ((rng.normal(size=size) * 50).astype(dtype),
                       rng.integers(0, 4, size).astype(dtype)):
            for q in (0, 10, 50, 75, 80, 90, 97, 100):
                got, want = percentile(values, q), np.percentile(values, q)
                assert got == want and type(got) is type(want)


def test_coverage_per_centre_sides_equals_one_call_per_side(field: tuple[np.ndarray, float]
                                                            ) -> None:
    """Centres of both rows sampled in one call (edge_up per centre) get the shares each
    row's own call gives."""
    image, radius = field
    h, w = image.shape[:2]
    scorer = RingScorer(image, radius, (0.0, 4.0, float(w), h - 4.0))
    rng = np.random.default_rng(5)
    cx = rng.uniform(0, w, 80).astype(np.float32)
    cy = rng.uniform(0, h, 80).astype(np.float32)
    edge_up = rng.random(80) < 0.5
    together = scorer.coverage_and_contact_free(cx, cy, edge_up)
    for side in (True, False):
        alone = scorer.coverage_and_contact_free(cx[edge_up == side], cy[edge_up == side], side)
        for got, want in zip(together, alone):
            assert got.dtype == want.dtype
            assert np.array_equal(got[edge_up == side], want)
