"""Each player's own PIN, shown on the nest's OLED while two buttons are held together
(docs/simulator.md, "Reaching your own screen"): the way a player at the nest finds their
own screen's PIN, which nothing prints and nothing logs.

While two buttons or more are held, the buttons mean nothing else: no press, short or
long, comes of them until every one is let go. The shared pages and the spectators are
shown the same screen with the PIN starred out (the announcement's ``public`` screen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from firmware_host.daemon.buttons import ButtonAction
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import Announcement
from firmware_host.games.base import Side
from hardware.outputs import Screen

OWN_SCREEN_CHORDS: dict[frozenset[str], Side] = {
    frozenset({"confirm", "take_back"}): Side.RED,
    frozenset({"confirm", "switch"}): Side.BLUE,
}
"""The two buttons held together that show a side's own PIN."""

SHOWN_MS = 24 * 3600 * 1000  # an announcement's end: it lasts while the buttons are held, however long


@dataclass
class OwnScreenChord:
    """Which buttons are held, and so whether a chord is on and whose PIN it shows.
    Pure: button changes in, what to show out."""

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


def own_screen(side: Side, pin: str, address: str) -> Screen:
    """The OLED while ``side``'s two buttons are held: its PIN, and where its screen is."""
    return Screen(f"PIN {pin}", (f"{side.label}'s own screen:", address, "/player.html"), "let go to hide it")


class OwnScreens(Part):
    """The players' own PINs on the OLED (none until :meth:`offer`: the nest's page
    serves the players' own screens)."""

    name = "own screens"

    def __init__(self, host: Host, *, address: Callable[[], str]) -> None:
        self.host = host
        self._address = address
        self._chord: OwnScreenChord | None = None
        self._shown_to: Callable[[Side], None] = lambda side: None
        self._announcement: Announcement | None = None

    def offer(self, pins: Mapping[Side, str], *, shown: Callable[[Side], None]) -> None:
        """Each side's own PIN, to show while its two buttons are held; ``shown`` is
        told whose PIN is shown, each time."""
        self._chord = OwnScreenChord(dict(pins))
        self._shown_to = shown

    def held(self, name: str, pressed: bool, now: int) -> bool:
        chord = self._chord
        if chord is None or not chord.change(name, pressed):
            return False
        shown = chord.shown()
        if shown is None:
            self._announcement = None
        else:
            side, pin = shown
            address = self._address()
            self._announcement = Announcement(
                own_screen(side, pin, address), now + SHOWN_MS, public=own_screen(side, "*" * len(pin), address)
            )
            self._shown_to(side)
        self.host.show()
        return True

    def pressed(self, action: ButtonAction, now: int) -> bool:
        return self._chord is not None and self._chord.is_on  # (none comes while it is on; none is let through)

    def status(self) -> Announcement | None:
        return self._announcement
