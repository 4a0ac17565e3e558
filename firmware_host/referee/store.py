"""The record of every set, game and move, in SQLite: nothing acknowledged is lost.

Each batch of signals the referee sends is written in one transaction, in WAL mode
with ``synchronous=FULL``: once :meth:`GameStore.record` returns, the moves survive a
crash or a power cut, and a process killed half-way leaves the previous state whole.
Moves taken back stay in the record, marked with when.

Games imported from a record file (:meth:`GameStore.import_record`) are kept with ids
below zero, the referee's own from zero up: the referee resumes the newest set of its
own and writes to the newest game, so an imported game is never taken for either.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, GameSet, Position, Side
from firmware_host.records import (
    ABANDONED,
    DRAW,
    RESIGNATION,
    UNTERMINATED,
    Event,
    GameRecord,
    Played,
    TakeBack,
    check_record,
    is_lenient,
)
from firmware_host.referee.signals import GameAbandoned, GameOver, GameStarted, MoveAccepted, Signal, TakenBack

SCHEMA_VERSION = 3
"""The record's layout, kept in SQLite's ``user_version``: a database of an older
layout is brought up to date when opened (:data:`MIGRATIONS`), one a newer nestref
wrote is refused."""

MIGRATIONS: dict[int, str] = {
    # 1 to 2: the record names the game; positions and how a game was won are kept in
    # the game's own words, not Operation Cuckoo's (NFN, condition 1-4).
    1: """
        ALTER TABLE sets ADD COLUMN game TEXT NOT NULL DEFAULT 'cuckoo';
        ALTER TABLE sets RENAME COLUMN nest TO board;
        ALTER TABLE games RENAME COLUMN start_nfn TO start_position;
        ALTER TABLE games RENAME COLUMN condition TO how;
        ALTER TABLE moves RENAME COLUMN nfn TO position;
    """,
    # 2 to 3: the tags of a game imported from a record file (who played it, where),
    # kept so that it is listed and exported with them.
    2: """
        CREATE TABLE tags (
            game_id INTEGER NOT NULL REFERENCES games(id),
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (game_id, name)
        );
    """,
}
"""The statements that take a record from the layout of each version to the next."""

SCHEMA = """
CREATE TABLE sets (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,              -- the board's name, from its board file
    lineup TEXT NOT NULL,
    first_starter TEXT NOT NULL,      -- 'red' or 'blue'
    started_at INTEGER NOT NULL,      -- wall clock, ms since the epoch
    game TEXT NOT NULL                -- the game's name, such as 'cuckoo'
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    set_id INTEGER NOT NULL REFERENCES sets(id),
    number INTEGER NOT NULL,          -- within the set, from 1
    lineup TEXT NOT NULL,
    starter TEXT NOT NULL,
    start_position TEXT NOT NULL,     -- in the game's notation
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    result TEXT,                      -- 'red', 'blue', 'draw'; NULL while played
    how TEXT,                         -- how it was won, in the game's words; NULL for a resignation
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE moves (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,             -- from 1
    move TEXT NOT NULL,               -- notation, such as c3-c4, d4xe5, pass
    position TEXT NOT NULL,           -- the position after it
    at INTEGER NOT NULL,              -- wall clock, ms since the epoch
    referee_ms INTEGER NOT NULL,      -- the referee's clock when it was accepted
    taken_back_at INTEGER
);
CREATE INDEX moves_of_game ON moves(game_id, id);
CREATE TABLE tags (
    game_id INTEGER NOT NULL REFERENCES games(id),
    name TEXT NOT NULL,               -- a record file's tag: Event, Site, Red, Blue, TimeControl...
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, name)       -- in the order of the file (rowid)
);
"""
"""The layout of :data:`SCHEMA_VERSION`, for a new record."""


_RECORDED = (GameStarted, MoveAccepted, TakenBack, GameOver, GameAbandoned)


class StoreError(NestrefError, RuntimeError):
    """The game record cannot be used: not a nestref database, or another game's or
    board's."""


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
    position: str  # the position after them, in the game's notation


@dataclass(frozen=True)
class GameSummary:
    """One game of the record, as a list of games shows it."""

    id: int  # below zero: imported from a record file
    started_at: int  # wall clock, ms since the epoch
    game: str
    board: str
    number: int  # within its set, from 1
    lineup: str
    result: str | None  # 'red', 'blue', 'draw'; None while played or abandoned
    how: str | None  # how it was won, in the game's words
    is_abandoned: bool
    moves: int  # that stand
    red: str | None  # the players, if the record knows them (from an imported record's tags)
    blue: str | None


class UnknownGameError(StoreError, LookupError):
    """No game of that id in the record."""


class GameStore:
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
            raise StorageUnavailableError(f"{path}: cannot open the game record: {error}") from None
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{path}: not a nestref game record: {error}") from None

    def _migrate(self) -> None:
        """Create the record, or bring an older one up to :data:`SCHEMA_VERSION`, in one
        transaction: a record is either brought all the way or left as it was. Raises
        :class:`StoreError` for a record a newer nestref wrote."""
        db = self._db
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
                    for statement in _statements(script):
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
                        "INSERT INTO sets (game, board, lineup, first_starter, started_at) VALUES (?, ?, ?, ?, ?)",
                        (self.game.name, self.game.board.name, signal.lineup, signal.starter.label, now),
                    )
                db.execute(
                    "INSERT INTO games (set_id, number, lineup, starter, start_position, started_at)"
                    " VALUES ((SELECT max(id) FROM sets), ?, ?, ?, ?, ?)",
                    (signal.number, signal.lineup, signal.starter.label, signal.position, now),
                )
            elif isinstance(signal, MoveAccepted):
                db.execute(
                    "INSERT INTO moves (game_id, ply, move, position, at, referee_ms)"
                    " VALUES ((SELECT max(id) FROM games), ?, ?, ?, ?, ?)",
                    (signal.ply, str(signal.move), signal.position, now, referee_ms),
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
            raise StorageUnavailableError(f"{self.path}: cannot read the game record: {error}") from None
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
        return SavedSet(lineup, games, number, Side.from_text(starter), position)

    # -- the history: reading games, importing records -------------------------------------

    def games(self) -> list[GameSummary]:
        """Every game in the record, oldest first. Raises
        :class:`StorageUnavailableError` if the record cannot be read now."""
        try:
            rows = self._db.execute(
                "SELECT g.id, g.started_at, s.game, s.board, g.number, g.lineup, g.result, g.how, g.abandoned,"
                " (SELECT count(*) FROM moves m WHERE m.game_id = g.id AND m.taken_back_at IS NULL),"
                " (SELECT value FROM tags t WHERE t.game_id = g.id AND t.name = 'Red'),"
                " (SELECT value FROM tags t WHERE t.game_id = g.id AND t.name = 'Blue')"
                " FROM games g JOIN sets s ON s.id = g.set_id ORDER BY g.started_at, g.id"
            ).fetchall()
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError(f"{self.path}: cannot read the game record: {error}") from None
        return [
            GameSummary(id_, at, game, board, number, lineup, result, how, bool(abandoned), moves, red, blue)
            for id_, at, game, board, number, lineup, result, how, abandoned, moves, red, blue in rows
        ]

    def game_record(self, game_id: int) -> GameRecord:
        """The game ``game_id`` as a record: its tags (those of the record it was
        imported from, if it was) and every move, those taken back too. Raises
        :class:`UnknownGameError`, :class:`StoreError` for a game of another game or
        board than this store's or one its moves do not replay, and
        :class:`StorageUnavailableError`."""
        try:
            row = self._db.execute(
                "SELECT s.game, s.board, g.number, g.lineup, g.start_position, g.started_at, g.result, g.how,"
                " g.abandoned FROM games g JOIN sets s ON s.id = g.set_id WHERE g.id = ?",
                (game_id,),
            ).fetchone()
            moves = self._db.execute(
                "SELECT move, at, taken_back_at FROM moves WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
            tags = self._db.execute(
                "SELECT name, value FROM tags WHERE game_id = ? ORDER BY rowid", (game_id,)
            ).fetchall()
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError(f"{self.path}: cannot read the game record: {error}") from None
        if row is None:
            raise UnknownGameError(f"{self.path}: no game {game_id} in the record (nestref games lists them)")
        game_name, board, number, lineup, start, started_at, result, how, abandoned = row
        if (game_name, board) != (self.game.name, self.game.board.name):
            raise StoreError(
                f"{self.path}: game {game_id} is one of {game_name} on the board {board}, not of"
                f" {self.game.name} on {self.game.board.name} (--game, --board)"
            )
        events = _events(moves)
        record = GameRecord(
            game=game_name,
            board=board,
            lineup=lineup,
            start_position=start,
            started_at=started_at // 1000,
            result="*" if result is None or abandoned else result,
            termination=_termination(result, how, bool(abandoned)),
            events=events,
            number=number,
            tags=tuple(tags),
        )
        try:
            if is_lenient(self.game, start, events):
                record = replace(record, lenient=True)
            check_record(record, self.game, where=lambda _: f"game {game_id}")
        except NestrefError as error:  # another game's, or a record edited by hand
            raise StoreError(f"{self.path}: game {game_id} cannot be read as a record: {error}") from None
        return record

    def import_record(self, record: GameRecord) -> int | None:
        """Store the game ``record`` unless it is there already (the same game, board,
        start, second of starting, moves and result); returns its new id (below zero),
        or None if it was there. Its moves are timed a millisecond apart from its
        start, keeping their order and their take backs; its tags are kept, its comments
        are not.

        Raises :class:`~firmware_host.records.RecordError` if the record breaks this
        store's game's rules, :class:`StorageUnavailableError` if it cannot be written."""
        check_record(record, self.game)
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                game_id = None if self._has(record) else self._insert(record)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError(f"{self.path}: cannot write the game record: {error}") from None
        return game_id

    def _has(self, record: GameRecord) -> bool:
        rows = self._db.execute(
            "SELECT g.id, g.result, g.abandoned FROM games g JOIN sets s ON s.id = g.set_id"
            " WHERE s.game = ? AND s.board = ? AND g.start_position = ? AND g.started_at / 1000 = ?",
            (record.game, record.board, record.start_position, record.started_at),
        ).fetchall()
        result = None if record.result == "*" else record.result
        return any(
            (None if abandoned else stored) == result and tuple(self.moves(game_id)) == record.moves
            for game_id, stored, abandoned in rows
        )

    def _insert(self, record: GameRecord) -> int:
        """Write ``record`` as a set of its own, below every id there is."""
        db = self._db

        def below(table: str, count: int) -> int:
            (lowest,) = db.execute(f"SELECT min(0, coalesce(min(id), 0)) FROM {table}").fetchone()
            return int(lowest) - count

        start_ms = record.started_at * 1000
        set_id, game_id = below("sets", 1), below("games", 1)
        starter = self.game.read_position(record.start_position).turn
        db.execute(
            "INSERT INTO sets (id, game, board, lineup, first_starter, started_at) VALUES (?, ?, ?, ?, ?, ?)",
            (set_id, record.game, record.board, record.lineup, starter.label, start_ms),
        )
        result, how, abandoned = _stored_outcome(record)
        ended = None if result is None and not abandoned else start_ms + len(record.events) + 1
        db.execute(
            "INSERT INTO games (id, set_id, number, lineup, starter, start_position, started_at, ended_at, result,"
            " how, abandoned) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                set_id,
                record.number,
                record.lineup,
                starter.label,
                record.start_position,
                start_ms,
                ended,
                result,
                how,
                int(abandoned),
            ),
        )
        db.executemany(
            "INSERT INTO tags (game_id, name, value) VALUES (?, ?, ?)",
            [(game_id, name, value) for name, value in record.tags],
        )
        position = self.game.read_position(record.start_position)
        played = [event for event in record.events if isinstance(event, Played)]
        next_id = below("moves", len(played))
        standing: list[int] = []  # the ids of the moves that stand
        for at, event in enumerate(record.events, start=start_ms + 1):
            if isinstance(event, Played):
                position.push(self.game.read_move(event.move), lenient=record.lenient)
                db.execute(
                    "INSERT INTO moves (id, game_id, ply, move, position, at, referee_ms) VALUES (?, ?, ?, ?, ?, ?, 0)",
                    (next_id, game_id, len(position.move_stack), event.move, position.to_text(), at),
                )
                standing.append(next_id)
                next_id += 1
            elif isinstance(event, TakeBack):
                position.pop()
                db.execute("UPDATE moves SET taken_back_at = ? WHERE id = ?", (at, standing.pop()))
        return game_id


def _events(moves: list[tuple[str, int, int | None]]) -> tuple[Event, ...]:
    """The moves played and taken back, in the order they happened, from the moves in
    the order played with when each was taken back: a move is taken back before the
    next is played if it was taken back by then (a take back pops the last move that
    stands, so no other order fits)."""
    events: list[Event] = []
    taken_back: list[int | None] = []  # of the moves that stand so far
    for move, at, taken_back_at in moves:
        while taken_back and taken_back[-1] is not None and taken_back[-1] <= at:
            events.append(TakeBack())
            taken_back.pop()
        events.append(Played(move))
        taken_back.append(taken_back_at)
    while taken_back and taken_back[-1] is not None:
        events.append(TakeBack())
        taken_back.pop()
    return tuple(events)


def _termination(result: str | None, how: str | None, abandoned: bool) -> str:
    """How the record file says a game the store keeps as ``result``, ``how`` ended."""
    if abandoned:
        return ABANDONED
    if result is None:
        return UNTERMINATED
    if result == "draw":
        return DRAW
    return RESIGNATION if how is None else how


def _stored_outcome(record: GameRecord) -> tuple[str | None, str | None, bool]:
    """How the store keeps the end of ``record``: its result, how (None for a draw or
    a resignation; ``time`` for a loss on time) and whether it was abandoned."""
    if record.result == "*":
        return None, None, record.termination == ABANDONED
    if record.termination in (DRAW, RESIGNATION):
        return record.result, None, False
    return record.result, record.termination, False


def _statements(script: str) -> list[str]:
    """The statements of an SQL script, split at the semicolons that end one (not those
    in a comment)."""
    statements, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                statements.append(pending)
            pending = ""
    return statements
