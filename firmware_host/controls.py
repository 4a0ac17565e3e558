"""Buttons: presses in, actions out. Pure: time is passed in, in seconds.

Each button has a short press and a long one (held for ``hold_s``): the long press
fires while the button is still held, so the player feels it happen; the short one on
release. Changes closer than ``debounce_s`` to the last are contact bounce.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Press(Enum):
    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class ButtonAction:
    button: str
    press: Press


@dataclass
class ButtonGestures:
    """Turns button changes into short and long presses."""

    hold_s: float = 2.0
    debounce_s: float = 0.02
    _down_since: dict[str, float] = field(default_factory=dict)
    _long_done: set[str] = field(default_factory=set)
    _last_change: dict[str, float] = field(default_factory=dict)

    def change(self, button: str, pressed: bool, now: float) -> list[ButtonAction]:
        """``button`` went down (``pressed``) or up at ``now``."""
        actions = self.tick(now)
        if now - self._last_change.get(button, float("-inf")) < self.debounce_s:
            return actions  # contact bounce right after a change: the change stands
        if pressed == (button in self._down_since):
            return actions
        self._last_change[button] = now
        if pressed:
            self._down_since[button] = now
        else:
            del self._down_since[button]
            if button in self._long_done:
                self._long_done.discard(button)
            else:
                actions.append(ButtonAction(button, Press.SHORT))
        return actions

    def tick(self, now: float) -> list[ButtonAction]:
        """Long presses that are due by ``now``."""
        actions = []
        for button, since in self._down_since.items():
            if button not in self._long_done and now - since >= self.hold_s:
                self._long_done.add(button)
                actions.append(ButtonAction(button, Press.LONG))
        return actions

    def next_deadline(self) -> float | None:
        times = [since + self.hold_s for b, since in self._down_since.items() if b not in self._long_done]
        return min(times, default=None)
