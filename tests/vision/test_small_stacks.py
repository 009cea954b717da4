"""Small stacks of white checkers in glare clipped to plain white.

Where every sample across a ring direction is clipped white nothing could show, rim or not: a
white checker after the first in such glare shows its rim only where it meets something darker
(the point's paint), a half or less of the ring, and the stack was read short (hard synthetic
seeds 2917, white 3 read 2; 2963, white 2 read 1; 656, white 3 read 1).  Its rim is now
scored over the directions that could show one (:func:`vision.checkers._clipped_stack_ends`);
an empty stretch of paint beyond a stack's end rings on its near arc (the last checker's rim)
but not on its far arc.

A stack of five or fewer lies flat, each checker touching the one before: a ring a tight step
(under :data:`vision.checkers.TIGHT_STEP` radii) beyond a checker is no checker of its stack.

Light checkers on light paint or a light field, lifted toward white by glare without being
clipped, show their rims faintly even where one could show: the next checker of such a stack
is taken when its far arc steps clearly (see :data:`vision.checkers.LIGHT_END`).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read

from vision.checkers import (COVERAGE_THRESHOLD, LONE_FAR_ARC, _Candidates, _clipped_seen_shares,
                             _clipped_stack_ends)
from vision.rings import RingScorer

RADIUS = 10.0


def _clipped_pair() -> tuple[RingScorer, np.ndarray]:
    """Two white checkers touching from the top edge (centres 12 and 32 px) on a grey point,
    the top 30 rows clipped to plain white; the candidates' y: both checkers and the empty
    paint one step beyond."""
    image = np.full((100, 80, 3), 110, np.uint8)
    for y in (12, 32):
        cv2.circle(image, (40, y), int(RADIUS), (255, 255, 255), -1)
        cv2.circle(image, (40, y), int(RADIUS), (90, 90, 90), 1)
    image[:30] = 255
    return RingScorer(image, RADIUS), np.float32([12.0, 32.0, 52.0])


def test_a_rim_is_scored_where_it_could_show():
    scorer, ys = _clipped_pair()
    xs = np.full(ys.shape, 40.0, np.float32)
    full, far, seen = _clipped_seen_shares(scorer, scorer.lab[:, :, 0], xs, ys, RADIUS, True)
    all_round = scorer.coverage(xs, ys, True)[0]
    # The second checker: half its ring clipped, short of the threshold all round ...
    assert all_round[1] < COVERAGE_THRESHOLD and 0.4 < seen[1] < 0.8
    # ... but its whole rim where one could show, its far arc too.
    assert full[1] >= COVERAGE_THRESHOLD and far[1] >= LONE_FAR_ARC
    # The first, wholly clipped, shows nothing that could count; the bare paint beyond the
    # stack rings on the arc the last checker's rim crosses, not on its far arc.
    assert seen[0] == 0.0 and full[0] == 0.0
    assert far[2] < LONE_FAR_ARC and full[2] < COVERAGE_THRESHOLD


def test_a_clipped_stack_takes_its_next_checker():
    scorer, ys = _clipped_pair()
    xs = np.full(ys.shape, 40.0, np.float32)
    full, no_far, no_near, far_arc = scorer.coverage(xs, ys, True)
    cand = _Candidates(ys, xs, ys.copy(), full, no_far, no_near, scorer.colour_at(xs, ys),
                       far_arc)
    empty = _Candidates(*(np.zeros(0, np.float32),) * 6, np.zeros((0, 3), np.float32),
                        np.zeros(0, np.float32))
    candidates = {("top", 0): cand, ("bottom", 0): empty}
    chains = {("top", 0): ([0], 0.0), ("bottom", 0): ([], 0.0)}
    _clipped_stack_ends(scorer, candidates, chains, RADIUS, COVERAGE_THRESHOLD, 94.0, 100)
    assert chains["top", 0][0] == [0, 1]
    # Nothing past the limit (the facing stack's reach).
    chains["top", 0] = ([0], 0.0)
    _clipped_stack_ends(scorer, candidates, chains, RADIUS, COVERAGE_THRESHOLD, 30.0, 100)
    assert chains["top", 0][0] == [0]


@pytest.mark.parametrize("seed, tallest", [(2917, 3), (2963, 2), (656, 3), (1804, 1), (2733, 15),
                                            (2978, 12)])
def test_hard_frames_with_small_stacks_are_read(seed: int, tallest: int):
    """Clipped white stacks (2917, 2963, 656), and a lone checker with a ring a tight step
    beyond it read as its stack's second checker (1804: the point's paint; 2733: the end of
    the facing pile of fifteen), see :data:`vision.checkers.FLAT_MOST`; an empty point whose
    faint whole-stack fit the facing white 12 refuted, read again over the fit's own centres
    (2978: read white 2), see :func:`vision.checkers._share_column`."""
    assert_hard_frame_counts_read(seed, tallest)


@pytest.mark.slow
@pytest.mark.parametrize("seed, tallest", [(1723, 4), (1884, 3), (3565, 3), (3658, 3), (1071, 3),
                                            (379, 2)])
def test_hard_frames_with_faint_light_stack_ends_are_read(seed: int, tallest: int):
    """White stacks whose last checker's rim is faint on a glare-lit field, read one short
    before (1723: white 4 read 3; 1884, 3565, 3658: white 3 read 2); and white stacks whose
    ring one step beyond shows a faint rim all round but no step on its far arc (1071, 379:
    the paint or field beyond, not a checker)."""
    assert_hard_frame_counts_read(seed, tallest)
