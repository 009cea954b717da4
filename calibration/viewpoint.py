"""Where the camera is over the board, from the field's corners in a frame.

A checker is a solid about a quarter of its diameter thick.  Seen at a slant, its top face is
not on the board plane the field's homography rectifies: in the rectified field it is seen
where the camera's ray through it meets the board, away from the camera.  For a camera above
the board-plane point ``C`` at height ``H`` (both in rectified field pixels), the plane of the
checkers' tops, ``T`` above the board, appears scaled about ``C`` by ``H / (H - T)``
(:meth:`Viewpoint.top_scale`): a homothety, so each top face is a circle there, larger and
further from ``C`` than the checker's base.

The camera is found as a pinhole camera with its principal point at the frame's centre, whose
focal length follows from the field being a rectangle (as :func:`calibration.geometry.field_aspect`
finds its aspect): the homography of the field then gives the camera's rotation and place.
Seen square-on the focal length is unobservable and a typical lens is taken; the slant is then
small, and so is what the view changes.

>>> import numpy as np
>>> from calibration.geometry import BoardGeometry
>>> geo = BoardGeometry.default(aspect=0.9)
>>> corners = ((100, 100), (500, 100), (500, 460), (100, 460))   # seen straight on
>>> view = camera_over_field(corners, geo, (600, 560))
>>> round(view.slant_deg, 1)
0.0
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from calibration.geometry import TYPICAL_FOCAL, BoardGeometry, homography, without_fourth_channel

#: A checker's thickness as a share of its diameter: real checkers are 0.15 to 0.3 of it
#: (tournament checkers about a quarter).
CHECKER_THICKNESS = 0.22


@dataclass(frozen=True)
class Viewpoint:
    """The camera over the rectified field: its foot (x, y) and height, in the field image's
    pixels (margin included)."""

    foot: tuple[float, float]
    height: float
    #: Where the field's centre is, in the same pixels.
    centre: tuple[float, float]

    @property
    def slant_deg(self) -> float:
        """The angle of the line from the field's centre to the camera, from vertical."""
        ground = math.hypot(self.foot[0] - self.centre[0], self.foot[1] - self.centre[1])
        return math.degrees(math.atan2(ground, self.height))

    def top_scale(self, lift: float) -> float:
        """How much larger, about the foot, the plane ``lift`` pixels above the board is seen
        on the board plane.

        >>> Viewpoint((0.0, 0.0), 500.0, (0.0, 0.0)).top_scale(10.0)
        1.0204081632653061
        """
        return self.height / max(self.height - lift, 1e-6)

    def onto_board(self, lift: float) -> np.ndarray:
        """The 3x3 matrix taking field pixels of the board plane to where the plane ``lift``
        above it is seen: the homothety about the foot."""
        k = self.top_scale(lift)
        fx, fy = self.foot
        return np.array([[k, 0, fx * (1 - k)], [0, k, fy * (1 - k)], [0, 0, 1.0]])


    def layer_shift(self, lift: float) -> Callable[[float, float], tuple[float, float]]:
        """Where, on the field rectified through the plane ``lift`` above the board
        (:func:`warp_raised`), a checker lying ``lift`` higher is seen moved from where it
        would be seen lying on that plane: (dx, dy) in pixels at a position (x, y), the move of
        each further layer of a stack built in layers.

        >>> Viewpoint((0.0, 0.0), 500.0, (0.0, 0.0)).layer_shift(10.0)(100.0, 0.0)
        (2.083333333333348, 0.0)
        """
        return self.rise_shift(lift, lift)

    def rise_shift(self, lift: float, rise: float) -> Callable[[float, float], tuple[float, float]]:
        """Where, on the field rectified through the plane ``lift`` above the board
        (:func:`warp_raised`), a point ``rise`` higher than that plane is seen moved from where
        it would be seen lying on it: (dx, dy) in pixels at a position (x, y), away from the
        camera's foot (toward it for a negative ``rise``).

        >>> Viewpoint((0.0, 0.0), 500.0, (0.0, 0.0)).rise_shift(10.0, 10.0)(100.0, 0.0)
        (2.083333333333348, 0.0)
        """
        ratio = self.top_scale(lift + rise) / self.top_scale(lift) - 1
        fx, fy = self.foot

        def shift(x: float, y: float) -> tuple[float, float]:
            return (x - fx) * ratio, (y - fy) * ratio

        return shift


def camera_over_field(corners: Sequence[Sequence[float]], geometry: BoardGeometry,
                      frame_size: tuple[int, int]) -> Viewpoint | None:
    """The camera seen from the board (see the module notes); None when the corners give no
    camera (a degenerate quadrilateral)."""
    to_frame = np.linalg.inv(homography(corners, geometry).astype(np.float64))
    u0, v0 = frame_size[0] / 2, frame_size[1] / 2
    centred = np.array([[1, 0, -u0], [0, 1, -v0], [0, 0, 1.0]]) @ to_frame
    g1, g2 = centred[:, 0], centred[:, 1]
    typical = TYPICAL_FOCAL * max(frame_size)
    f2 = typical ** 2
    if abs(g1[2] * g2[2]) * typical ** 2 > 1e-3 * abs(g1[0] * g2[0] + g1[1] * g2[1]) + 1e-12:
        guess = -(g1[0] * g2[0] + g1[1] * g2[1]) / (g1[2] * g2[2])
        diagonal = math.hypot(*frame_size)
        if (0.25 * diagonal) ** 2 < guess < (12 * diagonal) ** 2:
            f2 = guess
    focal = math.sqrt(f2)
    a = np.diag([1 / focal, 1 / focal, 1.0]) @ centred
    norms = np.linalg.norm(a[:, 0]) + np.linalg.norm(a[:, 1])
    if not np.isfinite(norms) or norms <= 0:
        return None
    a = a * (2 / norms)
    if a[2, 2] < 0:   # the board lies in front of the camera
        a = -a
    r1, r2, t = a[:, 0], a[:, 1], a[:, 2]
    rotation = np.column_stack([r1, r2, np.cross(r1, r2)])
    camera = -rotation.T @ t
    m = geometry.margin
    return Viewpoint((float(camera[0]), float(camera[1])), abs(float(camera[2])),
                     (m + geometry.width / 2, m + geometry.height / 2))


def warp_raised(frame: np.ndarray, corners: Sequence[Sequence[float]], geometry: BoardGeometry,
                view: Viewpoint, lift: float) -> np.ndarray:
    """The rectified field as the plane ``lift`` pixels above the board is seen (BGR): a
    checker ``lift`` thick shows its top face there as a circle of its radius over its base,
    where the board-plane field shows it enlarged and moved away from the camera.  ``frame``
    may carry a fourth channel (see :func:`calibration.geometry.warp`)."""
    matrix = np.linalg.inv(view.onto_board(lift)) @ homography(corners, geometry)
    warped = cv2.warpPerspective(frame, matrix, geometry.image_size, flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REPLICATE)
    return without_fourth_channel(warped)
