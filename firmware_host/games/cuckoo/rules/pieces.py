"""Sides and pieces: small values with their one-letter notation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_host.errors import NotationError
from firmware_host.games.base import Side

__all__ = ["Kind", "Piece", "Side"]


class Kind(Enum):
    """A kind of piece. The value is its letter (lower case)."""

    EGG = "e"
    WARBLER = "w"
    CUCKOO = "c"

    @property
    def label(self) -> str:
        """The kind's name in messages."""
        return self.name.lower()

    @property
    def is_long_range(self) -> bool:
        """Warblers and cuckoos move and capture up to two cells; eggs only one."""
        return self is not Kind.EGG


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of one side: red pieces are written in capitals (``E W C``), blue in
    lower case (``e w c``).

    >>> Piece.from_letter("W")
    Piece(side=<Side.RED: 'r'>, kind=<Kind.WARBLER: 'w'>)
    >>> Piece(Side.BLUE, Kind.CUCKOO).letter
    'c'
    """

    side: Side
    kind: Kind

    @property
    def letter(self) -> str:
        """The piece's letter in NFN."""
        return self.kind.value.upper() if self.side is Side.RED else self.kind.value

    @property
    def label(self) -> str:
        """The piece in words, such as ``red warbler``."""
        return f"{self.side.label} {self.kind.label}"

    @classmethod
    def from_letter(cls, letter: str) -> Piece:
        """Read one of ``E W C e w c``; raises :class:`NotationError` otherwise."""
        for kind in Kind:
            if letter == kind.value.upper():
                return cls(Side.RED, kind)
            if letter == kind.value:
                return cls(Side.BLUE, kind)
        raise NotationError(f"unknown piece letter {letter!r}: expected one of E W C e w c")
