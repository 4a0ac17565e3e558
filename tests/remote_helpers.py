"""Two remote-play sessions joined by a network the test controls: messages go through
their bytes (``to_bytes`` and ``read_message``), so the schema is checked on the way."""

from __future__ import annotations

import contextlib
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


def line_with_a_pass(seed: int = 780) -> list[str]:
    """A whole game of random moves (seed 780: the 113th ply is a pass forced on blue),
    as the referee records it: every pass in it."""
    import random

    rng = random.Random(seed)
    position = GAME.start("standard", Side.RED)
    line: list[str] = []
    while not position.is_over():
        move = rng.choice(list(position.legal_moves()))
        position.push(move)
        line.append(move.to_text())
    return line


class DroppingProxy:
    """A TCP proxy between MQTT clients and a real broker that, while :attr:`dropping`,
    drops every PUBLISH a client sends and forwards everything else (its pings, the
    broker's answers): the fault of a network that loses messages while the connection
    itself looks alive. It reads the MQTT fixed header only to find where each packet
    ends."""

    def __init__(self, broker_port: int) -> None:
        import socket
        import threading

        self.broker_port = broker_port
        self.dropping = False
        self.dropped = 0
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._server.getsockname()[1]
        self._sockets: list[socket.socket] = [self._server]
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(("127.0.0.1", self.broker_port))
            self._sockets += [client, upstream]
            for source, target, filtered in ((client, upstream, True), (upstream, client, False)):
                thread = threading.Thread(target=self._pump, args=(source, target, filtered), daemon=True)
                self._threads.append(thread)
                thread.start()

    def _pump(self, source: object, target: object, filtered: bool) -> None:
        import socket

        assert isinstance(source, socket.socket) and isinstance(target, socket.socket)
        buffer = b""
        try:
            while chunk := source.recv(65536):
                if not filtered:
                    target.sendall(chunk)
                    continue
                buffer += chunk
                while (packet := _whole_packet(buffer)) is not None:
                    buffer = buffer[len(packet) :]
                    if self.dropping and packet[0] >> 4 == 3:  # PUBLISH
                        self.dropped += 1
                        continue
                    target.sendall(packet)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        for end in self._sockets:
            end.close()


def _whole_packet(buffer: bytes) -> bytes | None:
    """The first MQTT packet of ``buffer`` if it is all there (fixed header, remaining length, body)."""
    length, multiplier = 0, 1
    for index in range(1, min(len(buffer), 5)):
        length += (buffer[index] & 0x7F) * multiplier
        if not buffer[index] & 0x80:
            end = index + 1 + length
            return buffer[:end] if len(buffer) >= end else None
        multiplier *= 128
    return None
