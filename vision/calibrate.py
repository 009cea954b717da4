"""Fitting a :class:`~calibration.calibration.Calibration` from one frame.

The calibration needs the reader (to find checkers and learn their colours), so the fitting
lives here in ``vision`` and the plain data type in ``calibration``.  The starting position is
the natural frame to fit from: it says where each colour's home board is.  The start position
looks the same with the colours swapped and the board mirrored top to bottom, so which colour is
X is the user's choice; without one, X is the colour whose home board is in the bottom row.

>>> from vision.render import render_board, RenderOptions, CHECKER_SCHEMES
>>> from engine.position import Position
>>> scene = render_board(Position.start(), RenderOptions(seed=2, hard=False,
...                                                        scheme=CHECKER_SCHEMES[0]))
>>> cal = fit_calibration(scene.image, scene.corners)
>>> cal.colours, cal.x_colour, cal.x_home
(('white', 'black'), 'white', 'bottom-right')
>>> BoardReader(cal).read(scene.image).to_position(cal) == Position.start()
True
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from calibration.calibration import HOME_CORNERS, Calibration, CalibrationError
from calibration.colours import name_pair, two_clusters
from calibration.geometry import check_corners
from engine.position import Position, PositionError
from vision.checkers import find_checkers
from vision.observation import BoardObservation, ObservationError
from vision.reader import BoardReader, rectify


def fit_calibration(frame: np.ndarray, corners: Sequence[Sequence[float]],
                    x_colour: str | None = None, x_home: str | None = None,
                    colour_names: Sequence[str] | None = None) -> Calibration:
    """Learn bar, colours and sides from a frame; ``x_home`` is needed unless the frame shows
    the starting position.  ``colour_names`` renames the two colours (lighter first)."""
    corners = check_corners(corners)
    rect = rectify(frame, corners)
    findings = find_checkers(rect.field, rect.geometry)
    colours = np.asarray([c for s in findings.stacks for c in s.colours]).reshape(-1, 3)
    if len(colours) < 4:
        raise CalibrationError("too few checkers seen to learn their colours (show the starting "
                               "position)")
    _, centres = two_clusters(colours)
    names = tuple(colour_names) if colour_names else name_pair(centres)
    if len(names) != 2 or names[0] == names[1]:
        raise CalibrationError("give two different colour names, lighter colour first")
    geo = rect.geometry
    draft = Calibration(corners=corners, colours=names,  # type: ignore[arg-type]
                        colour_lab=tuple(tuple(float(v) for v in c) for c in centres),
                        x_colour=names[0],
                        bar=(geo.bar_left / geo.width, geo.bar_right / geo.width),
                        aspect=geo.height / geo.width)
    if x_colour is not None and x_colour not in names:
        raise CalibrationError(f"X's colour {x_colour!r} is not one of the colours seen "
                               f"({', '.join(names)})")
    observation = BoardReader(draft).read(frame)
    if x_home is None:
        x_colour, x_home = _sides_from_start(observation, draft, x_colour)
    elif x_home not in HOME_CORNERS:
        raise CalibrationError(f"x_home is one of {', '.join(HOME_CORNERS)}; got {x_home!r}")
    fitted = replace(draft, x_colour=x_colour or names[0], x_home=x_home)
    return fitted.with_signature(frame)


def _sides_from_start(observation: BoardObservation, draft: Calibration,
                      x_colour: str | None) -> tuple[str, str]:
    matches = []
    for colour in draft.colours:
        if x_colour is not None and colour != x_colour:
            continue
        for home in HOME_CORNERS:
            candidate = replace(draft, x_colour=colour, x_home=home)
            try:
                if observation.to_position(candidate) == Position.start():
                    matches.append((colour, home))
            except (ObservationError, PositionError):
                continue
    if not matches:
        raise CalibrationError("the frame does not show the starting position: say where X's "
                               "home board is (--x-home) and which colour X plays (--x-colour)")
    matches.sort(key=lambda m: (not m[1].startswith("bottom"), m[1]))
    return matches[0]
