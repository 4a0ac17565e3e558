"""Driving the referee in tests, in the log's time."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.sensor_log import SensorEvent
from firmware_host.referee.signals import MoveAccepted, Signal
from tests.hand_model import random_moves


def referee_for(
    start: Position, *, settings: Settings | None = None, lineup: str = "standard"
) -> tuple[Referee, list[Signal]]:
    """A referee whose game starts at ``start``, the nest showing it."""
    game = CuckooGame(start.nest)
    referee = Referee(game, settings=settings or Settings(), lineup=lineup, occupied=start.occupied(), now=0)
    return referee, referee.begin_game(start.copy(), now=0)


def feed(referee: Referee, events: Iterable[SensorEvent]) -> list[Signal]:
    signals: list[Signal] = []
    for event in events:
        signals += referee.sense(event.cell, event.occupied, event.time_ms)
    return signals


def settle(referee: Referee, on_tick: Callable[[int], None] = lambda due: None) -> list[Signal]:
    """Let time pass until nothing is pending (``on_tick`` is told each deadline)."""
    signals: list[Signal] = []
    for _ in range(10_000):
        due = referee.next_deadline()
        if due is None:
            return signals
        on_tick(due)
        signals += referee.tick(due)
    raise AssertionError("the referee never settles")


def replay(referee: Referee, events: Iterable[SensorEvent]) -> list[tuple[int, Signal]]:
    """Feed ``events`` in their time, letting every deadline pass, then until nothing
    is pending: each signal with the time it came."""
    timed: list[tuple[int, Signal]] = []
    for event in events:
        while (due := referee.next_deadline()) is not None and due < event.time_ms:
            timed += [(due, signal) for signal in referee.tick(due)]
        timed += [(event.time_ms, signal) for signal in referee.sense(event.cell, event.occupied, event.time_ms)]
    for _ in range(10_000):
        due = referee.next_deadline()
        if due is None:
            return timed
        timed += [(due, signal) for signal in referee.tick(due)]
    raise AssertionError("the referee never settles")


def accepted(signals: Iterable[Signal]) -> list[str]:
    return [str(signal.move) for signal in signals if isinstance(signal, MoveAccepted)]


def random_game(rng: random.Random, lineup: str, plies: int) -> tuple[Position, list[Move]]:
    """A start position and up to ``plies`` random legal moves from it (passes included)."""
    start = Position.from_lineup(lineup, turn=rng.choice(list(Side)))
    return start, random_moves(rng, start, plies)


class TimedReferee:
    """A referee under test and the time of its log: what the tables of both games do
    alike (``referee``, ``signals`` and ``time`` set by the one made)."""

    referee: Referee
    signals: list[Signal]
    time: int

    def wait(self, ms: int) -> list[Signal]:
        self.time += ms
        signals = self.referee.tick(self.time)
        self.signals += signals
        return signals

    def settle(self) -> list[Signal]:
        """Let time pass until nothing is pending."""
        signals = settle(self.referee, on_tick=self._reach)
        self.signals += signals
        return signals

    def _reach(self, due: int) -> None:
        self.time = max(self.time, due)


class Table(TimedReferee):
    """A nest under test: a referee and a clock; hands act with :meth:`do`.

    ``do("c3- c4+")`` makes the changes 300 ms apart; ``+N`` in the list waits N ms
    more; each call starts 1 s after the last one, or at once with ``now=True``.
    """

    def __init__(self, start: Position, *, settings: Settings | None = None, lineup: str = "standard") -> None:
        self.referee, self.signals = referee_for(start, settings=settings, lineup=lineup)
        self.time = 0

    def do(self, script: str, *, gap: int = 300, pause: int = 1000) -> list[Signal]:
        self.time += pause
        signals: list[Signal] = []
        for token in script.split():
            if token.startswith("+") and token[1:].isdigit():
                self.time += int(token[1:])
                continue
            signals += self.referee.sense(token[:-1], token[-1] == "+", self.time)
            self.time += gap
        self.signals += signals
        return signals

    def moves(self) -> list[str]:
        return accepted(self.signals)

    def nfn(self) -> str:
        assert self.referee.position is not None
        return self.referee.position.to_text()
