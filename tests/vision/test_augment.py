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
