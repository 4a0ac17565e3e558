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
