"""A model of real hands on the nest: turns moves into the reed-switch readings they
cause, with the ways people actually move pieces.

- Steps: lift and place, or slide (the target may close before the origin opens).
- Double steps: lifted over, or slid across the middle cell, which reads occupied for a
  moment, or long enough to count (a pause mid-slide, up to 800 ms).
- Captures in every order: capturer first, captured piece first, or the captured piece
  pushed off as the capturer lands (its cell reads empty for a few milliseconds only,
  maybe just before the capturer's cell opens).
- Contact bounce on any change; hesitation (a piece lifted and put back first); pauses
  between moves from 50 ms (a fast reply) to 3 s.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

from firmware_host.referee.sensor_log import SensorEvent
from firmware_host.rules import Move, Nest, Position


@dataclass
class Hand:
    """Plays moves as sensor events; ``rng`` decides how."""

    rng: random.Random
    nest: Nest = field(default_factory=Nest.default)
    bounce: float = 0.3  # chance that a change bounces
    hesitate: float = 0.2  # chance of lifting another piece and putting it back first
    events: list[SensorEvent] = field(default_factory=list)
    time_ms: int = 0

    def wait(self, low: int, high: int) -> None:
        self.time_ms += self.rng.randint(low, high)

    def change(self, cell: str, occupied: bool) -> None:
        """One change, maybe with contact bounce (a few readings within milliseconds)."""
        self.events.append(SensorEvent(self.time_ms, cell, occupied))
        if self.rng.random() < self.bounce:
            for _ in range(self.rng.choice((1, 2))):
                self.time_ms += self.rng.randint(0, 3)
                self.events.append(SensorEvent(self.time_ms, cell, not occupied))
                self.time_ms += self.rng.randint(0, 3)
                self.events.append(SensorEvent(self.time_ms, cell, occupied))

    def last_touched(self, cell: str) -> int:
        return max((event.time_ms for event in self.events if event.cell == cell), default=-(10**9))

    def middle(self, move: Move) -> str | None:
        assert move.origin is not None and move.target is not None
        return self.nest.between(move.origin, move.target)

    def play(self, position: Position, move: Move) -> None:
        """The events of ``move`` made in ``position``, after a pause."""
        self.wait(50, 3000)
        if move.is_pass:
            return  # a side without a move does nothing; the referee passes for it
        assert move.origin is not None and move.target is not None
        if self.rng.random() < self.hesitate:
            own = [cell for cell, piece in position.pieces().items() if piece.side is position.turn]
            cell = self.rng.choice(own)
            self.change(cell, False)
            self.wait(100, 1500)
            self.change(cell, True)
            self.wait(100, 1000)
        if move.is_capture:
            self.capture(move)
        else:
            self.step(move)

    def step(self, move: Move) -> None:
        assert move.origin is not None and move.target is not None
        middle = self.middle(move)
        style = self.rng.choice(("lift", "slide"))
        if style == "lift":
            self.change(move.origin, False)
            self.wait(150, 1500)
            self.change(move.target, True)
        elif middle is None:
            if self.rng.random() < 0.5:  # the target closes while the origin is still closed
                self.change(move.target, True)
                self.wait(5, 60)
                self.change(move.origin, False)
            else:
                self.change(move.origin, False)
                self.wait(5, 200)
                self.change(move.target, True)
        else:
            self.change(move.origin, False)
            self.wait(20, 200)
            self.change(middle, True)
            self.wait(5, 800)  # passing over, or a pause on the middle cell
            self.change(middle, False)
            self.wait(20, 200)
            self.change(move.target, True)

    def capture(self, move: Move) -> None:
        assert move.origin is not None and move.target is not None
        order = self.rng.choice(("capturer first", "captured first", "pushed off", "pushed off early"))
        if order == "pushed off early" and self.time_ms - self.last_touched(move.target) < 300:
            order = "pushed off"  # a piece only just put down is not swept off before the capturer moves
        if order == "capturer first":
            self.change(move.origin, False)
            self.wait(100, 1500)
            self.change(move.target, False)
            self.wait(100, 1500)
            self.change(move.target, True)
        elif order == "captured first":
            self.change(move.target, False)
            self.wait(100, 1500)
            self.change(move.origin, False)
            self.wait(100, 1500)
            self.change(move.target, True)
        elif order == "pushed off":
            self.change(move.origin, False)
            self.wait(100, 1200)
            self.change(move.target, False)
            self.wait(1, 20)  # the captured piece is swept off as the capturer arrives
            self.change(move.target, True)
        else:  # the captured piece moves before the capturer has quite left its cell
            self.change(move.target, False)
            self.wait(1, 15)
            self.change(move.target, True)
            self.wait(1, 80)
            self.change(move.origin, False)

    def game(self, position: Position, moves: list[Move]) -> list[SensorEvent]:
        """The events of a whole game from ``position`` (which ends unchanged)."""
        board = position.copy()
        for move in moves:
            self.play(board, move)
            board.push(move)
        return self.events


def random_moves(rng: random.Random, start: Position, plies: int = sys.maxsize) -> list[Move]:
    """Up to ``plies`` random legal moves from ``start`` (passes included); by default,
    until the game ends."""
    board = start.copy()
    moves: list[Move] = []
    while len(moves) < plies and (legal := board.legal_moves()):
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves
