"""The bitboard layer: a nest's cells as the bits of an int, and the game's moves and
results worked out on six such ints. It is the rules' one move-making and one outcome
decision: :class:`~firmware_host.games.cuckoo.rules.Position` is built on it, and so is the
computer opponent's search (``firmware_host/games/cuckoo/engine``), which needs positions without
objects.

**Bits.** Each cell of a nest gets one bit. Cells sit in rows of ``width`` bits with one
unused bit after every row, so that shifting a whole board by a direction's offset
moves every piece one cell that way, and a piece shifted off the side of its row lands
on an unused bit instead of wrapping onto the next row. The lowest bit is the first
cell in reading order from red's side (``a1`` on hexhex-5).

**States.** A :data:`State` is six boards seen from the side to move: its pieces, its
long-range pieces (warblers and cuckoo), its cuckoo (0 if it has none), then the same
three for its opponent. A *colour* says which side is to move: 0 red, 1 blue (an index
of :data:`COLOURS`). Making a move (:func:`play`) builds the next state, with the roles
swapped; nothing is changed in place, so taking a move back is keeping the old state.

**Moves.** For every direction and every cell a move can reach, the tables hold the
ready-made :class:`Move`, keyed by the bit of its target: generating moves is shifting,
masking and looking up. The moves generated here carry their bits (:func:`origin_bit`,
:func:`target_bit`), and :func:`play` takes only such moves.

>>> from firmware_host.games.cuckoo.rules import Nest, Position
>>> bits = bitboards_of(Nest.default())
>>> state = bits.state_of(Position.from_lineup("standard").pieces(), RED)
>>> moves = bits.legal_moves(state, RED)
>>> len(moves), str(moves[0])
(14, 'd2-d3')
>>> after = play(state, moves[0])
>>> bits.cells_of(after[3] ^ state[0])  # red's pieces that moved: from d2 to d3
['d2', 'd3']
>>> bits.verdict(after, BLUE) == ONGOING
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from firmware_host.games.cuckoo.rules.moves import PASS, Move
from firmware_host.games.cuckoo.rules.nest import Direction, Nest
from firmware_host.games.cuckoo.rules.pieces import Kind, Piece, Side

State = tuple[int, int, int, int, int, int]
"""``(own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo)``: the side to
move's pieces, its warblers and cuckoo, its cuckoo; then its opponent's."""

RED, BLUE = 0, 1
"""The colours: the side to move of a state, as an index."""
COLOURS = (Side.RED, Side.BLUE)
"""The side of each colour."""

ONGOING = 0
"""What :meth:`Bitboards.verdict` says of a game that goes on. Any other verdict is
``2 * condition + winner``: the number of the winning condition (``docs/rules.md`` §4, 1 to
4) and the winner's colour."""

MoveTable = dict[int, Move]
"""A direction's moves, keyed by the bit of the target cell."""


@dataclass(frozen=True)
class DirectionTables:
    """The moves in one direction: shift a board left (``is_up``) or right by ``shift``
    bits to move every piece one cell that way."""

    direction: Direction
    is_up: bool
    shift: int
    step: MoveTable  # one cell
    double_step: MoveTable  # two cells, the middle one empty
    capture: MoveTable  # onto a neighbour
    far_capture: MoveTable  # two cells away, the middle one empty


_Generator = tuple[tuple[bool, int, MoveTable, MoveTable], ...]  # (is_up, shift, near, far tables) by direction


@cache
def bitboards_of(nest: Nest) -> Bitboards:
    """The bitboard layer of ``nest``, made once and shared (positions, the engine)."""
    return Bitboards(nest)


class Bitboards:
    """The bit layout and move tables of one nest, and the rules on its states.

    Build it with :func:`bitboards_of`, which makes one per nest: its moves are then
    the same objects for every position and search on that nest.
    """

    def __init__(self, nest: Nest) -> None:
        self.nest = nest
        qs = [nest.coordinates(cell)[0] for cell in nest.cells]
        rs = [nest.coordinates(cell)[1] for cell in nest.cells]
        q_min, r_min = min(qs), min(rs)
        width = max(qs) - q_min + 2  # one unused bit at the end of every row
        self.bit_of: dict[str, int] = {}
        """The bit of each cell."""
        for cell in nest.cells:
            q, r = nest.coordinates(cell)
            self.bit_of[cell] = 1 << ((r - r_min) * width + (q - q_min))
        self.cell_of: dict[int, str] = {bit: cell for cell, bit in self.bit_of.items()}
        """The cell of each bit."""
        self.all_cells = sum(self.bit_of.values())
        """The board with every cell set."""
        offsets = {direction: direction.dr * width + direction.dq for direction in Direction}
        self.directions: dict[Direction, DirectionTables] = {
            direction: self._direction_tables(direction, offsets[direction]) for direction in Direction
        }
        self.all_directions = tuple(self.directions.values())
        self.forward: tuple[tuple[DirectionTables, ...], ...] = tuple(
            tuple(self.directions[direction] for direction in nest.forward(side)) for side in COLOURS
        )
        """By colour: the directions its pieces step in."""
        self.homebases: tuple[int, int] = (self.bits(nest.homebases(Side.RED)), self.bits(nest.homebases(Side.BLUE)))
        """By colour: the board of that side's own homebases (its opponent's goal)."""
        # The generators' loops over plain tuples, in the order of Direction.
        self._captures: _Generator = tuple((w.is_up, w.shift, w.capture, w.far_capture) for w in self.all_directions)
        self._steps: tuple[_Generator, ...] = tuple(
            tuple((w.is_up, w.shift, w.step, w.double_step) for w in forward) for forward in self.forward
        )

    def _direction_tables(self, direction: Direction, offset: int) -> DirectionTables:
        nest = self.nest
        step: MoveTable = {}
        double_step: MoveTable = {}
        capture: MoveTable = {}
        far_capture: MoveTable = {}
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
        return DirectionTables(direction, offset > 0, abs(offset), step, double_step, capture, far_capture)

    def _move(self, origin: str, target: str, is_capture: bool) -> Move:
        return Move(origin, target, is_capture, self.bit_of[origin], self.bit_of[target])

    # -- boards and cells ---------------------------------------------------------------

    def bits(self, cells: Iterable[str]) -> int:
        """The board with exactly ``cells`` set."""
        return sum(self.bit_of[cell] for cell in set(cells))

    def cells_of(self, board: int) -> list[str]:
        """The cells set in ``board``, in reading order."""
        found = []
        cell_of = self.cell_of
        while board:
            bit = board & -board
            board ^= bit
            found.append(cell_of[bit])
        return found

    def state_of(self, pieces: Mapping[str, Piece], colour: int) -> State:
        """The state of ``pieces`` (cell to piece, every cell on the nest, at most one
        cuckoo a side: :class:`~firmware_host.games.cuckoo.rules.Position` checks) with ``colour``
        to move."""
        boards = [[0, 0, 0], [0, 0, 0]]  # by colour: all pieces, long-range pieces, cuckoo
        bit_of = self.bit_of
        for cell, piece in pieces.items():
            bit = bit_of[cell]
            side = boards[COLOURS.index(piece.side)]
            side[0] |= bit
            if piece.kind.is_long_range:
                side[1] |= bit
            if piece.kind is Kind.CUCKOO:
                side[2] = bit
        (own, own_long, own_cuckoo), (opponent, opponent_long, opponent_cuckoo) = boards[colour], boards[1 - colour]
        return own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo

    # -- moves --------------------------------------------------------------------------

    def captures(self, own: int, own_long: int, opponent: int) -> list[Move]:
        """Every capture of a side with pieces on ``own`` (warblers and cuckoo on
        ``own_long``) against pieces on ``opponent``: onto a neighbour in any direction,
        and for warblers and cuckoos two cells away over an empty cell."""
        return _moves(self._captures, own, own_long, opponent, self.all_cells ^ own ^ opponent)

    def steps(self, own: int, own_long: int, opponent: int, colour: int) -> list[Move]:
        """Every step and double step forward onto an empty cell of the side of
        ``colour``, with boards as in :meth:`captures`."""
        empty = self.all_cells ^ own ^ opponent
        return _moves(self._steps[colour], own, own_long, empty, empty)

    def legal_moves(self, state: State, colour: int) -> list[Move]:
        """The legal moves of a game that goes on (its :meth:`verdict` is
        :data:`ONGOING`), ``colour`` to move: the captures if there is one (capturing is
        compulsory), else the steps and double steps forward; ``[PASS]`` if the side
        has no move but its opponent has; empty if neither side can move (a draw)."""
        own, own_long, _, opponent, opponent_long, _ = state
        empty = self.all_cells ^ own ^ opponent
        moves = _moves(self._captures, own, own_long, opponent, empty) or _moves(
            self._steps[colour], own, own_long, empty, empty
        )
        if moves:
            return moves
        if _moves(self._captures, opponent, opponent_long, own, empty) or _moves(
            self._steps[1 - colour], opponent, opponent_long, empty, empty
        ):
            return [PASS]
        return []

    # -- results ------------------------------------------------------------------------

    def verdict(self, state: State, colour: int) -> int:
        """How the pieces of ``state``, ``colour`` to move, decide the game (``docs/rules.md``
        §4): :data:`ONGOING`, or ``2 * condition + winner`` (see :data:`ONGOING`) for the
        first winning condition that holds, each in turn, for red then for blue. A draw
        (no side can move) is not a verdict of the pieces: see :meth:`legal_moves`.

        From any position reached in play this is the rule "after every move, check 1
        to 4" for the side that moved.
        """
        own, _, own_cuckoo, opponent, _, opponent_cuckoo = state
        homebases = self.homebases
        if (
            own_cuckoo
            and opponent_cuckoo
            and own != own_cuckoo
            and opponent != opponent_cuckoo
            and not (own & homebases[1 - colour] or opponent & homebases[colour])
        ):
            return ONGOING  # the usual case, in one test
        if colour == RED:
            red, red_cuckoo, blue, blue_cuckoo = own, own_cuckoo, opponent, opponent_cuckoo
        else:
            red, red_cuckoo, blue, blue_cuckoo = opponent, opponent_cuckoo, own, own_cuckoo
        red_home, blue_home = homebases
        checks = (
            (red_cuckoo and red == red_cuckoo, 1, RED),
            (blue_cuckoo and blue == blue_cuckoo, 1, BLUE),
            (not red_cuckoo, 2, BLUE),
            (not blue_cuckoo, 2, RED),
            (red_cuckoo & blue_home, 3, RED),
            (blue_cuckoo & red_home, 3, BLUE),
            ((red ^ red_cuckoo) & blue_home, 4, BLUE),
            ((blue ^ blue_cuckoo) & red_home, 4, RED),
        )
        for holds, condition, winner in checks:
            if holds:
                return 2 * condition + winner
        return ONGOING


def _moves(ways: _Generator, own: int, own_long: int, targets: int, empty: int) -> list[Move]:
    """The moves in ``ways`` of the pieces on ``own`` onto a neighbour in ``targets``,
    and of those on ``own_long`` onto a cell of ``targets`` two away over an ``empty``
    cell: captures with the opponent's pieces as targets, steps with the empty cells."""
    # The hot path of perft and of the search: plain loops over ints.
    moves: list[Move] = []
    append = moves.append
    for is_up, shift, near_table, far_table in ways:
        if is_up:
            near = (own << shift) & targets
            far = (((own_long << shift) & empty) << shift) & targets
        else:
            near = (own >> shift) & targets
            far = (((own_long >> shift) & empty) >> shift) & targets
        while near:
            bit = near & -near
            append(near_table[bit])
            near ^= bit
        while far:
            bit = far & -far
            append(far_table[bit])
            far ^= bit
    return moves


def play(state: State, move: Move) -> State:
    """The state after ``move``, one of the moves this layer generated for ``state``
    (or :data:`~firmware_host.games.cuckoo.rules.PASS` where it is legal), seen from the opponent,
    who is then to move. Any other move gives a state that is no position of the game.

    >>> bits = bitboards_of(Nest.default())
    >>> state = bits.state_of({"e5": Piece(Side.RED, Kind.WARBLER), "e7": Piece(Side.BLUE, Kind.EGG)}, RED)
    >>> [str(move) for move in bits.legal_moves(state, RED)]
    ['e5xe7']
    >>> play(state, bits.legal_moves(state, RED)[0]) == (0, 0, 0, bits.bit_of["e7"], bits.bit_of["e7"], 0)
    True
    """
    own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo = state
    origin = move._origin_bit
    if origin:  # not a pass
        target = move._target_bit
        jump = origin | target
        own ^= jump
        if own_long & origin:
            own_long ^= jump
            if own_cuckoo == origin:
                own_cuckoo = target
        if move.is_capture:
            opponent ^= target
            if opponent_long & target:
                opponent_long ^= target
                if opponent_cuckoo == target:
                    opponent_cuckoo = 0
    return opponent, opponent_long, opponent_cuckoo, own, own_long, own_cuckoo


def origin_bit(move: Move) -> int:
    """The bit of ``move``'s origin, for a move this layer generated; 0 for a pass and
    for a move not taken from a position's moves (such as one read from text)."""
    return move._origin_bit


def target_bit(move: Move) -> int:
    """The bit of ``move``'s target, as :func:`origin_bit`."""
    return move._target_bit
