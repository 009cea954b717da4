"""Transforms of a labelled real frame that carry its field corners along exactly.

The labelled real photos are few and each was taken at one scale, one turn in the frame, one
viewpoint and one exposure; the photos the reader will meet differ in all of these.  Each
transform here takes a BGR frame and its four field corners (top-left, top-right, bottom-right,
bottom-left of the field *as labelled*, so the labels' rows stay what they were) and returns the
changed frame with the corners where the same physical corners now are.  All are deterministic:
noise is drawn from a fixed seed.

* :func:`rotate` — the frame turned by 90, 180 or 270 degrees (a phone held the other way);
* :func:`downscale` — the frame resized so the field is about ``width`` pixels wide;
* :func:`tilt` — the photo a camera further round the board would have taken: the camera
  orbits the field's centre by some degrees away from the board's normal, the view re-projected
  through the board plane with a pinhole camera whose principal point is the frame centre (the
  model :func:`calibration.geometry.field_aspect` assumes), moving back when needed so the field
  stays in view; with ``absolute=True`` the camera is put that many degrees from the normal
  instead (a board seen at 35 or 45 degrees, its far half drawn from few pixels per point);
* :func:`exposure` — darker or brighter (a gamma on the 0..1 intensities, and a gain): gamma
  1.8 and 2.2 are a photo under-exposed by a phone in a dim room (its blacks crushed to a few
  levels), 0.55 one taken under a strong lamp;
* :func:`colour_cast` — a white balance gone warm or cool (per-channel gains);
* :func:`jpeg` — JPEG compression at a given quality;
* :func:`sensor_noise` — Gaussian noise, stronger in the dark as on a small sensor;
* :func:`defocus` and :func:`motion_blur` — the frame through a disc or a short line
  point-spread function, in linear light (:func:`to_linear`);
* :func:`glare` — a lamp reflected in a glossy board: a soft bright ellipse of light added in
  linear light and clipped where the sensor saturates.

:data:`TRANSFORMS` names one or a few settings of each (and two combinations: a phone photo, and one
taken in a dim room, under-exposed with the noise and compression a phone adds there) for
``python -m vision.evaluate --set real-aug``.

>>> import numpy as np
>>> frame = np.zeros((100, 200, 3), np.uint8)
>>> corners = ((20.0, 10.0), (180.0, 10.0), (180.0, 90.0), (20.0, 90.0))
>>> image, moved = rotate(frame, corners, 90)
>>> image.shape, moved[0]
((200, 100, 3), (89.0, 20.0))
>>> image, moved = downscale(frame, corners, width=80)
>>> image.shape, moved[1]
((50, 100, 3), (89.75, 4.75))
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import cv2
import numpy as np

from calibration.colours import linear_to_srgb, srgb_to_linear
from calibration.geometry import TYPICAL_FOCAL, Corners, field_aspect

#: A transform: frame and corners in, frame and corners out.
Transform = Callable[[np.ndarray, Sequence[Sequence[float]]], tuple[np.ndarray, Corners]]


def _as_corners(points: np.ndarray) -> Corners:
    return tuple((float(x), float(y)) for x, y in np.asarray(points, np.float64).reshape(-1, 2))


def _map_points(matrix: np.ndarray, corners: Sequence[Sequence[float]]) -> Corners:
    """Corners through a 3x3 homography (pixel centres at integer coordinates)."""
    pts = np.asarray(corners, np.float64).reshape(-1, 1, 2)
    return _as_corners(cv2.perspectiveTransform(pts, np.asarray(matrix, np.float64)))


def rotate(frame: np.ndarray, corners: Sequence[Sequence[float]], degrees: int
           ) -> tuple[np.ndarray, Corners]:
    """The frame turned clockwise by 90, 180 or 270 degrees; pixels move exactly, no resampling.

    >>> frame = np.zeros((4, 6, 3), np.uint8); frame[0, 5] = 255   # top-right pixel
    >>> image, (c,) = rotate(frame, [(5, 0)], 90)
    >>> image[int(c[1]), int(c[0])].tolist(), c
    ([255, 255, 255], (3.0, 5.0))
    """
    h, w = frame.shape[:2]
    codes = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
    if degrees % 360 == 0:
        return frame.copy(), _as_corners(np.asarray(corners))
    if degrees % 360 not in codes:
        raise ValueError(f"rotate by 90, 180 or 270 degrees, not {degrees}")
    degrees %= 360
    # Pixel (x, y) goes to: 90 cw (h-1-y, x); 180 (w-1-x, h-1-y); 270 cw (y, w-1-x).
    matrix = {90: [[0, -1, h - 1], [1, 0, 0], [0, 0, 1]],
              180: [[-1, 0, w - 1], [0, -1, h - 1], [0, 0, 1]],
              270: [[0, 1, 0], [-1, 0, w - 1], [0, 0, 1]]}[degrees]
    return cv2.rotate(frame, codes[degrees]), _map_points(np.float64(matrix), corners)


def field_width(corners: Sequence[Sequence[float]]) -> float:
    """The field's width in pixels: the mean length of its top and bottom sides.

    >>> field_width(((0, 0), (100, 0), (110, 50), (-10, 50)))
    110.0
    """
    q = np.asarray(corners, np.float64)
    return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)


def downscale(frame: np.ndarray, corners: Sequence[Sequence[float]], width: float = 600
              ) -> tuple[np.ndarray, Corners]:
    """The frame resized (area averaging) so the field is about ``width`` pixels wide; never
    enlarged.  Corners follow the exact per-axis scale of the rounded image size."""
    scale = min(1.0, width / max(field_width(corners), 1e-6))
    h, w = frame.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    sx, sy = size[0] / w, size[1] / h
    # Pixel centres at integers: x' + 0.5 = (x + 0.5) * scale.
    matrix = np.float64([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1]])
    image = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return image, _map_points(matrix, corners)


def camera_matrix(frame_size: tuple[int, int]) -> np.ndarray:
    """The assumed pinhole camera of a ``(width, height)`` frame: principal point at its centre.

    >>> camera_matrix((200, 100))[:, 2].tolist()
    [99.5, 49.5, 1.0]
    """
    w, h = frame_size
    f = TYPICAL_FOCAL * max(w, h)
    return np.float64([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]])


def board_pose(corners: Sequence[Sequence[float]], frame_size: tuple[int, int]
               ) -> tuple[np.ndarray, np.ndarray, float]:
    """The field's rotation ``R`` and position ``t`` in the assumed camera's coordinates, for a
    field one unit wide and ``aspect`` high (its true aspect recovered from the corners by
    :func:`calibration.geometry.field_aspect`): board point ``(u, v, 0)`` is at
    ``R @ (u, v, 0) + t``, ``u`` along the top edge, ``v`` down the left edge."""
    aspect = field_aspect(tuple(map(tuple, corners)), frame_size)
    board = np.float64([[0, 0, 0], [1, 0, 0], [1, aspect, 0], [0, aspect, 0]])
    image = np.asarray(corners, np.float64).reshape(4, 1, 2)
    ok, rvec, tvec = cv2.solvePnP(board, image, camera_matrix(frame_size), None,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not (ok and np.isfinite(rvec).all() and np.isfinite(tvec).all()):
        # IPPE returns NaN for some exact views of a rectangle; the iterative fit does not.
        ok, rvec, tvec = cv2.solvePnP(board, image, camera_matrix(frame_size), None,
                                      flags=cv2.SOLVEPNP_ITERATIVE)
    if not ok:
        raise ValueError("no board pose fits these corners")
    return cv2.Rodrigues(rvec)[0], tvec.reshape(3), aspect


def tilt_matrix(corners: Sequence[Sequence[float]], frame_size: tuple[int, int],
                degrees: float, azimuth: float | None = None, margin: float = 0.04,
                absolute: bool = False) -> np.ndarray:
    """The homography from the frame to the frame a camera orbited ``degrees`` further from the
    board's normal would see (see :func:`tilt`); with ``absolute``, the camera is instead put
    ``degrees`` from the normal (the board seen at that slant, whatever the photo's own).

    ``azimuth`` (degrees, in the board plane from its top edge's direction towards its left edge's)
    is the way the camera moves; None moves it the way it already leans, so the view gets more
    slanted (a camera nearly overhead moves towards the bottom edge: the players' side).
    """
    w, h = frame_size
    K = camera_matrix(frame_size)
    R, t, aspect = board_pose(corners, frame_size)
    normal = R[:, 2]
    centre = R @ np.float64([0.5, aspect / 2, 0]) + t
    if normal @ centre > 0:  # the normal that faces the camera
        normal = -normal
    if azimuth is None:
        lean = -centre - (-centre @ normal) * normal  # camera offset from the normal, in plane
        if np.linalg.norm(lean) < 0.05 * np.linalg.norm(centre):
            lean = R[:, 1]  # nearly overhead: towards the bottom edge
        direction = lean / np.linalg.norm(lean)
    else:
        a = math.radians(azimuth)
        direction = math.cos(a) * R[:, 0] + math.sin(a) * R[:, 1]
    if absolute:
        # The smallest turn about the field centre taking the camera's bearing to the one wanted.
        now = -centre / np.linalg.norm(centre)
        a = math.radians(degrees)
        wanted = math.cos(a) * normal + math.sin(a) * direction
        axis = np.cross(now, wanted)
        angle = math.atan2(float(np.linalg.norm(axis)), float(now @ wanted))
        Q = (cv2.Rodrigues(axis / np.linalg.norm(axis) * angle)[0] if angle > 1e-9
             else np.eye(3))
    else:
        # Turning about normal x direction takes the camera's offset towards direction.
        axis = np.cross(normal, direction)
        Q = cv2.Rodrigues(axis / np.linalg.norm(axis) * math.radians(degrees))[0]
    board = np.float64([[0, 0, 0], [1, 0, 0], [1, aspect, 0], [0, aspect, 0]])
    if absolute:
        # The board plane exactly through the corners (the fitted pose only nearly reprojects
        # them when they are not quite a rectangle seen by this camera), so the corners land on
        # the new pose's view of the rectangle and the slant asked for is the slant seen.
        H_old = cv2.getPerspectiveTransform(np.float32(board[:, :2]),
                                            np.float32(np.asarray(corners, np.float64)))
    else:
        # The fitted pose's view of the plane (the corners still move exactly with the pixels);
        # kept so the relative tilts give the frames they always gave.
        H_old = K @ np.column_stack([R[:, 0], R[:, 1], t])
    distance = 1.0
    for _ in range(20):
        # Camera centre orbited about the field centre, then moved back along the same line.
        camera = centre + distance * (Q @ (-centre))
        R_new, t_new = Q.T @ R, Q.T @ (t - camera)
        H_new = K @ np.column_stack([R_new[:, 0], R_new[:, 1], t_new])
        pts = (board @ R_new.T + t_new) @ K.T
        pts = pts[:, :2] / pts[:, 2:3]
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        room = np.float64([w, h]) * (1 - 2 * margin)
        spread = np.maximum(np.abs(lo - K[:2, 2]), np.abs(hi - K[:2, 2])) * 2
        need = float(np.max(spread / room))
        if need <= 1.0:
            break
        distance *= need * 1.02
    return H_new @ np.linalg.inv(H_old)


def view_angle(corners: Sequence[Sequence[float]], frame_size: tuple[int, int]) -> float:
    """Degrees between the board's normal and the line from the field's centre to the camera
    (0: seen from straight above), for the assumed camera of :func:`camera_matrix`.

    >>> square_on = ((169.5, 59.5), (469.5, 59.5), (469.5, 299.5), (169.5, 299.5))
    >>> round(view_angle(square_on, (640, 360)), 1)   # centred on the principal point
    0.0
    """
    R, t, aspect = board_pose(corners, frame_size)
    centre = R @ np.float64([0.5, aspect / 2, 0]) + t
    cosine = abs(float(R[:, 2] @ centre)) / float(np.linalg.norm(centre))
    return math.degrees(math.acos(min(1.0, cosine)))


def tilt(frame: np.ndarray, corners: Sequence[Sequence[float]], degrees: float = 20,
         azimuth: float | None = None, absolute: bool = False) -> tuple[np.ndarray, Corners]:
    """The photo a camera orbited ``degrees`` further round the field's centre would take (with
    ``absolute``: a camera ``degrees`` from the board's normal, see :func:`tilt_matrix`).

    The frame is re-projected through the board plane (things standing on it lean a little, as
    they would not in a real photo; checkers are thin), so the field corners move exactly.  Parts
    of the new view the old photo did not see are filled with the frame border's median colour.
    The far part of the field is drawn from fewer pixels of the new frame, as in a real slanted
    photo; the near part is enlarged from the old one, so it is softer than a real photo's.

    >>> frame = np.full((360, 640, 3), 90, np.uint8)
    >>> corners = ((170, 60), (470, 60), (470, 300), (170, 300))
    >>> image, moved = tilt(frame, corners, 20)
    >>> top, bottom = moved[1][0] - moved[0][0], moved[2][0] - moved[3][0]
    >>> image.shape == frame.shape, round(top), round(bottom)   # the top edge now further away
    (True, 280, 323)
    >>> round(view_angle(tilt(frame, corners, 45, azimuth=270, absolute=True)[1], (640, 360)), 1)
    45.0
    """
    h, w = frame.shape[:2]
    matrix = tilt_matrix(corners, (w, h), degrees, azimuth, absolute=absolute)
    border = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]]).reshape(-1, 3)
    fill = tuple(float(v) for v in np.median(border, axis=0))
    image = cv2.warpPerspective(frame, matrix, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    return image, _map_points(matrix, corners)


def exposure(frame: np.ndarray, corners: Sequence[Sequence[float]], gamma: float = 1.0,
             gain: float = 1.0) -> tuple[np.ndarray, Corners]:
    """Intensities ``255 * gain * (v / 255) ** gamma``: gamma > 1 darkens the mid-tones (an
    under-exposed photo), < 1 brightens them; the gain scales all (clipped highlights when > 1).

    >>> frame = np.full((1, 1, 3), 128, np.uint8)
    >>> exposure(frame, [(0, 0)] * 4, gamma=2.0)[0].ravel().tolist()
    [64, 64, 64]
    """
    lut = 255 * gain * (np.arange(256) / 255.0) ** gamma
    lut = np.clip(np.round(lut), 0, 255).astype(np.uint8)
    return cv2.LUT(frame, lut), _as_corners(np.asarray(corners))


def colour_cast(frame: np.ndarray, corners: Sequence[Sequence[float]],
                gains: tuple[float, float, float]) -> tuple[np.ndarray, Corners]:
    """Per-channel gains (B, G, R): a white balance set for other light.  Warm (tungsten, white
    balance left on daylight) is about ``(0.7, 0.95, 1.15)``; cool (shade) ``(1.2, 1.0, 0.8)``.

    >>> frame = np.full((1, 1, 3), 100, np.uint8)
    >>> colour_cast(frame, [(0, 0)] * 4, (0.7, 1.0, 1.2))[0].ravel().tolist()
    [70, 100, 120]
    """
    out = frame.astype(np.float32) * np.float32(gains)
    return np.clip(np.round(out), 0, 255).astype(np.uint8), _as_corners(np.asarray(corners))


def jpeg(frame: np.ndarray, corners: Sequence[Sequence[float]], quality: int = 60
         ) -> tuple[np.ndarray, Corners]:
    """The frame encoded as JPEG at ``quality`` and decoded again."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR), _as_corners(np.asarray(corners))


def sensor_noise(frame: np.ndarray, corners: Sequence[Sequence[float]], sigma: float = 8.0,
                 seed: int = 0) -> tuple[np.ndarray, Corners]:
    """Gaussian noise per pixel and channel, ``sigma`` grey levels in the dark falling to half of
    it in the highlights (shot noise grows with the signal but a phone's gain in dim light
    dominates), from a fixed ``seed``.

    >>> frame = np.full((50, 50, 3), 60, np.uint8)
    >>> a, _ = sensor_noise(frame, [(0, 0)] * 4, 8.0)
    >>> b, _ = sensor_noise(frame, [(0, 0)] * 4, 8.0)
    >>> bool((a == b).all()), 5 < float(a.std()) < 9
    (True, True)
    """
    rng = np.random.default_rng(seed)
    values = frame.astype(np.float32)
    scale = sigma * (1 - 0.5 * values / 255)
    out = values + rng.standard_normal(frame.shape, dtype=np.float32) * scale
    return np.clip(np.round(out), 0, 255).astype(np.uint8), _as_corners(np.asarray(corners))


def to_linear(frame: np.ndarray) -> np.ndarray:
    """8-bit sRGB values as linear light in 0..1 (float32): optics blur and light adds there.

    >>> [round(float(v), 3) for v in to_linear(np.uint8([0, 128, 255]))]
    [0.0, 0.216, 1.0]
    """
    lut = srgb_to_linear(np.arange(256) / 255.0).astype(np.float32)
    return lut[frame]


def from_linear(light: np.ndarray) -> np.ndarray:
    """Linear light (clipped to 0..1) back to 8-bit sRGB values; inverse of :func:`to_linear`.

    >>> from_linear(to_linear(np.arange(256, dtype=np.uint8))).tolist() == list(range(256))
    True
    """
    return np.clip(np.round(linear_to_srgb(light) * 255), 0, 255).astype(np.uint8)


def _point_spread(frame: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The frame seen through a point-spread function (normalised here), in linear light; an
    empty one (no blur: a radius or length of 0) leaves the frame as it is."""
    if kernel.sum() <= 0:
        return frame.copy()
    kernel = np.float32(kernel / kernel.sum())
    light = cv2.filter2D(to_linear(frame), -1, kernel, borderType=cv2.BORDER_REFLECT)
    return from_linear(light)


def disc_kernel(radius: float, supersample: int = 8) -> np.ndarray:
    """A uniform disc of ``radius`` pixels, its rim pixels weighted by the share they cover.

    >>> k = disc_kernel(2.0)
    >>> k.shape, round(float(k.sum()), 1), float(k[2, 2]), float(k[0, 0])   # area ~ 4 pi
    ((5, 5), 12.7, 1.0, 0.0)
    """
    half = math.ceil(radius - 1e-9)
    size = 2 * half + 1
    fine = (np.arange(size * supersample) + 0.5) / supersample - half - 0.5
    inside = (fine[None, :] ** 2 + fine[:, None] ** 2 <= radius ** 2).astype(np.float64)
    return inside.reshape(size, supersample, size, supersample).mean(axis=(1, 3))


def line_kernel(length: float, degrees: float, supersample: int = 8) -> np.ndarray:
    """A uniform line segment ``length`` pixels long at ``degrees`` (clockwise from the x axis,
    as the image's y runs down), centred: the path of a point during a short camera shake.

    >>> k = line_kernel(4, 0)
    >>> k.shape, np.round(k[k.shape[0] // 2], 2).tolist()
    ((7, 7), [0.0, 0.5, 1.0, 1.0, 1.0, 0.5, 0.0])
    """
    half = math.ceil(length / 2) + 1
    size = 2 * half + 1
    a = math.radians(degrees)
    fine = (np.arange(size * supersample) + 0.5) / supersample - half - 0.5
    xs, ys = np.meshgrid(fine, fine)
    along = xs * math.cos(a) + ys * math.sin(a)
    across = -xs * math.sin(a) + ys * math.cos(a)
    # A segment one pixel thick: each pixel weighted by the length of the path it sees.
    inside = (np.abs(along) <= length / 2) & (np.abs(across) <= 0.5)
    return inside.astype(np.float64).reshape(size, supersample, size, supersample).mean(axis=(1, 3))


def defocus(frame: np.ndarray, corners: Sequence[Sequence[float]], radius: float = 3.0
            ) -> tuple[np.ndarray, Corners]:
    """Out of focus: each point spread over a disc of ``radius`` pixels (the lens's aperture
    imaged out of focus), in linear light.  Symmetric, so the corners stay where they were.

    >>> frame = np.zeros((21, 21, 3), np.uint8); frame[10, 10] = 255
    >>> image, _ = defocus(frame, [(0, 0)] * 4, 3.0)
    >>> int((image[..., 0] > 0).sum()), bool(image[10, 10, 0] == image[10, 12, 0])
    (37, True)
    """
    return _point_spread(frame, disc_kernel(radius)), _as_corners(np.asarray(corners))


def motion_blur(frame: np.ndarray, corners: Sequence[Sequence[float]], length: float = 6.0,
                degrees: float = 30.0) -> tuple[np.ndarray, Corners]:
    """A hand that moved during the exposure: each point smeared along a ``length``-pixel line at
    ``degrees``, in linear light.  Centred, so the corners stay where they were."""
    return _point_spread(frame, line_kernel(length, degrees)), _as_corners(np.asarray(corners))


def glare(frame: np.ndarray, corners: Sequence[Sequence[float]],
          at: tuple[float, float] = (0.3, 0.3), size: tuple[float, float] = (0.12, 0.07),
          degrees: float = 25.0, strength: float = 0.8,
          colour: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> tuple[np.ndarray, Corners]:
    """A lamp reflected in a glossy board: a soft bright ellipse of light added in linear light
    and clipped (a sensor saturates), so what lies beneath washes out towards white.

    ``at`` is the spot's centre as fractions of the field (across the top edge, down the left
    edge, through the corners' perspective); ``size`` its semi-axes as fractions of the field's
    width, the first turned ``degrees`` clockwise from the image's x axis; the light falls off as
    ``strength * exp(-r**2)``, ``r`` the elliptical radius (1 on the ellipse), per channel scaled by
    ``colour`` (B, G, R).

    >>> frame = np.full((100, 200, 3), 60, np.uint8)
    >>> corners = ((20.0, 10.0), (180.0, 10.0), (180.0, 90.0), (20.0, 90.0))
    >>> image, _ = glare(frame, corners, at=(0.5, 0.5), strength=1.0)
    >>> int(image[50, 100, 0]), int(image[5, 5, 0])   # saturated at its centre, as was far away
    (255, 60)
    """
    q = np.asarray(corners, np.float64)
    square = np.float64([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_image = cv2.getPerspectiveTransform(np.float32(square), np.float32(q))
    cx, cy = _map_points(to_image, [at])[0]
    width = field_width(corners)
    h, w = frame.shape[:2]
    ys, xs = np.mgrid[:h, :w].astype(np.float32)
    a = math.radians(degrees)
    along = ((xs - cx) * math.cos(a) + (ys - cy) * math.sin(a)) / (size[0] * width)
    across = (-(xs - cx) * math.sin(a) + (ys - cy) * math.cos(a)) / (size[1] * width)
    light = np.float32(strength) * np.exp(-(along ** 2 + across ** 2))
    out = to_linear(frame) + light[..., None] * np.float32(colour)
    return from_linear(out), _as_corners(np.asarray(corners))


def chain(*steps: Transform) -> Transform:
    """Transforms applied one after the other."""
    def apply(frame: np.ndarray, corners: Sequence[Sequence[float]]) -> tuple[np.ndarray, Corners]:
        out, moved = frame, _as_corners(np.asarray(corners))
        for step in steps:
            out, moved = step(out, moved)
        return out, moved
    return apply


#: One setting of each transform (names as printed by ``--set real-aug``), and a phone photo
#: that combines several.
TRANSFORMS: dict[str, Transform] = {
    "rotate 90": lambda f, c: rotate(f, c, 90),
    "rotate 180": lambda f, c: rotate(f, c, 180),
    "rotate 270": lambda f, c: rotate(f, c, 270),
    "field 600 px wide": lambda f, c: downscale(f, c, 600),
    "field 500 px wide": lambda f, c: downscale(f, c, 500),
    "field 400 px wide": lambda f, c: downscale(f, c, 400),
    "field 320 px wide": lambda f, c: downscale(f, c, 320),
    "tilt +20 deg": lambda f, c: tilt(f, c, 20),
    "tilt +20 deg sideways": lambda f, c: tilt(f, c, 20, azimuth=0),
    "seen at 35 deg from the bottom edge": lambda f, c: tilt(f, c, 35, 90, absolute=True),
    "seen at 35 deg from the top edge": lambda f, c: tilt(f, c, 35, 270, absolute=True),
    "seen at 45 deg from the bottom edge": lambda f, c: tilt(f, c, 45, 90, absolute=True),
    "seen at 45 deg from the top edge": lambda f, c: tilt(f, c, 45, 270, absolute=True),
    "seen at 45 deg from the right edge": lambda f, c: tilt(f, c, 45, 0, absolute=True),
    "darker (gamma 1.8)": lambda f, c: exposure(f, c, gamma=1.8),
    "darker still (gamma 2.2)": lambda f, c: exposure(f, c, gamma=2.2),
    "brighter (gamma 0.55)": lambda f, c: exposure(f, c, gamma=0.55),
    "warm cast": lambda f, c: colour_cast(f, c, (0.7, 0.95, 1.15)),
    "cool cast": lambda f, c: colour_cast(f, c, (1.2, 1.0, 0.8)),
    "JPEG quality 60": lambda f, c: jpeg(f, c, 60),
    "sensor noise 8": lambda f, c: sensor_noise(f, c, 8.0),
    # Blur in proportion to the field, so it means as much at any photo size (3.2 and 6.4 px of
    # a 640 px field, whose checkers are about 45 px across).
    "defocus (disc radius 0.5% of field width)": lambda f, c: defocus(
        f, c, 0.005 * field_width(c)),
    "defocus (disc radius 1% of field width)": lambda f, c: defocus(f, c, 0.01 * field_width(c)),
    "motion blur (1% of field width, 30 deg)": lambda f, c: motion_blur(
        f, c, 0.01 * field_width(c), 30),
    "glare spot over the upper left quarter": lambda f, c: glare(f, c, (0.3, 0.3)),
    "glare spot over the lower right points": lambda f, c: glare(f, c, (0.75, 0.8), degrees=-20),
    "phone: tilt 15, rotate 90, 600 px, warm, noise, JPEG 60": chain(
        lambda f, c: tilt(f, c, 15), lambda f, c: rotate(f, c, 90),
        lambda f, c: downscale(f, c, 600), lambda f, c: colour_cast(f, c, (0.8, 0.97, 1.1)),
        lambda f, c: sensor_noise(f, c, 5.0), lambda f, c: jpeg(f, c, 60)),
    "dim room: gamma 1.8, noise 6, JPEG 70": chain(
        lambda f, c: exposure(f, c, gamma=1.8), lambda f, c: sensor_noise(f, c, 6.0),
        lambda f, c: jpeg(f, c, 70)),
    # A phone photo from a player's seat: slanted and the board small in the frame at once.
    "from a seat: 45 deg from the bottom edge, field 400 px": chain(
        lambda f, c: tilt(f, c, 45, 90, absolute=True), lambda f, c: downscale(f, c, 400)),
    "from a seat: 45 deg from the top edge, field 320 px": chain(
        lambda f, c: tilt(f, c, 45, 270, absolute=True), lambda f, c: downscale(f, c, 320)),
    "far and soft: field 400 px, defocus 0.5%, noise 5, JPEG 70": chain(
        lambda f, c: downscale(f, c, 400), lambda f, c: defocus(f, c, 0.005 * field_width(c)),
        lambda f, c: sensor_noise(f, c, 5.0), lambda f, c: jpeg(f, c, 70)),
}
