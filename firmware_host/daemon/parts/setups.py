"""The players' own set-ups, in a game that hides its pieces (the battle game): each
player gives a whole set-up from their own screen, or places the pieces one at a time
as it asks; a side the computer plays has no screen, so while the referee waits for it
a set-up drawn for it is given (the game's ``computer_setup``; the computer itself
still plays from its view alone). What a player's own screen shows is
:meth:`Setups.private_view`, for that player's authenticated screen alone."""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.presenter import View
from firmware_host.daemon.snapshot import PrivateView
from firmware_host.games.base import HiddenPieces, Side
from firmware_host.recorder.service import RefereeService
from firmware_host.referee.referee import CommandError
from firmware_host.referee.signals import GameStarted, SetupProgress, SetupState, Signal

logger = logging.getLogger(__name__)


class Setups(Part):
    """Each side's set-up: what its screen gave, and how far the referee has it."""

    name = "setups"

    def __init__(self, host: Host, *, seed: int, computers: Callable[[], frozenset[Side]]) -> None:
        self.host = host
        self._seed = seed
        self._computers = computers
        game = host.config.game
        # Asked once, not every turn: two checks against a runtime protocol were a quarter of a whole turn.
        self._hiding: HiddenPieces | None = game.hidden
        self._own: dict[Side, object] = {}  # what each player's screen gave, for that screen alone
        self._progress: dict[Side, SetupProgress] = {}
        self._number = 1  # the game's in its set, as last started

    # -- from the players' own screens ----------------------------------------------------

    def give(self, side: Side, text: str) -> None:
        """``side``'s whole set-up, in the game's set-up notation. Raises a
        :class:`~firmware_host.errors.NestrefError` saying what is wrong with it, or
        :class:`CommandError` when no set-up is awaited."""
        service = self._service()
        hiding = self.host.config.game.setups
        assert hiding is not None
        setup = hiding.read_setup(side, text)
        if setup.side is not side:
            raise CommandError(f"that set-up is {setup.side.label}'s, not {side.label}'s")
        self.host.publish(service.give_setup(setup, self.host.now_ms()))
        self._own[side] = setup

    def guide(self, side: Side) -> None:
        """``side`` places its pieces one at a time. Raises :class:`CommandError` when
        no set-up is awaited."""
        self.host.publish(self._service().guide_setup(side, self.host.now_ms()))
        self._own.pop(side, None)

    def check(self, side: Side) -> None:
        """``side``'s pieces are checked against its set-up before the game, as its own
        screen asks. Raises :class:`CommandError` when no set-up is awaited."""
        self.host.publish(self._service().check_setup(side, self.host.now_ms()))

    def clear(self, side: Side) -> None:
        """``side``'s set-up withdrawn. Raises :class:`CommandError` when none is awaited."""
        self.host.publish(self._service().clear_setup(side, self.host.now_ms()))
        self._own.pop(side, None)

    def _service(self) -> RefereeService:
        game = self.host.config.game
        if game.setups is None:
            raise CommandError(f"{game.title} has no set-ups made on the players' screens")
        if self.host.service is None:
            raise CommandError("the referee has not started yet")
        return self.host.service

    def private_view(self, side: Side) -> PrivateView | None:
        """What ``side``'s own screen shows (None: the game hides nothing)."""
        game = self._hiding
        if game is None:
            return None
        service = self.host.service
        referee = service.referee if service is not None else None
        position = referee.position if referee is not None else None
        progress = self._progress.get(side)
        setting_up = self.host.view in (View.SETUP, View.STARTING) or position is None
        if setting_up:
            setup = self._own.get(side)
            cells = dict(game.setup_letters(setup)) if setup is not None else {}
        else:
            assert position is not None
            cells = dict(game.letters_seen_by(position, side))
        return PrivateView(
            side=side,
            cells=cells,
            setup_state=(progress.state.value if progress is not None else "waiting") if setting_up else "",
            placed=progress.placed if progress is not None else 0,
            total=progress.total if progress is not None else 0,
            prompt=referee.placement_prompt(side) if referee is not None and setting_up else None,
        )

    # -- the computer's sides ---------------------------------------------------------------

    def heard(self, signal: Signal) -> None:
        if isinstance(signal, SetupProgress):
            self._progress[signal.side] = signal
        elif isinstance(signal, GameStarted):
            self._own.clear()  # the game has them now: the screens show its position
            self._number = signal.number

    def turn(self, now: int) -> None:
        game, service = self._hiding, self.host.service
        if game is None or service is None or self.host.paused:
            return
        for side in self._computer_sides_waiting():
            setup = game.computer_setup(side, self._seed + self._number)
            try:
                self.host.publish(service.give_setup(setup, self.host.now_ms()))
            except CommandError as error:
                logger.info("no set-up for the computer's side now: %s", error)
                self._progress.pop(side, None)  # not asked again until the referee says so
            else:
                logger.info("the computer's side is set up", extra={"fields": {"side": side.label}})

    def _computer_sides_waiting(self) -> list[Side]:
        """The computer's sides the referee waits for a set-up of."""
        return [
            side
            for side in self._computers()
            if (progress := self._progress.get(side)) is not None and progress.state is SetupState.WAITING
        ]

    def next_due(self, now: int) -> int | None:
        return now if self._hiding is not None and self._computer_sides_waiting() else None
