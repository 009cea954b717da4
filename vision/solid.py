"""Checkers as solids seen by a phone from a seat: the camera, and cylinders drawn exactly.

:mod:`vision.render` draws a board top-down and puts the picture into the frame through the
homography of the board's plane.  A real checker is a cylinder about a quarter of its diameter
thick: seen at a slant, its top face is raised off the board plane, its side wall shows on the
side toward the camera and a near checker hides part of the one behind it.  With
``RenderOptions(solid=True)`` the renderer places a physical camera (:class:`CameraPose`: a
phone held overhead or at a seat, 0-60 degrees from vertical, on any side) and draws every
checker into the top-down canvas as the camera sees it *projected back onto the board plane*:
the frame made through the plane's homography then shows each checker where the camera would.

In the canvas (x, y in canvas pixels on the board plane, heights in canvas pixels above it), a
camera above the point ``C`` at height ``H`` sees a point at height ``h`` above ``p`` where it
sees the board plane at ``C + (p - C) * H / (H - h)`` (:meth:`SolidCamera.onto_board`):

>>> camera = SolidCamera(position=np.array([0.0, 1000.0, 500.0]), matrix=np.eye(3))
>>> camera.onto_board(np.array([[0.0, 0.0, 100.0]])).round(1).tolist()
[[0.0, -250.0]]

Each checker is ray-cast (:func:`draw_cylinders`): every canvas sample casts the camera's ray
through its board-plane point and takes the nearest surface it meets, the top face, the side
wall or (seen from below its plane, for a tilted one) the bottom, with a depth buffer, three by
three samples a pixel.  The top face keeps the flat renderer's look (bevelled rim, groove,
highlight); the side wall is shaded as a glossy cylinder (diffuse light and a specular streak
for the light and the camera); each checker casts a soft shadow on the board.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: A board's playing field (24 points and the bar) is about this wide: the scale from the
#: camera's distance in centimetres to canvas pixels.
FIELD_WIDTH_CM = 48.0
#: A checker's thickness as a share of its diameter (real checkers: about 0.2 to 0.27).
THICKNESS_SHARE = (0.2, 0.27)
#: Slant of a random pose, degrees from vertical: overhead to a seat's low view.
SLANT_RANGE = (0.0, 60.0)
#: A phone's main lens, as focal length over the frame's width (landscape): 0.75 is a wide
#: 26 mm-equivalent lens, 1.3 a short zoom.
FOCAL_RANGE = (0.75, 1.3)
#: Samples per pixel along each axis when ray-casting the checkers (anti-aliasing).
SUPERSAMPLE = 3


@dataclass(frozen=True)
class CameraPose:
    """Where a phone looking at the board is.

    ``slant_deg``: the angle of the line from the field's centre to the camera from vertical
    (0 straight overhead, 60 a seat's low view); ``azimuth_deg``: the direction of the camera's
    foot from the field's centre on the board plane, seen from above with the board upright: 0
    beyond the bottom edge (X's seat), 90 beyond the right end, 180 beyond the top edge (O's
    seat), 270 beyond the left end; ``distance_cm``: from the field's centre to the camera
    (None: as far as the lens needs to frame the board); ``roll_deg``: the phone turned about
    its line of sight.

    >>> pose = CameraPose.at_seat(height_cm=40, ground_cm=40)
    >>> round(pose.slant_deg, 1), round(pose.distance_cm, 1), pose.azimuth_deg
    (45.0, 56.6, 0.0)
    """

    slant_deg: float
    azimuth_deg: float = 0.0
    distance_cm: float | None = None
    roll_deg: float = 0.0

    @classmethod
    def at_seat(cls, height_cm: float, ground_cm: float, azimuth_deg: float = 0.0,
                roll_deg: float = 0.0) -> "CameraPose":
        """A phone ``height_cm`` above the board plane, its foot ``ground_cm`` from the field's
        centre."""
        return cls(math.degrees(math.atan2(ground_cm, height_cm)), azimuth_deg,
                   math.hypot(height_cm, ground_cm), roll_deg)

    @classmethod
    def random(cls, rng: np.random.Generator, slant_range: tuple[float, float] = SLANT_RANGE
               ) -> "CameraPose":
        """Any slant in ``slant_range``, any side, the phone held level within 8 degrees."""
        return cls(float(rng.uniform(*slant_range)), float(rng.uniform(0, 360)), None,
                   float(rng.uniform(-8, 8)))


@dataclass
class SolidCamera:
    """A pinhole camera over the canvas: ``position`` (x, y, height) in canvas pixels and the
    homography ``matrix`` from the canvas (board plane) to the frame."""

    position: np.ndarray
    matrix: np.ndarray
    pose: CameraPose | None = None
    #: Canvas pixels per centimetre on the board.
    px_per_cm: float = 1.0

    def onto_board(self, points: np.ndarray) -> np.ndarray:
        """Where the camera sees points (n x 3: x, y, height) on the board plane (n x 2)."""
        points = np.asarray(points, np.float64)
        c = self.position
        scale = c[2] / (c[2] - points[:, 2:3])
        return c[:2] + (points[:, :2] - c[:2]) * scale

    @property
    def height_cm(self) -> float:
        return float(self.position[2] / self.px_per_cm)


def _look(forward: np.ndarray, azimuth: np.ndarray, roll: float) -> np.ndarray:
    """Rows: the image's right and down axes and the line of sight, for a camera looking along
    ``forward`` from the side ``azimuth`` (a unit vector on the board plane, field centre to
    the camera's foot), the frame's horizontal kept level with the board's edge across that
    side, then turned by ``roll`` radians."""
    f = forward / np.linalg.norm(forward)
    across = np.array([azimuth[1], -azimuth[0], 0.0])   # level, across the line of sight
    u = across - f * (across @ f)
    u /= np.linalg.norm(u)
    v = np.cross(u, f)
    c, s = math.cos(roll), math.sin(roll)
    return np.stack([u * c + v * s, -u * s + v * c, f])


def _homography(rotation: np.ndarray, position: np.ndarray, focal: float,
                frame_size: tuple[int, int]) -> np.ndarray:
    """The board plane (canvas pixels, height 0) to the frame."""
    w, h = frame_size
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1.0]])
    to_camera = np.array([[1, 0, -position[0]], [0, 1, -position[1]], [0, 0, -position[2]]])
    return k @ rotation @ to_camera


def place_camera(outline: np.ndarray, field_centre: tuple[float, float], pose: CameraPose,
                 frame_size: tuple[int, int], px_per_cm: float, rng: np.random.Generator,
                 fill_range: tuple[float, float] = (0.72, 0.97)) -> SolidCamera:
    """The camera of ``pose`` over the canvas, aimed so the board's ``outline`` (4x2, canvas
    pixels) fills a share of the frame drawn from ``fill_range``, placed at random in the room
    left (the principal point stays at the frame's centre: it is a physical camera).  Without a
    distance the lens is a phone's (:data:`FOCAL_RANGE`) and the distance frames the board;
    with one, the focal length does."""
    w, h = frame_size
    slant, azimuth = math.radians(pose.slant_deg), math.radians(pose.azimuth_deg)
    side = np.array([math.sin(azimuth), math.cos(azimuth)])   # 0: toward +y, the bottom edge
    centre = np.array([field_centre[0], field_centre[1], 0.0])
    sight = np.array([side[0] * math.sin(slant), side[1] * math.sin(slant), math.cos(slant)])
    fill = float(rng.uniform(*fill_range))
    offset = rng.uniform(-1, 1, 2)
    focal = w * float(rng.uniform(*FOCAL_RANGE))
    distance = (pose.distance_cm * px_per_cm if pose.distance_cm
                else 1.2 * float(np.abs(outline - centre[:2]).max()) * 2 * focal / w)
    aim = centre.copy()
    for _ in range(40):
        position = centre + sight * distance
        rotation = _look(aim - position, side, math.radians(pose.roll_deg))
        matrix = _homography(rotation, position, focal, frame_size)
        proj = cv2.perspectiveTransform(outline[None].astype(np.float64), matrix)[0]
        span = proj.max(axis=0) - proj.min(axis=0)
        ratio = max(span[0] / (w * fill), span[1] / (h * fill))
        if pose.distance_cm:
            focal /= ratio
        else:
            distance *= ratio
        # Aim at the board-plane point now seen where the outline's box should be centred.
        room = np.maximum((np.array([w, h]) - span) / 2 - 2, 0)
        want_centre = (proj.max(axis=0) + proj.min(axis=0)) / 2 - offset * room
        shift = np.array([w / 2, h / 2]) - want_centre
        seen = cv2.perspectiveTransform(
            np.array([[[w / 2 - shift[0], h / 2 - shift[1]]]], np.float64), np.linalg.inv(matrix))
        aim = np.array([seen[0, 0, 0], seen[0, 0, 1], 0.0])
        if abs(ratio - 1) < 0.005 and np.abs(shift).max() < 0.5:
            break
    position = centre + sight * distance
    rotation = _look(aim - position, side, math.radians(pose.roll_deg))
    return SolidCamera(position, _homography(rotation, position, focal, frame_size), pose,
                       px_per_cm)


@dataclass
class Cylinder:
    """A checker as a solid: the centre of its bottom face (x, y, height; canvas pixels), its
    axis (unit, up), radius and thickness, colour (BGR) and the look of its top face."""

    base: np.ndarray
    axis: np.ndarray
    radius: float
    thickness: float
    colour: np.ndarray
    groove: float = 0.68
    highlight: float = 30.0

    def top_centre(self) -> np.ndarray:
        return self.base + self.axis * self.thickness

    def rims(self, n: int = 24) -> np.ndarray:
        """Points of both rims (2n x 3)."""
        e1, e2 = _basis(self.axis)
        angles = np.linspace(0, 2 * math.pi, n, endpoint=False)
        ring = self.radius * (np.cos(angles)[:, None] * e1 + np.sin(angles)[:, None] * e2)
        return np.vstack([self.base + ring, self.top_centre() + ring])


def _basis(axis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors across ``axis``: for an upright axis the canvas's x and y, so a flat
    checker's face is drawn as the flat renderer draws it."""
    e1 = np.array([1.0, 0, 0]) - axis * axis[0]
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(axis, e1)


def light_direction(rng: np.random.Generator) -> np.ndarray:
    """A room's main light: from any side, 35 to 75 degrees above the board (unit vector
    toward it)."""
    elevation = math.radians(rng.uniform(35, 75))
    turn = rng.uniform(0, 2 * math.pi)
    return np.array([math.cos(turn) * math.cos(elevation), math.sin(turn) * math.cos(elevation),
                     math.sin(elevation)])


def draw_cylinders(img: np.ndarray, cylinders: list[Cylinder], camera: SolidCamera,
                   light: np.ndarray) -> None:
    """Draw ``cylinders`` into the canvas ``img`` (float BGR, in place) as ``camera`` sees them,
    projected onto the board plane: shadows on the board first, then every checker ray-cast
    with a depth buffer (see the module notes)."""
    if not cylinders:
        return
    _cast_shadows(img, cylinders, light)
    ss = SUPERSAMPLE
    boxes = []
    for cyl in cylinders:
        seen = camera.onto_board(cyl.rims())
        lo, hi = np.floor(seen.min(axis=0)) - 2, np.ceil(seen.max(axis=0)) + 2
        boxes.append((max(0, int(lo[0])), max(0, int(lo[1])),
                      min(img.shape[1], int(hi[0])), min(img.shape[0], int(hi[1]))))
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    if x1 <= x0 or y1 <= y0:
        return
    region = img[y0:y1, x0:x1]
    h, w = region.shape[:2]
    fine = cv2.resize(region, (w * ss, h * ss), interpolation=cv2.INTER_NEAREST)
    depth = np.full(fine.shape[:2], np.inf, np.float32)
    for cyl, (bx0, by0, bx1, by1) in zip(cylinders, boxes):
        if bx1 <= bx0 or by1 <= by0:
            continue
        fx0, fy0 = (bx0 - x0) * ss, (by0 - y0) * ss
        fx1, fy1 = (bx1 - x0) * ss, (by1 - y0) * ss
        gx = x0 + (np.arange(fx0, fx1) + 0.5) / ss
        gy = y0 + (np.arange(fy0, fy1) + 0.5) / ss
        hit, colour = _ray_cast(cyl, camera.position, gx, gy, light)
        lam, mask = hit
        window = depth[fy0:fy1, fx0:fx1]
        nearer = mask & (lam < window)
        window[nearer] = lam[nearer]
        fine[fy0:fy1, fx0:fx1][nearer] = colour[nearer]
    region[:] = cv2.resize(fine, (w, h), interpolation=cv2.INTER_AREA)   # each pixel's mean


def _ray_cast(cyl: Cylinder, camera: np.ndarray, gx: np.ndarray, gy: np.ndarray,
              light: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """For the rays from ``camera`` through the board-plane points of the grid ``gx`` x ``gy``:
    where each first meets the cylinder (ray parameter, 1 at the board; and whether it does)
    and the colour it sees there."""
    e1, e2 = _basis(cyl.axis)
    frame = np.stack([e1, e2, cyl.axis])                       # rows: local axes
    origin = frame @ (camera - cyl.base)                       # the camera, local
    dx = gx[None, :] - camera[0]
    dy = gy[:, None] - camera[1]
    dz = -camera[2]
    # Ray directions in local coordinates: frame @ (dx, dy, dz), broadcast over the grid.
    lx = frame[0, 0] * dx + frame[0, 1] * dy + frame[0, 2] * dz
    ly = frame[1, 0] * dx + frame[1, 1] * dy + frame[1, 2] * dz
    lz = frame[2, 0] * dx + frame[2, 1] * dy + frame[2, 2] * dz
    r, t = cyl.radius, cyl.thickness
    inf = np.float64(np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam_top = (t - origin[2]) / lz
        px, py = origin[0] + lam_top * lx, origin[1] + lam_top * ly
        top_ok = (px * px + py * py <= r * r) & (lam_top > 0) & (origin[2] > t)
        lam_bottom = -origin[2] / lz
        qx, qy = origin[0] + lam_bottom * lx, origin[1] + lam_bottom * ly
        bottom_ok = (qx * qx + qy * qy <= r * r) & (lam_bottom > 0) & (origin[2] < 0)
        a = lx * lx + ly * ly
        b = 2 * (origin[0] * lx + origin[1] * ly)
        c = origin[0] ** 2 + origin[1] ** 2 - r * r
        disc = b * b - 4 * a * c
        lam_side = (-b - np.sqrt(np.maximum(disc, 0))) / (2 * a)
        zs = origin[2] + lam_side * lz
        side_ok = (disc > 0) & (lam_side > 0) & (zs >= 0) & (zs <= t)
    lam = np.where(top_ok, lam_top, inf)
    lam = np.where(side_ok & (lam_side < lam), lam_side, lam)
    lam = np.where(bottom_ok & (lam_bottom < lam), lam_bottom, lam)
    mask = np.isfinite(lam)
    on_top = top_ok & (lam == lam_top)
    on_side = mask & ~on_top & side_ok & (lam == lam_side)
    colour = np.zeros(lam.shape + (3,), np.float32)
    base = np.asarray(cyl.colour, np.float32)
    light_checker = float(base.mean()) > 90
    if on_top.any():
        colour[on_top] = _top_face(px[on_top] / r, py[on_top] / r, base, cyl, light_checker)
    if on_side.any():
        sx = origin[0] + lam_side[on_side] * lx[on_side]
        sy = origin[1] + lam_side[on_side] * ly[on_side]
        sz = zs[on_side]
        colour[on_side] = _side_wall(sx / r, sy / r, sz / t, frame, camera, cyl, light, base,
                                     light_checker)
    under = mask & ~on_top & ~on_side
    if under.any():
        colour[under] = base * 0.45
    return (np.where(mask, lam, inf).astype(np.float32), mask), colour


def _top_face(u: np.ndarray, v: np.ndarray, base: np.ndarray, cyl: Cylinder,
              light_checker: bool) -> np.ndarray:
    """The top face's look at local coordinates (``u``, ``v`` in radii): the flat renderer's
    checker (a bevelled rim, a groove, a soft highlight up and to the left)."""
    rho = np.sqrt(u * u + v * v)
    if light_checker:
        rim, groove = base * 0.62, base * 0.8
    else:
        rim, groove = np.minimum(base + 60, 255), np.minimum(base + 25, 255)
    out = np.repeat(base[None], len(u), axis=0)
    out[rho > 0.93] = rim
    out[np.abs(rho - cyl.groove) < 0.03] = groove
    # The highlight: an ellipse a third of the radius up-left, turned 35 degrees, soft-edged.
    du, dv = u + 1 / 3, v + 1 / 3
    angle = math.radians(-35)
    a = (du * math.cos(angle) + dv * math.sin(angle)) / (1 / 3)
    b = (-du * math.sin(angle) + dv * math.cos(angle)) / (1 / 5)
    glow = 1 / (1 + np.exp((np.sqrt(a * a + b * b) - 1) / 0.3))
    return out + (glow * cyl.highlight)[:, None]


def _side_wall(u: np.ndarray, v: np.ndarray, height: np.ndarray, frame: np.ndarray,
               camera: np.ndarray, cyl: Cylinder, light: np.ndarray, base: np.ndarray,
               light_checker: bool) -> np.ndarray:
    """A glossy cylinder's wall at local angle (``u``, ``v`` on the unit circle) and height
    (0 bottom, 1 top): diffuse light on the rim's colour, a specular streak where the wall
    turns the light toward the camera, darker toward the board it stands on."""
    normal = u[:, None] * frame[0] + v[:, None] * frame[1]          # world, horizontal-ish
    point = (cyl.base + (u[:, None] * frame[0] + v[:, None] * frame[1]) * cyl.radius
             + height[:, None] * cyl.thickness * frame[2])
    view = camera - point
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    half = light + view
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    diffuse = np.clip(normal @ light, 0, None)
    specular = np.clip(np.sum(normal * half, axis=1), 0, None) ** 24
    wall = base * 0.72 if light_checker else np.minimum(base + 30, 255)
    contact = 0.75 + 0.25 * np.clip(height * 4, 0, 1)          # shade where it meets the board
    shade = (0.55 + 0.6 * diffuse) * contact
    return wall * shade[:, None] + (specular * 140)[:, None]


def _cast_shadows(img: np.ndarray, cylinders: list[Cylinder], light: np.ndarray) -> None:
    """Each checker's shadow on the board: its outline seen from the light, projected onto the
    board plane, softened, darkening what is drawn there."""
    lean = light[:2] / max(light[2], 1e-3)
    mask = np.zeros(img.shape[:2], np.float32)
    for cyl in cylinders:
        rims = cyl.rims(32)
        flat = rims[:, :2] - rims[:, 2:3] * lean
        hull = cv2.convexHull(np.round(flat * 4).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, 2)
    radius = float(np.median([c.radius for c in cylinders]))
    mask = cv2.GaussianBlur(mask, (0, 0), max(radius * 0.12, 0.8))
    img *= (1 - 0.35 * mask)[..., None]


def shingled_tilts(centres: list[float], radius: float, thickness: float) -> list[float]:
    """Tilts (radians) of the checkers of a stack overlapped along its point, each lying with
    its far edge on the board and its near edge on the checker before (the first flat on the
    board); ``centres``: where each one's bottom face is centred along the point, in order from
    the edge, in canvas pixels.  A checker that does not reach the one before lies flat.  One
    that overlaps it by a third rests on its top edge (19.4 degrees here: its bottom face
    meets the corner at 20 along the point, 4.6 high), not on its face.

    >>> [round(math.degrees(a), 1) for a in shingled_tilts([10.0, 23.6, 37.2], 10.0, 4.6)]
    [0.0, 19.4, 19.8]
    """
    tilts = [0.0]
    for k in range(1, len(centres)):
        before, tilt_before = centres[k - 1], tilts[-1]
        # The one before: its far edge on the board, its top face a line above it.
        far_before = before + radius * math.cos(tilt_before)
        top_far = (far_before + thickness * math.sin(tilt_before),
                   thickness * math.cos(tilt_before))
        direction = (-math.cos(tilt_before), math.sin(tilt_before))

        def top_height(s: float) -> float | None:
            """The top face of the one before above ``s`` along the point (None past it)."""
            u = (top_far[0] - s) / -direction[0] if direction[0] else 0.0
            if u <= 1e-6 or u > 2 * radius:
                return None
            return top_far[1] + u * direction[1]

        def rests(tilt: float) -> bool:
            far = centres[k] + radius * math.cos(tilt)
            near = (far - 2 * radius * math.cos(tilt), 2 * radius * math.sin(tilt))
            height = top_height(near[0])
            if height is not None and near[1] < height:
                return False
            # The corner of the one before must lie under this one's bottom face.
            if near[0] < top_far[0] - 1e-6 and top_far[0] <= far:
                under = (far - top_far[0]) * math.tan(tilt)
                if under < top_far[1]:
                    return False
            return True

        if rests(0.0):
            tilts.append(0.0)
            continue
        lo, hi = 0.0, 1.2
        for _ in range(40):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if rests(mid) else (mid, hi)
        tilts.append(hi)
    return tilts


@dataclass
class SolidView:
    """A solid drawing's set-up and what it made: the camera ``pose``, the random stream of
    the camera, the light and the checkers' thickness (``rng``) and the frame's size; the
    renderer sets ``camera`` once it knows the canvas."""

    pose: CameraPose
    rng: np.random.Generator
    frame_size: tuple[int, int]
    camera: SolidCamera | None = None
    thickness: float = 0.0
