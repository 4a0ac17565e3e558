"""Games as PGN (Portable Game Notation), the chess world's record: the moves in SAN and
the seven standard tags, written and read by python-chess (``chess.pgn``), so that any
chess program reads what nestref writes.

>>> from firmware_host.games.chess.board import ChessBoard
>>> position = ChessPosition.from_fen(ChessBoard.default(), chess.STARTING_FEN)
>>> for text in ("f2f3", "e7e5", "g2g4", "d8h4"):
...     _ = position.push(Move.from_text(text))
>>> pgn = write_pgn(position, position.outcome(), PgnTags(white="Ann", black="Bob", date="2026.12.02"))
>>> print(pgn.splitlines()[-1])
1. f3 e5 2. g4 Qh4# 0-1
>>> [move.to_text() for move in read_pgn(pgn).moves]
['f2f3', 'e7e5', 'g2g4', 'd8h4']
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import chess
import chess.pgn

from firmware_host.errors import NotationError
from firmware_host.games.base import Side
from firmware_host.games.chess.moves import Ending, Move, Outcome
from firmware_host.games.chess.position import ChessPosition

RESULTS = {Side.RED: "1-0", Side.BLUE: "0-1", None: "1/2-1/2"}
UNFINISHED = "*"
TERMINATION_TAG = {Ending.TIME: "time forfeit"}
"""PGN's ``Termination`` tag for an ending other than normal (mate, a draw, resigning)."""


@dataclass(frozen=True)
class PgnTags:
    """The standard tags a record does not know by itself (``?`` where unknown)."""

    event: str = "Casual game on a nestref board"
    site: str = "?"
    date: str = "????.??.??"
    round: str = "?"
    white: str = "?"
    black: str = "?"


@dataclass(frozen=True)
class PgnGame:
    """A game read from PGN: its start (FEN), its moves, its result tag and its tags."""

    start_fen: str
    moves: tuple[Move, ...]
    result: str
    headers: dict[str, str]


def write_pgn(position: ChessPosition, outcome: Outcome | None, tags: PgnTags = PgnTags()) -> str:
    """The game that led to ``position`` (from the position its moves began in) as PGN
    text, ending as ``outcome`` (None: unfinished)."""
    game = chess.pgn.Game.from_board(position.chess_board)
    result = UNFINISHED if outcome is None else RESULTS[outcome.winner]
    game.headers.update(
        Event=tags.event, Site=tags.site, Date=tags.date, Round=tags.round, White=tags.white, Black=tags.black
    )
    game.headers["Result"] = result
    if outcome is not None and outcome.ending in TERMINATION_TAG:
        game.headers["Termination"] = TERMINATION_TAG[outcome.ending]
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    return game.accept(exporter) + "\n"


def read_pgn(text: str) -> PgnGame:
    """The first game of PGN ``text``. Raises :class:`NotationError` for text holding no
    game, or a move python-chess could not read."""
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise NotationError("no game in the PGN text")
    if game.errors:
        raise NotationError(f"cannot read the PGN: {game.errors[0]}")
    board = game.board()
    start_fen = board.fen()
    moves = []
    for move in game.mainline_moves():
        moves.append(Move.of(move, is_capture=board.is_capture(move)))
        board.push(move)
    return PgnGame(start_fen, tuple(moves), game.headers.get("Result", UNFINISHED), dict(game.headers))
