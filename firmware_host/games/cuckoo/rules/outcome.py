"""How a game ends: the winner and the winning condition, or a draw."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from firmware_host.games.cuckoo.rules.pieces import Side


class WinCondition(IntEnum):
    """The four winning conditions of the rulebook, numbered as there; checked in this
    order after every move (``docs/rules.md`` §4)."""

    ONLY_CUCKOO_LEFT = 1
    """The winner's pieces were all captured except its cuckoo."""
    CUCKOO_CAPTURED = 2
    """The winner captured the loser's cuckoo."""
    CUCKOO_TOOK_NEST = 3
    """The winner's cuckoo entered one of the loser's homebases."""
    ENTERED_HOMEBASE = 4
    """A piece of the loser's, other than its cuckoo, entered one of the winner's homebases."""

    def describe(self, winner: Side) -> str:
        """The condition in words, for the side that won by it."""
        loser = winner.opponent
        return {
            WinCondition.ONLY_CUCKOO_LEFT: f"{winner.label} has lost every piece but its cuckoo",
            WinCondition.CUCKOO_CAPTURED: f"{loser.label}'s cuckoo was captured",
            WinCondition.CUCKOO_TOOK_NEST: f"{winner.label}'s cuckoo entered a {loser.label} homebase",
            WinCondition.ENTERED_HOMEBASE: (
                f"a {loser.label} piece other than the cuckoo entered a {winner.label} homebase"
            ),
        }[self]


@dataclass(frozen=True)
class Outcome:
    """The end of a game: a winner and the condition that decided it; a winner and no
    condition when the other side resigned, or ran out of time (``on_time``); or a draw
    (no winner, no condition: neither side had a legal move).

    >>> Outcome(Side.BLUE, WinCondition.CUCKOO_CAPTURED).to_text()
    'blue'
    >>> str(Outcome(Side.BLUE, WinCondition.CUCKOO_CAPTURED))
    "blue wins: red's cuckoo was captured (condition 2)"
    >>> str(Outcome(Side.RED, None))
    'red wins: blue resigned'
    >>> str(Outcome(Side.RED, None, on_time=True))
    'red wins: blue ran out of time'
    """

    winner: Side | None
    condition: WinCondition | None
    on_time: bool = False
    by_agreement: bool = False
    """A draw the players agreed (at a distance), not one the rules made."""

    def __post_init__(self) -> None:
        if self.winner is None and self.condition is not None:
            raise ValueError("a draw has no winning condition")
        if self.on_time and (self.winner is None or self.condition is not None):
            raise ValueError("a loss on time has a winner and no winning condition")
        if self.by_agreement and self.winner is not None:
            raise ValueError("a game agreed is a draw")

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def is_resignation(self) -> bool:
        return self.winner is not None and self.condition is None and not self.on_time

    @property
    def is_time_loss(self) -> bool:
        return self.on_time

    def to_text(self) -> str:
        """``red``, ``blue`` or ``draw``, as ``nestref position`` prints the result."""
        return "draw" if self.winner is None else self.winner.label

    def __str__(self) -> str:
        if self.by_agreement:
            return "draw: agreed by the players"
        if self.winner is None:
            return "draw: neither side has a legal move"
        if self.on_time:
            return f"{self.winner.label} wins: {self.winner.opponent.label} ran out of time"
        if self.condition is None:
            return f"{self.winner.label} wins: {self.winner.opponent.label} resigned"
        return f"{self.winner.label} wins: {self.condition.describe(self.winner)} (condition {int(self.condition)})"


DRAW = Outcome(None, None)
