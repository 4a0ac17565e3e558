"""A side played at a distance: the session and its link put together, for the daemon
(or a test) to start.

:class:`RemotePlayer` pairs through the broker (offering a game under a code, or
joining one), then hands every message to the session and publishes what the session
says. What the nest must show or do comes out as the session's events through
``on_event``, from the link's thread: the daemon posts them to its loop, where a
:class:`~firmware_host.remote.session.ShowMove` becomes the "move chosen elsewhere"
the computer's moves already are (``RefereeService.play_computer_move``). Every state
change is handed to ``on_record`` to keep, so a reboot resumes the set.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from random import Random

from firmware_host.games.base import Game, Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.link import MqttLink, game_topic, presence_topic, state_topic
from firmware_host.remote.messages import Join, MessageError, Offer, StateMessage, new_code, read_message
from firmware_host.remote.session import (
    Event,
    Joining,
    Offering,
    Pairing,
    Refused,
    Session,
    SessionError,
    SessionRecord,
    Step,
)

logger = logging.getLogger(__name__)

OnEvent = Callable[[Event], None]
OnRecord = Callable[[Pairing, SessionRecord], None]
OnPaired = Callable[[Pairing], None]


class RemotePlayer:
    """Plays this nest's side of a set against a nest at the other end of a broker."""

    def __init__(
        self,
        game: Game,
        settings: BrokerSettings,
        *,
        nest: str,
        clock: Callable[[], float],
        on_event: OnEvent,
        on_paired: OnPaired | None = None,
        on_record: OnRecord | None = None,
    ) -> None:
        self.game = game
        self.settings = settings
        self.nest = nest
        self._clock = clock
        self._on_event = on_event
        self._on_paired = on_paired
        self._on_record = on_record
        self._lock = threading.RLock()  # the session is called from the link's thread and the owner's
        self._pairing_phase: Offering | Joining | None = None
        self.session: Session | None = None
        self._link: MqttLink | None = None
        self._presence: dict[str, bytes] = {}  # the latest on each nest's online topic

    # -- starting -------------------------------------------------------------------------

    def offer(self, *, side: Side, lineup: str, first_starter: Side, random: Random, code: str | None = None) -> str:
        """Offer a game (under ``code``, or a fresh one drawn from ``random``) and connect;
        returns the code to show."""
        code = code or new_code(random)
        self._pairing_phase = Offering(
            self.game, code=code, nest=self.nest, side=side, lineup=lineup, first_starter=first_starter
        )
        self._connect(self._pairing_phase.offer.code)
        return self._pairing_phase.offer.code

    def join(self, code: str) -> None:
        """Join the game offered under ``code`` (checked: a bad one raises
        :class:`~firmware_host.remote.messages.MessageError`)."""
        self._pairing_phase = Joining(self.game, code=code, nest=self.nest)
        self._connect(self._pairing_phase.join.code)

    def resume(self, pairing: Pairing, record: SessionRecord) -> None:
        """Go on with a set kept before a reboot."""
        with self._lock:
            self.session = Session(self.game, pairing, nest=self.nest, now=self._clock(), resume=record)
        self._connect(pairing.code)

    def close(self) -> None:
        if self._link is not None:
            self._link.close()
            self._link = None

    def __enter__(self) -> RemotePlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what happens at this nest --------------------------------------------------------

    def local_move(self, move: str) -> None:
        """A move made and refereed here (ours, or the copy of theirs). Raises
        :class:`~firmware_host.remote.session.SessionError`."""
        self._run(lambda session, now: session.local_move(move, now))

    def resign(self) -> None:
        self._run(lambda session, now: session.resign(now))

    def offer_draw(self) -> None:
        self._run(lambda session, now: session.offer_draw(now))

    def request_take_back(self) -> None:
        self._run(lambda session, now: session.request_take_back(now))

    def answer(self, accept: bool) -> None:
        self._run(lambda session, now: session.answer(accept, now))

    def tick(self) -> None:
        """Call now and then (every second is plenty): resends and heartbeats."""
        if self.session is not None:
            self._run(lambda session, now: session.tick(now))

    # -- inside ---------------------------------------------------------------------------

    def _connect(self, code: str) -> None:
        self._link = MqttLink(
            self.settings, code=code, nest=self.nest, on_message=self._received, on_connection=self._connection
        )
        self._link.start()

    def _run(self, action: Callable[[Session, float], Step]) -> None:
        with self._lock:
            if self.session is None:
                raise SessionError("no game is paired yet")
            self._apply(action(self.session, self._clock()))

    def _apply(self, step: Step) -> None:
        session = self.session
        assert session is not None
        for message in step.messages:
            if self._link is not None:
                self._link.publish(state_topic(session.pairing.code, session.side), message.to_bytes())
        if self._on_record is not None and step.messages:
            self._on_record(session.pairing, session.to_record())
        for event in step.events:
            self._on_event(event)

    def _connection(self, is_up: bool) -> None:
        with self._lock:
            phase = self._pairing_phase
            if self.session is None and is_up and self._link is not None:
                if isinstance(phase, Offering):
                    self._link.publish(game_topic(phase.offer.code, "offer"), phase.offer.to_bytes())
                elif isinstance(phase, Joining):
                    self._link.publish(game_topic(phase.join.code, "join"), phase.join.to_bytes())
            if self.session is not None:
                self._apply(self.session.link_changed(is_up, self._clock()))

    def _received(self, topic: str, payload: bytes) -> None:
        with self._lock:
            if topic.endswith("/online"):
                self._presence[topic] = payload  # kept: the peer's may come before the pairing
            session = self.session
            if session is not None:
                own = (state_topic(session.pairing.code, session.side), presence_topic(session.pairing.code, self.nest))
                if topic in own:
                    return
                if topic == presence_topic(session.pairing.code, session.peer_nest):
                    self._apply(session.peer_presence(payload == b"1", self._clock()))
                    return
                if not topic.endswith("/state"):
                    return
            elif topic.endswith("/online"):
                return
            try:
                message = read_message(payload, self.game)
            except MessageError as error:
                logger.warning("refused a message on %s: %s", topic, error)
                self._on_event(Refused(f"{topic}: {error}"))
                return
            if session is None:
                self._pair(message)
            elif isinstance(message, StateMessage):
                self._apply(session.received(message, self._clock()))

    def _pair(self, message: Offer | Join | StateMessage) -> None:
        phase = self._pairing_phase
        pairing = phase.received(message) if phase is not None else None
        if pairing is None:
            return
        self.session = Session(self.game, pairing, nest=self.nest, now=self._clock())
        logger.info("paired for game %s: this nest plays %s", pairing.code, self.session.side.label)
        if self._on_paired is not None:
            self._on_paired(pairing)
        self._apply(self.session.link_changed(True, self._clock()))
        presence = self._presence.get(presence_topic(pairing.code, self.session.peer_nest))
        if presence is not None:
            self._apply(self.session.peer_presence(presence == b"1", self._clock()))
