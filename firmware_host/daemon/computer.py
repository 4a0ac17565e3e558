"""The computer opponent at the nest: the engine chooses in a process of its own, so
the daemon's loop goes on scanning the switches and answering the buttons meanwhile,
on another core and without sharing the interpreter's lock with the search.

The daemon asks for a move whenever the referee wants one (:meth:`ComputerPlayer.want`)
and hears back through ``deliver``, which it runs in its own loop. A search that is no
longer wanted (a take back, a new game, a person taking over) is stopped and its move
dropped.

The process is started once (with ``spawn``: a fresh interpreter that imports only the
game and its engine, not the daemon's libraries) and reused for every search. It times
its search by its own monotonic clock: a clock cannot cross a process, and the engine's
limits are in real seconds anyway. If it dies (a crash, the out-of-memory killer), the
failure is logged and the players go on by hand; the next position wanted starts a new
one.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import ComputerChoice, Game, Move, Position

logger = logging.getLogger(__name__)

Deliver = Callable[[tuple[Move, ...], ComputerChoice], None]
"""Told the moves of the position searched and the engine's choice, from the thread
that listens to the computer's process: it must hand them to the daemon's loop
(``Daemon.post``)."""

CLOSE_WAIT_S = 5.0  # how long close() waits for the process to end before it is killed
NO_SEARCH = 0  # the shared "search wanted" number when none is
SEARCH_NICENESS = 10  # added to the computer's process's niceness (lower priority than the loop's)


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


def serve_searches(game: Game, seed: int, requests: Connection, wanted: Any) -> None:
    """The computer's process: choose a move for each request ``(number, position,
    level)`` received (for a game of hidden pieces, the side to move's view in place of
    the position), and send back ``(number, choice, None)``, or ``(number, None,
    traceback)`` if the engine failed; a search stops as soon as ``wanted.value`` (shared
    memory the daemon writes) is no longer its number. Ends when the daemon sends None
    or closes its end."""
    # The daemon stops this process itself (close()); a Ctrl-C or systemd's SIGTERM to
    # the whole group must not kill it in the middle of a reply.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # Where the search and the loop want the same core (a busy Pi, or one with fewer
    # free cores than that), the loop's scan goes first.
    os.nice(SEARCH_NICENESS)
    computer = game.computer(seed)
    while True:
        try:
            request = requests.recv()
        except EOFError:
            return
        if request is None:
            return
        number, position, level = request
        if wanted.value != number:
            continue  # no longer wanted before it began

        def should_stop(number: int = number) -> bool:
            return bool(wanted.value != number)

        try:
            choice = computer.choose(position, level, clock=time.monotonic, should_stop=should_stop)
        except Exception:
            requests.send((number, None, traceback.format_exc()))
        else:
            requests.send((number, choice, None))


class ComputerPlayer:
    """Chooses the computer's moves at one level, one search at a time, in a process of
    its own (started by :meth:`start`, or by the first :meth:`want`)."""

    def __init__(self, game: Game, *, level_number: int, seed: int, deliver: Deliver) -> None:
        self.game = game
        self.level = check_level(game, level_number)
        self.seed = seed
        self._deliver = deliver
        self._context = multiprocessing.get_context("spawn")
        # The number of the search wanted now (NO_SEARCH: none), in memory both
        # processes see: the search polls it, so a stop needs no message.
        self._wanted = self._context.RawValue("q", NO_SEARCH)
        self._number = NO_SEARCH  # the last search's number
        self._searching: tuple[Move, ...] | None = None  # the moves of the position being searched
        self._process: BaseProcess | None = None
        self._connection: Connection | None = None
        self._listener: threading.Thread | None = None
        self._closing = False

    @property
    def pid(self) -> int | None:
        """The computer's process, while it runs."""
        process = self._process
        return process.pid if process is not None and process.is_alive() else None

    def start(self) -> None:
        """Start the computer's process now, if it is not running, so that the first
        search does not wait for it (on a Pi Zero 2 W it takes a few seconds to start).
        Returns at once: the process imports the engine meanwhile."""
        if self._process is not None and self._process.is_alive():
            return
        if self._connection is not None:  # the one that died: its listener has said so
            self._connection.close()
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=serve_searches,
            args=(self.game, self.seed, theirs, self._wanted),
            name="nestref-computer",
            daemon=True,  # never outlives the daemon, even if the daemon is killed
        )
        process.start()
        theirs.close()
        self._process, self._connection = process, ours
        self._listener = threading.Thread(
            target=self._listen, args=(process, ours), name="computer-listener", daemon=True
        )
        self._listener.start()
        logger.debug("the computer's process started", extra={"fields": {"pid": process.pid}})

    def set_level(self, number: int) -> None:
        """Play at level ``number`` from the next search on. Raises
        :class:`UnknownLevelError`."""
        self.level = check_level(self.game, number)

    def want(self, position: Position | None) -> None:
        """The referee wants the computer's move in ``position`` (None: no move is wanted
        now). A search starts unless one for that very position runs already; a search
        for another position is stopped."""
        if position is None:
            if self._searching is not None:
                self.cancel()
            return
        history = position.move_stack
        if history == self._searching:
            return
        self.cancel()
        self._searching = history  # wanted now, whatever comes of it: not asked again each turn
        try:
            self.start()
        except OSError as error:  # no process to be had (out of memory, no pipes left)
            logger.error("the computer cannot start: %s; the players can move by hand", error)
            return
        self._number += 1
        self._wanted.value = self._number
        assert self._connection is not None
        # A game of hidden pieces: the process is handed the side to move's own view,
        # never the referee's position with every rank in it.
        hidden = self.game.hidden
        searched = hidden.computer_input(position) if hidden is not None else position
        try:
            self._connection.send((self._number, searched, self.level))
        except OSError as error:  # it died since: the listener reports it
            logger.debug("the computer's process cannot be asked: %s", error)
            return
        logger.info("the computer is choosing", extra={"fields": {"level": self.level, "ply": len(history)}})

    def cancel(self) -> None:
        """Stop the search under way, if any; its move is dropped."""
        self._wanted.value = NO_SEARCH
        self._searching = None

    def close(self) -> None:
        """Stop searching and end the process (a search stops within a few thousand
        nodes); killed if it has not ended within ``CLOSE_WAIT_S``."""
        self.cancel()
        self._closing = True
        process, connection = self._process, self._connection
        if process is None or connection is None:
            return
        with contextlib.suppress(OSError):  # it may have ended already
            connection.send(None)
        process.join(CLOSE_WAIT_S)
        if process.is_alive():
            logger.warning("the computer's process did not end; it is killed")
            process.kill()
            process.join()
        # The listener first: the process has ended, so its read ends (EOF); closing the
        # connection under a read still under way would fail in the read instead.
        if self._listener is not None:
            self._listener.join(CLOSE_WAIT_S)
        connection.close()
        process.close()
        self._process = self._connection = self._listener = None

    def _listen(self, process: BaseProcess, connection: Connection) -> None:
        """In a thread that only waits on the pipe: hand each wanted choice to the daemon;
        report the process's end if it was not asked to end."""
        while True:
            try:
                number, choice, failure = connection.recv()
            except (EOFError, OSError):
                break
            history = self._searching
            if number != self._wanted.value or history is None:
                continue  # stopped early: its move is not the level's
            if failure is not None:  # a bug in the engine: the players can still move by hand
                logger.error("the computer could not choose a move:\n%s", failure.rstrip())
                continue
            self._deliver(history, choice)
        if not self._closing:
            process.join(CLOSE_WAIT_S)
            logger.error(
                "the computer's process ended (exit code %s); the players can move by hand,"
                " and the next position wanted starts it again",
                process.exitcode,
            )

    def is_searching_for(self, history: tuple[Move, ...]) -> bool:
        """Whether the search for the position after ``history`` is the one wanted."""
        return self._searching == history

    def delivered(self) -> None:
        """The daemon took the move: the next want starts a new search."""
        self._searching = None
