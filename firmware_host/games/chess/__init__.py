"""Chess behind the interface every game has (:class:`~firmware_host.games.base.Game`):
python-chess's rules (:mod:`.position`), the board and its lineups (:mod:`.board`),
moves, outcomes and the rules broken (:mod:`.moves`), the pictures (:mod:`.drawing`),
Stockfish as the computer (:mod:`.computer`) and PGN records (:mod:`.pgn`).

Red plays white, blue plays black (``docs/chess.md``).

>>> game = load(None)
>>> position = game.start("standard", Side.RED)
>>> game.read_position(position.to_text()).to_text() == position.to_text()
True
>>> game.outcome_words(game.outcome_from_record("blue", "checkmate"))
'checkmate: black wins'
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import chess

from firmware_host.errors import NotationError
from firmware_host.games.base import Move as BaseMove
from firmware_host.games.base import PageGame, Side
from firmware_host.games.base import Piece as BasePiece
from firmware_host.games.base_game import BaseGame
from firmware_host.games.chess.board import ChessBoard
from firmware_host.games.chess.computer import LEVELS, StockfishComputer
from firmware_host.games.chess.drawing import PAGE_DRAWINGS, board_svg, text_diagram
from firmware_host.games.chess.moves import WINS, Ending, Move, Outcome, Rule
from firmware_host.games.chess.pgn import PgnGame, PgnTags, read_pgn, write_pgn
from firmware_host.games.chess.pieces import COLOUR_OF_SIDE, Piece
from firmware_host.games.chess.position import ChessPosition

__all__ = [
    "ChessBoard",
    "ChessGame",
    "ChessPosition",
    "Move",
    "Outcome",
    "PgnGame",
    "PgnTags",
    "load",
    "read_pgn",
    "write_pgn",
]

NAME = "chess"

RULE_WORDS: Mapping[Hashable, str] = {  # the rule broken, in a few words for the OLED
    Rule.GAME_OVER: "the game is over",
    Rule.NO_PIECE: "no piece there",
    Rule.NOT_YOUR_TURN: "not your turn",
    Rule.OWN_PIECE: "own piece there",
    Rule.OUT_OF_REACH: "cannot go there",
    Rule.BLOCKED: "no jumping",
    Rule.KING_IN_CHECK: "king in check",
    Rule.CASTLING: "cannot castle",
    Rule.PROMOTION: "promote the pawn",
}
KINDS = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)
"""The kinds of piece, in their order in the box."""

HOW_TO_PLAY = (
    "Chess, refereed: white (red) moves first. Move a piece as you would on any board: lift it and put "
    "it down, or slide it along its line. The referee reads every move from the squares alone.",
    "Capture in either order: lift your piece first or the one you take, or push it off as you land. "
    "Castle with the king first, the rook first, or both in the hand. En passant: take the pawn beside "
    "your destination off before or after your pawn lands.",
    "A pawn reaching the last rank becomes a queen unless you answer the question otherwise "
    "(switch to another piece, then confirm) before your opponent moves.",
    "The game ends at checkmate, stalemate, too little material to mate, threefold repetition or the "
    "fifty-move rule (the referee ends those at once), on time, or when a side resigns.",
)


class ChessGame(BaseGame[ChessBoard, ChessPosition, Outcome]):
    """Chess on the 64-square board."""

    name = NAME
    title = "Chess"
    not_your_turn = Rule.NOT_YOUR_TURN
    RULE_WORDS = RULE_WORDS
    computer_levels = LEVELS

    # -- positions and moves ----------------------------------------------------------

    def start(self, lineup: str, turn: Side) -> ChessPosition:
        chess_board = chess.Board(self.board.lineup(lineup).fen)
        chess_board.turn = COLOUR_OF_SIDE[turn]
        if chess_board.ep_square is not None and not chess_board.has_legal_en_passant():
            chess_board.ep_square = None
        return ChessPosition(self.board, chess_board)

    def read_position(self, text: str) -> ChessPosition:
        """A position in FEN. Raises :class:`NotationError`."""
        return ChessPosition.from_fen(self.board, text)

    def read_move(self, text: str) -> Move:
        return Move.from_text(text)

    def move(self, origin: str, target: str, *, capture: bool) -> Move:
        """The move from ``origin`` to ``target``, no promotion named (a pawn reaching the
        last rank is asked for: :meth:`default_choice`)."""
        return Move(origin, target, None, capture)

    def default_choice(self, options: Sequence[BaseMove]) -> Move | None:
        """Of moves the switches cannot tell apart, a pawn's promotions: the queen, unless
        a player says otherwise (the referee asks)."""
        moves = [move for move in options if isinstance(move, Move)]
        if len(moves) != len(options) or len(moves) < 2 or any(move.promotion is None for move in moves):
            return None
        if len({(move.origin, move.target) for move in moves}) != 1:
            return None
        return next((move for move in moves if move.promotion == chess.QUEEN), None)

    def perft(self, position: ChessPosition, depth: int) -> int:
        """Perft as chess programs count it, on python-chess's own board (draws by
        repetition or the fifty-move rule do not stop it)."""
        return _perft(position.chess_board, depth)

    # -- outcomes ---------------------------------------------------------------------

    def outcome_record(self, outcome: Outcome) -> tuple[str, str | None]:
        return outcome.to_text(), None if outcome.ending is None else outcome.ending.value

    def outcome_from_record(self, result: str, how: str | None) -> Outcome:
        endings = {ending.value: ending for ending in Ending}
        if how is not None and how not in endings:
            raise NotationError(f"no chess ending {how!r}: the endings are {', '.join(endings)}")
        ending = None if how is None else endings[how]
        if result == "draw":
            if ending is None or ending in WINS:
                raise NotationError(f"a draw comes by one of {', '.join(e.value for e in Ending if e not in WINS)}")
            return Outcome(None, ending)
        if ending is not None and ending not in WINS:
            raise NotationError(f"{ending.value} is a draw, not a win of {result}")
        return Outcome(Side.from_text(result), ending)

    def outcome_words(self, outcome: Outcome) -> str:
        return outcome.words()

    def outcome_cell(self, position: ChessPosition, outcome: Outcome) -> str | None:
        """The mated king's square."""
        if outcome.ending is not Ending.CHECKMATE or outcome.winner is None:
            return None
        king = position.chess_board.king(COLOUR_OF_SIDE[outcome.winner.opponent])
        return None if king is None else chess.square_name(king)

    # -- the computer -----------------------------------------------------------------

    def computer(self, seed: int) -> StockfishComputer:
        return StockfishComputer(seed)

    # -- pictures and words -----------------------------------------------------------

    def legend(self) -> str:
        return "Pieces: K Q R B N P white king, queen, rook, bishop, knight, pawn; k q r b n p black."

    def diagram(self, position: ChessPosition) -> str:
        return text_diagram({cell: piece.letter for cell, piece in position.pieces().items()})

    def picture(self, pieces: Mapping[str, BasePiece] | None = None) -> str:
        return board_svg(self.board, pieces)

    def for_page(self) -> PageGame:
        return _page(self.board)

    # -- records ----------------------------------------------------------------------

    def to_pgn(self, position: ChessPosition, outcome: Outcome | None, tags: PgnTags = PgnTags()) -> str:  # noqa: B008
        """The game that led to ``position`` as PGN (:func:`~.pgn.write_pgn`)."""
        return write_pgn(position, outcome, tags)

    def from_pgn(self, text: str) -> tuple[ChessPosition, Outcome | None]:
        """The game of PGN ``text`` replayed by the rules, and its outcome (None if the
        result tag says unfinished; a win the board does not show is a resignation).
        Raises a :class:`~firmware_host.errors.NestrefError`."""
        read = read_pgn(text)
        position = self.read_position(read.start_fen)
        for move in read.moves:
            position.push(move)
        outcome = position.outcome()
        if outcome is None and read.result in ("1-0", "0-1"):
            outcome = Outcome(Side.RED if read.result == "1-0" else Side.BLUE, None)
        elif outcome is None and read.result == "1/2-1/2":
            raise NotationError("a draw by agreement is not a result nestref keeps")
        return position, outcome


def _perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    count = 0
    for move in board.legal_moves:
        board.push(move)
        count += _perft(board, depth - 1)
        board.pop()
    return count


@cache
def _page(board: ChessBoard) -> PageGame:
    cells = [
        {"name": cell, "x": board.coordinates(cell)[0], "y": board.coordinates(cell)[1], "home": None}
        for cell in board.cells
    ]
    pieces: dict[str, dict[str, Any]] = {}
    for side in Side:
        for order, kind in enumerate(KINDS):
            piece = Piece(side, kind)
            pieces[piece.letter] = {
                "side": side.label,
                "name": piece.name,
                "shape": piece.name,
                "drawing": PAGE_DRAWINGS[piece.name],
                "order": order,
            }
    return {
        "name": NAME,
        "title": ChessGame.title,
        "board": {
            "name": board.name,
            "shape": "square",
            "columns": board.columns,
            "rows": board.rows,
            "cells": cells,
            "lakes": [],
        },
        "pieces": pieces,
        "rules": list(HOW_TO_PLAY),
    }


def load(board: str | Path | None) -> ChessGame:
    """Chess on the board file ``board`` (None: the shipped ``square-8``). Raises
    :class:`~firmware_host.errors.BoardFileError`."""
    return ChessGame(ChessBoard.load(board) if board is not None else ChessBoard.default())
