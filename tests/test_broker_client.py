"""The one broker client's life, through a real Mosquitto: connecting with the shared
back-off (the first failure at WARNING, its repeats at DEBUG), a refused login tried
again, a lost connection taken again and subscribed again, the goodbye on stop and a stop that
never hangs. (The last will of a nest killed: ``test_live_boards.py``.)"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.broker_client import BrokerClient, LastWill, close_sockets
from hardware.reconnect import Backoff
from tests.broker import Broker

TIMEOUT_S = 20.0
CLIENT_LOGGER = logging.getLogger("firmware_host.remote.broker_client")


class Told:
    """What a client told its owner, to wait on."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.connected = 0
        self.lost = 0
        self.refused: list[str] = []
        self.messages: list[tuple[str, bytes]] = []

    def connection(self) -> None:
        with self.changed:
            self.connected += 1
            self.changed.notify_all()

    def loss(self) -> None:
        with self.changed:
            self.lost += 1
            self.changed.notify_all()

    def refusal(self, reason: str) -> None:
        with self.changed:
            self.refused.append(reason)
            self.changed.notify_all()

    def message(self, topic: str, payload: bytes) -> None:
        with self.changed:
            self.messages.append((topic, payload))
            self.changed.notify_all()

    def wait_for(self, predicate: Callable[[], bool], what: str) -> None:
        with self.changed:
            assert self.changed.wait_for(predicate, TIMEOUT_S), f"no {what} within {TIMEOUT_S} s"


def quick_backoff(what: str) -> Backoff:
    return Backoff(what, CLIENT_LOGGER, initial_s=0.05, maximum_s=0.2)


def a_client(
    settings: BrokerSettings, told: Told, *, will: LastWill | None = None, backoff: Backoff | None = None
) -> BrokerClient:
    return BrokerClient(
        settings,
        client_id="nestref-test",
        what="the test's client",
        subscriptions=("test/in/#",),
        will=will,
        on_connected=told.connection,
        on_lost=told.loss,
        on_refused=told.refusal,
        on_message=told.message,
        backoff=backoff or quick_backoff("the test's client"),
    )


def wait_for_log(caplog: pytest.LogCaptureFixture, words: str, *, times: int = 1) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while sum(words in record.getMessage() for record in caplog.records) < times:
        assert time.monotonic() < deadline, caplog.text
        time.sleep(0.01)


class Watcher:
    """Another client of the broker, subscribed to ``test/#``: what reached the broker."""

    def __init__(self, broker: Broker) -> None:
        self.told = Told()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="watcher")
        self.client.on_message = lambda client, userdata, message: self.told.message(
            message.topic, bytes(message.payload)
        )
        self.client.connect("127.0.0.1", broker.port)
        self.client.subscribe("test/#", qos=1)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes) -> None:
        """Retained: the client gets it whether its subscription reached the broker
        before this or after (it is told of a connection before the broker's SUBACK)."""
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        close_sockets(self.client)


@pytest.fixture
def watcher(broker: Broker) -> Iterator[Watcher]:
    watcher = Watcher(broker)
    yield watcher
    watcher.close()


def test_it_connects_subscribes_receives_publishes_and_says_goodbye_with_its_will(broker, watcher):
    told = Told()
    will = LastWill("test/out/online", b"0")
    with a_client(BrokerSettings.from_url(broker.url), told, will=will) as client:
        told.wait_for(lambda: told.connected == 1, "connection")
        client.publish("test/out/state", b"from the client")
        watcher.publish("test/in/move", b"to the client")
        told.wait_for(lambda: ("test/in/move", b"to the client") in told.messages, "message")
        watcher.told.wait_for(lambda: ("test/out/state", b"from the client") in watcher.told.messages, "publish")
    watcher.told.wait_for(lambda: ("test/out/online", b"0") in watcher.told.messages, "goodbye")
    assert not client.is_connected() and told.lost == 1
    client.stop()  # a second stop does nothing


def test_a_broker_not_there_yet_is_logged_once_then_taken_when_it_comes(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger=CLIENT_LOGGER.name)
    broker = Broker(tmp_path)
    told = Told()
    client = a_client(BrokerSettings.from_url(broker.url), told)
    client.start()
    try:
        wait_for_log(caplog, "unavailable", times=3)
        failures = [record for record in caplog.records if "unavailable" in record.getMessage()]
        assert [record.levelno for record in failures[:3]] == [logging.WARNING, logging.DEBUG, logging.DEBUG]
        assert "Connection refused" in failures[0].getMessage()
        broker.start()
        told.wait_for(lambda: told.connected == 1, "connection once the broker is up")
        assert any("connected again after" in record.getMessage() for record in caplog.records)
    finally:
        client.stop()
        broker.stop()


def test_a_lost_connection_is_taken_again_and_subscribed_again(broker, caplog):
    caplog.set_level(logging.DEBUG, logger=CLIENT_LOGGER.name)
    told = Told()
    with a_client(BrokerSettings.from_url(broker.url), told) as client:
        told.wait_for(lambda: told.connected == 1, "connection")
        broker.stop()
        told.wait_for(lambda: told.lost == 1, "the loss")
        client.publish("test/out/state", b"made while away")  # kept, and sent once connected again
        broker.start()  # no persistence: the subscription is gone with the old broker
        told.wait_for(lambda: told.connected == 2, "the connection taken again")
        watcher = Watcher(broker)
        try:
            watcher.publish("test/in/after", b"1")
            told.wait_for(lambda: ("test/in/after", b"1") in told.messages, "a message after the restart")
        finally:
            watcher.close()
    lost = [record for record in caplog.records if "the connection was lost" in record.getMessage()]
    assert lost and lost[0].levelno == logging.WARNING


def test_a_refused_login_is_told_logged_once_without_the_password_and_tried_again(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    broker = Broker(tmp_path, users={"nest": "s3cret"})
    broker.start()
    told = Told()
    wrong = BrokerSettings.from_url(f"mqtt://nest:not-it@127.0.0.1:{broker.port}")
    try:
        with a_client(wrong, told):
            told.wait_for(lambda: len(told.refused) >= 3, "three refusals")
            assert told.connected == 0 and told.lost == 0
        refusals = [record for record in caplog.records if "refused the connection" in record.getMessage()]
        assert refusals[0].levelno == logging.WARNING and {r.levelno for r in refusals[1:]} == {logging.DEBUG}
        assert "unavailable (the broker refused the connection: Not authorized)" in refusals[0].getMessage()
        assert "not-it" not in caplog.text and "s3cret" not in caplog.text
    finally:
        broker.stop()


def test_a_stop_while_the_broker_is_away_ends_at_once(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger=CLIENT_LOGGER.name)
    broker = Broker(tmp_path)  # never started
    told = Told()
    client = a_client(
        BrokerSettings.from_url(broker.url),
        told,
        will=LastWill("test/out/online", b"0"),
        backoff=Backoff("the test's client", CLIENT_LOGGER, initial_s=30.0, maximum_s=30.0),
    )
    client.start()
    wait_for_log(caplog, "unavailable")  # the first attempt failed: the next is 30 s away
    began = time.monotonic()
    client.stop()
    assert time.monotonic() - began < 2.0
    assert told.connected == 0
