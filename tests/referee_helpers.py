"""Driving the referee in tests, in the log's time."""

from __future__ import annotations

import random
from collections.abc import Iterable

from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.sensor_log import SensorEvent
from firmware_host.referee.signals import MoveAccepted, Signal
from firmware_host.rules import Move, Position, Side


def referee_for(
    start: Position, *, settings: Settings | None = None, lineup: str = "standard"
) -> tuple[Referee, list[Signal]]:
    """A referee whose game starts at ``start``, the nest showing it."""
    referee = Referee(start.nest, settings=settings or Settings(), lineup=lineup, occupied=start.occupied(), now=0)
    return referee, referee.begin_game(start.copy(), now=0)


def feed(referee: Referee, events: Iterable[SensorEvent]) -> list[Signal]:
    signals: list[Signal] = []
    for event in events:
        signals += referee.sense(event.cell, event.occupied, event.time_ms)
    return signals


def settle(referee: Referee) -> list[Signal]:
    """Let time pass until nothing is pending."""
    signals: list[Signal] = []
    for _ in range(10_000):
        due = referee.next_deadline()
        if due is None:
            return signals
        signals += referee.tick(due)
    raise AssertionError("the referee never settles")


def accepted(signals: Iterable[Signal]) -> list[str]:
    return [str(signal.move) for signal in signals if isinstance(signal, MoveAccepted)]


def random_game(rng: random.Random, lineup: str, plies: int) -> tuple[Position, list[Move]]:
    """A start position and up to ``plies`` random legal moves from it (passes included)."""
    start = Position.from_lineup(lineup, turn=rng.choice(list(Side)))
    board = start.copy()
    moves: list[Move] = []
    while len(moves) < plies and (legal := board.legal_moves()):
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return start, moves
