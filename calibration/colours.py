"""Checker colours: telling two colours apart on any board and naming them by their look.

Colours are kept in OpenCV's 8-bit Lab (L 0..255, a and b centred on 128), where distances
roughly follow what the eye sees and lightness can be weighted down (glare and shadow change
lightness far more than hue).

>>> colour_name((240, 128, 132)), colour_name((40, 128, 128)), colour_name((110, 175, 150))
('white', 'black', 'red')
>>> names = name_pair([(235, 128, 135), (120, 160, 185)])
>>> names
('white', 'gold')
"""
from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

#: Lightness counts this much less than hue when comparing checker colours.
LIGHTNESS_WEIGHT = 0.45
#: A cluster weighing less than this (about two sure checkers) may be an outlier.
OUTLIER_WEIGHT = 2.5
#: Weighted Lab distance beyond which two groups are surely two checker colours.
SEPARATE_COLOURS = 35.0


def colour_name(lab: Sequence[float]) -> str:
    """A plain name for an 8-bit Lab colour: white, black, grey, red, gold, yellow, green, blue..."""
    light, a, b = float(lab[0]), float(lab[1]) - 128, float(lab[2]) - 128
    chroma = math.hypot(a, b)
    if chroma < 16 or (chroma < 24 and light > 190):
        if light >= 150:
            return "white"
        if light <= 95:
            return "black"
        return "grey"
    hue = math.degrees(math.atan2(b, a)) % 360
    if hue < 15 or hue >= 330:
        return "red" if a > 25 or light < 160 else "pink"
    if hue < 50:
        return "red" if light < 150 or chroma > 45 else "orange"
    if hue < 80:
        return "gold" if light < 200 else "ivory"
    if hue < 105:
        return "yellow" if light > 150 else "brown"
    if hue < 200:
        return "green"
    if hue < 300:
        return "blue"
    return "purple"


def name_pair(centres: Sequence[Sequence[float]]) -> tuple[str, str]:
    """Names for two cluster centres, distinct even when both look alike ("red", "dark red")."""
    first, second = colour_name(centres[0]), colour_name(centres[1])
    if first != second:
        return first, second
    if float(centres[0][0]) >= float(centres[1][0]):
        return first, f"dark {second}"
    return f"dark {first}", second


def weighted(lab: np.ndarray) -> np.ndarray:
    """Lab colours scaled for distance comparisons (lightness down-weighted)."""
    out = np.asarray(lab, np.float32).reshape(-1, 3).copy()
    out[:, 0] *= LIGHTNESS_WEIGHT
    return out


def two_clusters(colours: np.ndarray, weights: np.ndarray | None = None,
                 stacks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Split checker colours (N x 3 Lab) into two groups: (labels 0/1, centres 2 x 3 Lab).

    ``weights`` (default 1) says how sure each detection is.  A "cluster" of one or two weak
    detections beside a big one is an outlier (a die, a shadow), not a colour: the big group is
    split instead when it holds two clearly different colours, and (given ``stacks``, each
    colour's point stack, negative for none, as the bar's) when each of the two has a stack of
    its own (see :func:`_own_stacks`): one stack holds one player's checkers, so halves that
    only share stacks are one colour in light and shade.  The lighter cluster comes first so
    that names and order are stable from frame to frame.

    >>> labels, centres = two_clusters(np.array([[230, 128, 130], [40, 128, 128], [225, 127, 131]]))
    >>> labels.tolist()
    [0, 1, 0]

    Two sure red checkers beside white ones, some of these in shade on the same stacks as lit
    ones: the reds are the second colour, not an outlier.

    >>> whites = [[240, 128, 130]] * 6 + [[215, 128, 130], [150, 128, 130], [145, 128, 130]]
    >>> found = np.float32(whites + [[110, 185, 165], [112, 183, 166]])
    >>> stacks = np.array([0, 1, 2, 3, 4, 5, 6, 6, 6, 7, -1])
    >>> labels, centres = two_clusters(found, stacks=stacks)
    >>> labels.tolist(), name_pair(centres)
    ([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1], ('white', 'red'))
    >>> two_clusters(found)[0].tolist()    # without stacks, the shade is split off as a colour
    [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    """
    colours = np.asarray(colours, np.float32).reshape(-1, 3)
    n = len(colours)
    if n == 0:
        return np.zeros(0, np.int32), np.zeros((2, 3), np.float32)
    if n == 1:
        return np.zeros(1, np.int32), np.vstack([colours, colours])
    w = np.ones(n, np.float32) if weights is None else np.asarray(weights, np.float32)
    labels = _two_means(weighted(colours), w)
    small = int(np.argmin([w[labels == k].sum() for k in (0, 1)]))
    if w[labels == small].sum() < OUTLIER_WEIGHT and w[labels != small].sum() > 3 * OUTLIER_WEIGHT:
        big = labels != small
        inner = _two_means(weighted(colours[big]), w[big])
        a, b = (np.median(weighted(colours[big][inner == k]), axis=0) for k in (0, 1))
        if np.sqrt(((a - b) ** 2).sum()) > SEPARATE_COLOURS and (
                stacks is None or _own_stacks(inner, np.asarray(stacks)[big])):
            centres_w = np.vstack([a, b])
            d = ((weighted(colours)[:, None, :] - centres_w[None]) ** 2).sum(axis=2)
            labels = np.argmin(d, axis=1)
    centres = np.array([
        np.median(colours[labels == k], axis=0) if np.any(labels == k) else colours.mean(axis=0)
        for k in (0, 1)
    ], np.float32)
    if centres[1, 0] > centres[0, 0]:
        labels = 1 - labels
        centres = centres[::-1].copy()
    return labels.astype(np.int32), centres


def _own_stacks(labels: np.ndarray, stacks: np.ndarray) -> bool:
    """Whether each of two groups (``labels`` 0/1) holds a whole point stack of its own: every
    colour found on some stack (``stacks``, negative for none) in that group alone.

    >>> _own_stacks(np.array([0, 0, 1, 1]), np.array([0, 0, 1, 1]))
    True
    >>> _own_stacks(np.array([0, 0, 1, 1, 0]), np.array([0, 1, 1, 2, 2]))
    False
    """
    stacks = np.asarray(stacks)
    own = [False, False]
    for stack in np.unique(stacks[stacks >= 0]):
        held = np.unique(labels[stacks == stack])
        if len(held) == 1:
            own[int(held[0])] = True
    return all(own)


def _two_means(data: np.ndarray, weights: np.ndarray, rounds: int = 20) -> np.ndarray:
    """Weighted 2-means, started from the two points farthest apart (deterministic)."""
    if len(data) < 2:
        return np.zeros(len(data), np.int64)
    d = ((data[:, None, :] - data[None, :, :]) ** 2).sum(axis=2)
    i, j = np.unravel_index(np.argmax(d), d.shape)
    centres = np.vstack([data[i], data[j]])
    labels = np.zeros(len(data), np.int64)
    for _ in range(rounds):
        new = np.argmin(((data[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
        if np.array_equal(new, labels) and _ > 0:
            break
        labels = new
        for k in (0, 1):
            mask = labels == k
            if mask.any():
                centres[k] = (data[mask] * weights[mask, None]).sum(axis=0) / weights[mask].sum()
    return labels


def srgb_to_linear(value: np.ndarray) -> np.ndarray:
    """sRGB-encoded values (0..1) as linear light: light adds, and glare is added, there.

    >>> [round(float(v), 3) for v in srgb_to_linear(np.float64([0, 0.5, 1]))]
    [0.0, 0.214, 1.0]
    """
    value = np.asarray(value)
    return np.where(value <= 0.04045, value / 12.92, ((value + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(light: np.ndarray) -> np.ndarray:
    """Linear light, clipped to 0..1 (a sensor saturates), as sRGB-encoded values (0..1); the
    inverse of :func:`srgb_to_linear`.

    >>> [round(float(v), 3) for v in linear_to_srgb(srgb_to_linear(np.float64([0.2, 0.7])))]
    [0.2, 0.7]
    """
    light = np.clip(light, 0.0, 1.0)  # (in the precision it comes in)
    return np.where(light <= 0.0031308, 12.92 * light, 1.055 * light ** (1 / 2.4) - 0.055)


#: Amounts of white light (linear, a share of full scale) tried by :func:`lit_distance`: none,
#: then from a faint sheen to a saturating glare, each about 9% more than the one before.
GLARE_LEVELS = np.concatenate([[0.0], np.geomspace(0.002, 1.0, 72)])[:, None]
# 8-bit Lab to OpenCV's float Lab (L 0..100, a and b about 0), and the lightness-weighted
# distance's channel weights in that scale.
_LAB_SCALE = np.float32([100 / 255, 1, 1])
_LAB_OFFSET = np.float32([0, 128, 128])
_FLOAT_WEIGHTS = np.float32([LIGHTNESS_WEIGHT * 255 / 100, 1, 1])


def lit_distance(colour: Sequence[float], paint: Sequence[float]) -> float:
    """How far (lightness-weighted, as :func:`weighted`) an 8-bit Lab ``colour`` lies from the
    Lab ``paint`` lit by glare: white light added to the paint in linear light and clipped (a
    lamp's reflection on a glossy board), as much as brings it nearest.

    Glare lifts a dark paint toward grey and white and pales a coloured one; no amount of it
    turns one hue into another or darkens anything.

    >>> navy = (27, 129, 125)
    >>> lit_distance((71, 129, 127), navy) < 1, lit_distance((27, 129, 125), navy) < 1
    (True, True)
    >>> lit_distance((60, 175, 150), navy) > 40, lit_distance((15, 129, 125), navy) > 5
    (True, True)
    """
    lab = (np.asarray(paint, np.float32) - _LAB_OFFSET) * _LAB_SCALE
    bgr = np.clip(cv2.cvtColor(lab.reshape(1, 1, 3), cv2.COLOR_Lab2BGR), 0.0, 1.0).reshape(3)
    lit = linear_to_srgb(srgb_to_linear(bgr) + GLARE_LEVELS).astype(np.float32)
    lit = cv2.cvtColor(lit.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)
    gaps = (lit - (np.asarray(colour, np.float32) - _LAB_OFFSET) * _LAB_SCALE) * _FLOAT_WEIGHTS
    return float(np.sqrt(np.square(gaps).sum(axis=1).min()))


def centre_distances(colours: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Distance (lightness down-weighted, as :func:`weighted`) from each colour to each centre.

    >>> centre_distances(np.float32([[100, 131, 132]]), np.float32([[100, 128, 128], [0, 128, 128]])).shape
    (1, 2)
    """
    data = weighted(colours)
    ref = weighted(centres)
    return np.sqrt(((data[:, None, :] - ref[None, :, :]) ** 2).sum(axis=2))


def nearest(colours: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Assign colours to the nearest of two centres: (labels, margin 0..1 per colour)."""
    d = centre_distances(colours, centres)
    labels = np.argmin(d, axis=1)
    near, far = d.min(axis=1), d.max(axis=1)
    margin = (far - near) / (far + near + 1e-6)
    return labels.astype(np.int32), margin


def nearest_distance(colours: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Distance from each of ``colours`` (N x 3) to the nearest of ``palette`` (P x 3, P > 0).

    Summed channel by channel, in the same order as a sum over the last axis and far faster
    than one for a last axis of 3; the square root is taken of the least sum only.

    >>> nearest_distance(np.float32([[0, 3, 4], [1, 0, 0]]), np.float32([[0, 0, 0], [9, 9, 9]]))
    array([5., 1.], dtype=float32)
    """
    channels = np.ascontiguousarray(np.asarray(colours, np.float32).reshape(-1, 3).T)
    palette = np.ascontiguousarray(np.asarray(palette, np.float32).reshape(-1, 3).T)
    # Palette colours down, pixels along: every operation runs along the many pixels.
    total = np.square(channels[0][None, :] - palette[0][:, None])
    for k in (1, 2):
        total += np.square(channels[k][None, :] - palette[k][:, None])
    return np.sqrt(total.min(axis=0))


def code_levels(scale: Sequence[float]) -> np.ndarray:
    """Each 8-bit Lab code's value per channel once scaled channel by channel (``scale``: the
    three factors, as float32), as a 256 x 3 table: ``levels[code, k]`` is ``float32(code)
    * float32(scale[k])``, what an image's 8-bit Lab made float32 and scaled holds.

    >>> codes = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    >>> levels = code_levels((LIGHTNESS_WEIGHT, 1, 1))
    >>> bool(np.array_equal(levels, weighted(codes.astype(np.float32))))
    True
    """
    codes = np.repeat(np.arange(256, dtype=np.float32)[:, None], 3, axis=1)
    return codes * np.asarray(scale, np.float32)


def nearest_code_distance(planes: Sequence[np.ndarray], levels: np.ndarray,
                          palette: np.ndarray) -> np.ndarray:
    """:func:`nearest_distance` of an 8-bit Lab image's pixels, as ``levels`` (from
    :func:`code_levels`) value them, to ``palette``, equal value for value; ``planes`` are the
    image's three channels apart (``cv2.split``), the distances come in their shape.  Each
    channel's square difference to a palette colour depends on the pixel's code only, so it
    is looked up in a table of 256 (``cv2.LUT``, a fraction of the cost of making the image
    float, scaling and subtracting); the squares are added in the same order, the least sum
    over the palette taken before the square root.

    >>> rng = np.random.default_rng(0)
    >>> lab8 = rng.integers(0, 256, (30, 20, 3), np.uint8)
    >>> palette = rng.uniform(0, 255, (2, 3)).astype(np.float32)
    >>> levels = code_levels((LIGHTNESS_WEIGHT, 1, 1))
    >>> plain = nearest_distance(weighted(lab8.astype(np.float32)), palette)
    >>> got = nearest_code_distance(cv2.split(lab8), levels, palette)
    >>> got.shape, bool(np.array_equal(got.ravel(), plain))
    ((30, 20), True)
    """
    best = None
    for colour in np.asarray(palette, np.float32).reshape(-1, 3):
        squares = np.square(levels - colour).T.copy()  # one contiguous table per channel
        total = cv2.LUT(planes[0], squares[0])
        total += cv2.LUT(planes[1], squares[1])
        total += cv2.LUT(planes[2], squares[2])
        best = total if best is None else np.minimum(best, total, out=best)
    return np.sqrt(best)
