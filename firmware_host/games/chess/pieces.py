"""The pieces of chess as nestref sees them: a side (red is white, blue is black) and a
kind, written by its FEN letter (``P`` a white pawn, ``n`` a black knight)."""

from __future__ import annotations

from dataclasses import dataclass

import chess

from firmware_host.games.base import Side

SIDE_OF_COLOUR = {chess.WHITE: Side.RED, chess.BLACK: Side.BLUE}
COLOUR_OF_SIDE = {Side.RED: chess.WHITE, Side.BLUE: chess.BLACK}
COLOUR_WORDS = {Side.RED: "white", Side.BLUE: "black"}
"""A side in chess's words: red plays white, blue plays black."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the board: its side and kind (python-chess's piece type, 1 a pawn to
    6 a king).

    >>> Piece(Side.BLUE, chess.KNIGHT).letter, Piece(Side.RED, chess.QUEEN).label
    ('n', 'white queen')
    """

    side: Side
    kind: chess.PieceType

    @property
    def letter(self) -> str:
        """Its FEN letter: upper case for white, lower case for black."""
        return chess.Piece(self.kind, COLOUR_OF_SIDE[self.side]).symbol()

    @property
    def name(self) -> str:
        """Its kind's name: ``pawn``, ``knight``, ..."""
        return chess.piece_name(self.kind)

    @property
    def label(self) -> str:
        return f"{COLOUR_WORDS[self.side]} {self.name}"

    @classmethod
    def of(cls, piece: chess.Piece) -> Piece:
        return cls(SIDE_OF_COLOUR[piece.color], piece.piece_type)


def pieces_of(board: chess.BaseBoard) -> dict[str, Piece]:
    """The pieces of a python-chess board, by square name, in reading order."""
    return {chess.square_name(square): Piece.of(piece) for square, piece in sorted(board.piece_map().items())}
