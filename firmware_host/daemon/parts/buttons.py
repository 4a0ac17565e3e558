"""The buttons: their changes (in the switch matrix, or on GPIO pins through gpiozero)
made presses by :class:`~firmware_host.daemon.buttons.ButtonGestures`; what each press
means now is read from the one table,
:data:`~firmware_host.daemon.button_meanings.MEANINGS` (docs/daemon.md), then offered to
the parts in their order (remote play's meanings, the material count) and otherwise made
the referee's command it means (:func:`~firmware_host.daemon.button_meanings.command_for`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from firmware_host.daemon.button_meanings import Situation, command_for, meaning_of
from firmware_host.daemon.buttons import ButtonAction, ButtonGestures
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.presenter import Scene
from firmware_host.games.base import Side
from firmware_host.referee.referee import CommandError
from hardware.buttons import PinButtons

logger = logging.getLogger(__name__)


class Buttons(Part):
    """The buttons' gestures, and what each press means."""

    name = "buttons"

    def __init__(
        self,
        host: Host,
        *,
        scene: Callable[[], Scene],
        situation: Callable[[], Situation],
        point_at_next_answer: Callable[[], None],
        parts: Callable[[], Sequence[Part]],
        set_players: Callable[[frozenset[Side]], None],
        ask_hint: Callable[[], object],
    ) -> None:
        self.host = host
        self._scene = scene
        self._situation = situation  # what the nest is doing decides what a press means
        self._next_answer = point_at_next_answer
        self._parts = parts
        self._set_players = set_players
        self._ask_hint = ask_hint
        self.gestures = ButtonGestures()
        self._pins: PinButtons | None = None

    def start(self) -> None:
        pins = {name: pin for name, pin in self.host.config.buttons.items() if pin is not None}
        if pins:
            self._pins = PinButtons(pins, pin_factory=self.host.devices.pin_factory, on_change=self.changed_on_pin)

    def close(self) -> None:
        if self._pins is not None:
            self._pins.close()

    def restarted(self) -> None:
        self.gestures = ButtonGestures()

    def changed_on_pin(self, name: str, pressed: bool) -> None:
        """A button on a GPIO pin went down or up (from gpiozero's thread). The time is
        taken now, not when the loop gets to it, so a press is timed right."""
        now = self.host.now_ms()
        self.host.post(lambda: self.changed(name, pressed, now))

    def changed(self, name: str, pressed: bool, now: int) -> None:
        """The button ``name`` read down or up at ``now`` (referee ms)."""
        if any(part.held(name, pressed, now) for part in self._parts() if part is not self):
            self.gestures = ButtonGestures()  # taken (two buttons held): nothing it began is a press
            return
        for action in self.gestures.change(name, pressed, now / 1000):
            self._press(action, now)

    def turn(self, now: int) -> None:
        for action in self.gestures.tick(now / 1000):
            self._press(action, now)

    def next_due(self, now: int) -> int | None:
        held = self.gestures.next_deadline()
        return int(held * 1000) if held is not None else None

    def _press(self, action: ButtonAction, now: int) -> None:
        """What a press means depends on what the nest is doing (docs/daemon.md)."""
        service = self.host.service
        if service is None:
            return
        logger.info("button", extra={"fields": {"button": action.button, "press": action.press.value}})
        meaning = meaning_of(action, self._situation())
        if meaning is None:  # it means nothing now
            self.host.show()
            return
        if any(part.pressed(action, now) for part in self._parts() if part is not self):
            return
        try:
            command_for(
                meaning,
                service,
                self._scene(),
                lineups=self.host.config.game.lineups,
                set_players=self._set_players,
                ask_hint=self._ask_hint,
                next_answer=self._next_answer,
            )(now)
        except CommandError as error:
            logger.info("button ignored: %s", error)
        self.host.show()
