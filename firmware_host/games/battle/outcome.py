"""How a game ends (``docs/rules-battle.md`` §6): a Flag captured, a side that cannot
move, neither side able to move (a draw), or a resignation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_host.games.base import AGREED_DRAW, TIME_LOSS, Side


class Ending(Enum):
    """How a game was decided. The value is how the record keeps it."""

    FLAG_CAPTURED = "flag"
    """The winner struck the loser's Flag."""
    CANNOT_MOVE = "cannot-move"
    """The loser, to move, had no legal move (only Bombs and its Flag left, or blocked in)."""
    NEITHER_CAN_MOVE = "neither-can-move"
    """Neither side has a legal move: a draw."""
    TIME = TIME_LOSS
    """The loser's clock ran out."""
    AGREED = AGREED_DRAW
    """The players agreed a draw (at a distance)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: a winner and the ending; a winner and no ending when the other
    side resigned; or a draw (no winner: neither side can move).

    >>> str(Outcome(Side.BLUE, Ending.FLAG_CAPTURED))
    "blue wins: it captured red's flag"
    >>> Outcome(None, Ending.NEITHER_CAN_MOVE).to_text()
    'draw'
    """

    winner: Side | None
    ending: Ending | None

    def __post_init__(self) -> None:
        if (self.winner is None) != (self.ending in (Ending.NEITHER_CAN_MOVE, Ending.AGREED)):
            raise ValueError("a game is drawn only when neither side can move or by agreement, with no winner")

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def is_resignation(self) -> bool:
        return self.winner is not None and self.ending is None

    @property
    def is_time_loss(self) -> bool:
        return self.ending is Ending.TIME

    def to_text(self) -> str:
        """``red``, ``blue`` or ``draw``."""
        return "draw" if self.winner is None else self.winner.label

    def words(self) -> str:
        """Why the game ended, in a few words for the OLED."""
        if self.ending is Ending.AGREED:
            return "drawn by agreement"
        if self.winner is None:
            return "neither side can move"
        loser = self.winner.opponent.label
        if self.ending is None:
            return f"{loser} resigned"
        if self.ending is Ending.TIME:
            return f"{loser} out of time"
        return "flag captured" if self.ending is Ending.FLAG_CAPTURED else f"{loser} cannot move"

    def __str__(self) -> str:
        if self.winner is None:
            return "draw: neither side can move"
        loser = self.winner.opponent.label
        how = {
            None: f"{loser} resigned",
            Ending.FLAG_CAPTURED: f"it captured {loser}'s flag",
            Ending.CANNOT_MOVE: f"{loser} cannot move",
            Ending.TIME: f"{loser} ran out of time",
        }[self.ending]
        return f"{self.winner.label} wins: {how}"


DRAW = Outcome(None, Ending.NEITHER_CAN_MOVE)
