"""``nestref play`` as a newcomer types at it: no level needed, moves in any case or as
their two cells, a move taken back, help, and at a real terminal (a pty) line editing
and a history."""

from __future__ import annotations

import io
import os
import pty
import random
import select
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.cli.game import read_typed_move
from firmware_host.games import load_game
from firmware_host.games.cuckoo.rules import Side

NESTREF = str(Path(sys.executable).parent / "nestref")
CUCKOO = load_game("cuckoo")
WAIT_S = 30.0  # for the computer's reply and the program's start, on a slow machine


def play(monkeypatch, capsys, typed: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_needs_no_level_and_plays_the_beginner(monkeypatch, capsys):
    code, out, err = play(monkeypatch, capsys, "quit\n")
    assert (code, err) == (0, "")
    assert "You play red against level 1 (beginner)" in out


def test_moves_typed_in_any_case_or_as_their_two_cells(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "C3C4\nmoves\nquit\n", "--seed", "1")
    assert code == 0
    assert "blue plays " in out  # c3-c4 was played: the computer answered
    assert "cannot read" not in out and "illegal" not in out


def test_a_move_taken_back_and_help(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "back\nc3-c4\nhelp\nBACK\nc3 c4\nquit\n")
    assert code == 0
    assert "Taken back: nothing: you have made no move yet" in out
    reply = out.split("blue plays ")[1].split()[0]
    assert f"Taken back: c3-c4 {reply}" in out  # your move and the computer's reply
    assert "back    take back your last move (and the computer's reply)" in out
    assert out.count("blue plays ") == 2  # c3-c4 played again after the take back


def test_a_move_typed_as_two_cells_that_is_not_legal_says_why(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "c3c5\nc3c\nquit\n")
    assert code == 0
    assert "illegal move c3-c5" in out
    assert "cannot read the move 'c3c'" in out and "'help' says how to write a move" in out


def test_two_cells_read_as_a_capture_say_what_was_typed(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, "c2c3\nc2-c3\nquit\n")
    assert code == 0
    assert "illegal move c2xc3: c3 holds red's own egg (you typed c2c3: read as c2xc3)" in out
    assert "illegal move c2-c3: c3 holds red's own egg\n" in out  # typed in the notation: nothing to add


def test_the_tools_commands_keep_to_the_notation(capsys):
    # nestref position is what other tools check the rules through: it reads only the
    # notation, so that a typo there is an error rather than a guess.
    assert main(["position", "c3c4"]) == 2
    assert "cannot read the move 'c3c4'" in capsys.readouterr().err


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_every_legal_move_reads_back_typed_any_way(seed, plies):
    rng = random.Random(seed)
    position = CUCKOO.start(rng.choice(CUCKOO.lineups), rng.choice(list(Side)))
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(list(moves)))
    for move in position.legal_moves():
        if move.is_pass:
            assert read_typed_move(CUCKOO, position, "PASS") == move
            continue
        for typed in (str(move).upper(), f"{move.origin}{move.target}", f" {move.origin} {move.target} ".upper()):
            assert read_typed_move(CUCKOO, position, typed) == move, typed


# -- at a real terminal -------------------------------------------------------------------


class Terminal:
    """``nestref play`` on a pseudo-terminal, typed at as a person types."""

    def __init__(self) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen([NESTREF, "play"], stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.seen = ""

    def read_until(self, text: str, after: int = 0) -> str:
        """What the program writes, until ``text`` appears after position ``after``."""
        while text not in self.seen[after:]:
            ready, _, _ = select.select([self.master], [], [], WAIT_S)
            assert ready, f"waited for {text!r}; the terminal shows:\n{self.seen[-2000:]}"
            self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
        return self.seen

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            return self.process.wait(timeout=WAIT_S)
        finally:
            os.close(self.master)


def test_at_a_terminal_a_line_is_edited_and_an_earlier_one_comes_back():
    terminal = Terminal()
    try:
        terminal.read_until("your move (red): ")
        # "moves", then the up arrow brings it back: the legal moves are listed twice.
        terminal.type("moves\r")
        first = terminal.read_until("your move (red): ", len(terminal.seen))
        mark = len(first)
        terminal.type("\x1b[A\r")
        terminal.read_until("your move (red): ", mark)
        assert terminal.seen.count("c3-c4") >= 2
        # Typed with a mistake, mended in the middle of the line: the left arrow, a
        # backspace and the right letter make c3-x4 c3-c4.
        mark = len(terminal.seen)
        terminal.type("c3-x4\x1b[D\x7fc\r")
        terminal.read_until("blue plays ", mark)
        terminal.type("quit\r")
        terminal.read_until("Game abandoned.")
    finally:
        code = terminal.close()
    assert code == 0
