"""A stack's last checker touching the one before, on a blurred frame.

Two checkers of one paint that touch have rims a pixel or two apart where they meet; blur
merges them into one faint line, so the last checker of a touching stack shows its rim all
round but there.  The chain search asked it for its whole rim (a lone checker's test) and lost
the stack: on the held-out hard seed 1211 (felt board, blurred) a blue 3 was read empty.  It is
now credited with its rim but for the near arc, when that is clear, its rim all round is at
least three quarters (a lone checker short of the threshold's test), its far arc shows and it
lies no further from the one before than touching allows (a layered stack's second-layer
checker beyond a gap took that credit from a first-layer one: tests/vision/test_layers.py).

The candidates below are what the chain search saw on that point (rounded to two places).
"""
from __future__ import annotations

import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read

from vision.checkers import COVERAGE_THRESHOLD, _chain

RADIUS = 11.6
LIMIT = 254.0
BLUE, DIE = (67.0, 138.0, 91.0), (148.0, 125.0, 157.0)

#: y (from the edge), rim share all round, without the far arc, without the near arc, without
#: the contact arcs (RingScorer.contact_free), on the far arc alone (see _Candidates.far_arc),
#: and the colour (Lab).  Three blue checkers touching at about 14, 38 and 61; a die beyond.
BLURRED_THREE = [
    (13.6, 0.81, 0.96, 0.78, 0.95, 0.44, BLUE),
    (37.6, 0.75, 0.87, 0.78, 0.95, 0.44, BLUE),
    (60.6, 0.81, 0.74, 1.00, 0.95, 1.00, BLUE),
    (118.6, 0.12, 0.13, 0.13, 0.14, 0.11, DIE),
    (128.6, 0.19, 0.13, 0.26, 0.23, 1.00, DIE),
    (136.6, 0.31, 0.30, 0.43, 0.45, 1.00, DIE),
]


def _stack_ys(table: list[tuple], **change: tuple[float, ...]) -> list[int]:
    """The chain's centres (rounded y) over ``table``; ``change`` replaces a column by name
    (full, no_far, no_near, contact_free, far_arc) for the candidates it lists, in order."""
    columns = {name: np.float32([row[k] for row in table]) for k, name in enumerate(
        ("ys", "full", "no_far", "no_near", "contact_free", "far_arc"))}
    for name, values in change.items():
        columns[name][:len(values)] = values
    colours = np.float32([row[-1] for row in table])
    chain, _ = _chain(columns["ys"], columns["full"], columns["no_far"], columns["no_near"],
                      RADIUS, COVERAGE_THRESHOLD, LIMIT, colours,
                      far_arc=columns["far_arc"], contact_free=columns["contact_free"])
    return [round(float(columns["ys"][i])) for i in chain]


def test_a_blurred_touching_stack_is_read_whole():
    assert _stack_ys(BLURRED_THREE) == [14, 38, 61]


def test_a_last_checker_whose_rim_misses_beyond_the_contact_is_no_checker():
    """Faint off the arc where the one before touches it (a ring on paint or bare board)."""
    assert _stack_ys(BLURRED_THREE, no_near=(0.78, 0.78, 0.74)) == []


def test_a_last_checker_needs_most_of_its_rim_all_round():
    assert _stack_ys(BLURRED_THREE, full=(0.81, 0.75, 0.7)) == []


def test_a_last_checker_needs_its_far_arc():
    assert _stack_ys(BLURRED_THREE, far_arc=(0.44, 0.44, 0.5)) == []


def test_a_last_checker_of_another_paint_is_no_end_of_the_stack():
    """Only a neighbour clearly of its paint blurs into the one before: the touched end's
    credit does not reach a ring of a lighter colour (close enough to be in one stack under
    glare, not clearly the same paint)."""
    other = [row if k < 2 else row[:-1] + ((120.0, 138.0, 91.0),)
             for k, row in enumerate(BLURRED_THREE)]
    assert _stack_ys(other) == []


def test_a_last_checker_beyond_touching_reach_needs_its_whole_rim():
    """With bare board between two checkers the near arc of the second shows a rim of its
    own: the credit is for checkers that touch (two radii apart, within a hand's slack)."""
    base, top = BLURRED_THREE[0], BLURRED_THREE[2]
    touching = [base, (base[0] + 2.05 * RADIUS,) + top[1:]]
    apart = [base, (base[0] + 2.6 * RADIUS,) + top[1:]]
    assert _stack_ys(touching) == [14, 37]
    assert _stack_ys(apart) == []


def test_hard_frame_with_a_blurred_touching_three_reads_right():
    """Held-out hard seed 1211: a blue 3 on a felt board, blurred (read empty)."""
    assert_hard_frame_counts_read(1211, 3)


@pytest.mark.parametrize("seed, point", [
    (5677, ("bottom", 4)),  # red 2 on a dark point, the second's rim gapped by blur and grain
    (7044, ("top", 8)),  # red 2 on a light point, the next point's red stack touching its side
])
def test_a_small_stack_s_faint_end_off_its_paint_is_counted(seed, point):
    # The second checker shows 26 of the 32 ring directions (the threshold asks 27) but steps
    # clearly against its point's paint all along its far arc
    # (vision.checkers._faint_ends_off_paint): read red 1 before.
    assert_hard_frame_counts_read(seed, 2)


@pytest.mark.parametrize("point, count", [(("top", 5), 2), (("bottom", 4), 2), (("top", 8), 3)])
def test_a_blurred_black_stack_s_end_on_black_paint_is_counted(point, count):
    """Hard seed 8005 (black-board, small and blurred): a black checker on a black checker,
    its rim 23 to 26 of 32 ring directions and its far arc no line (blur smears it into the
    paint beyond), but stepping 6.0, 7.8 and 11.2 in lightness there (the bare point beyond a
    black checker on dark paint steps 3.2 at most: vision.checkers.PAINT_END_CLEAR_STEP).  Read
    one short before."""
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=8005, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    row, column = point
    assert getattr(scene.truth, row)[column].count == count
    assert getattr(obs, row)[column].count == count
