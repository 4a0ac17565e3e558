"""Sides and pieces: small values with their one-letter notation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_host.errors import NotationError


class Side(Enum):
    """One of the two players. The value is the letter NFN uses for the side to move."""

    RED = "r"
    BLUE = "b"

    @property
    def opponent(self) -> Side:
        """The other side."""
        return Side.BLUE if self is Side.RED else Side.RED

    @property
    def label(self) -> str:
        """The side's name in messages: ``red`` or ``blue``."""
        return self.name.lower()

    @classmethod
    def from_text(cls, text: str) -> Side:
        """Read ``r``/``b`` or ``red``/``blue``.

        Raises :class:`NotationError` for anything else.

        >>> Side.from_text("blue")
        <Side.BLUE: 'b'>
        """
        for side in cls:
            if text in (side.value, side.label):
                return side
        raise NotationError(f"unknown side {text!r}: expected 'r', 'b', 'red' or 'blue'")


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
