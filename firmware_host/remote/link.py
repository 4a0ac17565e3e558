"""The MQTT transport of remote play, on paho-mqtt: which topics, which flags, and the
broker's address, TLS and credentials. It carries bytes and knows no game.

The topics of the game ``<code>`` (every one under ``nestref/<code>/``):

========================  =========  ===========================================
topic                     retained   what
========================  =========  ===========================================
``offer``                 yes        the offerer's :class:`~.messages.Offer`
``join``                  yes        the joiner's :class:`~.messages.Join`
``red/state``             yes        red's latest state message (any kind)
``blue/state``            yes        blue's latest state message (any kind)
``<nest>/online``         yes        ``1`` while that nest is connected; its last
                                     will sets ``0`` when it drops without a word
========================  =========  ===========================================

Every message goes at QoS 1 (at least once: the session drops duplicates). The states
are retained, so a nest that (re)connects reads the other's latest state at once, and
resynchronises from it. The client reconnects by itself after a lost connection (paho's
own loop, 1 s doubling to 10 s) and subscribes again on each connection.
"""

from __future__ import annotations

import logging
import socket
import ssl
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.games.base import Side
from firmware_host.remote.broker import BrokerSettings

logger = logging.getLogger(__name__)

TOPIC_ROOT = "nestref"
QOS = 1
RECONNECT_MIN_S, RECONNECT_MAX_S = 1, 10


def close_sockets(client: mqtt.Client) -> None:
    """Close the socket pair paho 2.2 wakes its loop with: ``loop_stop`` leaves it open
    until the client is collected (a ResourceWarning then), so it is closed here, once
    the client's thread has ended."""
    client._reset_sockets()


def new_client(settings: BrokerSettings, client_id: str) -> mqtt.Client:
    """A paho client for ``settings``: MQTT 3.1.1, a clean session, the login and TLS
    they give, reconnecting by itself (1 s doubling to 10 s) once started."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311, clean_session=True)
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set(ca_certs=settings.ca_file, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
    return client


def send_at_once(client: mqtt.Client) -> None:
    """On a connection just made: each small message is sent at once, not held back to
    be joined with the next (Nagle's algorithm would add up to 40 ms against the
    broker's delayed ack)."""
    connection = client.socket()
    if isinstance(connection, socket.socket):
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def game_topic(code: str, *parts: str) -> str:
    """``nestref/<code>/<parts...>``."""
    return "/".join((TOPIC_ROOT, code, *parts))


def state_topic(code: str, side: Side) -> str:
    return game_topic(code, side.label, "state")


def presence_topic(code: str, nest: str) -> str:
    return game_topic(code, nest, "online")


Received = Callable[[str, bytes], None]
"""Told each message's topic and payload, from the client's own thread."""
ConnectionChanged = Callable[[bool], None]
"""Told True when connected (and subscribed again), False when the connection is lost;
from the client's own thread."""


class MqttLink:
    """One nest's connection to the broker for the game ``code``."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        code: str,
        nest: str,
        on_message: Received,
        on_connection: ConnectionChanged,
    ) -> None:
        self.settings = settings
        self.code = code
        self.nest = nest
        self._on_message = on_message
        self._on_connection = on_connection
        self._client = new_client(settings, f"nestref-{code}-{nest}")
        self._client.will_set(presence_topic(code, nest), b"0", qos=QOS, retain=True)
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_message = self._received
        self._is_started = False

    def __enter__(self) -> MqttLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Connect in the background; the client keeps reconnecting until :meth:`close`."""
        logger.info("connecting to the broker %s", self.settings.to_text())
        self._client.connect_async(self.settings.host, self.settings.port, keepalive=self.settings.keepalive_s)
        self._client.loop_start()
        self._is_started = True

    def close(self) -> None:
        """Say we are leaving (``online`` 0), disconnect and stop the client's thread."""
        if not self._is_started:
            return
        self._is_started = False
        if self._client.is_connected():
            self._client.publish(presence_topic(self.code, self.nest), b"0", qos=QOS, retain=True).wait_for_publish(2.0)
        self._client.disconnect()
        self._client.loop_stop()
        close_sockets(self._client)

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> None:
        """Send ``payload`` at QoS 1 (kept by the client while the connection is down)."""
        self._client.publish(topic, payload, qos=QOS, retain=retain)

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            logger.warning("the broker %s refused the connection: %s", self.settings.to_text(), reason)
            return
        logger.info("connected to the broker %s", self.settings.to_text())
        send_at_once(client)
        client.subscribe(game_topic(self.code, "#"), qos=QOS)
        client.publish(presence_topic(self.code, self.nest), b"1", qos=QOS, retain=True)
        self._on_connection(True)

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self._is_started:
            logger.warning("lost the broker %s (%s); reconnecting", self.settings.to_text(), reason)
        self._on_connection(False)

    def _received(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self._on_message(message.topic, bytes(message.payload))
        except Exception:  # the restart boundary: one bad message must not stop the link
            logger.exception("a message on %s could not be handled", message.topic)
