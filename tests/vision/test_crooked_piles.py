"""A faint tall pile stacked crooked, each checker a little off the line through its ends, is
fitted with each centre where the ring map puts it beside that line
(:func:`vision.checkers._faint_tall_stack`, as :func:`vision.checkers._regular_stack` does).

A hand stacking fourteen checkers does not keep them on one line: on development seed 4509 a
red 14, its rims soft and its checkers up to half a radius either side of the line from its
base to its top, was read as a lone checker (and flagged doubtful); on its line the fit saw
too little of each rim.  Centres free to move aside also find rims where there are none, as
between the touching checkers of a blurred pile (seed 2750, a red 6 fitted as 7 overlapped):
such a fit's count must be the one the rhythm of the rims asks for, or it is not taken (that
seed's pile stays doubtful, see test_doubtful.py).  With stacks built in layers read
(``layered``), no fit moves centres aside: a heap's upper checkers lie in the hollows of the
ones under them, rims beside the line all along (layered seed 41, a gold 13 read 6).
"""
from __future__ import annotations

import cv2
import numpy as np
from checker_frames import assert_hard_frame_counts_read

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
STEP_R = 1.36  # radii between the centres of an overlapped pile
COUNT = 12
FIELD, FACE, OUTLINE = (150, 150, 150), (235, 235, 235), (120, 120, 120)


def _crooked_pile(wobble_r: float) -> tuple[RingScorer, checkers._Candidates]:
    """:data:`COUNT` overlapped discs of :data:`FACE` from the top edge, the
    base and the top on the column and those between ``wobble_r`` radii either side of it in
    turn, drawn and softened as a slightly blurred photo; a candidate at each checker's height
    on the column, as the ring map proposes on the point's axis."""
    image = np.full((int(RADIUS * 24), 80, 3), FIELD, np.uint8)
    x = 40
    centres_r = [1 + STEP_R * k for k in range(COUNT)]
    aside = [0.0] + [wobble_r * (1 if k % 2 else -1) for k in range(1, COUNT - 1)] + [0.0]
    for y, dx in zip(centres_r, aside):
        centre = (int(round(x + dx * RADIUS)), int(round(y * RADIUS)))
        cv2.circle(image, centre, int(RADIUS), FACE, -1)
        cv2.circle(image, centre, int(RADIUS), OUTLINE, 1)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    scorer = RingScorer(image, RADIUS)
    ys = np.float32(centres_r) * np.float32(RADIUS)
    px = np.full(ys.shape, x, np.float32)
    full, no_far, no_near, far_arc = scorer.coverage(px, ys, True)
    return scorer, checkers._Candidates(ys, px, ys.copy(), full, no_far, no_near,
                                        scorer.colour_at(px, ys), far_arc)


def _faint(scorer: RingScorer, cand: checkers._Candidates, crooked: bool = True
           ) -> list[int] | None:
    return checkers._faint_tall_stack(scorer, cand, [0], True, RADIUS,
                                      checkers.COVERAGE_THRESHOLD, RADIUS * 23, checkers.FIRST_MIN,
                                      crooked)


def test_a_crooked_faint_pile_is_counted_whole():
    """Checkers 0.4 radii either side of the line: neither the chain nor a fit on the line
    finds the pile; the fit with each centre beside the line counts all twelve."""
    scorer, cand = _crooked_pile(0.4)
    assert cand.chain(RADIUS, checkers.COVERAGE_THRESHOLD, RADIUS * 23)[0] == []
    # On its line alone (no centre moved aside, as when heaps built in layers are read) no fit
    # passes.
    assert _faint(scorer, cand, crooked=False) is None
    out = _faint(scorer, cand)
    assert out is not None and len(out) == COUNT


def test_hard_frame_with_a_crooked_pile_reads_right():
    """Development seed 4509: a red 14 stacked crooked, read as a lone checker."""
    assert_hard_frame_counts_read(4509, 14)
