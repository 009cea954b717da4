"""A stack's colour under glare and shade, and the two colours when one player has few checkers.

One point's stack holds one player's checkers: light that moves some of them toward the other
colour must not move the stack (:func:`vision.reader._stack_colour`), and shaded checkers that
share stacks with lit ones are not a colour of their own (:func:`calibration.colours.two_clusters`
given the stacks).
"""
from __future__ import annotations

import numpy as np
import pytest

from calibration.colours import centre_distances, name_pair, two_clusters
from vision.evaluate import load_real, real_dir
from vision.reader import _lit_or_shaded, _stack_colour

WHITE = (235, 128, 130)
GOLD = (120, 135, 152)


def test_glared_gold_checkers_do_not_outvote_a_plain_one():
    centres = np.float32([WHITE, GOLD])
    stack = np.float32([[119, 135, 149], [181, 132, 141], [193, 131, 146]])  # two under glare
    distances = centre_distances(stack, centres)
    labels = np.argmin(distances, axis=1)
    assert labels.tolist() == [1, 0, 0]
    assert _stack_colour(labels, distances) == 1


def test_shaded_white_checkers_stay_white():
    centres = np.float32([WHITE, GOLD])
    stack = np.float32([[232, 128, 130], [236, 128, 131], [150, 130, 135]])  # one in shade
    distances = centre_distances(stack, centres)
    labels = np.argmin(distances, axis=1)
    assert _stack_colour(labels, distances) == 0


def test_a_stack_that_agrees_keeps_its_colour():
    distances = np.float32([[30, 5], [28, 20]])
    assert _stack_colour(np.array([1, 1]), distances) == 1


def test_few_red_checkers_beside_shaded_whites_are_the_second_colour():
    whites = [[242, 127, 131]] * 8 + [[219, 127, 131], [209, 127, 130], [182, 126, 131],
                                      [144, 127, 128], [142, 127, 129]]
    bar = [[243, 127, 131], [138, 128, 128], [150, 127, 129], [109, 186, 166]]
    colours = np.float32(whites + [[112, 184, 165]] + bar)
    stacks = np.array(list(range(8)) + [8] * 5 + [9] + [-1] * 4)
    labels, centres = two_clusters(colours, stacks=stacks)
    assert name_pair(centres) == ("white", "red")
    assert labels[[13, 17]].tolist() == [1, 1] and not labels[:13].any()


def test_two_players_each_with_stacks_of_their_own_are_still_split():
    """White and black on stacks of their own, one weak red blob (a die) beside them: the die
    is an outlier, the colours white and black."""
    colours = np.float32([[235, 128, 130]] * 6 + [[40, 128, 128]] * 6 + [[110, 180, 160]])
    stacks = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, -1])
    weights = np.float32([1] * 12 + [0.3])
    labels, centres = two_clusters(colours, weights, stacks)
    assert name_pair(centres) == ("white", "black")


def test_drawn_board_with_two_red_checkers_and_shaded_whites():
    """Synthetic seed 2967 (felt-olive, red/white): a shadow greys four white checkers, two
    of them on a point's stack of five; one red checker on a point, one on the bar."""
    from vision.evaluate import score_board
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=2967, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    score = score_board(obs, scene.truth)
    assert score["names_right"] and score["bar_right"] and score["exact"]


def test_shade_beside_a_vivid_red_stack_does_not_make_it_white():
    """Two red checkers lit halfway to white (lightness 109 between red's 68 and white's 199,
    neither three times nearer) on a point whose paint beside is shaded: the shade would say
    "white darkened", but no light gives white red's hue (held seed 5118's bottom[2])."""
    centres = np.float32([[199, 127, 129], [68, 168, 153]])
    stack = np.float32([[109, 185, 165], [109, 185, 165]])
    margins = np.float32([0.49, 0.48])
    assert _lit_or_shaded(stack, margins, centres, lambda: -11.7) is None
    # A grey stack (a white one in shade) beside the same shade is still white.
    grey = np.float32([[120, 128, 130]] * 2)
    assert _lit_or_shaded(grey, np.float32([0.3, 0.3]), centres, lambda: -11.7) == 0


def test_drawn_board_with_a_lit_red_pair_in_shade():
    """Synthetic hard seed 5118 (blue-white, red/white): the two red checkers on bottom[2],
    lit, beside shaded paint, are red."""
    from vision.evaluate import score_board
    from vision.reader import BoardReader
    from vision.render import RenderOptions, render_board

    scene = render_board(None, RenderOptions(seed=5118, hard=True))
    obs = BoardReader().read(scene.image, corners=scene.corners)
    score = score_board(obs, scene.truth)
    assert score["names_right"] and score["exact"], (obs.bottom[2], scene.truth.bottom[2])


@pytest.mark.skipif(not (real_dir() / "labels.json").exists(),
                    reason="real labelled boards not present")
def test_real_gold_stack_under_glare():
    from vision.augment import TRANSFORMS
    from vision.reader import BoardReader

    frame = next(f for f in load_real() if f["name"] == "fm-gold-b.jpg")
    image, corners = TRANSFORMS["glare spot over the lower right points"](
        frame["image"], frame["corners"])
    obs = BoardReader().read(image, corners=corners)
    assert obs.bottom[7] is not None and obs.bottom[7].colour == "gold"
    # bottom[9]: one gold checker outside the glare, two lit nearer white than gold, the paint
    # beside them lit: gold (read white before _lit_from_darker).
    assert obs.bottom[9] is not None and obs.bottom[9].colour == "gold"
