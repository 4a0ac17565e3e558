"""Buttons: presses in, actions out (what each means: :mod:`.button_meanings`). Pure:
time is passed in, in seconds.

Each button has a short press and a long one (held for ``hold_s``): the long press
fires while the button is still held, so the player feels it happen; the short one on
release. A short press released within ``double_s`` of the one before is a double press
too (it comes after that press's own short one, which a double press does not undo: the
gestures that mean something double mean nothing pressed once, docs/daemon.md). Changes
closer than ``debounce_s`` to the last are contact bounce.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Press(Enum):
    SHORT = "short"
    LONG = "long"
    DOUBLE = "double"  # a second short press soon after the first (after its SHORT)


@dataclass(frozen=True)
class ButtonAction:
    button: str
    press: Press


@dataclass
class ButtonGestures:
    """Turns button changes into short and long presses.

    A change counts once the button has kept it for ``debounce_s``: contact bounce and
    a glitch of a few milliseconds (a switch in the matrix read once the wrong way) are
    no presses at all. Times are when the change happened, in seconds.
    """

    hold_s: float = 2.0
    debounce_s: float = 0.03
    double_s: float = 0.5
    _raw: dict[str, tuple[bool, float]] = field(default_factory=dict)  # button: (pressed, since)
    _down_since: dict[str, float] = field(default_factory=dict)  # buttons held, counted
    _long_done: set[str] = field(default_factory=set)
    _last_short: dict[str, float] = field(default_factory=dict)  # button: when its last short press ended

    def change(self, button: str, pressed: bool, now: float) -> list[ButtonAction]:
        """``button`` read down (``pressed``) or up at ``now``."""
        actions = self.tick(now)
        if self._raw.get(button, (False, 0.0))[0] != pressed:
            self._raw[button] = (pressed, now)
        return actions

    def tick(self, now: float) -> list[ButtonAction]:
        """The presses that are due by ``now``."""
        actions = []
        for button, (pressed, since) in self._raw.items():
            if now - since < self.debounce_s or pressed == (button in self._down_since):
                continue
            if pressed:
                self._down_since[button] = since
            else:
                del self._down_since[button]
                if button in self._long_done:
                    self._long_done.discard(button)
                    self._last_short.pop(button, None)
                else:
                    actions.append(ButtonAction(button, Press.SHORT))
                    before = self._last_short.pop(button, None)
                    if before is not None and since - before <= self.double_s:
                        actions.append(ButtonAction(button, Press.DOUBLE))
                    else:
                        self._last_short[button] = since
        for button, since in self._down_since.items():
            if button not in self._long_done and now - since >= self.hold_s:
                self._long_done.add(button)
                actions.append(ButtonAction(button, Press.LONG))
        return actions

    def next_deadline(self) -> float | None:
        times = [
            since + self.debounce_s
            for button, (pressed, since) in self._raw.items()
            if pressed != (button in self._down_since)
        ]
        times += [since + self.hold_s for b, since in self._down_since.items() if b not in self._long_done]
        return min(times, default=None)
