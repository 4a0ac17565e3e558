"""The history in the game record: every game listed, one read back as a game record,
a record file's games imported (``docs/game-records.md``). A part of
:class:`~firmware_host.recorder.store.GameStore`, kept apart: what the referee writes as
it plays is in ``store.py``, what is read or imported afterwards here.

Games imported from a record file are kept with ids below zero, the referee's own from
zero up: the referee resumes the newest set of its own and writes to the newest game, so
an imported game is never taken for either.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game
from firmware_host.recorder.record_layout import StorageUnavailableError, StoreError, UnknownGameError
from firmware_host.records import (
    ABANDONED,
    AGREED,
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


def result_words(game: Game, summary: GameSummary) -> str:
    """The result in words, as lists of games show it: ``blue: cuckoo captured (2)``,
    ``red: on time``, ``playing``, ``abandoned``."""
    if summary.is_abandoned:
        return "abandoned"
    if summary.result is None:
        return "playing"
    if summary.result != "draw" and summary.how == "time":
        return f"{summary.result}: on time"
    if summary.game != game.name:
        return summary.result if summary.how is None else f"{summary.result}: {summary.how}"
    try:
        words = game.outcome_words(game.outcome_from_record(summary.result, summary.how))
    except NestrefError:  # a game the record keeps in words this nestref does not know
        words = summary.how or ""
    return f"{summary.result}: {words}"


class History:
    """The history's reads and imports, on the record's connection."""

    game: Game
    path: str
    _db: sqlite3.Connection

    if TYPE_CHECKING:  # the store's own

        def moves(self, game_id: int | None = None) -> list[str]: ...

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
            raise StorageUnavailableError.of(self.path, "cannot read the game record", error) from None
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
                "SELECT move, at, taken_back_at, hinted FROM moves WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
            tags = self._db.execute(
                "SELECT name, value FROM tags WHERE game_id = ? ORDER BY rowid", (game_id,)
            ).fetchall()
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError.of(self.path, "cannot read the game record", error) from None
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

        def where(_: int | None) -> str:
            return f"game {game_id}"

        try:
            try:
                check_record(record, self.game, where=where)
            except NestrefError:  # a move only a lenient referee lets stand, maybe: replayed again only then
                if not is_lenient(self.game, start, events):
                    raise
                record = replace(record, lenient=True)
                check_record(record, self.game, where=where)
        except NestrefError as error:  # another game's, or a record edited by hand
            raise StoreError(f"{self.path}: game {game_id} cannot be read as a record: {error}") from None
        return record

    def import_record(self, record: GameRecord) -> int | None:
        """Store the game ``record`` unless it is there already: :meth:`import_records`
        of that one game; its new id (below zero), or None if it was there."""
        (game_id,) = self.import_records([record])
        return game_id

    def import_records(self, records: Sequence[GameRecord]) -> list[int | None]:
        """Store the games ``records`` but those there already (the same game, board,
        start, second of starting, moves and result), all in one transaction: every
        one or, if the record cannot be written, none. Returns, for each, its new id
        (below zero) or None if it was there. A game's moves are timed a millisecond
        apart from its start, keeping their order and their take backs; its tags are
        kept, its comments are not.

        Raises :class:`~firmware_host.records.RecordError` if a record breaks this
        store's game's rules, and :class:`StorageUnavailableError` (nothing stored, the
        record as it was) if it cannot be written."""
        for record in records:
            check_record(record, self.game)
        db = self._db
        try:
            # The rules' work (a position after every move) is done before the
            # transaction, into a table of this connection's own (SQLite's temporary
            # database: no lock on the record, and a file rather than Python's memory):
            # while the transaction lasts, the nest's own moves wait to be written.
            db.execute(f"DROP TABLE IF EXISTS temp.{_STAGED}")
            db.execute(
                f"CREATE TEMP TABLE {_STAGED} (record INTEGER, n INTEGER, ply INTEGER, move TEXT, position TEXT,"
                " at INTEGER, taken_back_at INTEGER, hinted INTEGER, PRIMARY KEY (record, n))"
            )
            for index, record in enumerate(records):
                rows = _move_rows(self.game, record)
                db.executemany(
                    f"INSERT INTO temp.{_STAGED} VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(index, n, *row) for n, row in enumerate(rows)],
                )
            db.execute("BEGIN IMMEDIATE")
            try:
                game_ids = [
                    None if self._has(record) else self._insert(index, record) for index, record in enumerate(records)
                ]
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                    db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as error:
            games = "the game" if len(records) == 1 else f"the {len(records)} games"
            doing = f"nothing imported, the record is as it was: {games} cannot be written"
            raise StorageUnavailableError.of(self.path, doing, error) from None
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute(f"DROP TABLE IF EXISTS temp.{_STAGED}")
        return game_ids

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

    def _insert(self, index: int, record: GameRecord) -> int:
        """Write ``record``, the ``index``-th of those staged, as a set of its own, below
        every id there is."""
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
        first = below("moves", sum(isinstance(event, Played) for event in record.events))
        db.execute(
            "INSERT INTO moves (id, game_id, ply, move, position, at, taken_back_at, referee_ms, hinted)"
            f" SELECT ? + n, ?, ply, move, position, at, taken_back_at, 0, hinted FROM temp.{_STAGED}"
            " WHERE record = ? ORDER BY n",
            (first, game_id, index),
        )
        return game_id


_STAGED = "staged_moves"
"""The temporary table of the moves of the records being imported, made before the
import's transaction (:meth:`History.import_records`)."""


_MoveRow = tuple[int, str, str, int, int | None, int]
"""A move as the record keeps it: its ply, the move, the position after it, when it was
played and taken back (None: it stands), whether it was hinted (1) or not (0)."""


def _move_rows(game: Game, record: GameRecord) -> list[_MoveRow]:
    """The moves of ``record`` as rows of the record, in the order played, timed a
    millisecond apart from its start."""
    position = game.read_position(record.start_position)
    played: list[tuple[int, str, str, int, int]] = []  # ply, move, position, when, hinted
    taken_back: dict[int, int] = {}  # of a move played (its index in played): when
    standing: list[int] = []  # the moves that stand (their indexes in played)
    for at, event in enumerate(record.events, start=record.started_at * 1000 + 1):
        if isinstance(event, Played):
            position.push(game.read_move(event.move), lenient=record.lenient)
            standing.append(len(played))
            played.append((len(position.move_stack), event.move, position.to_text(), at, int(event.hinted)))
        elif isinstance(event, TakeBack):
            position.pop()
            taken_back[standing.pop()] = at
    return [
        (ply, move, text, at, taken_back.get(index), hinted)
        for index, (ply, move, text, at, hinted) in enumerate(played)
    ]


def _events(moves: list[tuple[str, int, int | None, int]]) -> tuple[Event, ...]:
    """The moves played and taken back, in the order they happened, from the moves in
    the order played with when each was taken back: a move is taken back before the
    next is played if it was taken back by then (a take back pops the last move that
    stands, so no other order fits)."""
    events: list[Event] = []
    taken_back: list[int | None] = []  # of the moves that stand so far
    for move, at, taken_back_at, hinted in moves:
        while taken_back and taken_back[-1] is not None and taken_back[-1] <= at:
            events.append(TakeBack())
            taken_back.pop()
        events.append(Played(move, hinted=bool(hinted)))
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
        return AGREED if how == AGREED else DRAW
    return RESIGNATION if how is None else how


def _stored_outcome(record: GameRecord) -> tuple[str | None, str | None, bool]:
    """How the store keeps the end of ``record``: its result, how (None for a draw or
    a resignation; ``time`` for a loss on time) and whether it was abandoned."""
    if record.result == "*":
        return None, None, record.termination == ABANDONED
    if record.termination in (DRAW, RESIGNATION):
        return record.result, None, False
    return record.result, record.termination, False
