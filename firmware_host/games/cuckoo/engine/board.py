"""The search's view of a nest: the rules' bitboard layer
(:mod:`firmware_host.games.cuckoo.rules.bitboards`) and the Zobrist keys of its states.

A node of the search is a state of the bitboard layer, the colour to move and the
state's Zobrist key: three plain values, made without objects. Moves are made by the
layer's :func:`~firmware_host.games.cuckoo.rules.bitboards.play` and results decided by its
:meth:`~firmware_host.games.cuckoo.rules.bitboards.Bitboards.verdict` (in its loop over a node's
moves the search writes out ``play()`` and the usual case of ``verdict()``, and a test
checks every state it reaches against ``play()``); this module only keys the states
from scratch; the search keys its nodes move by move, from what changed
(``search.py``), and a test checks those keys against these. The moves are the
layer's own :class:`Move` values, so a move the search picks is equal to one of
:meth:`Position.legal_moves`.
"""

from __future__ import annotations

import random

from firmware_host.games.cuckoo.rules import Nest, Position
from firmware_host.games.cuckoo.rules.bitboards import COLOURS, State, bitboards_of, origin_bit, target_bit

ZOBRIST_SEED = 0x0C0C_C00  # fixed: the keys are the same on every machine and in every run
"""The seed of the Zobrist keys; they do not depend on an engine's own seed."""


class BoardTables:
    """Everything the search needs to know of one nest: its bitboard layer, and the
    Zobrist keys, one per colour, kind and cell, and one for blue to move.

    >>> tables = BoardTables(Nest.default())
    >>> position = Position.from_lineup("standard")
    >>> state, colour, key = tables.node_of(position)
    >>> key == tables.key_of(position)
    True
    """

    def __init__(self, nest: Nest) -> None:
        self.nest = nest
        self.bits = bitboards_of(nest)
        self.all_cells = self.bits.all_cells
        self.homebases = self.bits.homebases
        rng = random.Random(ZOBRIST_SEED)
        cells = [self.bits.bit_of[cell] for cell in nest.cells]
        self.keys: tuple[dict[int, int], ...] = tuple({bit: rng.getrandbits(64) for bit in cells} for _ in range(6))
        """By ``3 * colour + kind`` (egg, warbler, cuckoo): the key of such a piece, by its cell's bit."""
        self.turn_key = rng.getrandbits(64)
        # By 3 * colour + kind: the change of key when such a piece moves, by the bits of
        # its origin and target together, the change of the side to move included.
        moves = [
            move for way in self.bits.all_directions for table in (way.step, way.double_step) for move in table.values()
        ]
        self.move_keys: tuple[dict[int, int], ...] = tuple(
            {
                origin_bit(move) | target_bit(move): keys[origin_bit(move)] ^ keys[target_bit(move)] ^ self.turn_key
                for move in moves
            }
            for keys in self.keys
        )

        self.near_home: tuple[int, ...] = tuple(
            sum(
                {
                    origin_bit(move)
                    for way in forward
                    for table in (way.step, way.double_step)
                    for move in table.values()
                    if target_bit(move) & self.homebases[1 - colour]
                }
            )
            for colour, forward in enumerate(self.bits.forward)
        )
        """By colour: the cells from which a step or double step of that side can enter
        an opponent's homebase."""

    def node_of(self, position: Position) -> tuple[State, int, int]:
        """The node of ``position`` (which must be on this nest): its state, colour to
        move and key."""
        colour = COLOURS.index(position.turn)
        state = self.bits.state_of(position.pieces(), colour)
        return state, colour, self.key_of_state(state, colour)

    def key_of(self, position: Position) -> int:
        """The Zobrist key of ``position``, computed from scratch."""
        _, _, key = self.node_of(position)
        return key

    def key_of_state(self, state: State, colour: int) -> int:
        """The Zobrist key of ``state`` with ``colour`` to move, from scratch: one key
        per piece on its cell, and one more when blue is to move."""
        key = self.turn_key if colour else 0
        for whose, base in ((colour, 0), (1 - colour, 3)):
            pieces, long_range, cuckoo = state[base : base + 3]
            for kind, board in enumerate((pieces ^ long_range, long_range ^ cuckoo, cuckoo)):
                keys = self.keys[3 * whose + kind]
                while board:
                    bit = board & -board
                    board ^= bit
                    key ^= keys[bit]
        return key
