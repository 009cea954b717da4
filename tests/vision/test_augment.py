"""vision.augment: every transform carries the field corners to where the same corners are
drawn in the transformed frame."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import augment

CORNERS = ((150.0, 70.0), (500.0, 62.0), (520.0, 330.0), (130.0, 320.0))
MARK_COLOURS = ((0, 0, 255), (0, 255, 0), (255, 0, 0), (0, 255, 255))


def marked_frame() -> np.ndarray:
    """A grey 640x400 frame with a coloured dot (radius 4) on each field corner."""
    frame = np.full((400, 640, 3), 110, np.uint8)
    for (x, y), colour in zip(CORNERS, MARK_COLOURS):
        cv2.circle(frame, (int(x * 16), int(y * 16)), 4 * 16, colour, -1, cv2.LINE_AA, 4)
    return frame


def mark_centre(image: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    """Centroid of the pixels nearest ``colour``, weighted by how strongly they show it."""
    distance = np.linalg.norm(image.astype(np.float32) - np.float32(colour), axis=2)
    weight = np.clip(1 - distance / 150, 0, None) ** 2
    ys, xs = np.mgrid[: image.shape[0], : image.shape[1]]
    return np.array([(weight * xs).sum(), (weight * ys).sum()]) / weight.sum()


@pytest.mark.parametrize("name", [n for n in augment.TRANSFORMS if "noise" not in n
                                  and "phone" not in n])
def test_corners_follow_the_pixels(name):
    image, corners = augment.TRANSFORMS[name](marked_frame(), CORNERS)
    assert len(corners) == 4
    for corner, colour in zip(corners, MARK_COLOURS):
        if "cast" in name or "gamma" in name:
            colour = tuple(int(v) for v in augment.TRANSFORMS[name](
                np.uint8([[colour]]), CORNERS)[0][0, 0])
        found = mark_centre(image, colour)
        # A warp shrinks or stretches a dot unevenly: its centroid moves by a fraction of a pixel.
        assert np.hypot(*(found - corner)) < 1.0, (name, corner, found)


def test_rotations_compose_and_keep_corner_order():
    frame = marked_frame()
    image, corners = augment.rotate(frame, CORNERS, 90)
    image, corners = augment.rotate(image, corners, 270)
    assert np.array_equal(image, frame) and corners == CORNERS
    _, turned = augment.rotate(frame, CORNERS, 90)
    # The labelled top-left stays first: the rows keep their labels; the quadrilateral stays
    # clockwise in the image, as calibration.geometry.check_corners wants.
    from calibration.geometry import check_corners
    assert check_corners(turned) == turned


def test_downscale_sets_the_field_width_and_never_enlarges():
    image, corners = augment.downscale(marked_frame(), CORNERS, 200)
    assert abs(augment.field_width(corners) - 200) < 1.5
    same, kept = augment.downscale(marked_frame(), CORNERS, 2000)
    assert same.shape == (400, 640, 3) and np.allclose(kept, CORNERS)


def test_tilt_slants_the_view_and_keeps_the_field_in_frame():
    frame = marked_frame()
    for degrees, azimuth in ((20, None), (25, 0), (15, 90)):
        image, corners = augment.tilt(frame, CORNERS, degrees, azimuth)
        q = np.array(corners)
        assert image.shape == frame.shape
        assert (q >= 0).all() and (q[:, 0] < 640).all() and (q[:, 1] < 400).all()
    # The camera moves towards the field's lower edge: the upper edge recedes and looks shorter.
    _, corners = augment.tilt(frame, CORNERS, 20, azimuth=90)
    q = np.array(corners)
    assert np.linalg.norm(q[1] - q[0]) < 0.95 * np.linalg.norm(q[2] - q[3])


def test_every_transform_is_deterministic():
    frame = marked_frame()
    for name, transform in augment.TRANSFORMS.items():
        a, ca = transform(frame, CORNERS)
        b, cb = transform(frame, CORNERS)
        assert np.array_equal(a, b) and ca == cb, name


@pytest.mark.parametrize("degrees, azimuth", [(35, 90), (45, 90), (45, 270), (45, 0), (0, 90)])
def test_absolute_tilt_reaches_the_slant_and_the_board_stays_flat(degrees, azimuth):
    """The camera ends up ``degrees`` from the board's normal, and the new corners are the same
    flat rectangle seen another way: its true aspect, recovered from them, is unchanged."""
    from calibration.geometry import field_aspect

    frame = marked_frame()
    image, corners = augment.tilt(frame, CORNERS, degrees, azimuth, absolute=True)
    size = (frame.shape[1], frame.shape[0])
    assert abs(augment.view_angle(corners, size) - degrees) < 0.5
    assert abs(field_aspect(corners, size) - field_aspect(CORNERS, size)) < 0.01
    q = np.array(corners)
    assert (q >= 0).all() and (q[:, 0] < 640).all() and (q[:, 1] < 400).all()
    if degrees:
        # The edge the camera moved away from recedes: shorter than the one it moved towards.
        near, far = {90: ((2, 3), (0, 1)), 270: ((0, 1), (2, 3)), 0: ((1, 2), (3, 0))}[azimuth]
        assert np.linalg.norm(q[far[0]] - q[far[1]]) < 0.9 * np.linalg.norm(q[near[0]] - q[near[1]])


def test_absolute_tilt_of_a_square_on_view_to_zero_keeps_the_frame():
    frame = marked_frame()
    square_on = ((169.5, 49.5), (469.5, 49.5), (469.5, 349.5), (169.5, 349.5))
    image, corners = augment.tilt(frame, square_on, 0, absolute=True)
    assert np.allclose(corners, square_on, atol=1e-6)
    assert np.abs(image.astype(int) - frame).max() <= 1


@pytest.mark.parametrize("blur", [lambda f: augment.defocus(f, CORNERS, 4.0),
                                  lambda f: augment.motion_blur(f, CORNERS, 9.0, 30)])
def test_blur_spreads_light_without_gaining_or_losing_it(blur):
    """An even frame stays even; a bright dot spreads out (lower peak, wider) but its light,
    summed in linear light, is kept: a point-spread function redistributes, never adds."""
    flat = np.full((60, 80, 3), 120, np.uint8)
    assert np.array_equal(blur(flat)[0], flat)
    frame = np.zeros((60, 80, 3), np.uint8)
    frame[28:32, 38:42] = 200
    image, corners = blur(frame)
    assert corners == CORNERS
    before, after = augment.to_linear(frame).sum(), augment.to_linear(image).sum()
    assert abs(after - before) < 0.02 * before
    assert image.max() < 200 and (image[..., 0] > 0).sum() > 2 * (frame[..., 0] > 0).sum()


def test_motion_blur_smears_along_its_direction_only():
    frame = np.zeros((41, 41, 3), np.uint8)
    frame[20, 20] = 255
    image, _ = augment.motion_blur(frame, CORNERS, 10.0, 0)
    lit = np.argwhere(image[..., 0] > 0)
    assert set(lit[:, 0]) == {20} and lit[:, 1].min() <= 16 and lit[:, 1].max() >= 24


def test_glare_only_brightens_around_its_spot_and_saturates_at_its_core():
    frame = np.full((400, 640, 3), 40, np.uint8)
    frame[::7] = 180  # some texture, so the clip and the falloff show
    image, corners = augment.glare(frame, CORNERS, at=(0.5, 0.5), strength=1.2)
    assert corners == CORNERS
    assert (image >= frame).all()
    centre = np.array(CORNERS).mean(axis=0)  # the field's centre, near its perspective centre
    x, y = (int(round(v)) for v in centre)
    assert (image[y - 3: y + 4, x - 3: x + 4] == 255).all()
    # Far from the spot (a field corner) nothing changes.
    cx, cy = (int(v) for v in CORNERS[0])
    assert np.array_equal(image[cy - 5: cy + 5, cx - 5: cx + 5], frame[cy - 5: cy + 5, cx - 5: cx + 5])


def test_smaller_fields_reach_their_width():
    for width in (400, 320):
        _, corners = augment.TRANSFORMS[f"field {width} px wide"](marked_frame(), CORNERS)
        # The marked frame's field is only ~380 px wide: 400 keeps it, 320 shrinks it.
        assert abs(augment.field_width(corners) - min(width, augment.field_width(CORNERS))) < 1.5


def test_no_blur_leaves_the_frame():
    frame = marked_frame()
    assert np.array_equal(augment.defocus(frame, CORNERS, 0.0)[0], frame)
    assert np.array_equal(augment.motion_blur(frame, CORNERS, 0.0)[0], frame)
