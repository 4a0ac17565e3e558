"""The record of every set, game and move, in SQLite: nothing acknowledged is lost.

Each batch of signals the referee sends is written in one transaction, in WAL mode
with ``synchronous=FULL``: once :meth:`GameStore.record` returns, the moves survive a
crash or a power cut, and a process killed half-way leaves the previous state whole.
Moves taken back stay in the record, marked with when.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from firmware_host.errors import NestrefError
from firmware_host.referee.signals import GameAbandoned, GameOver, GameStarted, MoveAccepted, Signal, TakenBack
from firmware_host.rules import DRAW, GameSet, Move, Nest, Outcome, Position, Side, WinCondition

SCHEMA_VERSION = 1
"""The record's layout, kept in SQLite's ``user_version``: a database of an older
layout is brought up to date when opened (:data:`MIGRATIONS`), one a newer nestref
wrote is refused."""

MIGRATIONS: dict[int, str] = {}
"""The statements that take a record from the layout of each version to the next."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS sets (
    id INTEGER PRIMARY KEY,
    nest TEXT NOT NULL,
    lineup TEXT NOT NULL,
    first_starter TEXT NOT NULL,      -- 'red' or 'blue'
    started_at INTEGER NOT NULL       -- wall clock, ms since the epoch
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    set_id INTEGER NOT NULL REFERENCES sets(id),
    number INTEGER NOT NULL,          -- within the set, from 1
    lineup TEXT NOT NULL,
    starter TEXT NOT NULL,
    start_nfn TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    result TEXT,                      -- 'red', 'blue', 'draw'; NULL while played
    condition INTEGER,                -- 1-4; NULL for a draw or a resignation
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,             -- from 1
    move TEXT NOT NULL,               -- notation, such as c3-c4, d4xe5, pass
    nfn TEXT NOT NULL,                -- the position after it
    at INTEGER NOT NULL,              -- wall clock, ms since the epoch
    referee_ms INTEGER NOT NULL,      -- the referee's clock when it was accepted
    taken_back_at INTEGER
);
CREATE INDEX IF NOT EXISTS moves_of_game ON moves(game_id, id);
"""


_RECORDED = (GameStarted, MoveAccepted, TakenBack, GameOver, GameAbandoned)


class StoreError(NestrefError, RuntimeError):
    """The game record cannot be used: not a nestref database, or another nest's."""


class StorageUnavailableError(NestrefError, OSError):
    """The game record cannot be written just now: the disk is full, the file is locked
    or read-only. Nothing was written; trying again later may work."""


@dataclass(frozen=True)
class SavedSet:
    """Where the last set stands, as the database has it."""

    lineup: str
    games: GameSet | None  # the finished games of the set; None when a new set is due
    number: int  # of the game being played or to be set up next
    starter: Side | None  # of that game; None when a new set is due
    position: Position | None  # the game being played, with its moves; None between games


@dataclass(frozen=True)
class RecordedGame:
    """The last game as the database has it: what any screen may show as played."""

    number: int  # within its set, from 1
    moves: tuple[str, ...]  # the moves that stand (not taken back), oldest first
    nfn: str  # the position after them


class GameStore:
    """The SQLite record. ``path`` may be ``":memory:"`` for a record that lasts as long
    as the process (a replay)."""

    def __init__(self, path: str | Path, *, nest: Nest, clock: Callable[[], float], durable: bool = True) -> None:
        """Open or create the record at ``path``; ``clock`` gives the wall-clock time in
        seconds; ``durable`` False for a record thrown away afterwards (a replay: no
        waiting for the disk). Raises :class:`StoreError` if it is not a nestref
        database."""
        self.nest = nest
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
            raise StorageUnavailableError(f"{path}: cannot open the game record: {error}") from None
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{path}: not a nestref game record: {error}") from None

    def _migrate(self) -> None:
        """Create the record, or bring an older one up to :data:`SCHEMA_VERSION`, each
        step in a transaction of its own. Raises :class:`StoreError` for a record a newer
        nestref wrote."""
        db = self._db
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer nestref (record version {version}, this one knows"
                f" {SCHEMA_VERSION}): update nestref"
            )
        if version == 0:  # new, or written before records had versions: the first layout
            db.executescript(SCHEMA)
            version = 1
            db.execute(f"PRAGMA user_version = {version}")
        while version < SCHEMA_VERSION:
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        db.execute(statement)
                version += 1
                db.execute(f"PRAGMA user_version = {version}")
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

    def record(self, signals: Iterable[Signal], *, referee_ms: int) -> None:
        """Write what ``signals`` decided, all in one durable transaction."""
        writes = [signal for signal in signals if isinstance(signal, _RECORDED)]
        if not writes:
            return
        now = self._now()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            self._write(writes, now, referee_ms)
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:  # the disk is full, the file locked or read-only
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StorageUnavailableError(f"{self.path}: cannot write the game record: {error}") from None
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _write(self, writes: Iterable[Signal], now: int, referee_ms: int) -> None:
        """The statements for ``writes``, inside the caller's transaction."""
        db = self._db
        for signal in writes:
            if isinstance(signal, GameStarted):
                if signal.new_set:
                    db.execute(
                        "INSERT INTO sets (nest, lineup, first_starter, started_at) VALUES (?, ?, ?, ?)",
                        (self.nest.name, signal.lineup, signal.starter.label, now),
                    )
                db.execute(
                    "INSERT INTO games (set_id, number, lineup, starter, start_nfn, started_at)"
                    " VALUES ((SELECT max(id) FROM sets), ?, ?, ?, ?, ?)",
                    (signal.number, signal.lineup, signal.starter.label, signal.nfn, now),
                )
            elif isinstance(signal, MoveAccepted):
                db.execute(
                    "INSERT INTO moves (game_id, ply, move, nfn, at, referee_ms)"
                    " VALUES ((SELECT max(id) FROM games), ?, ?, ?, ?, ?)",
                    (signal.ply, str(signal.move), signal.nfn, now, referee_ms),
                )
            elif isinstance(signal, TakenBack):
                db.execute(
                    "UPDATE games SET ended_at = NULL, result = NULL, condition = NULL"
                    " WHERE id = (SELECT max(id) FROM games)"
                )
                db.execute(
                    "UPDATE moves SET taken_back_at = ? WHERE id = (SELECT max(id) FROM moves"
                    " WHERE game_id = (SELECT max(id) FROM games) AND taken_back_at IS NULL)",
                    (now,),
                )
            elif isinstance(signal, GameOver):
                outcome = signal.outcome
                db.execute(
                    "UPDATE games SET ended_at = ?, result = ?, condition = ? WHERE id = (SELECT max(id) FROM games)",
                    (now, outcome.to_text(), None if outcome.condition is None else int(outcome.condition)),
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
            game = self._db.execute("SELECT id, number, start_nfn FROM games ORDER BY id DESC LIMIT 1").fetchone()
            if game is None:
                return None
            game_id, number, start_nfn = game
            rows = self._db.execute(
                "SELECT move, nfn FROM moves WHERE game_id = ? AND taken_back_at IS NULL ORDER BY id", (game_id,)
            ).fetchall()
        except sqlite3.OperationalError as error:  # the file locked for reading, or gone
            raise StorageUnavailableError(f"{self.path}: cannot read the game record: {error}") from None
        return RecordedGame(number, tuple(move for move, _ in rows), rows[-1][1] if rows else start_nfn)

    def load(self) -> SavedSet | None:
        """Where the last set stands, or None if nothing was recorded yet. Raises
        :class:`StoreError` if it was played on another nest."""
        row = self._db.execute("SELECT id, nest, lineup, first_starter FROM sets ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        set_id, nest_name, lineup, first_starter = row
        if nest_name != self.nest.name:
            raise StoreError(f"the game record holds a set played on the nest {nest_name}, not {self.nest.name}")
        games = GameSet(first_starter=Side.from_text(first_starter))
        last = None
        for game in self._db.execute(
            "SELECT id, number, starter, start_nfn, result, condition, abandoned FROM games"
            " WHERE set_id = ? ORDER BY id",
            (set_id,),
        ):
            game_id, number, starter, start_nfn, result, condition, abandoned = game
            if result is not None and not abandoned:
                games = games.record(_outcome(result, condition))
            last = game
        if last is None:
            return SavedSet(lineup, games, 1, games.next_starter, None)
        game_id, number, starter, start_nfn, result, _, abandoned = last
        if abandoned:
            return SavedSet(lineup, games, number, Side.from_text(starter), None)
        if result is not None:
            if games.is_over():
                return SavedSet(lineup, None, 1, None, None)
            return SavedSet(lineup, games, number + 1, games.next_starter, None)
        position = Position.from_nfn(start_nfn, nest=self.nest)
        for move in self.moves(game_id):
            position.push(Move.from_text(move))
        return SavedSet(lineup, games, number, Side.from_text(starter), position)


def _outcome(result: str, condition: int | None) -> Outcome:
    if result == "draw":
        return DRAW
    return Outcome(Side.from_text(result), None if condition is None else WinCondition(condition))
