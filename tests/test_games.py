"""Every game behind the one interface (firmware_host.games.base): what the referee, the
record, the screens and the page rely on, checked on random games of each game there is.
A new game's package passes these before anything else may use it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.errors import NestrefError
from firmware_host.games import UnknownGameError, game_names, load_game
from firmware_host.games.base import (
    AnnouncesCaptures,
    Game,
    HiddenPieces,
    PlayersSetUp,
    Side,
    divide,
    public_view,
    side_view,
)

GAMES = game_names()


def random_game(game: Game, rng: random.Random, plies: int):
    """A position after up to ``plies`` random legal moves from a random lineup."""
    position = game.start(rng.choice(game.lineups), rng.choice(list(Side)))
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    return position


def test_the_games_are_found_by_their_folders_and_cuckoo_comes_first():
    assert GAMES[0] == "cuckoo"
    with pytest.raises(UnknownGameError, match="there is no game 'go': the games are cuckoo"):
        load_game("go")


@pytest.mark.parametrize("name", GAMES)
def test_a_game_describes_itself(name):
    game = load_game(name)
    assert game.name == name and game.title
    assert game.lineups and game.check_lineup(game.lineups[0]) == game.lineups[0]
    with pytest.raises(NestrefError):
        game.check_lineup("no such lineup")
    assert [level.number for level in game.computer_levels] == list(range(1, len(game.computer_levels) + 1))
    page = json.loads(json.dumps(game.for_page()))  # plain JSON, for the page
    assert {cell["name"] for cell in page["board"]["cells"]} == set(game.board.cells)
    for lineup in game.lineups:
        for cell, piece in game.lineup_pieces(lineup).items():
            assert cell in game.board and piece.letter in page["pieces"]
            assert page["pieces"][piece.letter]["side"] == piece.side.label
    assert page["rules"] and all(isinstance(paragraph, str) for paragraph in page["rules"])


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_what_a_game_hands_out_it_takes_back(name, seed, plies):
    game = load_game(name)
    rng = random.Random(seed)
    position = random_game(game, rng, plies)
    again = game.read_position(position.to_text())
    assert again.to_text() == position.to_text() and dict(again.pieces()) == dict(position.pieces())
    for move in position.move_stack:
        assert game.read_move(move.to_text()) == move
    board = game.board
    for move in position.legal_moves():
        if move.is_pass:
            continue
        assert position.check_move(move) is None
        footprint = position.footprint(move)
        occupied = set(position.pieces())
        assert footprint.cells <= set(board.cells)
        assert footprint.empties <= occupied and not footprint.fills & occupied
        assert footprint.proofs <= occupied
        assert move.origin in footprint.empties
        named = game.move(str(move.origin), str(move.target), capture=move.is_capture)
        # (A move the switches cannot tell from others, a pawn promoted, is named as a
        # question: the game picks one of them, which stands unless a player says otherwise.)
        alike = [
            other for other in position.legal_moves() if (other.origin, other.target) == (move.origin, move.target)
        ]
        assert named == move if len(alike) == 1 else game.default_choice(alike) in alike
    outcome = position.outcome()
    if outcome is not None:
        assert position.is_over() and not position.legal_moves()
        result, how = game.outcome_record(outcome)
        assert game.outcome_from_record(result, how) == outcome
        assert game.outcome_words(outcome)
        cell = game.outcome_cell(position, outcome)
        assert cell is None or cell in board
    for side in Side:
        resigned = game.resignation(side)
        assert resigned.winner is side.opponent and resigned.is_resignation
        assert game.outcome_from_record(*game.outcome_record(resigned)) == resigned
        # A loss on time: kept as how "time", whatever the game (the record's Termination).
        lost = game.time_loss(side)
        assert lost.winner is side.opponent and not lost.is_resignation
        assert game.outcome_record(lost) == (side.opponent.label, "time")
        assert game.outcome_from_record(*game.outcome_record(lost)) == lost
        assert "time" in game.outcome_words(lost)


@pytest.mark.parametrize("name", GAMES)
def test_the_moves_played_are_taken_back_to_the_same_position(name):
    game = load_game(name)
    position = random_game(game, random.Random(7), 30)
    text = position.to_text()
    copy = position.copy()
    while copy.move_stack:
        copy.pop()
    for move in position.move_stack:
        copy.push(move)
    assert copy.to_text() == text


@pytest.mark.parametrize("name", GAMES)
def test_divide_adds_up_to_perft(name):
    game = load_game(name)
    position = game.start(game.lineups[0], Side.RED)
    counts = divide(game, position, 2)
    assert sum(count for _, count in counts) == game.perft(position, 2)
    assert [move for move, _ in counts] == list(position.legal_moves())


@pytest.mark.parametrize("name", GAMES)
def test_a_game_says_what_it_has(name):
    game = load_game(name)
    for part, capability in (
        (game.setups, PlayersSetUp),
        (game.hidden, HiddenPieces),
        (game.announcer, AnnouncesCaptures),
    ):
        assert part is None or isinstance(part, capability)
    if game.setups is not None:
        cells = {side: game.setups.setup_cells(side) for side in Side}
        assert not cells[Side.RED] & cells[Side.BLUE] and cells[Side.RED] | cells[Side.BLUE] <= set(game.board.cells)
        assert all(0 < game.setups.setup_size(side) <= len(cells[side]) for side in Side)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_the_public_view_shows_the_pages_letters_and_a_game_that_hides_nothing_shows_all(name, seed, plies):
    game = load_game(name)
    position = random_game(game, random.Random(seed), plies)
    view = public_view(game, position)
    letters = game.for_page()["pieces"]
    assert view.turn is position.turn and set(view.letters) == set(position.pieces())
    assert all(letter in letters for letter in view.letters.values())
    for side in Side:
        own = side_view(game, position, side).letters
        assert set(own) == set(position.pieces()) and all(letter in letters for letter in own.values())
    if game.hidden is None:
        assert view.text == position.to_text()
        assert dict(view.letters) == {cell: piece.letter for cell, piece in position.pieces().items()}
