"""Two daemons on simulated hardware play a set through a real Mosquitto (tests/broker.py):
every move made by the hands on the mover's switches, shown on the other nest as the
computer's move is, copied there by hand and acknowledged; both records compared."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from firmware_host.daemon.presenter import View
from firmware_host.daemon.remote_play import RemoteStage
from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.remote.messages import SetRecord
from tests.broker import Broker
from tests.remote_nests import RemoteRig, paired_rigs, play_move, side_of, until


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(tmp_path / "broker")
    broker.folder.mkdir()
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def rigs(tmp_path: Path, broker: Broker) -> Iterator[tuple[RemoteRig, RemoteRig]]:
    red, blue = paired_rigs(tmp_path, broker.url)
    yield red, blue
    red.close()
    blue.close()


def quiet_moves(rng: random.Random, start: Position, plies: int) -> list[Move]:
    """A short line of steps (no captures): a game that a resignation ends."""
    board, moves = start.copy(), []
    for _ in range(plies):
        steps = [move for move in board.legal_moves() if move.origin and not move.is_capture]
        move = rng.choice(steps)
        board.push(move)
        moves.append(move)
    return moves


def is_over(rig: RemoteRig) -> bool:
    return rig.daemon.view is View.OVER


def are_playing(rigs: list[RemoteRig], side: Side) -> bool:
    return all(rig.daemon.presenter.side is side and rig.daemon.view is View.PLAYING for rig in rigs)


def records(rig: RemoteRig) -> SetRecord:
    player = rig.remote.player
    assert player is not None and player.session is not None
    return player.session.set_record


def test_two_daemons_play_a_set_of_three_games_the_starter_alternating(rigs):
    red, blue = rigs
    assert side_of(red) is Side.RED and side_of(blue) is Side.BLUE
    by_side = {Side.RED: red, Side.BLUE: blue}
    rng = random.Random(7)
    starters = []
    for number, resigner in enumerate([Side.BLUE, Side.RED, Side.BLUE]):
        starter = Side.RED if number % 2 == 0 else Side.BLUE
        starters.append(red.daemon.presenter.side)
        start = Position.from_lineup("standard")
        if starter is Side.BLUE:
            start = red.daemon.config.game.start("standard", Side.BLUE)
        line = quiet_moves(rng, start, 4)
        board = start.copy()
        for move in line:
            mover = by_side[board.turn]
            play_move(mover, blue if mover is red else red, move)
            board.push(move)
        assert red.moves() == blue.moves() == [str(move) for move in line]
        loser = by_side[resigner]
        winner = blue if loser is red else red
        loser.press("take_back", seconds=2.5)  # held: this nest's side resigns
        until([red, blue], partial(is_over, winner), f"game {number + 1} resigned")
        assert loser.daemon.view is View.OVER
        assert red.daemon.presenter.score == blue.daemon.presenter.score
        if number < 2:
            for rig in (red, blue):  # the players set the nest up for the next game
                rig.show(start)
                rig.run_for(1.0)
            nxt = Side.BLUE if number % 2 == 0 else Side.RED
            until([red, blue], partial(are_playing, [red, blue], nxt), f"game {number + 2}")
    assert starters == [Side.RED, Side.BLUE, Side.RED]
    assert records(red) == records(blue)
    assert [game.result for game in records(red).finished] == ["red", "blue", "red"]
    assert red.remote.stage is blue.remote.stage is RemoteStage.SET_OVER
    assert red.daemon.presenter.score == (2, 1)
