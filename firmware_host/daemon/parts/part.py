"""What a part of the daemon is (:class:`Part`), what of the loop it may use
(:class:`Host`), and what a seat at the referee is (:class:`Seat`).

A part is one feature: it owns its own state, reacts to what happens (the switches'
readings, the referee's signals, the buttons' presses), acts in its turn of the loop,
says when it next needs the loop by itself, and reports a frozen status that the views
read (:mod:`firmware_host.daemon.statuses`). Every hook has a default that does
nothing, so a part writes only the hooks it needs (as a Klipper module registers only
the handlers it has).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from firmware_host.games.base import Position

if TYPE_CHECKING:
    from firmware_host.daemon.buttons import ButtonAction
    from firmware_host.daemon.config import Config
    from firmware_host.daemon.devices import Devices
    from firmware_host.daemon.presenter import View
    from firmware_host.daemon.tunes import Cue
    from firmware_host.recorder.service import RefereeService
    from firmware_host.referee.signals import Signal


class Host(Protocol):
    """What of the daemon's loop a part may use."""

    config: Config
    devices: Devices
    clock: Callable[[], float]
    wall_clock: Callable[[], float]
    service: RefereeService | None  # the referee and its record, once the switches are read
    paused: bool  # the simulator rearranges the nest: nobody is told

    @property
    def view(self) -> View:
        """What the nest shows now, as the referee's signals have it."""
        ...

    def now_ms(self) -> int:
        """The referee's clock: milliseconds since the daemon started."""
        ...

    def occupied(self) -> list[str]:
        """The cells the nest holds pieces on now, as the switches read."""
        ...

    def publish(self, signals: list[Signal]) -> None:
        """The referee was asked something (signals: what it answered, already
        announced): the next turn is a whole one, and the outputs shown again."""
        ...

    def show(self) -> None:
        """Something a part reports changed: show the nest's outputs again."""
        ...

    def post(self, command: Callable[[], None]) -> None:
        """Run ``command`` in the loop's next turn; safe from any thread."""
        ...

    def sound(self, cue: Cue) -> None:
        """Sound ``cue`` (on the piezo with ``[sound] enabled``; on the pages)."""
        ...

    def subscribe(self, listener: Callable[[Signal], None]) -> None:
        """Have ``listener`` told every signal, after the parts (as the page's listeners are)."""
        ...


class Part:
    """One feature of the daemon. Subclasses override the hooks they need."""

    name = "part"

    def start(self) -> None:
        """The daemon starts (its record open, its listeners subscribed)."""

    def close(self) -> None:
        """The daemon stops: release what the part holds."""

    def referee_started(self, occupied: Sequence[str]) -> None:
        """A referee began (at start, after a restart, a replay's new set); the nest
        holds ``occupied``."""

    def restarted(self) -> None:
        """The referee is started again from the record after a bug in the loop."""

    def sensed(self, cell: str, closed: bool, now: int) -> None:
        """A reed switch under ``cell`` changed, at ``now`` (referee ms)."""

    def heard(self, signal: Signal) -> None:
        """A signal of the referee, already recorded."""

    def held(self, name: str, pressed: bool, now: int) -> bool:
        """The button ``name`` went down or up, before any gesture is made of it; True
        if this part takes the change (the buttons' gestures then start afresh)."""
        return False

    def pressed(self, action: ButtonAction, now: int) -> bool:
        """A button press; True if this part takes it (no later part, nor the referee's
        gestures, sees it)."""
        return False

    def turn(self, now: int) -> None:
        """The part's turn in the loop (after the switches and the commands posted)."""

    def next_due(self, now: int) -> int | None:
        """When (referee ms) the part next needs a whole turn by itself: ``now`` for
        every turn, None for never (what it waits for is posted)."""
        return None

    def status(self) -> object | None:
        """What the part reports now, a frozen value (None: nothing for the views)."""
        return None


class Seat(Protocol):
    """Who makes the moves of a side: a person on the nest, the computer, the other nest.
    The referee wants a move chosen away from the nest in ``position`` (None: no such move
    is wanted now); the seat hands it to the referee once it has it."""

    name: str

    @property
    def is_seated(self) -> bool:
        """Whether the seat can play now (the other nest's: while paired)."""
        ...

    def want(self, position: Position | None) -> None: ...


class PersonSeat:
    """A person's seat: the move is made on the nest, the switches tell the referee."""

    name = "person"
    is_seated = True

    def want(self, position: Position | None) -> None:
        """Nothing to do: the person's hand is the seat's move."""
