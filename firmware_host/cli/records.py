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
from typing import TextIO

from firmware_host.errors import NestrefError
from firmware_host.files import read_text, write_text
from firmware_host.records import read_records, write_records
from firmware_host.referee.history import result_words
from firmware_host.referee.store import GameStore, GameSummary


@contextlib.contextmanager
def _store(args: argparse.Namespace, *, create: bool) -> Iterator[GameStore]:
    """The record of ``--db`` or the config's, for the config's game; one that is not
    there is refused unless ``create``."""
    from firmware_host.daemon.config import load_config

    config = load_config(args.config, game=args.game, board=args.board)
    path = args.db if args.db is not None else config.database
    if not create and path != ":memory:" and not Path(path).is_file():
        raise NestrefError(f"{path}: no game record there (--db, or the config's [storage] database)")
    with GameStore(path, game=config.game, clock=time.time) as store:
        yield store


def run_games(args: argparse.Namespace, out: TextIO) -> None:
    with _store(args, create=False) as store:
        summaries = store.games()
        game = store.game
    rows = [("id", "date", "players", "result", "moves")]
    rows += [
        (str(each.id), _date(each), _players(each), result_words(game, each), str(each.moves)) for each in summaries
    ]
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
    with _store(args, create=False) as store:
        # --all: the games of this game on this board (another's need its --game, --board).
        mine = [each for each in store.games() if (each.game, each.board) == (store.game.name, store.game.board.name)]
        ids = [summary.id for summary in mine] if args.all else args.ids
        text = write_records((store.game_record(game_id) for game_id in ids), game=store.game)
    if args.output is not None:
        write_text(args.output, text)
    else:
        out.write(text)


def run_import(args: argparse.Namespace, out: TextIO) -> None:
    text = read_text(args.file, "game record")
    with _store(args, create=True) as store:
        records = read_records(text, game=store.game, source=args.file)
        added = [store.import_record(record) for record in records]
    new = [game_id for game_id in added if game_id is not None]
    ids = f": {', '.join(map(str, new))}" if new else ""
    print(f"{len(new)} of {len(records)} games imported ({len(records) - len(new)} there already){ids}", file=out)
