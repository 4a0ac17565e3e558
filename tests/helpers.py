"""Helpers for building positions in tests."""

from __future__ import annotations

from firmware_host.games.cuckoo.rules import Move, Piece, Position, Side


def setup(pieces: str, turn: str = "r") -> Position:
    """A hand-made position on the default nest: ``pieces`` is a list of a piece
    letter followed by its cell, such as ``"Cc1 We5 ed6"`` (red capitals, blue lower
    case); ``turn`` is ``r`` or ``b``."""
    placed = {token[1:]: Piece.from_letter(token[0]) for token in pieces.split()}
    assert len(placed) == len(pieces.split()), "a cell is used twice"
    return Position(placed, Side.from_text(turn))


def moves(position: Position, origin: str | None = None) -> set[str]:
    """The legal moves as text, only those from ``origin`` if given."""
    return {str(m) for m in position.legal_moves() if origin is None or m.origin == origin}


def play(position: Position, *texts: str) -> Position:
    for text in texts:
        position.push(Move.from_text(text))
    return position
