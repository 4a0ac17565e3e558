"""The history: ``nestref games`` lists the games in the record, ``nestref export``
writes them as game records (docs/game-records.md), ``nestref import`` checks a record
file's games with the rules and stores those not there yet. Each reads ``--db`` (default:
the config's ``[storage] database``) for the config's game and board (``--game``,
``--board``)."""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from firmware_host.errors import NestrefError
from firmware_host.files import printable, reason, write_text
from firmware_host.recorder.history import result_words
from firmware_host.recorder.store import GameStore, GameSummary
from firmware_host.records import MAX_FILE_BYTES, read_records, write_records

if TYPE_CHECKING:
    from firmware_host.daemon.config import Config


def _config(args: argparse.Namespace) -> Config:
    from firmware_host.daemon.config import load_config

    return load_config(args.config, game=args.game, board=args.board)


@contextlib.contextmanager
def _store(args: argparse.Namespace, config: Config | None = None, *, create: bool = False) -> Iterator[GameStore]:
    """The record of ``--db`` or the config's, for the config's game; one that is not
    there is refused unless ``create``."""
    config = _config(args) if config is None else config
    path = args.db if args.db is not None else config.database
    if not create and path != ":memory:" and not Path(path).is_file():
        raise NestrefError(f"{path}: no game record there (--db, or the config's [storage] database)")
    with GameStore(path, game=config.game, clock=time.time) as store:
        yield store


def run_games(args: argparse.Namespace, out: TextIO) -> None:
    with _store(args) as store:
        summaries = store.games()
        game = store.game
    rows = [("id", "date", "players", "result", "moves")]
    rows += [
        (str(each.id), _date(each), printable(_players(each)), printable(result_words(game, each)), str(each.moves))
        for each in summaries
    ]  # the players and a result's words as an imported record (or another program) left them: made printable
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        cells = [
            cell.rjust(width) if column in (0, 4) else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=out)
    if not summaries:
        print("(no games yet)", file=out)


def _players(summary: GameSummary) -> str:
    return f"{summary.red or '?'} - {summary.blue or '?'}"


def _date(summary: GameSummary) -> str:
    return datetime.fromtimestamp(summary.started_at / 1000, UTC).strftime("%Y-%m-%d %H:%M")


def run_export(args: argparse.Namespace, out: TextIO) -> None:
    if args.all == bool(args.ids):
        raise NestrefError("export: name the games to export (their ids, from nestref games) or --all, not both")
    with _store(args) as store:
        # --all: the games of this game on this board (another's need its --game, --board).
        mine = [each for each in store.games() if (each.game, each.board) == (store.game.name, store.game.board.name)]
        ids = [summary.id for summary in mine] if args.all else args.ids
        text = write_records((store.game_record(game_id) for game_id in ids), game=store.game)
    if args.output is not None:
        write_text(args.output, text)
    else:
        out.write(text)


def run_import(args: argparse.Namespace, out: TextIO) -> None:
    config = _config(args)
    records = read_records(record_text(args.file), game=config.game, source=args.file)
    # The record is opened only now: of a file refused, nothing is written, not even a new record.
    with _store(args, config, create=True) as store:
        added = store.import_records(records)
    new = [game_id for game_id in added if game_id is not None]
    ids = f": {', '.join(map(str, new))}" if new else ""
    print(f"{len(new)} of {len(records)} games imported ({len(records) - len(new)} there already){ids}", file=out)


def record_text(path: str) -> str:
    """The text of the record file at ``path``. Raises :class:`NestrefError` naming the
    file and the line for one that cannot be read, is not UTF-8, or holds more than
    :data:`~firmware_host.records.MAX_FILE_BYTES` (read no further: memory stays
    bounded whatever the file, a pipe or a device too)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise NestrefError(f"{path}: cannot read the game record: {reason(error)}") from None
    if len(data) > MAX_FILE_BYTES:
        line = data.count(b"\n", 0, MAX_FILE_BYTES) + 1
        raise NestrefError(
            f"{path}:{line}: the file goes on past {MAX_FILE_BYTES // 2**20} MiB, the most a record file may hold:"
            " split it into smaller files"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise NestrefError(
            f"{path}:{line}: cannot read the game record: it is not UTF-8 text ({error.reason})"
        ) from None
