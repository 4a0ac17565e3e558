"""The record of every game (SQLite, :mod:`firmware_host.recorder`) as the daemon holds
it: opened at start, closed at the end; whether moves can be recorded now (a full disk,
a locked file: said on the OLED's bottom line); the last game as the record has it, the
only game a screen shows as played; and the past games for the page's history."""

from __future__ import annotations

import logging
from pathlib import Path

from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import RecordShown
from firmware_host.games.base import Move
from firmware_host.recorder.store import GameStore, GameSummary, RecordedGame, StorageUnavailableError
from firmware_host.records import GameRecord
from firmware_host.referee.signals import Signal

logger = logging.getLogger(__name__)


class Record(Part):
    """The games' record, and what the nest shows of it."""

    name = "record"

    def __init__(self, host: Host) -> None:
        self.host = host
        self.store: GameStore | None = None
        self._recorded: RecordedGame | None = None  # the last game as read from the record
        self._is_stale = True  # something was recorded since it was read
        self._shown = RecordShown()

    def open(self) -> GameStore:
        """Open the record (its folder made). Raises :class:`StorageUnavailableError`."""
        config = self.host.config
        if config.database != ":memory:":
            folder = Path(config.database).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageUnavailableError(
                    f"{config.database}: cannot make the folder {folder}: {error.strerror}"
                ) from None
        self.store = GameStore(config.database, game=config.game, clock=self.host.wall_clock)
        return self.store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    def holds_game(self) -> bool:
        """Whether the record holds a game to resume."""
        saved = self.store.load() if self.store is not None else None
        return saved is not None and saved.position is not None

    def referee_started(self, occupied: object) -> None:
        self._is_stale = True

    def heard(self, signal: Signal) -> None:
        self._is_stale = True

    def turn(self, now: int) -> None:
        service = self.host.service
        if service is None or self.host.paused:
            return
        shown = RecordShown(service.storage_ok, service.storage_trouble.value)
        if shown != self._shown:
            self._shown = shown
            self.host.show()

    def status(self) -> RecordShown:
        return self._shown

    def recorded_game(self) -> RecordedGame | None:
        """The last game as the record has it. Read again only after something new was
        recorded; while the record cannot be read (another program holds it), what was
        read last, which is on disk too."""
        if self._is_stale and self.store is not None:
            try:
                self._recorded = self.store.last_game()
                self._is_stale = False
            except StorageUnavailableError as error:
                logger.debug("%s; the page shows the game as last read", error)
        return self._recorded

    def past_games(self) -> list[GameSummary]:
        """Every game in the record, oldest first. Raises :class:`StorageUnavailableError`."""
        return self.store.games() if self.store is not None else []

    def past_game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` of the record as a game record. Raises
        :class:`~firmware_host.recorder.store.UnknownGameError`,
        :class:`~firmware_host.recorder.store.StoreError` and
        :class:`StorageUnavailableError`."""
        if self.store is None:
            raise StorageUnavailableError("the game record is not open yet")
        return self.store.game_record(game_id)

    def waiting_moves(self) -> list[Move]:
        """The moves the referee accepted that wait to be recorded: shown as waiting."""
        service = self.host.service
        return service.waiting_moves() if service is not None else []
