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
resynchronises from it. The connection is kept by the one broker client
(:class:`~.broker_client.BrokerClient`: 1 s doubling to 10 s between attempts, every
topic of the game subscribed again on each connection).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware_host.games.base import Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.broker_client import BrokerClient, LastWill, Received

logger = logging.getLogger(__name__)

TOPIC_ROOT = "nestref"


def game_topic(code: str, *parts: str) -> str:
    """``nestref/<code>/<parts...>``."""
    return "/".join((TOPIC_ROOT, code, *parts))


def state_topic(code: str, side: Side) -> str:
    return game_topic(code, side.label, "state")


def presence_topic(code: str, nest: str) -> str:
    return game_topic(code, nest, "online")


ConnectionChanged = Callable[[bool], None]
"""Told True when connected (and subscribed again), False when the connection is lost;
from the client's own thread."""


class MqttLink:
    """One nest's connection to the broker for the game ``code``: every topic of the
    game subscribed, ``online`` 1 on each connection, 0 by its last will (or its goodbye)."""

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
        self._on_connection = on_connection
        self._client = BrokerClient(
            settings,
            client_id=f"nestref-{code}-{nest}",
            what="remote play's link",
            subscriptions=(game_topic(code, "#"),),
            will=LastWill(presence_topic(code, nest), b"0"),
            on_connected=self._connected,
            on_lost=lambda: on_connection(False),
            on_message=on_message,
        )

    def __enter__(self) -> MqttLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Connect in the background; the client keeps reconnecting until :meth:`close`."""
        logger.info("connecting to the broker %s", self.settings.to_text())
        self._client.start()

    def close(self) -> None:
        """Say we are leaving (``online`` 0), disconnect and stop the client's thread."""
        self._client.stop()

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> None:
        """Send ``payload`` at QoS 1 (kept by the client while the connection is down)."""
        self._client.publish(topic, payload, retain=retain)

    def _connected(self) -> None:
        self._client.publish(presence_topic(self.code, self.nest), b"1")
        self._on_connection(True)
