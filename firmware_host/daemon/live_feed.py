"""The daemon's game as a live board (``[live] publish = true``): what the nest shows,
read from the daemon's snapshot in the loop's own thread, handed to a
:class:`~firmware_host.remote.live.LiveBoardPublisher`, which sends it from its own.

The feed takes a snapshot at the end of a turn of the loop in which a signal of the
referee was recorded (a move, a game's start or end, a take back: once the turn's
signals are all announced, so a burst is one snapshot; a move recorded late is
announced when it is recorded, so that too) and, while the game has a clock, once a
second besides (its time); the publisher sends only what changed, at most once per its
throttle. An idle nest without a clock takes no snapshot at all.

What it publishes is the public view of the recorded position
(:meth:`~firmware_host.games.base.Position.pieces`, which shows no hidden rank), never
the record's notation.
"""

from __future__ import annotations

import logging
import secrets
import socket
from pathlib import Path
from typing import Protocol

from firmware_host.daemon.config import Config
from firmware_host.daemon.presenter import View
from firmware_host.daemon.root import Daemon
from firmware_host.daemon.snapshot import Snapshot
from firmware_host.games.base import Game
from firmware_host.referee.signals import GameOver, GameStarted, Signal
from firmware_host.remote.live import LiveBoard

logger = logging.getLogger(__name__)

REFRESH_S = 1.0
BOARD_ID_FILE = "live-board-id"
"""Beside the record: the board's id, drawn once, so that a restarted nest replaces its
own retained board rather than adding a second."""


class BoardPublisher(Protocol):
    """What the feed hands boards to (:class:`~firmware_host.remote.live.LiveBoardPublisher`)."""

    board: str

    def show(self, board: LiveBoard) -> None: ...


def live_board(snapshot: Snapshot, game: Game, *, board: str, name: str, result: str | None) -> LiveBoard:
    """The board ``snapshot`` shows, as any spectator may see it."""
    shown = snapshot.game
    pieces: tuple[tuple[str, str], ...] = ()
    if shown.position is not None:
        public = shown.position.letters  # the public view: a hidden rank is not in it
        pieces = tuple((cell, public[cell]) for cell in game.board.cells if cell in public)
    if snapshot.view is View.OVER and result is None:
        result = shown.result  # (resumed from the record: no GameOver heard since)
    return LiveBoard(
        board=board,
        name=name,
        game=game.name,
        number=shown.number,
        pieces=pieces,
        to_move=shown.to_move,
        last_move=shown.moves[-1] if shown.moves else None,
        moves=len(shown.moves),
        score=shown.score,
        clock=shown.clock,
        result=result if snapshot.view is View.OVER else None,
    )


class LiveFeed:
    """Hands the daemon's game to ``publisher`` whenever it may have changed."""

    def __init__(self, daemon: Daemon, publisher: BoardPublisher, *, name: str, refresh_s: float = REFRESH_S) -> None:
        self.daemon = daemon
        self.publisher = publisher
        self.name = name
        self.refresh_s = refresh_s
        self._result: str | None = None  # the last game's, from its GameOver
        self._is_due = True  # a snapshot is to be taken at the end of the loop's turn (the first at once)
        self._has_clock = False  # the board shown last had a clock: refreshed every refresh_s
        self._refreshed_at = -float("inf")  # by the daemon's clock

    def start(self) -> None:
        """Listen to the daemon's signals and to the ends of its turns."""
        self.daemon.subscribe(self._heard)
        self.daemon.at_turn_end(self._turn_ended)

    def _heard(self, signal: Signal) -> None:
        if isinstance(signal, GameOver):
            self._result = signal.outcome.to_text()
        elif isinstance(signal, GameStarted):
            self._result = None
        self._is_due = True

    def _turn_ended(self) -> None:
        if self._is_due or (self._has_clock and self.daemon.clock() - self._refreshed_at >= self.refresh_s):
            self.refresh()

    def refresh(self) -> None:
        """Hand the board the nest shows now to the publisher (in the loop's thread)."""
        self._is_due = False
        self._refreshed_at = self.daemon.clock()
        try:
            board = live_board(
                self.daemon.snapshot(),
                self.daemon.config.game,
                board=self.publisher.board,
                name=self.name,
                result=self._result,
            )
        except Exception:  # the boundary: a bug here must not restart the referee (the loop would)
            logger.exception("the live board could not be made from the nest's snapshot")
            return
        self._has_clock = board.clock is not None
        self.publisher.show(board)


def board_name(config: Config) -> str:
    """The board's name on the live page: ``[live] name``, or the host name."""
    return config.live.name or socket.gethostname()[:40] or "nest"


def board_id(config: Config) -> str:
    """This nest's board id, kept beside its record (drawn on the first start); a record
    in memory gets a new one each run."""
    if config.database == ":memory:":
        return secrets.token_hex(8)
    path = Path(config.database).parent / BOARD_ID_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) == 16 and all(c in "0123456789abcdef" for c in text):
            return text
    except (OSError, UnicodeDecodeError):
        pass
    drawn = secrets.token_hex(8)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(drawn + "\n", encoding="ascii")
    except OSError as error:
        logger.warning("cannot keep the live board's id in %s (%s): a new one each start", path, error.strerror)
    return drawn
