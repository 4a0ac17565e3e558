"""Moves, the reasons a move can be illegal, strikes and their results, and the
two-square rule's count (``docs/rules-battle.md`` §4 to §6)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from firmware_host.errors import NestrefError, NotationError
from firmware_host.games.base import IllegalMove
from firmware_host.games.battle.army import Role, StrikeResult
from firmware_host.games.battle.pieces import Piece

_MOVE_TEXT = re.compile(r"([a-z][0-9]+)([-x])([a-z][0-9]+)")


@dataclass(frozen=True, slots=True)
class Move:
    """A move of a piece from ``origin`` to ``target`` (``a4-a5``, a Scout's run
    ``b2-b4``), or a strike on the piece standing on ``target`` (``a5xa6``). Moves
    say nothing of ranks: everybody sees them made.

    >>> Move.from_text("e4xe5")
    Move(origin='e4', target='e5', is_strike=True)
    >>> Move("b2", "b4").to_text()
    'b2-b4'
    """

    origin: str
    target: str
    is_strike: bool = False

    @property
    def is_capture(self) -> bool:
        """A strike (every game's word for a move that takes on another piece)."""
        return self.is_strike

    @property
    def is_pass(self) -> bool:
        """Never: a side that cannot move has lost (there is no passing)."""
        return False

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``<from>-<to>`` or ``<from>x<to>``. Raises :class:`NotationError`."""
        match = _MOVE_TEXT.fullmatch(text)
        if match is None:
            raise NotationError(
                f"cannot read the move {text!r}: expected <from>-<to> or <from>x<to> (such as a4-a5 or e4xe5)"
            )
        origin, sign, target = match.groups()
        return cls(origin, target, sign == "x")

    def to_text(self) -> str:
        """The move in notation; the inverse of :meth:`from_text`."""
        return f"{self.origin}{'x' if self.is_strike else '-'}{self.target}"

    def __str__(self) -> str:
        return self.to_text()


class Rule(Enum):
    """The rule an illegal move breaks. The value says it in words. None of them names a
    rank: the shared screens say why a move is refused, and a hidden rank must not show."""

    GAME_OVER = "the game is over"
    NOT_A_SQUARE = "not a square of the field"
    LAKE = "no piece enters a lake"
    NOT_A_MOVE = "a move must leave its square"
    NO_PIECE = "no piece to move"
    NOT_YOUR_TURN = "not your turn"
    PUT_DOWN = "a piece put down stays: it may not go back to its square that turn"
    OWN_PIECE = "a piece cannot move onto its own side's piece"
    NOT_STRAIGHT = "pieces move forward, backward or sideways, never diagonally"
    BLOCKED = "no moving through a piece or a lake"
    OUT_OF_REACH = "that piece cannot make that move"
    STRIKE_NEIGHBOURS = "a piece strikes only an enemy on a neighbouring square"
    NOTATION = "a strike is written with x, a move with -"
    TWO_SQUARES = "not back and forth between the same two squares again"


class IllegalMoveError(NestrefError, ValueError):
    """A move was played that breaks a rule; ``illegal`` says which and why."""

    def __init__(self, illegal: IllegalMove) -> None:
        super().__init__(str(illegal))
        self.illegal = illegal


@dataclass(frozen=True, slots=True)
class Run:
    """A side's moves back and forth: its last ``count`` moves were one piece going
    between the same two squares, the last from ``origin`` to ``target`` (where it now
    stands). Written ``a4-a5:2``."""

    origin: str
    target: str
    count: int

    def continues(self, origin: str, target: str) -> bool:
        """Whether moving from ``origin`` to ``target`` goes back along this run."""
        return origin == self.target and target == self.origin

    def after(self, origin: str, target: str) -> Run:
        """The run once the side moves from ``origin`` to ``target`` (not a strike)."""
        return Run(origin, target, self.count + 1 if self.continues(origin, target) else 1)

    def to_text(self) -> str:
        return f"{self.origin}-{self.target}:{self.count}"


@dataclass(frozen=True)
class Strike:
    """A strike and how it ends: everybody learns both ranks (``docs/rules-battle.md``
    §5), so these words are for the shared screens.

    >>> from firmware_host.games.base import Side
    >>> from firmware_host.games.battle.army import Movement, Rank
    >>> colonel = Piece(Side.RED, Rank("colonel", "C", 2, strength=8, movement=Movement.STEP))
    >>> major = Piece(Side.BLUE, Rank("major", "J", 3, strength=7, movement=Movement.STEP))
    >>> Strike(Move("e4", "e5", True), colonel, major, StrikeResult.ATTACKER_WINS).words()
    'colonel strikes major: major removed'
    """

    move: Move
    attacker: Piece
    defender: Piece
    result: StrikeResult

    @property
    def removed(self) -> tuple[str, ...]:
        """The squares whose pieces leave the field."""
        return {
            StrikeResult.ATTACKER_WINS: (self.move.target,),
            StrikeResult.DEFENDER_WINS: (self.move.origin,),
            StrikeResult.BOTH_LOST: (self.move.origin, self.move.target),
        }[self.result]

    @property
    def winner(self) -> Piece | None:
        """The piece left on the struck square, if any."""
        return {
            StrikeResult.ATTACKER_WINS: self.attacker,
            StrikeResult.DEFENDER_WINS: self.defender,
            StrikeResult.BOTH_LOST: None,
        }[self.result]

    def words(self) -> str:
        """The strike as the referee announces it."""
        attacker, defender = self.attacker.rank.name, self.defender.rank.name
        if self.defender.rank.role is Role.FLAG:
            return f"{attacker} strikes the flag: flag captured"
        lost = {
            StrikeResult.ATTACKER_WINS: f"{defender} removed",
            StrikeResult.DEFENDER_WINS: f"{attacker} removed",
            StrikeResult.BOTH_LOST: "both removed",
        }[self.result]
        return f"{attacker} strikes {defender}: {lost}"
