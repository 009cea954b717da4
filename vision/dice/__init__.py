"""Reading physical dice from camera frames, and drawing synthetic ones.

- :mod:`vision.dice.faces` — pip layouts of a die (the one place for them);
- :mod:`vision.dice.render` — :func:`~vision.dice.render.draw_die` draws a die onto a frame;
- :mod:`vision.dice.scenes` — labelled synthetic dice scenes;
- :mod:`vision.dice.reader` — :class:`DiceReader`, whose ``read(frame, region)`` gives a
  :class:`DiceObservation`;
- :mod:`vision.dice.evaluate` — the stage's own evaluation (``python -m vision.dice.evaluate``).
"""
from vision.dice.render import STYLES, DiceStyle, RenderedDie, draw_die, draw_doubling_cube  # noqa: F401
from vision.dice.reader import DiceObservation, DiceReader, Die  # noqa: F401,E402
