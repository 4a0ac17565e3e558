"""The MQTT transport of remote play, on paho-mqtt: which topics, which flags, and the
broker's address, TLS and credentials. It carries bytes and knows no game.

The topics of the game whose public id is ``<id>`` (16 of ``0-9a-f``, drawn by the
offering nest; never the code the players pass, which no broker sees) are all under
``nestref/<id>/<nest>/``, ``<nest>`` being the nest that writes them, so a broker can
let each nest write only its own (Mosquitto: ``pattern write nestref/+/%u/#``, each
nest's name its login):

===============================  =========  ====================================
topic                            retained   what
===============================  =========  ====================================
``nestref/<id>/<nest>/offer``    yes        the offerer's signed
                                            :class:`~.messages.Offer`
``nestref/<id>/<nest>/join``     yes        the joiner's signed :class:`~.messages.Join`
``nestref/<id>/<nest>/state``    yes        that nest's latest signed state message
``nestref/<id>/<nest>/online``   yes        ``1`` while that nest is connected; its
                                            last will sets ``0``
===============================  =========  ====================================

A nest joining with a code reads every offer on the broker (``nestref/+/+/offer``)
until it finds the one signed with its code's key, then follows that game's topics.
Every message goes at QoS 1 (at least once: the session drops duplicates). The states
are retained, so a nest that (re)connects reads the other's latest state at once, and
resynchronises from it. The connection is kept by the one broker client
(:class:`~.broker_client.BrokerClient`: 1 s doubling to 10 s between attempts, every
topic subscribed again on each connection).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.broker_client import BrokerClient, LastWill, Received

logger = logging.getLogger(__name__)

TOPIC_ROOT = "nestref"
OFFERS = f"{TOPIC_ROOT}/+/+/offer"
"""Every offer on the broker: what a nest joining with a code reads."""


def nest_topic(game_id: str, nest: str, what: str) -> str:
    """``nestref/<game_id>/<nest>/<what>``: a topic only ``nest`` writes."""
    return "/".join((TOPIC_ROOT, game_id, nest, what))


def game_topics(game_id: str) -> str:
    """Every topic of the game ``game_id``."""
    return f"{TOPIC_ROOT}/{game_id}/#"


def offer_topic(game_id: str, nest: str) -> str:
    return nest_topic(game_id, nest, "offer")


def join_topic(game_id: str, nest: str) -> str:
    return nest_topic(game_id, nest, "join")


def state_topic(game_id: str, nest: str) -> str:
    return nest_topic(game_id, nest, "state")


def presence_topic(game_id: str, nest: str) -> str:
    return nest_topic(game_id, nest, "online")


def topic_parts(topic: str) -> tuple[str, str, str] | None:
    """``(game_id, nest, what)`` of a game's topic; None for any other."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != TOPIC_ROOT:
        return None
    return parts[1], parts[2], parts[3]


ConnectionChanged = Callable[[bool], None]
"""Told True when connected (and subscribed again), False when the connection is lost;
from the client's own thread."""


class MqttLink:
    """One nest's connection to the broker: for the game ``game_id`` (its topics
    subscribed, ``online`` 1 on each connection, 0 by its last will or its goodbye),
    or, with ``game_id`` None, reading the offers on the broker to find one."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        game_id: str | None,
        nest: str,
        on_message: Received,
        on_connection: ConnectionChanged,
    ) -> None:
        self.settings = settings
        self.game_id = game_id
        self.nest = nest
        self._on_connection = on_connection
        if settings.username is not None and settings.username != nest:
            logger.info(
                "this nest's name %r is not its login %r: a broker that lets each nest write only its own"
                " topics (docs/remote-play.md) will drop what it sends",
                nest,
                settings.username,
            )
        self._client = BrokerClient(
            settings,
            client_id=f"nestref-{game_id or 'join'}-{nest}",
            what="remote play's link",
            subscriptions=(game_topics(game_id),) if game_id else (OFFERS,),
            will=LastWill(presence_topic(game_id, nest), b"0") if game_id else None,
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

    def is_connected(self) -> bool:
        return self._client.is_connected()

    def unacknowledged(self) -> int:
        """Messages the broker has not acknowledged yet (sent again on a new connection
        when it stops acknowledging: :data:`~.broker_client.UNACKNOWLEDGED_S`)."""
        return self._client.unacknowledged()

    def oldest_unacknowledged_s(self) -> float:
        """How long the oldest unacknowledged message has waited (0: none)."""
        return self._client.oldest_unacknowledged_s()

    @property
    def stalls(self) -> int:
        """Connections made anew because the broker stopped acknowledging."""
        return self._client.stalls

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> None:
        """Send ``payload`` at QoS 1 (kept by the client while the connection is down)."""
        self._client.publish(topic, payload, retain=retain)

    def say_online(self) -> None:
        """``online`` 1 again (someone else's ``0`` over ours is put right)."""
        if self.game_id is not None:
            self._client.publish(presence_topic(self.game_id, self.nest), b"1")

    def _connected(self) -> None:
        self.say_online()
        self._on_connection(True)
