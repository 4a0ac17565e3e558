"""The referee at work: record what it decides, then announce it.

:class:`RefereeService` wraps the pure :class:`Referee` with the :class:`GameStore`:
every batch of signals is committed to the database before any of it is passed on, so
a move the players have been told about is a move on disk. The daemon and the replay
command both use it.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable

from firmware_host.games.base import Game, Move, Position, Side
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.signals import MoveAccepted, Signal
from firmware_host.referee.store import GameStore, StorageUnavailableError

Announce = Callable[[Signal], None]

logger = logging.getLogger(__name__)

RETRY_MS = 1000  # while the record cannot be written, it is tried again this often


class RefereeService:
    """Feeds a referee, records its decisions, announces them."""

    def __init__(self, referee: Referee, *, store: GameStore, announce: Announce) -> None:
        self.referee = referee
        self.store = store
        self.announce = announce
        self.storage_ok = True
        """False while the record cannot be written (a full disk): nothing more is
        announced until it can, so nothing announced is ever missing from the record."""
        self._pending: deque[tuple[list[Signal], int]] = deque()
        self._retry_at = 0  # referee time of the next try while the record cannot be written

    @classmethod
    def start(
        cls,
        game: Game,
        *,
        settings: Settings,
        store: GameStore,
        announce: Announce,
        lineup: str,
        occupied: Iterable[str],
        now: int,
        position: Position | None = None,
        resume: bool = True,
    ) -> RefereeService:
        """Resume what the store holds (unless ``resume`` is False); or else begin a new
        set from ``position`` if given (the nest is taken to show it), or wait for the
        nest to be set up."""
        saved = store.load() if resume else None
        referee = Referee(game, settings=settings, lineup=saved.lineup if saved else lineup, occupied=occupied, now=now)
        service = cls(referee, store=store, announce=announce)
        if saved is not None and saved.position is not None and saved.games is not None and saved.starter:
            service._publish(
                referee.resume_game(
                    saved.position, games=saved.games, number=saved.number, starter=saved.starter, now=now
                ),
                now,
            )
        elif saved is not None:
            service._publish(referee.await_setup(now=now, games=saved.games, number=saved.number), now)
        elif position is not None:
            service._publish(referee.begin_game(position, now=now), now)
        else:
            service._publish(referee.await_setup(now=now), now)
        return service

    def _publish(self, signals: list[Signal], now: int) -> list[Signal]:
        if signals:
            self._pending.append((signals, now))
        if self._pending and (self.storage_ok or now >= self._retry_at):
            self.flush(now)
        return signals

    def flush(self, now: int) -> bool:
        """Record, then announce, what waits, in order; False if the record cannot be
        written now. It is tried again ``RETRY_MS`` later (not at every scan: a locked
        file makes each try wait)."""
        while self._pending:
            signals, at = self._pending[0]
            try:
                self.store.record(signals, referee_ms=at)
            except StorageUnavailableError as error:
                (logger.error if self.storage_ok else logger.debug)("%s; moves wait to be recorded", error)
                self.storage_ok = False
                self._retry_at = now + RETRY_MS
                return False
            self._pending.popleft()
            if not self.storage_ok:
                logger.warning("the game record can be written again")
                self.storage_ok = True
            for signal in signals:
                self.announce(signal)
        return True

    def waiting_moves(self) -> list[Move]:
        """The moves decided but not yet recorded (the record cannot be written): shown
        as waiting, never as played."""
        return [signal.move for signals, _ in self._pending for signal in signals if isinstance(signal, MoveAccepted)]

    def sense(self, cell: str, occupied: bool, now: int) -> list[Signal]:
        return self._publish(self.referee.sense(cell, occupied, now), now)

    def tick(self, now: int) -> list[Signal]:
        return self._publish(self.referee.tick(now), now)

    def take_back(self, now: int) -> list[Signal]:
        return self._publish(self.referee.take_back(now), now)

    def resign(self, side: Side, now: int) -> list[Signal]:
        return self._publish(self.referee.resign(side, now), now)

    def new_game(self, now: int) -> list[Signal]:
        return self._publish(self.referee.new_game(now), now)

    def choose_setup(self, *, now: int, starter: Side | None = None, lineup: str | None = None) -> list[Signal]:
        return self._publish(self.referee.choose_setup(now=now, starter=starter, lineup=lineup), now)

    def set_computers(self, sides: Iterable[Side], now: int) -> list[Signal]:
        return self._publish(self.referee.set_computers(sides, now), now)

    def play_computer_move(self, move: Move, now: int) -> list[Signal]:
        return self._publish(self.referee.play_computer_move(move, now), now)

    def answer(self, move: Move, now: int) -> list[Signal]:
        return self._publish(self.referee.answer(move, now), now)
