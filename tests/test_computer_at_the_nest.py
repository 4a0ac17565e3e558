"""The computer opponent at the nest: the real daemon on the simulator's mock hardware
(gpiozero's MockFactory, luma's dummy devices), the engine choosing in its thread, and
hands making every move on the switches, the computer's included."""

from __future__ import annotations

import logging
import os
import random
import signal
import threading
import time

import pytest

from firmware_host.daemon.button_meanings import PLAYER_CYCLE
from firmware_host.daemon.config import load_config
from firmware_host.daemon.lights import cells
from firmware_host.daemon.presenter import Scene, View
from firmware_host.daemon.screens import screen
from firmware_host.errors import ConfigError
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import PASS, Move, Nest, Position, Side
from firmware_host.referee.signals import ComputerMove, TurnStarted
from hardware.lights import CellLights
from hardware.outputs import Blink
from tests.test_daemon import Rig, write_config

COMPUTER_WAIT_S = 60.0  # real seconds the engine may take at the levels used here


def computer_rig(tmp_path, side: str = "blue", level: int = 2) -> Rig:
    rig = Rig(tmp_path, f'[players]\n{side} = "computer"\nlevel = {level}\n')
    rig.show(Position.from_lineup())
    rig.start()
    return rig


def position_shown(rig: Rig) -> Position:
    """The position the nest shows as recorded (Operation Cuckoo hides nothing: its
    public view is the whole position)."""
    shown = rig.daemon.snapshot().game.position
    assert shown is not None
    return Position.from_nfn(shown.text)


def wait_for_the_computer(rig: Rig) -> Move:
    """Let the daemon turn until the computer's move is shown (the engine runs in a
    thread of its own, in real time)."""
    deadline = time.monotonic() + COMPUTER_WAIT_S
    while rig.daemon.snapshot().game.computer_move is None:
        assert time.monotonic() < deadline, "the computer never chose a move"
        rig.run_for(0.02)
        time.sleep(0.001)  # let the engine's thread have the interpreter
    shown = rig.daemon.snapshot().game.computer_move
    assert shown is not None
    return Move.from_text(shown.to_text())


def make(rig: Rig, move: Move) -> None:
    """A hand makes ``move``: a step lifted and put down; a capture lifts the capturer,
    takes the captured piece off and puts the capturer in its place."""
    assert move.origin is not None and move.target is not None
    rig.change(move.origin, False)
    rig.run_for(0.2)
    if move.is_capture:
        rig.change(move.target, False)
        rig.run_for(0.1)
    rig.change(move.target, True)
    rig.run_for(1.2)  # a warbler's step may still slide on: it stands after extend_ms


def test_the_config_chooses_the_computers_side_and_level(tmp_path):
    config = load_config(write_config(tmp_path, '[players]\nblue = "computer"\nlevel = 5\n'))
    assert (config.referee.computers, config.computer_level) == (frozenset({Side.BLUE}), 5)
    assert load_config(None).referee.computers == frozenset()
    with pytest.raises(ConfigError, match=r"players\.red.*'robot'"):
        load_config(write_config(tmp_path, '[players]\nred = "robot"\n'))
    with pytest.raises(ConfigError, match=r"players\.level"):
        load_config(write_config(tmp_path, "[players]\nlevel = 9\n"))


def test_the_computers_move_is_shown_and_must_be_made_exactly(tmp_path):
    rig = computer_rig(tmp_path)
    make(rig, Move.from_text("c3-c4"))
    assert rig.moves() == ["c3-c4"]
    assert rig.daemon.snapshot().game.thinking or rig.daemon.snapshot().game.computer_move is not None
    move = wait_for_the_computer(rig)
    assert move in position_shown(rig).legal_moves()
    rig.run_for(0.1)
    # The OLED shows the move in big letters; its cells are lit: the piece blinking,
    # where it goes steady; the LED matrix too.
    shown = rig.daemon.snapshot().screen
    assert (shown.headline, shown.lines[0]) == (str(move), "computer's move")
    assert rig.daemon.snapshot().cells == {move.origin: Blink.SLOW, move.target: Blink.ON}
    led_matrix = rig.devices.cell_lights
    assert isinstance(led_matrix, CellLights)  # the MAX7219's (not a WS2812 chain)
    x, y = rig.config.cell_lights.map[str(move.target)]
    assert led_matrix.device.image.getpixel((x, y)) == 255
    # Another blue move: flagged like an illegal move, and put back.
    board = position_shown(rig)
    wrong = next(m for m in board.legal_moves() if m != move and not m.is_capture)
    make(rig, wrong)
    assert rig.daemon.snapshot().screen.headline == "ILLEGAL"
    assert rig.daemon.snapshot().screen.lines[0] == f"{wrong}: play {move}"  # the computer's move, not that one
    assert rig.daemon.snapshot().lights["error"] is Blink.FAST
    make(rig, Move(wrong.target, wrong.origin))  # put back
    assert rig.daemon.snapshot().screen.headline == str(move)  # shown again
    make(rig, move)
    assert rig.moves() == ["c3-c4", str(move)]
    assert rig.daemon.snapshot().screen.headline == "RED"
    rig.close()


def test_a_whole_game_against_the_computer(tmp_path):
    """A person (random moves) plays red against the computer, on the switches, to the
    end of the game; every move made by hand, the computer's as it showed them."""
    rng = random.Random(6)
    rig = computer_rig(tmp_path, "blue", level=2)
    board = Position.from_lineup()
    while rig.daemon.view is not View.OVER:
        assert len(board.move_stack) < 200
        move = wait_for_the_computer(rig) if board.turn is Side.BLUE else rng.choice(board.legal_moves())
        board.push(move)
        make(rig, move)
        if board.legal_moves() == [PASS]:  # the referee passes for a side that cannot move
            board.push(PASS)
        assert rig.moves() == [str(made) for made in board.move_stack], rig.daemon.snapshot().screen
    outcome = board.outcome()
    assert outcome is not None
    expected = "DRAW" if outcome.winner is None else f"{outcome.winner.label.upper()} WINS"
    assert rig.daemon.snapshot().screen.headline == expected
    rig.close()


def test_taking_back_against_the_computer_takes_back_its_reply_and_the_players_move(tmp_path):
    rig = computer_rig(tmp_path)
    make(rig, Move.from_text("c3-c4"))
    move = wait_for_the_computer(rig)
    make(rig, move)
    rig.press("take_back")
    assert rig.moves() == []
    assert rig.daemon.snapshot().screen.headline == "UNDO"
    make(rig, Move(move.target, move.origin))
    make(rig, Move.from_text("c4-c3"))
    assert rig.daemon.snapshot().screen.headline == "RED"
    rig.close()


def test_the_confirm_button_chooses_the_players_between_games(tmp_path):
    rig = Rig(tmp_path)
    rig.start()  # an empty nest: waiting to be set up
    assert rig.daemon.view is View.SETUP
    seen = []
    for _ in PLAYER_CYCLE:
        rig.press("confirm")
        seen.append(rig.daemon.snapshot().game.computers)
        assert rig.daemon.service is not None
        assert rig.daemon.service.referee.computers == rig.daemon.snapshot().game.computers
    assert seen == [*PLAYER_CYCLE[1:], PLAYER_CYCLE[0]]
    rig.press("confirm")
    assert "computer: blue L3" in rig.daemon.snapshot().screen.lines
    rig.show(Position.from_lineup())
    rig.run_for(1)
    assert rig.daemon.view is View.PLAYING
    make(rig, Move.from_text("c3-c4"))
    wait_for_the_computer(rig)
    rig.close()


def test_a_take_back_while_the_computer_thinks_drops_its_choice(tmp_path):
    rig = computer_rig(tmp_path, level=5)
    make(rig, Move.from_text("c3-c4"))
    rig.press("take_back")  # at once: the strongest level is still thinking
    make(rig, Move.from_text("c4-c3"))
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        rig.run_for(0.05)
        time.sleep(0.005)
    assert rig.daemon.snapshot().game.computer_move is None
    assert rig.daemon.snapshot().screen.headline == "RED"
    assert rig.moves() == []
    rig.close()


class LogWatch(logging.Handler):
    """Sets ``seen`` when a record whose message starts with ``start`` is logged, from
    any thread (the computer's listener logs from its own)."""

    def __init__(self, start: str):
        super().__init__()
        self.start = start
        self.seen = threading.Event()

    def emit(self, record):
        if record.getMessage().startswith(self.start):
            self.seen.set()


def test_the_computer_searches_in_a_process_of_its_own_started_once_and_reused(tmp_path):
    rig = computer_rig(tmp_path)
    pid = rig.daemon.computer.pid
    assert pid is not None and pid != os.getpid()  # started with the daemon: blue is the computer's
    make(rig, Move.from_text("c3-c4"))
    make(rig, wait_for_the_computer(rig))
    make(rig, Move.from_text("c4-c5"))
    wait_for_the_computer(rig)
    assert rig.daemon.computer.pid == pid  # the same process chose both moves
    rig.close()
    assert rig.daemon.computer.pid is None


def test_the_computers_process_dying_is_reported_and_the_next_search_starts_another(tmp_path):
    watch = LogWatch("the computer's process ended")
    logging.getLogger("firmware_host.daemon.computer").addHandler(watch)
    try:
        rig = computer_rig(tmp_path, level=5)
        make(rig, Move.from_text("c3-c4"))  # the strongest level thinks for a while
        pid = rig.daemon.computer.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert watch.seen.wait(COMPUTER_WAIT_S)
        rig.run_for(0.1)  # the daemon goes on refereeing: a take back, the move again
        rig.press("take_back")
        make(rig, Move(Move.from_text("c3-c4").target, Move.from_text("c3-c4").origin))
        assert rig.moves() == []
        rig.daemon.computer.set_level(1)
        make(rig, Move.from_text("c3-c4"))
        move = wait_for_the_computer(rig)  # chosen by a new process
        assert rig.daemon.computer.pid not in (None, pid)
        assert move in position_shown(rig).legal_moves()
        rig.close()
    finally:
        logging.getLogger("firmware_host.daemon.computer").removeHandler(watch)


def test_the_screens_say_the_computer_is_thinking():
    scene = Scene(CuckooGame(Nest.default())).following(TurnStarted(Side.BLUE, 1, (), by_computer=True))
    shown = screen(scene)
    assert (shown.headline, shown.lines[0]) == ("THINKING", "computer is blue")
    assert cells(scene) == {}
    capture = Move.from_text("d6xd5")
    scene = scene.following(ComputerMove(capture, Side.BLUE, 1))
    assert screen(scene).headline == "d6xd5"
    assert cells(scene) == {"d6": Blink.SLOW, "d5": Blink.ON}  # the piece captured stands lit
