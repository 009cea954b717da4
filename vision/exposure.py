"""Edge lightness that does not depend on how dark the photo was taken.

A camera's tone curve squeezes the darkest tones together: in an under-exposed photo (a dim
room, a phone's auto-exposure set by a bright lamp in view) a black checker's rim against a
black frame or a black point is a step of two or three 8-bit Lab lightness levels where a well
exposed photo shows twenty.  Its contrast *relative to its lightness* (as a ratio, as the eye
judges it) is kept, but the ring evidence (:class:`vision.rings.RingScorer`) compares gradients
in Lab units against the board's bright edges, and the rim is lost.

This module measures, on the warped field itself, how far its darkest tones were crushed, and
gives the ring stage a lightness on which dark contrasts count as ratios again:

* the field's *black level* (:data:`BLACK_PERCENTILE` of its lightness: black paint, black
  checkers, the gaps between them) sits at :data:`WELL_EXPOSED_BLACK` or above in a well
  exposed photo: 4 of the first 500 synthetic frames (black boards in dim light included) lie
  below it, at 12 to 14; the six labelled real photos lie at 6 to 17 (the tournament frames'
  black boards, deep in shadow, lowest); gamma 1.8 (an under-exposed photo) takes them all to
  1 or 2;
* below that the darks are expanded by a logarithmic toe (:func:`tone_curve`): contrast then
  counts as ``(L1 + offset) / (L2 + offset)``, a ratio, the gain at the black level chosen to
  bring it back to where a well exposed black would be;
* the gain is capped by the field's noise in its darks (:func:`dark_noise`): expanding the darks
  expands their noise too, and beyond :data:`NOISE_LIMIT` it rings like rims (the bases of empty
  black points against a black frame are the first to look like checkers).

Lightness above :data:`DARK_KNEE` is left as it is, and so is a field whose black level is
well exposed: on such a field (nearly every synthetic frame) the ring evidence is unchanged.

>>> field = np.zeros((40, 60), np.uint8)
>>> field[:, 30:] = 120            # half black (lightness 0), half mid-grey
>>> black_level(field)
0.0
>>> lab8 = np.dstack([field, np.full_like(field, 128), np.full_like(field, 128)])
>>> lab = lab8.astype(np.float32)
>>> toned = edge_lab(lab8, lab)
>>> float(toned[0, 0, 0]) < 0 < float(toned[0, 59, 0]) == 120.0   # darks pushed down, mids kept
True
>>> lab8[..., 0] = np.where(field > 0, 120, 30)   # its blacks at a well exposed level
>>> edge_lab(lab8, lab) is lab
True
"""
from __future__ import annotations

import cv2
import numpy as np

#: Lightness (8-bit Lab L, 0..255) below which the darks may be expanded; above it the edge
#: lightness is the Lab lightness.  (The tone curve is continuous there, with slope 1.)
DARK_KNEE = 40.0
#: The field's black level: this percentile of its lightness (the darkest few per cent of a
#: board are black paint, black checkers, gaps and shadows).
BLACK_PERCENTILE = 5
#: A black level at or above this (8-bit Lab L) is well exposed: nothing is expanded.  (L* 6,
#: under 1% of the white's luminance; black paint reflects several per cent, so only shadows,
#: gaps and tones a camera's curve crushed lie lower.)
WELL_EXPOSED_BLACK = 15.0
#: Largest noise (8-bit Lab L, standard deviation) the expansion may raise the darks' noise to.
NOISE_LIMIT = 7.0
#: Immerkær's noise kernel (zero on any linear ramp), and a pixel's 3x3 neighbourhood.
_NOISE_KERNEL = np.float32([[1, -2, 1], [-2, 4, -2], [1, -2, 1]])
_NEIGHBOURS = np.ones((3, 3), np.uint8)


def black_level(lightness: np.ndarray) -> float:
    """The :data:`BLACK_PERCENTILE` of an 8-bit lightness image (every other pixel each way),
    from its histogram.

    >>> black_level(np.arange(100, dtype=np.uint8).reshape(10, 10))   # 0, 2, 4, ... 88 seen
    2.0
    >>> black_level(np.full((8, 8), 77, np.uint8))
    77.0
    """
    counts = np.bincount(lightness[::2, ::2].ravel(), minlength=256)
    cumulative = np.cumsum(counts)
    return float(np.searchsorted(cumulative, cumulative[-1] * BLACK_PERCENTILE / 100))


def dark_noise(lightness: np.ndarray) -> float:
    """Noise (standard deviation, 8-bit Lab L) in the darks (below :data:`DARK_KNEE`) of an
    8-bit lightness image; 0 when the image has almost no darks.

    Immerkær's estimator (the mean absolute response to a 3x3 kernel that cancels every
    linear ramp, times sqrt(pi/2) / 6) over the flatter half of the dark pixels (gradient at
    most their median): rims, grain and the edges between dark paints answer the kernel too,
    and would be taken for noise.

    >>> rng = np.random.default_rng(0)
    >>> noisy = np.clip(20 + rng.normal(0, 4, (200, 200)), 0, 255).astype(np.uint8)
    >>> 3.4 < dark_noise(noisy) < 4.6
    True
    >>> ramp = np.tile(np.arange(0, 30, dtype=np.uint8), (40, 1))   # a smooth shading only
    >>> dark_noise(ramp)
    0.0
    """
    dark = cv2.erode((lightness < DARK_KNEE).astype(np.uint8), _NEIGHBOURS) > 0
    if np.count_nonzero(dark) < 100:
        return 0.0
    image = lightness.astype(np.float32)
    response = np.abs(cv2.filter2D(image, -1, _NOISE_KERNEL))[dark]
    slope = cv2.magnitude(cv2.Sobel(image, cv2.CV_32F, 1, 0),
                          cv2.Sobel(image, cv2.CV_32F, 0, 1))[dark]
    flat = slope <= np.median(slope)
    return float(np.sqrt(np.pi / 2) / 6 * response[flat].mean())


def dark_gain(black: float, noise: float) -> float:
    """How much to expand dark contrast at the black level: enough to bring a crushed black
    level back to :data:`WELL_EXPOSED_BLACK`, no more than keeps the darks' noise under
    :data:`NOISE_LIMIT`, and never below 1.  The noise is taken as at least one lightness
    level: where the darks are crushed to a few levels, one 8-bit step is their grain (a flat
    black's neighbours differ by 0 or 1 and the measured noise is under one level).

    >>> dark_gain(20.0, 1.0), dark_gain(3.0, 1.0), dark_gain(1.0, 4.0)
    (1.0, 5.0, 1.75)
    """
    wanted = WELL_EXPOSED_BLACK / max(black, 1.0)
    allowed = NOISE_LIMIT / max(noise, 1.0)
    return float(max(1.0, min(wanted, allowed)))


def tone_curve(gain: float, black: float) -> np.ndarray:
    """The edge lightness of each 8-bit lightness (float32, 256 entries): the identity from
    :data:`DARK_KNEE` up; below it a logarithmic toe ``knee - (knee + c) ln((knee + c) / (L + c))``
    (contrast as the ratio of ``L + c``), continuous with slope 1 at the knee and slope ``gain``
    at the black level.

    >>> curve = tone_curve(4.0, 2.0)
    >>> float(curve[200]), float(curve[40])
    (200.0, 40.0)
    >>> round(float(curve[3] - curve[2]), 1)   # the slope at the black level
    3.8
    >>> bool(np.all(np.diff(curve) > 0))
    True
    """
    lightness = np.arange(256, dtype=np.float64)
    if gain <= 1.0:
        return lightness.astype(np.float32)
    black = min(black, DARK_KNEE / gain)
    # Slope (knee + c) / (L + c) equals the gain at L = black.
    offset = (DARK_KNEE - gain * black) / (gain - 1)
    toe = DARK_KNEE - (DARK_KNEE + offset) * np.log((DARK_KNEE + offset) / (lightness + offset))
    return np.where(lightness >= DARK_KNEE, lightness, toe).astype(np.float32)


def edge_lab(lab8: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """The Lab image whose gradients show the field's rims: ``lab`` (``lab8`` as float32)
    itself when the field's black level is well exposed, else a copy with its lightness on
    :func:`tone_curve` (the chroma channels as they are)."""
    black = black_level(lab8[..., 0])
    if black >= WELL_EXPOSED_BLACK:
        return lab
    lightness = np.ascontiguousarray(lab8[..., 0])
    gain = dark_gain(black, dark_noise(lightness))
    if gain <= 1.0:
        return lab
    toned = lab.copy()
    toned[..., 0] = tone_curve(gain, black).take(lightness)
    return toned
