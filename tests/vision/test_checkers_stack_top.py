"""A tall stack's top is the checker with nothing on it: it shows its whole rim.

The whole-stack fit (:func:`vision.checkers._regular_stack`) scores each evenly spaced model by
the margin its checkers clear; a blurred or shaded stretch of a tall pile costs the model that
runs through it to the pile's real top more margin than it explains, so a shorter model
ending on a member of the pile (a fainter ring) scored better.  On the held-out hard seed 894 a
white 15 was read as 9 that way.  A model from the same base that runs on evenly past such an
end to one showing its whole rim is the pile (:func:`vision.checkers._best_regular`).
"""
from __future__ import annotations

import numpy as np
from checker_frames import assert_hard_frame_counts_read

from vision import checkers
from vision.rings import RingScorer

RADIUS = 12.0
STEP = 1.36 * RADIUS  # overlapped: each checker lies on the one before


def _model(n: int, start: float = 12.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centres (x, y) and distances from the edge of an evenly spaced model of ``n``."""
    d = (start + STEP * np.arange(n)).astype(np.float32)
    return np.full(n, 40.0, np.float32), d.copy(), d


def _best(short_end_rim: float) -> int:
    """How many checkers the better of two models from one base reads: nine, clear, ending on
    a ring of ``short_end_rim`` all round; and fifteen, running on through a faint stretch of
    five to a far end showing its whole rim."""
    scorer = RingScorer(np.full((300, 80, 3), 200, np.uint8), RADIUS)  # one colour throughout
    short, tall = _model(9), _model(15)
    # Rims but for the far arc (each lies on the one before), and all round.
    short_far = np.full(9, 0.96, np.float32)
    short_full = np.full(9, 0.9, np.float32)
    short_full[-1] = short_end_rim
    tall_far = np.float32([0.96] * 9 + [0.74] * 5 + [0.9])
    tall_full = np.float32([0.9] * 14 + [1.0])
    hypotheses = [(0, 1, 9), (0, 2, 15)]
    evidence = tuple(np.concatenate(pair) for pair in (
        (short_full, tall_full), (short_far, tall_far), (short_far, tall_far),
        (np.ones(9, np.float32), np.ones(15, np.float32))))
    best = checkers._best_regular(scorer, hypotheses, [short[0], tall[0]], [short[1], tall[1]],
                                  [short[2], tall[2]], evidence, RADIUS,
                                  checkers.COVERAGE_THRESHOLD)
    assert best is not None
    return len(best[3])


def test_the_shorter_model_scores_better_on_margin_alone():
    """The premise: nine clear checkers clear more margin than fifteen with a faint stretch."""
    threshold, margin = checkers.COVERAGE_THRESHOLD, checkers.REGULAR_MARGIN
    nine = (np.append(np.full(8, 0.96), 0.88) - threshold - margin).sum()
    fifteen = (np.float32([0.96] * 9 + [0.74] * 5 + [1.0]) - threshold - margin).sum()
    assert nine > fifteen


def test_a_model_ending_on_a_fainter_ring_gives_way_to_the_pile_running_on_to_a_whole_rim():
    assert _best(short_end_rim=0.88) == 15


def test_a_model_ending_on_a_whole_rim_keeps_its_count():
    """An end showing its whole rim may be the top (a print or the facing stack beyond it
    may ring as well): the better-scoring model stays."""
    assert _best(short_end_rim=0.96) == 9


def test_hard_frame_with_a_blurred_white_fifteen_reads_right():
    """Held-out hard seed 894: a white 15 whose upper part lies in shade and blur (read as 9)."""
    assert_hard_frame_counts_read(894, 15)
