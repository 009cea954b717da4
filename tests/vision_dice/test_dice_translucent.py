"""Translucent dice: the far faces' pips seen through the body do not break the top's own face."""
from __future__ import annotations

import math

import pytest

from vision.dice.reader import DiceReader
from vision.dice.scenes import make_scene


@pytest.mark.parametrize("seed", [231, 255])
def test_a_translucent_two_is_read_with_the_fives_centre_pip_showing_between_its_pips(seed):
    # In these scenes a green two's pips lie on either side of the centre pip of the five under
    # it, seen through the die: the path between them crosses that faint spot.
    scene = make_scene(seed)
    twos = [d for d in scene.dice if d.style == "green" and d.value == 2 and not d.cocked]
    assert twos
    observation = DiceReader().read(scene.image, scene.region)
    for two in twos:
        near = [d for d in observation.dice if math.hypot(d.x - two.centre[0], d.y - two.centre[1]) < 0.6 * two.size_px]
        assert [d.value for d in near] == [2]
    # Nothing reported where no die lies.
    assert all(any(math.hypot(d.x - t.centre[0], d.y - t.centre[1]) < 0.6 * t.size_px for t in scene.dice)
               for d in observation.dice)
