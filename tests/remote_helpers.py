"""Two remote-play sessions joined by a network the test controls: messages go through
their bytes (``to_bytes`` and ``read_message``), so the schema is checked on the way."""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_host.games import load_game
from firmware_host.games.base import Side
from firmware_host.remote.messages import read_message
from firmware_host.remote.session import HEARTBEAT_S, Event, Joining, Offering, Pairing, Session, SessionRecord, Step

GAME = load_game("cuckoo")
CODE = "K7P2QX"
OFFERER, JOINER = "offerer0001", "joiner00001"


GAME_ID = "0123456789abcdef"
OFFER_NONCE, JOIN_NONCE = "a" * 32, "b" * 32


def pair(*, offerer_side: Side = Side.RED, first_starter: Side = Side.RED, lineup: str = "standard") -> Pairing:
    """Pair two nests through the offer and join messages, as bytes."""
    offering = Offering(
        GAME,
        code=CODE,
        nest=OFFERER,
        side=offerer_side,
        lineup=lineup,
        first_starter=first_starter,
        game_id=GAME_ID,
        nonce=OFFER_NONCE,
    )
    joining = Joining(GAME, code=CODE, nest=JOINER, nonce=JOIN_NONCE)
    offer = read_message(offering.offer.to_bytes(), GAME)
    assert offer == offering.offer
    from_joiner = joining.received(offer)
    assert joining.join is not None
    join = read_message(joining.join.to_bytes(), GAME)
    assert join == joining.join
    from_offerer = offering.received(join)
    assert from_joiner == from_offerer and from_offerer is not None
    return from_offerer


@dataclass
class Network:
    """Two sessions and the messages in flight to each."""

    pairing: Pairing
    now: float = 0.0
    sessions: dict[str, Session] = field(default_factory=dict)
    in_flight: dict[str, list[bytes]] = field(default_factory=dict)
    events: dict[str, list[Event]] = field(default_factory=dict)

    @classmethod
    def started(cls, pairing: Pairing) -> Network:
        network = cls(pairing)
        for nest in (OFFERER, JOINER):
            network.sessions[nest] = Session(GAME, pairing, nest=nest, now=0.0)
            network.in_flight[nest] = []
            network.events[nest] = []
        for nest in (OFFERER, JOINER):
            network.apply(nest, network.sessions[nest].link_changed(True, 0.0))
        return network

    @staticmethod
    def other(nest: str) -> str:
        return JOINER if nest == OFFERER else OFFERER

    def apply(self, nest: str, step: Step) -> Step:
        """Send ``step``'s messages (if the link is up) and keep its events."""
        self.events[nest].extend(step.events)
        if self.sessions[nest].link.is_up:
            self.in_flight[self.other(nest)].extend(message.to_bytes() for message in step.messages)
        return step

    def deliver(self, nest: str, index: int = 0) -> Step:
        data = self.in_flight[nest].pop(index)
        message = read_message(data, GAME)
        return self.apply(nest, self.sessions[nest].received(message, self.now))  # type: ignore[arg-type]

    def deliver_all(self) -> None:
        while any(self.in_flight.values()):
            for nest in (OFFERER, JOINER):
                while self.in_flight[nest]:
                    self.deliver(nest)

    def copy(self, nest: str) -> Step:
        session = self.sessions[nest]
        assert session.incoming is not None
        return self.apply(nest, session.local_move(session.incoming.move, self.now))

    def move(self, nest: str, text: str) -> Step:
        return self.apply(nest, self.sessions[nest].local_move(text, self.now))

    def link(self, nest: str, is_up: bool) -> None:
        if not is_up:
            self.in_flight[nest].clear()  # lost on the way to a nest that is away
        self.apply(nest, self.sessions[nest].link_changed(is_up, self.now))

    def reboot(self, nest: str) -> None:
        """The nest loses power and starts again from the record it kept."""
        kept: SessionRecord = self.sessions[nest].to_record()
        self.in_flight[nest].clear()
        self.sessions[nest] = Session(GAME, self.pairing, nest=nest, now=self.now, resume=kept)
        self.apply(nest, self.sessions[nest].link_changed(True, self.now))

    def settle(self, rounds: int = 8) -> None:
        """No more faults: links up, everything delivered, every move shown copied, and
        time passing for the resends and heartbeats."""
        for _ in range(rounds):
            for nest in (OFFERER, JOINER):
                if not self.sessions[nest].link.is_up:
                    self.link(nest, True)
            self.deliver_all()
            for nest in (OFFERER, JOINER):
                if self.sessions[nest].incoming is not None:
                    self.copy(nest)
            self.deliver_all()
            self.now += HEARTBEAT_S + 1.0
            for nest in (OFFERER, JOINER):
                self.apply(nest, self.sessions[nest].tick(self.now))
            self.deliver_all()
