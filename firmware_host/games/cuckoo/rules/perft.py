"""Perft: counting the move paths of a given length, to check and time the engine
(``docs/rules.md`` §7)."""

from __future__ import annotations

from firmware_host.games.cuckoo.rules.moves import Move
from firmware_host.games.cuckoo.rules.position import Position


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position``; a pass counts
    as a move and a finished game has none. Every move is made and taken back, the
    last ply included, so this also times making moves; ``position`` ends unchanged.

    >>> perft(Position.from_lineup("standard"), 2)
    196
    """
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        for move in moves:
            position.push_unchecked(move)
            position.pop()
        return len(moves)
    count = 0
    for move in moves:
        position.push_unchecked(move)
        count += perft(position, depth - 1)
        position.pop()
    return count


def divide(position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: each legal move with the perft of ``depth - 1``
    after it. ``depth`` must be at least 1."""
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    counts = []
    for move in position.legal_moves():
        position.push_unchecked(move)
        counts.append((move, perft(position, depth - 1)))
        position.pop()
    return counts
