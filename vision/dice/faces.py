"""The faces of a standard six-sided die: where the pips sit on each face.

One place for this fact: the renderer draws these layouts and the reader matches
pip groups against them.  Coordinates are in *face units*: the face is the square
``[-0.5, 0.5] x [-0.5, 0.5]`` and a pip is a circle of radius :data:`PIP_RADIUS`
around each centre.

>>> len(PIP_LAYOUTS[5]), PIP_LAYOUTS[1]
(5, ((0.0, 0.0),))
>>> opposite_face(6)
1
>>> sorted(len(layout) for layout in PIP_LAYOUTS.values())
[1, 2, 3, 4, 5, 6]
"""
from __future__ import annotations

#: Offset of the off-centre pips from the face centre, in face units.
PIP_OFFSET = 0.25
#: Radius of a pip in face units (real dice: 0.07 to 0.11; a single "one" pip is often larger).
PIP_RADIUS = 0.085

_A = PIP_OFFSET
#: Top-face value -> pip centres in face units (x to the right, y down).
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0.0, 0.0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0.0, 0.0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (_A, -_A), (-_A, 0.0), (_A, 0.0), (-_A, _A), (_A, _A)),
}

DIE_VALUES = tuple(range(1, 7))


def opposite_face(value: int) -> int:
    """The value on the face opposite ``value`` (opposite faces of a die add up to 7)."""
    if value not in PIP_LAYOUTS:
        raise ValueError(f"a die face is 1 to 6, not {value!r}")
    return 7 - value
