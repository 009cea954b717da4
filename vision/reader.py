"""The board recognizer: one object whose ``read(frame)`` returns a :class:`BoardObservation`.

Stages (each its own module with its own evaluation in :mod:`vision.evaluate`):

1. localisation — the field's corners: from the calibration, from the caller, or found
   automatically (:mod:`calibration.locate`);
2. rectification — warp to the canonical top-down field and measure the bar
   (:mod:`calibration.geometry`);
3. checkers — stacks per point and on the bar (:mod:`vision.checkers`); checkers seen raised at
   a slant (solids seen from a seat: their tops moved away from the camera on the board plane)
   are read again on the field rectified through the plane of their tops (:func:`raised_view`,
   :mod:`calibration.viewpoint`), a tall pile's leaning checkers where the camera sees them
   (:class:`PileLean`);
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

import functools
import math
import statistics
import threading
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from calibration.calibration import Calibration
from calibration.colours import centre_distances, lit_distance, name_pair, nearest, two_clusters
from calibration.geometry import (
    BoardGeometry, Corners, check_corners, field_aspect, find_bar, warp, with_fourth_channel,
)
from calibration.snap import Snap, snap_corners
from calibration.viewpoint import CHECKER_THICKNESS, Viewpoint, camera_over_field, warp_raised
from engine.position import CHECKERS_PER_SIDE
from vision.checkers import LEAN_STEP, CheckerFindings, Stack, find_checkers
from vision.observation import BoardObservation, PointReading
from vision.occlusion import find_occlusion, frame_band
from vision.solid import shingled_tilts
from vision.trays import TrayReading, read_trays


#: Frame kept around the field when warping, as a share of the field width: corners a few
#: pixels inside the field must not cut the checkers at the edge in half.
FIELD_MARGIN = 0.0
#: A camera at a slant sees a checker's top face (a thickness above the board) moved away from
#: it on the board plane (see :mod:`calibration.viewpoint`).  Where that move, at the field's
#: centre, is at least :data:`RAISED_SHIFT_LEAST` radii, the stacks' first checkers tell
#: whether the checkers stand raised (solids at a slant) or lie where their bases are (a photo
#: taken from above and tilted afterwards, a drawing): raised when the median squared distance
#: of at least :data:`RAISED_STACKS_LEAST` first checkers (within two radii of their edge) from
#: where their top faces would be seen is under :data:`RAISED_CLEARLY` times their distance from
#: where their bases lie (against the edge, on their column's axis).  Then the checkers are read
#: again on the field rectified through the plane of their tops.  Where the tops would be seen
#: at least :data:`RAISED_FAR` radii from their bases (median over those stacks), first
#: checkers nearer the tops than the bases are enough: the board-plane reading of raised
#: checkers seen that far off their bases misplaces some (half cut off at the edge, a stack
#: misread), but flat ones lie at their bases.  Synthetic hard seeds, frames whose move is 0.2
#: radii or more (about 20 degrees from vertical) and three first checkers or more: flat
#: checkers (0-3999, 1910 frames) 0.36 or more but two (0.08, 0.18: read the same either way),
#: and of the 491 whose tops would be 0.4 radii off or more none nearer the tops; solid checkers
#: (0-499, 302 frames) under 0.35 in 185, and 18 more nearer the tops.
#:
#: Where the tops would be seen :data:`RAISED_FAR` radii or more off their bases at the
#: field's centre (:func:`steep_view`; about 35 degrees from vertical), the field rectified
#: through the plane of the tops is read first: when its first checkers, at least
#: :data:`RAISED_STACKS_LEAST`, lie within :data:`RAISED_AT_BASE` radii of their bases
#: (median), the checkers stand raised and the board plane is not read at all (a real camera
#: that steep sees solids: most frames).  Else the board plane is read and judged as above;
#: with fewer than :data:`RAISED_STACKS_LEAST` first checkers there (a seat's view of a board
#: with few stacks), the field whose first checkers lie nearer their bases is kept
#: (:func:`nearer_their_bases`).  Medians of the raised field's first checkers' squared
#: distances from their bases, steep frames with three or more: flat hard seeds 0-4999, 534
#: frames, 0.068 radii squared or more (0.26 radii); real-aug, 32, 0.128 or more; solid seeds
#: 0-1499, 407, under 0.04 in 324.
#:
#: A steep frame the board plane judges flat is still taken raised when the raised field's
#: first checkers lie much nearer their bases than the board plane's: their median squared
#: offset under :data:`RAISED_CLEARLY_NEARER` times the board plane's
#: (:func:`nearer_their_bases`).  Seen 55-60 degrees from vertical, the tops of a few first
#: checkers can stand just over :data:`RAISED_AT_BASE` off their bases on the raised field
#: while the board plane misplaces most.  The ratio, steep frames the board plane judges flat
#: (a4eaad6's readings): flat hard seeds 0-4999, 577 frames, 1.62 or more; real-aug, 32 (real
#: checkers are a little thick), 1.12 or more; solid seeds 0-1499, 17 frames, two under 0.5
#: (0.11 and 0.18: 8 points mended, none lost), the next at 0.59 (162: read raised, one point
#: lost) and the rest 1.06 or more.
RAISED_CLEARLY_NEARER = 0.5
RAISED_SHIFT_LEAST = 0.2
RAISED_CLEARLY = 0.35
RAISED_FAR = 0.4
RAISED_STACKS_LEAST = 3
RAISED_AT_BASE = 0.2
#: Where the first checker of a stack lies when pushed against its edge, in radii from it.
FIRST_AT_EDGE = 1.06
#: Seen from a seat, a pile growing toward the camera hides its base under its second checker
#: (nearer the camera, and higher where it leans on the base): on the raised field the first
#: checker found then lies this many radii or more from its edge, where no base lies (see
#: :func:`with_hidden_bases`).  Solid seeds 0-1499 at 30-60 degrees (d14ecd5's readings),
#: stacks of 2 to 14 whose first step the lean shortens: of those whose first lies 1.6 radii
#: or more from the edge (1.61 to 1.99), 37 were one short, 1 right, 7 wrong otherwise; under
#: 1.6, the nearest read right at 1.54 (1.06 to 1.3 for nearly all).
HIDDEN_BASE_FROM_EDGE = 1.6


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


def _firsts(findings: CheckerFindings, geometry: BoardGeometry
            ) -> tuple[np.ndarray, np.ndarray]:
    """The first checkers of the point stacks (those within two radii of their edge) and where
    their bases lie (against the edge, on their column's axis): two n x 2 arrays."""
    radius, m = geometry.checker_radius, geometry.margin
    firsts, bases = [], []
    for stack in findings.stacks[:-1]:
        if not stack.centres:
            continue
        top = stack.row == "top"
        edge = m if top else m + geometry.height
        first = stack.centres[0]
        if abs(first[1] - edge) <= 2 * radius:
            firsts.append(first)
            bases.append((m + geometry.column_x(stack.column),
                          edge + (1 if top else -1) * FIRST_AT_EDGE * radius))
    return (np.asarray(firsts, np.float64).reshape(-1, 2),
            np.asarray(bases, np.float64).reshape(-1, 2))


def _median_offset(at: np.ndarray, of: np.ndarray) -> float:
    """The median squared distance between the rows of ``at`` and ``of``."""
    # (statistics.median: a few values, where numpy's costs ten times more)
    return statistics.median(np.sum(np.square(at - of), axis=1).tolist())


def raised_view(findings: CheckerFindings, geometry: BoardGeometry, corners: Corners,
                frame_size: tuple[int, int], view: Viewpoint | None = None
                ) -> tuple[Viewpoint, float] | None:
    """The camera and the checkers' thickness (field pixels) when the checkers found on the
    board-plane field show their tops raised at a slant (see :data:`RAISED_CLEARLY`), else
    None.  ``view``: the camera (:func:`calibration.viewpoint.camera_over_field`), when
    already found."""
    view = view or camera_over_field(corners, geometry, frame_size)
    if view is None:
        return None
    radius = geometry.checker_radius
    lift = CHECKER_THICKNESS * 2 * radius
    if _top_shift(view, lift) < RAISED_SHIFT_LEAST * radius:
        return None
    first_at, base_at = _firsts(findings, geometry)
    if len(first_at) < RAISED_STACKS_LEAST:
        return None
    onto = view.onto_board(lift)
    top_at = base_at * onto[0, 0] + onto[:2, 2]          # the homothety about the foot
    base_off = _median_offset(first_at, base_at)
    top_off = _median_offset(first_at, top_at)
    moved = _median_offset(top_at, base_at)
    if top_off < RAISED_CLEARLY * base_off or (
            moved >= (RAISED_FAR * radius) ** 2 and top_off < base_off):
        return view, lift
    return None


def _top_shift(view: Viewpoint, lift: float) -> float:
    """How far (field pixels) the top face of a checker ``lift`` thick at the field's centre
    is seen from its base on the board plane."""
    centre = np.array([*view.centre, 1.0])
    return float(np.hypot(*((view.onto_board(lift) @ centre)[:2] - centre[:2])))


def steep_view(geometry: BoardGeometry, corners: Corners, frame_size: tuple[int, int],
               view: Viewpoint | None = None) -> tuple[Viewpoint, float] | None:
    """The camera and the checkers' thickness (field pixels) when the checkers' tops would be
    seen at least :data:`RAISED_FAR` radii off their bases at the field's centre, else None:
    where a board-plane reading of raised checkers misplaces some.  ``view``: as for
    :func:`raised_view`."""
    view = view or camera_over_field(corners, geometry, frame_size)
    if view is None:
        return None
    lift = CHECKER_THICKNESS * 2 * geometry.checker_radius
    return (view, lift) if _top_shift(view, lift) >= RAISED_FAR * geometry.checker_radius else None


def seen_at_bases(findings: CheckerFindings, geometry: BoardGeometry) -> bool:
    """Whether the first checkers found (on the field rectified through the plane of the
    checkers' tops), :data:`RAISED_STACKS_LEAST` or more, lie within :data:`RAISED_AT_BASE`
    radii of their bases (median): raised checkers read where they stand."""
    first_at, base_at = _firsts(findings, geometry)
    return len(first_at) >= RAISED_STACKS_LEAST and (
        _median_offset(first_at, base_at) < (RAISED_AT_BASE * geometry.checker_radius) ** 2)


def nearer_their_bases(raised: CheckerFindings, flat: CheckerFindings,
                       geometry: BoardGeometry, by: float = 1.0) -> bool:
    """Whether the first checkers found on the field rectified through the plane of the
    checkers' tops (``raised``) lie nearer their bases than those found on the board-plane
    field (``flat``), their median squared offset under ``by`` times the board plane's: where
    a checker lies, its top face is seen over its base on the one field it was read right on,
    and off it on the other.

    For steep frames (:func:`steep_view`) with too few first checkers on the board plane for
    :func:`raised_view` to tell by (both readings of every such frame): solid synthetic seeds
    0-1499, 41 frames, 35 taken raised, 26 points mended and none lost; flat hard seeds
    0-4999, 46 frames, none taken raised (the median squared offset of their board-plane
    firsts at most 0.51 of the raised field's; of the solid frames taken raised with a point
    mended, 1.23 or more).  With enough of them, ``by`` :data:`RAISED_CLEARLY_NEARER`: much
    nearer."""
    first_raised, base_raised = _firsts(raised, geometry)
    if not len(first_raised):
        return False
    first_flat, base_flat = _firsts(flat, geometry)
    return not len(first_flat) or (_median_offset(first_raised, base_raised)
                                   < by * _median_offset(first_flat, base_flat))


def with_hidden_bases(findings: CheckerFindings, geometry: BoardGeometry, lean: "PileLean"
                      ) -> None:
    """Counts, in a reading of the raised field, the base a pile growing toward the camera
    hides under its second checker (see :data:`HIDDEN_BASE_FROM_EDGE`): a stack of two or more
    whose first checker lies that far from its edge, where the lean (``lean``, at a pile's
    step :data:`vision.checkers.LEAN_STEP`) shortens its first step, gets a checker at its
    base's place (its first's colour and score)."""
    radius, m = geometry.checker_radius, geometry.margin
    for stack in findings.stacks[:-1]:
        if not 2 <= stack.count < CHECKERS_PER_SIDE:
            continue
        outward = 1.0 if stack.row == "top" else -1.0
        edge = m if stack.row == "top" else m + geometry.height
        if (stack.centres[0][1] - edge) * outward < HIDDEN_BASE_FROM_EDGE * radius:
            continue
        base = (m + geometry.column_x(stack.column), edge + outward * FIRST_AT_EDGE * radius)
        if lean.shift(*base, LEAN_STEP * radius, outward)[1] * outward >= 0:
            continue   # the pile grows away from the camera: its next checkers hide no base
        stack.centres.insert(0, base)
        stack.scores.insert(0, stack.scores[0])
        stack.colours.insert(0, stack.colours[0])


class PileLean:
    """How the camera ``view`` sees a tall overlapped pile's checkers after its base, on the
    field rectified through the plane of flat checkers' tops (``lift`` above the board,
    :func:`calibration.viewpoint.warp_raised`): where (:meth:`shift`) and as what ellipse
    (:meth:`face`).

    A player overlaps a tall pile: its base lies flat and each checker after it rests its near
    edge on the one before and its far edge on the board (:func:`vision.solid.shingled_tilts`),
    tilted some 15-20 degrees for steps of 1.4-1.9 radii.  Its top face's centre then stands at
    ``r sin(tilt) + lift cos(tilt)``, a third of a radius above a flat checker's top, and
    ``lift sin(tilt)`` further out; seen from a seat's slant it is moved away from the camera's
    foot (:meth:`~calibration.viewpoint.Viewpoint.rise_shift`), up to half a radius at 60
    degrees, the first step of the pile longer or shorter than the others by that much.  Its
    tilted top face is seen drawn out along the pile where the pile grows toward the camera,
    squeezed where it grows away.  A step of two radii or more is no overlap: nothing leans.

    >>> lean = PileLean(Viewpoint((100.0, 1000.0), 500.0, (100.0, 100.0)), 4.4, 10.0)
    >>> [round(v, 2) for v in lean.shift(100.0, 10.0, 14.0, 1.0)]   # a top pile, camera below
    [0.0, -4.34]
    >>> lean.shift(100.0, 10.0, 20.0, 1.0)
    (0.0, 0.0)
    >>> lean.face([150.0], [24.0], 14.0, 1.0).round(2).tolist()   # drawn out along the pile
    [[[1.01, -0.03], [0.0, 1.57]]]
    >>> lean.face([150.0], [600.0], 14.0, -1.0).round(2).tolist()   # a bottom one: squeezed
    [[[1.01, 0.03], [0.0, 0.7]]]
    """

    def __init__(self, view: Viewpoint, lift: float, radius: float) -> None:
        self.view, self.lift, self.radius = view, lift, radius

    def _leaning(self, step: float) -> tuple[float, float, float]:
        """A leaning checker's tilt, its top face centre's height and how far further out
        than a flat one's it lies, for a pile ``step`` pixels apart."""
        tilt = _lean_tilt(round(LEAN_TABLE * min(step, 2 * self.radius) / self.radius),
                          round(LEAN_TABLE * self.lift / self.radius))
        height = self.radius * math.sin(tilt) + self.lift * math.cos(tilt)
        return tilt, height, self.lift * math.sin(tilt)

    def shift(self, x: float, y: float, step: float, outward: float) -> tuple[float, float]:
        """Where the checkers after a base seen at (x, y), ``step`` pixels apart, the pile
        growing toward ``outward`` y (+1 or -1), are seen moved from where evenly spaced flat
        ones would be (dx, dy pixels)."""
        if step >= 2 * self.radius:
            return 0.0, 0.0
        _, height, out = self._leaning(step)
        dx, dy = self.view.rise_shift(self.lift, height - self.lift)(
            x, y + outward * (step + out))
        return dx, dy + outward * out

    def face(self, x: np.ndarray, y: np.ndarray, step: float, outward: float) -> np.ndarray:
        """The 2x2 maps (n x 2 x 2) taking a circle of the checker's radius to the ellipses
        the top faces of leaning checkers seen at (``x``, ``y``) (1-D arrays), ``step`` pixels
        apart, are seen as: along the pile each rim tilts down outward, its near edge higher
        and seen further from the camera's foot, its far edge lower."""
        tilt, height, _ = self._leaning(step)
        depth = self.view.height - height
        scale = (self.view.height - self.lift) / depth
        gx = (np.asarray(x, np.float64) - self.view.foot[0]) / depth
        gy = (np.asarray(y, np.float64) - self.view.foot[1]) / depth
        sin = math.sin(tilt)
        maps = np.zeros((gx.size, 2, 2))
        maps[:, 0, 0] = scale
        maps[:, 0, 1] = -scale * outward * sin * gx
        maps[:, 1, 1] = scale * (math.cos(tilt) - outward * sin * gy)
        return maps


#: Steps and thicknesses (radii) are rounded to this many parts of a radius to look up the lean
#: of a pile's checker (:func:`_lean_tilt`, made once per value).
LEAN_TABLE = 50


@functools.lru_cache(maxsize=256)
def _lean_tilt(step: int, thickness: int) -> float:
    """The tilt (radians) of an overlapped pile's second checker, resting on its flat base
    ``step`` apart (both in :data:`LEAN_TABLE` parts of a radius, as the thickness is)."""
    return shingled_tilts([0.0, step / LEAN_TABLE], 1.0, thickness / LEAN_TABLE)[1]


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
        size = (frame.shape[1], frame.shape[0])

        def read_raised(view: Viewpoint, lift: float) -> CheckerFindings:
            field = warp_raised(frame4, rect.corners, rect.geometry, view, lift)
            return find_checkers(field, rect.geometry, layered=self.layered_stacks,
                                 layer_shift=view.layer_shift(lift),
                                 lean=PileLean(view, lift, rect.geometry.checker_radius))

        # Seen steeply, checkers are solids standing raised (but in a drawing, or a photo
        # from above tilted afterwards): read on the plane of their tops first, and on the
        # board plane only when their first checkers do not stand at their bases there.
        # (The camera, found once: both judges ask for it.)
        camera = camera_over_field(rect.corners, rect.geometry, size)
        steep = steep_view(rect.geometry, rect.corners, size, camera)
        seen_raised = None if steep is None else read_raised(*steep)
        if seen_raised is not None and seen_at_bases(seen_raised, rect.geometry):
            raised, findings = steep, seen_raised
        else:
            findings = find_checkers(rect.field, rect.geometry, layered=self.layered_stacks)
            raised = raised_view(findings, rect.geometry, rect.corners, size, camera)
            if raised is not None:
                # (The same camera as steep's, when there is one.)
                findings = read_raised(*raised) if seen_raised is None else seen_raised
            elif seen_raised is not None and nearer_their_bases(
                    seen_raised, findings, rect.geometry,
                    1.0 if len(_firsts(findings, rect.geometry)[0]) < RAISED_STACKS_LEAST
                    else RAISED_CLEARLY_NEARER):
                # Too few first checkers on the board plane to tell raised from flat by: the
                # field whose first checkers lie at their bases; else only one whose first
                # checkers lie much nearer them.
                raised, findings = steep, seen_raised
        if raised is not None:
            with_hidden_bases(findings, rect.geometry,
                              PileLean(*raised, rect.geometry.checker_radius))
        obs, centres = self._observe(findings)
        obs.corners = rect.corners
        settle_off(obs, read_trays(frame4, rect.corners, rect.geometry, obs.colours, centres))
        centres_found = [c for s in findings.stacks for c in s.centres]
        # The board plane's field: on the raised plane's the frame's lip shows inside the far
        # edges, which the occlusion stage takes for something over the field (solid seeds
        # 0-499, frames without hands called occluded: 45 of 413 against 21 on this one).
        # Checkers seen raised show their tops and walls beyond their bases (over the frame
        # beyond the far edge too): the occlusion stage is told where.
        tops = None if raised is None else raised[0].onto_board(raised[1])
        cover = find_occlusion(rect.field, rect.geometry, centres, centres_found, findings.radius,
                               frame_band(frame4, rect.corners, rect.geometry), tops)
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
            # checkers that look most like their colour (see _stack_colour), or the darker
            # colour where its checkers taken for the lighter one are that colour lit by glare
            # (see _lit_from_darker); it wins by half a vote where it had fewer, its confidence
            # showing the split.
            colour_of, label_of = np.asarray(colours), np.asarray(labels)
            distance = centre_distances(colour_of, centres)
            owner_of = np.asarray(owners)
            for i in np.flatnonzero((votes[:-1, 0] > 0) & (votes[:-1, 1] > 0)):
                mine = owner_of == i
                chosen = _lit_from_darker(colour_of[mine], label_of[mine], centres,
                                          lambda i=i: findings.light_beside(i))
                if chosen is None:
                    chosen = _stack_colour(label_of[mine], distance[mine])
                votes[i, chosen] = max(votes[i, chosen], votes[i, 1 - chosen] + 0.5)
            # A stack lying between the colours takes the one the light beside it says it was
            # moved from (see _lit_or_shaded), with the same half vote.  (Few stacks are unsure
            # at all: those with a checker sure of its colour are left at once.)
            sure = np.bincount(owner_of[np.asarray(margins) >= STACK_UNSURE],
                               minlength=len(stacks))
            for i in np.flatnonzero((votes[:-1].sum(axis=1) > 0) & (sure[:-1] == 0)).tolist():
                mine = owner_of == i
                chosen = _lit_or_shaded(colour_of[mine], np.asarray(margins)[mine],
                                        centres, lambda i=i: findings.light_beside(i))
                if chosen is not None:
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


#: How many times nearer the darker colour lit by glare than the lighter colour lit every
#: checker of a split stack taken for the lighter colour must lie for the stack to be of the
#: darker colour where the paint beside it is lit (see :func:`_lit_from_darker`).
LIT_FROM_DARKER = 2.0


def _lit_from_darker(colours: np.ndarray, labels: np.ndarray, centres: np.ndarray,
                     light_beside: Callable[[], float | None]) -> int | None:
    """The darker colour (0 or 1, of ``centres``) for a point's stack split between the
    colours (Lab ``colours``, their nearest-centre ``labels``) whose checkers taken for the
    lighter colour all lie :data:`LIT_FROM_DARKER` times nearer the darker colour lit by glare
    than the lighter one lit (:func:`calibration.colours.lit_distance`), where the bare paint
    beside the stack is lit by :data:`LIT_BESIDE` or more; None otherwise.

    Glare washes a gold (or red, or black) checker toward white, past the midpoint, but it
    keeps a trace of its hue that a white checker, lit or not, never has: the glare-lit gold
    checkers lie close to gold lit and far from white lit, a white one the other way round.
    (:func:`_stack_colour` alone took the one gold checker outside the glare as outvoted by
    the two lit ones: real fm-gold-b under the lower right glare spot, bottom[9] read white.)

    >>> centres = np.float32([[193, 128, 129], [135, 134, 149]])
    >>> lit_gold = np.float32([[111, 136, 152], [195, 132, 143], [224, 131, 135]])
    >>> _lit_from_darker(lit_gold, np.array([1, 0, 0]), centres, lambda: 180.0)
    1
    >>> _lit_from_darker(lit_gold, np.array([1, 0, 0]), centres, lambda: 2.0) is None
    True
    >>> whites = np.float32([[150, 131, 140], [190, 129, 130], [202, 129, 129]])
    >>> _lit_from_darker(whites, np.array([1, 0, 0]), centres, lambda: 180.0) is None
    True
    """
    light = np.asarray(centres, np.float32)[:, 0]
    darker = int(np.argmin(light))
    lighter = np.asarray(colours, np.float32)[np.asarray(labels) == 1 - darker]
    if len(lighter) == 0 or len(lighter) == len(labels):
        return None
    ratios = [lit_distance(c, centres[1 - darker]) / max(lit_distance(c, centres[darker]), 0.5)
              for c in lighter]
    if min(ratios) < LIT_FROM_DARKER:
        return None
    lift = light_beside()
    if lift is None or lift < LIT_BESIDE:
        return None
    return darker


#: A stack is unsure of its colour when none of its checkers lies three times nearer one
#: colour's centre than the other's (:func:`calibration.colours.nearest`'s margin under this).
STACK_UNSURE = 0.5
#: Lightness (8-bit Lab) by which the bare paint beside a stack must be lit (or shaded) for
#: the stack to be taken as lit (or shaded) (see :func:`_lit_or_shaded`).
LIT_BESIDE = 8.0


def _lit_or_shaded(colours: np.ndarray, margins: np.ndarray, centres: np.ndarray,
                   light_beside: Callable[[], float | None]) -> int | None:
    """The colour (0 or 1, of ``centres``) of a point's stack whose checkers (Lab ``colours``,
    their :func:`calibration.colours.nearest` ``margins``) all lie between the two colours in
    lightness, none clearly nearer one (:data:`STACK_UNSURE`), told by the light on the bare
    paint beside it (``light_beside()``, see :meth:`vision.checkers.CheckerFindings.light_beside`):
    the darker colour where that paint is lit by :data:`LIT_BESIDE` or more, the lighter where
    it is shaded so; None otherwise (or where the stack is sure).

    Glare only lightens and a shade only darkens: a stack lit into the middle is of the dark
    colour (a black stack under glare turns grey), one shaded into it of the light one.
    Synthetic hard seeds 0-3999 and the real photos under every transform (corners given), the
    20 unsure stacks: the 8 of the dark colour were lit by 15.6 to 62.6 beside; the 12 of the
    light colour, -24.9 to -1.0 (5 unmeasured).  Light does not give a checker a hue, though:
    glare washes a colour out toward grey and a shade dims it, so the colour the light points
    to is not taken when the stack's hue is one it cannot have (:func:`_hue_beyond`; a lit red
    stack shaded beside read white, held seed 5118).

    >>> centres = np.float32([[220, 128, 130], [37, 128, 127]])
    >>> grey = np.float32([[136, 128, 127]] * 3)
    >>> _lit_or_shaded(grey, np.float32([0.1] * 3), centres, lambda: 62.0)   # lit: black
    1
    >>> _lit_or_shaded(grey, np.float32([0.1] * 3), centres, lambda: -30.0)  # shaded: white
    0
    >>> _lit_or_shaded(grey, np.float32([0.1] * 3), centres, lambda: 2.0) is None
    True
    """
    light = np.asarray(centres, np.float32)[:, 0]
    lightness = np.asarray(colours, np.float32)[:, 0]
    if (np.asarray(margins).max() >= STACK_UNSURE or lightness.min() <= light.min()
            or lightness.max() >= light.max()):
        return None
    lift = light_beside()
    if lift is None or abs(lift) < LIT_BESIDE:
        return None
    chosen = int(np.argmin(light)) if lift > 0 else int(np.argmax(light))
    if _hue_beyond(np.asarray(colours, np.float32), np.asarray(centres, np.float32)[chosen]):
        return None
    return chosen


#: Distance (8-bit Lab a, b) from a stack's mean hue to every hue the light can give a
#: checker of a colour (that colour's, washed out toward grey) beyond which the stack is not
#: of that colour (see :func:`_hue_beyond`).  The unsure stacks the light beside decided on
#: synthetic hard seeds 0-5999, solid -n 500 and layered -n 100 (19): those given their own
#: colour lay 0.0 to 7.3 from its hues (a gold stack in glare; 10.7 for a false lone checker,
#: wrong in either colour); the one given the other colour, held seed 5118's red pair called
#: white, 67.9.
HUE_BEYOND = 16.0


def _hue_beyond(colours: np.ndarray, centre: np.ndarray) -> bool:
    """Whether checkers (Lab ``colours``, n x 3) have a hue the light cannot give a checker of
    colour ``centre`` (Lab): their mean (a, b) lies further than :data:`HUE_BEYOND` from the
    segment from grey to the centre's (a, b).  Glare washes a colour out along that segment
    and a shade dims it along it; neither turns white red.

    >>> white, red = np.float32([199, 127, 129]), np.float32([68, 168, 153])
    >>> _hue_beyond(np.float32([[109, 185, 165]]), white)     # vivid red: no white made it
    True
    >>> _hue_beyond(np.float32([[150, 148, 140]]), red)       # red washed out by glare
    False
    >>> _hue_beyond(np.float32([[120, 128, 130]]), white)     # white in shade
    False
    """
    hue = np.asarray(colours, np.float32)[:, 1:].mean(axis=0) - 128.0
    own = np.asarray(centre, np.float32)[1:] - 128.0
    reach = float(own @ own)
    along = 0.0 if reach == 0 else min(max(float(hue @ own) / reach, 0.0), 1.0)
    return float(np.linalg.norm(hue - along * own)) > HUE_BEYOND


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
