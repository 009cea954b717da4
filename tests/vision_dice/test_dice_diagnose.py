"""The loss attribution of ``vision.dice.diagnose``: each flat die lands in the stage that lost it."""
from __future__ import annotations

import cv2
import numpy as np

from vision.dice.diagnose import STAGES, diagnose, main, trace_scene
from vision.dice.render import STYLES, draw_die
from vision.dice.scenes import DiceScene


def _scene(erase_pips_of_second: bool) -> DiceScene:
    frame = np.full((200, 320, 3), (40, 110, 45), np.uint8)
    read = draw_die(frame, (90, 100), 50, 5, angle_deg=15, style="white")
    blank = draw_die(frame, (230, 100), 50, 4, angle_deg=-20, style="white")
    if erase_pips_of_second:
        # The top face painted over in the body's colour: no pips left to find.
        cv2.fillPoly(frame, [np.round(blank.top_face).astype(np.int32)], STYLES["white"].body)
    return DiceScene(frame, (read, blank), None, None, seed=7)


def test_a_clear_die_is_read_and_a_die_without_pips_is_lost_finding_them():
    traces = trace_scene(_scene(erase_pips_of_second=True))
    assert [(t.value, t.stage) for t in traces] == [(5, "read"), (4, "pips: not found")]
    assert traces[1].detail == "0 of 4 kept, 0 found"
    assert [t.stage for t in trace_scene(_scene(erase_pips_of_second=False))] == ["read", "read"]


def test_counts_cover_every_flat_die_once_per_grouping(capsys):
    counts = diagnose(range(2))
    assert {stage for _, stage in counts} <= set(STAGES)
    by_style = sum(n for (group, _), n in counts.items() if not group.startswith(("size", "value")))
    by_size = sum(n for (group, _), n in counts.items() if group.startswith("size"))
    assert by_style == by_size > 0
    assert main(["-n", "1"]) == 0
    assert capsys.readouterr().out.startswith("group")
