"""The pieces on the field: as the referee knows them (with their rank), and as a view
shows them (the rank only where the viewer may know it).

A piece's ``letter`` and ``label`` are what the shared screens and the page may show, so
they never say its rank: ``X`` (red) or ``x`` (blue), ``red piece``. Its rank letter,
``rank_letter``, is for the record (``docs/rules-battle.md`` §7).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_host.games.base import Side
from firmware_host.games.battle.army import Rank

HIDDEN_LETTER = "X"
"""The letter of a piece whose rank is not shown (red's; blue's in lower case). No rank
may use it."""


def side_letter(letter: str, side: Side) -> str:
    """``letter`` as ``side`` writes it: red in capitals, blue in lower case."""
    return letter.upper() if side is Side.RED else letter.lower()


class Shown(Enum):
    """What everybody knows of a piece, besides its side. The value is its mark in the
    notation, after the letter."""

    HIDDEN = ""
    """It has never moved, and its rank was never shown: it may be anything."""
    MOVED = "+"
    """It has moved, so it is neither a Bomb nor the Flag; its rank is not shown."""
    REVEALED = "!"
    """Its rank was shown: in a strike, or by a Scout's run of more than one square."""

    @classmethod
    def from_mark(cls, mark: str) -> Shown:
        return next(shown for shown in cls if shown.value == mark)


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of ``side`` with its ``rank``, as the referee knows it from the set-up.

    >>> from firmware_host.games.battle.army import Movement
    >>> piece = Piece(Side.BLUE, Rank("marshal", "M", 1, strength=10, movement=Movement.STEP))
    >>> piece.letter, piece.label, piece.rank_letter, piece.rank_label
    ('x', 'blue piece', 'm', 'blue marshal')
    """

    side: Side
    rank: Rank

    @property
    def letter(self) -> str:
        """The piece on shared screens: ``X`` or ``x``, whatever its rank."""
        return side_letter(HIDDEN_LETTER, self.side)

    @property
    def label(self) -> str:
        """The piece in shared messages: ``red piece``."""
        return f"{self.side.label} piece"

    @property
    def rank_letter(self) -> str:
        """The piece in the record: its rank's letter, in its side's case."""
        return side_letter(self.rank.letter, self.side)

    @property
    def rank_label(self) -> str:
        """The piece with its rank, for its own player and the record: ``red marshal``."""
        return f"{self.side.label} {self.rank.name}"


@dataclass(frozen=True, slots=True)
class SeenPiece:
    """A piece as a view shows it: its side, what everybody knows of it, and its rank if
    the viewer may know it (None otherwise)."""

    side: Side
    rank: Rank | None
    shown: Shown

    @property
    def letter(self) -> str:
        """Its rank's letter where the rank is known, else ``X`` (blue's in lower case)."""
        return side_letter(self.rank.letter if self.rank is not None else HIDDEN_LETTER, self.side)

    @property
    def label(self) -> str:
        return f"{self.side.label} {self.rank.name if self.rank is not None else 'piece'}"

    @property
    def can_move(self) -> bool | None:
        """Whether it can move: known from its rank, or True once it has moved; None
        when it may be a Bomb or the Flag."""
        if self.rank is not None:
            return self.rank.can_move
        return True if self.shown is Shown.MOVED else None
