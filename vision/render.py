"""Synthetic labelled frames of backgammon boards: code, not stored images.

:func:`render_board` draws a board of a given style with a given position top-down, puts it into a
1280x720 camera frame through a perspective (tilt up to about 45 degrees, any rotation including
90 degrees), and spoils the frame the way real cameras and rooms do: uneven light, glare,
shadows, blur, sensor noise, JPEG, checkers off the centres of their points, tall overlapped
stacks up to 15, dice (drawn by :mod:`vision.dice.render`), hands over the board's edge.  The
returned :class:`Scene` carries the truth as a :class:`~vision.observation.BoardObservation` and the
field corners in frame pixels.  As an option (``RenderOptions(layered=True)``, off by default)
stacks of more than five are built in layers, a second layer in the hollows of the first, as
players also stack them.  With ``RenderOptions(solid=True)`` (off by default) the checkers are
solids seen by a physical camera, a phone overhead or at a seat (:mod:`vision.solid`): raised
top faces, side walls toward the camera, near checkers hiding far ones, overlapped stacks
leaning on each other.

>>> from engine.position import Position
>>> options = RenderOptions(seed=1, scheme=CHECKER_SCHEMES[0])
>>> scene = render_board(Position.start(), options)
>>> scene.image.shape, scene.truth.top[0]
((720, 1280, 3), PointReading(colour='white', count=5, confidence=1.0))
>>> sum(r.count for r in scene.truth.top + scene.truth.bottom if r)
30
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from engine.position import O, X, Position
from vision.observation import BoardObservation, PointReading, absolute_point
from vision.solid import (FIELD_WIDTH_CM, THICKNESS_SHARE, CameraPose, Cylinder, SolidCamera,
                          SolidView, draw_cylinders, light_direction, place_camera,
                          shingled_tilts)

FRAME_SIZE = (1280, 720)


@dataclass(frozen=True)
class BoardStyle:
    """Colours (BGR) and shapes of a board."""

    name: str
    field: tuple[int, int, int]
    points: tuple[tuple[int, int, int], tuple[int, int, int]]
    frame: tuple[int, int, int]
    bar: tuple[int, int, int]
    wood: bool = False
    rounded_points: bool = False
    logo: bool = False


@dataclass(frozen=True)
class CheckerScheme:
    """Two checker colours (BGR) with the names a reader should give them."""

    names: tuple[str, str]
    colours: tuple[tuple[int, int, int], tuple[int, int, int]]


BOARD_STYLES: tuple[BoardStyle, ...] = (
    BoardStyle("tournament", (205, 228, 236), ((30, 30, 30), (40, 35, 190)), (25, 25, 25),
               (30, 30, 30)),
    BoardStyle("fm-tan", (215, 222, 226), ((35, 32, 30), (90, 140, 175)), (40, 60, 90),
               (40, 60, 90), logo=True),
    BoardStyle("walnut", (50, 105, 165), ((225, 230, 232), (25, 25, 25)), (30, 65, 110),
               (35, 70, 115), wood=True, rounded_points=True, logo=True),
    BoardStyle("felt-olive", (110, 175, 190), ((35, 35, 60), (60, 105, 95)), (28, 28, 28),
               (28, 28, 28)),
    BoardStyle("green-cork", (70, 140, 80), ((170, 200, 215), (40, 60, 140)), (30, 50, 70),
               (30, 50, 70)),
    BoardStyle("blue-white", (200, 150, 90), ((235, 235, 235), (60, 40, 30)), (90, 70, 50),
               (90, 70, 50)),
    BoardStyle("black-board", (45, 45, 48), ((120, 120, 125), (35, 35, 150)), (20, 20, 20),
               (20, 20, 20)),
)

CHECKER_SCHEMES: tuple[CheckerScheme, ...] = (
    CheckerScheme(("white", "black"), ((232, 235, 236), (38, 36, 36))),
    CheckerScheme(("red", "white"), ((40, 40, 190), (228, 232, 232))),
    CheckerScheme(("red", "blue"), ((45, 45, 200), (160, 80, 35))),
    CheckerScheme(("red", "white"), ((35, 30, 120), (200, 225, 235))),  # dark red, ivory
    CheckerScheme(("gold", "white"), ((40, 140, 200), (215, 215, 212))),
    CheckerScheme(("black", "red"), ((40, 40, 40), (50, 50, 180))),
)


@dataclass
class RenderOptions:
    """What to draw; ``hard`` turns on the nuisances (strong tilt, glare, hands, JPEG...)."""

    seed: int = 0
    hard: bool = True
    style: BoardStyle | None = None
    scheme: CheckerScheme | None = None
    dice: bool = True
    hands: bool | None = None  # None: sometimes, in hard mode
    #: Seed of the board and camera (style, measurements, viewpoint, light); default ``seed``.
    #: Keep it and change the position to film one board through a game.
    camera_seed: int | None = None
    #: Stacks of more than five built in layers (see :func:`layer_positions`) instead of one
    #: overlapped row; a random board (``position`` None) then has tall stacks of 6-15 (see
    #: :func:`layered_rows`).  Off by default: frames drawn without it are unchanged, bit for bit.
    layered: bool = False
    #: Checkers drawn as the solids they are (cylinders a quarter of their diameter thick)
    #: seen by a physical camera at ``pose`` (see :mod:`vision.solid`), instead of flat discs
    #: in a top-down picture put into the frame by a plane's perspective.  ``pose`` None: a
    #: random one (any side, 0-60 degrees from vertical; 0-30 when not ``hard``).  Off by
    #: default: frames drawn without it are unchanged, bit for bit.
    solid: bool = False
    pose: CameraPose | None = None


@dataclass
class Scene:
    image: np.ndarray
    corners: tuple[tuple[float, float], ...]
    truth: BoardObservation
    style: str
    scheme: str
    dice: list = field(default_factory=list)
    hands: bool = False
    #: The side tray holding the borne-off checkers (``truth.off``), ``"left"`` or ``"right"``
    #: of the field as drawn top-down; None when none are off or the board has no room for a
    #: tray (then they are out of view).
    tray_side: str | None = None
    #: The camera of a solid frame (``RenderOptions.solid``): its pose, place and homography.
    camera: SolidCamera | None = None


# --- positions --------------------------------------------------------------------------------


def rows_from_position(position: Position, names: tuple[str, str],
                       x_home: str = "bottom-right") -> BoardObservation:
    """The rows as seen for a position, X playing ``names[0]``."""
    top: list = [None] * 12
    bottom: list = [None] * 12
    for row_name, row in (("top", top), ("bottom", bottom)):
        for column in range(12):
            point = absolute_point(x_home, row_name, column)
            if position.checkers(X, point):
                row[column] = (names[0], position.checkers(X, point))
            elif position.checkers(O, 25 - point):
                row[column] = (names[1], position.checkers(O, 25 - point))
    bar = {names[0]: position.checkers(X, 25), names[1]: position.checkers(O, 25)}
    return BoardObservation.from_rows(top, bottom, names, bar)


def random_rows(rng: np.random.Generator, names: tuple[str, str], max_reach: float,
                hard: bool) -> BoardObservation:
    """A random board: any spread of both colours, some on the bar, some off, tall stacks.

    ``max_reach`` limits two facing stacks' combined length in checker diameters.
    """
    while True:
        slots: dict[tuple[str, int], tuple[str, int]] = {}
        bar: dict[str, int] = {}
        free = [(row, c) for row in ("top", "bottom") for c in range(12)]
        rng.shuffle(free)
        for name in names:
            on_bar = int(rng.choice([0, 0, 0, 0, 1, 1, 2, 3]))
            off = int(rng.choice([0, 0, 0, 2, 5, 9, 13])) if rng.random() < 0.5 else 0
            left = max(0, 15 - on_bar - off)
            bar[name] = min(on_bar, 15)
            if left == 0:
                continue
            if hard and rng.random() < 0.12:
                points = 1  # one huge stack
            else:
                points = int(rng.integers(1, min(left, 9) + 1))
            cuts = np.sort(rng.choice(np.arange(1, left), size=points - 1, replace=False)) \
                if points > 1 else np.array([], int)
            sizes = np.diff(np.concatenate([[0], cuts, [left]])).astype(int)
            for size in sizes:
                slot = free.pop()
                slots[slot] = (name, int(size))
        ok = True
        for c in range(12):
            a = slots.get(("top", c), ("", 0))[1]
            b = slots.get(("bottom", c), ("", 0))[1]
            if _reach(a) + _reach(b) > max_reach:
                ok = False
        if ok:
            top = [slots.get(("top", c)) for c in range(12)]
            bottom = [slots.get(("bottom", c)) for c in range(12)]
            return BoardObservation.from_rows(top, bottom, names, bar)


def layered_rows(rng: np.random.Generator, names: tuple[str, str]) -> BoardObservation:
    """A random board for the layered set: each colour has one or two stacks of 6 to 15 (built
    in layers, so each reaches five diameters at most), the rest of its fifteen spread over
    other points in stacks of one to five, a checker or two sometimes on the bar."""
    slots: dict[tuple[str, int], tuple[str, int]] = {}
    free = [(row, c) for row in ("top", "bottom") for c in range(12)]
    rng.shuffle(free)
    bar: dict[str, int] = {}
    for name in names:
        bar[name] = int(rng.choice([0, 0, 0, 1, 2]))
        left = CHECKERS - bar[name]
        tall = [int(rng.integers(6, left + 1))]
        if left - tall[0] >= 6 and rng.random() < 0.4:
            tall.append(int(rng.integers(6, min(left - tall[0], 15) + 1)))
        sizes = list(tall)
        left -= sum(tall)
        while left > 0:
            size = int(rng.integers(1, min(left, 5) + 1))
            sizes.append(size)
            left -= size
        for size in sizes:
            slots[free.pop()] = (name, size)
    top = [slots.get(("top", c)) for c in range(12)]
    bottom = [slots.get(("bottom", c)) for c in range(12)]
    return BoardObservation.from_rows(top, bottom, names, bar)


#: Checkers per side, and the most a first layer holds (five touching checkers fill a point).
CHECKERS = 15
FIRST_LAYER = 5


def layer_positions(count: int) -> list[tuple[int, float]]:
    """Where the checkers of a stack built in layers lie: ``(layer, distance of the centre from
    the field's edge in diameters)`` for each, layer 0 first.

    Five touching checkers make the first layer; a sixth sits in the hollow between the first
    two (resting on both), the next in the next hollow, and so on; when a layer's hollows are
    full the next layer starts in its hollows, so fifteen make a pyramid of 5, 4, 3, 2 and 1.

    >>> layer_positions(3)
    [(0, 0.5), (0, 1.5), (0, 2.5)]
    >>> layer_positions(7)[5:]
    [(1, 1.0), (1, 2.0)]
    >>> [layer for layer, _ in layer_positions(15)].count(4), layer_positions(15)[-1]
    (1, (4, 2.5))
    """
    placed: list[tuple[int, float]] = []
    layer, size = 0, FIRST_LAYER
    while len(placed) < count and size > 0:
        for k in range(size):
            if len(placed) == count:
                break
            placed.append((layer, 0.5 + layer * 0.5 + k))
        layer, size = layer + 1, size - 1
    return placed


def _step(count: int) -> float:
    """Spacing of checker centres in a stack of ``count``, in diameters: players overlap
    stacks taller than five."""
    if count <= 5:
        return 1.0
    return max(0.68, min(1.0, 4.6 / (count - 1)))


def _reach(count: int) -> float:
    return 0.0 if count == 0 else 1 + (count - 1) * _step(count)


# --- drawing the board top-down ---------------------------------------------------------------


def _shade(colour: Sequence[int], factor: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c * factor, 0, 255)) for c in colour)  # type: ignore[return-value]


def _texture(h: int, w: int, base: Sequence[int], rng: np.random.Generator, wood: bool
             ) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if wood:
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        phase = rng.uniform(0, 6.28)
        grain = np.sin(y * 0.045 + 3.0 * np.sin(x * 0.004 + phase) + 0.3 * np.sin(y * 0.31))
        img *= (1 + 0.12 * grain)[..., None]
    noise = rng.normal(0, 3.0, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
    img += noise[..., None]
    return img


def _checker_look(rng: np.random.Generator) -> tuple[float, float, float]:
    """A checker's own shade factor, groove radius (share of its radius) and highlight, drawn
    in :func:`_draw_checker`'s order."""
    return rng.uniform(0.94, 1.04), rng.uniform(0.6, 0.75), rng.uniform(15, 45)


def _solid_checker(centre: tuple[float, float], radius: float, colour: Sequence[int],
                   rng: np.random.Generator, thickness: float, height: float = 0.0,
                   tilt: float = 0.0, tilt_toward: float = 1.0) -> Cylinder:
    """A checker lying at ``centre`` (canvas pixels; the middle of its bottom face,
    ``height`` above the board), tilted by ``tilt`` radians about the canvas's x axis, its
    top face turned toward ``tilt_toward`` (+1: +y, -1: -y); the same random numbers as
    :func:`_draw_checker` give it its look."""
    shade, groove, highlight = _checker_look(rng)
    axis = np.array([0.0, tilt_toward * math.sin(tilt), math.cos(tilt)])
    return Cylinder(np.array([centre[0], centre[1], height]), axis, radius, thickness,
                    np.asarray(colour, np.float32) * shade, groove, highlight)


def _draw_checker(img: np.ndarray, centre: tuple[float, float], radius: float,
                  colour: Sequence[int], rng: np.random.Generator) -> None:
    """A checker with a soft shadow, a rim, a groove and a highlight, drawn in place."""
    pad = int(radius * 3.2) + 4
    x0, y0 = max(0, int(centre[0]) - pad), max(0, int(centre[1]) - pad)
    x1, y1 = min(img.shape[1], int(centre[0]) + pad), min(img.shape[0], int(centre[1]) + pad)
    patch = img[y0:y1, x0:x1]
    s = 4  # sub-pixel bits
    cx, cy = int((centre[0] - x0) * 16), int((centre[1] - y0) * 16)
    r = int(radius * 16)
    shadow = np.zeros(patch.shape[:2], np.float32)
    cv2.circle(shadow, (cx + int(radius * 1.6), cy + int(radius * 2.2)), r, 1.0, -1,
               cv2.LINE_AA, s)
    shadow = cv2.GaussianBlur(shadow, (0, 0), radius * 0.15)
    patch *= (1 - 0.35 * shadow)[..., None]
    base = np.asarray(colour, np.float32) * rng.uniform(0.94, 1.04)
    light = float(base.mean())
    if light > 90:
        rim = _shade(base, 0.62)
        groove = _shade(base, 0.8)
    else:  # dark checkers show a lighter edge
        rim = tuple(min(255, int(c) + 60) for c in base)
        groove = tuple(min(255, int(c) + 25) for c in base)
    cv2.circle(patch, (cx, cy), r, rim, -1, cv2.LINE_AA, s)
    cv2.circle(patch, (cx, cy), int(r * 0.93), tuple(map(float, base)), -1, cv2.LINE_AA, s)
    cv2.circle(patch, (cx, cy), int(r * rng.uniform(0.6, 0.75)), groove,
               max(1, int(radius * 0.06)), cv2.LINE_AA, s)
    hl = np.zeros(patch.shape[:2], np.float32)
    cv2.ellipse(hl, (cx - r // 3, cy - r // 3), (r // 3, r // 5), -35, 0, 360, 1.0, -1,
                cv2.LINE_AA, s)
    hl = cv2.GaussianBlur(hl, (0, 0), radius * 0.12)
    patch += (hl * rng.uniform(15, 45))[..., None]


def draw_topdown(rows: BoardObservation, style: BoardStyle, scheme: CheckerScheme,
                 rng: np.random.Generator, field_width: int = 900, aspect: float = 0.88,
                 bar_fraction: float = 0.06, jitter: float = 0.06, dice: bool = True,
                 layout_rng: np.random.Generator | None = None,
                 tray_rng: np.random.Generator | None = None,
                 trays_drawn: dict | None = None, layered: bool = False,
                 solid: SolidView | None = None,
                 ) -> tuple[np.ndarray, tuple[float, float, float, float], list]:
    """The whole board seen from straight above; returns the image (float BGR), the field
    rectangle ``(x0, y0, x1, y1)`` in it and the dice drawn.  ``layout_rng`` draws the board's
    own measurements (frame, trays, point length, checker size; default ``rng``), so one board
    can be drawn with different positions.  With ``tray_rng``, checkers borne off (``rows.off``)
    lie in a side tray (see :func:`_draw_trays`); it draws only when some are off, so boards
    without any keep the look they had before trays were drawn; ``trays_drawn["side"]`` then says
    which tray holds them.  With ``layered``, stacks of more than five are built in layers (see
    :func:`_draw_layered`).  With ``solid``, the checkers are cylinders drawn as its camera (placed
    here, where the canvas is known, and kept in ``solid.camera``) sees them, projected onto the
    board plane (see :mod:`vision.solid`)."""
    layout_rng = layout_rng or rng
    border = int(field_width * layout_rng.uniform(0.035, 0.07))
    tray = int(field_width * layout_rng.uniform(0.0, 0.09))
    point_len = field_width * aspect * layout_rng.uniform(0.36, 0.42)
    radius_share = layout_rng.uniform(0.43, 0.49)
    fw, fh = field_width, int(field_width * aspect)
    borne_off = {name: n for name, n in rows.off.items() if n}
    W, H = fw + 2 * border + 2 * tray, fh + 2 * border
    img = _texture(H, W, style.frame, layout_rng, wood=style.wood)
    x0, y0 = border + tray, border
    field_img = _texture(fh, fw, style.field, layout_rng, wood=style.wood)
    bar_w = fw * bar_fraction
    bar_l, bar_r = fw / 2 - bar_w / 2, fw / 2 + bar_w / 2
    pw_l, pw_r = bar_l / 6, (fw - bar_r) / 6
    for row in ("top", "bottom"):
        for c in range(12):
            left = c * pw_l if c < 6 else bar_r + (c - 6) * pw_r
            width = pw_l if c < 6 else pw_r
            colour = style.points[(c + (row == "bottom")) % 2]
            base_y = 0 if row == "top" else fh
            tip_y = point_len if row == "top" else fh - point_len
            poly = np.array([[left + 1, base_y], [left + width - 1, base_y],
                             [left + width / 2, tip_y]], np.float32)
            cv2.fillPoly(field_img, [np.int32(poly * 16)], tuple(map(float, colour)),
                         cv2.LINE_AA, 4)
            if style.rounded_points:
                cy = width / 2 if row == "top" else fh - width / 2
                cv2.circle(field_img, (int((left + width / 2) * 16), int(cy * 16)),
                           int(width / 2 * 16), tuple(map(float, colour)), -1, cv2.LINE_AA, 4)
    if style.logo:
        for half in (0, 1):
            cx = int(bar_l / 2) if half == 0 else int((bar_r + fw) / 2)
            text = np.zeros((fh, fw), np.uint8)
            cv2.putText(text, "fm", (cx - 40, fh // 2 + 15), cv2.FONT_HERSHEY_SIMPLEX, 1.8, 255, 4,
                        cv2.LINE_AA)
            ink = (200, 200, 200) if style.field[0] < 120 else (90, 90, 90)
            alpha = (text.astype(np.float32) / 255)[..., None]
            field_img[:] = field_img * (1 - alpha) + np.float32(ink) * alpha
    # The bar: a raised strip with the frame's look.
    bar_img = _texture(fh, int(math.ceil(bar_w)), style.bar, layout_rng, wood=style.wood)
    field_img[:, int(bar_l): int(bar_l) + bar_img.shape[1]] = bar_img[:, : fw - int(bar_l)]
    cv2.line(field_img, (int(bar_l), 0), (int(bar_l), fh), _shade(style.bar, 0.6), 2)
    cv2.line(field_img, (int(bar_r), 0), (int(bar_r), fh), _shade(style.bar, 0.6), 2)
    img[y0: y0 + fh, x0: x0 + fw] = field_img
    # Checkers.
    pw = (pw_l + pw_r) / 2
    radius = pw * radius_share
    if borne_off and tray_rng is not None:
        side = _draw_trays(img, rows, scheme, style, tray_rng, (x0, y0, x0 + fw, y0 + fh),
                           border, tray, radius)
        if trays_drawn is not None and side:
            trays_drawn["side"] = side
    colour_of = dict(zip(scheme.names, scheme.colours))
    solids: list[Cylinder] | None = None
    if solid is not None:
        outline = np.float64([[0, 0], [W, 0], [W, H], [0, H]])
        solid.camera = place_camera(outline, (x0 + fw / 2, y0 + fh / 2), solid.pose,
                                    solid.frame_size, fw / FIELD_WIDTH_CM, solid.rng)
        solid.thickness = 2 * radius * float(solid.rng.uniform(*THICKNESS_SHARE))
        solids, solid_columns = [], []
    # Checkers in upper layers stand higher: seen at a slant they shift one way (drawn only
    # when there are layers, so other boards keep their random stream).
    lean = None
    if layered and any(r and r.count > FIRST_LAYER for row in (rows.top, rows.bottom) for r in row):
        angle = rng.uniform(0, 2 * math.pi)
        lean = np.array([math.cos(angle), math.sin(angle)]) * rng.uniform(0, 0.12) * 2 * radius
    for row_name, row in rows.rows().items():
        for c, reading in enumerate(row):
            if not reading:
                continue
            cx = (c + 0.5) * pw_l if c < 6 else bar_r + (c - 6 + 0.5) * pw_r
            if lean is not None and reading.count > FIRST_LAYER:
                lo, hi = (radius, bar_l - radius) if c < 6 else (bar_r + radius, fw - radius)
                if solids is not None:
                    layered_solids = _layered_solids(
                        reading.count, (x0, y0), cx, row_name == "top", fh, radius,
                        colour_of[reading.colour], (lo, hi), jitter * pw, rng, solid.thickness)
                    solids.extend(layered_solids)
                    solid_columns.extend([(row_name, c, x0 + lo, x0 + hi)] * len(layered_solids))
                    continue
                _draw_layered(img, reading.count, (x0, y0), cx, row_name == "top", fh, radius,
                              colour_of[reading.colour], (lo, hi), jitter * pw, lean, rng)
                continue
            step = 2 * radius * _step(reading.count)
            pos = radius * (1 + rng.uniform(0, 0.12))
            # Checkers stay inside their quarter: the frame and the raised bar stop them.
            lo, hi = (radius, bar_l - radius) if c < 6 else (bar_r + radius, fw - radius)
            along: list[float] = []
            for k in range(reading.count):
                x = x0 + float(np.clip(cx + rng.uniform(-jitter, jitter) * pw, lo, hi))
                if solids is not None:
                    # Solids cannot pass into each other: touching at the closest.
                    pos = max(pos, along[-1] + 2 * radius) if along and step >= 2 * radius \
                        else pos
                    along.append(pos)
                y = y0 + (pos if row_name == "top" else fh - pos)
                if solids is not None:
                    solids.append(_solid_checker((x, y), radius, colour_of[reading.colour], rng,
                                                 solid.thickness))
                    solid_columns.append((row_name, c, x0 + lo, x0 + hi))
                else:
                    _draw_checker(img, (x, y), radius, colour_of[reading.colour], rng)
                pos += step * rng.uniform(0.98, 1.06)
            if solids is not None and step < 2 * radius:
                _shingle(solids[-reading.count:], along, radius, solid.thickness,
                         1.0 if row_name == "top" else -1.0)
    # Bar checkers: spread along the bar away from the middle.
    bar_list = [n for n, k in rows.bar.items() for _ in range(k)]
    for k, name in enumerate(bar_list):
        side = -1 if k % 2 == 0 else 1
        y = fh / 2 + side * radius * (2.2 + 2.15 * (k // 2)) * rng.uniform(1.0, 1.04)
        centre = (x0 + fw / 2 + rng.uniform(-0.1, 0.1) * radius, y0 + y)
        if solids is not None:
            solids.append(_solid_checker(centre, radius, colour_of[name], rng, solid.thickness))
        else:
            _draw_checker(img, centre, radius, colour_of[name], rng)
    drawn_dice = []
    if dice:
        drawn_dice = _draw_dice(img, rows, rng, (x0, y0), fw, fh, bar_l, bar_r, radius)
    if solids is not None:
        _separate(solids[:len(solid_columns)], solid_columns, radius, solid.thickness)
        draw_cylinders(img, solids, solid.camera, light_direction(solid.rng))
    return img, (x0, y0, x0 + fw, y0 + fh), drawn_dice


def _shingle(stack: list[Cylinder], along: list[float], radius: float, thickness: float,
             outward: float) -> None:
    """Tilt the checkers of an overlapped stack (in order from the field's edge; ``along``:
    their centres' distances from it) so each lies with its far edge on the board and its near
    edge on the one before (see :func:`vision.solid.shingled_tilts`); ``outward``: +1 when the
    stack grows toward +y."""
    for cylinder, tilt in zip(stack, shingled_tilts(along, radius, thickness)):
        cylinder.axis = np.array([0.0, outward * math.sin(tilt), math.cos(tilt)])
        cylinder.base = cylinder.base + np.array([0.0, 0.0, radius * math.sin(tilt)])


def _separate(cylinders: list[Cylinder], columns: list[tuple[str, int, float, float]],
              radius: float, thickness: float, rounds: int = 8) -> None:
    """Push checkers of neighbouring points apart along the row until none passes into
    another (the flat renderer lets their discs overlap a little); ``columns``: each one's row,
    column and the x range its quarter allows."""
    reach = 2 * radius * 1.005
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(cylinders):
            for j in range(i + 1, len(cylinders)):
                b = cylinders[j]
                (row_a, col_a, lo_a, hi_a), (row_b, col_b, lo_b, hi_b) = columns[i], columns[j]
                if row_a != row_b or abs(col_a - col_b) != 1:
                    continue
                dx, dy = b.base[0] - a.base[0], b.base[1] - a.base[1]
                if abs(dy) >= reach or abs(a.base[2] - b.base[2]) >= thickness:
                    continue
                need = math.sqrt(reach * reach - dy * dy) - abs(dx)
                if need <= 0:
                    continue
                sign = 1.0 if (col_b > col_a) else -1.0
                a.base[0] = float(np.clip(a.base[0] - sign * need / 2, lo_a, hi_a))
                b.base[0] = float(np.clip(b.base[0] + sign * need / 2, lo_b, hi_b))
                moved = True
        if not moved:
            return


def _layered_solids(count: int, origin: tuple[float, float], cx: float, top: bool, fh: float,
                    radius: float, colour: Sequence[int], x_range: tuple[float, float],
                    jitter: float, rng: np.random.Generator, thickness: float
                    ) -> list[Cylinder]:
    """A stack of ``count`` built in layers (:func:`layer_positions`) as solids: each upper
    checker lies flat in the hollow between two below it, a thickness higher (the camera's
    perspective shows what :func:`_draw_layered` imitates)."""
    x0, y0 = origin
    first = [float(np.clip(cx + rng.uniform(-jitter, jitter), *x_range))
             for _ in range(min(count, FIRST_LAYER))]
    start = radius * rng.uniform(0, 0.12)
    centres: dict[tuple[int, int], tuple[float, float]] = {}
    index_in_layer: dict[int, int] = {}
    out = []
    for layer, along in layer_positions(count):
        k = index_in_layer.get(layer, 0)
        index_in_layer[layer] = k + 1
        if layer == 0:
            x, y = first[k], start + 2 * radius * along * rng.uniform(1.0, 1.02)
        else:
            (xa, ya), (xb, yb) = centres[layer - 1, k], centres[layer - 1, k + 1]
            x = (xa + xb) / 2 + rng.uniform(-0.04, 0.04) * radius
            y = (ya + yb) / 2 + rng.uniform(-0.04, 0.04) * radius
        centres[layer, k] = (x, y)
        out.append(_solid_checker((x0 + x, y0 + (y if top else fh - y)), radius, colour, rng,
                                  thickness, height=layer * thickness))
    return out


def _draw_layered(img: np.ndarray, count: int, origin: tuple[float, float], cx: float, top: bool,
                  fh: float, radius: float, colour: Sequence[int], x_range: tuple[float, float],
                  jitter: float, lean: np.ndarray, rng: np.random.Generator) -> None:
    """A stack of ``count`` checkers built in layers (:func:`layer_positions`), drawn in place.

    Each upper checker rests in the hollow between two below it: it is a checker's thickness
    (about a fifth of its diameter) nearer the camera, so a little larger, shifted by ``lean``
    per layer (parallax of a slanted view) and lit a little more; it casts a tight shadow on the
    checkers under it, and its side wall shows as a band of rim colour on the side it leans to.
    """
    x0, y0 = origin
    placed = layer_positions(count)
    first = [float(np.clip(cx + rng.uniform(-jitter, jitter), *x_range))
             for _ in range(min(count, FIRST_LAYER))]
    start = radius * rng.uniform(0, 0.12)
    centres: dict[tuple[int, int], tuple[float, float]] = {}
    index_in_layer: dict[int, int] = {}
    for layer, along in placed:
        k = index_in_layer.get(layer, 0)
        index_in_layer[layer] = k + 1
        if layer == 0:
            x, y = first[k], start + 2 * radius * along * rng.uniform(1.0, 1.02)
        else:  # in the hollow between the two checkers below
            (xa, ya), (xb, yb) = centres[layer - 1, k], centres[layer - 1, k + 1]
            x = (xa + xb) / 2 + rng.uniform(-0.04, 0.04) * radius
            y = (ya + yb) / 2 + rng.uniform(-0.04, 0.04) * radius
        centres[layer, k] = (x, y)
        fx = x0 + x + lean[0] * layer
        fy = y0 + (y if top else fh - y) + lean[1] * layer
        size = radius * (1 + 0.025 * layer)
        if layer:
            _contact_shadow(img, (fx, fy), size, lean)
            _draw_checker(img, (fx, fy), size,
                          _shade(colour, 1 + 0.04 * layer * rng.uniform(0.5, 1.5)), rng)
            _side_wall(img, (fx, fy), size, colour, lean)
        else:
            _draw_checker(img, (fx, fy), size, colour, rng)


def _contact_shadow(img: np.ndarray, centre: tuple[float, float], radius: float,
                    lean: np.ndarray) -> None:
    """The shadow a raised checker casts on what it rests on: a soft dark ring just outside
    its rim, away from the way it leans."""
    pad = int(radius * 1.6) + 4
    x0, y0 = max(0, int(centre[0]) - pad), max(0, int(centre[1]) - pad)
    x1, y1 = min(img.shape[1], int(centre[0]) + pad), min(img.shape[0], int(centre[1]) + pad)
    patch = img[y0:y1, x0:x1]
    shadow = np.zeros(patch.shape[:2], np.float32)
    offset = -lean / (np.linalg.norm(lean) + 1e-6) * radius * 0.08
    cv2.circle(shadow, (int((centre[0] + offset[0] - x0) * 16), int((centre[1] + offset[1] - y0) * 16)),
               int(radius * 1.08 * 16), 1.0, -1, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), radius * 0.08)
    patch *= (1 - 0.45 * shadow)[..., None]


def _side_wall(img: np.ndarray, centre: tuple[float, float], radius: float,
               colour: Sequence[int], lean: np.ndarray) -> None:
    """The raised checker's side wall, seen past its rim on the side it leans to: a crescent
    of the rim's colour (darker for light checkers, lighter for dark ones)."""
    length = float(np.linalg.norm(lean))
    if length < 0.5:
        return
    pad = int(radius * 1.4) + 4
    x0, y0 = max(0, int(centre[0]) - pad), max(0, int(centre[1]) - pad)
    x1, y1 = min(img.shape[1], int(centre[0]) + pad), min(img.shape[0], int(centre[1]) + pad)
    patch = img[y0:y1, x0:x1]
    wall = np.zeros(patch.shape[:2], np.float32)
    cx, cy = (centre[0] - x0) * 16, (centre[1] - y0) * 16
    shift = lean / length * min(length * 0.5, radius * 0.12) * 16
    cv2.circle(wall, (int(cx + shift[0]), int(cy + shift[1])), int(radius * 16), 1.0, -1,
               cv2.LINE_AA, 4)
    cv2.circle(wall, (int(cx), int(cy)), int(radius * 16), 0.0, -1, cv2.LINE_AA, 4)
    base = np.asarray(colour, np.float32)
    side = base * 0.55 if base.mean() > 90 else base + 45
    patch[:] = patch * (1 - wall[..., None]) + side * wall[..., None]


def _draw_trays(img: np.ndarray, rows: BoardObservation, scheme: CheckerScheme,
                style: BoardStyle, rng: np.random.Generator,
                field_rect: tuple[float, float, float, float], border: int, tray: int,
                radius: float) -> str | None:
    """Both side trays as recesses in the frame, and the borne-off checkers in one of them,
    whose side (``"left"``/``"right"``) is returned; None (nothing drawn) when the board's frame is too narrow to hold a tray a checker wide
    (such boards have the off checkers set aside out of view).

    The first colour (X, home bottom-right in :func:`rows_from_position`) bears off into the
    bottom half of the tray, the second into the top half.  Checkers stand on edge packed in a
    row (seen from above: thin slabs across the tray) or, when they fit, lie flat side by side.
    ``rng`` should be the board's (the same for every frame of one board).
    """
    x0, y0, x1, y1 = field_rect
    fh = y1 - y0
    inner = border * 0.5
    outer = max(3.0, border * 0.25)
    room = border + tray - inner - outer
    if room < 2 * radius * 1.05:
        return None
    tray = int(min(room, 2 * radius * rng.uniform(1.1, 1.5)))
    divider = max(2.0, fh * rng.uniform(0.02, 0.06))
    floor = _shade(style.frame, rng.uniform(0.55, 0.85)) if np.mean(style.frame) > 60 else \
        tuple(int(c) + int(rng.integers(8, 30)) for c in style.frame)
    edge = _shade(floor, 0.55)
    halves = {}
    for side in ("left", "right"):
        tx0 = x0 - inner - tray if side == "left" else x1 + inner
        for half in ("top", "bottom"):
            ty0 = y0 if half == "top" else y0 + fh / 2 + divider / 2
            ty1 = y0 + fh / 2 - divider / 2 if half == "top" else y1
            box = (int(tx0), int(ty0), int(tx0 + tray), int(ty1))
            cv2.rectangle(img, box[:2], box[2:], tuple(map(float, floor)), -1)
            cv2.rectangle(img, box[:2], box[2:], tuple(map(float, edge)), 2)
            halves[(side, half)] = box
    side = "right" if rng.random() < 0.7 else "left"
    flat_ok = rng.random() < 0.3
    colour_of = dict(zip(scheme.names, scheme.colours))
    diameter = 2 * radius
    for name, half in zip(scheme.names, ("bottom", "top")):
        count = rows.off.get(name, 0)
        if not count:
            continue
        bx0, by0, bx1, by1 = halves[(side, half)]
        cx = (bx0 + bx1) / 2
        length = by1 - by0
        # Packed against the tray's outer end (the players' side), growing towards the middle.
        start, direction = (by1, -1) if half == "bottom" else (by0, 1)
        if flat_ok and count * diameter * 1.02 <= length:
            y = start + direction * radius * rng.uniform(1.02, 1.1)
            for _ in range(count):
                _draw_checker(img, (cx + rng.uniform(-0.03, 0.03) * diameter, y), radius,
                              colour_of[name], rng)
                y += direction * diameter * rng.uniform(1.0, 1.04)
            continue
        thickness = diameter * rng.uniform(0.19, 0.27)
        thickness = min(thickness, (length - 4) / count)
        y = start + direction * 2
        base = np.asarray(colour_of[name], np.float32)
        for _ in range(count):
            _draw_slab(img, cx + rng.uniform(-0.03, 0.03) * diameter, y, y + direction * thickness,
                       diameter, base * rng.uniform(0.95, 1.04))
            y += direction * thickness * rng.uniform(1.0, 1.05)
    return side


def _draw_slab(img: np.ndarray, cx: float, ya: float, yb: float, diameter: float,
               colour: np.ndarray) -> None:
    """A checker standing on edge, seen from above: its rim, a band ``diameter`` long, lit in
    the middle and darker towards the ends (a cylinder), with a dark seam against its
    neighbours."""
    y_lo, y_hi = sorted((ya, yb))
    x_lo, x_hi = int(round(cx - diameter / 2)), int(round(cx + diameter / 2))
    r_lo, r_hi = int(math.floor(y_lo)), int(math.ceil(y_hi))
    if r_hi <= r_lo or x_hi <= x_lo:
        return
    u = (np.arange(x_lo, x_hi, dtype=np.float32) + 0.5 - cx) / (diameter / 2)
    light = (0.72 + 0.33 * np.sqrt(np.clip(1 - u ** 2, 0, 1)))[None, :, None]
    v = (np.arange(r_lo, r_hi, dtype=np.float32) + 0.5 - y_lo) / max(y_hi - y_lo, 1e-3)
    seam = (1 - 0.45 * np.exp(-((np.minimum(v, 1 - v) * (y_hi - y_lo)) ** 2) / 1.2))[:, None, None]
    patch = img[r_lo:r_hi, x_lo:x_hi]
    if colour.mean() > 90:
        shaded = colour * light * seam
    else:  # dark checkers: the seams and rims catch light, not shade
        shaded = colour * light + (1 - seam) * 90
    patch[:] = shaded[: patch.shape[0], : patch.shape[1]]


def _draw_dice(img: np.ndarray, rows: BoardObservation, rng: np.random.Generator,
               origin: tuple[int, int], fw: int, fh: int, bar_l: float, bar_r: float,
               radius: float) -> list:
    try:
        from vision.dice.render import STYLES, draw_die
    except Exception:  # the dice renderer is another stage's; boards render without it
        return []
    # Dice lie in the middle band of one half, clear of stacks reaching into it.
    half = int(rng.integers(0, 2))
    columns = range(0, 6) if half == 0 else range(6, 12)
    reach = max([_reach(r.count) if r else 0 for row in (rows.top, rows.bottom)
                 for i, r in enumerate(row) if i in columns] + [0]) * 2 * radius
    if reach > fh / 2 - radius * 1.6:
        return []
    x_lo, x_hi = (radius * 2, bar_l - radius * 2) if half == 0 else (bar_r + radius * 2,
                                                                      fw - radius * 2)
    style = str(rng.choice(sorted(STYLES)))
    size = radius * rng.uniform(1.0, 1.3)
    dice = []
    x = rng.uniform(x_lo, (x_lo + x_hi) / 2)
    uint = np.clip(img, 0, 255).astype(np.uint8)
    for _ in range(2):
        y = fh / 2 + rng.uniform(-0.4, 0.4) * (fh / 2 - reach - size)
        dice.append(draw_die(uint, (origin[0] + x, origin[1] + y), size, int(rng.integers(1, 7)),
                             angle_deg=float(rng.uniform(0, 90)), style=style, rng=rng))
        x += size * rng.uniform(1.8, 3.0)
    img[:] = uint
    return dice


# --- the camera -------------------------------------------------------------------------------


def _camera_homography(src_rect: np.ndarray, rng: np.random.Generator, hard: bool,
                       frame_size: tuple[int, int]) -> np.ndarray:
    """A pinhole camera's view of the board's outline ``src_rect`` (4x2, board image pixels).

    The camera is physical (principal point at the frame centre), so geometry recovered from a
    frame, like the field's true aspect, is recoverable as it is from a real photo.
    """
    w, h = frame_size
    tilt = math.radians(rng.uniform(0, 45 if hard else 20))
    yaw = rng.uniform(0, 2 * math.pi)
    roll = rng.choice([0, 90, 180, 270]) if hard else rng.choice([0, 0, 0, 180])
    roll = math.radians(roll + rng.uniform(-8, 8))
    centre = src_rect.mean(axis=0)
    unit = float(np.abs(src_rect - centre).max())
    pts3 = np.hstack([(src_rect - centre) / unit, np.zeros((4, 1))])
    axis = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tilt_rot = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * k @ k
    c, s = math.cos(roll), math.sin(roll)
    roll_rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    pts3 = pts3 @ tilt_rot.T @ roll_rot.T
    focal = w * rng.uniform(0.75, 1.5)
    fill = rng.uniform(0.72 if hard else 0.8, 0.97)

    def project(shift: np.ndarray, depth: float) -> np.ndarray:
        p = pts3 + np.array([shift[0], shift[1], depth])
        return focal * p[:, :2] / p[:, 2:3] + np.array([w / 2, h / 2])

    depth = 3.0
    for _ in range(30):  # distance at which the board fills the wanted share of the frame
        proj = project(np.zeros(2), depth)
        span = proj.max(axis=0) - proj.min(axis=0)
        ratio = max(span[0] / (w * fill), span[1] / (h * fill))
        depth *= ratio
        if abs(ratio - 1) < 0.01:
            break
    proj = project(np.zeros(2), depth)
    room = (np.array([w, h]) - (proj.max(axis=0) - proj.min(axis=0))) / 2 - 2
    offset = rng.uniform(-1, 1, 2) * np.maximum(room, 0) - (proj.max(axis=0) + proj.min(axis=0)) / 2 \
        + np.array([w / 2, h / 2])
    proj = project(offset * depth / focal, depth)
    return cv2.getPerspectiveTransform(src_rect.astype(np.float32), proj.astype(np.float32))


def _background(frame_size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = frame_size
    base = rng.integers(30, 200, 3)
    img = _texture(h, w, base.tolist(), rng, wood=bool(rng.random() < 0.4))
    return img


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur, done at a quarter of the size (the result is smooth anyway)."""
    h, w = mask.shape
    small = cv2.resize(mask, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _spoil(img: np.ndarray, rng: np.random.Generator, hard: bool, board_poly: np.ndarray,
           field_poly: np.ndarray) -> tuple[np.ndarray, bool]:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # Uneven light: a broad gradient and a vignette.
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + (0.35 if hard else 0.15) * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    light *= 1 - rng.uniform(0, 0.25) * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2)
    img = img * light[..., None]
    hands = False
    if hard:
        if rng.random() < 0.5:  # glare: a bright soft ellipse somewhere on the board
            mask = np.zeros((h, w), np.float32)
            centre = field_poly[rng.integers(0, 4)] * 0.5 + field_poly.mean(axis=0) * 0.5
            cv2.ellipse(mask, (int(centre[0]), int(centre[1])),
                        (int(rng.uniform(30, 120)), int(rng.uniform(15, 60))),
                        rng.uniform(0, 180), 0, 360, 1.0, -1)
            mask = _soft(mask, rng.uniform(10, 30))
            img = img + mask[..., None] * rng.uniform(40, 110)
        if rng.random() < 0.5:  # a soft shadow across part of the board
            mask = np.zeros((h, w), np.float32)
            p = field_poly.mean(axis=0) + rng.normal(0, 80, (5, 2))
            cv2.fillPoly(mask, [cv2.convexHull(p.astype(np.int32))], 1.0)
            mask = _soft(mask, rng.uniform(15, 35))
            img = img * (1 - rng.uniform(0.2, 0.45) * mask)[..., None]
    return img, hands


def _draw_hand(img: np.ndarray, rng: np.random.Generator, board_poly: np.ndarray,
               field_poly: np.ndarray) -> None:
    """An arm and hand reaching over the board's frame from outside, stopping at the field's
    edge (a hand over the checkers themselves hides the truth)."""
    edge = int(rng.integers(0, 4))
    a, b = board_poly[edge], board_poly[(edge + 1) % 4]
    fa, fb = field_poly[edge], field_poly[(edge + 1) % 4]
    t = rng.uniform(0.2, 0.8)
    tip = fa + (fb - fa) * t
    outward = (a + b) / 2 - field_poly.mean(axis=0)
    outward /= np.linalg.norm(outward) + 1e-6
    along = (fb - fa) / (np.linalg.norm(fb - fa) + 1e-6)
    width = np.linalg.norm(fb - fa) * rng.uniform(0.08, 0.13)
    far = tip + outward * 900
    poly = np.array([tip - along * width * 0.6 + outward * 4, tip + along * width * 0.6 + outward * 4,
                     far + along * width, far - along * width], np.float32)
    skin = np.array(rng.choice([(120, 160, 215), (95, 130, 190), (70, 95, 140),
                                (150, 185, 230)]), np.float32)
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.fillPoly(mask, [poly.astype(np.int32)], 1.0)
    cv2.circle(mask, tuple(int(v) for v in tip + outward * width * 0.5), int(width * 0.7), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 2.0)
    shade = 0.85 + 0.15 * rng.random()
    img[:] = img * (1 - mask[..., None]) + skin * shade * mask[..., None]


def render_board(position: Position | BoardObservation | None = None,
                 options: RenderOptions | None = None) -> Scene:
    """Draw one labelled camera frame (1280x720 BGR) of a board.

    ``position`` may be an engine position (X plays the scheme's first colour, X's home at the
    bottom right), rows as seen, or ``None`` for a random board.
    """
    options = options or RenderOptions()
    rng = np.random.default_rng(options.seed)
    camera_rng = np.random.default_rng(
        options.seed if options.camera_seed is None else options.camera_seed)
    layout_rng = np.random.default_rng(camera_rng.integers(1 << 31))
    style = options.style or BOARD_STYLES[int(camera_rng.integers(len(BOARD_STYLES)))]
    scheme = options.scheme or CHECKER_SCHEMES[int(camera_rng.integers(len(CHECKER_SCHEMES)))]
    hard = options.hard
    aspect = camera_rng.uniform(0.8, 0.95)
    bar_fraction = camera_rng.uniform(0.04, 0.09)
    field_width = 760
    if isinstance(position, Position):
        truth = rows_from_position(position, scheme.names)
    elif isinstance(position, BoardObservation):
        truth = position
    elif options.layered:
        truth = layered_rows(rng, scheme.names)
    else:
        pw = field_width * (1 - bar_fraction) / 12
        max_reach = field_width * aspect / (pw * 0.92) - 0.9
        truth = random_rows(rng, scheme.names, max_reach, hard)
    # Trays have their own random stream, the board's (a board keeps its trays through a
    # game); scenes without checkers off are drawn as before.
    tray_rng = np.random.default_rng(
        [options.seed if options.camera_seed is None else options.camera_seed, 0x7A5])
    trays: dict = {}
    solid = None
    if options.solid:
        # The camera, light and checker thickness have their own stream, the board's.
        solid_rng = np.random.default_rng(
            [options.seed if options.camera_seed is None else options.camera_seed, 0x5011D])
        pose = options.pose or CameraPose.random(solid_rng, (0.0, 60.0 if hard else 30.0))
        solid = SolidView(pose, solid_rng, FRAME_SIZE)
    board, rect, dice = draw_topdown(truth, style, scheme, rng, field_width, aspect, bar_fraction,
                                     jitter=0.12 if hard else 0.05, dice=options.dice,
                                     layout_rng=layout_rng, tray_rng=tray_rng, trays_drawn=trays,
                                     layered=options.layered, solid=solid)
    H, W = board.shape[:2]
    outline = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    matrix = _camera_homography(outline, camera_rng, hard, FRAME_SIZE)
    if solid is not None:
        # Drawn anyway (and dropped) so the background, light and glare that follow are the
        # flat frame's of the same seed.
        matrix = solid.camera.matrix
    frame = _background(FRAME_SIZE, camera_rng)
    warped = cv2.warpPerspective(board, matrix, FRAME_SIZE, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones((H, W), np.float32), matrix, FRAME_SIZE,
                               flags=cv2.INTER_LINEAR)
    frame = frame * (1 - mask[..., None]) + warped * mask[..., None]
    x0, y0, x1, y1 = rect
    field_src = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    field_poly = cv2.perspectiveTransform(field_src[None], matrix)[0]
    board_poly = cv2.perspectiveTransform(outline[None], matrix)[0]
    frame, _ = _spoil(frame, camera_rng, hard, board_poly, field_poly)
    hands = bool(options.hands) if options.hands is not None else (hard and rng.random() < 0.15)
    if hands:
        _draw_hand(frame, rng, board_poly, field_poly)
    if hard:
        if rng.random() < 0.5:
            k = rng.uniform(0.5, 1.6)
            frame = cv2.GaussianBlur(frame, (0, 0), k)
        frame = frame + rng.normal(0, rng.uniform(2, 7), frame.shape).astype(np.float32)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    quality = int(rng.uniform(35, 80)) if hard else 90
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    projected_dice = []
    for die in dice:
        c = cv2.perspectiveTransform(np.float32([[die.centre]]), matrix)[0, 0]
        projected_dice.append((float(c[0]), float(c[1]), die.expected_value))
    corners = tuple((float(x), float(y)) for x, y in field_poly)
    return Scene(image, corners, truth, style.name, "/".join(scheme.names), projected_dice, hands,
                 tray_side=trays.get("side"), camera=solid.camera if solid else None)
