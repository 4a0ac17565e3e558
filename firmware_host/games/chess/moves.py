"""Moves as the nest names them (``e2e4``, ``e7e8q``: the long algebraic notation of UCI,
which needs no position to read), the rules an illegal move breaks, and how a game ends."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

import chess

from firmware_host.errors import NestrefError, NotationError
from firmware_host.games.base import IllegalMove, Side
from firmware_host.games.chess.pieces import COLOUR_WORDS

_MOVE_TEXT = re.compile(r"([a-h][1-8])[-x]?([a-h][1-8])(?:=?([qrbnQRBN]))?")


@dataclass(frozen=True, slots=True)
class Move:
    """A move of the piece on ``origin`` to ``target``, a pawn promoted to ``promotion``
    (python-chess's piece type) if it reaches the last rank. Castling is the king's move
    (``e1g1``). ``is_capture`` says whether it takes a piece (en passant too); it is not
    part of what the move is (a move read from text has it only once it is played).

    >>> Move.from_text("e7e8q")
    Move(origin='e7', target='e8', promotion=5, is_capture=False)
    >>> Move.from_text("e2-e4").to_text(), Move("g7", "h8", chess.KNIGHT).to_text()
    ('e2e4', 'g7h8n')
    """

    origin: str
    target: str
    promotion: chess.PieceType | None = None
    is_capture: bool = field(default=False, compare=False)

    @property
    def is_pass(self) -> bool:
        """Never: a side with no legal move has lost or drawn (there is no passing)."""
        return False

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``e2e4``, ``e7e8q`` (``e2-e4``, ``e4xd5``, ``e7e8=Q`` too). Raises
        :class:`NotationError`."""
        match = _MOVE_TEXT.fullmatch(text.strip())
        if match is None:
            raise NotationError(
                f"cannot read the move {text!r}: expected <from><to>, and the piece a pawn becomes "
                "(such as e2e4 or e7e8q)"
            )
        origin, target, letter = match.groups()
        promotion = None if letter is None else chess.Piece.from_symbol(letter.lower()).piece_type
        if origin == target:
            raise NotationError(f"cannot read the move {text!r}: a move leaves its square")
        return cls(origin, target, promotion)

    @classmethod
    def of(cls, move: chess.Move, *, is_capture: bool) -> Move:
        return cls(chess.square_name(move.from_square), chess.square_name(move.to_square), move.promotion, is_capture)

    def to_chess(self) -> chess.Move:
        return chess.Move(chess.parse_square(self.origin), chess.parse_square(self.target), self.promotion)

    def to_text(self) -> str:
        """The move in UCI's notation; the inverse of :meth:`from_text`."""
        return self.to_chess().uci()

    def __str__(self) -> str:
        return self.to_text()


class Rule(Enum):
    """The rule an illegal move breaks; the value says it in words."""

    GAME_OVER = "the game is over"
    NO_PIECE = "no piece to move"
    NOT_YOUR_TURN = "not your turn"
    OWN_PIECE = "a piece cannot move onto its own side's piece"
    OUT_OF_REACH = "that piece does not move that way"
    BLOCKED = "no piece but the knight jumps over others"
    KING_IN_CHECK = "no move may leave one's own king in check"
    CASTLING = "castling needs the king and the rook unmoved, nothing between them, and no check on the way"
    PROMOTION = "a pawn reaching the last rank becomes a queen, rook, bishop or knight"


class IllegalMoveError(NestrefError, ValueError):
    """A move was played that breaks a rule; ``illegal`` says which and why."""

    def __init__(self, illegal: IllegalMove) -> None:
        super().__init__(str(illegal))
        self.illegal = illegal


class Ending(Enum):
    """How a game ended on the board (or on the clock), as the record keeps it."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient-material"
    SEVENTYFIVE_MOVES = "seventyfive-moves"
    FIVEFOLD_REPETITION = "fivefold-repetition"
    FIFTY_MOVES = "fifty-moves"
    THREEFOLD_REPETITION = "threefold-repetition"
    TIME = "time"
    AGREED = "agreed"  # the players agreed a draw (at a distance)


ENDING_WORDS = {
    Ending.CHECKMATE: "checkmate",
    Ending.STALEMATE: "stalemate",
    Ending.INSUFFICIENT_MATERIAL: "not enough to mate",
    Ending.SEVENTYFIVE_MOVES: "75-move rule",
    Ending.FIVEFOLD_REPETITION: "fivefold repetition",
    Ending.FIFTY_MOVES: "50-move rule",
    Ending.THREEFOLD_REPETITION: "threefold repetition",
    Ending.AGREED: "by agreement",
}
WINS = (Ending.CHECKMATE, Ending.TIME)
"""The endings with a winner (a resignation is one with no ending)."""

TERMINATIONS = {
    chess.Termination.CHECKMATE: Ending.CHECKMATE,
    chess.Termination.STALEMATE: Ending.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Ending.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: Ending.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Ending.FIVEFOLD_REPETITION,
    chess.Termination.FIFTY_MOVES: Ending.FIFTY_MOVES,
    chess.Termination.THREEFOLD_REPETITION: Ending.THREEFOLD_REPETITION,
}
"""python-chess's terminations, as the record names them."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` (None: a draw) and the ``ending`` (None: the loser
    resigned).

    >>> Outcome(Side.RED, Ending.CHECKMATE).words()
    'checkmate: white wins'
    >>> Outcome(None, Ending.STALEMATE).to_text(), Outcome(Side.BLUE, None).is_resignation
    ('draw', True)
    """

    winner: Side | None
    ending: Ending | None

    @property
    def is_resignation(self) -> bool:
        return self.winner is not None and self.ending is None

    @property
    def is_time_loss(self) -> bool:
        return self.ending is Ending.TIME

    def to_text(self) -> str:
        return "draw" if self.winner is None else self.winner.label

    def words(self) -> str:
        """Why the game ended, in a few words for the OLED."""
        if self.winner is None:
            return f"draw: {ENDING_WORDS[self.ending]}" if self.ending is not None else "draw"
        loser = COLOUR_WORDS[self.winner.opponent]
        if self.ending is None:
            return f"{loser} resigned"
        if self.ending is Ending.TIME:
            return f"{loser} out of time"
        return f"{ENDING_WORDS[self.ending]}: {COLOUR_WORDS[self.winner]} wins"
