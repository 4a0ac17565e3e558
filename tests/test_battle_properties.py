"""The battle game's rules on random legal games from random set-ups (hypothesis): the
moves are the reference's, every strike ends as the table says, pieces are conserved,
no view holds a rank it may not show, positions and set-ups round-trip through the
notation, the two-square rule holds, and every game ends."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games import load_game
from firmware_host.games.base import Side
from firmware_host.games.battle.army import StrikeResult
from firmware_host.games.battle.computer import BattleComputer
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import Move, Rule
from firmware_host.games.battle.outcome import Ending
from firmware_host.games.battle.pieces import HIDDEN_LETTER, Piece, Shown, side_letter
from firmware_host.games.battle.position import Position
from firmware_host.games.battle.setups import Setup
from tests.test_battle_perft import ref_moves, ref_read
from tests.test_battle_rules import CLASSIC_TEXT, FIELD, table_result

SEEDS = st.integers(0, 2**32 - 1)
RANK_NAMES = {rank.name for rank in FIELD.army}


def random_setup(field: Field, side: Side, rng: random.Random) -> Setup:
    """The army put on random squares of ``side``'s rows."""
    cells = sorted(field.setup_cells(side), key=field.index)
    ranks = [rank for rank in field.army for _ in range(rank.count)]
    return Setup(side, dict(zip(rng.sample(cells, len(ranks)), ranks, strict=True)))


def random_start(rng: random.Random, field: Field = FIELD) -> Position:
    red, blue = (random_setup(field, side, rng) for side in Side)
    return Position.from_setups(field, red, blue, rng.choice(list(Side)))


def check_views(position: Position) -> None:
    """Every view shows a rank exactly where its viewers may know it, and the true one."""
    for viewers in ((), (Side.RED,), (Side.BLUE,), (Side.RED, Side.BLUE)):
        view = position.view(*viewers)
        seen = view.pieces()
        assert seen.keys() == position.pieces().keys()
        rows = view.to_text()
        for side in Side:  # what the viewers do not know of a side is as many ranks as it has unseen pieces
            unseen = sum(1 for piece in seen.values() if piece.side is side and piece.rank is None)
            assert sum(view.unknown_ranks(side).values()) == unseen
        for cell, piece in position.pieces().items():
            shown = position.shown(cell)
            may_know = piece.side in viewers or shown is Shown.REVEALED
            assert seen[cell].side is piece.side and seen[cell].shown is shown
            assert seen[cell].rank == (piece.rank if may_know else None), (viewers, cell)
            expected = piece.rank.letter if may_know else HIDDEN_LETTER
            assert seen[cell].letter == side_letter(expected, piece.side)
        if not viewers:
            letters = {letter for letter in rows.split()[0] if letter.isalpha()}
            pieces = position.pieces()
            revealed = {pieces[cell].rank_letter for cell in pieces if position.shown(cell) is Shown.REVEALED}
            assert letters <= {"X", "x"} | revealed


def twin_with_hidden_ranks_shuffled(position: Position, side: Side, rng: random.Random) -> Position:
    """The position with ``side``'s ranks shuffled among its pieces no one has seen the
    rank of (among those never moved, and among those that moved): a position no
    other viewer can tell from this one."""
    pieces = position.pieces()
    shown = {cell: position.shown(cell) for cell in pieces}
    for kind in (Shown.HIDDEN, Shown.MOVED):
        cells = [cell for cell, piece in pieces.items() if piece.side is side and shown[cell] is kind]
        ranks = [pieces[cell].rank for cell in cells]
        rng.shuffle(ranks)
        pieces.update({cell: Piece(side, rank) for cell, rank in zip(cells, ranks, strict=True)})
    runs = {each: position.run(each) for each in Side}
    return Position(position.field, pieces, position.turn, shown=shown, runs=runs)


@settings(max_examples=30)
@given(seed=SEEDS, plies=st.integers(1, 300))
def test_random_games_keep_every_rule(seed, plies):
    rng = random.Random(seed)
    position = random_start(rng)
    army = Counter({rank: rank.count for rank in FIELD.army})
    for _ in range(plies):
        moves = position.legal_moves()
        reference = ref_moves(ref_read(position.to_text()))
        assert {(move.origin, move.target, move.is_strike) for move in moves} == set(reference)
        assert len(moves) == len(set(moves))
        assert position.view(position.turn).legal_moves() == moves  # what the computer plays from
        assert (position.outcome() is None) == bool(moves)
        if not moves:
            break
        move = rng.choice(moves)
        before = position.pieces()
        position.push(move)
        after = position.pieces()
        if move.is_strike:
            attacker, defender = before[move.origin], before[move.target]
            result = table_result(attacker.rank.letter, defender.rank.letter)
            assert position.piece_at(move.origin) is None
            winner = {StrikeResult.ATTACKER_WINS: attacker, StrikeResult.DEFENDER_WINS: defender}.get(result)
            assert position.piece_at(move.target) == winner
            lost = {
                StrikeResult.ATTACKER_WINS: [defender],
                StrikeResult.DEFENDER_WINS: [attacker],
                StrikeResult.BOTH_LOST: [attacker, defender],
            }[result]
            assert Counter(before.values()) - Counter(after.values()) == Counter(lost)
            assert len(after) == len(before) - len(lost)
        else:
            assert Counter(before.values()) == Counter(after.values())
            assert after[move.target] == before[move.origin]
        for side in Side:  # pieces conserved: on the field, or removed by a strike the view counts
            on_field = Counter(piece.rank for piece in after.values() if piece.side is side)
            assert on_field + position.view().removed(side) == army
        check_views(position)


@settings(max_examples=20)
@given(seed=SEEDS, turns=st.integers(2, 6), plies=st.integers(1, 300))
def test_the_two_square_rule_refuses_the_fields_number_of_turns(seed, turns, plies):
    rng = random.Random(seed)
    text = CLASSIC_TEXT.replace("two_square_turns = 3", f"two_square_turns = {turns}")
    field = Field.from_toml(text, source="turns.toml")
    position = random_start(rng, field)
    for _ in range(plies):
        moves = position.legal_moves()
        reference = ref_moves(ref_read(position.to_text()), turns)
        assert {(move.origin, move.target, move.is_strike) for move in moves} == set(reference)
        if not moves:
            break
        run = position.run(position.turn)  # go back and forth often, so that the rule is met
        back = [move for move in moves if run is not None and run.continues(move.origin, move.target)]
        position.push(rng.choice(back if back and rng.random() < 0.8 else moves))
    for side_start in (0, 1):  # no piece went between two squares in ``turns`` moves of its side in a row
        own = position.move_stack[side_start::2]
        for window in zip(*(own[k:] for k in range(turns)), strict=False):
            squares = {frozenset((move.origin, move.target)) for move in window}
            chained = all(later.origin == earlier.target for earlier, later in itertools.pairwise(window))
            assert not (len(squares) == 1 and chained and not any(move.is_strike for move in window)), window


@settings(max_examples=30)
@given(seed=SEEDS, plies=st.integers(0, 200))
def test_no_view_depends_on_ranks_its_viewers_may_not_know(seed, plies):
    rng = random.Random(seed)
    position = random_start(rng)
    for _ in range(plies):
        if position.is_over():
            break
        position.push(rng.choice(position.legal_moves()))
    for hidden in Side:
        twin = twin_with_hidden_ranks_shuffled(position, hidden, rng)
        assert twin.view(hidden.opponent) == position.view(hidden.opponent)
        assert twin.view() == position.view()
        if position.turn is hidden.opponent and not position.is_over():  # the computer plays on its view
            for level in (1, 2):
                here = BattleComputer(seed).choose(position, level, clock=lambda: 0.0, should_stop=lambda: False)
                there = BattleComputer(seed).choose(twin, level, clock=lambda: 0.0, should_stop=lambda: False)
                assert here == there and here.move in position.legal_moves()


@settings(max_examples=40)
@given(seed=SEEDS, plies=st.integers(0, 200))
def test_positions_and_set_ups_round_trip_through_the_notation(seed, plies):
    rng = random.Random(seed)
    setups = {side: random_setup(FIELD, side, rng) for side in Side}
    for side, setup in setups.items():
        assert Setup.from_text(FIELD, side, setup.to_text(FIELD)) == setup
    position = Position.from_setups(FIELD, setups[Side.RED], setups[Side.BLUE], Side.RED)
    start = position.to_text()
    for _ in range(plies):
        if position.is_over():
            break
        position.push(rng.choice(position.legal_moves()))
    text = position.to_text()
    again = Position.from_text(FIELD, text)
    assert again.to_text() == text and again.pieces() == position.pieces()
    assert {cell: again.shown(cell) for cell in again.pieces()} == {
        cell: position.shown(cell) for cell in position.pieces()
    }
    assert again.legal_moves() == position.legal_moves() and again.outcome() == position.outcome()
    assert again.view() == position.view() and again.view(Side.RED) == position.view(Side.RED)
    for move in position.move_stack:
        assert Move.from_text(move.to_text()) == move
    while position.move_stack:
        position.pop()
    assert position.to_text() == start


@settings(max_examples=10)
@given(seed=SEEDS)
def test_every_random_game_ends_and_keeps_the_two_square_rule(seed):
    rng = random.Random(seed)
    position = random_start(rng)
    for _ in range(20_000):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    outcome = position.outcome()
    assert outcome is not None and position.legal_moves() == []
    if outcome.ending is Ending.CANNOT_MOVE:
        assert position.turn is not outcome.winner
    elif outcome.ending is Ending.FLAG_CAPTURED:
        assert position.move_stack[-1].is_strike and position.turn is not outcome.winner
    # No side ever made three moves in a row of one piece between the same two squares.
    stack = position.move_stack
    for side_start in (0, 1):
        own = stack[side_start::2]
        for first, second, third in zip(own, own[1:], own[2:], strict=False):
            assert not (
                not (first.is_strike or second.is_strike or third.is_strike)
                and (second.origin, second.target) == (first.target, first.origin)
                and (third.origin, third.target) == (first.origin, first.target)
            ), (first, second, third)


@settings(max_examples=30)
@given(seed=SEEDS, plies=st.integers(0, 100), origin=st.sampled_from(FIELD.cells), target=st.sampled_from(FIELD.cells))
def test_a_refused_move_is_explained_without_a_rank(seed, origin, target, plies):
    rng = random.Random(seed)
    position = random_start(rng)
    for _ in range(plies):
        if position.is_over():
            break
        position.push(rng.choice(position.legal_moves()))
    game = load_game("battle")
    for move in (Move(origin, target), Move(origin, target, True)):
        illegal = position.check_move(move)
        assert (illegal is None) == (move in position.legal_moves()) == position.is_legal(move)
        if illegal is None:
            continue
        assert isinstance(illegal.rule, Rule) and game.rule_words(illegal.rule) != "not allowed"
        if illegal.rule is not Rule.GAME_OVER:
            words = set(illegal.reason.replace(",", " ").replace(":", " ").split())
            assert not words & RANK_NAMES, illegal.reason
