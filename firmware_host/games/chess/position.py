"""A game of chess being played: python-chess's board behind the position every game has
(:class:`~firmware_host.games.base.Position`), with what each move does to the switches
(its footprint) and why an illegal one is refused, in words.

The rules are python-chess's: legal moves, check, mate, stalemate, insufficient material,
the 75-move and fivefold-repetition draws. A referee at the board ends the game at the
draws a player could claim too (threefold repetition, the fifty-move rule): nobody at
the nest has a way to claim one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import chess

from firmware_host.errors import NotationError
from firmware_host.games.base import Footprint, IllegalMove, Side
from firmware_host.games.chess.board import ChessBoard, status_words
from firmware_host.games.chess.moves import TERMINATIONS, Ending, IllegalMoveError, Move, Outcome, Rule
from firmware_host.games.chess.pieces import COLOUR_WORDS, SIDE_OF_COLOUR, Piece, pieces_of


class ChessPosition:
    """A position of a game of chess on ``board``, with the moves that led to it.

    >>> position = ChessPosition.from_fen(ChessBoard.default(), chess.STARTING_FEN)
    >>> len(position.legal_moves()), position.push(Move.from_text("e2e4")).to_text()
    (20, 'e2e4')
    >>> sorted(position.footprint(Move.from_text("d7d5")).empties)
    ['d7']
    """

    def __init__(self, board: ChessBoard, chess_board: chess.Board, stack: Sequence[Move] = ()) -> None:
        self._board = board
        self._chess = chess_board
        self._stack = list(stack)

    @classmethod
    def from_fen(cls, board: ChessBoard, fen: str) -> ChessPosition:
        """The position a FEN describes. Raises :class:`NotationError` if it is no FEN,
        or no position of chess."""
        try:
            chess_board = chess.Board(fen)
        except ValueError as error:
            raise NotationError(f"cannot read the position {fen!r}: {error}") from None
        if not chess_board.is_valid():
            raise NotationError(f"{fen!r} is no position of chess: {status_words(chess_board.status())}")
        return cls(board, chess_board)

    def __repr__(self) -> str:
        return f"<ChessPosition {self.to_text()}>"

    @property
    def board(self) -> ChessBoard:
        return self._board

    @property
    def chess_board(self) -> chess.Board:
        """A copy of python-chess's board, its moves included (for the records and the
        computer)."""
        return self._chess.copy()

    @property
    def turn(self) -> Side:
        return SIDE_OF_COLOUR[self._chess.turn]

    @property
    def move_stack(self) -> tuple[Move, ...]:
        return tuple(self._stack)

    def pieces(self) -> dict[str, Piece]:
        return pieces_of(self._chess)

    # -- moves ------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """python-chess's legal moves (none once the game is over)."""
        if self.outcome() is not None:
            return []
        board = self._chess
        return [Move.of(move, is_capture=board.is_capture(move)) for move in board.legal_moves]

    def lenient_moves(self) -> list[Move]:
        """None: chess makes no capture compulsory."""
        return []

    def check_move(self, move: Move, *, lenient: bool = False) -> IllegalMove | None:
        """Why ``move`` may not be played now, or None if it may."""
        board = self._chess
        if self.outcome() is not None:
            return IllegalMove(move, Rule.GAME_OVER, "the game is over")
        chess_move = move.to_chess()
        if board.is_legal(chess_move):
            return None
        piece = board.piece_at(chess_move.from_square)
        if piece is None:
            return IllegalMove(move, Rule.NO_PIECE, f"there is no piece on {move.origin}")
        label = Piece.of(piece).label
        if piece.color != board.turn:
            return IllegalMove(move, Rule.NOT_YOUR_TURN, f"the {label} is not to move: it is {_turn_words(board)}")
        on_target = board.piece_at(chess_move.to_square)
        castling = piece.piece_type == chess.KING and chess.square_distance(*_squares(chess_move)) == 2
        if on_target is not None and on_target.color == piece.color and not castling:
            return IllegalMove(move, Rule.OWN_PIECE, f"{move.target} holds a {Piece.of(on_target).label}")
        last_rank = chess.square_rank(chess_move.to_square) in (0, 7)
        if piece.piece_type == chess.PAWN and last_rank and move.promotion is None:
            promoted = chess.Move(chess_move.from_square, chess_move.to_square, chess.QUEEN)
            if board.is_legal(promoted):
                return IllegalMove(
                    move, Rule.PROMOTION, "say which piece the pawn becomes: queen, rook, bishop or knight"
                )
        if move.promotion is not None and (
            piece.piece_type != chess.PAWN or not last_rank or move.promotion in (chess.PAWN, chess.KING)
        ):
            return IllegalMove(
                move,
                Rule.PROMOTION,
                "only a pawn reaching the last rank is promoted, to a queen, rook, bishop or knight",
            )
        if castling and chess.square_rank(chess_move.from_square) == chess.square_rank(chess_move.to_square):
            return IllegalMove(move, Rule.CASTLING, _castling_words(board, chess_move))
        if board.is_pseudo_legal(chess_move):
            return IllegalMove(move, Rule.KING_IN_CHECK, "that would leave your king in check")
        if _reaches_on_an_empty_board(piece, chess_move):
            return IllegalMove(move, Rule.BLOCKED, f"the {label} cannot pass over the pieces between")
        return IllegalMove(
            move,
            Rule.OUT_OF_REACH,
            f"a {chess.piece_name(piece.piece_type)} does not move from {move.origin} to {move.target}",
        )

    def footprint(self, move: Move) -> Footprint:
        """What ``move`` does to the switches: a move empties its square and fills its
        target; a capture empties its square and needs its target's piece seen gone
        (the proof); en passant empties the captured pawn's square too; castling empties
        the king's and the rook's squares and fills the two they go to. A piece slid
        crosses the squares between, and, on a diagonal, may brush the empty squares at
        the corners it passes."""
        board = self._chess
        chess_move = move.to_chess()
        origin, target = chess_move.from_square, chess_move.to_square
        if board.is_castling(chess_move):
            rank = chess.square_rank(origin)
            kingside = chess.square_file(target) > chess.square_file(origin)
            rook_from = chess.square(7 if kingside else 0, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            empties, fills = {origin, rook_from}, {target, rook_to}
            crossed = chess.SquareSet(chess.between(origin, target)) | chess.SquareSet(
                chess.between(rook_from, rook_to)
            )
            return _footprint(empties=empties, fills=fills, passes=set(crossed) - fills - empties)
        passes = self._slide(piece_type=board.piece_type_at(origin), origin=origin, target=target)
        if board.is_en_passant(chess_move):
            captured = chess.square(chess.square_file(target), chess.square_rank(origin))
            return _footprint(empties={origin, captured}, fills={target}, passes=passes - {captured})
        if board.is_capture(chess_move):
            return _footprint(empties={origin}, proofs={target}, passes=passes)
        return _footprint(empties={origin}, fills={target}, passes=passes)

    def _slide(self, *, piece_type: chess.PieceType | None, origin: chess.Square, target: chess.Square) -> set[int]:
        """The squares a piece slid from ``origin`` to ``target`` crosses: those between
        (a knight is lifted). The corner squares a diagonal slide brushes pull their
        switches in only for a few milliseconds, as a magnet carried past does: they are
        no part of the move, so that a capture no scan saw is never read from one."""
        if piece_type == chess.KNIGHT:
            return set()
        return set(chess.SquareSet(chess.between(origin, target)))

    def push(self, move: Move, *, lenient: bool = False) -> Move:
        """Play ``move``; raises :class:`IllegalMoveError` if it may not be played.
        Returns it as the rules see it (with ``is_capture``)."""
        illegal = self.check_move(move)
        if illegal is not None:
            raise IllegalMoveError(illegal)
        chess_move = move.to_chess()
        played = Move.of(chess_move, is_capture=self._chess.is_capture(chess_move))
        self._chess.push(chess_move)
        self._stack.append(played)
        return played

    def pop(self) -> Move:
        """Take the last move back."""
        self._chess.pop()
        return self._stack.pop()

    def copy(self) -> ChessPosition:
        return ChessPosition(self._board, self._chess.copy(), self._stack)

    # -- the end ----------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game ended on the board, or None while it goes on: python-chess's
        outcome, and the draws a player could claim (taken at once: see the module)."""
        board = self._chess
        ended = board.outcome(claim_draw=False)
        if ended is None:
            if board.is_fifty_moves():
                return Outcome(None, Ending.FIFTY_MOVES)
            if board.is_repetition(3):
                return Outcome(None, Ending.THREEFOLD_REPETITION)
            return None
        winner = None if ended.winner is None else SIDE_OF_COLOUR[ended.winner]
        return Outcome(winner, TERMINATIONS[ended.termination])

    def is_over(self) -> bool:
        return self.outcome() is not None

    def to_text(self) -> str:
        """The position in FEN."""
        return self._chess.fen()

    def san(self, move: Move) -> str:
        """``move``, legal here, in standard algebraic notation (``Nf3``, ``O-O``)."""
        return self._chess.san(move.to_chess())


def _footprint(
    *, empties: Iterable[int], fills: Iterable[int] = (), proofs: Iterable[int] = (), passes: Iterable[int] = ()
) -> Footprint:
    def names(squares: Iterable[int]) -> frozenset[str]:
        return frozenset(chess.square_name(square) for square in squares)

    return Footprint(names(empties), names(fills), names(proofs), names(passes))


def _squares(move: chess.Move) -> tuple[chess.Square, chess.Square]:
    return move.from_square, move.to_square


def _turn_words(board: chess.Board) -> str:
    return f"{COLOUR_WORDS[SIDE_OF_COLOUR[board.turn]]}'s turn"


def _castling_words(board: chess.Board, move: chess.Move) -> str:
    """Why the king may not castle that way now."""
    kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
    colour = board.turn
    rights = board.has_kingside_castling_rights(colour) if kingside else board.has_queenside_castling_rights(colour)
    if not rights:
        return "the king or that rook has moved: it may not castle that way"
    if board.is_check():
        return "the king may not castle out of check"
    rook = chess.square(7 if kingside else 0, chess.square_rank(move.from_square))
    if chess.SquareSet(chess.between(move.from_square, rook)) & board.occupied:
        return "the squares between the king and the rook must be empty"
    return "the king may not castle through or into check"


def _reaches_on_an_empty_board(piece: chess.Piece, move: chess.Move) -> bool:
    """Whether ``piece`` could make ``move`` with no other piece on the board (so what
    stops it is a piece in the way)."""
    empty = chess.Board(None)
    empty.set_piece_at(move.from_square, piece)
    if piece.piece_type == chess.PAWN:
        forward = 1 if piece.color == chess.WHITE else -1
        start = 1 if piece.color == chess.WHITE else 6
        step = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
        same_file = chess.square_file(move.to_square) == chess.square_file(move.from_square)
        return same_file and (step == forward or (step == 2 * forward and chess.square_rank(move.from_square) == start))
    return move.to_square in empty.attacks(move.from_square)
