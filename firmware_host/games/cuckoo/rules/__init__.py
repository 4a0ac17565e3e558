"""The rules engine of Operation Cuckoo (``docs/rules.md``): pure code, no I/O but reading a
board file.

>>> from firmware_host.games.cuckoo.rules import Move, Position
>>> position = Position.from_lineup("standard")
>>> position.push(Move.from_text("c3-c4"))
Move(origin='c3', target='c4', is_capture=False)
>>> position.turn
<Side.BLUE: 'b'>
"""

from firmware_host.games.base import GameSet
from firmware_host.games.cuckoo.rules.moves import PASS, Footprint, IllegalMove, IllegalMoveError, Move, Rule
from firmware_host.games.cuckoo.rules.nest import Direction, Lineup, Nest
from firmware_host.games.cuckoo.rules.outcome import DRAW, Outcome, WinCondition
from firmware_host.games.cuckoo.rules.perft import divide, perft
from firmware_host.games.cuckoo.rules.pieces import Kind, Piece, Side
from firmware_host.games.cuckoo.rules.position import Position, PositionError

__all__ = [
    "DRAW",
    "PASS",
    "Direction",
    "Footprint",
    "GameSet",
    "IllegalMove",
    "IllegalMoveError",
    "Kind",
    "Lineup",
    "Move",
    "Nest",
    "Outcome",
    "Piece",
    "Position",
    "PositionError",
    "Rule",
    "Side",
    "WinCondition",
    "divide",
    "perft",
]
