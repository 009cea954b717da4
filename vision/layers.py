"""Stacks built in layers: a second (third...) layer of checkers resting on the first row.

Players who run out of room on a point often stop overlapping and build upward: five touching
checkers fill the point, a sixth rests in the hollow between the first two, and so on, up to a
pyramid of 5, 4, 3, 2 and 1.  Seen from above such a stack breaks what the chain model of
:mod:`vision.checkers` assumes (one checker per distance, even steps, each rim whole but for
the arc the next one hides): an upper checker lies half a diameter off the first layer and hides
both neighbours below it, a checker two layers up sits exactly over a first-layer one, which
vanishes, and a first-layer checker under two upper ones shows only its side arcs.

This module tells such a stack from a flat one by *explaining the rims* seen along the point.
Each hypothesis, flat or layered, predicts where checker rims must show: every rim that no
higher checker covers.  Its score is how many of those predicted rim samples show a radial edge
in the image, less a fixed price per predicted sample (a rim predicted where the image has none
costs as much as one found earns).  Geometry comes first: the first layer is a row of touching
checkers (step one diameter) from the point's edge; every upper checker rests in the hollow
between two checkers of the layer below (the pyramid rule), so hidden checkers are inferred,
never seen; upper layers may stand a little off (a slanted view shifts them, a little the same
way for each layer).  Nothing depends on how an upper layer is lit or how much larger it looks:
rims are looked for over a band of radii.

A rim sample counts only where the image just inside it has the stack's colour (inside a
triangle's edge or a gap between checkers lies paint).  Every checker of a layered explanation
that is in view must show most of its visible rim, and its first layer must span the whole
stack found (a first layer shifted by one checker would put its hollows on a flat stack's side
rims).  A flat stack (touching or evenly overlapped, the later or the earlier checker on top) is
fitted the same way, and the stack is called layered only when the best layered explanation
beats the best flat one clearly (:data:`LAYERED_MARGIN`).

:func:`read_layered` is meant to be called per point by the checker stage with what it found
there; it returns ``None`` when the point does not hold a layered stack.

>>> import numpy as np, cv2
>>> r = 14
>>> img = np.full((16 * r, 6 * r, 3), (60, 110, 150), np.uint8)  # a plain wooden field
>>> for k in range(5):  # a first layer of five touching checkers from the top edge...
...     _ = cv2.circle(img, (3 * r, r + 2 * r * k), r, (235, 235, 235), -1, cv2.LINE_AA)
...     _ = cv2.circle(img, (3 * r, r + 2 * r * k), r, (150, 150, 150), 1, cv2.LINE_AA)
>>> for k in range(2):  # ...and two more in its first two hollows
...     _ = cv2.circle(img, (3 * r, 2 * r + 2 * r * k), r, (245, 245, 245), -1, cv2.LINE_AA)
...     _ = cv2.circle(img, (3 * r, 2 * r + 2 * r * k), r, (150, 150, 150), 1, cv2.LINE_AA)
>>> found = [(3.0 * r, 2.0 * r), (3.0 * r, 4.0 * r), (3.0 * r, 7.0 * r), (3.0 * r, 9.0 * r)]
>>> stack = read_layered(img, 0.0, 1, float(r), found)
>>> stack.count, stack.layers
(7, (5, 2))
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import cv2
import numpy as np

#: Ring directions sampled per checker, and the radii (shares of the fitted radius) at which
#: its rim may show: checkers vary in size, upper layers stand nearer the camera, and the
#: field's scale is only estimated.
ANGLES = 32
RIM_RADII = (0.88, 1.0, 1.12)
#: A rim sample shows when the edge there is strong (share of the local edge level) and
#: points across the rim.
EDGE_LEVEL = 0.25
#: A rim sample counts only if the image just inside it (this share of the radius from the
#: centre) has the stack's colour: within :data:`COLOUR_NEAR` (Lab, lightness weighted by
#: half as light and shade vary most) of the middles of the checkers found.
COLOUR_INSIDE, COLOUR_NEAR = 0.75, 30.0
_CHANNEL_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)
#: Price of each predicted rim sample: a sample found earns ``1 - PRICE``, one missing costs
#: ``PRICE``.  A little above a half: where there is no rim, other rims crossing, triangle
#: edges and texture still give many samples some radial edge, and a checker added where
#: none is must not pay for itself that way.
PRICE = 0.55
#: Every checker of a layered explanation in view (at least :data:`MEMBER_VIEW` of its rim
#: directions not under another) must show its rim on at least :data:`MEMBER_SHARE` of the
#: directions in view: a first layer invented under a flat stack would show rims between its
#: checkers that are not there (checkers nobody sees are inferred by the pyramid rule).
#: (On the true readings of the layered stacks of synthetic layered seeds 0-99, 28 of 800
#: checkers with a higher one on one side showed less than 0.6 of their rim in view, 12 less
#: than 0.4; flat synthetic seeds 0-999 read with layered stacks asked for, these and
#: :data:`WHOLE_SHARE` lowered further, to 0.4 and 0.6, read no flat stack as layered.)
MEMBER_VIEW, MEMBER_SHARE = 0.15, 0.4
#: A first-layer checker with a higher one on both sides shows only two slivers of its rim
#: beside the stack's line (a third of its directions), in the shadow the upper checkers cast,
#: and is held to this share of them (none: on the true readings of the layered stacks of
#: synthetic layered seeds 0-99, 81 of 306 such checkers showed less than 0.6 of their slivers,
#: 11 less than 0.3, and their shares spread evenly from 0.1 to 1: held to 0.3, 60 of those
#: 100 boards read exact, held to none 68; the checkers beside it must
#: still show their rims, which keeps a first layer from being invented under a flat stack).
HOLLOW_SHARE = 0.0
#: A checker of a layered explanation with nothing on it (an upper checker, or a first-layer
#: one beside no upper one) shows its whole rim: on this share of its directions in view at
#: least (a little below what :mod:`vision.checkers` asks of a whole checker's rim: on the
#: true readings of layered seeds 0-99, 35 of 750 such checkers showed less than 0.8 of it, 16
#: less than 0.7: raised ones stand larger and shifted, first-layer ones a little off the
#: stack's line, and the rim is looked for on the line).  At 0.6 the solid layered set
#: (``--set layered --solid``, seeds 0-99) lost two stacks read right at 0.7 (seeds 41, 71).
WHOLE_SHARE = 0.7
#: A layered explanation must beat the best flat one by this many rim samples' worth.
LAYERED_MARGIN = 6.0
#: Half the first layer's step (touching checkers: one radius), as shares of the given radius.
HALF_STEPS = (0.92, 0.97, 1.02, 1.07)
#: Where the first checker's centre may lie (radii from the point's edge, a little beyond it:
#: corners are never exact), and the grid step.
FIRST_RANGE, GRID = (-0.6, 2.2), 0.1
#: The first layer of a layered stack is what filled the point: it lies against the edge, its
#: first centre at least this far (radii) from it (one radius, less the corners' error), or
#: that "first layer" would lie under the frame.
LAYERED_FIRST_MIN = 0.4
#: Shift of each upper layer relative to the one below (radii, each way): a slanted view
#: shows raised checkers displaced, the same way for every layer.
LEAN_RANGE, LEAN_STEP = 0.3, 0.1
#: The most (rim samples' worth) fitting the lean has added to a layered explanation on
#: rendered boards with a lean of up to a quarter radius per layer, and then some: a stack whose
#: upright layered explanation falls further short is not looked at with a lean.
LEAN_GAIN = 6.0
#: The most checkers a first layer holds (five touching checkers fill a point) and the most
#: layers a stack has.
MOST_FIRST, MOST_LAYERS = 5, 5
#: A layered stack's first layer spans the whole stack: no checker the checker stage found lies
#: more than this (radii) nearer the edge than its first checker or beyond its last (a whole
#: rim outside the first layer cannot be explained by it).
SPAN_SLACK = 0.5
#: Players build upward only on a full point: a layered stack holds more than five checkers,
#: its first layer at least four (4 + 2 is the least such stack).
LEAST_LAYERED, LEAST_FIRST = 6, 4
#: Flat stacks: steps (radii) players use, from tightly overlapped to touching.
FLAT_STEPS = np.arange(1.0, 2.31, 0.05)
#: How far from the point's edge (radii) evidence is looked at: a first layer of five ends
#: ten radii out, and the facing point's checkers may begin soon after.
REACH = 11.0


@dataclass(frozen=True)
class LayeredStack:
    """A stack read as built in layers: how many checkers, per layer, where, and how sure."""

    count: int
    layers: tuple[int, ...]  # checkers per layer, the first layer (on the board) first
    #: Centres (canonical image pixels) of every checker, hidden ones included, layer by layer.
    centres: list[tuple[float, float]]
    confidence: float
    #: Rim samples' worth by which the layered explanation beat the best flat one.
    margin: float


class _RimEvidence:
    """Rim evidence along one point: for checkers centred on a grid of positions along the
    point (steps of :data:`GRID` radii from its edge), which ring directions show a radial
    edge.  Positions are in the point's frame: ``along`` (radii from the edge, toward the
    board's middle) and ``across`` (radii to the image's right of the stack's line)."""

    def __init__(self, field: np.ndarray, axis_x: float, edge_y: float, toward: int,
                 radius: float, reach: float, found: list[tuple[float, float]]) -> None:
        self.radius, self.axis_x, self.edge_y, self.toward = radius, axis_x, edge_y, toward
        h, w = field.shape[:2]
        pad = 3.0 * radius
        ys = (edge_y - toward * 2.0 * radius, edge_y + toward * (reach + 1.5) * radius)
        self.x0 = int(max(0, np.floor(axis_x - pad)))
        x1 = int(min(w, np.ceil(axis_x + pad)))
        self.y0 = int(max(0, np.floor(min(ys))))
        y1 = int(min(h, np.ceil(max(ys))))
        crop = field[self.y0:y1, self.x0:x1]
        self.shape = crop.shape[:2]
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab = cv2.GaussianBlur(lab, (0, 0), max(0.7, radius * 0.06))
        gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
        ones = np.ones((1, 3), np.float32)
        jxx = cv2.transform(gx * gx, ones)
        jyy = cv2.transform(gy * gy, ones)
        jxy = cv2.transform(gx * gy, ones)
        energy = jxx + jyy + 1e-6
        mag = np.sqrt(energy)
        # Edge strength relative to its surroundings (glare and shadow lower a rim's contrast,
        # not its contrast against what is around it), with a floor so flat paint stays flat.
        size = int(radius * 3) | 1
        local = cv2.blur(mag, (size, size)) * 1.2
        floor = 0.3 * float(np.percentile(mag, 90)) + 1e-3
        weight = np.minimum(mag / np.maximum(local, floor), 1.0) / energy
        # Doubled-angle orientation: a cos 2t + b sin 2t is +strength where the gradient
        # points along direction t (radial for a ring sample at angle t).
        self.a = ((jxx - jyy) * weight).ravel()
        self.b = (2 * jxy * weight).ravel()
        # Just inside a rim of this stack lies a checker of its colour (the checker itself, or
        # one it lies on); inside a triangle's edge or a gap between checkers lies paint.
        colour = _CHANNEL_WEIGHTS * np.median(
            [lab[int(np.clip(y - self.y0, 0, self.shape[0] - 1)),
                 int(np.clip(x - self.x0, 0, self.shape[1] - 1))] for x, y in found], axis=0)
        self.checker_like = (np.linalg.norm(lab * _CHANNEL_WEIGHTS - colour, axis=2)
                             < COLOUR_NEAR).ravel()
        angles = np.linspace(0, 2 * np.pi, ANGLES, endpoint=False)
        self.cos, self.sin = np.cos(angles), np.sin(angles)  # along, across components
        self.alongs = np.arange(FIRST_RANGE[0] - 0.5, reach + 1e-6, GRID)
        self._cache: dict[tuple[int, int], np.ndarray] = {}

    def to_image(self, along: np.ndarray | float, across: np.ndarray | float
                 ) -> tuple[np.ndarray, np.ndarray]:
        """Canonical image coordinates of positions in the point's frame (radii)."""
        return (self.axis_x + np.asarray(across) * self.radius,
                self.edge_y + self.toward * np.asarray(along) * self.radius)

    def index(self, along: np.ndarray) -> np.ndarray:
        """Grid row of positions along the point (clipped to the grid)."""
        i = np.rint((np.asarray(along) - self.alongs[0]) / GRID).astype(int)
        return np.clip(i, 0, self.alongs.size - 1)

    def worth(self, across: float, scale: float) -> np.ndarray:
        """Per grid position along the point (at ``across``) and ring direction of a checker of
        ``scale`` radii: +(1 - PRICE) where its rim shows, -PRICE where it does not, 0 where
        the sample leaves the crop (unseen).  Rows: :attr:`alongs`; columns: directions."""
        key = (int(round(across / GRID)), int(round(scale * 100)))
        got = self._cache.get(key)
        if got is not None:
            return got
        cx, cy = self.to_image(self.alongs, key[0] * GRID)
        radii = np.array(RIM_RADII)[:, None, None] * scale * self.radius
        px = cx - self.x0 + radii * self.sin  # radius, position, direction
        py = cy[:, None] - self.y0 + radii * self.cos * self.toward
        xi, yi = np.rint(px).astype(int), np.rint(py).astype(int)
        inside = (xi >= 0) & (xi < self.shape[1]) & (yi >= 0) & (yi < self.shape[0])
        flat = (np.clip(yi, 0, self.shape[0] - 1) * self.shape[1]
                + np.clip(xi, 0, self.shape[1] - 1))
        # The image-space direction of each sample, doubled.
        phi = np.arctan2(self.cos * self.toward, self.sin)
        radial = self.a[flat] * np.cos(2 * phi) + self.b[flat] * np.sin(2 * phi)
        within = (np.clip(np.rint(py - (1 - COLOUR_INSIDE) * radii * self.cos * self.toward),
                          0, self.shape[0] - 1).astype(int) * self.shape[1]
                  + np.clip(np.rint(px - (1 - COLOUR_INSIDE) * radii * self.sin),
                            0, self.shape[1] - 1).astype(int))
        hit = ((radial > EDGE_LEVEL) & inside & self.checker_like[within]).any(axis=0)
        got = np.where(inside[len(RIM_RADII) // 2], hit - PRICE, 0.0)
        self._cache[key] = got
        return got


def _covered(dx: float, dy: float, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Ring directions of a checker whose rim lies under an equal checker centred (along
    ``dx``, across ``dy``, in the checker's radii) from it (a little slack)."""
    return (cos - dx) ** 2 + (sin - dy) ** 2 < 0.95 ** 2


def _profiles(first: int) -> list[tuple[int, ...]]:
    """Every stack of ``first`` touching checkers with upper layers obeying the pyramid rule,
    as the top layer at each half-step position (-1: none, layer 0 at even positions).

    >>> [p for p in _profiles(3)]
    [(0, -1, 0, -1, 0), (0, -1, 0, 1, 0), (0, 1, 0, -1, 0), (0, 1, 0, 1, 0), (0, 1, 2, 1, 0)]
    """
    size = 2 * first - 1
    out = []
    choices = [(0, 2, 4) if m % 2 == 0 else (-1, 1, 3) for m in range(size)]
    for tops in product(*choices):
        ok = True
        for m, h in enumerate(tops):
            if h <= 0:
                continue
            left = tops[m - 1] if m > 0 else -1
            right = tops[m + 1] if m + 1 < size else -1
            if h > min(left, right) + 1 or h >= MOST_LAYERS:
                ok = False
                break
        if ok:
            out.append(tuple(tops))
    return out


def _layers_of(profile: tuple[int, ...]) -> tuple[int, ...]:
    """Checkers per layer of a profile (every layer from 0 to its top at each position).

    >>> _layers_of((0, 1, 2, 1, 0))
    (3, 2, 1)
    """
    counts = [0] * MOST_LAYERS
    for m, h in enumerate(profile):
        for layer in range(m % 2, h + 1, 2):
            counts[layer] += 1
    while counts and counts[-1] == 0:
        counts.pop()
    return tuple(counts)


#: Per first-layer length: its profiles (rows), their checker counts and whether any checker
#: rests on another.
_PROFILES = {n: np.array([p for p in _profiles(n) if sum(_layers_of(p)) >= LEAST_LAYERED])
             for n in range(LEAST_FIRST, MOST_FIRST + 1)}
_COUNTS = {n: np.array([sum(_layers_of(tuple(p))) for p in ps]) for n, ps in _PROFILES.items()}


def _cases(profiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per profile and position: the layer on top there, and which neighbours' tops lie
    higher (left 1, right 2): the indices into a score table."""
    padded = np.pad(profiles, ((0, 0), (1, 1)), constant_values=-1)
    case = (padded[:, :-2] > profiles) + 2 * (padded[:, 2:] > profiles)
    return np.maximum(profiles, 0), case


_CASES = {n: _cases(ps) for n, ps in _PROFILES.items()}


def _fit_flat(ev: _RimEvidence, reach: float) -> tuple[float, int]:
    """Best score of a flat stack (evenly spaced, touching or overlapped, either end on top),
    and its count."""
    best, count = 0.0, 0  # an empty point explains nothing and costs nothing
    firsts = np.arange(FIRST_RANGE[0], FIRST_RANGE[1] + 1e-6, GRID)
    ks = np.arange(15)
    which = np.arange(FLAT_STEPS.size)[:, None, None]
    for scale in HALF_STEPS:
        whole = ev.worth(0.0, scale)
        steps = FLAT_STEPS * scale
        # In an overlapped stack the next checker lies on this one, or the previous one does.
        along = firsts[None, :, None] + steps[:, None, None] * ks  # step x first x checker
        rows = ev.index(along)
        inside = along <= reach
        total = np.where(inside, whole.sum(axis=1)[rows], 0.0)
        for on_top_later in (True, False):
            sign = 1.0 if on_top_later else -1.0
            masks = ~_covered(sign * FLAT_STEPS[:, None], 0.0, ev.cos[None, :], ev.sin[None, :])
            part = np.where(inside, (whole @ masks.T)[rows, which], 0.0)
            if on_top_later:  # all but the last partly hidden
                scores = np.cumsum(part, axis=2) - part + total
            else:  # all but the first partly hidden
                scores = np.cumsum(part, axis=2) - part[:, :, :1] + total[:, :, :1]
            scores = np.where(inside, scores, -np.inf)
            k = np.unravel_index(int(np.argmax(scores)), scores.shape)
            if scores[k] > best:
                best, count = float(scores[k]), int(k[2]) + 1
    return best, count


def _layered_scores(ev: _RimEvidence, n: int, firsts: np.ndarray, half: float,
                    lean: tuple[float, float]) -> np.ndarray:
    """Scores (firsts x profiles) of the layered stacks with a first layer of ``n`` touching
    checkers (step ``2 half`` radii) starting at each of ``firsts``, each upper layer shifted
    by ``lean`` (along, across radii) from the one below."""
    size = 2 * n - 1
    # A higher neighbour lies one layer up, half a step away (units: the checker's radius).
    left = _covered((-half + lean[0]) / half, lean[1] / half, ev.cos, ev.sin)
    right = _covered((half + lean[0]) / half, lean[1] / half, ev.cos, ev.sin)
    masks = np.stack([~np.zeros_like(left), ~left, ~right, ~(left | right)], axis=1)
    # table[first, position, layer, left higher * 1 + right higher * 2], and how many of
    # the checker's rim samples are in view there.
    table = np.zeros((firsts.size, size, MOST_LAYERS, 4))
    seen = np.zeros_like(table)
    positions = np.arange(size)
    for layer in range(MOST_LAYERS):
        worth = ev.worth(layer * lean[1], half)
        rows = ev.index(firsts[:, None] + positions * half + layer * lean[0])
        table[:, :, layer, :] = (worth @ masks)[rows]  # grid position x neighbour case
        seen[:, :, layer, :] = ((worth != 0).astype(float) @ masks)[rows]  # (a count)
    index = (slice(None), positions) + _CASES[n]
    terms, views = table[index], seen[index]  # first x profile x position
    occupied = _PROFILES[n] >= 0
    # Every checker in view must show its rim where nothing lies on it: checkers nobody sees
    # are inferred from the pyramid rule, but a first layer invented under a flat stack would
    # show rims between its checkers that are not there.
    shares = (terms + PRICE * views) / np.maximum(views, 1)
    least = np.where(_CASES[n][1] == 3, HOLLOW_SHARE, MEMBER_SHARE)
    weak = occupied & (views >= MEMBER_VIEW * ANGLES) & (shares < least)
    # A checker nothing lies on shows its whole rim, as the checker stage asks of a whole one.
    weak |= occupied & (_CASES[n][1] == 0) & (views > 0) & (shares < WHOLE_SHARE)
    scores = np.where(occupied, terms, 0.0).sum(axis=2)
    return np.where(weak.any(axis=2), -np.inf, scores)


def read_layered(field: np.ndarray, edge_y: float, toward: int, radius: float,
                 found: list[tuple[float, float]], lean_guess: tuple[float, float] = (0.0, 0.0)
                 ) -> LayeredStack | None:
    """Read one point's stack as built in layers, or ``None`` when it is not.

    ``field``: the canonical (warped, top-down) BGR image; ``edge_y``: image y of the field
    edge the point grows from; ``toward``: +1 when the point grows downward in the image (top
    row), -1 when upward; ``radius``: the expected checker radius in pixels; ``found``: the
    centres the checker stage found on the point (image pixels).  Their median x is taken as
    the stack's line (hands put checkers a little off the point's axis), their middles give
    the stack's colour, and the first layer must span them.
    Only stacks of more than five are taken for layered (see :data:`LEAST_LAYERED`).

    The checker stage calls it per point once its stacks are final, for any stack of two or
    more, and on a result replaces that stack's centres by :attr:`LayeredStack.centres`
    (hidden checkers included, so the count is right).

    ``lean_guess``: the shift of each layer over the one below (along, across the point;
    radii) that the camera predicts (see :func:`vision.reader.raised_view`): the lean is looked
    for within :data:`LEAN_RANGE` of it.
    """
    if len(found) < 2 or radius <= 0:
        return None
    reach = REACH
    # The first layer spans the whole stack: nothing found lies beyond either of its ends.
    found_along = sorted(abs(y - edge_y) / radius for _, y in found)
    nearest, furthest = found_along[0] + SPAN_SLACK, found_along[-1] - SPAN_SLACK
    if furthest > reach or nearest < LAYERED_FIRST_MIN:
        return None  # longer than any first layer (an overlapped stack), or no room for one
    axis = float(np.median([x for x, _ in found]))
    ev = _RimEvidence(field, axis, edge_y, toward, radius, reach, found)
    flat, _ = _fit_flat(ev, reach)
    firsts = np.arange(LAYERED_FIRST_MIN, min(FIRST_RANGE[1], nearest) + 1e-6, GRID)
    # Coarse: upright layers, every first-layer length, step and origin; then the lean of the
    # few best.
    coarse = []
    for n in _PROFILES:
        for half in HALF_STEPS:
            last = firsts + 2 * (n - 1) * half
            fits = firsts[(last <= reach) & (last >= furthest)]
            if fits.size:
                scores = _layered_scores(ev, n, fits, half, lean_guess)
                f, _ = np.unravel_index(int(np.argmax(scores)), scores.shape)
                coarse.append((float(scores.max()), n, half, float(fits[f])))
    if not coarse:
        return None
    coarse.sort(reverse=True)
    if coarse[0][0] - flat < LAYERED_MARGIN - LEAN_GAIN:
        return None  # leaning layers could not make up the difference
    best = None
    for _, n, half, first in coarse[:2]:
        near = np.arange(max(first - 0.2, LAYERED_FIRST_MIN), min(first + 0.2, nearest) + 1e-6,
                         GRID)
        near = near[near + 2 * (n - 1) * half >= furthest]
        if not near.size:
            continue
        # The lean coarse to fine: a grid, then the neighbours of its best.
        centre, step, here = lean_guess, 2 * LEAN_STEP, -np.inf
        while step >= LEAN_STEP - 1e-9:
            middle = centre
            for du, dv in product((-step, 0.0, step), repeat=2):
                lean = (round(middle[0] + du, 3), round(middle[1] + dv, 3))
                if max(abs(lean[0] - lean_guess[0]),
                       abs(lean[1] - lean_guess[1])) > LEAN_RANGE + 1e-9:
                    continue
                scores = _layered_scores(ev, n, near, half, lean)
                f, k = np.unravel_index(int(np.argmax(scores)), scores.shape)
                if scores[f, k] > here:
                    here, centre = float(scores[f, k]), lean
                if best is None or scores[f, k] > best[0]:
                    counts = _COUNTS[n]
                    rival = scores[:, counts != counts[k]]
                    best = (float(scores[f, k]), n, half, float(near[f]), lean, int(k),
                            float(rival.max()) if rival.size else -np.inf)
            step /= 2
    if best is None:
        return None
    score, n, half, first, lean, k, rival = best
    profile = tuple(int(h) for h in _PROFILES[n][k])
    layers = _layers_of(profile)
    margin = score - flat
    if len(layers) < 2 or margin < LAYERED_MARGIN:
        return None
    centres = []
    for layer in range(len(layers)):
        for m, h in enumerate(profile):
            if m % 2 == layer % 2 and h >= layer:
                x, y = ev.to_image(first + m * half + layer * lean[0], layer * lean[1])
                centres.append((float(x), float(y)))
    sure = min(margin, score - rival) / LAYERED_MARGIN
    confidence = float(1 / (1 + np.exp(-2.0 * (sure - 1.0))))
    return LayeredStack(sum(layers), layers, centres, round(confidence, 3), round(margin, 2))
