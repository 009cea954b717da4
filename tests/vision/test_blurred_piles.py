"""A blurred tall pile whose every crescent shows dimmed, too faint on the mean for a nearly
whole pile (:func:`vision.checkers._nearly_whole_pile`), is still taken when the rhythm of its
rims confirms the fit's count (:func:`vision.checkers._rhythmic_pile`,
:data:`vision.checkers.RHYTHM_PILE_SHORT`).

Development seeds 2861 (a red 14 on a red point, crooked, every crescent 0.65-0.83 of its
rim, mean 0.767) and 4667 (a red 12, mean 0.761) were read empty; seed 5196 (a red 14 whose
nearly whole fits all lay off its rhythm: the sideways fit's count must be the rhythm's, so
none was taken) too.  The fit with the rhythm's count is taken now.
"""
from __future__ import annotations

import numpy as np
import pytest
from checker_frames import assert_hard_frame_counts_read

from vision import checkers
from vision.reader import BoardReader
from vision.render import RenderOptions, render_board


@pytest.mark.parametrize("seed, tallest", [(2861, 14), (4667, 12)])
def test_a_blurred_pile_whose_rhythm_confirms_it_reads_right(seed: int, tallest: int):
    assert_hard_frame_counts_read(seed, tallest)


def test_a_blurred_pile_no_nearly_whole_fit_agrees_with_reads_right():
    """Seed 5196, top[0]: a red 14 (another point of that frame, a lone black checker lost
    beside a die, is another matter)."""
    scene = render_board(None, RenderOptions(seed=5196, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert scene.truth.top[0].count == 14
    assert obs.top[0] is not None and (obs.top[0].colour, obs.top[0].count) == ("red", 14)


def test_a_faint_fit_is_taken_only_with_the_rhythm_count():
    """Every checker must show a rim, and the mean and top fall short by two ring directions
    at most: an empty run or a pile with one crescent lost is not a pile."""
    threshold = checkers.COVERAGE_THRESHOLD
    short = threshold - checkers.RHYTHM_PILE_SHORT
    dim = np.full(12, short + 0.005)
    assert checkers._rhythmic_pile(dim, short + 0.005, threshold)
    assert not checkers._rhythmic_pile(dim - 0.01, short + 0.005, threshold)
    assert not checkers._rhythmic_pile(dim, short - 0.005, threshold)
    lost = dim.copy()
    lost[5] = checkers.MEMBER_FLOOR - 0.01
    lost[:5] += 0.1  # the mean is not what refuses it
    assert not checkers._rhythmic_pile(lost, 1.0, threshold)
    assert not checkers._rhythmic_pile(dim[:checkers.BLURRED_LEAST - 1], 1.0, threshold)
