"""A model of real hands playing chess on a board of reed switches: ``spec/hands.md``'s
behaviours, chess's included, with their timing ranges, made into the sensor log a
latching scanner writes (1 ms); :func:`~tests.hand_model.poll` turns it into what a
200 Hz matrix scan reads.

The switches as :class:`~tests.hand_model.Switches` has them (bounce, a settling piece's
chatter). The hands:

- between turns 0.8-16 s of thought (0.8-2 s when ``fast``);
- a move lifted and put down (held 0.15-1.2 s), or slid along its line (each square
  passed reads occupied 20-150 ms; the next square reached within 25 ms of leaving the
  last); a knight is always lifted over the others; a bishop's or queen's diagonal
  slide may brush an empty corner square on its way, pulling its switch in for 2-30 ms
  (the spec's magnet crosstalk);
- captures in any order: the capturer first (held 0.2-1.5 s), the captured piece first
  (held 0.3-2 s), or pushed off as the capturer slides on (the target reads empty for
  5-40 ms, or, but for the chance ``push_flicker``, not at all);
- castling with the king first, the rook first (the king lifted 0.1-0.8 s after the rook
  lands), or both in the hand at once;
- en passant: the captured pawn, beside the destination, taken off before the capturing
  pawn leaves or after it lands (0.2-1.5 s);
- promotion: the pawn lifted from the seventh rank, a queen (or another piece) fetched
  and put down on the eighth after 0.6-2.5 s;
- hesitation: a piece lifted, held 0.3-1.5 s and put back, the next change 0.3 s later
  at least (the mover, a piece it could take, any own piece);
- a second own piece lifted and put back during about one move in eight: before the
  mover leaves, while it is in the air, or up to a second after it lands;
- after the game, a touch or two, 2 s of quiet and a last touch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import chess

from firmware_host.games.base import Side
from firmware_host.games.chess import ChessPosition, Move
from firmware_host.games.chess.moves import Outcome
from firmware_host.referee.sensor_log import SensorEvent, write_sensor_log
from tests.hand_model import Switches, Window, poll

GAME_NAME = "chess"


@dataclass
class ChessHands(Switches):
    """Plays chess moves as sensor events; ``rng`` decides how. The chances are per move."""

    hesitate: float = 0.15
    second_piece: float = 0.125
    slide: float = 0.5
    brush: float = 0.3  # a diagonal slide brushing a corner square on its way
    push_flicker: float = 0.7
    fast: bool = False
    captures: list[tuple[int, Move, Window]] = field(default_factory=list)  # (ply, capture, when)

    def wait(self, low: int, high: int) -> None:
        self.time_ms += self.rng.randint(low, high)

    def touch(self, cell: str, hold: tuple[int, int] = (300, 1500)) -> int:
        self.lift(cell)
        return self.place(cell, self.time_ms + self.rng.randint(*hold))

    def _rested(self) -> int:
        return self._latest

    # -- a game -------------------------------------------------------------------------

    def game(self, start: ChessPosition, moves: list[Move]) -> list[SensorEvent]:
        """The events of a whole game from ``start`` (left unchanged), in time order,
        then the end of a log."""
        board = start.copy()
        for move in moves:
            self.play(board, move)
            board.push(move)
        self.after(board)
        self.events.sort(key=lambda event: event.time_ms)
        return self.events

    def play(self, position: ChessPosition, move: Move) -> None:
        low, high = (800, 2000) if self.fast else (800, 16_000)
        self.time_ms = max(self.time_ms, self._rested()) + min(high, low + int(self.rng.expovariate(1 / 2500)))
        if self.rng.random() < self.hesitate:
            self._hesitate(position, move)
        cells = set(position.footprint(move).cells)
        own = [c for c, p in position.pieces().items() if p.side is position.turn and c not in cells]
        second = self.rng.choice(own) if own and self.rng.random() < self.second_piece else None
        when = self.rng.choice(("before", "in the air", "after")) if second else None
        if second is not None:
            self.made[f"second piece {when}"] += 1
        started = self.time_ms
        if second is not None and when == "before":
            self.lift(second)
            back = self.time_ms + self.rng.randint(300, 1500)
            self.wait(50, 250)
            started = self.time_ms
            end = self._move(position, move)
            self.place(second, max(back, end + self.rng.randint(0, 300)))
        else:
            end = self._move(position, move, second if when == "in the air" else None)
            if second is not None and when == "after":
                self.time_ms = end + self.rng.randint(0, 1000)
                self.touch(second)
        if move.is_capture:
            self.captures.append((len(position.move_stack), move, Window(started, end)))
        self.time_ms = max(self.time_ms, end, self._rested())

    def _hesitate(self, position: ChessPosition, move: Move) -> None:
        pieces = position.pieces()
        own = [cell for cell, piece in pieces.items() if piece.side is position.turn]
        takeable = [str(m.target) for m in position.legal_moves() if m.is_capture and m.target in pieces]
        first = self.rng.choice([move.origin, *takeable, *own])
        self.made["hesitation"] += 1
        self.touch(first)
        self.time_ms = self._rested() + self.rng.randint(300, 1200)

    def _other_in_the_air(self, other: str | None, lifted: int, landed: int) -> None:
        if other is None:
            return
        at = lifted + self.rng.randint(0, max(0, landed - lifted - 10))
        self.lift(other, max(at, lifted))
        self.place(other, max(landed + self.rng.randint(10, 400), at + 300))

    # -- moves --------------------------------------------------------------------------

    def _move(self, position: ChessPosition, move: Move, other: str | None = None) -> int:
        board = position.chess_board
        chess_move = move.to_chess()
        if board.is_castling(chess_move):
            return self._castle(position, move, other)
        if board.is_en_passant(chess_move):
            return self._en_passant(move, other)
        if move.promotion is not None:
            self.made["promotion"] += 1
        if move.is_capture:
            return self._capture(position, move, other)
        return self._step(position, move, other)

    def _path(self, position: ChessPosition, move: Move) -> list[str]:
        """The squares a slide crosses, in order (none for a knight)."""
        board = position.chess_board
        origin, target = chess.parse_square(move.origin), chess.parse_square(move.target)
        if board.piece_type_at(origin) == chess.KNIGHT:
            return []
        between = list(chess.SquareSet(chess.between(origin, target)))
        between.sort(key=lambda square: chess.square_distance(origin, square))
        return [chess.square_name(square) for square in between]

    def _corner(self, position: ChessPosition, move: Move) -> str | None:
        """An empty corner square a diagonal slide may brush, if any."""
        (x0, y0), (x1, y1) = position.board.coordinates(move.origin), position.board.coordinates(move.target)
        kind = position.chess_board.piece_type_at(chess.parse_square(move.origin))
        if x0 == x1 or y0 == y1 or kind not in (chess.BISHOP, chess.QUEEN):
            return None
        corners = [
            f"{chess.FILE_NAMES[x0 + (1 if x1 > x0 else -1)]}{y0 + 1}",
            f"{chess.FILE_NAMES[x0]}{y0 + (2 if y1 > y0 else 0)}",
        ]
        empty = [cell for cell in corners if cell in position.board and cell not in position.pieces()]
        return self.rng.choice(empty) if empty else None

    def _slide(self, position: ChessPosition, move: Move, start: int) -> int:
        """Slide the piece from its square over the squares between; returns when it
        reaches the last of them (or leaves its square, for a short move)."""
        left = start
        self.lift(move.origin, left)
        corner = self._corner(position, move)
        if corner is not None and self.rng.random() < self.brush:
            self.made["corner brushed"] += 1
            on = left + self.rng.randint(0, 40)
            self.emit(on, corner, True)  # a pulse, no bounce: the magnet only passes by
            self.emit(on + self.rng.randint(2, 30), corner, False)
        for cell in self._path(position, move):
            on = max(0, left + self.rng.randint(-25, 25))
            off = on + self.rng.randint(20, 150)
            self.change(cell, True, on)
            self.change(cell, False, off)
            left = off
        return left

    def _step(self, position: ChessPosition, move: Move, other: str | None) -> int:
        start = self.time_ms
        knight = position.chess_board.piece_type_at(chess.parse_square(move.origin)) == chess.KNIGHT
        if move.promotion is not None:  # the pawn off, a queen fetched from the box
            self.lift(move.origin, start)
            landed = start + self.rng.randint(600, 2500)
        elif not knight and self.rng.random() < self.slide:
            self.made["slid"] += 1
            landed = max(0, self._slide(position, move, start) + self.rng.randint(-25, 25))
        else:
            self.made["knight lifted over" if knight else "lifted"] += 1
            self.lift(move.origin, start)
            landed = start + self.rng.randint(150, 1200)
        end = self.place(move.target, max(landed, start + 1))
        self._other_in_the_air(other, start, landed)
        return end

    def _capture(self, position: ChessPosition, move: Move, other: str | None) -> int:
        origin, target = move.origin, move.target
        knight = position.chess_board.piece_type_at(chess.parse_square(origin)) == chess.KNIGHT
        orders = ["capturer first", "captured first"] + ([] if knight or move.promotion else ["pushed off"])
        order = self.rng.choice(orders)
        self.made[order] += 1
        start = self.time_ms
        if order == "capturer first":
            hold = self.rng.randint(200, 1500) + (1000 if move.promotion else 0)
            self.lift(origin, start)
            self.lift(target, start + self.rng.randint(50, hold - 100))
            end = self.place(target, start + hold)
            self._other_in_the_air(other, start, start + hold)
            return end
        if order == "captured first":
            self.lift(target, start)
            left = start + self.rng.randint(300, 2000)
            self.lift(origin, left)
            landed = left + self.rng.randint(150, 1000) + (800 if move.promotion else 0)
            end = self.place(target, landed)
            self._other_in_the_air(other, left, landed)
            return end
        arrive = max(0, self._slide(position, move, start) + self.rng.randint(-25, 25))
        end = arrive
        if self.rng.random() < self.push_flicker:
            gone = self.lift(target, arrive)
            end = self.place(target, max(gone + 1, arrive + self.rng.randint(5, 40)))
        else:
            self.made["pushed off, no empty reading"] += 1
        self._other_in_the_air(other, start, arrive)
        return end

    def _en_passant(self, move: Move, other: str | None) -> int:
        captured = f"{move.target[0]}{move.origin[1]}"
        start = self.time_ms
        if self.rng.random() < 0.5:
            self.made["en passant, the pawn taken first"] += 1
            self.lift(captured, start)
            left = start + self.rng.randint(300, 1500)
            self.lift(move.origin, left)
            end = self.place(move.target, left + self.rng.randint(150, 1000))
        else:
            self.made["en passant, the pawn taken after"] += 1
            self.lift(move.origin, start)
            landed = start + self.rng.randint(150, 1000)
            self.place(move.target, landed)
            gone = landed + self.rng.randint(200, 1500)
            end = self.lift(captured, gone)
        self._other_in_the_air(other, start, end)
        return end

    def _castle(self, position: ChessPosition, move: Move, other: str | None) -> int:
        kingside = move.target[0] == "g"
        rank = move.origin[1]
        rook_from, rook_to = (f"h{rank}", f"f{rank}") if kingside else (f"a{rank}", f"d{rank}")
        king_from, king_to = move.origin, move.target
        start = self.time_ms
        order = self.rng.choice(("king first", "rook first", "both in the hand"))
        self.made[f"castling, {order}"] += 1
        if order == "king first":
            self.lift(king_from, start)
            landed = start + self.rng.randint(150, 1000)
            self.place(king_to, landed)
            rook_up = landed + self.rng.randint(100, 800)
            self.lift(rook_from, rook_up)
            end = self.place(rook_to, rook_up + self.rng.randint(150, 900))
        elif order == "rook first":
            self.lift(rook_from, start)
            landed = start + self.rng.randint(150, 900)
            self.place(rook_to, landed)
            king_up = landed + self.rng.randint(100, 800)
            self.lift(king_from, king_up)
            end = self.place(king_to, king_up + self.rng.randint(150, 1000))
        else:
            self.lift(king_from, start)
            self.lift(rook_from, start + self.rng.randint(50, 500))
            down = start + self.rng.randint(700, 1500)
            first, second = (king_to, rook_to) if self.rng.random() < 0.5 else (rook_to, king_to)
            self.place(first, down)
            end = self.place(second, down + self.rng.randint(50, 600))
        self._other_in_the_air(other, start, end)
        return end

    def after(self, position: ChessPosition) -> None:
        """After the game: a touch or two, 2 s of quiet and a last touch."""
        pieces = list(position.pieces())
        self.time_ms = self._rested() + self.rng.randint(800, 3000)
        for _ in range(self.rng.randint(0, 2)):
            self.made["noise after the game"] += 1
            self.touch(self.rng.choice(pieces))
            self.time_ms = self._rested() + self.rng.randint(500, 2000)
        self.time_ms = self._rested() + self.rng.randint(2000, 4000)
        self.touch(self.rng.choice(pieces))


@dataclass(frozen=True)
class ChessGameLog:
    """A game of chess as hands made it into a sensor log."""

    start: ChessPosition
    moves: list[Move]
    events: list[SensorEvent]
    hands: ChessHands

    def to_text(self) -> str:
        return write_sensor_log(self.events, header=f"position: {self.start.to_text()}")

    def unseen(self) -> list[int]:
        """The plies of the captures whose target never read empty."""
        return [
            ply
            for ply, capture, window in self.hands.captures
            if not any(
                event.cell == capture.target and window.start - 150 <= event.time_ms <= window.end + 50
                for event in self.events
            )
        ]

    def decidable(self) -> int:
        """How many of the moves the board shows: up to a capture no scan saw that the
        reply does not prove (unseen itself, or legal after another capture of the same
        piece too, or no reply at all)."""
        unseen = set(self.unseen())
        board = self.start.copy()
        for ply, move in enumerate(self.moves):
            if ply in unseen:
                reply = self.moves[ply + 1] if ply + 1 < len(self.moves) else None
                if reply is None or ply + 1 in unseen or not _proves(board, move, reply):
                    return ply
            board.push(move)
        return len(self.moves)


def _proves(board: ChessPosition, capture: Move, reply: Move) -> bool:
    fits = 0
    for other in board.legal_moves():
        if other.origin != capture.origin or not other.is_capture or board.footprint(other).fills:
            continue
        after = board.copy()
        after.push(other)
        if reply in after.legal_moves():
            fits += 1
    return fits == 1


def random_chess_moves(
    rng: random.Random, start: ChessPosition, plies: int, *, underpromote: bool = False
) -> list[Move]:
    """Up to ``plies`` random legal moves from ``start``, captures, castling and
    promotions preferred now and then so that a short game holds them; a pawn promoted
    becomes a queen unless ``underpromote``."""
    board, moves = start.copy(), list[Move]()
    while len(moves) < plies and (legal := board.legal_moves()):
        if not underpromote:
            legal = [move for move in legal if move.promotion in (None, chess.QUEEN)]
        special = [m for m in legal if m.is_capture or m.promotion or board.footprint(m).fills.__len__() > 1]
        pawns = [m for m in legal if board.pieces()[m.origin].kind == chess.PAWN]
        pool = special if special and rng.random() < 0.5 else pawns if pawns and rng.random() < 0.4 else legal
        move = rng.choice(pool)
        moves.append(board.push(move))
    return moves


def play_chess_game(
    rng: random.Random, start: ChessPosition, plies: int, *, polled: bool = False, **hands: object
) -> ChessGameLog:
    """Random moves from ``start`` played by :class:`ChessHands` (``hands`` its
    settings); read by a latching scanner or, ``polled``, at 200 Hz."""
    moves = random_chess_moves(rng, start, plies)
    hand = ChessHands(rng, **hands)  # type: ignore[arg-type]
    events = hand.game(start, moves)
    if polled:
        events = poll(events, phase=rng.randrange(5))
    return ChessGameLog(start, moves, events, hand)


def outcome_of(log: ChessGameLog) -> Outcome | None:
    board = log.start.copy()
    for move in log.moves:
        board.push(move)
    return board.outcome()


__all__ = ["ChessGameLog", "ChessHands", "Side", "play_chess_game", "random_chess_moves"]
