"""The bitboard layer (``firmware_host/games/cuckoo/rules/bitboards.py``): its layout, its moves, its
move-making and its verdicts, against the independent reference of ``rules.md``
(``tests/reference_rules.py``) over random positions and random games."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.cuckoo.rules import PASS, Direction, Move, Nest, Piece, Position
from firmware_host.games.cuckoo.rules.bitboards import (
    BLUE,
    COLOURS,
    ONGOING,
    RED,
    State,
    bitboards_of,
    origin_bit,
    play,
    target_bit,
)
from tests import reference_rules
from tests.test_properties import positions

NEST = Nest.default()
BITS = bitboards_of(NEST)
LINEUPS = list(NEST.lineup_names)
VERDICT_TEXT = {RED: "red", BLUE: "blue"}


def state_and_colour(board: reference_rules.Board, side: str) -> tuple[State, int]:
    """The layer's state of a reference board (cell to letter)."""
    colour = RED if side == "r" else BLUE
    return BITS.state_of({cell: Piece.from_letter(letter) for cell, letter in board.items()}, colour), colour


def verdict_text(verdict: int) -> str | None:
    """A verdict as the reference writes a result decided by the pieces: ``red/2``."""
    if verdict == ONGOING:
        return None
    return f"{VERDICT_TEXT[verdict & 1]}/{verdict >> 1}"


def test_every_cell_has_its_own_bit_and_the_bits_lie_in_reading_order():
    bits = [BITS.bit_of[cell] for cell in NEST.cells]
    assert all(bit.bit_count() == 1 for bit in bits) and len(set(bits)) == len(bits)
    assert bits == sorted(bits)
    assert BITS.all_cells == sum(bits)
    assert BITS.cells_of(BITS.all_cells) == list(NEST.cells)
    assert BITS.bits(["e5", "a1", "e5"]) == BITS.bit_of["a1"] | BITS.bit_of["e5"]


def test_shifting_a_bit_by_a_direction_lands_on_the_neighbour_or_off_the_nest():
    for way in BITS.all_directions:
        for cell in NEST.cells:
            bit = BITS.bit_of[cell]
            shifted = (bit << way.shift if way.is_up else bit >> way.shift) & BITS.all_cells
            neighbour = NEST.neighbour(cell, way.direction)
            assert shifted == (BITS.bit_of[neighbour] if neighbour is not None else 0), (cell, way.direction)
    assert {way.direction for way in BITS.all_directions} == set(Direction)


def test_the_generated_moves_carry_their_cells_bits_and_other_moves_none():
    state = BITS.state_of(Position.from_lineup().pieces(), RED)
    for move in BITS.legal_moves(state, RED):
        assert move.origin is not None and move.target is not None
        assert (origin_bit(move), target_bit(move)) == (BITS.bit_of[move.origin], BITS.bit_of[move.target])
    assert origin_bit(Move.from_text("c3-c4")) == target_bit(Move.from_text("c3-c4")) == 0
    assert origin_bit(PASS) == target_bit(PASS) == 0


def test_one_layer_per_nest_shared_by_positions():
    assert bitboards_of(Nest.default()) is BITS
    moves = Position.from_lineup().legal_moves()
    again = Position.from_lineup().legal_moves()
    assert all(first is second for first, second in zip(moves, again, strict=True))  # the same move values


@given(positions())
def test_moves_making_and_verdicts_agree_with_the_reference_in_any_position(position):
    board, side = reference_rules.from_nfn(position.to_nfn())
    state, colour = state_and_colour(board, side)
    verdict = BITS.verdict(state, colour)
    reference = reference_rules.outcome(board, side)
    assert verdict_text(verdict) == (None if reference == "draw" else reference)
    if verdict != ONGOING:
        return
    moves = BITS.legal_moves(state, colour)
    assert sorted(map(str, moves)) == sorted(reference_rules.legal_moves(board, side))
    for move in moves:
        after = reference_rules.play(board, str(move))
        assert play(state, move) == state_and_colour(after, "b" if side == "r" else "r")[0], str(move)


@given(st.integers(0, 2**32), st.sampled_from(LINEUPS))
def test_random_games_on_the_layer_alone_follow_the_reference_to_the_same_end(seed, lineup):
    """A whole game made by play() and judged by verdict(), move by move, as the
    reference makes and judges it; the state never touched in place."""
    chooser = random.Random(seed)
    side = chooser.choice("rb")
    board, _ = reference_rules.from_nfn(Position.from_lineup(lineup).to_nfn())
    state, colour = state_and_colour(board, side)
    while True:
        reference = reference_rules.outcome(board, side)
        verdict = BITS.verdict(state, colour)
        moves = BITS.legal_moves(state, colour) if verdict == ONGOING else []
        if reference is not None:
            assert verdict_text(verdict) == reference or (reference == "draw" and not moves)
            break
        assert verdict == ONGOING
        assert sorted(map(str, moves)) == sorted(reference_rules.legal_moves(board, side))
        move = chooser.choice(moves)
        state = play(state, move)
        board = reference_rules.play(board, str(move))
        side = "b" if side == "r" else "r"
        colour = 1 - colour
        assert state == state_and_colour(board, side)[0]


def test_a_pass_only_swaps_the_sides():
    position = Position.from_nfn("E3C/6/7/8/4c4/8/7/6/e4 r")
    state = BITS.state_of(position.pieces(), RED)
    assert BITS.legal_moves(state, RED) == [PASS]
    assert play(state, PASS) == state[3:] + state[:3]


def test_a_verdict_names_the_condition_and_the_winner():
    for nfn, text in (
        ("5/6/7/8/4c4/8/7/e5/E4 b", "blue/2"),  # red has lost its cuckoo
        ("1c3/6/7/8/9/8/7/6/C3E r", "blue/1"),  # blue has only its cuckoo left
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE b".replace("ewcwe", "eEcwe"), "blue/4"),
    ):
        position = Position.from_nfn(nfn)
        colour = COLOURS.index(position.turn)
        assert verdict_text(BITS.verdict(BITS.state_of(position.pieces(), colour), colour)) == text, nfn
