"""A side played at a distance: the session and its link put together, for the daemon
(or a test) to start.

:class:`RemotePlayer` pairs through the broker (offering a game under a code, or
joining one with it), then hands every message to the session and publishes what the
session says. What the nest must show or do comes out as the session's events through
``on_event``, from the link's thread: the daemon posts them to its loop, where a
:class:`~firmware_host.remote.session.ShowMove` becomes the "move chosen elsewhere"
the computer's moves already are (``RefereeService.play_computer_move``). Every state
change is handed to ``on_record`` to keep, so a reboot resumes the set.

Nothing from the broker is believed unless the other nest signed it
(:mod:`~firmware_host.remote.signing`), and it is checked in order of cost: the topic
(only the other nest's state topic of this game), the size, the signature, the
sequence number (none below the highest taken: an old message replayed), and only
then the JSON and the records replayed by the rules. A refusal is counted
(:attr:`RemotePlayer.refused`), and told (a :class:`~.session.Refused` event, logged)
once per source a minute, with the count since, so that a flood fills no log.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from random import Random

from firmware_host.games.base import Game, Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.identity import NestIdentity
from firmware_host.remote.link import (
    MqttLink,
    join_topic,
    offer_topic,
    presence_topic,
    state_topic,
    topic_parts,
)
from firmware_host.remote.messages import (
    GAME_ID_PATTERN,
    NEST_PATTERN,
    Join,
    MessageError,
    Offer,
    StateMessage,
    check_code,
    new_code,
    read_message,
)
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
from firmware_host.remote.signing import open_signed, sign

logger = logging.getLogger(__name__)

OnEvent = Callable[[Event], None]
OnRecord = Callable[[Pairing, SessionRecord], None]
OnPaired = Callable[[Pairing], None]

REFUSALS_TOLD_S = 60.0
"""A source's refusals are told (and logged) at most once in this long."""
SEQ_AFTER_RESTART = 1024
"""A resumed nest signs from its kept sequence number plus this: far more than it
sends between two keeps (one after each message), so no number is signed twice."""


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
        identity: NestIdentity | None = None,
    ) -> None:
        """``identity``: the nest's key kept on disk (None: one made for this player alone)."""
        self.game = game
        self.settings = settings
        self.nest = nest
        self.identity = identity if identity is not None else NestIdentity.fresh(nest)
        self._clock = clock
        self._on_event = on_event
        self._on_paired = on_paired
        self._on_record = on_record
        self._lock = threading.RLock()  # the session is called from the link's thread and the owner's
        self._pairing_phase: Offering | Joining | None = None
        self.session: Session | None = None
        self._link: MqttLink | None = None
        self._presence: dict[str, bytes] = {}  # the latest on each nest's online topic
        self._join: bytes | None = None  # our signed join, sent on every connection of the game's link
        self._sent_seq = 0  # the last sequence number signed
        self._heard_seq = -1  # the highest taken from the other nest
        self._is_closing = False
        self.refused = 0
        """Messages not believed, in all."""
        self.late = 0
        """The other nest's messages dropped unread: older than one already taken (sent
        again late after a lost connection, or replayed by someone else)."""
        self._refusals: dict[str, tuple[float, int]] = {}  # source: (when last told, refused since)

    # -- starting -------------------------------------------------------------------------

    def offer(self, *, side: Side, lineup: str, first_starter: Side, random: Random, code: str | None = None) -> str:
        """Offer a game (under ``code``, or a fresh one drawn from ``random``) and connect;
        returns the code to show."""
        code = check_code(code or new_code(random))
        game_id = self.identity.game_id(code)
        self._pairing_phase = Offering(
            self.game,
            code=code,
            nest=self.nest,
            side=side,
            lineup=lineup,
            first_starter=first_starter,
            game_id=game_id,
            nonce=self.identity.nonce(code),
        )
        self._connect(game_id)
        return code

    def join(self, code: str) -> None:
        """Join the game offered under ``code`` (checked: a bad one raises
        :class:`~firmware_host.remote.messages.MessageError`)."""
        code = check_code(code)
        self._pairing_phase = Joining(self.game, code=code, nest=self.nest, nonce=self.identity.nonce(code))
        self._connect(None)

    def resume(self, pairing: Pairing, record: SessionRecord) -> None:
        """Go on with a set kept before a reboot."""
        with self._lock:
            self.session = Session(self.game, pairing, nest=self.nest, now=self._clock(), resume=record)
            self._sent_seq = record.sent_seq + SEQ_AFTER_RESTART
            self._heard_seq = record.heard_seq
        self._connect(pairing.game_id)

    def close(self) -> None:
        self._is_closing = True
        if self._link is not None:
            self._link.close()
            self._link = None

    def __enter__(self) -> RemotePlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def link(self) -> MqttLink | None:
        """The link to the broker (None before :meth:`offer`, :meth:`join` or :meth:`resume`)."""
        return self._link

    # -- what happens at this nest --------------------------------------------------------

    def local_move(self, move: str) -> None:
        """A move made and refereed here (ours, or the copy of theirs). Raises
        :class:`~firmware_host.remote.session.SessionError`."""
        self._run(lambda session, now: session.local_move(move, now))

    def resign(self) -> None:
        self._run(lambda session, now: session.resign(now))

    def flag_fell(self, loser: Side) -> None:
        """The referee here says ``loser``'s flag fell (:meth:`~.session.Session.flag_fell`)."""
        self._run(lambda session, now: session.flag_fell(loser, now))

    def offer_draw(self) -> None:
        self._run(lambda session, now: session.offer_draw(now))

    def request_take_back(self) -> None:
        self._run(lambda session, now: session.request_take_back(now))

    def answer(self, accept: bool) -> None:
        self._run(lambda session, now: session.answer(accept, now))

    def tick(self) -> None:
        """Call now and then (every second is plenty): resends and heartbeats, and what
        the link says of our messages (:meth:`~.session.Session.link_stuck`)."""
        if self.session is None:
            return
        link = self._link
        if link is not None and link.game_id is not None:
            unacknowledged, oldest_s = link.unacknowledged(), link.oldest_unacknowledged_s()
            with self._lock:
                self.session.link_stuck(unacknowledged, oldest_s, self._clock())
        self._run(lambda session, now: session.tick(now))

    # -- inside ---------------------------------------------------------------------------

    def _connect(self, game_id: str | None) -> None:
        def connection(is_up: bool) -> None:
            if self._link is link:  # not the finder's, closed once the offer was found
                self._connection(is_up)

        link = MqttLink(
            self.settings, game_id=game_id, nest=self.nest, on_message=self._received, on_connection=connection
        )
        self._link = link
        link.start()

    def _run(self, action: Callable[[Session, float], Step]) -> None:
        with self._lock:
            if self.session is None:
                raise SessionError("no game is paired yet")
            self._apply(action(self.session, self._clock()))

    def _apply(self, step: Step) -> None:
        session = self.session
        assert session is not None
        topic = state_topic(session.pairing.game_id, self.nest)
        for message in step.messages:
            self._sent_seq += 1
            if self._link is not None:
                self._link.publish(topic, sign(session.pairing.key, topic, self._sent_seq, message.to_bytes()))
        if self._on_record is not None and (step.messages or step.events):
            kept = replace(session.to_record(), sent_seq=self._sent_seq, heard_seq=self._heard_seq)
            self._on_record(session.pairing, kept)
        for event in step.events:
            self._on_event(event)

    def _connection(self, is_up: bool) -> None:
        with self._lock:
            phase, link = self._pairing_phase, self._link
            if is_up and link is not None:
                if self.session is None and isinstance(phase, Offering):
                    topic = offer_topic(phase.offer.game_id, self.nest)
                    link.publish(topic, sign(phase.key, topic, 0, phase.offer.to_bytes()))
                if self._join is not None and self.session is not None:
                    link.publish(join_topic(self.session.pairing.game_id, self.nest), self._join)
            if self.session is not None:
                self._apply(self.session.link_changed(is_up, self._clock()))

    def _received(self, topic: str, payload: bytes) -> None:
        parts = topic_parts(topic)
        if parts is None or self._is_closing:
            return
        game_id, sender, what = parts
        with self._lock:
            session = self.session
            if what == "online":
                self._presence[topic] = payload  # kept: the peer's may come before the pairing
                if session is None or game_id != session.pairing.game_id:
                    return
                if sender == self.nest:
                    if payload != b"1" and self._link is not None and self._link.is_connected():
                        self._link.say_online()  # someone else's 0 over ours: put right
                elif sender == session.peer_nest:
                    self._apply(session.peer_presence(payload == b"1", self._clock()))
                return
            if session is None:
                self._pairing_message(game_id, sender, what, topic, payload)
                return
            if game_id != session.pairing.game_id or sender == self.nest or not payload:
                return  # another game's, our own, or a retained message cleared
            if what in ("offer", "join") and sender == session.peer_nest:
                return  # what paired us, again (retained)
            if what != "state" or sender != session.peer_nest:
                self._refuse(sender, f"{topic}: not the other nest's state")
                return
            try:
                signed = open_signed(session.pairing.key, topic, payload)
                if signed.seq < self._heard_seq:  # delivered late, or replayed: nothing new either way
                    self.late += 1
                    logger.debug("dropped message %d from %s: %d was taken", signed.seq, sender, self._heard_seq)
                    return
                message = read_message(signed.body, self.game)
                if not isinstance(message, StateMessage):
                    raise MessageError(f"a {type(message).__name__.lower()} on a state topic")
            except MessageError as error:
                self._refuse(sender, f"{topic}: {error}")
                return
            self._heard_seq = signed.seq
            self._apply(session.received(message, self._clock()))

    def _pairing_message(self, game_id: str, sender: str, what: str, topic: str, payload: bytes) -> None:
        phase = self._pairing_phase
        if not payload or sender == self.nest:
            return
        if isinstance(phase, Offering) and what == "join" and game_id == phase.offer.game_id:
            key = phase.key
        elif isinstance(phase, Joining) and what == "offer":
            if not (GAME_ID_PATTERN.fullmatch(game_id) and NEST_PATTERN.fullmatch(sender)):
                return
            key = phase.key_for(game_id, sender)  # another code's offer does not check: not ours
        else:
            return
        try:
            message = read_message(open_signed(key, topic, payload).body, self.game)
        except MessageError as error:
            logger.debug("not this game's %s on %s: %s", what, topic, error)
            return
        if not isinstance(message, Offer | Join) or (message.game_id, message.nest) != (game_id, sender):
            self._refuse(sender, f"{topic}: signed, but not the {what} of game {game_id} by {sender}")
            return
        pairing = phase.received(message)
        if pairing is None:
            return
        self.session = Session(self.game, pairing, nest=self.nest, now=self._clock())
        logger.info("paired for game %s: this nest plays %s", pairing.code, self.session.side.label)
        if self._on_paired is not None:
            self._on_paired(pairing)
        if isinstance(phase, Joining):
            assert phase.join is not None
            topic = join_topic(pairing.game_id, self.nest)
            self._join = sign(key, topic, 0, phase.join.to_bytes())
            finder = self._link
            self._connect(pairing.game_id)  # the game's own topics, and its last will; the join sent on connecting
            if finder is not None:
                finder.close()  # from its own thread: it ends when this returns
            return
        if self._link is not None:
            self._link.publish(offer_topic(pairing.game_id, self.nest), b"")  # taken: off the broker
        self._apply(self.session.link_changed(True, self._clock()))
        presence = self._presence.get(presence_topic(pairing.game_id, self.session.peer_nest))
        if presence is not None:
            self._apply(self.session.peer_presence(presence == b"1", self._clock()))

    def _refuse(self, source: str, reason: str) -> None:
        """Count a message not believed; tell it (and log it) once per source a minute."""
        self.refused += 1
        now = self._clock()
        told, since = self._refusals.get(source, (float("-inf"), 0))
        if now - told < REFUSALS_TOLD_S:
            self._refusals[source] = (told, since + 1)
            logger.debug("refused a message: %s", reason)
            return
        if len(self._refusals) > 64:  # a flood from many sources keeps no more than this
            self._refusals.clear()
        self._refusals[source] = (now, 0)
        more = f" ({since} more from {source} since)" if since else ""
        logger.warning("refused a message: %s%s", reason, more)
        self._on_event(Refused(f"{reason}{more}", count=since + 1))
