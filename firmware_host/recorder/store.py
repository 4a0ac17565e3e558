"""The record of every set, game and move, in SQLite: nothing acknowledged is lost.

Each batch of signals the referee sends is written in one transaction, in WAL mode
with ``synchronous=FULL``: once :meth:`GameStore.record` returns, the moves survive a
crash or a power cut, and a process killed half-way leaves the previous state whole.
Moves taken back stay in the record, marked with when.

The record's layout and its migrations are in ``record_layout.py``; the history read
and imported afterwards (:meth:`GameStore.games`, :meth:`GameStore.import_record`) in
``history.py``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, GameSet, Position, Side
from firmware_host.recorder.history import GameSummary, History
from firmware_host.recorder.record_layout import (
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    StorageTrouble,
    StorageUnavailableError,
    StoreError,
    UnknownGameError,
    statements,
)
from firmware_host.referee.signals import GameAbandoned, GameOver, GameStarted, MoveAccepted, Signal, TakenBack

__all__ = [
    "SCHEMA_VERSION",
    "GameStore",
    "GameSummary",
    "RecordedGame",
    "SavedSet",
    "StorageTrouble",
    "StorageUnavailableError",
    "StoreError",
    "UnknownGameError",
]


_RECORDED = (GameStarted, MoveAccepted, TakenBack, GameOver, GameAbandoned)


@dataclass(frozen=True)
class SavedSet:
    """Where the last set stands, as the database has it."""

    lineup: str
    games: GameSet | None  # the finished games of the set; None when a new set is due
    number: int  # of the game being played or to be set up next
    starter: Side | None  # of that game; None when a new set is due
    position: Position | None  # the game being played, with its moves; None between games
    clock: str | None = None  # that game's clock snapshot (JSON), if it is played with a clock


@dataclass(frozen=True)
class RecordedGame:
    """The last game as the database has it: what any screen may show as played."""

    number: int  # within its set, from 1
    moves: tuple[str, ...]  # the moves that stand (not taken back), oldest first
    position: str  # the position after them, in the game's notation


class GameStore(History):
    """The SQLite record. ``path`` may be ``":memory:"`` for a record that lasts as long
    as the process (a replay)."""

    def __init__(self, path: str | Path, *, game: Game, clock: Callable[[], float], durable: bool = True) -> None:
        """Open or create the record at ``path``; ``clock`` gives the wall-clock time in
        seconds; ``durable`` False for a record thrown away afterwards (a replay: no
        waiting for the disk). Raises :class:`StoreError` if it is not a nestref
        database."""
        self.game = game
        self._clock = clock
        self.path = str(path)
        try:
            # timeout: a writer holding the file (another nestref) delays a write this long
            # at most, then the write fails and is tried again later.
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=0.2)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError.of(str(path), "cannot open the game record", error) from None
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{path}: not a nestref game record: {error}") from None

    def _migrate(self) -> None:
        """Create the record, or bring an older one up to :data:`SCHEMA_VERSION`, in one
        transaction: a record is either brought all the way or left as it was. Raises
        :class:`StoreError` for a record a newer nestref wrote."""
        db = self._db
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version == SCHEMA_VERSION:  # nothing to change: no waiting for another program writing
            return
        db.execute("BEGIN IMMEDIATE")  # one process at a time looks and changes
        try:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: written by a newer nestref (record version {version}, this one knows"
                    f" {SCHEMA_VERSION}): update nestref"
                )
            scripts = [MIGRATIONS[step] for step in range(max(version, 1), SCHEMA_VERSION)]
            if version == 0:
                (tables,) = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
                if tables == 0:  # a new record; else one written before records had versions: layout 1
                    scripts = [SCHEMA]
            try:
                for script in scripts:
                    for statement in statements(script):
                        db.execute(statement)
            except sqlite3.OperationalError as error:  # a layout not the one its version says
                raise StoreError(f"{self.path}: cannot bring the record up to date: {error}") from None
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _now(self) -> int:
        return int(self._clock() * 1000)

    def record(
        self, signals: Iterable[Signal], *, positions: Sequence[str], referee_ms: int, clock: str | None = None
    ) -> None:
        """Write what ``signals`` decided, all in one durable transaction; ``positions``
        the record's notation of the position after each :class:`GameStarted` and
        :class:`MoveAccepted` among them, in order (the referee's
        :meth:`~firmware_host.referee.referee.Referee.recorded_positions`: the signals
        carry only the public view); with ``clock``, the game clock's snapshot after them
        (JSON) is kept with the game. Raises ValueError if ``positions`` do not match."""
        writes = [signal for signal in signals if isinstance(signal, _RECORDED)]
        wanted = sum(isinstance(signal, GameStarted | MoveAccepted) for signal in writes)
        if wanted != len(positions):
            raise ValueError(f"{len(positions)} positions for {wanted} games started and moves made")
        if not writes:
            return
        now = self._now()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            self._write(writes, iter(positions), now, referee_ms)
            if clock is not None:
                db.execute("UPDATE games SET clock = ? WHERE id = (SELECT max(id) FROM games)", (clock,))
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:  # the disk is full, the file locked or read-only
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StorageUnavailableError.of(self.path, "cannot write the game record", error) from None
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _write(self, writes: Iterable[Signal], positions: Iterator[str], now: int, referee_ms: int) -> None:
        """The statements for ``writes``, inside the caller's transaction."""
        db = self._db
        for signal in writes:
            if isinstance(signal, GameStarted):
                if signal.new_set:
                    db.execute(
                        "INSERT INTO sets (game, board, lineup, first_starter, started_at) VALUES (?, ?, ?, ?, ?)",
                        (self.game.name, self.game.board.name, signal.lineup, signal.starter.label, now),
                    )
                db.execute(
                    "INSERT INTO games (set_id, number, lineup, starter, start_position, started_at)"
                    " VALUES ((SELECT max(id) FROM sets), ?, ?, ?, ?, ?)",
                    (signal.number, signal.lineup, signal.starter.label, next(positions), now),
                )
            elif isinstance(signal, MoveAccepted):
                db.execute(
                    "INSERT INTO moves (game_id, ply, move, position, at, referee_ms, hinted)"
                    " VALUES ((SELECT max(id) FROM games), ?, ?, ?, ?, ?, ?)",
                    (signal.ply, str(signal.move), next(positions), now, referee_ms, int(signal.hinted)),
                )
            elif isinstance(signal, TakenBack):
                db.execute(
                    "UPDATE games SET ended_at = NULL, result = NULL, how = NULL WHERE id = (SELECT max(id) FROM games)"
                )
                db.execute(
                    "UPDATE moves SET taken_back_at = ? WHERE id = (SELECT max(id) FROM moves"
                    " WHERE game_id = (SELECT max(id) FROM games) AND taken_back_at IS NULL)",
                    (now,),
                )
            elif isinstance(signal, GameOver):
                result, how = self.game.outcome_record(signal.outcome)
                db.execute(
                    "UPDATE games SET ended_at = ?, result = ?, how = ? WHERE id = (SELECT max(id) FROM games)",
                    (now, result, how),
                )
            else:
                db.execute(
                    "UPDATE games SET abandoned = 1, ended_at = ? WHERE id = (SELECT max(id) FROM games)", (now,)
                )

    def moves(self, game_id: int | None = None) -> list[str]:
        """The moves of a game that stand (not taken back), in order; by default of the
        last game."""
        rows = self._db.execute(
            "SELECT move FROM moves WHERE game_id = coalesce(?, (SELECT max(id) FROM games))"
            " AND taken_back_at IS NULL ORDER BY id",
            (game_id,),
        )
        return [move for (move,) in rows]

    def last_game(self) -> RecordedGame | None:
        """The last game recorded, with the moves of it that stand; None before the
        first. Raises :class:`StorageUnavailableError` if the record cannot be read now."""
        try:
            game = self._db.execute(
                "SELECT id, number, start_position FROM games WHERE id >= 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if game is None:
                return None
            game_id, number, start = game
            rows = self._db.execute(
                "SELECT move, position FROM moves WHERE game_id = ? AND taken_back_at IS NULL ORDER BY id", (game_id,)
            ).fetchall()
        except sqlite3.OperationalError as error:  # the file locked for reading, or gone
            raise StorageUnavailableError.of(self.path, "cannot read the game record", error) from None
        return RecordedGame(number, tuple(move for move, _ in rows), rows[-1][1] if rows else start)

    def load(self) -> SavedSet | None:
        """Where the last set stands, or None if nothing was recorded yet. Raises
        :class:`StoreError` if it was played on another board or is another game's,
        or if it cannot be read."""
        row = self._db.execute(
            "SELECT id, game, board, lineup, first_starter FROM sets WHERE id >= 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        set_id, game_name, board_name, lineup, first_starter = row
        game = self.game
        if game_name != game.name:
            raise StoreError(f"{self.path}: the game record holds a set of {game_name}, not {game.name}")
        if board_name != game.board.name:
            raise StoreError(
                f"{self.path}: the game record holds a set played on the board {board_name}, not {game.board.name}"
            )
        try:
            return self._load_set(set_id, lineup, first_starter)
        except NestrefError as error:  # a record edited by hand, or written by a changed game
            raise StoreError(f"{self.path}: the last set cannot be read: {error}") from None

    def _load_set(self, set_id: int, lineup: str, first_starter: str) -> SavedSet:
        game = self.game
        games = GameSet(first_starter=Side.from_text(first_starter))
        last = None
        for row in self._db.execute(
            "SELECT id, number, starter, start_position, result, how, abandoned FROM games"
            " WHERE set_id = ? ORDER BY id",
            (set_id,),
        ):
            game_id, number, starter, start, result, how, abandoned = row
            if result is not None and not abandoned:
                games = games.record(game.outcome_from_record(result, None if how is None else str(how)))
            last = row
        if last is None:
            return SavedSet(lineup, games, 1, games.next_starter, None)
        game_id, number, starter, start, result, _, abandoned = last
        if abandoned:
            return SavedSet(lineup, games, number, Side.from_text(starter), None)
        if result is not None:
            if games.is_over():
                return SavedSet(lineup, None, 1, None, None)
            return SavedSet(lineup, games, number + 1, games.next_starter, None)
        position = game.read_position(start)
        for move in self.moves(game_id):
            position.push(game.read_move(move))
        (clock,) = self._db.execute("SELECT clock FROM games WHERE id = ?", (game_id,)).fetchone()
        return SavedSet(lineup, games, number, Side.from_text(starter), position, clock)
