"""Moves, and the reasons a move can be illegal."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from firmware_host.errors import NestrefError, NotationError
from firmware_host.games.base import Footprint, IllegalMove

__all__ = ["PASS", "Footprint", "IllegalMove", "IllegalMoveError", "Move", "Rule"]

_MOVE_TEXT = re.compile(r"([a-z]+[0-9]+)([-x])([a-z]+[0-9]+)")


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a step or double step (``c3-c4``), a capture (``d4xe5``) or a pass.

    Cells are named as on the nest; a move read from text is checked against a
    position only when it is played.

    >>> Move.from_text("d4xe5")
    Move(origin='d4', target='e5', is_capture=True)
    >>> str(Move("c3", "c4"))
    'c3-c4'
    >>> Move.from_text("pass") == PASS
    True
    """

    origin: str | None
    target: str | None
    is_capture: bool = False
    # The bits of the move's cells, filled in only on the moves the bitboard layer
    # generates (bitboards.py reads them; elsewhere origin_bit() and target_bit() there);
    # they take no part in comparing moves.
    _origin_bit: int = field(default=0, compare=False, repr=False)
    _target_bit: int = field(default=0, compare=False, repr=False)

    @property
    def is_pass(self) -> bool:
        return self.origin is None

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``<from>-<to>``, ``<from>x<to>`` or ``pass``.

        Raises :class:`NotationError` if the text is none of these.
        """
        if text == "pass":
            return PASS
        match = _MOVE_TEXT.fullmatch(text)
        if match is None:
            raise NotationError(
                f"cannot read the move {text!r}: expected <from>-<to>, <from>x<to> or pass (such as c3-c4 or d4xe5)"
            )
        origin, sign, target = match.groups()
        return cls(origin, target, sign == "x")

    def to_text(self) -> str:
        """The move in notation; the inverse of :meth:`from_text`."""
        if self.origin is None:
            return "pass"
        return f"{self.origin}{'x' if self.is_capture else '-'}{self.target}"

    def __str__(self) -> str:
        return self.to_text()


PASS = Move(None, None)
"""The move of a side that has no legal move while its opponent has one."""


class Rule(Enum):
    """The rule an illegal move breaks. The value says it in words."""

    GAME_OVER = "the game is over"
    NOT_A_CELL = "not a cell of the nest"
    NOT_A_MOVE = "a move must leave its cell"
    NO_PIECE = "no piece to move"
    NOT_YOUR_TURN = "not your turn"
    OWN_PIECE = "a piece cannot move onto its own side's piece"
    TOO_FAR = "too far or not in a straight line"
    BLOCKED = "no jumping over a piece"
    NOT_FORWARD = "pieces move forward unless they capture"
    CAPTURE_COMPULSORY = "capturing is compulsory"
    NOTATION = "a capture is written with x, a step with -"
    PASS_NOT_ALLOWED = "a side may pass only when it has no legal move"


class IllegalMoveError(NestrefError, ValueError):
    """A move was played that breaks a rule; ``illegal`` says which and why."""

    def __init__(self, illegal: IllegalMove) -> None:
        super().__init__(str(illegal))
        self.illegal = illegal
