"""The battle game behind the one interface: found by the registry, of the Game protocol
the referee uses (mypy checks the assignments below), its words, its page, its pictures
that show no hidden rank, and its computer opponent."""

from __future__ import annotations

import re

import pytest

from firmware_host.errors import NotationError
from firmware_host.games import game_names, load_game
from firmware_host.games.base import Board, Computer, Game, Side
from firmware_host.games.base import Move as GameMove
from firmware_host.games.base import Outcome as GameOutcome
from firmware_host.games.base import Piece as GamePiece
from firmware_host.games.base import Position as GamePosition
from firmware_host.games.battle import BattleGame, load
from firmware_host.games.battle.computer import BattleComputer
from firmware_host.games.battle.moves import Move, Rule
from firmware_host.games.battle.outcome import DRAW, Ending, Outcome
from tests.test_battle_rules import CLASSIC_TEXT, FIELD, position

GAME = load(None)
RANK_LETTERS = {rank.letter for rank in FIELD.army}


def test_load_game_finds_the_battle_game_by_its_folder():
    assert "battle" in game_names() and game_names()[0] == "cuckoo"
    game = load_game("battle")
    assert isinstance(game, BattleGame) and game.name == "battle" and game.title == "Pirates and Wizards"
    assert game.board.name == "classic" and game.board.cell_shape == "square"


def test_the_battle_game_has_every_member_of_the_game_protocol():
    game: Game = GAME  # mypy (strict, in the test command) checks each of these against its protocol
    start: GamePosition = game.start(game.lineups[0], Side.RED)
    board: Board = game.board
    computer: Computer = game.computer(1)
    outcome: GameOutcome = game.resignation(Side.BLUE)
    piece: GamePiece = next(iter(game.lineup_pieces("demo").values()))
    move: GameMove = start.legal_moves()[0]
    protocols = [each for each in Game.__mro__ if each.__module__ == Game.__module__]  # Game and its parts
    members = {name for protocol in protocols for name in vars(protocol) if not name.startswith("_")}
    assert len(members) > 20 and all(hasattr(GAME, name) for name in members)
    assert board.distance("a1", "b2") == 2 and board.centre("b3") == (1.0, 2.0)
    assert outcome.winner is Side.RED and piece.letter in "Xx" and move.origin in board
    assert computer.choose(start, 1, clock=lambda: 0.0, should_stop=lambda: False).move in start.legal_moves()


def test_lineups_are_the_demo_set_ups_and_a_game_starts_from_the_players_own():
    assert GAME.lineups == ("demo", "demo-2") and GAME.check_lineup("demo-2") == "demo-2"
    with pytest.raises(NotationError, match=re.escape("no set-up 'mine' (it has: demo, demo-2)")):
        GAME.check_lineup("mine")
    red = GAME.read_setup(Side.RED, "SP..SS..PS/LJSCNNCSJL/BSMRNYGRSP/FBNRJNPLLR")
    blue = GAME.read_setup(Side.BLUE, "RLLPNJRNBF/PSGYNRMSSB/LJCNRNCJSL/SP..SS..PS")
    assert GAME.start_from_setups(red, blue, Side.RED).to_text() == GAME.start("demo", Side.RED).to_text()


def test_outcomes_are_kept_in_the_record_and_read_back():
    for outcome, kept, words in [
        (Outcome(Side.RED, Ending.FLAG_CAPTURED), ("red", "flag"), "flag captured"),
        (Outcome(Side.BLUE, Ending.CANNOT_MOVE), ("blue", "cannot-move"), "red cannot move"),
        (DRAW, ("draw", "neither-can-move"), "neither side can move"),
        (GAME.resignation(Side.RED), ("blue", None), "red resigned"),
        (GAME.time_loss(Side.BLUE), ("red", "time"), "blue out of time"),
    ]:
        assert GAME.outcome_record(outcome) == kept
        assert GAME.outcome_from_record(*kept) == outcome
        assert GAME.outcome_words(outcome) == words
    for result, how in [("draw", None), ("draw", "flag"), ("red", "neither-can-move"), ("red", "chess")]:
        with pytest.raises(NotationError, match="a win is by 'flag', 'cannot-move', 'time' or a resignation"):
            GAME.outcome_from_record(result, how)
    with pytest.raises(NotationError, match="unknown side 'green'"):
        GAME.outcome_from_record("green", "flag")


def test_every_rule_has_words_for_the_oled_and_none_names_a_rank():
    names = {rank.name for rank in FIELD.army}
    for rule in Rule:
        words = GAME.rule_words(rule)
        assert words != "not allowed" and len(words) <= 20, rule
        assert not set(words.split()) & names and not set(rule.value.split()) & names
    assert GAME.rule_words(Rule.PUT_DOWN) == "move is made"
    assert GAME.not_your_turn is Rule.NOT_YOUR_TURN


def test_moves_are_read_and_named_as_the_referee_names_them():
    assert GAME.read_move("e4xe5") == GAME.move("e4", "e5", capture=True) == Move("e4", "e5", True)
    with pytest.raises(NotationError):
        GAME.read_move("e4:e5")


def test_the_page_gets_a_square_field_with_its_lakes_and_pieces_that_hide_their_ranks():
    page = GAME.for_page()
    board = page["board"]
    assert (board["shape"], board["columns"], board["rows"]) == ("square", 10, 10)
    assert {lake["name"] for lake in board["lakes"]} == set(FIELD.lakes)
    assert len(board["cells"]) == 92 and {cell["home"] for cell in board["cells"]} == {"red", "blue", None}
    hidden = dict(page["pieces"]["X"])
    assert [part["kind"] for part in hidden.pop("drawing")] == ["rect"]  # drawn as a block
    assert hidden == {"side": "red", "name": "piece", "shape": "block", "order": 0}
    assert page["pieces"]["f"]["shape"] == "flag" and page["pieces"]["B"]["moves"] == "never"
    assert page["pieces"]["S"]["moves"] == "any number of squares"
    assert [rank["count"] for rank in page["army"]] == [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 2, 1]
    assert "in 3 turns in a row" in page["rules"][-1]


def test_the_diagram_and_the_picture_of_a_position_show_no_hidden_rank():
    start = GAME.start("demo", Side.RED)
    diagram = GAME.diagram(start)
    squares = {word for line in diagram.splitlines()[1:-1] for word in line.split()[1:-1]}
    assert squares == {"X", "x", ".", "~"}
    own = GAME.diagram(start.view(Side.RED))
    assert {word for line in own.splitlines()[1:-1] for word in line.split()[1:-1]} == RANK_LETTERS | {"x", ".", "~"}
    picture = GAME.picture(start.pieces())
    assert ">X<" in picture and ">x<" in picture
    assert not any(f">{letter}<" in picture or f">{letter.lower()}<" in picture for letter in RANK_LETTERS)
    assert ">M<" in GAME.picture(start.view(Side.RED).pieces())
    assert "X red, x blue, rank hidden" in GAME.legend()


def test_the_cautious_computer_takes_a_strike_it_is_sure_of_and_shuns_a_known_bomb():
    computer = BattleComputer(3)
    sure = position({"e4": "M", "e5": "j!", "h2": "R", "h9": "r"})
    assert computer.choose(sure, 2, clock=lambda: 0.0, should_stop=lambda: False).move == Move("e4", "e5", True)
    bomb = position({"e4": "J", "e5": "b!", "h9": "r"})
    for seed in range(20):
        choice = BattleComputer(seed).choose(bomb, 2, clock=lambda: 0.0, should_stop=lambda: False)
        assert choice.move != Move("e4", "e5", True) and choice.facts["level"] == "2"
    miner = position({"e4": "N", "e5": "b!", "h9": "r"})
    assert computer.choose(miner, 2, clock=lambda: 0.0, should_stop=lambda: False).move == Move("e4", "e5", True)
    analysed = computer.analyse(sure, nodes=None, seconds=None, clock=lambda: 0.0)
    assert analysed.move == Move("e4", "e5", True)
    stuck = position({"b1": "B", "h9": "r"})
    with pytest.raises(ValueError, match="red has no legal move"):
        computer.choose(stuck, 1, clock=lambda: 0.0, should_stop=lambda: False)
    assert [level.name for level in GAME.computer_levels][:2] == ["random", "cautious"]  # and the searching levels


def test_a_field_from_a_board_file_is_the_game_on_that_field(tmp_path):
    path = tmp_path / "copy.toml"
    path.write_text(CLASSIC_TEXT.replace('name = "classic"', 'name = "copy"', 1), encoding="utf-8")
    game = load_game("battle", path)
    assert game.board.name == "copy" and game.perft(game.start("demo", Side.RED), 2) == 396
