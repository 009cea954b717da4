"""The bar's hinges are not checkers: a bar ring of no player's colour needs a checker's face.

Drawn faces check :func:`vision.checkers._hinge_like` itself; the labelled real photos (skipped
when absent) check the boards whose bars have hinges, under the transforms that made the hinges
ring like checkers; drawn boards and bars check that a checker on the bar, lit across its face or
glossy, stays.
"""
from __future__ import annotations

import numpy as np
import pytest

from vision.checkers import _hinge_like
from vision.evaluate import load_real, real_dir
from vision.rings import RingScorer

RADIUS = 10.0


def _bar(shade: int = 30) -> np.ndarray:
    """A dark bar, 60 rows long and 40 columns wide, between light boards."""
    field = np.full((60, 40, 3), shade, np.uint8)
    field[:, :10] = field[:, 30:] = 220
    return field


def _disc(field: np.ndarray, colour: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    ys, xs = np.mgrid[0:field.shape[0], 0:field.shape[1]]
    inside = (xs - 20) ** 2 + (ys - 30) ** 2 <= RADIUS ** 2
    field[inside] = np.asarray(colour, np.uint8) if np.ndim(colour) == 1 else colour[inside]
    return field


def test_a_hinge_is_hinge_like():
    field = _bar()
    field[18:42, 15:25] = 170            # metal, a radius wide and over two long
    field[18:42, 20] = 120               # its pin
    assert _hinge_like(RingScorer(field, RADIUS), 20.0, 30.0)


def test_a_plain_checker_is_not_hinge_like():
    for colour in ((225, 225, 225), (25, 25, 25), (40, 40, 200)):
        assert not _hinge_like(RingScorer(_disc(_bar(), colour), RADIUS), 20.0, 30.0), colour


def test_a_checker_lit_across_its_face_is_not_hinge_like():
    """Light from one side: brighter on the left, darker on the right (as drawn boards and
    lamps do); the sides differ from the middle, but in opposite ways."""
    field = _bar()
    ramp = np.clip(230 - 2.5 * (np.arange(40) - 20), 0, 255)
    lit = np.repeat(np.repeat(ramp[None, :, None], 60, axis=0), 3, axis=2).astype(np.uint8)
    assert not _hinge_like(RingScorer(_disc(field, lit), RADIUS), 20.0, 30.0)


def _three_on_a_bar(glossy_at: int, glossy_paint: tuple[int, int, int]) -> np.ndarray:
    """A dark bar holding three discs, whole rims, 30 pixels apart: two red and one at
    ``glossy_at`` (0, 1 or 2) painted ``glossy_paint`` with a light stripe down its middle, as
    a glossy checker's sheen or a hinge's pin shows."""
    field = np.full((160, 100, 3), 220, np.uint8)
    field[:, 36:64] = 30
    for index, y in enumerate((30, 60, 90)):
        ys, xs = np.mgrid[0:160, 0:100]
        disc = (xs - 50) ** 2 + (ys - y) ** 2 <= RADIUS ** 2
        field[disc] = glossy_paint if index == glossy_at else (40, 40, 200)
        if index == glossy_at:
            stripe = disc & (np.abs(xs - 50) <= 2) & (np.abs(ys - y) <= 8)
            field[stripe] = np.clip(np.int16(glossy_paint) + (35, 35, 30), 0, 255)
    return field


@pytest.mark.parametrize("glossy_at", [0, 1, 2])
def test_a_glossy_checker_of_a_colour_taken_whole_on_the_bar_is_kept(glossy_at: int):
    """No checker colour known from the points (every red on the bar): a red whose sheen makes
    its face hinge-like is read for the two whole reds beside it, wherever it lies in the
    bar's order; a grey ring with the same face, of no colour taken, stays a hinge."""
    from calibration.geometry import BoardGeometry
    from vision.checkers import _bar_stack

    geometry = BoardGeometry(100, 160, 36.0, 64.0)
    red = _three_on_a_bar(glossy_at, (40, 40, 200))
    scorer = RingScorer(red, RADIUS)
    y = 30.0 + 30.0 * glossy_at
    assert _hinge_like(scorer, 50.0, y)
    assert _bar_stack(scorer, geometry, 0.82, None).count == 3
    grey = RingScorer(_three_on_a_bar(glossy_at, (170, 170, 170)), RADIUS)
    assert _hinge_like(grey, 50.0, y)
    assert _bar_stack(grey, geometry, 0.82, None).count == 2


@pytest.mark.parametrize("seed", [2409, 9097])
def test_a_drawn_board_keeps_its_checker_lit_across_the_face(seed: int):
    """2409: a white checker on the bar, shaded left to right and darker than the points'
    whites (so not of a colour seen on the points) is still read.  9097: every red is on the
    bar (blue, red, red, red, blue), the third red's gloss makes its face hinge-like (sides
    7.6 against ends 0.7); the two reds with whole rims give it its player's colour."""
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=seed, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    assert sum(obs.bar.values()) == sum(scene.truth.bar.values()) == 5


needs_real = pytest.mark.skipif(not (real_dir() / "labels.json").exists(),
                                reason="real labelled boards not present")


@needs_real
@pytest.mark.parametrize("name, transform", [
    ("wtc2022-a.jpg", "motion blur (1% of field width, 30 deg)"),
    ("wtc2022-a.jpg", "defocus (disc radius 1% of field width)"),
    ("wtc2022-b.jpg", "seen at 45 deg from the bottom edge"),
    ("wtc2022-b.jpg", "defocus (disc radius 0.5% of field width)"),
])
def test_real_bars_with_hinges(name: str, transform: str):
    """wtc2022-a's bar is empty, wtc2022-b's holds one white checker; both have two hinges."""
    from vision.augment import TRANSFORMS
    from vision.reader import BoardReader

    frame = next(f for f in load_real() if f["name"] == name)
    image, corners = TRANSFORMS[transform](frame["image"], frame["corners"])
    obs = BoardReader().read(image, corners=corners)
    want = {c: n for c, n in frame["truth"].bar.items() if n}
    assert {c: n for c, n in obs.bar.items() if n} == want
