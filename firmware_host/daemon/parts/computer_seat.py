"""The computer's seat: its engine chooses, in a process of its own
(:class:`~firmware_host.daemon.computer.ComputerPlayer`), the move of a side the
computer plays whenever the referee wants it, or a hint the players asked for
(:mod:`.hints`) in a person's turn; its choice comes back posted to the loop, and is
played at the referee if still wanted for that very position."""

from __future__ import annotations

import logging

from firmware_host.daemon.computer import ComputerPlayer
from firmware_host.daemon.parts.hints import Hints
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.games.base import ComputerChoice, Move, Position
from firmware_host.referee.referee import CommandError

logger = logging.getLogger(__name__)


class ComputerSeat(Part):
    """The engine, seated for the computer's sides and asked for hints."""

    name = "computer"

    def __init__(self, host: Host, hints: Hints, *, seed: int) -> None:
        self.host = host
        self.hints = hints
        config = host.config
        self.engine = ComputerPlayer(
            config.game,
            level_number=config.computer_level,
            seed=seed,
            deliver=lambda history, result: host.post(lambda: self._chose(history, result)),
        )
        self._move_wanted: Position | None = None

    def start(self) -> None:
        if self.host.config.referee.computers:  # started now, so that its first move does not wait for it
            self.engine.start()

    def close(self) -> None:
        self.engine.close()

    def want(self, position: Position | None) -> None:
        """The referee wants the computer's move in ``position`` (None: not now)."""
        self._move_wanted = position

    def turn(self, now: int) -> None:
        """Choose the move wanted, else a hint wanted in the position the players are
        in; stop choosing otherwise."""
        if self._move_wanted is not None:
            self.engine.want(self._move_wanted)
            return
        service = self.host.service
        position = service.referee.position if service is not None and not self.host.paused else None
        if service is not None and not self.host.paused and service.referee.wants_computer_move:
            self.engine.want(None)  # the other nest chooses it
            return
        history = position.move_stack if position is not None else None
        self.engine.want(position if self.hints.wanted_in(history) else None)

    def _chose(self, history: tuple[Move, ...], result: ComputerChoice) -> None:
        """The engine's choice, in the loop: played or shown, if still wanted for that position."""
        service = self.host.service
        if service is None or not self.engine.is_searching_for(history):
            return  # a take back, a new game or a person taking over came first
        position = service.referee.position
        if self.hints.wanted_for == history and position is not None and position.move_stack == history:
            self.engine.delivered()
            self.hints.chosen(history, result)
            return
        if position is None or position.move_stack != history or not service.referee.wants_computer_move:
            return
        self.engine.delivered()
        logger.info("the computer chose %s", result.move, extra={"fields": dict(result.facts)})
        try:
            self.host.publish(service.play_computer_move(result.move, self.host.now_ms()))
        except CommandError as error:
            logger.error("the computer's move was not taken: %s", error)

    @property
    def is_seated(self) -> bool:
        return True
