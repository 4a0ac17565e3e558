"""Each player's own PIN, shown on the nest's OLED while two buttons are held together
(docs/simulator.md, "Reaching your own screen"): the way a player at the nest finds their
own screen's PIN, which nothing prints and nothing logs. Pure: button changes in, what
to show out.

While two buttons or more are held, the buttons mean nothing else: no press, short or
long, comes of them until every one is let go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware_host.games.base import Side

OWN_SCREEN_CHORDS: dict[frozenset[str], Side] = {
    frozenset({"confirm", "take_back"}): Side.RED,
    frozenset({"confirm", "switch"}): Side.BLUE,
}
"""The two buttons held together that show a side's own PIN."""


@dataclass
class OwnScreenChord:
    """Which buttons are held, and so whether a chord is on and whose PIN it shows."""

    pins: Mapping[Side, str]
    _held: set[str] = field(default_factory=set)
    is_on: bool = False  # two buttons were held, and not all are let go yet

    def change(self, button: str, pressed: bool) -> bool:
        """``button`` went down or up; whether this change is the chord's (then the
        buttons' gestures must not see it, and start afresh once it is over)."""
        if pressed:
            self._held.add(button)
        else:
            self._held.discard(button)
        was_on, self.is_on = self.is_on, (len(self._held) >= 2 or (self.is_on and bool(self._held)))
        return self.is_on or was_on

    def shown(self) -> tuple[Side, str] | None:
        """The side whose PIN the OLED shows now, and the PIN; None while no chord of
        :data:`OWN_SCREEN_CHORDS` is held."""
        side = OWN_SCREEN_CHORDS.get(frozenset(self._held)) if self.is_on else None
        return (side, self.pins[side]) if side is not None and side in self.pins else None
