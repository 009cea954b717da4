"""Drawing dice (and the doubling cube) onto BGR images, for synthetic test and evaluation frames.

A die is a cube with rounded corners, projected orthographically: seen from straight
above (``view_tilt_deg=0``) a die lying flat shows only its top face; a camera that
looks at the table at an angle (``view_tilt_deg>0``) also shows the side faces facing
it, with their pips, like real photos do.  Faces are shaded by one light, the die casts
a soft shadow, translucent dice let the table and the pips of the hidden faces show
through, glossy dice get a highlight.  A *cocked* die (leaning on a checker or the
board's edge) is tilted 20 to 45 degrees, so two faces are seen at a slant.

Everything is drawn 4x larger and shrunk (anti-aliasing), only in a patch around the die.

>>> import numpy as np
>>> frame = np.full((120, 160, 3), (60, 120, 40), np.uint8)
>>> die = draw_die(frame, (80, 60), 40, 5, angle_deg=30, style="white")
>>> die.value, die.cocked, round(die.centre[0]), round(die.centre[1])
(5, False, 80, 60)
>>> bool(frame[60, 80].mean() < 80)          # the middle pip of a five is black
True
>>> bool(frame[60, 68].mean() > 150)         # the face around it is white
True
>>> sorted(STYLES)[:3]
['black', 'blue', 'green']
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.dice.faces import PIP_LAYOUTS, PIP_RADIUS, opposite_face

#: Supersampling factor: dice are drawn this much larger, then shrunk with area averaging.
SUPERSAMPLE = 4
_SHIFT = 3  # sub-pixel bits for cv2 polygon drawing
_CORNER_RADIUS = 0.12  # rounded die corners, in face units
#: The pips of a translucent die's hidden faces, seen through its body: blurred by this share
#: of the die's edge (sigma) and painted at this strength before the body is drawn over them.
HIDDEN_PIP_BLUR = 0.04
HIDDEN_PIP_STRENGTH = 0.4
#: Light direction in the board's frame (x right, y down the image, z up from the board).
LIGHT = np.array([-0.35, -0.45, 0.82]) / np.linalg.norm([-0.35, -0.45, 0.82])


@dataclass(frozen=True)
class DiceStyle:
    """How a set of dice looks: body and pip colours (BGR), opacity, gloss.

    ``opacity`` below 1 makes a translucent die (the table and the hidden faces' pips
    show through); ``one_pip_scale`` enlarges the lone pip of a one, as many dice do.
    """

    name: str
    body: tuple[int, int, int]
    pips: tuple[int, int, int]
    opacity: float = 1.0
    gloss: float = 0.25
    pip_scale: float = 1.0
    one_pip_scale: float = 1.0


#: The dice styles the renderer knows, by name.
STYLES: dict[str, DiceStyle] = {
    s.name: s
    for s in (
        DiceStyle("white", (232, 238, 240), (28, 28, 30)),
        DiceStyle("ivory", (190, 222, 238), (35, 30, 40), gloss=0.15, one_pip_scale=1.4),
        DiceStyle("white_red_pips", (236, 236, 236), (40, 40, 185), one_pip_scale=1.5),
        DiceStyle("black", (38, 36, 36), (232, 232, 232), gloss=0.35),
        DiceStyle("red", (45, 35, 205), (245, 245, 245), opacity=0.72, gloss=0.45),
        DiceStyle("green", (70, 165, 35), (245, 245, 245), opacity=0.72, gloss=0.45),
        DiceStyle("blue", (165, 85, 30), (240, 240, 240), gloss=0.3),
        DiceStyle("yellow", (55, 205, 235), (30, 30, 30), gloss=0.2),
    )
}


@dataclass(frozen=True)
class RenderedDie:
    """What was drawn, in image pixels: the truth a reader is scored against.

    ``centre`` is the centre of the face turned most upward (the top face of a flat
    die); ``value`` is that face's value, which a reader must *not* report when
    ``cocked`` is true; ``top_face`` holds that face's four corners; ``bbox`` is
    ``(x0, y0, x1, y1)`` around the whole die.
    """

    centre: tuple[float, float]
    value: int
    cocked: bool
    size_px: float
    angle_deg: float
    style: str
    top_face: np.ndarray = field(repr=False, compare=False)
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    @property
    def expected_value(self) -> int | None:
        """The value a correct reader reports: none for a cocked die."""
        return None if self.cocked else self.value


def _rotation(axis: str, degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _face_values(top: int, rng: np.random.Generator) -> dict[tuple[int, int, int], int]:
    """Values on the six faces (keyed by outward normal) of a die showing ``top`` upward."""
    sides = [v for v in range(1, 7) if v not in (top, opposite_face(top))]
    a = int(rng.choice(sides))
    b = int(rng.choice([v for v in sides if v not in (a, opposite_face(a))]))
    return {
        (0, 0, 1): top, (0, 0, -1): opposite_face(top),
        (1, 0, 0): a, (-1, 0, 0): opposite_face(a),
        (0, 1, 0): b, (0, -1, 0): opposite_face(b),
    }


def _face_axes(normal: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors spanning a face with this outward normal."""
    n = np.array(normal, float)
    u = np.array([0.0, 0.0, 1.0]) if abs(n[2]) < 0.5 else np.array([1.0, 0.0, 0.0])
    u = u - n * (u @ n)
    u /= np.linalg.norm(u)
    return u, np.cross(n, u)


def _rounded_square(radius: float = _CORNER_RADIUS, per_corner: int = 5) -> np.ndarray:
    """Outline of the unit face square with rounded corners, face units, shape (N, 2)."""
    points = []
    inner = 0.5 - radius
    for cx, cy, start in ((inner, inner, 0), (-inner, inner, 90), (-inner, -inner, 180), (inner, -inner, 270)):
        for k in range(per_corner + 1):
            a = math.radians(start + 90 * k / per_corner)
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return np.array(points)


def _circle(centre: tuple[float, float], radius: float, n: int = 20) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)], axis=1)


class _Patch:
    """A supersampled copy of the image around a die, drawn on and pasted back."""

    def __init__(self, image: np.ndarray, centre: tuple[float, float], half: int):
        self.image = image
        h, w = image.shape[:2]
        cx, cy = int(round(centre[0])), int(round(centre[1]))
        self.x0, self.y0 = cx - half, cy - half
        self.x1, self.y1 = cx + half + 1, cy + half + 1
        pad = ((max(0, -self.y0), max(0, self.y1 - h)), (max(0, -self.x0), max(0, self.x1 - w)), (0, 0))
        crop = image[max(0, self.y0):min(h, self.y1), max(0, self.x0):min(w, self.x1)]
        self.pad = pad
        crop = np.pad(crop, pad, mode="edge") if any(p[0] or p[1] for p in pad[:2]) else crop
        self.big = cv2.resize(crop, None, fx=SUPERSAMPLE, fy=SUPERSAMPLE, interpolation=cv2.INTER_LINEAR).astype(np.float32)

    def to_big(self, xy: np.ndarray) -> np.ndarray:
        """Image pixel coordinates -> supersampled patch coordinates."""
        return (np.asarray(xy, float) - (self.x0, self.y0) + 0.5) * SUPERSAMPLE - 0.5

    def mask(self, polygons: list[np.ndarray]) -> np.ndarray:
        """Coverage mask (float 0..1) of polygons given in image coordinates."""
        m = np.zeros(self.big.shape[:2], np.uint8)
        scaled = [np.round(self.to_big(p) * (1 << _SHIFT)).astype(np.int32) for p in polygons]
        cv2.fillPoly(m, scaled, 255, lineType=cv2.LINE_AA, shift=_SHIFT)
        return m.astype(np.float32) / 255.0

    def blend(self, mask: np.ndarray, colour: np.ndarray | tuple, strength: float = 1.0) -> None:
        # Only where the mask covers anything (a pip's mask is a small part of the patch).
        x, y, w, h = cv2.boundingRect((mask > 0).astype(np.uint8))
        if w == 0 or h == 0:
            return
        m = (mask[y:y + h, x:x + w] * strength)[..., None]
        big = self.big[y:y + h, x:x + w]
        big *= 1.0 - m
        big += m * np.asarray(colour, np.float32)

    def paste(self) -> None:
        small = cv2.resize(self.big, None, fx=1 / SUPERSAMPLE, fy=1 / SUPERSAMPLE, interpolation=cv2.INTER_AREA)
        (pt, pb), (pl, pr), _ = self.pad
        small = small[pt:small.shape[0] - pb, pl:small.shape[1] - pr]
        h, w = self.image.shape[:2]
        self.image[max(0, self.y0):min(h, self.y1), max(0, self.x0):min(w, self.x1)] = np.clip(small + 0.5, 0, 255).astype(np.uint8)


def _pose(size_px: float, angle_deg: float, cocked: bool, rng: np.random.Generator,
          tilt_deg: float | None) -> tuple[np.ndarray, float]:
    """Rotation of the die in the board's frame and the height of its centre above the board."""
    if cocked:
        tilt = tilt_deg if tilt_deg is not None else float(rng.uniform(20, 45))
        rotation = _rotation("z", angle_deg) @ _rotation("x", tilt)
    else:
        rotation = _rotation("z", angle_deg)
    corners = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]) * size_px
    height = -float((corners @ rotation.T)[:, 2].min())
    return rotation, height


def _draw_solid(image: np.ndarray, centre: tuple[float, float], size_px: float, angle_deg: float,
                cocked: bool, rng: np.random.Generator, view_tilt_deg: float, tilt_deg: float | None,
                body: tuple[int, int, int], opacity: float, gloss: float, paint_face) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Draw a rounded cube; ``paint_face(patch, normal, to_image, shade, visible)`` decorates each face.

    Returns (top face corners, whole-die outline points, top-face normal) in image coordinates.
    """
    rotation, height = _pose(size_px, angle_deg, cocked, rng, tilt_deg)
    view = _rotation("x", view_tilt_deg)  # the camera looks forward and down: side faces show below the tops
    # Position of the die's centre in image coordinates is ``centre``; board z=0 lies ``height`` below it.

    def project(points_board: np.ndarray) -> np.ndarray:
        p = points_board @ view.T
        return p[:, :2] + np.asarray(centre, float)

    patch = _Patch(image, centre, int(math.ceil(size_px * 1.6)) + 3)
    outline = _rounded_square()
    faces = []
    for normal in ((0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)):
        u, v = _face_axes(normal)
        n_board = rotation @ np.array(normal, float)
        origin = rotation @ (np.array(normal, float) * 0.5 * size_px)
        axes = np.stack([rotation @ u, rotation @ v], axis=1) * size_px  # 3x2

        def to_board(face_xy: np.ndarray, origin=origin, axes=axes) -> np.ndarray:
            return origin + np.asarray(face_xy, float) @ axes.T

        def to_image(face_xy: np.ndarray, to_board=to_board) -> np.ndarray:
            return project(to_board(face_xy))

        facing = float((view @ n_board)[2])
        shade = 0.5 + 0.5 * max(0.0, float(n_board @ LIGHT))
        faces.append((facing, normal, n_board, to_board, to_image, shade))

    # Shadow: the die's corners pushed along the light onto the board.
    corners = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]) * size_px
    board = corners @ rotation.T
    board_z = board[:, 2] + height
    shadow = board - (board_z / LIGHT[2])[:, None] * LIGHT
    shadow[:, 2] = -height
    shadow_img = np.vstack([project(shadow), project(board - [0, 0, 0])])
    hull = cv2.convexHull(shadow_img.astype(np.float32)).reshape(-1, 2)
    shadow_mask = cv2.GaussianBlur(patch.mask([hull]), (0, 0), sigmaX=size_px * 0.08 * SUPERSAMPLE)
    patch.big *= 1.0 - 0.45 * shadow_mask[..., None]

    body_arr = np.asarray(body, np.float32)
    visible = [f for f in faces if f[0] > 1e-3]
    hidden = [f for f in faces if f[0] <= 1e-3]
    if opacity < 1.0:  # hidden faces show through a translucent body
        for _, normal, _, _, to_image, _ in hidden:
            paint_face(patch, normal, to_image, 0.9, False)
    outlines = []
    for facing, normal, n_board, to_board, to_image, shade in sorted(visible, key=lambda f: f[0]):
        poly = to_image(outline)
        outlines.append(poly)
        m = patch.mask([poly])
        patch.blend(m, body_arr * shade, opacity)
        edge = np.zeros(m.shape, np.float32)
        pts = np.round(patch.to_big(poly) * (1 << _SHIFT)).astype(np.int32)
        cv2.polylines(edge, [pts], True, 1.0, max(1, int(size_px * SUPERSAMPLE * 0.03)), cv2.LINE_AA, _SHIFT)
        patch.blend(edge * m, body_arr * shade * 0.75, 0.6 * opacity)
        paint_face(patch, normal, to_image, shade, True)
        if gloss > 0 and facing > 0.5:
            spot = np.zeros(m.shape, np.float32)
            at = patch.to_big(to_image(np.array([[rng.uniform(-0.3, 0.1), rng.uniform(-0.3, 0.1)]])))[0]
            cv2.circle(spot, (int(at[0]), int(at[1])), max(1, int(size_px * SUPERSAMPLE * 0.18)), 1.0, -1)
            spot = cv2.GaussianBlur(spot, (0, 0), sigmaX=size_px * SUPERSAMPLE * 0.12) * m
            patch.blend(spot, (255, 255, 255), float(gloss * rng.uniform(0.3, 1.0)))
    patch.paste()
    up = max(faces, key=lambda f: f[2][2])
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    return up[4](square), np.vstack(outlines), up[1]


def draw_die(image: np.ndarray, centre: tuple[float, float], size_px: float, value: int,
             angle_deg: float = 0.0, style: str | DiceStyle = "white", cocked: bool = False,
             rng: np.random.Generator | None = None, view_tilt_deg: float = 0.0,
             tilt_deg: float | None = None) -> RenderedDie:
    """Draw one die in place onto ``image`` (BGR uint8) and return what was drawn.

    ``centre`` is where the die's middle lands in the image, ``size_px`` its edge
    length in pixels, ``value`` the top face (1..6), ``angle_deg`` its rotation on the
    board, ``style`` a name from :data:`STYLES` or a :class:`DiceStyle`.  ``cocked``
    tilts it by ``tilt_deg`` (default random 20..45 degrees); ``view_tilt_deg`` tilts the
    camera so the side faces show.  ``rng`` drives the small random choices (side-face
    values, tilt, highlight); without one the picture is the same on every call.

    >>> import numpy as np
    >>> img = np.zeros((60, 60, 3), np.uint8)
    >>> d = draw_die(img, (30, 30), 24, 1, style="red", cocked=True, rng=np.random.default_rng(1))
    >>> d.cocked, d.expected_value
    (True, None)
    """
    if value not in PIP_LAYOUTS:
        raise ValueError(f"a die shows 1 to 6, not {value!r}")
    if size_px <= 2:
        raise ValueError(f"die size must be more than 2 pixels, not {size_px!r}")
    st = STYLES[style] if isinstance(style, str) else style
    rng = rng if rng is not None else np.random.default_rng(0)
    values = _face_values(value, rng)
    pip_colour = np.asarray(st.pips, np.float32)

    def paint_face(patch: _Patch, normal, to_image, shade: float, visible: bool) -> None:
        face_value = values[normal]
        scale = st.pip_scale * (st.one_pip_scale if face_value == 1 else 1.0)
        pips = [to_image(_circle(c, PIP_RADIUS * scale)) for c in PIP_LAYOUTS[face_value]]
        m = patch.mask(pips)
        if visible:
            colour = pip_colour * (0.75 + 0.25 * shade)
            patch.blend(m, colour, 1.0)
        else:
            # A hidden face's pips are seen through the body, which scatters and dims their
            # light: on real translucent dice (the board photos' red and green ones) they are a
            # faint haze at most, never pips as crisp as the top's.  (The body drawn over them
            # dims them further.)
            m = cv2.GaussianBlur(m, (0, 0), sigmaX=HIDDEN_PIP_BLUR * size_px * SUPERSAMPLE)
            patch.blend(m, pip_colour, HIDDEN_PIP_STRENGTH)

    top, outline, _ = _draw_solid(image, centre, size_px, angle_deg, cocked, rng, view_tilt_deg, tilt_deg,
                                  st.body, st.opacity, st.gloss, paint_face)
    # The face turned most upward is the "top" a reader would look at.
    (x0, y0), (x1, y1) = outline.min(axis=0), outline.max(axis=0)
    return RenderedDie(centre=tuple(map(float, top.mean(axis=0))), value=value,
                       cocked=cocked, size_px=float(size_px), angle_deg=float(angle_deg), style=st.name,
                       top_face=top, bbox=(float(x0), float(y0), float(x1), float(y1)))


#: The faces of a doubling cube.
CUBE_VALUES = (2, 4, 8, 16, 32, 64)


def draw_doubling_cube(image: np.ndarray, centre: tuple[float, float], size_px: float, value: int = 64,
                       angle_deg: float = 0.0, rng: np.random.Generator | None = None,
                       view_tilt_deg: float = 0.0) -> tuple[float, float, float, float]:
    """Draw a doubling cube (numbers, not pips) in place; returns its ``(x0, y0, x1, y1)`` box.

    It is not a die: a dice reader must not report it.

    >>> import numpy as np
    >>> img = np.full((80, 80, 3), 90, np.uint8)
    >>> draw_doubling_cube(img, (40, 40), 30, 2)
    (25.0, 25.0, 55.0, 55.0)
    """
    if value not in CUBE_VALUES:
        raise ValueError(f"a doubling cube shows one of {CUBE_VALUES}, not {value!r}")
    rng = rng if rng is not None else np.random.default_rng(0)
    others = [v for v in CUBE_VALUES if v != value]
    rng.shuffle(others)
    numbers = dict(zip(((0, 0, 1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, -1)), [value] + others))

    def paint_face(patch: _Patch, normal, to_image, shade: float, visible: bool) -> None:
        if not visible:
            return
        texture_px = 64
        texture = np.zeros((texture_px, texture_px), np.uint8)
        text = str(numbers[normal])
        font_scale = 1.5 if len(text) == 1 else 1.1
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, font_scale, 3)
        cv2.putText(texture, text, ((texture_px - tw) // 2, (texture_px + th) // 2), cv2.FONT_HERSHEY_DUPLEX,
                    font_scale, 255, 3, cv2.LINE_AA)
        src = np.float32([[0, 0], [texture_px, 0], [0, texture_px]])
        face = np.array([[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5]])
        dst = patch.to_big(to_image(face)).astype(np.float32) + 0.5
        warp = cv2.getAffineTransform(src, dst)
        h, w = patch.big.shape[:2]
        m = cv2.warpAffine(texture, warp, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
        patch.blend(m, np.array((30, 30, 30), np.float32), 1.0)

    _, outline, _ = _draw_solid(image, centre, size_px, angle_deg, False, rng, view_tilt_deg, None,
                                (232, 236, 238), 1.0, 0.2, paint_face)
    (x0, y0), (x1, y1) = outline.min(axis=0), outline.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)
