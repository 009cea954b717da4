"""Finding the playing field in a frame without clicks.

Candidates are four-sided outlines found in edge maps at several sensitivities (the field's
boundary with the board's frame is usually a clear, long edge).  Each candidate, in each of its
orientations, is warped to the canonical field and scored by what only a backgammon field has:
six alternating points per quarter along the top and bottom edges (a strong periodic pattern at
exactly the point pitch) and a bar down the middle.  The best-scoring outline wins; when nothing
scores like a board, :class:`LocateError` says so instead of guessing.

>>> import numpy as np
>>> locate_field(np.zeros((120, 160, 3), np.uint8))
Traceback (most recent call last):
...
calibration.locate.LocateError: no backgammon board found in the frame (give the corners with --corners)
"""
from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import (
    BoardGeometry, Corners, GeometryError, bar_evidence, check_corners, field_aspect, warp,
)

#: Below this pattern score a candidate is not taken for a board.
MIN_SCORE = 0.25
#: Bar edge strength (see :func:`calibration.geometry.bar_evidence`) that counts as a clear bar.
BAR_EVIDENCE = 4.0
#: Work on frames scaled to at most this width (speed; corners are scaled back).
WORK_WIDTH = 640


class LocateError(ValueError):
    """No board could be found automatically."""


def corner_error(found: Corners, truth: Corners) -> float:
    """Largest corner distance as a share of the true field's diagonal.

    >>> round(corner_error(((0, 0), (10, 0), (10, 10), (0, 10)), ((0, 0), (10, 0), (10, 10), (0, 11))), 3)
    0.067
    """
    a, b = np.asarray(found, float), np.asarray(truth, float)
    diagonal = max(np.linalg.norm(b[2] - b[0]), np.linalg.norm(b[3] - b[1]))
    return float(np.linalg.norm(a - b, axis=1).max() / diagonal)


def align_to(found: Corners, truth: Corners) -> Corners:
    """``found`` turned by 180 degrees if that matches ``truth`` better: from the image alone a
    field and the same field upside down cannot be told apart (the calibration decides)."""
    turned = tuple(found[2:]) + tuple(found[:2])
    return turned if corner_error(turned, truth) < corner_error(found, truth) else found  # type: ignore


def _quads(gray: np.ndarray) -> list[np.ndarray]:
    h, w = gray.shape
    min_area = 0.08 * h * w
    found: list[np.ndarray] = []
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    maps = []
    for lo, hi in ((20, 60), (40, 120), (80, 200)):
        edges = cv2.Canny(blurred, lo, hi)
        maps.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    for block in (31, 61):
        maps.append(cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                          cv2.THRESH_BINARY, block, 4))
    for m in maps:
        contours, _ = cv2.findContours(m, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < min_area:
                continue
            hull = cv2.convexHull(contour)
            peri = cv2.arcLength(hull, True)
            for eps in (0.01, 0.02, 0.04):
                approx = cv2.approxPolyDP(hull, eps * peri, True)
                if len(approx) == 4:
                    quad = approx.reshape(4, 2).astype(np.float64)
                    if cv2.contourArea(quad.astype(np.float32)) >= min_area:
                        found.append(quad)
                    break
    # A field's two halves are often the clearest outlines (the bar splits it): join pairs of
    # similar, neighbouring outlines into one.
    singles = list(found)
    for i, a in enumerate(singles):
        for b in singles[i + 1:]:
            area_a = cv2.contourArea(a.astype(np.float32))
            area_b = cv2.contourArea(b.astype(np.float32))
            if not 0.6 < area_a / area_b < 1.67:
                continue
            gap = np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))
            if not 0.5 * np.sqrt(area_a) < gap < 1.6 * np.sqrt(area_a):
                continue
            hull = cv2.convexHull(np.vstack([a, b]).astype(np.float32))
            approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
            if len(approx) == 4:
                found.append(approx.reshape(4, 2).astype(np.float64))
    # Drop near-duplicates.
    unique: list[np.ndarray] = []
    for quad in found:
        if all(np.abs(_canonical_order(quad) - _canonical_order(u)).max() > 4 for u in unique):
            unique.append(quad)
    return unique


def _canonical_order(quad: np.ndarray) -> np.ndarray:
    """Clockwise in image coordinates, starting at the top-left-most corner."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def pattern_score(field: np.ndarray, geometry: BoardGeometry) -> float:
    """How much a canonical image looks like a backgammon field: the share of the top and
    bottom bands' column-profile energy at the point pitch, checked in both halves."""
    gray = cv2.cvtColor(field, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = gray.shape
    score = []
    for band in (gray[int(0.05 * h): int(0.3 * h)], gray[int(0.7 * h): int(0.95 * h)]):
        profile = np.median(band, axis=0)
        for lo, hi in ((0, geometry.bar_left), (geometry.bar_right, w)):
            part = profile[int(lo) + 1: int(hi) - 1]
            if part.size < 24:
                score.append(0.0)
                continue
            part = part - part.mean()
            spectrum = np.abs(np.fft.rfft(part * np.hanning(part.size))) ** 2
            # Six points per quarter: a cycle per point (triangles against the field) and a
            # cycle per two points (the points' two alternating colours).
            peak = 0.0
            for cycles in (6, 3):
                k0 = int(round(cycles * part.size / (hi - lo)))
                peak = max(peak, float(spectrum[max(1, k0 - 1): k0 + 2].sum()))
            score.append(peak / (float(spectrum[1:].sum()) + 1e-6))
    # Every quarter must show its points (checkers hide some, never the pattern everywhere).
    return float(np.sort(score)[1])


def locate_field(frame: np.ndarray) -> Corners:
    """The field's corners (top-left, top-right, bottom-right, bottom-left) in frame pixels."""
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(frame, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    best: tuple[float, Corners] | None = None
    size = (small.shape[1], small.shape[0])
    for quad in _quads(gray):
        ordered = _canonical_order(quad)
        for shift in range(2):  # the long sides may be either pair; 180 degrees is the same field
            corners_np = np.roll(ordered, -shift, axis=0)
            try:
                corners = check_corners(corners_np)
            except GeometryError:
                continue
            geometry = BoardGeometry.default(field_aspect(corners, size))
            field = warp(small, corners, geometry)
            geometry, bar = bar_evidence(field, geometry)
            # A half board shows points too; only the whole field has the bar in its middle.
            score = pattern_score(field, geometry) * min(1.0, bar / BAR_EVIDENCE)
            if best is None or score > best[0]:
                best = (score, corners)
    if best is None or best[0] < MIN_SCORE:
        raise LocateError("no backgammon board found in the frame (give the corners with --corners)")
    return tuple((x / scale, y / scale) for x, y in best[1])  # type: ignore[return-value]
