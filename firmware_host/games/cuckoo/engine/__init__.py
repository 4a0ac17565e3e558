"""The computer opponent: a game-tree search over the rules engine, with levels from a
beginner to the strongest (``docs/engine.md``). Pure logic: no I/O, no clock of its
own (one is passed in).

>>> from firmware_host.games.cuckoo.engine import Engine, Limits
>>> from firmware_host.games.cuckoo.rules import Position
>>> position = Position.from_lineup("standard")
>>> result = Engine(seed=0).search(position, Limits(nodes=2_000))
>>> result.move in position.legal_moves()
True
"""

from firmware_host.games.cuckoo.engine.baselines import greedy_move, random_move
from firmware_host.games.cuckoo.engine.levels import LEVELS, Level, UnknownLevelError, level
from firmware_host.games.cuckoo.engine.search import Engine, GameOverError, Limits, SearchResult

__all__ = [
    "LEVELS",
    "Engine",
    "GameOverError",
    "Level",
    "Limits",
    "SearchResult",
    "UnknownLevelError",
    "greedy_move",
    "level",
    "random_move",
]
