"""The page's history: the games of the record, one replayed move by move, and its
game record to download, over three read-only routes (docs/simulator.md, "History").

- ``GET /history/games``: every game, newest first, as JSON (date, players, result,
  moves), from :meth:`~firmware_host.daemon.Daemon.past_games`;
- ``GET /history/games/{id}``: one game for the replay: its moves that stand and the
  pieces on every cell after each of them (the page draws them as it draws the nest);
- ``GET /history/games/{id}/record``: its game record, exactly what ``nestref export
  ID`` writes, as a file to save (``Content-Disposition``).

The id in the address is checked before anything is looked up; a refusal says what is
wrong in words and never names a file of this machine (the record's path is logged).
Nothing here writes: the routes are GETs, and the daemon's record is only read.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from firmware_host.daemon import Daemon
from firmware_host.errors import NestrefError
from firmware_host.games.base import Position
from firmware_host.recorder.history import GameSummary, result_words
from firmware_host.recorder.store import StorageUnavailableError, UnknownGameError
from firmware_host.records import GameRecord, write_records

logger = logging.getLogger(__name__)

MAX_ID_DIGITS = 12  # far more games than a nest will ever record
_GAME_ID = re.compile(rf"-?[0-9]{{1,{MAX_ID_DIGITS}}}")
MAX_SHOWN_CHARS = 20  # of a bad id, quoted back


def add_history_routes(app: web.Application, daemon: Daemon) -> None:
    """Serve ``daemon``'s history on ``app`` (read-only)."""
    history = _HistoryRoutes(daemon)
    app.router.add_get("/history/games", history.games)
    app.router.add_get("/history/games/{id}", history.game)
    app.router.add_get("/history/games/{id}/record", history.record)


def game_id_from_text(text: str) -> int:
    """The game id in an address. Raises ``web.HTTPBadRequest`` saying what is wrong.

    >>> game_id_from_text("12"), game_id_from_text("-3")
    (12, -3)
    """
    if not _GAME_ID.fullmatch(text):
        shown = text[:MAX_SHOWN_CHARS].encode("unicode_escape").decode("ascii")
        raise web.HTTPBadRequest(
            text=f"the game id {shown!r} is not a whole number of up to {MAX_ID_DIGITS} digits"
            " (the ids are in /history/games)\n"
        )
    return int(text)


def summary_for_page(daemon: Daemon, summary: GameSummary) -> dict[str, Any]:
    """One game of the list, as the page shows it (``nestref games``'s columns)."""
    started = datetime.fromtimestamp(summary.started_at / 1000, UTC)
    return {
        "id": summary.id,
        "date": started.strftime("%Y-%m-%d %H:%M"),
        "number": summary.number,
        "lineup": summary.lineup,
        "players": {"red": summary.red, "blue": summary.blue},
        "result": result_words(daemon.config.game, summary),
        "moves": summary.moves,
        "imported": summary.id < 0,
    }


class _HistoryRoutes:
    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon

    async def games(self, request: web.Request) -> web.StreamResponse:
        game = self.daemon.config.game
        try:
            summaries = self.daemon.past_games()
        except StorageUnavailableError as error:
            logger.warning("the history cannot be read: %s", error)
            raise web.HTTPServiceUnavailable(text="the game record cannot be read now: try again\n") from None
        mine = [each for each in summaries if (each.game, each.board) == (game.name, game.board.name)]
        return web.json_response({"games": [summary_for_page(self.daemon, each) for each in reversed(mine)]})

    async def game(self, request: web.Request) -> web.StreamResponse:
        game_id = game_id_from_text(request.match_info["id"])
        record = self._record(game_id)
        game = self.daemon.config.game
        position = game.read_position(record.start_position)
        positions = [_cells(position)]
        for move in record.moves:
            position.push(game.read_move(move), lenient=record.lenient)
            positions.append(_cells(position))
        return web.json_response(
            {
                "id": game_id,
                "number": record.number,
                "lineup": record.lineup,
                "date": record.date.strftime("%Y-%m-%d %H:%M"),
                "players": {"red": record.tag("Red", "") or None, "blue": record.tag("Blue", "") or None},
                "result": record.result,
                "termination": record.termination,
                "moves": list(record.moves),
                "positions": positions,
            }
        )

    async def record(self, request: web.Request) -> web.StreamResponse:
        game_id = game_id_from_text(request.match_info["id"])
        text = write_records([self._record(game_id)], game=self.daemon.config.game)
        return web.Response(
            text=text,
            content_type="text/plain",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="nestref-game-{game_id}.txt"'},
        )

    def _record(self, game_id: int) -> GameRecord:
        try:
            return self.daemon.past_game(game_id)
        except UnknownGameError:
            raise web.HTTPNotFound(text=f"no game {game_id} in the record (the ids are in /history/games)\n") from None
        except StorageUnavailableError as error:
            logger.warning("the history cannot be read: %s", error)
            raise web.HTTPServiceUnavailable(text="the game record cannot be read now: try again\n") from None
        except NestrefError as error:  # another game's, or a record edited by hand: the log has why
            logger.warning("game %d cannot be shown: %s", game_id, error)
            raise web.HTTPUnprocessableEntity(text=f"game {game_id} cannot be read as a game record\n") from None


def _cells(position: Position) -> dict[str, str]:
    return {cell: piece.letter for cell, piece in position.pieces().items()}
