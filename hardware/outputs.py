"""What the output devices show, as values: the drivers draw them, the daemon's
presenter decides them."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

logger = logging.getLogger(__name__)

WIRING_ERROR_EVERY_S = 60.0  # an output that keeps failing is logged at most this often


class Blink(Enum):
    """How a light shows."""

    OFF = "off"
    ON = "on"  # a fact: whose turn, a cell to fill
    SLOW = "slow"  # 1 Hz: what to do next (a capture to make, a question to answer)
    FAST = "fast"  # 4 Hz: what is wrong (a cell to fix)

    def is_lit(self, now: float) -> bool:
        """Whether the light is on at ``now`` (seconds): blinking lights share one
        clock, so they blink together."""
        if self is Blink.ON:
            return True
        if self is Blink.OFF:
            return False
        period = 1.0 if self is Blink.SLOW else 0.25
        return (now % period) < period / 2

    def next_change(self, now: float) -> float | None:
        """When the light next turns on or off after ``now`` (seconds); None for a
        light that does not blink."""
        if self is Blink.ON or self is Blink.OFF:
            return None
        half = 0.5 if self is Blink.SLOW else 0.125
        return (now // half + 1) * half


class Colour(Enum):
    """A cell LED's colour, on a nest whose cell LEDs have colours (WS2812s); its value is
    (red, green, blue) at full brightness. Colour only repeats what the blinking says, so
    that a player who cannot tell green from amber loses nothing (docs/daemon.md)."""

    WHITE = (255, 255, 255)  # steady: a fact (where a piece goes, a cell to fill)
    GREEN = (0, 255, 0)  # slow: what to do next (the piece to move)
    AMBER = (255, 110, 0)  # fast: what is wrong (as the error light); what must come off
    RED = (255, 0, 0)  # a side's own: red's
    BLUE = (0, 60, 255)  # blue's (a little green, or it looks dim beside the others)


GRAMMAR_COLOURS = {Blink.ON: Colour.WHITE, Blink.SLOW: Colour.GREEN, Blink.FAST: Colour.AMBER}
"""The colour of each way of blinking, for a cell light given no colour of its own."""


@dataclass(frozen=True)
class CellLight:
    """How a cell's LED shows: its blinking, and a colour (None: the one the blinking's
    grammar gives it, :data:`GRAMMAR_COLOURS`). A one-colour LED shows the blinking only."""

    blink: Blink
    colour: Colour | None = None

    @property
    def shown_colour(self) -> Colour | None:
        """The colour it shows when lit (None when it is off)."""
        if self.blink is Blink.OFF:
            return None
        return self.colour or GRAMMAR_COLOURS[self.blink]


def cell_light(shown: Blink | CellLight) -> CellLight:
    """``shown`` as a :class:`CellLight` (a bare blinking takes its grammar's colour)."""
    return shown if isinstance(shown, CellLight) else CellLight(shown)


def blink_of(shown: Blink | CellLight) -> Blink:
    """The blinking of ``shown``."""
    return shown.blink if isinstance(shown, CellLight) else shown


def next_change(blinks: Iterable[Blink], now: float) -> float | None:
    """When the first of ``blinks`` next turns on or off, or None if none blinks."""
    return min((change for blink in set(blinks) if (change := blink.next_change(now)) is not None), default=None)


@dataclass(frozen=True)
class Screen:
    """One OLED screen: a headline in big letters, up to three short lines, a footer."""

    headline: str
    lines: tuple[str, ...] = ()
    footer: str = ""
    alert: bool = False  # drawn inverted, to be seen at a glance


class WiringErrors:
    """An output that fails (a loose I2C or SPI wire) is logged, but at most once every
    ``WIRING_ERROR_EVERY_S`` per device: it would otherwise fill the log at every frame."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._logged: dict[str, float] = {}  # device: when its failure was last logged

    def log(self, device: str, error: OSError) -> None:
        now = self._clock()
        if now - self._logged.get(device, float("-inf")) >= WIRING_ERROR_EVERY_S:
            self._logged[device] = now
            logger.error("%s: %s; check its wiring", device, error)
