"""What a position expects of the nest: which sensed occupancies are a finished move,
a move in progress, or neither.

Sensors tell only which cells hold a piece. Against the position the game is in, a
sensed occupancy differs by the cells *lifted* (a piece should be there, none is) and
the cells *placed* (a piece is there, none should be). A step or double step lifts its
origin and places its target; a capture lifts only its origin, since the capturer takes
the captured piece's cell, so it also needs evidence: its target must have read empty,
however briefly, since the capturer left its cell. Otherwise "capturer lifted and held
in the air" could not be told from "capture done".

Cells whose sensor is faulty are left out of every comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass

from firmware_host.rules import Move, Piece, Position

Evidence = Callable[[str, str], bool | None]
"""``evidence(origin, target)``: whether ``target`` read empty since ``origin`` was
lifted; None when a faulty sensor leaves it unknown."""


@dataclass(frozen=True)
class Match:
    """A move the sensed occupancy shows finished. ``is_certain`` is False when a faulty
    sensor or missing evidence leaves a doubt only the player can settle."""

    move: Move
    is_certain: bool


class TurnView:
    """One position's expectations, computed once per position and then asked for
    every change the sensors report."""

    def __init__(self, position: Position, *, lenient: bool = False, only: tuple[Move, ...] | None = None) -> None:
        """The expectations of ``position``. ``only``, if given, are the moves the side
        to move may make this turn: the computer's chosen move, or none while it is
        still choosing. Any other move is then refused, legal or not."""
        self.position = position
        self.pieces: dict[str, Piece] = position.pieces()
        self.expected = frozenset(self.pieces)
        self.side = position.turn
        legal = position.legal_moves()
        self.compulsory = tuple(move for move in legal if move.is_capture)
        """The captures the rules make compulsory (``only`` aside), for the players."""
        accepted = list(legal)
        if lenient and self.compulsory:
            accepted += [move for move in position.steps_ignoring_captures() if move not in accepted]
        if only is not None:
            accepted = [move for move in accepted if move in only]
        self.only = only
        self.moves = tuple(move for move in accepted if not move.is_pass)
        self.captures = tuple(move for move in self.moves if move.is_capture)
        self.own = frozenset(cell for cell, piece in self.pieces.items() if piece.side is self.side)
        self.liftable = self.own | {move.target for move in self.captures if move.target}
        # The cells a piece of each origin may touch on its way: targets and middles.
        nest = position.nest
        self.path: dict[str, set[str]] = {}
        middles = set()  # (origin, middle) of every double step and distance-2 capture
        for move in self.moves:
            assert move.origin is not None and move.target is not None
            cells = self.path.setdefault(move.origin, set())
            cells.add(move.target)
            middle = nest.between(move.origin, move.target)
            if middle is not None:
                cells.add(middle)
                middles.add((move.origin, middle))
        self.targets = {(move.origin, move.target): move for move in self.moves if not move.is_capture}
        # A step a warbler or cuckoo may still extend into a double step or a capture two
        # cells away (lenient refereeing accepts such a step), sliding on.
        self.extendable = frozenset(move for move in self.targets.values() if (move.origin, move.target) in middles)

    def difference(self, occupied: Set[str], ignored: Set[str]) -> tuple[frozenset[str], frozenset[str]]:
        """The cells lifted and placed relative to this position, faulty ones left out."""
        lifted = self.expected - occupied - ignored
        placed = frozenset(occupied - self.expected - ignored)
        return lifted, placed

    def matches(self, occupied: Set[str], ignored: Set[str], evidence: Evidence) -> list[Match]:
        """The moves the nest shows finished."""
        lifted, placed = self.difference(occupied, ignored)
        if not lifted and not placed and not ignored:
            return []
        found = []
        for move in self.moves:
            assert move.origin is not None and move.target is not None
            move_lifted = {move.origin} - ignored
            move_placed = set() if move.is_capture else {move.target} - ignored
            if lifted != move_lifted or placed != move_placed:
                continue
            if move.is_capture:
                proof = evidence(move.origin, move.target)
                if proof is False:
                    continue
                found.append(Match(move, proof is True))
            else:
                found.append(Match(move, not ({move.origin, move.target} & ignored)))
        return found

    def is_in_progress(self, occupied: Set[str], ignored: Set[str]) -> bool:
        """Whether the nest can be a move of the side to move under way: pieces it may
        lift are in the air (its own, and those it can capture), and at most one piece
        rests on a cell that a lifted piece may cross or reach."""
        lifted, placed = self.difference(occupied, ignored)
        if not lifted <= self.liftable:
            return False
        if not placed:
            return True
        if len(placed) > 1:
            return False
        (cell,) = placed
        return any(cell in self.path.get(origin, ()) for origin in lifted)

    def is_resting_between(self, occupied: Set[str], ignored: Set[str]) -> bool:
        """Whether a piece rests on a cell it may only pass (the middle of a double step
        or distance-2 capture), not on one it may stop on."""
        lifted, placed = self.difference(occupied, ignored)
        if len(placed) != 1:
            return False
        (cell,) = placed
        return not any((origin, cell) in self.targets for origin in lifted)
