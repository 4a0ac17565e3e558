"""Two whole daemons on simulated hardware playing each other through a real Mosquitto:
the hands (tests.hand_model) make every move on the mover's switches, the copy on the
other nest's, and the test waits (with a deadline) for what each nest shows."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from firmware_host.daemon.presenter import View
from firmware_host.daemon.remote_play import RemotePlay
from firmware_host.daemon.remote_shown import RemoteStage
from firmware_host.games.cuckoo.rules import Move, Position, Side
from tests.hand_model import Hand
from tests.test_daemon import Rig

WAIT_S = 20.0  # real seconds a step may take through the broker


class RemoteRig(Rig):
    """One nest: a daemon on mock hardware (tests.test_daemon's rig), its games in its
    own SQLite file, paired through the broker at ``broker_url``."""

    def __init__(self, folder: Path, broker_url: str, nest: str, *, seed: int, extra: str = "") -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder, f'[broker]\nurl = "{broker_url}"\n[remote]\nnest = "{nest}"\n{extra}')
        self.hand = Hand(random.Random(seed), fast=True)

    @property
    def remote(self) -> RemotePlay:
        assert self.daemon.remote is not None
        return self.daemon.remote

    def turn(self) -> None:
        self.clock.now += 0.005
        self.daemon.turn()

    def make(self, move: Move) -> None:
        """The hands make ``move`` on this nest's switches, at the hand model's pace."""
        position = self.daemon.position_now()
        assert isinstance(position, Position)
        hand = self.hand
        hand.events, hand.time_ms = [], 0
        hand._latest = 0
        hand.play(position, move)
        began = self.clock.now
        for event in sorted(hand.events, key=lambda event: event.time_ms):
            target = began + event.time_ms / 1000
            if target > self.clock.now:
                self.run_for(target - self.clock.now)
            self.switches.set(self.cells[event.cell], event.occupied)
        self.run_for(1.0)
        self.answer_question(move)

    def answer_question(self, move: Move) -> None:
        """A capture pushed off too fast for the scan: point at the move, confirm."""
        for _ in range(3):
            if move not in self.daemon.snapshot().question:
                return
            while self.daemon.snapshot().answer != move:
                self.press("switch")
            self.press("confirm")
            self.run_for(1.0)

    def moves(self) -> list[str]:
        """The moves of the last game as the record on disk has them."""
        recorded = self.daemon.recorded_game()
        return list(recorded.moves) if recorded is not None else []

    def close(self) -> None:
        self.daemon.close()


def until(rigs: list[RemoteRig], condition: Callable[[], bool], what: str) -> None:
    """Turn every nest's loop until ``condition`` holds (messages go through the broker
    in real time), or fail after ``WAIT_S``."""
    deadline = time.monotonic() + WAIT_S
    pause = threading.Event()
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        for rig in rigs:
            rig.turn()
        pause.wait(0.001)  # the broker's round trip, in real time


def paired_rigs(tmp_path: Path, broker_url: str, *, extra: str = "") -> tuple[RemoteRig, RemoteRig]:
    """Red offers on its nest (the code shown), blue joins with it (as from the page);
    ``extra``: more of both nests' config."""
    start = Position.from_lineup("standard")
    red = RemoteRig(tmp_path / "red", broker_url, "rednest0001", seed=1, extra=extra)
    blue = RemoteRig(tmp_path / "blue", broker_url, "bluenest001", seed=2, extra=extra)
    red.start(start)
    blue.start(start)
    red.press("confirm")  # between games, no pairing: confirm offers a game
    assert red.remote.stage is RemoteStage.OFFERING
    code = red.daemon.snapshot().screen.headline
    blue.daemon.remote_action("remote_join", {"code": code})
    rigs = [red, blue]
    until(rigs, lambda: red.remote.stage is blue.remote.stage is RemoteStage.PLAYING, "the pairing")
    until(rigs, lambda: all(rig.daemon.view is View.PLAYING for rig in rigs), "game 1 to start")
    return red, blue


def play_move(mover: RemoteRig, copier: RemoteRig, move: Move) -> None:
    """``move`` made on ``mover``, shown on ``copier``, copied there, acknowledged."""
    rigs = [mover, copier]
    mover.make(move)
    until(rigs, lambda: copier.daemon.snapshot().game.computer_move == move, f"{move} shown on the other nest")
    assert " ".join(mover.daemon.snapshot().screen.lines).startswith("waiting for the copy")
    assert copier.daemon.snapshot().screen.lines[0] == "their move"
    assert move.target in copier.daemon.snapshot().cell_lights
    copier.make(move)
    until(rigs, lambda: not mover.remote.shown().is_waiting_for_copy, f"the copy of {move} acknowledged")


def side_of(rig: RemoteRig) -> Side:
    side = rig.remote.shown().side
    assert side is not None
    return side
