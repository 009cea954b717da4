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


def two_clusters(colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split checker colours (N x 3 Lab) into two groups: (labels 0/1, centres 2 x 3 Lab).

    The lighter cluster comes first so that names and order are stable from frame to frame.

    >>> labels, centres = two_clusters(np.array([[230, 128, 130], [40, 128, 128], [225, 127, 131]]))
    >>> labels.tolist()
    [0, 1, 0]
    """
    colours = np.asarray(colours, np.float32).reshape(-1, 3)
    if len(colours) == 0:
        return np.zeros(0, np.int32), np.zeros((2, 3), np.float32)
    if len(colours) == 1:
        return np.zeros(1, np.int32), np.vstack([colours, colours])
    data = weighted(colours)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
    # Deterministic start: the two colours farthest apart.
    d = ((data[:, None, :] - data[None, :, :]) ** 2).sum(axis=2)
    i, j = np.unravel_index(np.argmax(d), d.shape)
    labels = np.where(((data - data[i]) ** 2).sum(1) <= ((data - data[j]) ** 2).sum(1), 0, 1)
    _, labels, _ = cv2.kmeans(data, 2, labels.astype(np.int32).reshape(-1, 1), criteria, 1,
                              cv2.KMEANS_USE_INITIAL_LABELS)
    labels = labels.ravel()
    centres = np.array([
        np.median(colours[labels == k], axis=0) if np.any(labels == k) else colours.mean(axis=0)
        for k in (0, 1)
    ], np.float32)
    if centres[1, 0] > centres[0, 0]:
        labels = 1 - labels
        centres = centres[::-1].copy()
    return labels.astype(np.int32), centres


def nearest(colours: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Assign colours to the nearest of two centres: (labels, margin 0..1 per colour)."""
    data = weighted(colours)
    ref = weighted(centres)
    d = np.sqrt(((data[:, None, :] - ref[None, :, :]) ** 2).sum(axis=2))
    labels = np.argmin(d, axis=1)
    near, far = d.min(axis=1), d.max(axis=1)
    margin = (far - near) / (far + near + 1e-6)
    return labels.astype(np.int32), margin
