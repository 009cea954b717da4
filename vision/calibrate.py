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
from engine.position import O, X, Position
from vision.checkers import find_checkers
from vision.observation import BoardObservation, absolute_point
from vision.reader import BoardReader, rectify

#: Points (of 24) that must look as in the starting position for a frame to tell the sides.
START_AGREEMENT = 21


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
    """Which colour plays X and where X's home is, from a frame of the starting position.

    Tolerant of a misread point or two (a checker hidden by a dice cup): the sides that make the
    frame closest to the start win, if at least :data:`START_AGREEMENT` of the 24 points agree.
    """
    start = Position.start()
    scored = []
    for colour in draft.colours:
        if x_colour is not None and colour != x_colour:
            continue
        for home in HOME_CORNERS:
            candidate = replace(draft, x_colour=colour, x_home=home)
            agree = 0
            for row_name, row in observation.rows().items():
                for column, reading in enumerate(row):
                    point = absolute_point(home, row_name, column)
                    want_x, want_o = start.checkers(X, point), start.checkers(O, 25 - point)
                    if reading is None:
                        agree += want_x == 0 and want_o == 0
                    elif candidate.player_of(reading.colour) == X:
                        agree += reading.count == want_x
                    else:
                        agree += reading.count == want_o
            # The bottom row first: by default X's home is nearest the camera.
            scored.append((agree, home.startswith("bottom"), colour, home))
    scored.sort(reverse=True)
    if not scored or scored[0][0] < START_AGREEMENT:
        raise CalibrationError("the frame does not show the starting position: say where X's "
                               "home board is (--x-home) and which colour X plays (--x-colour)")
    return scored[0][2], scored[0][3]
