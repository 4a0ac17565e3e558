"""Where a set of games stands, as one frozen value the referee replaces whole."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware_host.games.base import GameSet, Outcome, Side


@dataclass(frozen=True)
class SetState:
    """The set being played: the games so far, the game being played or set up next
    (its number in the set and who starts it), the lineup the set is played from, and
    whether a game of the set in ``games`` has started (before one has, who starts and
    the lineup may still be chosen)."""

    games: GameSet
    number: int
    starter: Side
    lineup: str
    started: bool = False

    @classmethod
    def new(cls, first_starter: Side, lineup: str) -> SetState:
        """A new set from ``lineup``, its first game started by ``first_starter``."""
        games = GameSet(first_starter=first_starter)
        return cls(games, 1, games.next_starter, lineup)

    def after(self, outcome: Outcome, *, first_starter: Side) -> SetState:
        """The set once the game being played ended with ``outcome``: its next game to
        set up, or, once the set is decided, a new set that ``first_starter`` starts."""
        games = self.games.record(outcome)
        if games.is_over():
            return SetState.new(first_starter, self.lineup)
        return replace(self, games=games, number=self.number + 1, starter=games.next_starter)
