"""Hints: the players ask (switch pressed twice in a person's turn, or the page), the
engine chooses the side to move's move at the computer's level, and it is lit on the
nest and said on the OLED until a move is made; the move made next is marked in the
record. The engine is the computer seat's (:mod:`.computer_seat`), which hands a hint
it chose back here."""

from __future__ import annotations

import logging

from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import HintShown
from firmware_host.games.base import ComputerChoice, Move
from firmware_host.referee.referee import CommandError, Mode
from firmware_host.referee.signals import ComputerMove, MissedCapture, SensorFault, SensorRecovered, Signal

logger = logging.getLogger(__name__)


class Hints(Part):
    """The hint asked for, or given."""

    name = "hints"

    def __init__(self, host: Host) -> None:
        self.host = host
        self.wanted_for: tuple[Move, ...] | None = None  # the moves before the position a hint is wanted in
        self._shown = HintShown()

    def ask(self, *, question_open: bool) -> None:
        """A hint for the side to move. Raises :class:`CommandError` when none can be
        given now (no game, the computer's turn, a question open)."""
        service = self.host.service
        referee = service.referee if service is not None else None
        position = referee.position if referee is not None else None
        if referee is None or position is None or referee.mode is not Mode.PLAYING or question_open:
            raise CommandError("a hint is for a person's turn in a game")
        if position.turn in referee.computers:
            raise CommandError("it is the computer's turn: it needs no hint")
        if self._shown.move is not None or self.wanted_for == position.move_stack:
            return  # given, or on its way
        self.wanted_for = position.move_stack
        self._shown = HintShown(wanted=True)
        logger.info("a hint is asked for", extra={"fields": {"side": position.turn.label}})
        self.host.show()

    def wanted_in(self, history: tuple[Move, ...] | None) -> bool:
        """Whether a hint is wanted in the position after ``history`` (the one the
        players are in); a hint asked for in another is dropped."""
        if self.wanted_for is not None and history != self.wanted_for:
            self.wanted_for = None  # a move, a take back or a new game came first
        return self.wanted_for is not None

    def chosen(self, history: tuple[Move, ...], result: ComputerChoice) -> None:
        """The engine chose ``result`` in the position after ``history``."""
        self.wanted_for = None
        service = self.host.service
        if service is not None:
            service.hint_shown(history)
        self._shown = HintShown(move=result.move)
        logger.info("hint: %s", result.move, extra={"fields": dict(result.facts)})
        self.host.show()

    def heard(self, signal: Signal) -> None:
        if not isinstance(signal, MissedCapture | SensorFault | SensorRecovered | ComputerMove):
            self._shown = HintShown()  # a hint is for the position it was asked in

    def status(self) -> HintShown:
        return self._shown
