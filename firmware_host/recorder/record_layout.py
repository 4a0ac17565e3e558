"""The game record's layout in SQLite: its version, the statements that make a new
record and bring an older one up to date, and the record's errors."""

from __future__ import annotations

import sqlite3
from enum import Enum

from firmware_host.errors import NestrefError

SCHEMA_VERSION = 5
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
    # 3 to 4: the game clock's state, written with every move, so that a restarted
    # daemon goes on with the times the players had.
    3: """
        ALTER TABLE games ADD COLUMN clock TEXT;
    """,
    # 4 to 5: a move made after the players asked for a hint is marked ({hint} in a
    # game record).
    4: """
        ALTER TABLE moves ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
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
    abandoned INTEGER NOT NULL DEFAULT 0,
    clock TEXT                        -- the game clock's snapshot (JSON) as of its last change; NULL: no clock
);
CREATE TABLE moves (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,             -- from 1
    move TEXT NOT NULL,               -- notation, such as c3-c4, d4xe5, pass
    position TEXT NOT NULL,           -- the position after it
    at INTEGER NOT NULL,              -- wall clock, ms since the epoch
    referee_ms INTEGER NOT NULL,      -- the referee's clock when it was accepted
    taken_back_at INTEGER,
    hinted INTEGER NOT NULL DEFAULT 0 -- 1: made after a hint
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


class StoreError(NestrefError, RuntimeError):
    """The game record cannot be used: not a nestref database, or another game's or
    board's."""


class StorageTrouble(Enum):
    """Why the game record cannot be used just now, in the words the nest's screen says
    it in (``cannot save games: locked``)."""

    LOCKED = "locked"  # another program holds the file (SQLite's BUSY, LOCKED)
    READ_ONLY = "read-only"  # the file, its folder or its disk cannot be written (READONLY, PERM)
    FULL = "disk full"  # FULL
    FAILED = "disk error"  # anything else: an I/O error, a file that cannot be opened

    @classmethod
    def of(cls, error: sqlite3.Error) -> StorageTrouble:
        """The trouble SQLite's ``error`` says, by its result code."""
        code = getattr(error, "sqlite_errorcode", None)
        primary = None if code is None else code & 0xFF  # an extended code's primary one
        if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return cls.LOCKED
        if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM):
            return cls.READ_ONLY
        if primary == sqlite3.SQLITE_FULL:
            return cls.FULL
        return cls.FAILED

    @property
    def explained(self) -> str:
        """The trouble in a sentence's words, for a message on a terminal or in the log."""
        return _EXPLAINED[self]


_EXPLAINED = {
    StorageTrouble.LOCKED: "it is locked by another program",
    StorageTrouble.READ_ONLY: "it is read-only (the file, its folder or its disk)",
    StorageTrouble.FULL: "the disk is full",
    StorageTrouble.FAILED: "the disk or the file failed",
}


class StorageUnavailableError(NestrefError, OSError):
    """The game record cannot be written just now: the disk is full, the file is locked
    or read-only (:attr:`trouble` says which). Nothing was written; trying again later
    may work."""

    def __init__(self, message: str, *, trouble: StorageTrouble = StorageTrouble.FAILED) -> None:
        super().__init__(message)
        self.trouble = trouble

    @classmethod
    def of(cls, path: str, doing: str, error: sqlite3.Error) -> StorageUnavailableError:
        """The error for SQLite's ``error`` met while ``doing`` (``cannot write the game
        record``) on the record at ``path``: what is wrong, then SQLite's words."""
        trouble = StorageTrouble.of(error)
        return cls(f"{path}: {doing}: {trouble.explained} ({error})", trouble=trouble)


class UnknownGameError(StoreError, LookupError):
    """No game of that id in the record."""


def statements(script: str) -> list[str]:
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
