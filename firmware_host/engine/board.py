"""The search's view of a position: a tuple of plain ints, made and read without
objects, and its Zobrist key.

A *node* is ``(own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo,
colour, key)``: the bitboards of the side to move and of its opponent, in the rules
engine's bit layout (its pieces, its warblers and cuckoo, its cuckoo), the colour of
the side to move (0 red, 1 blue) and the node's Zobrist key. Making a move builds the
child tuple; the search never takes a move back, it just drops the child.

The generated moves are the rules engine's own :class:`Move` values
(:class:`~firmware_host.rules._tables.MoveTables`), so a move the search picks is
equal to one of :meth:`Position.legal_moves`.
"""

from __future__ import annotations

import random

from firmware_host.rules import PASS, Kind, Move, Nest, Position, Side
from firmware_host.rules._tables import MoveTables, SideTables

Node = tuple[int, int, int, int, int, int, int, int]

ZOBRIST_SEED = 0x0C0C_C00  # fixed: the keys are the same on every machine and in every run
"""The seed of the Zobrist keys; they do not depend on an engine's own seed."""

ONGOING, MOVER_LOSES, MOVER_WINS = 0, 1, 2
"""What :meth:`BoardTables.play` says of the game after a move."""

_COLOURS = (Side.RED, Side.BLUE)
_KINDS = (Kind.EGG, Kind.WARBLER, Kind.CUCKOO)


class BoardTables:
    """Everything the search needs to know of one nest: move generation, homebases,
    forward directions and the Zobrist keys.

    >>> tables = BoardTables(Nest.default())
    >>> position = Position.from_lineup("standard")
    >>> node = tables.node_of(position)
    >>> node[-1] == tables.key_of(position)
    True
    """

    def __init__(self, nest: Nest) -> None:
        self.nest = nest
        self.moves = MoveTables(nest)
        self.sides: tuple[SideTables, SideTables] = (self.moves.sides[0], self.moves.sides[1])
        self.all_cells = self.moves.all_cells
        self.homebases = (self.sides[0].homebases, self.sides[1].homebases)
        rng = random.Random(ZOBRIST_SEED)
        bits = [self.moves.bit_of[cell] for cell in nest.cells]
        # keys[colour * 3 + kind]: the key of a piece of that colour and kind, by its bit.
        self.keys: tuple[dict[int, int], ...] = tuple({bit: rng.getrandbits(64) for bit in bits} for _ in range(6))
        self.turn_key = rng.getrandbits(64)

    def node_of(self, position: Position) -> Node:
        """The node of ``position`` (which must be on this nest), key included."""
        boards = [[0, 0, 0], [0, 0, 0]]
        bit_of = self.moves.bit_of
        for cell, piece in position.pieces().items():
            bit = bit_of[cell]
            side = boards[_COLOURS.index(piece.side)]
            side[0] |= bit
            if piece.kind.is_long_range:
                side[1] |= bit
            if piece.kind is Kind.CUCKOO:
                side[2] = bit
        colour = _COLOURS.index(position.turn)
        own, opponent = boards[colour], boards[1 - colour]
        return (*own, *opponent, colour, self.key_of(position))  # type: ignore[return-value]

    def key_of(self, position: Position) -> int:
        """The Zobrist key of ``position`` computed from scratch: one key per piece on
        its cell, and one more when blue is to move."""
        key = self.turn_key if position.turn is Side.BLUE else 0
        bit_of = self.moves.bit_of
        for cell, piece in position.pieces().items():
            key ^= self.keys[_COLOURS.index(piece.side) * 3 + _KINDS.index(piece.kind)][bit_of[cell]]
        return key

    def legal_moves(self, node: Node) -> list[Move]:
        """The moves of the side to move of a game that goes on: its captures if it has
        any, else its steps, else ``[PASS]`` if its opponent can move, else none (a draw)."""
        own, own_long, _, opponent, opponent_long, _, colour, _ = node
        moves = self.moves.captures(own, own_long, opponent) or self.moves.steps(
            own, own_long, opponent, self.sides[colour]
        )
        if moves:
            return moves
        if self.moves.captures(opponent, opponent_long, own) or self.moves.steps(
            opponent, opponent_long, own, self.sides[1 - colour]
        ):
            return [PASS]
        return []

    def play(self, node: Node, move: Move) -> tuple[Node, int]:
        """The node after ``move`` (one of :meth:`legal_moves` of ``node``), and what that
        move decided (``docs/rules.md`` §4, checked as after every move): :data:`ONGOING`,
        :data:`MOVER_WINS` or :data:`MOVER_LOSES`."""
        own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo, colour, key = node
        origin = move._origin_bit
        if not origin:  # a pass
            return (
                opponent,
                opponent_long,
                opponent_cuckoo,
                own,
                own_long,
                own_cuckoo,
                1 - colour,
                key ^ self.turn_key,
            ), 0
        target = move._target_bit
        keys = self.keys
        base = colour * 3
        jump = origin | target
        own ^= jump
        if own_long & origin:
            own_long ^= jump
            if own_cuckoo == origin:
                own_cuckoo = target
                moved = keys[base + 2]
            else:
                moved = keys[base + 1]
        else:
            moved = keys[base]
        key ^= moved[origin] ^ moved[target] ^ self.turn_key
        result = ONGOING
        if move.is_capture:
            victim_base = 3 - base
            opponent ^= target
            if opponent_long & target:
                opponent_long ^= target
                if opponent_cuckoo == target:
                    opponent_cuckoo = 0
                    key ^= keys[victim_base + 2][target]
                    result = MOVER_WINS  # condition 2
                else:
                    key ^= keys[victim_base + 1][target]
            else:
                key ^= keys[victim_base][target]
            if opponent == opponent_cuckoo and opponent_cuckoo:
                result = MOVER_LOSES  # condition 1: the opponent has only its cuckoo left
        if not result and target & self.homebases[1 - colour]:
            result = MOVER_WINS if own_cuckoo == target else MOVER_LOSES  # conditions 3 and 4
        return (opponent, opponent_long, opponent_cuckoo, own, own_long, own_cuckoo, 1 - colour, key), result
