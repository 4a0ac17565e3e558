"""A set: best of three games (``rules.md`` §5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from firmware_host.errors import GameSetError
from firmware_host.rules.outcome import Outcome
from firmware_host.rules.pieces import Side


@dataclass(frozen=True)
class GameSet:
    """The games of a set so far, as an immutable value: :meth:`record` returns the
    next one.

    The first side to win two games wins the set. A drawn game is replayed and does not
    count. The side that starts alternates from game to game, drawn games included: a
    replayed game is started by the other side.

    >>> from firmware_host.rules import Outcome, WinCondition
    >>> games = GameSet(first_starter=Side.BLUE)
    >>> games = games.record(Outcome(Side.RED, WinCondition.CUCKOO_CAPTURED))
    >>> games.score, games.next_starter
    ((1, 0), <Side.RED: 'r'>)
    """

    WINS_NEEDED: ClassVar[int] = 2

    first_starter: Side = Side.RED
    """The side that starts the first game, chosen when the set begins."""
    outcomes: tuple[Outcome, ...] = ()
    """Every game played so far, draws included, in order."""

    def wins(self, side: Side) -> int:
        """The games ``side`` has won."""
        return sum(1 for outcome in self.outcomes if outcome.winner is side)

    @property
    def score(self) -> tuple[int, int]:
        """Games won, red's then blue's."""
        return self.wins(Side.RED), self.wins(Side.BLUE)

    @property
    def winner(self) -> Side | None:
        """The side that has won the set, or None while it goes on."""
        for side in Side:
            if self.wins(side) >= self.WINS_NEEDED:
                return side
        return None

    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def next_starter(self) -> Side:
        """The side that starts the next game (the set may already be over)."""
        return self.first_starter if len(self.outcomes) % 2 == 0 else self.first_starter.opponent

    def record(self, outcome: Outcome) -> GameSet:
        """The set after one more game ended with ``outcome``.

        Raises :class:`GameSetError` if the set is already decided.
        """
        if self.winner is not None:
            raise GameSetError(f"the set is over: {self.winner.label} has won it")
        return GameSet(self.first_starter, (*self.outcomes, outcome))
