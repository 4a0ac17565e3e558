"""``nestref analyse`` and ``nestref play``: the engine on the command line."""

from __future__ import annotations

import io
import re

import pytest

from firmware_host.cli import main
from firmware_host.games.cuckoo.engine import Engine, level
from firmware_host.games.cuckoo.rules import Move, Position


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def test_analyse_prints_bestmove_first_then_the_figures(capsys):
    code, lines, errors = run(capsys, "analyse", "--nodes", "2000")
    assert code == 0 and errors == []
    assert lines[0].startswith("bestmove ")
    assert Move.from_text(lines[0].split()[1]) in Position.from_lineup("standard").legal_moves()
    assert [line.split()[0] for line in lines] == ["bestmove", "score", "depth", "nodes", "time", "pv"]
    assert lines[5].split()[1] == lines[0].split()[1]
    # A score that is not a proved end says what it counts; a proved one needs no unit.
    assert re.fullmatch(r"score [+-]\d+\.\d\d \(moves ahead in the cuckoos' race, for the side to move\)", lines[1])


def test_analyse_a_given_position_finds_the_win(capsys):
    code, lines, _ = run(capsys, "analyse", "--nodes", "5000", "5/2e3/1W2C2/e2E4/9/c7/7/6/1E3", "r")
    assert code == 0
    assert lines[:2] == ["bestmove e7-c9", "score win in 1"]


def test_analyse_with_a_time_limit(capsys):
    code, lines, _ = run(capsys, "analyse", "--time", "0.2", "5/2e3/1W2C2/e2E4/9/c7/7/6/1E3 r")
    assert code == 0 and lines[0] == "bestmove e7-c9"


@pytest.mark.parametrize(
    ("nfn", "message"),
    [
        ("5/6/7/8/4c4/8/7/6/E4 b", "the game is over"),
        ("5/6/7 r", "cannot read the NFN"),
    ],
)
def test_analyse_a_finished_game_or_a_bad_nfn_exits_with_2(capsys, nfn, message):
    code, lines, errors = run(capsys, "analyse", "--nodes", "100", nfn)
    assert code == 2 and lines == []
    assert len(errors) == 1 and message in errors[0]


def test_analyse_rejects_a_bad_time(capsys):
    assert run(capsys, "analyse", "--time", "-1")[0] == 2


def play(monkeypatch, capsys, typed: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_shows_the_board_answers_and_explains_bad_moves(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "e3-e4\nnonsense\nc3-c9\nmoves\nquit\n", "--level", "1")
    assert code == 0
    assert "You play red against level 1 (beginner)" in out
    assert "a1     E W C W E     e1" in out  # the board, as nestref show draws it
    assert "blue plays " in out
    assert "cannot read the move 'nonsense'" in out
    assert "illegal move c3-c9" in out
    assert "c3-c4" in out.split("illegal move c3-c9")[1]  # the list of legal moves
    assert out.rstrip().endswith("Game abandoned.")


def test_play_as_blue_the_engine_moves_first_and_the_end_of_input_ends_it(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "", "--level", "2", "--side", "blue", "--seed", "3")
    assert code == 0
    assert out.index("red plays ") < out.index("your move (blue)")
    assert out.rstrip().endswith("Game abandoned.")


def test_play_to_the_end_prints_the_result(monkeypatch, capsys):
    # A hopeless human: always the first legal move it is shown; the game ends.
    position = Position.from_lineup("advanced-2")
    typed = []
    engine = Engine(seed=0)
    while not position.is_over():
        if position.turn.value == "r":
            move = sorted(position.legal_moves(), key=str)[0]
            if not move.is_pass:  # a side without a move passes by itself
                typed.append(str(move))
        else:
            move = engine.choose(position, level(1)).move
        position.push(move)
    code, out, _ = play(monkeypatch, capsys, "\n".join(typed) + "\n", "--level", "1", "--lineup", "advanced-2")
    assert code == 0
    assert "Game over: " in out and out.rstrip().endswith(("you win.", "you lose.", "a draw."))


def test_play_rejects_an_unknown_level_or_lineup(monkeypatch, capsys):
    code, _, err = play(monkeypatch, capsys, "", "--level", "9")
    assert code == 2 and "1 (beginner) to 5 (strongest)" in err
    code, _, err = play(monkeypatch, capsys, "", "--level", "2", "--lineup", "nope")
    assert code == 2 and "nope" in err
