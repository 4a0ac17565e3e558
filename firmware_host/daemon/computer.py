"""The computer opponent at the nest: the engine chooses in a thread of its own, so the
daemon's loop goes on scanning the switches and answering the buttons meanwhile.

The daemon asks for a move whenever the referee wants one (:meth:`ComputerPlayer.want`)
and hears back through ``deliver``, which it runs in its own loop. A search that is no
longer wanted (a take back, a new game, a person taking over) is stopped and its move
dropped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from firmware_host.errors import NestrefError
from firmware_host.games.base import ComputerChoice, Game, Move, Position

logger = logging.getLogger(__name__)

Deliver = Callable[[tuple[Move, ...], ComputerChoice], None]
"""Told the moves of the position searched and the engine's choice, from the search's
thread: it must hand them to the daemon's loop (``Daemon.post``)."""


class UnknownLevelError(NestrefError, ValueError):
    """There is no level of that number; the message names the valid range."""


def check_level(game: Game, number: int) -> int:
    """``number``, if ``game``'s computer has a level of that number. Raises
    :class:`UnknownLevelError` naming the valid range."""
    levels = game.computer_levels
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(levels):
        raise UnknownLevelError(
            f"there is no level {number!r}: the levels are 1 ({levels[0].name}) to {len(levels)} ({levels[-1].name})"
        )
    return number


class ComputerPlayer:
    """Chooses the computer's moves at one level, one search at a time."""

    def __init__(
        self, game: Game, *, level_number: int, seed: int, clock: Callable[[], float], deliver: Deliver
    ) -> None:
        self.game = game
        self.level = check_level(game, level_number)
        self.seed = seed
        self._computer = game.computer(seed)
        self._clock = clock
        self._deliver = deliver
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
        self._searching: tuple[Move, ...] | None = None  # the moves of the position being searched
        self._stop = threading.Event()

    def set_level(self, number: int) -> None:
        """Play at level ``number`` from the next search on. Raises
        :class:`UnknownLevelError`."""
        self.level = check_level(self.game, number)

    def want(self, position: Position | None) -> None:
        """The referee wants the computer's move in ``position`` (None: no move is wanted
        now). A search starts unless one for that very position runs already; a search
        for another position is stopped."""
        if position is None:
            self.cancel()
            return
        history = position.move_stack
        if history == self._searching:
            return
        self.cancel()
        self._searching = history
        self._stop = stop = threading.Event()
        future = self._executor.submit(self._choose, position.copy(), stop)
        future.add_done_callback(lambda done: self._done(history, stop, done))
        logger.info("the computer is choosing", extra={"fields": {"level": self.level, "ply": len(history)}})

    def cancel(self) -> None:
        """Stop the search under way, if any; its move is dropped."""
        self._stop.set()
        self._searching = None

    def close(self) -> None:
        """Stop searching and wait for the thread to end (a search stops within a few
        thousand nodes)."""
        self.cancel()
        self._executor.shutdown(wait=True)

    def _choose(self, position: Position, stop: threading.Event) -> ComputerChoice:
        return self._computer.choose(position, self.level, clock=self._clock, should_stop=stop.is_set)

    def _done(self, history: tuple[Move, ...], stop: threading.Event, done: Future[ComputerChoice]) -> None:
        if done.cancelled() or stop.is_set():  # stopped early: its move is not the level's
            return
        error = done.exception()
        if error is not None:  # a bug in the engine: the players can still move by hand
            logger.error("the computer could not choose a move", exc_info=error)
            return
        self._deliver(history, done.result())

    def is_searching_for(self, history: tuple[Move, ...]) -> bool:
        """Whether the search for the position after ``history`` is the one wanted."""
        return self._searching == history

    def delivered(self) -> None:
        """The daemon took the move: the next want starts a new search."""
        self._searching = None
