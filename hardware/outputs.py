"""What the output devices show, as values: the drivers draw them, the daemon's
presenter decides them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


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


@dataclass(frozen=True)
class Screen:
    """One OLED screen: a headline in big letters, up to three short lines, a footer."""

    headline: str
    lines: tuple[str, ...] = ()
    footer: str = ""
    alert: bool = False  # drawn inverted, to be seen at a glance


@dataclass(frozen=True)
class Lights:
    """The four status LEDs."""

    red_turn: Blink = Blink.OFF
    blue_turn: Blink = Blink.OFF
    error: Blink = Blink.OFF
    capture: Blink = Blink.OFF
