"""Stack counts that ring evidence alone got wrong, on frames of the hard synthetic set
(``python -m vision.evaluate`` numbers them by seed).

* Tall overlapped stacks are counted from the rhythm of their rims (the edge profile along the
  stack repeats once per checker), not only from how well each fitted ring scores.
* The last checker of a stack that only touches the one before has nothing lying on it: its
  whole rim must show, as a lone checker's must (the point's paint beyond a stack is no
  checker).
* A stack of fifteen may run up to the facing edge; the facing point's "stack" there is its
  far end.
* A fitted stack does not end under a checker whose whole rim shows one overlapped step
  further: that checker lies on it and is the stack's top.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.checkers import _stack_period
from vision.evaluate import score_board
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board


def _read_hard(seed: int) -> tuple[dict, object, object]:
    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    return score_board(obs, scene.truth), obs, scene


@pytest.mark.parametrize("seed, row, column, count", [
    (113, "bottom", 6, 12),  # white 12 overlapped on an ivory field: was read as 15
    (352, "bottom", 6, 11),  # white 11: was 14
    (366, "bottom", 10, 12),  # white 12: every other checker was skipped (7)
])
def test_tall_stack_counted_from_the_rhythm_of_its_rims(seed, row, column, count):
    score, obs, scene = _read_hard(seed)
    want = getattr(scene.truth, row)[column]
    assert want is not None and want.count == count  # the frame is the one meant
    seen = getattr(obs, row)[column]
    assert seen is not None and seen.count == count, (obs.to_json(), scene.truth.to_json())


@pytest.mark.parametrize("seed", [113, 236, 352, 379, 389])
def test_boards_read_exactly(seed):
    """236: a red twelve fitted one short, its top checker left beyond the fit; 379: a white
    two on a white point, whose paint beyond the stack was a third checker; 389: a red fifteen
    from the top edge to the bottom one."""
    score, obs, scene = _read_hard(seed)
    assert score["exact"], (obs.to_json(), scene.truth.to_json())


def test_stack_period_of_drawn_overlapped_discs():
    """Twelve discs drawn overlapped (each on the one before, a dark outline each) at a step
    of 1.2 radii: the rhythm gives the step, whatever the count of rings scored."""
    radius, step = 14.0, 16.8
    image = np.full((260, 80, 3), (180, 200, 210), np.uint8)
    centres = [20 + step * k for k in range(12)]
    for y in centres:
        cv2.circle(image, (40, int(round(y))), int(radius), (235, 235, 235), -1)
        cv2.circle(image, (40, int(round(y))), int(radius), (120, 120, 120), 1)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    lag, clear = _stack_period(lab, 40, centres[0], centres[-1], radius)
    assert clear > 0.6
    assert abs(lag - step) < 0.5
    assert round((centres[-1] - centres[0]) / lag) + 1 == 12
