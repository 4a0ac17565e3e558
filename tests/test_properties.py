"""Properties over many positions and games (hypothesis)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.cuckoo.rules import PASS, Kind, Move, Nest, Outcome, Piece, Position, Side, WinCondition, perft
from tests import reference_rules

NEST = Nest.default()
CELLS = list(NEST.cells)
LINEUPS = list(NEST.lineup_names)
# A game lasts at most: every piece walks at most 8 rows forward, every capture removes
# one of 34 pieces, and a pass is always followed by a move.
LONGEST_GAME = 2 * (34 * 8 + 34) + 1


@st.composite
def positions(draw) -> Position:
    """Any position: pieces scattered at random, each side usually with its cuckoo."""
    cells = draw(st.lists(st.sampled_from(CELLS), unique=True, max_size=34))
    pieces = {cell: Piece.from_letter(draw(st.sampled_from("EEWeew"))) for cell in cells}
    for side in Side:
        free = [cell for cell in CELLS if cell not in pieces]
        if free and draw(st.integers(0, 9)):  # nine times in ten the cuckoo is on the nest
            pieces[draw(st.sampled_from(free))] = Piece(side, Kind.CUCKOO)
    return Position(pieces, draw(st.sampled_from(list(Side))))


def random_game(seed: int, lineup: str) -> list[Position]:
    """The positions of a game of random legal moves, start to end, as copies."""
    chooser = random.Random(seed)
    position = Position.from_lineup(lineup, turn=chooser.choice(list(Side)))
    seen = [position.copy()]
    while moves := position.legal_moves():
        position.push(chooser.choice(moves))
        seen.append(position.copy())
        assert len(seen) <= LONGEST_GAME
    return seen


def turned(move: Move) -> Move:
    if move.origin is None or move.target is None:
        return move
    return Move(NEST.turned(move.origin), NEST.turned(move.target), move.is_capture)


def text_mirror(nfn: str) -> str:
    """Turn an NFN by 180° and swap colours, as text: on hexhex-5, reversing the board
    part turns it (every run of empty cells is one digit), and swapping case swaps colours."""
    board, side = nfn.split(" ")
    return f"{board[::-1].swapcase()} {'b' if side == 'r' else 'r'}"


def reference_result(position: Position) -> str | None:
    board, side = reference_rules.from_nfn(position.to_nfn())
    return reference_rules.outcome(board, side)


def result_text(outcome: Outcome | None) -> str | None:
    if outcome is None:
        return None
    if outcome.winner is None:
        return "draw"
    return f"{outcome.winner.label}/{int(outcome.condition or 0)}"


@given(positions())
def test_legal_moves_and_results_agree_with_the_reference(position):
    board, side = reference_rules.from_nfn(position.to_nfn())
    assert sorted(str(move) for move in position.legal_moves()) == sorted(reference_rules.legal_moves(board, side))
    assert result_text(position.outcome()) == reference_rules.outcome(board, side)


@given(st.integers(0, 2**32), st.sampled_from(LINEUPS))
def test_random_games_always_end_and_agree_with_the_reference(seed, lineup):
    game = random_game(seed, lineup)
    assert game[-1].outcome() is not None
    for position in [*game[:: max(1, len(game) // 12)], game[-1]]:
        board, side = reference_rules.from_nfn(position.to_nfn())
        assert sorted(map(str, position.legal_moves())) == sorted(reference_rules.legal_moves(board, side))


@given(st.integers(0, 2**32), st.sampled_from(LINEUPS))
def test_in_play_the_board_reading_equals_the_after_every_move_rule(seed, lineup):
    """rules.md §4: checking 1-4 after each move, for the side X that just moved, gives the
    same result as reading the board alone."""
    game = random_game(seed, lineup)
    for before, after in itertools.pairwise(game):
        mover = before.turn
        move = after.move_stack[-1]
        expected = after_move_rule(before, after, mover, move)
        assert after.outcome() == expected, (before.to_nfn(), str(move))


def after_move_rule(before: Position, after: Position, x: Side, move: Move) -> Outcome | None:
    y = x.opponent
    pieces = after.pieces()
    y_pieces = [p for p in pieces.values() if p.side is y]
    x_cuckoo = [cell for cell, p in pieces.items() if p == Piece(x, Kind.CUCKOO)]
    x_others = [cell for cell, p in pieces.items() if p.side is x and p.kind is not Kind.CUCKOO]
    y_homebases = NEST.homebases(y)
    if y_pieces == [Piece(y, Kind.CUCKOO)]:
        return Outcome(y, WinCondition.ONLY_CUCKOO_LEFT)
    if move.is_capture and move.target and before.piece_at(move.target) == Piece(y, Kind.CUCKOO):
        return Outcome(x, WinCondition.CUCKOO_CAPTURED)
    if any(cell in y_homebases for cell in x_cuckoo):
        return Outcome(x, WinCondition.CUCKOO_TOOK_NEST)
    if any(cell in y_homebases for cell in x_others):
        return Outcome(y, WinCondition.ENTERED_HOMEBASE)
    if not after.legal_moves():
        return Outcome(None, None)
    return None


@given(positions())
def test_turning_the_nest_and_swapping_colours_mirrors_moves_and_perft(position):
    mirror = position.mirrored()
    assert mirror.to_nfn() == text_mirror(position.to_nfn())
    assert sorted(map(str, mirror.legal_moves())) == sorted(str(turned(m)) for m in position.legal_moves())
    assert perft(mirror, 2) == perft(position, 2)
    assert mirror.mirrored() == position


@given(st.integers(0, 2**32), st.sampled_from(LINEUPS))
def test_mirrored_games_have_mirrored_results(seed, lineup):
    for position in random_game(seed, lineup)[-3:]:
        outcome, mirrored = position.outcome(), position.mirrored().outcome()
        if outcome is None or outcome.winner is None:
            assert mirrored == outcome
        else:
            assert mirrored == Outcome(outcome.winner.opponent, outcome.condition)


@given(st.integers(0, 2**32), st.sampled_from(LINEUPS))
def test_making_and_taking_back_a_move_restores_the_position_exactly(seed, lineup):
    game = random_game(seed, lineup)
    position = game[-1]
    # Take the whole game back, checking every position on the way.
    for earlier in reversed(game[:-1]):
        position.pop()
        assert position == earlier
        assert position.to_nfn() == earlier.to_nfn()
        assert position.move_stack == earlier.move_stack
        assert position.legal_moves() == earlier.legal_moves()
    # And every move from one position, made and taken back.
    for move in position.legal_moves():
        before = position.to_nfn()
        position.push(move)
        assert position.move_stack[-1] == move
        assert position.pop() == move
        assert position.to_nfn() == before
        assert position == game[0]


@given(positions(), st.data())
def test_check_move_accepts_exactly_the_legal_moves_and_explains_the_rest(position, data):
    legal = position.legal_moves()
    origin = data.draw(st.sampled_from([*CELLS, "z9"]))
    target = data.draw(st.sampled_from([*CELLS, "j1"]))
    candidates = [Move(origin, target, False), Move(origin, target, True), PASS, *legal]
    before = position.to_nfn()
    for move in candidates:
        illegal = position.check_move(move)
        assert (illegal is None) == (move in legal), move
        if illegal is not None:
            assert illegal.move == move
            assert illegal.reason
    assert position.to_nfn() == before


@given(positions())
def test_nfn_round_trips_any_position(position):
    assert Position.from_nfn(position.to_nfn()) == position
    assert Position.from_nfn(position.to_nfn()).to_nfn() == position.to_nfn()
