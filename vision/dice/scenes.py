"""Labelled synthetic dice scenes: dice rolled on a backgammon board or a table.

Each scene is drawn from a seed, so the evaluation and the tests see the same frames
on every machine without any stored images.  A scene mixes what makes dice hard to
read: checkers and points of colours like the dice, a doubling cube, uneven light,
shadows, translucent dice, side faces seen at a slant, blur, noise and JPEG.

>>> scene = make_scene(3)
>>> scene.image.shape, scene.image.dtype
((480, 640, 3), dtype('uint8'))
>>> all(1 <= d.value <= 6 for d in scene.dice)
True
>>> make_scene(3).image.tobytes() == scene.image.tobytes()     # same seed, same frame
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.render import CUBE_VALUES, STYLES, RenderedDie, draw_die, draw_doubling_cube


@dataclass(frozen=True)
class DiceScene:
    """A synthetic frame and its truth.

    ``region`` is the playing field as four ``(x, y)`` corners, or ``None`` for dice on a
    table (the camera then looks at a slant, like in photos); ``cube`` is the doubling cube's box, or ``None`` when there is none.
    """

    image: np.ndarray
    dice: tuple[RenderedDie, ...]
    region: tuple[tuple[float, float], ...] | None
    cube: tuple[float, float, float, float] | None
    seed: int


_FELTS = [(40, 110, 45), (120, 80, 30), (30, 50, 110), (40, 40, 40), (150, 160, 165), (60, 120, 170)]
_POINT_PAIRS = [((200, 225, 235), (40, 40, 160)), ((235, 235, 235), (40, 40, 40)), ((60, 160, 200), (30, 60, 30)),
                ((220, 220, 220), (130, 60, 20))]
_CHECKERS = [(235, 238, 240), (30, 30, 30), (40, 40, 170), (175, 210, 230), (50, 120, 60), (150, 90, 40)]


def _uneven_light(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A smooth multiplicative light field, 0.55 to 1.25."""
    h, w = shape
    small = rng.uniform(0.55, 1.25, size=(3, 4)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    base = np.array([rng.uniform(120, 200), rng.uniform(160, 215), rng.uniform(190, 235)], np.float32)
    grain = cv2.resize(rng.normal(0, 1, (h // 8 + 1, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    stripes = np.sin(np.linspace(0, rng.uniform(20, 60), w)[None, :] + 3 * grain) * rng.uniform(4, 12)
    img = base[None, None, :] * (1 + stripes[..., None] / 100.0) + rng.normal(0, 3, (h, w, 1))
    if rng.random() < 0.5:
        img = np.ascontiguousarray(np.transpose(cv2.resize(img, (h, w)), (1, 0, 2)))
    return img


def _checker(img: np.ndarray, centre: tuple[int, int], radius: int, colour: tuple[int, int, int]) -> None:
    c = np.asarray(colour, float)
    cv2.circle(img, (centre[0] + radius // 6, centre[1] + radius // 5), radius, tuple(c * 0.4), -1, cv2.LINE_AA)
    cv2.circle(img, centre, radius, tuple(np.clip(c * 0.8, 0, 255)), -1, cv2.LINE_AA)
    cv2.circle(img, centre, int(radius * 0.8), tuple(np.clip(c * 1.05 + 8, 0, 255)), -1, cv2.LINE_AA)
    cv2.circle(img, centre, int(radius * 0.55), tuple(np.clip(c * 0.92, 0, 255)), max(1, radius // 12), cv2.LINE_AA)


def _board(h: int, w: int, rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """A playing field seen from above, with points and checkers; returns (image, checker circles)."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = _FELTS[rng.integers(len(_FELTS))]
    img += rng.normal(0, 4, (h, w, 1))
    light, dark = _POINT_PAIRS[rng.integers(len(_POINT_PAIRS))]
    width = w / 12
    for k in range(12):
        for top in (True, False):
            colour = light if (k + top) % 2 else dark
            x0 = k * width
            base_y, tip_y = (0, h * 0.42) if top else (h, h * 0.58)
            tri = np.array([[x0, base_y], [x0 + width, base_y], [x0 + width / 2, tip_y]], np.int32)
            cv2.fillPoly(img, [tri], colour, cv2.LINE_AA)
    checkers = []
    radius = int(width * 0.47)
    colours = [_CHECKERS[i] for i in rng.choice(len(_CHECKERS), 2, replace=False)]
    for k in range(12):
        for top in (True, False):
            if rng.random() < 0.5:
                continue
            colour = colours[int(rng.integers(2))]
            for j in range(int(rng.integers(1, 5))):
                cx = int(k * width + width / 2)
                cy = int(radius + 2 * radius * j) if top else int(h - radius - 2 * radius * j)
                _checker(img, (cx, cy), radius, colour)
                checkers.append((cx, cy, radius))
    return img, checkers


def make_scene(seed: int, width: int = 640, height: int = 480, max_dice: int = 4,
               cocked_rate: float = 0.12, cube_rate: float = 0.25) -> DiceScene:
    """Draw the synthetic scene number ``seed`` (deterministic)."""
    rng = np.random.default_rng(seed)
    on_board = rng.random() < 0.6
    if on_board:
        img, checkers = _board(height, width, rng)
        view_tilt_max = 4.0   # bgbridge's camera looks down on the board (its corners say how)
    else:
        img, checkers = _wood(height, width, rng), []
        view_tilt_max = 35.0
    img = np.clip(img, 0, 255).astype(np.uint8)
    n_dice = int(rng.choice([1, 2, 2, 2, 3, 4][: max(1, max_dice + 2)])) if max_dice > 0 else 0
    n_dice = min(n_dice, max_dice)
    size = float(rng.uniform(18, 70))
    view_tilt = float(rng.uniform(0, view_tilt_max))
    style_names = sorted(STYLES)
    style = style_names[int(rng.integers(len(style_names)))]
    taken: list[tuple[float, float, float]] = []  # (x, y, radius) of dice and cube
    dice: list[RenderedDie] = []

    def free_spot(radius: float) -> tuple[float, float] | None:
        for _ in range(200):
            x = rng.uniform(radius + 4, width - radius - 4)
            y = rng.uniform(radius + 4, height - radius - 4)
            if all(math.hypot(x - a, y - b) > radius + r + 3 for a, b, r in taken) and \
               all(math.hypot(x - a, y - b) > radius + r for a, b, r in checkers):
                return x, y
        return None

    cube = None
    if rng.random() < cube_rate:
        cube_size = size * rng.uniform(1.1, 1.4)
        spot = free_spot(cube_size * 0.75)
        if spot:
            cube = draw_doubling_cube(img, spot, cube_size, int(rng.choice(CUBE_VALUES)), float(rng.uniform(0, 360)),
                                      rng, view_tilt)
            taken.append((*spot, cube_size * 0.75))
    for _ in range(n_dice):
        die_size = size * rng.uniform(0.95, 1.05)
        spot = free_spot(die_size * 0.8)
        if spot is None:
            continue
        # Cocked dice lean on checkers or the board's edge; on a table scene (no playing field
        # given, camera slant unknown) a cocked die cannot be told from a flat one seen at a slant.
        cocked = bool(rng.random() < cocked_rate) and on_board
        dice.append(draw_die(img, spot, die_size, int(rng.integers(1, 7)), float(rng.uniform(0, 360)), style,
                             cocked=cocked, rng=rng, view_tilt_deg=view_tilt))
        taken.append((*spot, die_size * 0.8))
    out = img.astype(np.float32) * _uneven_light((height, width), rng)[..., None]
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigmaX=float(rng.uniform(0.5, 1.2)))
    out += rng.normal(0, rng.uniform(1, 5), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    out = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    region = ((0.0, 0.0), (width - 1.0, 0.0), (width - 1.0, height - 1.0), (0.0, height - 1.0)) if on_board else None
    return DiceScene(image=out, dice=tuple(dice), region=region, cube=cube, seed=seed)
