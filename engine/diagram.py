"""A text drawing of a position, in the absolute (X) numbering: X's home board bottom right,
O's top right, the bar in the middle, borne-off counts on the right.

>>> print(diagram(Position.start()))  # doctest: +NORMALIZE_WHITESPACE
 13 14 15 16 17 18       19 20 21 22 23 24
+------------------+---+------------------+
| X           O    |   | O              X |  O off: 0
| X           O    |   | O              X |
| X           O    |   | O                |
| X                |   | O                |
| X                |   | O                |
|                  |BAR|                  |
| O                |   | X                |
| O                |   | X                |
| O           X    |   | X                |
| O           X    |   | X              O |
| O           X    |   | X              O |  X off: 0
+------------------+---+------------------+
 12 11 10  9  8  7        6  5  4  3  2  1
X on roll   pips X 167  O 167   Position ID 4HPwATDgc/ABMA
"""
from __future__ import annotations

from engine.position import O, PLAYER_NAMES, X, Position

_ROWS = 5


def _cell(position: Position, point: int, row: int) -> str:
    """Row ``row`` (0 at the board's edge) of absolute ``point``: a checker letter, a count
    when the stack is taller than the rows shown, or blank."""
    x = position.checkers(X, point)
    o = position.checkers(O, 25 - point)
    count, letter = (x, "X") if x else (o, "O")
    if count > row:
        if row == _ROWS - 1 and count > _ROWS:
            return f"{count:>2}"[-2:].strip().rjust(1)
        return letter
    return " "


def diagram(position: Position) -> str:
    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))

    def half_row(points: list[int], row: int) -> tuple[str, str]:
        cells = [f" {_cell(position, p, row):<2}" for p in points]
        return "".join(cells[:6]), "".join(cells[6:])

    lines = [" " + "".join(f"{p:>2} " for p in top_points[:6]) + "      " + "".join(f"{p:>2} " for p in top_points[6:])]
    rule = "+------------------+---+------------------+"
    lines.append(rule)
    for row in range(_ROWS):
        left, right = half_row(top_points, row)
        bar = position.bar(O)
        mid = f"{bar:^3}" if row == _ROWS - 1 and bar else "   "
        extra = f"  O off: {position.off(O)}" if row == 0 else ""
        lines.append(f"|{left}|{mid}|{right}|{extra}".rstrip())
    lines.append("|                  |BAR|                  |")
    for row in range(_ROWS - 1, -1, -1):
        left, right = half_row(bottom_points, row)
        bar = position.bar(X)
        mid = f"{bar:^3}" if row == _ROWS - 1 and bar else "   "
        extra = f"  X off: {position.off(X)}" if row == 0 else ""
        lines.append(f"|{left}|{mid}|{right}|{extra}".rstrip())
    lines.append(rule)
    lines.append(" " + "".join(f"{p:>2} " for p in bottom_points[:6]) + "      " + "".join(f"{p:>2} " for p in bottom_points[6:]))
    lines.append(
        f"{PLAYER_NAMES[position.turn]} on roll   pips X {position.pip_count(X)}  O {position.pip_count(O)}"
        f"   Position ID {position.position_id()}"
    )
    if position.bar(X) or position.bar(O):
        lines.append(f"on the bar: X {position.bar(X)}  O {position.bar(O)} (O's shown above BAR, X's below)")
    return "\n".join(lines)
