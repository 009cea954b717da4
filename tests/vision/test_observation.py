"""Observations: rows to engine positions for every home corner, the JSON contract."""
from __future__ import annotations

import pytest

from calibration.calibration import Calibration
from engine.position import O, X, Position
from vision.observation import BoardObservation, ObservationError, absolute_point
from vision.render import rows_from_position

CORNERS = ((0, 0), (100, 0), (100, 90), (0, 90))


@pytest.mark.parametrize("home", ["bottom-right", "bottom-left", "top-right", "top-left"])
def test_rows_of_a_position_read_back_as_the_same_position(home):
    position = Position.from_points(x={1: 2, 6: 4, 13: 3, 24: 1, 25: 1}, o={3: 5, 11: 2, 25: 2})
    rows = rows_from_position(position, ("red", "white"), x_home=home)
    cal = Calibration(corners=CORNERS, colours=("red", "white"), x_colour="red", x_home=home)
    assert rows.to_position(cal) == position
    assert rows.off == {"red": 4, "white": 6}


def test_every_point_is_one_column_of_one_row():
    for home in ("bottom-right", "top-left"):
        seen = {absolute_point(home, row, c) for row in ("top", "bottom") for c in range(12)}
        assert seen == set(range(1, 25))
    # X's 1-point and O's 1-point face each other on the same side.
    assert absolute_point("bottom-right", "bottom", 11) == 1
    assert 25 - absolute_point("bottom-right", "top", 11) == 1


def test_impossible_readings_are_refused():
    cal = Calibration(corners=CORNERS, colours=("white", "black"), x_colour="white")
    rows = BoardObservation.from_rows([("white", 9), ("white", 9)] + [None] * 10, [None] * 12,
                                      ("white", "black"))
    with pytest.raises(ObservationError, match="15"):
        rows.to_position(cal)


def test_json_has_exactly_the_documented_shape():
    rows = rows_from_position(Position.start(), ("white", "black"))
    data = rows.to_json()
    assert set(data) == {"colours", "top", "bottom", "bar", "off"}
    assert len(data["top"]) == len(data["bottom"]) == 12
    assert data["bottom"][11] == {"colour": "black", "count": 2, "confidence": 1.0}
    assert data["top"][1] is None
    assert data["bar"] == {} and data["off"] == {"white": 0, "black": 0}


def test_json_says_how_off_was_read_and_whether_the_frame_was_covered():
    rows = rows_from_position(Position.start(), ("white", "black"))
    rows.tray_visible, rows.off_by_count, rows.occluded = True, False, False
    data = rows.to_json()
    assert data["off_from"] == "tray" and data["occluded"] is False and "notes" not in data
    rows.occluded = True
    rows.notes.append("something that is not a checker covers top-left (a hand?): not read")
    data = rows.to_json()
    assert data["occluded"] is True and data["notes"]
    # The five documented keys come first, unchanged.
    assert list(data)[:5] == ["colours", "top", "bottom", "bar", "off"]
