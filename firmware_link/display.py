"""What the unit shows, as a game-level value, and which LEDs that lights.

:class:`DisplayState` is the state the host wants on the unit (and the emulator's current state,
shown by the dashboard): cube value and owner, whose turn, the dice, the verdict on the last move,
brightness and the lamp test.  Players are ``engine.position.X`` / ``O``; ``None`` is the centre
(cube) or nobody (turn).

The LED assignment comes from the firmware's ``firmware/wiring.h``, the one place it is written.

>>> from engine.position import X, O
>>> state = DisplayState(cube=4, owner=X, turn=O, dice=(6, 2), verdict=True)
>>> state.commands()
[('cube', '4', 'x'), ('turn', 'o'), ('dice', '6', '2'), ('verdict', 'ok'), ('bright', '128'), ('test', '0')]
>>> f"{state.leds():08X}"
'0307BC82'
>>> DisplayState.from_words(("4", "x", "o", "6", "2", "ok", "128", "0")) == state
True
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from engine.position import O, X
from firmware_link.protocol import (
    BRIGHTNESS_DEFAULT,
    CUBE_LOG2_MAX,
    FIRMWARE_DIR,
    ProtocolError,
    read_defines,
)

_W = read_defines(FIRMWARE_DIR / "wiring.h")

LED_CUBE_FIRST: int = _W["LED_CUBE_FIRST"]  # type: ignore[assignment]
LED_CUBE_COUNT: int = _W["LED_CUBE_COUNT"]  # type: ignore[assignment]
LED_OWNER = {None: _W["LED_OWNER_CENTRE"], X: _W["LED_OWNER_X"], O: _W["LED_OWNER_O"]}
LED_TURN = {X: _W["LED_TURN_X"], O: _W["LED_TURN_O"]}
LED_DIE_FIRST: tuple[int, int] = (_W["LED_DIE1_FIRST"], _W["LED_DIE2_FIRST"])  # type: ignore[assignment]
PIP_PATTERNS: tuple[int, ...] = _W["PIP_PATTERNS"]  # type: ignore[assignment]
LED_VERDICT_OK: int = _W["LED_VERDICT_OK"]  # type: ignore[assignment]
LED_VERDICT_BAD: int = _W["LED_VERDICT_BAD"]  # type: ignore[assignment]
LED_LINK: int = _W["LED_LINK"]  # type: ignore[assignment]
LED_COUNT: int = _W["LED_COUNT"]  # type: ignore[assignment]
#: Button names, which are also the words of the ``btn`` event, in pin order (PC0..PC5).
BUTTONS: tuple[str, ...] = _W["BUTTON_NAMES"]  # type: ignore[assignment]

CUBE_VALUES = tuple(1 << k for k in range(CUBE_LOG2_MAX + 1))

_PLAYER_WORD = {X: "x", O: "o"}
_WORD_PLAYER = {"x": X, "o": O}
_VERDICT_WORD = {None: "-", True: "ok", False: "bad"}
_WORD_VERDICT = {word: verdict for verdict, word in _VERDICT_WORD.items()}


@dataclass(frozen=True)
class DisplayState:
    """Everything the unit shows.  Every field is absolute, so a whole state can be pushed.

    ``cube``: 1, 2, 4, ... 32768; ``owner``: X, O or None (centre); ``turn``: X, O or None;
    ``dice``: two values 1..6, ``(0, 0)`` for none shown; ``verdict``: True (legal, green),
    False (illegal, red), None (no verdict); ``brightness`` 0..255; ``lamp_test`` lights all.

    >>> DisplayState(cube=3)
    Traceback (most recent call last):
    ...
    ValueError: the cube shows a power of two from 1 to 32768, not 3
    """

    cube: int = 1
    owner: int | None = None
    turn: int | None = None
    dice: tuple[int, int] = (0, 0)
    verdict: bool | None = None
    brightness: int = BRIGHTNESS_DEFAULT
    lamp_test: bool = False

    def __post_init__(self) -> None:
        if self.cube not in CUBE_VALUES:
            raise ValueError(f"the cube shows a power of two from 1 to 32768, not {self.cube!r}")
        if self.owner not in (None, X, O):
            raise ValueError(f"the cube's owner is X, O or None (centre), not {self.owner!r}")
        if self.turn not in (None, X, O):
            raise ValueError(f"the turn is X's, O's or None, not {self.turn!r}")
        dice = tuple(self.dice)
        if len(dice) != 2 or any(not isinstance(d, int) or not 0 <= d <= 6 for d in dice):
            raise ValueError(f"dice are two values 1..6 (0 = not shown), not {self.dice!r}")
        object.__setattr__(self, "dice", dice)
        if self.verdict not in (None, True, False):
            raise ValueError(f"the verdict is True, False or None, not {self.verdict!r}")
        if not isinstance(self.brightness, int) or not 0 <= self.brightness <= 255:
            raise ValueError(f"brightness is 0..255, not {self.brightness!r}")

    def with_(self, **changes) -> "DisplayState":
        """A copy with some fields changed (validated)."""
        return replace(self, **changes)

    # --- protocol words -------------------------------------------------------------------

    def field_commands(self) -> dict[str, tuple[str, ...]]:
        """The request that sets each part of the display, keyed by verb."""
        return {
            "cube": ("cube", str(self.cube), _PLAYER_WORD.get(self.owner, "c")),  # type: ignore[arg-type]
            "turn": ("turn", _PLAYER_WORD.get(self.turn, "-")),  # type: ignore[arg-type]
            "dice": ("dice", str(self.dice[0]), str(self.dice[1])),
            "verdict": ("verdict", _VERDICT_WORD[self.verdict]),
            "bright": ("bright", str(self.brightness)),
            "test": ("test", "1" if self.lamp_test else "0"),
        }

    def commands(self) -> list[tuple[str, ...]]:
        """The requests that put this whole state on a unit, whatever it showed before."""
        return list(self.field_commands().values())

    @classmethod
    def from_words(cls, words: tuple[str, ...] | list[str]) -> "DisplayState":
        """From the words of a ``state`` reply after ``ok``."""
        try:
            cube, owner, turn, d1, d2, verdict, bright, test = words
            return cls(
                cube=int(cube),
                owner=None if owner == "c" else _WORD_PLAYER[owner],
                turn=None if turn == "-" else _WORD_PLAYER[turn],
                dice=(int(d1), int(d2)),
                verdict=_WORD_VERDICT[verdict],
                brightness=int(bright),
                lamp_test=test == "1",
            )
        except (ValueError, KeyError) as exc:
            raise ProtocolError(f"not a display state: {' '.join(words)!r}") from exc

    def as_dict(self) -> dict:
        """JSON-friendly, for the dashboard: players as ``"X"``/``"O"``, ``None`` for the centre.

        >>> DisplayState(cube=2, owner=X, dice=(6, 1)).as_dict()["owner"]
        'X'
        """
        name = {X: "X", O: "O", None: None}
        return {
            "cube": self.cube,
            "owner": name[self.owner],
            "turn": name[self.turn],
            "dice": list(self.dice),
            "verdict": self.verdict,
            "brightness": self.brightness,
            "lamp_test": self.lamp_test,
        }

    # --- LEDs -----------------------------------------------------------------------------

    def leds(self, link: bool = False) -> int:
        """The 32-bit LED mask the firmware latches into the 595 chain for this state.

        >>> f"{DisplayState(cube=128, owner=O).leds():08X}"
        '00000121'
        >>> f"{DisplayState(lamp_test=True).leds():08X}"
        '0FFFFFFF'
        """
        if self.lamp_test:
            return (1 << LED_COUNT) - 1
        mask = 0
        k = self.cube.bit_length() - 1
        if 1 <= k <= LED_CUBE_COUNT:
            mask |= 1 << (LED_CUBE_FIRST + k - 1)
        elif k > LED_CUBE_COUNT:
            # beyond 64: the 64 LED and the LED of value / 64; from 4096 on all six
            mask |= 1 << (LED_CUBE_FIRST + LED_CUBE_COUNT - 1)
            extra = k - LED_CUBE_COUNT
            if extra < LED_CUBE_COUNT:
                mask |= 1 << (LED_CUBE_FIRST + extra - 1)
            else:
                mask |= ((1 << LED_CUBE_COUNT) - 1) << LED_CUBE_FIRST
        mask |= 1 << LED_OWNER[self.owner]
        if self.turn is not None:
            mask |= 1 << LED_TURN[self.turn]
        for first, value in zip(LED_DIE_FIRST, self.dice):
            mask |= PIP_PATTERNS[value] << first
        if self.verdict is True:
            mask |= 1 << LED_VERDICT_OK
        elif self.verdict is False:
            mask |= 1 << LED_VERDICT_BAD
        if link:
            mask |= 1 << LED_LINK
        return mask


def player_word(player: int | None) -> str:
    """``x``, ``o`` or ``c`` (centre / nobody) for the protocol."""
    return _PLAYER_WORD.get(player, "c")  # type: ignore[arg-type]

