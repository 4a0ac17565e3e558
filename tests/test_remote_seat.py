"""The remote side seated at the referee as the computer is: the other nest's move is
shown and only its copy is accepted; each move accepted goes to the session."""

from __future__ import annotations

from firmware_host.games.cuckoo.rules import Position, Side
from firmware_host.referee.referee import Settings
from firmware_host.referee.signals import ComputerMove, MoveAccepted, MoveRefused, Signal
from firmware_host.remote.seat import RemoteSeat
from firmware_host.remote.session import MoveCopied
from tests.referee_helpers import Table
from tests.remote_helpers import JOINER, OFFERER, Network, pair


class SeatedNest:
    """One nest: its referee (the other side seated as the computer) and its seat."""

    def __init__(self, network: Network, nest: str, remote: Side) -> None:
        self.network, self.nest = network, nest
        self.table = Table(Position.from_lineup(), settings=Settings(computers=frozenset({remote})))
        self.seat = RemoteSeat(network.sessions[nest].game, send=self._send)
        self.seen = 0  # the session's events already told to the seat

    def _send(self, move: str) -> None:
        self.network.move(self.nest, move)

    def hand(self, script: str) -> list[Signal]:
        """Hands act on this nest; the referee's signals go to the seat."""
        self.table.do(script)
        signals = self.table.settle()
        self.seat.heard(signals)
        return signals

    def turn_of_the_loop(self) -> list[Signal]:
        """What the daemon's loop does each turn: the session's new events told, the move polled."""
        events = self.network.events[self.nest]
        for event in events[self.seen :]:
            self.seat.told(event)
        self.seen = len(events)
        signals = self.seat.poll(self.table.referee, self.table.time)
        self.table.signals += signals
        return signals


def a_step(network: Network, nest: str) -> str:
    """A legal step (no capture) for the side to move, as hands make it."""
    move = next(m for m in network.sessions[nest].position.legal_moves() if m.origin and not m.is_capture)
    return f"{move.origin}- {move.target}+"


def test_moves_go_between_two_refereed_nests_and_only_the_copy_is_accepted():
    network = Network.started(pair())
    network.deliver_all()
    red = SeatedNest(network, OFFERER, remote=Side.BLUE)
    blue = SeatedNest(network, JOINER, remote=Side.RED)
    for mover, copier in [(red, blue), (blue, red), (red, blue), (blue, red)]:
        script = a_step(network, mover.nest)
        made = mover.hand(script)
        assert [type(s) for s in made if isinstance(s, MoveAccepted)] == [MoveAccepted]
        network.deliver_all()
        shown = copier.turn_of_the_loop()
        assert [type(signal) for signal in shown] == [ComputerMove]
        target = script.split()[1].rstrip("+")
        if len(network.sessions[OFFERER].set_record.record) == 1:  # a wrong copy first: refused
            position = copier.table.referee.position
            assert position is not None
            other = next(m for m in position.legal_moves()
                         if m.origin and not m.is_capture and m.target != target)  # fmt: skip
            refused = copier.hand(f"{other.origin}- {other.target}+")
            assert any(isinstance(signal, MoveRefused) for signal in refused)
            copier.hand(f"{other.target}- {other.origin}+")  # put right
        copier.hand(script)
        network.deliver_all()
        assert any(isinstance(event, MoveCopied) for event in network.events[mover.nest][-2:])
    assert red.table.moves() == blue.table.moves() == list(network.sessions[OFFERER].set_record.record)
    assert network.sessions[OFFERER].set_record == network.sessions[JOINER].set_record
    assert network.sessions[OFFERER].incoming is None and network.sessions[JOINER].incoming is None
    assert network.sessions[OFFERER].is_our_turn() and red.turn_of_the_loop() == []
