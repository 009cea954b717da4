"""What one frame showed: checkers per point as seen, in image terms, ready for the engine.

Rows are as seen on the upright field: ``top`` holds the 12 points along the top edge from left
to right, ``bottom`` the 12 along the bottom edge from left to right.  Each entry is ``None``
(empty) or a :class:`PointReading`.  Game terms (players, numbering) come in only through
:meth:`BoardObservation.to_position` with a calibration.

>>> from calibration.calibration import Calibration
>>> cal = Calibration(corners=((0, 0), (100, 0), (100, 90), (0, 90)), x_colour="white",
...                   x_home="bottom-right")
>>> start = BoardObservation.from_rows(
...     top=[("black", 5), None, None, None, ("white", 3), None, ("white", 5), None, None, None,
...          None, ("black", 2)],
...     bottom=[("white", 5), None, None, None, ("black", 3), None, ("black", 5), None, None,
...             None, None, ("white", 2)],
...     colours=("white", "black"))
>>> from engine.position import Position
>>> start.to_position(cal) == Position.start()
False
>>> cal = Calibration(corners=((0, 0), (100, 0), (100, 90), (0, 90)), x_colour="black",
...                   x_home="bottom-right")
>>> start.to_position(cal) == Position.start()
True
>>> start.to_json()["top"][0]
{'colour': 'black', 'count': 5, 'confidence': 1.0}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from engine.position import CHECKERS_PER_SIDE, Position, PositionError, X

if TYPE_CHECKING:  # pragma: no cover
    from calibration.calibration import Calibration


class ObservationError(ValueError):
    """An observation that cannot become a position (e.g. 16 checkers of one colour)."""


@dataclass(frozen=True)
class PointReading:
    colour: str
    count: int
    confidence: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "count": self.count,
                "confidence": round(float(self.confidence), 3)}


@dataclass
class BoardObservation:
    """Checkers seen on one frame: rows, bar, borne off, and how the frame was read."""

    top: list[PointReading | None]
    bottom: list[PointReading | None]
    bar: dict[str, int]
    off: dict[str, int]
    colours: tuple[str, str]
    corners: tuple[tuple[float, float], ...] | None = None
    bar_confidence: float = 1.0
    #: The board is not where the calibration put it (None: not checked).
    board_moved: bool | None = None
    #: Something (an arm, a hand) covers part of the board: do not take this frame's position
    #: (None: not checked).
    occluded: bool | None = None
    #: Off counts were inferred from the checkers missing from the field (no tray in view, or
    #: the tray's count disagreed with the field's: see ``notes``).
    off_by_count: bool = True
    #: A side tray was found in view (None: not looked for).
    tray_visible: bool | None = None
    #: The checkers counted in the tray per colour, when one was in view.
    tray_off: dict[str, int] | None = None
    notes: list[str] = field(default_factory=list)
    #: Points holding a pile the reader could not count, as ``(row, column)``: their reading
    #: (a count, or empty) is not to be trusted (None: not checked).
    doubtful: list[tuple[str, int]] | None = None

    @classmethod
    def from_rows(cls, top: Sequence, bottom: Sequence, colours: Sequence[str],
                  bar: dict[str, int] | None = None) -> "BoardObservation":
        """Build from ``(colour, count)`` pairs or ``None`` (labels, tests); off by count."""
        def reading(entry: Any) -> PointReading | None:
            if entry is None or entry[1] == 0:
                return None
            return PointReading(str(entry[0]), int(entry[1]))
        obs = cls([reading(e) for e in top], [reading(e) for e in bottom],
                  {k: int(v) for k, v in (bar or {}).items() if v}, {}, tuple(colours))
        obs.off = obs.off_counts()
        return obs

    def on_field(self, colour: str) -> int:
        points = sum(r.count for r in self.top + self.bottom if r and r.colour == colour)
        return points + self.bar.get(colour, 0)

    def off_counts(self) -> dict[str, int]:
        return {c: max(0, CHECKERS_PER_SIDE - self.on_field(c)) for c in self.colours}

    @property
    def confidence(self) -> float:
        """The least sure of all point readings and the bar."""
        values = [r.confidence for r in self.top + self.bottom if r] + [self.bar_confidence]
        return float(min(values))

    def rows(self) -> dict[str, list[PointReading | None]]:
        return {"top": self.top, "bottom": self.bottom}

    def to_json(self) -> dict[str, Any]:
        """The ``bgbridge read --json`` document."""
        data: dict[str, Any] = {
            "colours": list(self.colours),
            "top": [r.to_json() if r else None for r in self.top],
            "bottom": [r.to_json() if r else None for r in self.bottom],
            "bar": {c: n for c, n in self.bar.items() if n},
            "off": dict(self.off),
        }
        if self.corners is not None:
            data["corners"] = [[round(x, 1), round(y, 1)] for x, y in self.corners]
        if self.board_moved is not None:
            data["board_moved"] = self.board_moved
        if self.occluded is not None:
            data["occluded"] = self.occluded
        if self.tray_visible is not None:
            data["off_from"] = "count" if self.off_by_count else "tray"
        if self.notes:
            data["notes"] = list(self.notes)
        if self.doubtful is not None:
            data["doubtful"] = {row: [column for r, column in self.doubtful if r == row]
                                for row in ("top", "bottom")}
        return data

    def to_position(self, calibration: "Calibration", turn: int = X) -> Position:
        """The engine position: colours become players and rows become points by the
        calibration's ``x_colour`` and ``x_home``."""
        counts: dict[int, dict[int, int]] = {X: {}, 1 - X: {}}
        for row_name, row in self.rows().items():
            for column, reading in enumerate(row):
                if not reading:
                    continue
                absolute = absolute_point(calibration.x_home, row_name, column)
                player = calibration.player_of(reading.colour)
                own = absolute if player == X else 25 - absolute
                counts[player][own] = reading.count
        for colour, n in self.bar.items():
            if n:
                counts[calibration.player_of(colour)][25] = n
        try:
            return Position.from_points(x=counts[X], o=counts[1 - X], turn=turn)
        except PositionError as exc:
            raise ObservationError(f"the board read cannot be a position: {exc}") from None


def absolute_point(x_home: str, row: str, column: int) -> int:
    """X's point number (1..24) of a column (0..11 left to right) of a row as seen.

    >>> absolute_point("bottom-right", "bottom", 11), absolute_point("bottom-right", "top", 0)
    (1, 13)
    >>> absolute_point("top-left", "top", 0), absolute_point("top-left", "bottom", 0)
    (1, 24)
    """
    vertical, horizontal = x_home.split("-")
    home_row = vertical
    # Along X's home row the points count 1..12 from the home corner; the other row continues
    # 13..24 from the same side as point 12.
    from_left = column + 1 if horizontal == "left" else 12 - column
    if row == home_row:
        return from_left
    return 25 - from_left
