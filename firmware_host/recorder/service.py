"""The referee at work: record what it decides, then announce it.

:class:`RefereeService` wraps the pure :class:`Referee` with the :class:`GameStore`:
every batch of signals is committed to the database before any of it is passed on, so
a move the players have been told about is a move on disk. The daemon and the replay
command both use it.

With a time control it keeps the game clock too (:mod:`firmware_host.clocks`): switched
by every move accepted, its snapshot written in the same transaction as the move, a flag
fall ending the game as a loss on time, and resumed from the record after a restart
(both clocks stopped while the nest is checked against the game resumed).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections import deque
from collections.abc import Callable, Iterable

from firmware_host.clocks import ClockError, GameClock, TimeControl
from firmware_host.games.base import Game, Move, Position, Side
from firmware_host.recorder.store import GameStore, StorageTrouble, StorageUnavailableError
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.signals import (
    Corrected,
    CorrectionCause,
    CorrectionNeeded,
    GameAbandoned,
    GameOver,
    GameStarted,
    MoveAccepted,
    Signal,
    TakenBack,
)

Announce = Callable[[Signal], None]

logger = logging.getLogger(__name__)

RETRY_MS = 1000  # while the record cannot be written, it is tried again this often


class RefereeService:
    """Feeds a referee, records its decisions, announces them."""

    def __init__(
        self, referee: Referee, *, store: GameStore, announce: Announce, control: TimeControl | None = None
    ) -> None:
        self.referee = referee
        self.store = store
        self.announce = announce
        self.storage_ok = True
        """False while the record cannot be written (a full disk): nothing more is
        announced until it can, so nothing announced is ever missing from the record."""
        self.storage_trouble = StorageTrouble.FAILED  # while it cannot: why (locked, read-only, full)
        self.control = control
        self.clock: GameClock | None = None
        """The game clock of the game being played, if it is played with one."""
        self._flag_told = False  # the game clock's flag fall was made a loss on time
        self._low_time_told: frozenset[Side] = frozenset()  # the sides warned of low time this game
        self._hinted: tuple[Move, ...] | None = None  # the moves before the position a hint was shown in
        # Batches to record, then announce: the signals, the referee's time, the clock's
        # snapshot after them, and the record's positions (Referee.recorded_positions).
        self._pending: deque[tuple[list[Signal], int, str | None, tuple[str, ...]]] = deque()
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
        control: TimeControl | None = None,
    ) -> RefereeService:
        """Resume what the store holds (unless ``resume`` is False); or else begin a new
        set from ``position`` if given (the nest is taken to show it), or wait for the
        nest to be set up. ``control``: each new game is played with a clock of it (a
        game resumed goes on with the clock it was played with, if any)."""
        saved = store.load() if resume else None
        referee = Referee(game, settings=settings, lineup=saved.lineup if saved else lineup, occupied=occupied, now=now)
        service = cls(referee, store=store, announce=announce, control=control)
        if saved is not None and saved.position is not None and saved.clock is not None:
            try:
                service.clock = GameClock.from_snapshot(json.loads(saved.clock), now)
                service._low_time_told = service.clock.low_sides(now)  # warned before the restart
            except (ValueError, ClockError) as error:  # a record edited by hand: play on without
                logger.error("%s: the game clock cannot be read (%s); the game goes on without it", store.path, error)
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

    def hint_shown(self, history: tuple[Move, ...]) -> None:
        """A hint was shown in the position after ``history``: the move made there is
        marked as made after a hint (``MoveAccepted.hinted``, in the record)."""
        self._hinted = history

    def _marked(self, signals: list[Signal]) -> list[Signal]:
        """``signals`` with the move made after a hint marked; a take back or a new game
        first drops the mark (the hint was for another position)."""
        marked: list[Signal] = []
        for signal in signals:
            if isinstance(signal, (TakenBack, GameStarted)):
                self._hinted = None
            elif isinstance(signal, MoveAccepted) and self._hinted is not None:
                if signal.ply == len(self._hinted) + 1:
                    signal = dataclasses.replace(signal, hinted=True)
                self._hinted = None
            marked.append(signal)
        return marked

    def _publish(self, signals: list[Signal], now: int, positions: tuple[str, ...] | None = None) -> list[Signal]:
        """Record, then announce, ``signals``, the last call's of the referee (with the
        record's ``positions`` of its games started and moves made, the referee's own by
        default)."""
        if signals:
            signals = self._marked(signals)
            clock = self._time(signals, now)
            recorded = self.referee.recorded_positions() if positions is None else positions
            self._pending.append((signals, now, clock, recorded))
        if self._pending and (self.storage_ok or now >= self._retry_at):
            self.flush(now)
        return signals

    def _time(self, signals: list[Signal], now: int) -> str | None:
        """Move the game clock on by ``signals``; its snapshot after them, to be written
        with them (None if they change nothing of it)."""
        before = self.clock
        for signal in signals:
            if isinstance(signal, GameStarted):
                control = self.control
                self.clock = None if control is None else GameClock.new(control, first=signal.starter)
                self._flag_told = False
                self._low_time_told = frozenset()
            elif self.clock is None:
                continue
            elif isinstance(signal, MoveAccepted):
                try:
                    self.clock = self.clock.move_accepted(signal.side, now)
                except ClockError as error:  # cannot be, but a clock never stops a game
                    logger.error("the game clock is off (%s); the game goes on without it", error)
                    self.clock = None
            elif isinstance(signal, TakenBack):
                self.clock = self.clock.taken_back(now)
            elif isinstance(signal, (GameOver, GameAbandoned)):
                self.clock = self.clock.stop(now)
            elif isinstance(signal, CorrectionNeeded) and signal.cause is CorrectionCause.RESUMED:
                self.clock = self.clock.pause(now)  # no player's doing: the daemon restarted
            elif isinstance(signal, Corrected):
                self.clock = self.clock.resume(now)
        if self.clock is None or self.clock is before:
            return None
        return json.dumps(self.clock.snapshot(now))

    def next_deadline(self, now: int) -> int | None:
        """When :meth:`tick` next has something to do, or None if only a change or a
        command can move things on: the referee's own deadline, the record's next try
        while moves wait for it, and, while a clock runs, now (its time on the screens
        changes every second, and it may fall)."""
        if self.clock is not None and self.clock.running is not None:
            return now
        times = (self.referee.next_deadline(), self._retry_at if self._pending else None)
        return min((time for time in times if time is not None), default=None)

    def clock_display(self, now: int) -> tuple[str, str] | None:
        """Red's and blue's time as the screens show them, if the game has a clock."""
        return None if self.clock is None else self.clock.display(max(now, self.clock.since_ms))

    def flush(self, now: int) -> bool:
        """Record, then announce, what waits, in order; False if the record cannot be
        written now. It is tried again ``RETRY_MS`` later (not at every scan: a locked
        file makes each try wait)."""
        while self._pending:
            signals, at, clock, positions = self._pending[0]
            try:
                self.store.record(signals, positions=positions, referee_ms=at, clock=clock)
            except StorageUnavailableError as error:
                (logger.error if self.storage_ok else logger.debug)("%s; moves wait to be recorded", error)
                self.storage_ok, self.storage_trouble = False, error.trouble
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
        return [signal.move for signals, *_ in self._pending for signal in signals if isinstance(signal, MoveAccepted)]

    def sense(self, cell: str, occupied: bool, now: int) -> list[Signal]:
        return self._publish(self.referee.sense(cell, occupied, now), now)

    def tick(self, now: int) -> list[Signal]:
        signals = self.referee.tick(now)
        positions = self.referee.recorded_positions()
        flagged = None if self.clock is None or self._flag_told else self.clock.flagged(now)
        if flagged is not None:
            self._flag_told = True
            signals += self.referee.flag_fell(flagged, now)
            positions += self.referee.recorded_positions()
        return self._publish(signals, now, positions)

    def low_time(self, now: int) -> Side | None:
        """The side to warn of low time now, once per side per game (the daemon sounds
        the low-time cue): see :meth:`GameClock.low_time_side`."""
        if self.clock is None:
            return None
        side = self.clock.low_time_side(now, warned=self._low_time_told)
        if side is not None:
            self._low_time_told |= {side}
        return side

    def take_back(self, now: int) -> list[Signal]:
        return self._publish(self.referee.take_back(now), now)

    def resign(self, side: Side, now: int) -> list[Signal]:
        return self._publish(self.referee.resign(side, now), now)

    def flag_fell(self, side: Side, now: int) -> list[Signal]:
        """``side`` lost on time by another clock's word (at a distance: the other nest's)."""
        self._flag_told = True
        return self._publish(self.referee.flag_fell(side, now), now)

    def agree_draw(self, now: int) -> list[Signal]:
        return self._publish(self.referee.agree_draw(now), now)

    def new_game(self, now: int) -> list[Signal]:
        return self._publish(self.referee.new_game(now), now)

    def give_setup(self, setup: object, now: int) -> list[Signal]:
        """A side's own set-up from its player's screen (:meth:`Referee.give_setup`)."""
        return self._publish(self.referee.give_setup(setup, now), now)

    def guide_setup(self, side: Side, now: int) -> list[Signal]:
        """``side`` places its pieces one at a time (:meth:`Referee.guide_setup`)."""
        return self._publish(self.referee.guide_setup(side, now), now)

    def check_setup(self, side: Side, now: int, *, seed: int | None = None) -> list[Signal]:
        """``side``'s pieces are checked before the game (:meth:`Referee.check_setup`)."""
        return self._publish(self.referee.check_setup(side, now, seed=seed), now)

    def clear_setup(self, side: Side, now: int) -> list[Signal]:
        """``side``'s set-up is withdrawn (:meth:`Referee.clear_setup`)."""
        return self._publish(self.referee.clear_setup(side, now), now)

    def choose_setup(self, *, now: int, starter: Side | None = None, lineup: str | None = None) -> list[Signal]:
        return self._publish(self.referee.choose_setup(now=now, starter=starter, lineup=lineup), now)

    def set_computers(self, sides: Iterable[Side], now: int) -> list[Signal]:
        return self._publish(self.referee.set_computers(sides, now), now)

    def play_computer_move(self, move: Move, now: int) -> list[Signal]:
        return self._publish(self.referee.play_computer_move(move, now), now)

    def answer(self, move: Move, now: int) -> list[Signal]:
        return self._publish(self.referee.answer(move, now), now)
