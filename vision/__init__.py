"""Camera frames in, observations out: the eye of bgbridge.

Stages, each a module with its own evaluation in :mod:`vision.evaluate`:

- :mod:`calibration.locate` — find the playing field without clicks;
- :mod:`calibration.geometry` — warp to a canonical top-down field, measure the bar;
- :mod:`vision.checkers` — stacks on every point and on the bar, by the shape of checker rims;
- :mod:`vision.reader` — :class:`BoardReader`, whose ``read(frame)`` gives a
  :class:`BoardObservation` (colours from the calibration or clustered on the frame);
- :mod:`vision.calibrate` — fit a :class:`~calibration.calibration.Calibration` from a frame;
- :mod:`vision.render` — synthetic labelled frames of any position on boards of several styles;
- :mod:`vision.dice` — the dice reader (another stage; imported only when asked for, so a
  half-written dice package never breaks the board reader).

>>> import vision
>>> vision.BoardReader.__name__, vision.BoardObservation.__name__
('BoardReader', 'BoardObservation')
"""
from __future__ import annotations

import importlib
from typing import Any

from vision.observation import BoardObservation, ObservationError, PointReading
from vision.reader import BoardReader, ReadError

__all__ = [
    "BoardObservation", "BoardReader", "ObservationError", "PointReading", "ReadError",
    "fit_calibration", "render_board", "RenderOptions", "DiceReader", "DiceObservation",
]

_LAZY = {
    "fit_calibration": "vision.calibrate",
    "render_board": "vision.render",
    "RenderOptions": "vision.render",
    "DiceReader": "vision.dice",
    "DiceObservation": "vision.dice",
}


def __getattr__(name: str) -> Any:
    """Import the renderer, the fitting and the dice stage only when first used."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
