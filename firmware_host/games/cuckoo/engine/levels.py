"""The computer opponent's levels, from 1 (a beginner) to the strongest.

A level is a node budget, which makes it deterministic and the same on every machine,
plus a time cap in seconds for a slow machine: the budgets are chosen so that even a
Raspberry Pi Zero 2 W (about ten times slower than a desktop PC in Python) answers
within the cap, which it reaches only in unusual positions; the strongest level's move
takes at most about half a second here, five seconds there (``docs/engine.md``). The lower levels make
deliberate mistakes: every root move's score gets a seeded random offset of up to
``noise`` (so a level prefers moves that look about as good, not always the best),
and with a chance of ``oversight`` a move is chosen after a glance only
(``oversight_depth`` plies), which misses tactics as a beginner does. Neither ever
touches a win or a loss the search has proved, and neither ever makes a move illegal.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.errors import NestrefError
from firmware_host.games.cuckoo.engine.search import Limits


class UnknownLevelError(NestrefError, ValueError):
    """There is no level of that number; the message names the valid range."""


@dataclass(frozen=True)
class Level:
    """One level of the computer opponent."""

    number: int  # 1 = beginner ... len(LEVELS) = strongest
    name: str
    limits: Limits
    noise: int = 0  # the largest random offset added to a root move's score (centi-moves)
    oversight: float = 0.0  # the chance that a move is chosen after a glance only
    oversight_depth: int = 1  # how deep that glance goes, in plies


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", Limits(nodes=500, seconds=2.0, depth=2), noise=120, oversight=0.3),
    Level(2, "casual", Limits(nodes=3_000, seconds=3.0), noise=40),
    Level(3, "club", Limits(nodes=15_000, seconds=5.0), noise=10),
    Level(4, "expert", Limits(nodes=50_000, seconds=8.0)),
    Level(5, "strongest", Limits(nodes=60_000, seconds=10.0)),
)
"""The levels, weakest first; ``LEVELS[n - 1].number == n``."""


def level(number: int) -> Level:
    """The level numbered ``number``.

    Raises :class:`UnknownLevelError` naming the valid range.

    >>> level(1).name
    'beginner'
    """
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(LEVELS):
        raise UnknownLevelError(
            f"there is no level {number!r}: the levels are 1 (beginner) to {len(LEVELS)} (strongest)"
        )
    return LEVELS[number - 1]
