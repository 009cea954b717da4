"""The board recognizer: one object whose ``read(frame)`` returns a :class:`BoardObservation`.

Stages (each its own module with its own evaluation in :mod:`vision.evaluate`):

1. localisation — the field's corners: from the calibration, from the caller, or found
   automatically (:mod:`calibration.locate`);
2. rectification — warp to the canonical top-down field and measure the bar
   (:mod:`calibration.geometry`);
3. checkers — stacks per point and on the bar (:mod:`vision.checkers`);
4. colours — the two checker colours, from the calibration or clustered on the frame
   (:mod:`calibration.colours`);
5. trays — the borne-off checkers counted in a side tray when one is in view, checked against
   the count the field leaves (:mod:`vision.trays`);
6. occlusion — an arm, a hand or anything else that is neither board nor checker over the field
   (:mod:`vision.occlusion`): such a frame is flagged ``occluded`` and must not be taken.

>>> import numpy as np
>>> from vision.render import render_board, RenderOptions
>>> from engine.position import Position
>>> scene = render_board(Position.start(), RenderOptions(seed=3, hard=False))
>>> obs = BoardReader().read(scene.image, corners=scene.corners)
>>> [r.count if r else 0 for r in obs.top] == [r.count if r else 0 for r in scene.truth.top]
True
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from calibration.calibration import Calibration
from calibration.colours import centre_distances, name_pair, nearest, two_clusters
from calibration.geometry import (
    BoardGeometry, Corners, check_corners, field_aspect, find_bar, warp, with_fourth_channel,
)
from calibration.snap import Snap, snap_corners
from engine.position import CHECKERS_PER_SIDE
from vision.checkers import CheckerFindings, Stack, find_checkers
from vision.observation import BoardObservation, PointReading
from vision.occlusion import find_occlusion, frame_band
from vision.trays import TrayReading, read_trays


#: Frame kept around the field when warping, as a share of the field width: corners a few
#: pixels inside the field must not cut the checkers at the edge in half.
FIELD_MARGIN = 0.0


class ReadError(ValueError):
    """A frame that cannot be read (no board found, unreadable image)."""


@dataclass
class Rectified:
    """A frame warped to the canonical field, with the geometry measured on it."""

    field: np.ndarray
    geometry: BoardGeometry
    corners: Corners


def rectify(frame: np.ndarray, corners: Sequence[Sequence[float]],
            calibration: Calibration | None = None) -> Rectified:
    corners = check_corners(corners)
    if calibration is not None and calibration.bar is not None:
        geometry = calibration.geometry()
    else:
        geometry = BoardGeometry.default(field_aspect(corners, (frame.shape[1], frame.shape[0])))
    geometry = geometry.with_margin(int(round(geometry.width * FIELD_MARGIN)))
    field = warp(frame, corners, geometry)
    if calibration is None or calibration.bar is None:
        geometry = find_bar(field, geometry)
    return Rectified(field, geometry, corners)


def _sigmoid(x: float) -> float:
    return float(1 / (1 + np.exp(-x)))


class BoardReader:
    """Reads checkers on every point, the bar, and borne off (from a side tray in view, else
    by count) from a frame, and flags a frame with something over the board (``occluded``).

    With a :class:`~calibration.calibration.Calibration` the corners, bar and colours come from
    it and a moved board is reported; without one, pass ``corners`` or let it look for the board.
    """

    def __init__(self, calibration: Calibration | None = None,
                 layered_stacks: bool = False) -> None:
        self.calibration = calibration
        #: Also read stacks built in layers (see :func:`vision.checkers.find_checkers`).
        self.layered_stacks = layered_stacks
        #: Per thread, the last frame's four-channel copy, written over by the next frame's
        #: (see :func:`~calibration.geometry.with_fourth_channel`).
        self._scratch = threading.local()
        #: Corners given to :meth:`read` with ``snap``, and what they snapped to, by the
        #: corners and the frame's size (a camera's corners stay put: snapped once).
        self._snaps: dict[tuple, Snap] = {}
        self._snaps_lock = threading.Lock()

    def read(self, frame: np.ndarray, corners: Sequence[Sequence[float]] | None = None,
             snap: bool = False) -> BoardObservation:
        """Read one frame.  ``snap``: the given ``corners`` were clicked by hand and may be a
        little off; they are moved onto the field's edges seen nearby (see
        :func:`calibration.snap.snap_corners`), once per set of corners and frame size (about
        a fifth of a second), and the observation notes the move.  Corners from the
        calibration or found automatically are read as they are."""
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
            raise ReadError("a frame is a colour (BGR) image")
        snapped = self._snapped(frame, corners) if snap and corners is not None else None
        if snapped is not None:
            corners = snapped.corners
        state = None
        if corners is None and self.calibration is not None:
            corners = self.calibration.corners
            state = self.calibration.check(frame)
        if corners is None:
            from calibration.locate import locate_field
            corners = locate_field(frame)
        # The frame is warped several times (field, side trays, frame edges): with a fourth
        # channel each warp is about twice as fast, the same BGR coming out.
        frame4 = with_fourth_channel(frame, getattr(self._scratch, "frame4", None))
        self._scratch.frame4 = frame4
        rect = rectify(frame4, corners, self.calibration)
        findings = find_checkers(rect.field, rect.geometry, layered=self.layered_stacks)
        obs, centres = self._observe(findings)
        obs.corners = rect.corners
        settle_off(obs, read_trays(frame4, rect.corners, rect.geometry, obs.colours, centres))
        centres_found = [c for s in findings.stacks for c in s.centres]
        cover = find_occlusion(rect.field, rect.geometry, centres, centres_found, findings.radius,
                               frame_band(frame4, rect.corners, rect.geometry))
        obs.occluded = cover.occluded
        if cover.occluded:
            obs.notes.append(cover.note())
        if state is not None:
            obs.board_moved = state == "moved"
            # The calibration's check of the board's surround sees hands the frame alone may not.
            obs.occluded = obs.occluded or state == "occluded"
        if snapped is not None and snapped.snapped:
            obs.notes.append(f"corners snapped to the field's edges (moved up to "
                             f"{100 * snapped.moved:.1f}% of the diagonal)")
        return obs

    #: Sets of snapped corners kept (a few cameras, or a few clicks tried in turn).
    SNAPS_KEPT = 8

    def _snapped(self, frame: np.ndarray, corners: Sequence[Sequence[float]]) -> Snap:
        """The corners snapped on this frame, or as snapped before for the same corners and
        frame size."""
        key = (tuple(map(tuple, np.asarray(corners, np.float64).tolist())), frame.shape[:2])
        with self._snaps_lock:
            known = self._snaps.get(key)
        if known is not None:
            return known
        result = snap_corners(frame, corners)
        with self._snaps_lock:
            if len(self._snaps) >= self.SNAPS_KEPT:
                self._snaps.pop(next(iter(self._snaps)))
            self._snaps[key] = result
        return result

    # --- colours and counts ----------------------------------------------------------------

    def _observe(self, findings: CheckerFindings) -> tuple[BoardObservation, np.ndarray]:
        """The observation of the field, and the two checker colours' Lab centres."""
        stacks = findings.stacks
        colours = [c for s in stacks for c in s.colours]
        owners = [i for i, s in enumerate(stacks) for _ in s.colours]
        if self.calibration is not None:
            names = self.calibration.colours
            centres = np.asarray(self.calibration.colour_lab, np.float32)
            if colours:
                labels, margins = nearest(np.asarray(colours), centres)
            else:
                labels, margins = np.zeros(0, int), np.zeros(0)
        else:
            sureness = np.asarray([sc for s in stacks for sc in s.scores])
            # The bar holds both players' checkers: it is no one colour's stack.
            stack_of = np.asarray([o if o < len(stacks) - 1 else -1 for o in owners], int)
            labels, centres = two_clusters(np.asarray(colours).reshape(-1, 3),
                                           np.clip((sureness - 0.6) * 2.5, 0.05, 1.0),
                                           stack_of)
            if colours:
                centres = _stack_consensus_centres(np.asarray(colours), np.asarray(owners),
                                                   labels, centres, len(stacks) - 1)
                labels, margins = nearest(np.asarray(colours), centres)
            else:
                margins = np.zeros(0)
            names = name_pair(centres)
        votes = np.zeros((len(stacks), 2))
        colour_margin = np.ones(len(stacks))
        for owner, label, margin in zip(owners, labels, margins):
            votes[owner, label] += 1
            colour_margin[owner] = min(colour_margin[owner], 0.2 + margin)
        if colours:
            # A point's stack split between the colours (glare lightening some of a dark or
            # coloured stack, shade darkening some of a light one) takes the colour of the
            # checkers that look most like their colour (see _stack_colour); it wins by half a
            # vote where it had fewer, its confidence showing the split.
            distance = centre_distances(np.asarray(colours), centres)
            owner_of = np.asarray(owners)
            for i in np.flatnonzero((votes[:-1, 0] > 0) & (votes[:-1, 1] > 0)):
                mine = owner_of == i
                chosen = _stack_colour(np.asarray(labels)[mine], distance[mine])
                votes[i, chosen] = max(votes[i, chosen], votes[i, 1 - chosen] + 0.5)
        readings: list[PointReading | None] = []
        threshold = findings.threshold
        for i, stack in enumerate(stacks[:-1]):
            if stack.count == 0:
                # Sure of "empty" as far as the best candidate stayed under the threshold.
                readings.append(None)
                continue
            colour = names[int(np.argmax(votes[i]))]
            agree = votes[i].max() / votes[i].sum()
            shape_margin = min(min(stack.scores) - threshold, threshold - stack.next_score)
            confidence = _sigmoid(25 * shape_margin) * min(1.0, 2 * colour_margin[i]) * agree
            readings.append(PointReading(colour, stack.count, round(confidence, 3)))
        bar_stack: Stack = stacks[-1]
        bar: dict[str, int] = {}
        for label in (labels[[j for j, o in enumerate(owners) if o == len(stacks) - 1]]
                      if len(owners) else []):
            bar[names[int(label)]] = bar.get(names[int(label)], 0) + 1
        bar_conf = (_sigmoid(25 * (min(bar_stack.scores) - threshold))
                    if bar_stack.scores else 1.0)
        obs = BoardObservation(readings[:12], readings[12:24], bar, {}, tuple(names),
                               bar_confidence=round(bar_conf, 3))
        obs.doubtful = [(s.row, s.column) for s in stacks[:-1] if s.doubtful]
        obs.off = obs.off_counts()
        for name in names:
            if obs.on_field(name) > CHECKERS_PER_SIDE:
                obs.notes.append(f"more than {CHECKERS_PER_SIDE} {name} checkers seen")
        return obs, np.asarray(centres, np.float32)


def _stack_consensus_centres(colours: np.ndarray, owners: np.ndarray, labels: np.ndarray,
                             centres: np.ndarray, bar_index: int) -> np.ndarray:
    """The two colours' centres again, each point's checkers all taken as its stack's colour.

    One stack holds one player's checkers, so a checker that glare or shadow pushed toward the
    other colour is still of its stack's: centres made of single checkers would let a few such
    pull a colour's centre (and name) off.  The bar holds both colours, so its checkers keep
    their own.  A colour left without a checker keeps its first centre.

    >>> colours = np.float32([[40, 128, 128]] * 2 + [[120, 128, 128]] * 2
    ...                      + [[220, 128, 128]] * 3 + [[40, 128, 128]] * 3)
    >>> owners = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2])
    >>> labels = np.array([1, 1, 0, 0, 0, 0, 0, 1, 1, 1])
    >>> centres = np.float32([[170, 128, 128], [40, 128, 128]])
    >>> _stack_consensus_centres(colours, owners, labels, centres, 3)[:, 0].tolist()
    [220.0, 40.0]
    """
    stack_label = labels.copy()
    distance = centre_distances(colours, centres)
    for owner in np.unique(owners):
        if owner == bar_index:
            continue
        mine = owners == owner
        stack_label[mine] = _stack_colour(labels[mine], distance[mine])
    out = np.asarray(centres, np.float32).copy()
    for k in (0, 1):
        if np.any(stack_label == k):
            out[k] = np.median(colours[stack_label == k], axis=0)
    if out[1, 0] > out[0, 0]:
        return np.asarray(centres, np.float32)   # keep the lighter colour first, as clustered
    return out


#: A stack's checkers of one colour lie clearly nearer their centre than those of the other
#: when this many times nearer (median distances; see _stack_colour).
CLEARLY_NEARER = 2.0


def _stack_colour(labels: np.ndarray, distances: np.ndarray) -> int:
    """The colour (0 or 1) of one point's stack from its checkers' ``labels`` and their
    ``distances`` to the two colours' centres (n x 2).

    A stack holds one player's checkers.  When its checkers disagree, light moved some: glare
    lightens a dark or coloured checker toward a light one, shade darkens a light one, and a
    checker so moved lies far from the centre it went to, while an unmoved one lies near its
    own.  So the stack takes the colour whose checkers lie nearest their centre (median), not
    the colour of the most checkers: two gold checkers under glare, nearer white than gold
    but still far from it, do not outvote the one gold checker that looks gold.  Only a
    clear difference (:data:`CLEARLY_NEARER` times) says so; else the most checkers, and
    for a tie the colour they lie nearer to all together.

    >>> _stack_colour(np.array([1, 0, 0]), np.float32([[39, 3], [13, 31], [17, 35]]))
    1
    >>> _stack_colour(np.array([1, 0]), np.float32([[42, 12.5], [12, 29.5]]))   # alike: tie
    1
    >>> _stack_colour(np.array([0, 0]), np.float32([[20, 30], [25, 30]]))
    0
    """
    labels = np.asarray(labels)
    if np.all(labels == labels[0]):
        return int(labels[0])
    typical = [float(np.median(distances[labels == k, k])) for k in (0, 1)]
    nearer = int(np.argmin(typical))
    if typical[nearer] * CLEARLY_NEARER < typical[1 - nearer]:
        return nearer
    # Alike in how far they were moved: the most checkers, or, split evenly, the colour they
    # lie nearer to all together.
    votes = np.bincount(labels, minlength=2)
    if votes[0] != votes[1]:
        return int(np.argmax(votes))
    return int(np.argmin(distances.sum(axis=0)))


def settle_off(obs: BoardObservation, tray: TrayReading) -> None:
    """Borne-off counts: the tray's when it is in view and agrees with what the field leaves
    (15 minus the checkers on the points and the bar), else the field's, with a note saying
    which colour disagrees (a checker misread on the field, or hidden in the tray).

    >>> obs = BoardObservation.from_rows([("white", 14)] + [None] * 11, [("black", 15)] + [None] * 11,
    ...                                  ("white", "black"))
    >>> settle_off(obs, TrayReading(True, {"white": 1, "black": 0}, "right", 0.9))
    >>> obs.off, obs.off_by_count, obs.tray_off
    ({'white': 1, 'black': 0}, False, {'white': 1, 'black': 0})
    >>> settle_off(obs, TrayReading(True, {"white": 3, "black": 0}, "right", 0.9))
    >>> obs.off, obs.off_by_count, obs.notes
    ({'white': 1, 'black': 0}, True, ['tray shows 3 white off, the field leaves 1'])
    """
    by_count = obs.off_counts()
    obs.tray_visible = tray.visible
    if not tray.visible:
        obs.tray_off = None
        obs.off, obs.off_by_count = by_count, True
        return
    # A colour the tray reader could not tell from the tray's floor is left to the count.
    obs.tray_off = {name: tray.counts[name] for name in obs.colours if name in tray.counts}
    obs.off = dict(by_count)
    disagree = [name for name, n in obs.tray_off.items() if n != by_count[name]]
    for name in disagree:
        obs.notes.append(f"tray shows {obs.tray_off[name]} {name} off, "
                         f"the field leaves {by_count[name]}")
    obs.off_by_count = bool(disagree) or len(obs.tray_off) < len(obs.colours)
