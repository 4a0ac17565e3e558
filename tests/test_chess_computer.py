"""Stockfish as the chess game's computer, through python-chess's UCI engine API
(Debian's ``stockfish``, which ``.ci/stockfish`` installs): a legal move at every level,
a mate in one found, the levels' strength options, a whole game against it, and a clear
error where it is missing."""

from __future__ import annotations

import time
from pathlib import Path

import chess
import pytest

from firmware_host.errors import NestrefError
from firmware_host.games.base import Side
from firmware_host.games.chess import load
from firmware_host.games.chess.computer import STRENGTHS, EngineMissingError, StockfishComputer, engine_path
from firmware_host.games.chess.moves import Ending

GAME = load(None)


def test_stockfish_is_found_where_debian_installs_it():
    assert engine_path().name == "stockfish" and engine_path().is_file()


@pytest.mark.parametrize("level", [level.number for level in GAME.computer_levels])
def test_every_level_plays_a_legal_move(level):
    position = GAME.start("standard", Side.RED)
    choice = GAME.computer(0).choose(position, level, clock=time.monotonic, should_stop=lambda: False)
    assert choice.move in position.legal_moves() and choice.facts["time"].endswith(" s")


def test_the_levels_set_stockfishs_own_strength_options():
    assert [level.number for level in GAME.computer_levels] == list(range(1, len(STRENGTHS) + 1))
    assert STRENGTHS[0].options == {"Skill Level": 0} and STRENGTHS[-1].options == {}
    elos = [strength.options["UCI_Elo"] for strength in STRENGTHS if "UCI_Elo" in strength.options]
    assert elos == sorted(elos) and all(strength.options.get("UCI_LimitStrength", True) for strength in STRENGTHS)
    nodes = [strength.nodes for strength in STRENGTHS]
    assert nodes == sorted(nodes)


def test_analysis_finds_a_mate_in_one():
    position = GAME.read_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    choice = GAME.computer(0).analyse(position, nodes=20_000, seconds=None, clock=time.monotonic)
    assert choice.move.to_text() == "a1a8" and choice.facts["score"] == "#+1"
    assert choice.facts["pv"].startswith("a1a8")


def test_a_game_against_stockfish_is_played_to_mate_and_kept_as_pgn():
    # (From a king and queen against a king, so that the test is short on a busy machine:
    # a whole game from the start takes minutes here; the page and the daemon play those.)
    position = GAME.read_position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    computer = GAME.computer(0)
    while position.outcome() is None and len(position.move_stack) < 80:
        level = 5 if position.turn is Side.RED else 1  # the expert against the beginner
        choice = computer.choose(position, level, clock=time.monotonic, should_stop=lambda: False)
        position.push(GAME.read_move(choice.move.to_text()))
    outcome = position.outcome()
    assert outcome is not None and outcome.winner is Side.RED and outcome.ending is Ending.CHECKMATE
    pgn = GAME.to_pgn(position, outcome)
    assert GAME.from_pgn(pgn)[1] == outcome


def test_a_search_asked_to_stop_gives_its_best_so_far():
    position = GAME.start("standard", Side.RED)
    began = time.monotonic()
    choice = StockfishComputer(0).choose(position, 6, clock=time.monotonic, should_stop=lambda: True)
    assert choice.move in position.legal_moves() and time.monotonic() - began < 5


def test_a_missing_engine_and_a_finished_game_are_named(tmp_path):
    position = GAME.start("standard", Side.RED)
    missing = StockfishComputer(0, path=Path(tmp_path / "no-stockfish"))
    with pytest.raises(EngineMissingError, match="cannot start Stockfish"):
        missing.choose(position, 1, clock=time.monotonic, should_stop=lambda: False)
    mated = GAME.read_position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")
    with pytest.raises(NestrefError, match="the game is over"):
        GAME.computer(0).choose(mated, 1, clock=time.monotonic, should_stop=lambda: False)
    with pytest.raises(NestrefError, match="no chess level 9"):
        GAME.computer(0).choose(position, 9, clock=time.monotonic, should_stop=lambda: False)
    assert chess.Board(mated.to_text()).is_checkmate()
