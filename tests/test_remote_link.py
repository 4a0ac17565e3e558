"""Remote play through a real Mosquitto: two nests pair and play, the broker restarts
mid-game, a third client publishes garbage, illegal moves, old plies and a forged
record, and TLS with a user name and password."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.games.base import Side
from firmware_host.remote.broker import BrokerSettings, LinkError
from firmware_host.remote.broker_client import close_sockets
from firmware_host.remote.link import state_topic
from firmware_host.remote.messages import Kind, SetRecord, StateMessage
from firmware_host.remote.player import RemotePlayer
from firmware_host.remote.session import Desynced, Event, MoveCopied, Phase, Refused, Session, ShowMove
from tests.broker import Broker
from tests.remote_helpers import GAME

TIMEOUT_S = 20.0


class Nest:
    """A remote player and the events it told, to wait on."""

    def __init__(self, settings: BrokerSettings, nest: str) -> None:
        self.events: list[Event] = []
        self.changed = threading.Condition()
        self.player = RemotePlayer(GAME, settings, nest=nest, clock=time.monotonic, on_event=self._event)

    def _event(self, event: Event) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    @property
    def session(self) -> Session:
        assert self.player.session is not None
        return self.player.session

    def wait_for(self, predicate: Callable[[], bool], what: str) -> None:
        with self.changed:
            if not self.changed.wait_for(predicate, TIMEOUT_S):
                raise AssertionError(f"{self.player.nest}: no {what} within {TIMEOUT_S} s: {self.events}")

    def wait_for_event(self, kind: type, what: str) -> Event:
        self.wait_for(lambda: any(isinstance(event, kind) for event in self.events), what)
        with self.changed:
            found = next(event for event in self.events if isinstance(event, kind))
            self.events.remove(found)
            return found


def paired(settings: BrokerSettings, code: str = "K7P2QX") -> tuple[Nest, Nest]:
    red, blue = Nest(settings, "rednest0001"), Nest(settings, "bluenest001")
    red.player.offer(side=Side.RED, lineup="standard", first_starter=Side.RED, random=random.Random(0), code=code)
    blue.player.join(code)
    blue.wait_for(lambda: blue.player.session is not None, "pairing")
    red.wait_for(lambda: red.player.session is not None, "pairing")
    return red, blue


def play(mover: Nest, copier: Nest) -> str:
    """``mover`` makes its first legal move; ``copier`` is shown it and copies it."""
    move = mover.session.position.legal_moves()[0].to_text()
    mover.player.local_move(move)
    shown = copier.wait_for_event(ShowMove, "move shown")
    assert isinstance(shown, ShowMove) and shown.move == move
    copier.player.local_move(move)
    copied = mover.wait_for_event(MoveCopied, "ack")
    assert isinstance(copied, MoveCopied) and copied.move == move
    return move


@pytest.fixture
def players(broker: Broker) -> Iterator[tuple[Nest, Nest]]:
    red, blue = paired(BrokerSettings.from_url(broker.url))
    yield red, blue
    red.player.close()
    blue.player.close()


def test_two_nests_pair_with_the_code_and_play_moves_copied_both_ways(players):
    red, blue = players
    assert red.session.side is Side.RED and blue.session.side is Side.BLUE
    for nest in (red, blue):
        nest.wait_for(lambda nest=nest: nest.session.link.to_text(time.monotonic()) == "link up", "the other online")
    moves = [play(red, blue), play(blue, red), play(red, blue), play(blue, red)]
    assert red.session.set_record == blue.session.set_record
    assert red.session.set_record.record == tuple(moves)
    assert not red.session.is_waiting_for_copy() and red.session.is_our_turn()


def test_a_broker_restarted_mid_game_loses_nothing(broker, players):
    red, blue = players
    play(red, blue)
    broker.stop()
    red.wait_for(lambda: not red.session.link.is_up, "link lost")
    move = blue.session.position.legal_moves()[0].to_text()
    blue.player.local_move(move)  # made while the broker is away: kept, sent when it is back
    broker.start()  # a broker without persistence: every retained message is gone
    shown = red.wait_for_event(ShowMove, "the move made while the broker was away")
    assert isinstance(shown, ShowMove) and shown.move == move
    red.player.local_move(move)
    blue.wait_for_event(MoveCopied, "ack after the restart")
    assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 2


def intruder(broker: Broker) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def close_intruder(client: mqtt.Client) -> None:
    client.disconnect()
    client.loop_stop()
    close_sockets(client)


def test_garbage_illegal_moves_old_plies_are_refused_and_the_game_goes_on(broker, players):
    red, blue = players
    play(red, blue)
    old = blue.session.hello(time.monotonic()).messages[0]
    play(blue, red)
    client = intruder(broker)
    topic = state_topic("K7P2QX", Side.BLUE)
    illegal = old.to_bytes().replace(b'"record":[', b'"record":["e7-e1",', 1)
    for payload in (b"\x00garbage", b"{}", illegal):
        client.publish(topic, payload, qos=1).wait_for_publish(5)
        red.wait_for_event(Refused, "refusal")
    client.publish(topic, old.to_bytes(), qos=1).wait_for_publish(5)  # an old ply, really blue's
    close_intruder(client)
    assert red.session.phase is Phase.PLAYING and red.session.incoming is None
    play(red, blue)
    assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 3


def test_a_forged_record_that_disagrees_stops_both_nests(broker, players):
    red, blue = players
    play(red, blue)
    client = intruder(broker)
    forged_first = GAME.start("standard", Side.RED).legal_moves()[-1].to_text()
    assert forged_first != red.session.set_record.record[0]
    forged = StateMessage(
        Kind.HELLO, "K7P2QX", blue.player.nest, Side.BLUE, "cuckoo",
        SetRecord("standard", Side.RED, record=(forged_first,)),
    )  # fmt: skip
    client.publish(state_topic("K7P2QX", Side.BLUE), forged.to_bytes(), qos=1).wait_for_publish(5)
    close_intruder(client)
    red.wait_for_event(Desynced, "desync")
    blue.wait_for_event(Desynced, "desync told by the other nest")
    assert red.session.phase is Phase.DESYNC and blue.session.phase is Phase.DESYNC


def test_tls_with_a_password_and_the_password_never_logged(tmp_path, caplog):
    broker = Broker(tmp_path, users={"rednest": "s3cret-red", "bluenest": "s3cret-blue"}, tls=True)
    broker.start()
    caplog.set_level(logging.DEBUG)
    try:
        wrong = Nest(
            BrokerSettings.from_url(f"mqtts://rednest:wrong@127.0.0.1:{broker.port}", ca_file=str(broker.cert)),
            "wrongnest01",
        )
        wrong.player.offer(side=Side.RED, lineup="standard", first_starter=Side.RED, random=random.Random(1))
        settings = BrokerSettings.from_url(
            f"mqtts://rednest:s3cret-red@127.0.0.1:{broker.port}", ca_file=str(broker.cert)
        )
        red, blue = paired(settings, code="TMS234")
        play(red, blue)
        assert wrong.player.session is None
        for nest in (red, blue, wrong):
            nest.player.close()
    finally:
        broker.stop()
    assert "refused the connection" in caplog.text
    assert "s3cret" not in caplog.text and "wrong" not in caplog.text.replace("wrongnest01", "")


def test_a_nest_restarted_resumes_from_its_record_and_the_others_retained_state(broker, players):
    red, blue = players
    play(red, blue)
    play(blue, red)
    pairing, kept = blue.session.pairing, blue.session.to_record()
    blue.player.close()  # the nest goes away
    move = play_alone(red)
    again = Nest(BrokerSettings.from_url(broker.url), blue.player.nest)
    again.player.resume(pairing, kept)
    shown = again.wait_for_event(ShowMove, "the move made while it was away, from the retained state")
    assert isinstance(shown, ShowMove) and shown.move == move
    again.player.local_move(move)
    red.wait_for_event(MoveCopied, "ack from the restarted nest")
    assert red.session.set_record == again.session.set_record and len(red.session.set_record.record) == 3
    again.player.close()


def play_alone(mover: Nest) -> str:
    move = mover.session.position.legal_moves()[0].to_text()
    mover.player.local_move(move)
    return move


def test_a_broker_address_is_read_or_refused_without_its_password():
    settings = BrokerSettings.from_url("mqtts://nest:p%40ss@broker.example")
    assert (settings.port, settings.username, settings.password, settings.tls) == (8883, "nest", "p@ss", True)
    assert "p@ss" not in repr(settings) and settings.to_text() == "mqtts://nest@broker.example:8883"
    assert BrokerSettings.from_url("mqtt://10.0.0.2").port == 1883
    for url, words in [
        ("http://nest:hunter2@broker", "starts mqtt:// or mqtts://"),
        ("mqtt://nest:hunter2@broker:99999", "Port out of range"),
        ("mqtt://nest:hunter2@broker/topic", "no path"),
        ("mqtt://", "no host name"),
    ]:
        with pytest.raises(LinkError, match=words) as refused:
            BrokerSettings.from_url(url)
        assert "hunter2" not in str(refused.value)
