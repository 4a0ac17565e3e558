"""The engine's precomputed view of a nest: bitboards and move tables.

Each cell gets one bit of a Python int. Cells sit in rows of ``width`` bits with one
unused bit after every row, so that shifting a whole board by a direction's offset
moves every piece one cell that way, and a piece shifted off the side of its row lands
on an unused bit instead of wrapping onto the next row. For every direction and every
cell a move can reach, the tables hold the ready-made :class:`Move`, keyed by the bit
of its target: generating moves is shifting, masking and looking up.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.rules.moves import Move
from firmware_host.rules.nest import Direction, Nest
from firmware_host.rules.pieces import Side

MoveTable = dict[int, Move]
"""A direction's moves, keyed by the bit of the target cell."""


@dataclass(frozen=True)
class DirectionTables:
    """The moves in one direction: shift a board left (``is_up``) or right by ``shift``
    bits to move every piece one cell that way."""

    is_up: bool
    shift: int
    step: MoveTable  # one cell
    double_step: MoveTable  # two cells, the middle one empty
    capture: MoveTable  # onto a neighbour
    far_capture: MoveTable  # two cells away, the middle one empty


@dataclass(frozen=True)
class SideTables:
    """What differs between red and blue."""

    forward: tuple[DirectionTables, ...]
    homebases: int  # bits of this side's own homebases


class MoveTables:
    """Bit layout and move tables for one nest."""

    def __init__(self, nest: Nest) -> None:
        qs = [nest.coordinates(cell)[0] for cell in nest.cells]
        rs = [nest.coordinates(cell)[1] for cell in nest.cells]
        q_min, r_min = min(qs), min(rs)
        width = max(qs) - q_min + 2  # one unused bit at the end of every row
        self.bit_of: dict[str, int] = {}
        for cell in nest.cells:
            q, r = nest.coordinates(cell)
            self.bit_of[cell] = 1 << ((r - r_min) * width + (q - q_min))
        self.cell_of: dict[int, str] = {bit: cell for cell, bit in self.bit_of.items()}
        self.all_cells = sum(self.bit_of.values())
        offsets = {direction: direction.dr * width + direction.dq for direction in Direction}
        self.directions = {
            direction: self._direction_tables(nest, direction, offsets[direction]) for direction in Direction
        }
        self.all_directions = tuple(self.directions.values())
        self.sides = tuple(
            SideTables(
                forward=tuple(self.directions[direction] for direction in nest.forward(side)),
                homebases=self.bits(nest.homebases(side)),
            )
            for side in (Side.RED, Side.BLUE)
        )

    def bits(self, cells: frozenset[str] | set[str] | list[str]) -> int:
        """The board with exactly ``cells`` set."""
        return sum(self.bit_of[cell] for cell in cells)

    def cells_of(self, board: int) -> list[str]:
        """The cells set in ``board``."""
        found = []
        while board:
            bit = board & -board
            board ^= bit
            found.append(self.cell_of[bit])
        return found

    def _direction_tables(self, nest: Nest, direction: Direction, offset: int) -> DirectionTables:
        tables: tuple[MoveTable, ...] = ({}, {}, {}, {})
        step, double_step, capture, far_capture = tables
        for origin in nest.cells:
            middle = nest.neighbour(origin, direction)
            if middle is None:
                continue
            step[self.bit_of[middle]] = self._move(origin, middle, False)
            capture[self.bit_of[middle]] = self._move(origin, middle, True)
            target = nest.neighbour(middle, direction)
            if target is not None:
                double_step[self.bit_of[target]] = self._move(origin, target, False)
                far_capture[self.bit_of[target]] = self._move(origin, target, True)
        return DirectionTables(offset > 0, abs(offset), step, double_step, capture, far_capture)

    def _move(self, origin: str, target: str, is_capture: bool) -> Move:
        return Move(origin, target, is_capture, self.bit_of[origin], self.bit_of[target])

    def captures(self, own: int, own_long: int, opponent: int) -> list[Move]:
        """Every capture of a side with pieces on ``own`` (warblers and cuckoos on
        ``own_long``) against pieces on ``opponent``: onto a neighbour in any direction,
        and for warblers and cuckoos two cells away over an empty cell."""
        # This and steps() are the engine's hot path: plain loops over ints.
        empty = self.all_cells ^ own ^ opponent
        moves: list[Move] = []
        append = moves.append
        for way in self.all_directions:
            if way.is_up:
                near = (own << way.shift) & opponent
                far = (((own_long << way.shift) & empty) << way.shift) & opponent
            else:
                near = (own >> way.shift) & opponent
                far = (((own_long >> way.shift) & empty) >> way.shift) & opponent
            while near:
                bit = near & -near
                append(way.capture[bit])
                near ^= bit
            while far:
                bit = far & -far
                append(way.far_capture[bit])
                far ^= bit
        return moves

    def steps(self, own: int, own_long: int, opponent: int, side: SideTables) -> list[Move]:
        """Every step and double step forward onto an empty cell, as :meth:`captures`."""
        empty = self.all_cells ^ own ^ opponent
        moves: list[Move] = []
        append = moves.append
        for way in side.forward:
            if way.is_up:
                near = (own << way.shift) & empty
                far = (((own_long << way.shift) & empty) << way.shift) & empty
            else:
                near = (own >> way.shift) & empty
                far = (((own_long >> way.shift) & empty) >> way.shift) & empty
            while near:
                bit = near & -near
                append(way.step[bit])
                near ^= bit
            while far:
                bit = far & -far
                append(way.double_step[bit])
                far ^= bit
        return moves
