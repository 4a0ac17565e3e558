"""One MQTT client's life with the broker, written once for remote play's link and
live boards' publisher and reader: start, connect (and connect again, with the project's
one reconnection helper, :class:`~hardware.reconnect.Backoff`), subscribe on every
connection, a last will, and stop.

The client runs paho's network loop in a thread of its own. Nothing here knows a game
or a topic's meaning: the owner gives the topics to subscribe, the last will, and what
to do with a message or a change of the connection (told from the client's thread).

- A connection that cannot be made (no route, refused, a TLS error) or that the broker
  refuses (a wrong password) is tried again after 1 s, doubling to 10 s: the first
  failure in a row is logged at WARNING, its repeats at DEBUG (a nest left without its
  broker for a night fills no log), a success after failures at INFO.
- A connection lost after the broker took it is tried again the same way, from 1 s.
- Every (re)connection subscribes again (a clean session remembers nothing) and tells
  the owner, who may send its latest state again.
- :meth:`BrokerClient.stop` says goodbye with the last will's own message, sent while
  still connected (a will is the broker's to send only when a client drops without a
  word), then disconnects and ends the thread.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from firmware_host.errors import NestrefError
from firmware_host.remote.broker import BrokerSettings
from hardware.reconnect import Backoff

logger = logging.getLogger(__name__)

QOS = 1
RECONNECT_MIN_S, RECONNECT_MAX_S = 1.0, 10.0
LOOP_S = 1.0  # the network loop wakes at least this often (keepalive pings), else only for traffic
GOODBYE_S = 2.0  # how long stop() waits for the goodbye to reach the broker
STOP_S = 10.0  # how long stop() waits for the client's thread (a connection being made ends within paho's 5 s)
UNACKNOWLEDGED_S = 10.0
"""A message the broker has not acknowledged in this long, on a connection that is
otherwise alive (its pings answered), means the connection is stuck: paho sends no more
than 20 unacknowledged and never sends one again on the same connection, so it is made
anew (paho then sends every unacknowledged message again)."""


class BrokerRefusedError(NestrefError, ConnectionRefusedError):
    """The broker answered and refused the connection (a wrong user name or password, a
    client id it will not take); the message gives its reason."""


class BrokerLostError(ConnectionError):
    """The connection to the broker, once made, was lost."""


@dataclass(frozen=True)
class LastWill:
    """What the broker publishes (retained, QoS 1) when the client drops without a word;
    the client publishes it itself when it stops."""

    topic: str
    payload: bytes


Received = Callable[[str, bytes], object]
"""Told each message's topic and payload, from the client's own thread."""


def _nothing(*_: object) -> None:
    pass


def _is_acknowledged(info: mqtt.MQTTMessageInfo) -> bool:
    """Whether the broker acknowledged the message (its PUBACK read). paho's own
    ``is_published`` raises for a message published while the connection was down,
    which paho keeps all the same and sends on connecting."""
    with info._condition:
        return bool(info._published)


def close_sockets(client: mqtt.Client) -> None:
    """Close the socket pair paho 2.2 wakes its loop with: it stays open until the client
    is collected (a ResourceWarning then), so it is closed here, once the client's
    thread has ended. (Also for the tests' own paho clients.)"""
    client._reset_sockets()


def new_client(settings: BrokerSettings, client_id: str) -> mqtt.Client:
    """A paho client for ``settings``: MQTT 3.1.1, a clean session, the login and TLS
    they give. It connects only when a :class:`BrokerClient` runs it."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311, clean_session=True)
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set(ca_certs=settings.ca_file, cert_reqs=ssl.CERT_REQUIRED)
    return client


def send_at_once(client: mqtt.Client) -> None:
    """On a connection just made: each small message is sent at once, not held back to
    be joined with the next (Nagle's algorithm would add up to 40 ms against the
    broker's delayed ack)."""
    connection = client.socket()
    if isinstance(connection, socket.socket):
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class BrokerClient:
    """One client of the broker at ``settings``, for ``what`` (the log's words: "remote
    play's link"): connected, kept connected, and stopped.

    ``subscriptions``: the topics subscribed (QoS 1) on every connection; ``will``: the
    last will, and the goodbye :meth:`stop` sends; ``on_connected`` / ``on_lost``: told
    when a connection is taken (after subscribing) and when it ends; ``on_refused``:
    told the reason when the broker refuses the login (it is tried again);
    ``on_message``: told every message. All from the client's own thread."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        client_id: str,
        what: str,
        subscriptions: Iterable[str] = (),
        will: LastWill | None = None,
        on_connected: Callable[[], None] = _nothing,
        on_lost: Callable[[], None] = _nothing,
        on_refused: Callable[[str], None] = _nothing,
        on_message: Received | None = None,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.what = what
        self.subscriptions = tuple(subscriptions)
        self.will = will
        self._on_connected = on_connected
        self._on_lost = on_lost
        self._on_refused = on_refused
        self._on_message = on_message
        self._backoff = backoff or Backoff(
            f"{what} (broker {settings.to_text()})", logger, initial_s=RECONNECT_MIN_S, maximum_s=RECONNECT_MAX_S
        )
        self._clock = clock
        self._client = new_client(settings, client_id)
        if will is not None:
            self._client.will_set(will.topic, will.payload, qos=QOS, retain=True)
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        if on_message is not None:
            self._client.on_message = self._received
        # The loop is ours, not paho's (loop_start): without this, publish() from
        # another thread would write to the socket itself, racing the loop's writes.
        # With it, publish() only queues the message and wakes the loop, which sends it.
        self._client.on_socket_register_write = _nothing
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._is_stopping = False
        self._refusal: str | None = None  # the broker's reason, when it refused this connection
        self._was_taken = False  # whether the broker took this connection
        self._is_stalled = False  # whether this connection is being ended for want of acknowledgements
        self._sent: dict[int, tuple[mqtt.MQTTMessageInfo, float]] = {}  # unacknowledged: when sent (or again)
        self._sent_lock = threading.Lock()  # never held while calling paho (its callbacks take its own locks)
        self.resent = 0
        """Messages sent again on a new connection because the broker never acknowledged them."""
        self.stalls = 0
        """Connections made anew because the broker stopped acknowledging."""

    def __enter__(self) -> BrokerClient:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Connect in the background, and keep connected until :meth:`stop`."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"mqtt {self.what}", daemon=True)
        self._thread.start()

    def is_connected(self) -> bool:
        return self._client.is_connected()

    def subscribe(self, topic: str) -> None:
        """Subscribe ``topic`` too, now if connected and on every connection after."""
        if topic in self.subscriptions:
            return
        self.subscriptions = (*self.subscriptions, topic)
        if self._client.is_connected():
            self._client.subscribe(topic, qos=QOS)

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> mqtt.MQTTMessageInfo:
        """Send ``payload`` at QoS 1 (from any thread). While the connection is down the
        client keeps it, and sends it once connected again; one the broker does not
        acknowledge within :data:`UNACKNOWLEDGED_S` is sent again on a new connection."""
        info = self._client.publish(topic, payload, qos=QOS, retain=retain)
        if info.rc in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):  # kept by paho, to send
            with self._sent_lock:
                self._sent[info.mid] = (info, self._clock())
        return info

    def oldest_unacknowledged_s(self) -> float:
        """How long the oldest message the broker has not acknowledged has waited (0: none)."""
        self.unacknowledged()
        with self._sent_lock:
            oldest = min((when for _, when in self._sent.values()), default=None)
        return 0.0 if oldest is None else self._clock() - oldest

    def unacknowledged(self) -> int:
        """How many messages sent (or waiting to be) the broker has not acknowledged yet."""
        with self._sent_lock:
            self._sent = {mid: sent for mid, sent in self._sent.items() if not _is_acknowledged(sent[0])}
            return len(self._sent)

    def stop(self) -> None:
        """Say goodbye (the last will's message, if connected), disconnect, end the thread."""
        thread = self._thread
        if thread is None or self._is_stopping:
            return
        will = self.will
        if will is not None and self._client.is_connected():
            with contextlib.suppress(RuntimeError, ValueError):  # the connection has just gone
                self.publish(will.topic, will.payload).wait_for_publish(GOODBYE_S)
        with self._lock:
            self._is_stopping = True
            self._client.disconnect()
        self._wake.set()
        if thread is threading.current_thread():  # stopped from one of its own callbacks: it ends on return
            return
        thread.join(STOP_S)
        if thread.is_alive():
            logger.warning("%s: the client's thread did not end within %.0f s", self.what, STOP_S)

    # -- the client's thread --

    def _run(self) -> None:
        try:
            self._keep_connected()
        finally:
            close_sockets(self._client)  # the last use of them is over

    def _keep_connected(self) -> None:
        while True:
            with self._lock:
                if self._is_stopping:
                    return
            wait = self._backoff.wait_s(self._clock())
            if wait > 0:
                self._wake.wait(wait)
                continue
            self._refusal, self._was_taken, self._is_stalled = None, False, False
            try:
                self._client.connect(self.settings.host, self.settings.port, keepalive=self.settings.keepalive_s)
            except OSError as error:  # no route, refused, a name unknown, TLS (ssl.SSLError is one)
                self._backoff.failed(self._clock(), error)
                continue
            with self._lock:
                if self._is_stopping:  # stop() came while connecting: its disconnect was lost with the old socket
                    self._client.disconnect()
            while self._client.loop(LOOP_S) == MQTTErrorCode.MQTT_ERR_SUCCESS:
                self._check_acknowledged()
            if self._is_stopping:
                return
            self._backoff.failed(self._clock(), self._ended())

    def _ended(self) -> ConnectionError:
        """Why the connection just ended (not by :meth:`stop`)."""
        if self._refusal is not None:
            return BrokerRefusedError(f"the broker refused the connection: {self._refusal}")
        if self._was_taken:
            return BrokerLostError("the connection was lost")
        return BrokerLostError("the broker closed the connection before taking it")

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self._refusal = str(reason)
            self._on_refused(self._refusal)
            return
        self._was_taken = True
        with self._sent_lock:  # paho sends them all again now: each has its time again
            now = self._clock()
            self._sent = {mid: (info, now) for mid, (info, _) in self._sent.items()}
        self._backoff.succeeded()
        logger.info("%s: connected to the broker %s", self.what, self.settings.to_text())
        send_at_once(client)
        for topic in self.subscriptions:
            client.subscribe(topic, qos=QOS)
        self._on_connected()

    def _check_acknowledged(self) -> None:
        """A connection whose broker no longer acknowledges what is sent is made anew."""
        count = self.unacknowledged()
        with self._sent_lock:
            oldest = min((when for _, when in self._sent.values()), default=None)
        if not self._was_taken or oldest is None or self._clock() - oldest < UNACKNOWLEDGED_S:
            return
        with self._lock:
            if self._is_stopping or self._is_stalled:
                return
            self._is_stalled = True  # until the next connection
            self.stalls += 1
            self.resent += count
            self._client.disconnect()
        logger.warning(
            "%s: the broker has acknowledged none of %d messages in %.0f s: connecting again to send them again",
            self.what,
            count,
            UNACKNOWLEDGED_S,
        )

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self._was_taken:
            self._on_lost()

    def _received(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        assert self._on_message is not None
        try:
            self._on_message(message.topic, bytes(message.payload))
        except Exception:  # the restart boundary: one bad message must not stop the client
            logger.exception("%s: a message on %r could not be handled", self.what, message.topic[:80])
