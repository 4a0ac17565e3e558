"""One nest's side of a set played at a distance: a pure state machine, no I/O, no
clock (``now`` is passed in, in seconds).

Pairing is a phase of its own: :class:`Offering` (a game offered under a code) or
:class:`Joining` (taking one up with its code) becomes a :class:`Session` once the
other side answers. A session is then told what happens — a move made on its own nest
(:meth:`Session.local_move`), a message from the other nest (:meth:`Session.received`),
the link going down or coming back, a player resigning, offering a draw, asking to take
back or answering — and each call returns a :class:`Step`: the messages to send and the
events to show.

How the two records are kept in step: every message carries its sender's whole
:class:`~firmware_host.remote.messages.SetRecord`. Each side is the authority for its
own moves only. Comparing the other side's record with ours, for the game being played:

- identical: nothing to do (our last move is acknowledged if it was ours);
- theirs is ours plus one move of theirs: it is their move, to be shown and copied;
- ours is theirs plus one move of ours: they have not copied it yet (waiting for the copy);
- anything else — a move of ours they have and we do not, two moves apart, a different
  move at the same ply, a finished game that differs: the records disagree. The
  session stops in :attr:`Phase.DESYNC`, says why, and tells the other nest, which
  stops too. It never picks one record silently.

A message that shows less of the set than one already read from the same side (by
:attr:`~firmware_host.remote.messages.SetRecord.progress`) is an old one delivered late,
and is dropped; any other is read in full, so duplicates, losses and a reordering do
no harm, and a nest that reboots resumes from its own record and the other's next
message.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Position, Side
from firmware_host.remote.messages import (
    Answer,
    Ending,
    FinishedGame,
    Join,
    Kind,
    LastMove,
    MessageError,
    Offer,
    Proposal,
    ProposalKind,
    SetRecord,
    StateMessage,
    before_last_move,
    check_code,
    pass_if_forced,
    replay,
    take_back_plies,
)
from firmware_host.remote.signing import pairing_key, session_key

RESEND_S = 5.0
"""While something waits for the other side (a copy, an answer), the state is sent again
this often: the broker keeps the latest, but a message lost on the way is sent anew."""
HEARTBEAT_S = 10.0
"""Otherwise, this often: a state lost on the way (a broker restarted without its
retained messages) reaches the other side all the same, and each side knows the other
is there (a message read every few hundred bytes, 2 ms: well under 0.1 % of a core)."""
SILENT_S = 25.0
"""The other nest, connected by the broker's word, unheard for this long (two and a
half of its heartbeats) has stopped answering: shown, not "link up"."""
STUCK_S = 3.0
"""A message of ours the broker has not acknowledged in this long (it does in
milliseconds) is stuck on the way: shown, not "link up"."""


class SessionError(NestrefError, ValueError):
    """The session cannot do what it was asked now (a move out of turn, nothing to take
    back, the set over); the message says why."""


class Phase(Enum):
    PLAYING = "playing"
    SET_OVER = "set over"
    DESYNC = "desync"  # the records disagree: both nests stop and show it


# -- events: what a step asks the nest to show or do ------------------------------------


@dataclass(frozen=True)
class ShowMove:
    """The other side made ``move`` (ply ``ply`` of game ``game_number``): show it as the
    computer's move is shown, and have it copied on this nest."""

    game_number: int
    ply: int
    move: str

    def to_text(self) -> str:
        return f"their move {self.move}: make it on the nest"


@dataclass(frozen=True)
class MoveCopied:
    """The other nest has made our move ``move`` (ply ``ply``) and reached the same position."""

    ply: int
    move: str

    def to_text(self) -> str:
        return f"copied there: {self.move}"


@dataclass(frozen=True)
class TakeBack:
    """A take back was agreed: the last ``plies`` moves are to be undone on the nest."""

    plies: int

    def to_text(self) -> str:
        return f"take back agreed: undo {self.plies} move{'s' if self.plies != 1 else ''}"


@dataclass(frozen=True)
class ProposalMade:
    """The other side offers a draw or asks to take back (``kind``), at ply ``ply``."""

    kind: ProposalKind
    ply: int

    def to_text(self) -> str:
        return "they offer a draw" if self.kind is ProposalKind.DRAW else "they ask to take back"


@dataclass(frozen=True)
class ProposalDeclined:
    kind: ProposalKind

    def to_text(self) -> str:
        return "draw declined" if self.kind is ProposalKind.DRAW else "take back declined"


@dataclass(frozen=True)
class GameEnded:
    """Game ``game_number`` of the set ended: ``result`` (``red``, ``blue``, ``draw``), how."""

    game_number: int
    result: str
    ending: Ending

    def to_text(self) -> str:
        how = {
            Ending.RULES: "by the rules",
            Ending.RESIGNED: "by resignation",
            Ending.AGREED: "by agreement",
            Ending.TIME: "on time",
        }
        winner = "a draw" if self.result == "draw" else f"{self.result} wins"
        return f"game {self.game_number + 1}: {winner} {how[self.ending]}"


@dataclass(frozen=True)
class Desynced:
    reason: str

    def to_text(self) -> str:
        return f"desync: {self.reason}"


@dataclass(frozen=True)
class LinkChanged:
    """The link to the broker (``peer`` False) or the other nest's presence changed."""

    is_up: bool
    peer: bool = False

    def to_text(self) -> str:
        what = "the other nest" if self.peer else "the link"
        return f"{what} {'is back' if self.is_up else 'is lost'}"


@dataclass(frozen=True)
class Refused:
    """A message was not believed (a broken one, someone else's, an old one); ``count``
    refused since the last told (they are told at most once a minute from one source)."""

    reason: str
    count: int = 1

    def to_text(self) -> str:
        return f"refused: {self.reason}"


Event = (
    ShowMove | MoveCopied | TakeBack | ProposalMade | ProposalDeclined | GameEnded | Desynced | LinkChanged | Refused
)


@dataclass(frozen=True)
class Step:
    """What one call to a session asks for: messages to send, events to show."""

    messages: tuple[StateMessage, ...] = ()
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class SessionRecord:
    """What a nest keeps to resume a session after a reboot: the set's record and the
    draw or take back it has proposed and not yet had answered."""

    set_record: SetRecord
    proposal: Proposal | None = None
    sent_seq: int = 0
    """The link's counters (kept by :class:`~firmware_host.remote.player.RemotePlayer`,
    not the session): the last sequence number this nest signed, and the highest
    taken from the other nest, so that a restarted nest neither signs a number twice
    nor takes an old message replayed."""
    heard_seq: int = -1


@dataclass(frozen=True)
class LinkView:
    """The link as a player sees it (times in seconds of the session's clock): our
    connection to the broker, up or not, since when; the other nest's presence (the
    broker's word); when the other nest was last heard (any message of its own); and
    our messages the broker has not acknowledged, since when (the link's word)."""

    is_up: bool
    since: float
    is_peer_online: bool
    peer_since: float
    heard_at: float = 0.0
    unacknowledged: int = 0
    stuck_since: float | None = None
    """Since when our oldest unacknowledged message waits (None: none waits)."""

    def is_healthy(self, now: float) -> bool:
        """ "link up": connected, the other nest there and heard lately, nothing of ours stuck."""
        return self.to_text(now) == "link up"

    def to_text(self, now: float) -> str:
        """``link lost 1:05``, ``other nest away 0:12``, ``3 messages stuck 0:04``,
        ``no word from there 0:31`` or ``link up``: the first that holds."""
        if not self.is_up:
            return f"link lost {_duration(now - self.since)}"
        if not self.is_peer_online:
            return f"other nest away {_duration(now - self.peer_since)}"
        if self.stuck_since is not None and now - self.stuck_since >= STUCK_S:
            plural = "s" if self.unacknowledged != 1 else ""
            return f"{self.unacknowledged} message{plural} stuck {_duration(now - self.stuck_since)}"
        if now - self.heard_at >= SILENT_S:
            return f"no word from there {_duration(now - self.heard_at)}"
        return "link up"


def _duration(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


# -- pairing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """A game agreed between two nests: its code (the players'), its public id (its
    topics'), who plays what, how the set starts, and the session key both nests drew
    from the code and their nonces (never in a repr or a log)."""

    code: str
    game: str
    lineup: str
    first_starter: Side
    offerer_side: Side
    offerer_nest: str
    joiner_nest: str
    game_id: str
    key: bytes = field(repr=False)


class Offering:
    """A game offered under ``code`` (its public id ``game_id``), waiting for a nest to join it."""

    def __init__(
        self,
        game: Game,
        *,
        code: str,
        nest: str,
        side: Side,
        lineup: str,
        first_starter: Side,
        game_id: str,
        nonce: str,
    ) -> None:
        self.game = game
        self.code = check_code(code)
        self.offer = Offer(
            game_id=game_id,
            nest=nest,
            game=game.name,
            lineup=game.check_lineup(lineup),
            first_starter=first_starter,
            side=side,
            nonce=nonce,
        )
        self.key = pairing_key(self.code, game_id, nest)
        """What the offer and the join are signed with."""

    def received(self, message: Offer | Join | StateMessage) -> Pairing | None:
        """The pairing, if ``message`` (its signature checked with :attr:`key`) joins this
        game; None for anything else."""
        offer = self.offer
        if not isinstance(message, Join) or message.game_id != offer.game_id or message.nest == offer.nest:
            return None
        return Pairing(
            self.code,
            offer.game,
            offer.lineup,
            offer.first_starter,
            offer.side,
            offer.nest,
            message.nest,
            offer.game_id,
            session_key(self.key, offer.nonce, message.nonce),
        )


class Joining:
    """Taking up the game offered under ``code``: the offer is found by its signature,
    the only one made with the key that the code gives for its id and its offerer."""

    def __init__(self, game: Game, *, code: str, nest: str, nonce: str) -> None:
        self.game = game
        self.code = check_code(code)
        self.nest = nest
        self.nonce = nonce
        self.join: Join | None = None
        """The join, once the offer is found."""

    def key_for(self, game_id: str, offerer: str) -> bytes:
        """The key an offer of ``offerer`` under ``game_id`` is signed with if it is the code's."""
        return pairing_key(self.code, game_id, offerer)

    def received(self, message: Offer | Join | StateMessage) -> Pairing | None:
        """The pairing, if ``message`` is the offer of this game (its signature checked
        with :meth:`key_for`); None otherwise."""
        if not isinstance(message, Offer) or message.game != self.game.name or message.nest == self.nest:
            return None
        self.join = Join(game_id=message.game_id, nest=self.nest, nonce=self.nonce)
        return Pairing(
            self.code,
            message.game,
            message.lineup,
            message.first_starter,
            message.side,
            message.nest,
            self.nest,
            message.game_id,
            session_key(self.key_for(message.game_id, message.nest), message.nonce, self.nonce),
        )


# -- the session ----------------------------------------------------------------------------


class Session:
    """One nest's side of a paired set."""

    def __init__(
        self,
        game: Game,
        pairing: Pairing,
        *,
        nest: str,
        now: float,
        resume: SessionRecord | None = None,
    ) -> None:
        """``nest`` says which of the pairing's nests this is; ``resume`` is the record
        kept before a reboot (None: a new set). Raises :class:`SessionError` if ``nest``
        is not one of the pairing's, or if ``resume`` is not a legal set of its lineup."""
        if nest not in (pairing.offerer_nest, pairing.joiner_nest):
            raise SessionError(f"{nest!r} is not one of the nests of game {pairing.code}")
        self.game = game
        self.pairing = pairing
        self.nest = nest
        is_offerer = nest == pairing.offerer_nest
        self.side = pairing.offerer_side if is_offerer else pairing.offerer_side.opponent
        self.peer_nest = pairing.joiner_nest if is_offerer else pairing.offerer_nest
        resume = resume or SessionRecord(SetRecord(pairing.lineup, pairing.first_starter))
        record = resume.set_record
        if (record.lineup, record.first_starter) != (pairing.lineup, pairing.first_starter):
            raise SessionError(f"the record kept is of another set than game {pairing.code}'s")
        self._record = record
        try:
            self._position = self._replay_current()
        except MessageError as error:
            raise SessionError(f"the record kept cannot be resumed: {error}") from None
        self._proposal = resume.proposal
        self._answer: Answer | None = None
        self._peer_proposal: Proposal | None = None  # announced, not answered
        self._incoming: ShowMove | None = None  # their move, shown, not yet copied
        self._peer_progress: tuple[int, int, int] = (-1, -1, -1)
        self._copied_ply = 0  # our last move known to be copied there
        self._peer_record: SetRecord | None = None  # the other side's latest record
        self.phase = Phase.SET_OVER if record.is_set_over() else Phase.PLAYING
        self.desync_reason: str | None = None
        self._link = LinkView(is_up=False, since=now, is_peer_online=False, peer_since=now, heard_at=now)
        self._last_sent = float("-inf")

    # -- what the nest shows --------------------------------------------------------------

    @property
    def set_record(self) -> SetRecord:
        return self._record

    def to_record(self) -> SessionRecord:
        """What to keep to resume after a reboot."""
        return SessionRecord(self._record, self._proposal)

    @property
    def position(self) -> Position:
        """A copy of the position of the game being played, on this nest."""
        return self._position.copy()

    @property
    def incoming(self) -> ShowMove | None:
        """The other side's move, to be made on this nest."""
        return self._incoming

    @property
    def peer_proposal(self) -> Proposal | None:
        """The other side's draw offer or take back request, waiting for our answer."""
        return self._peer_proposal

    @property
    def proposal(self) -> Proposal | None:
        """Our draw offer or take back request, waiting for theirs."""
        return self._proposal

    @property
    def link(self) -> LinkView:
        return self._link

    def is_our_turn(self) -> bool:
        return self.phase is Phase.PLAYING and self._position.turn is self.side and self._incoming is None

    def is_waiting_for_copy(self) -> bool:
        """Whether our last move is made here and not yet acknowledged there."""
        record = self._record.record
        return self.phase is Phase.PLAYING and self._last_mover() is self.side and self._copied_ply < len(record)

    # -- what happens at this nest --------------------------------------------------------

    def hello(self, now: float) -> Step:
        """Our state, to be sent on connecting."""
        return Step(messages=(self._message(Kind.HELLO, now),))

    def local_move(self, move: str, now: float) -> Step:
        """``move`` was made and refereed on this nest: our own move on our turn, or the
        copy of theirs. Raises :class:`SessionError` for any other."""
        self._check_playing()
        try:
            if self.game.read_move(move).is_pass:
                return Step()  # forced by the rules: both nests' referees make it, and so does the session
        except NestrefError as error:
            raise SessionError(f"{move} cannot be played: {error}") from None
        if self._incoming is not None:
            if move != self._incoming.move:
                raise SessionError(f"{move} is not their move {self._incoming.move}, which is to be copied")
            kind = Kind.ACK
        elif self._position.turn is self.side:
            kind = Kind.MOVE
        else:
            raise SessionError(f"{move}: it is {self.side.opponent.label}'s turn, at the other nest")
        try:
            self._position.push(self.game.read_move(move))
        except NestrefError as error:
            raise SessionError(f"{move} cannot be played: {error}") from None
        pass_if_forced(self._position)
        number = self._record.game_number
        self._record = dataclasses.replace(self._record, record=(*self._record.record, move))
        self._incoming = None
        self._clear_proposals()
        last = LastMove(number, len(self._record.record), move, self._position.to_text())
        events = self._finish_if_over()
        if kind is Kind.ACK and not events:
            events = tuple(self._next_incoming())
        return Step(messages=(self._message(kind, now, last),), events=events)

    def _next_incoming(self) -> list[Event]:
        """After a copy: their next move, if their record already has it (they moved
        again after a pass forced on us)."""
        peer, mine = self._peer_record, self._record
        if peer is None or peer.take_backs != mine.take_backs or peer.game_number < mine.game_number:
            return []
        if peer.game_number == mine.game_number:
            theirs = peer.record
        elif peer.finished[mine.game_number].ending is Ending.RULES:
            theirs = peer.finished[mine.game_number].record
        else:
            return []
        ours = mine.record
        if len(theirs) <= len(ours) or theirs[: len(ours)] != ours or self._position.turn is self.side:
            return []
        return self._show(mine.game_number, len(ours) + 1, theirs[len(ours)])

    def _last_mover(self) -> Side | None:
        """Who made the last move of the game being played (passes aside); None before the first."""
        if not self._record.record:
            return None
        return before_last_move(self._position).turn

    def resign(self, now: float) -> Step:
        """Our side gives the game up."""
        self._check_playing()
        self._incoming = None
        events = self._finish(FinishedGame(self._record.record, self.side.opponent.label, Ending.RESIGNED))
        return Step(messages=(self._message(Kind.RESIGN, now),), events=events)

    def flag_fell(self, loser: Side, now: float) -> Step:
        """The referee here says ``loser``'s flag fell (on this nest's clock, ours or
        theirs): the game is lost on time, here and, told so, there. Nothing happens
        if it is not ``loser``'s turn (the flag of a side that has just moved, its
        move not yet copied here) or no game is on. The first nest to say so decides
        it, if the records agree; a move crossing the word is a desync, with the reason."""
        if self.phase is not Phase.PLAYING or self._position.turn is not loser or self._incoming is not None:
            return Step()
        events = self._finish(FinishedGame(self._record.record, loser.opponent.label, Ending.TIME))
        return Step(messages=(self._message(Kind.FLAG, now),), events=events)

    def offer_draw(self, now: float) -> Step:
        self._check_playing()
        self._proposal = Proposal(ProposalKind.DRAW, len(self._record.record))
        return Step(messages=(self._message(Kind.DRAW_OFFER, now),))

    def request_take_back(self, now: float) -> Step:
        """Ask to take back our last move (and their reply to it, if made). Raises
        :class:`SessionError` if we have no move in this game."""
        self._check_playing()
        if take_back_plies(self._record, self._position, self.side) == 0:
            raise SessionError("there is no move of ours in this game to take back")
        self._proposal = Proposal(ProposalKind.TAKE_BACK, len(self._record.record))
        return Step(messages=(self._message(Kind.TAKE_BACK_REQUEST, now),))

    def answer(self, accept: bool, now: float) -> Step:
        """Answer their draw offer or take back request. Raises :class:`SessionError`
        if there is none."""
        self._check_playing()
        proposal = self._peer_proposal
        if proposal is None:
            raise SessionError("the other side has proposed nothing to answer")
        self._peer_proposal = None
        self._answer = Answer(proposal.kind, proposal.ply, accept)
        events: tuple[Event, ...] = ()
        if accept and proposal.kind is ProposalKind.DRAW:
            events = self._finish(FinishedGame(self._record.record, "draw", Ending.AGREED))
        elif accept:
            events = (self._take_back(take_back_plies(self._record, self._position, self.side.opponent)),)
        kind = Kind.DRAW_ANSWER if proposal.kind is ProposalKind.DRAW else Kind.TAKE_BACK_ANSWER
        return Step(messages=(self._message(kind, now),), events=events)

    def link_changed(self, is_up: bool, now: float) -> Step:
        """The link to the broker went down or came back; back, we send our state."""
        if is_up == self._link.is_up:
            return Step()
        self._link = dataclasses.replace(self._link, is_up=is_up, since=now)
        messages = (self._message(Kind.DESYNC if self.desync_reason else Kind.HELLO, now),) if is_up else ()
        return Step(messages=messages, events=(LinkChanged(is_up),))

    def peer_presence(self, is_online: bool, now: float) -> Step:
        """The other nest's client connected or went away (its last will)."""
        if is_online == self._link.is_peer_online:
            return Step()
        self._link = dataclasses.replace(self._link, is_peer_online=is_online, peer_since=now)
        return Step(events=(LinkChanged(is_online, peer=True),))

    def link_stuck(self, unacknowledged: int, oldest_s: float, now: float) -> None:
        """What the link says of our messages: ``unacknowledged`` by the broker, the oldest
        sent ``oldest_s`` ago (0 with none)."""
        stuck_since = now - oldest_s if unacknowledged else None
        self._link = dataclasses.replace(self._link, unacknowledged=unacknowledged, stuck_since=stuck_since)

    def tick(self, now: float) -> Step:
        """Time passes: our state is sent again now and then, more often while we wait for the other side."""
        waiting = self.is_waiting_for_copy() or self._proposal is not None or self.desync_reason is not None
        interval = RESEND_S if waiting else HEARTBEAT_S
        if not (self._link.is_up and now - self._last_sent >= interval):
            return Step()
        return Step(messages=(self._message(Kind.DESYNC if self.desync_reason else Kind.HELLO, now),))

    # -- what comes from the other nest ---------------------------------------------------

    def received(self, message: StateMessage, now: float) -> Step:
        """A message from the link, already read by
        :func:`~firmware_host.remote.messages.read_message`."""
        if message.game_id != self.pairing.game_id or message.nest != self.peer_nest or message.side is self.side:
            return Step(events=(Refused(f"a message from nest {message.nest!r}, not from the other side's"),))
        self._link = dataclasses.replace(self._link, heard_at=now)
        if message.set_record.progress < self._peer_progress:
            return Step()  # an old message, delivered late
        if self.phase is Phase.DESYNC:
            return Step()
        self._peer_progress = message.set_record.progress
        self._peer_record = message.set_record
        if message.desync is not None:
            return self._desync(f"the other nest stopped: {message.desync}", now, tell=False)
        try:
            events = self._reconcile(message)
        except _DisagreementError as disagreement:
            return self._desync(str(disagreement), now, tell=True)
        # They lack something we have (a move, a take back, a game's end, our answer to
        # their proposal): say it again, in case what said it was lost.
        proposal, answer = message.proposal, self._answer
        is_answered = (
            proposal is not None
            and answer is not None
            and (answer.kind, answer.ply)
            == (
                proposal.kind,
                proposal.ply,
            )
        )
        # They wait for the ack of a copy we made (it was lost): say it again.
        is_copy_unacked = (
            message.kind is Kind.HELLO
            and message.set_record == self._record
            and self._last_mover() is self.side.opponent
        )
        if self._record.progress > message.set_record.progress or is_answered or is_copy_unacked:
            return Step(messages=(self._message(Kind.HELLO, now),), events=tuple(events))
        return Step(events=tuple(events))

    def _reconcile(self, message: StateMessage) -> list[Event]:
        peer = message.set_record
        events: list[Event] = []
        if (peer.lineup, peer.first_starter) != (self._record.lineup, self._record.first_starter):
            raise _DisagreementError("the other nest plays another set (lineup or starter)")
        mine = self._record
        for number in range(min(peer.game_number, mine.game_number)):
            if peer.finished[number] != mine.finished[number]:
                raise _DisagreementError(f"game {number + 1} ended otherwise there")
        if abs(peer.game_number - mine.game_number) > 1:
            theirs, ours = peer.game_number + 1, mine.game_number + 1
            raise _DisagreementError(f"the other nest is at game {theirs}, we are at {ours}")
        if peer.game_number == mine.game_number + 1:
            events += self._their_game_ended(peer.finished[-1], message)
            if self._record.game_number < peer.game_number:
                return events  # their last move is to be copied first
        elif mine.game_number == peer.game_number + 1:
            # They are still in the game we have finished: they will catch up.
            self._compare(mine.game_number - 1, mine.finished[-1].record, peer.record)
            return events
        events += self._compare_current(message)
        return events

    def _their_game_ended(self, finished: FinishedGame, message: StateMessage) -> list[Event]:
        """The other side has finished the game we are playing."""
        mine = self._record.record
        number = self._record.game_number
        if finished.ending is Ending.RULES:
            extra = self._compare(number, mine, finished.record)
            if extra is None:
                raise _DisagreementError("the other nest says the game ended by a move we never saw")
            return self._show(number, len(mine) + 1, extra)
        if finished.ending is Ending.TIME:
            if finished.record != mine:
                loser = "our" if finished.result == self.side.opponent.label else "their"
                raise _DisagreementError(
                    f"{loser} flag fell there at move {len(finished.record)} of game {number + 1},"
                    f" when it had {len(mine)} moves here"
                )
            return list(self._finish(finished))
        if finished.ending is Ending.RESIGNED:
            if finished.result == self.side.opponent.label:
                raise _DisagreementError("the other nest says we resigned")
            self._compare(number, mine, finished.record)
            self._incoming = None
            return list(self._finish(finished))
        # An agreed draw: only one we offered at this very ply.
        if self._proposal != Proposal(ProposalKind.DRAW, len(mine)) or finished.record != mine:
            raise _DisagreementError("the other nest says we agreed to a draw we never offered")
        return list(self._finish(finished))

    def _compare_current(self, message: StateMessage) -> list[Event]:
        peer = message.set_record
        mine = self._record
        events: list[Event] = []
        if peer.take_backs == mine.take_backs + 1:
            proposal = self._proposal
            plies = take_back_plies(mine, self._position, self.side)
            asked = Proposal(ProposalKind.TAKE_BACK, len(mine.record))
            if proposal != asked or plies == 0 or peer.record != mine.record[:-plies]:
                raise _DisagreementError("the other nest took back moves we never asked to take back")
            events.append(self._take_back(plies))
            mine = self._record
        elif mine.take_backs == peer.take_backs + 1:
            # We agreed to their take back: they will catch up (their record is the one before it).
            undone = len(peer.record) - len(mine.record)
            if peer.record[: len(mine.record)] != mine.record or undone not in (1, 2):
                raise _DisagreementError("the other nest's record is not the one before the take back")
            return events
        elif peer.take_backs != mine.take_backs:
            raise _DisagreementError(f"{peer.take_backs} take backs there, {mine.take_backs} here")
        extra = self._compare(mine.game_number, mine.record, peer.record)
        if extra is not None:
            events += self._show(mine.game_number, len(mine.record) + 1, extra)
        elif (
            len(peer.record) == len(mine.record)
            and self._copied_ply < len(mine.record)
            and self._last_mover() is self.side
        ):
            self._copied_ply = len(mine.record)
            events.append(MoveCopied(len(mine.record), mine.record[-1]))
        events += self._their_proposal(message)
        return events

    def _their_proposal(self, message: StateMessage) -> list[Event]:
        events: list[Event] = []
        answer = message.answer
        if (
            answer is not None
            and self._proposal is not None
            and (answer.kind, answer.ply) == (self._proposal.kind, self._proposal.ply)
            and not answer.accept
        ):
            self._proposal = None
            events.append(ProposalDeclined(answer.kind))
        proposal = message.proposal
        records_agree = message.set_record.record == self._record.record
        answered = self._answer is not None and (self._answer.kind, self._answer.ply) == (
            (proposal.kind, proposal.ply) if proposal else (None, None)
        )
        if proposal is None or not records_agree or answered:
            self._peer_proposal = None
        elif proposal != self._peer_proposal:
            self._peer_proposal = proposal
            events.append(ProposalMade(proposal.kind, proposal.ply))
        return events

    def _show(self, number: int, ply: int, move: str) -> list[Event]:
        shown = ShowMove(number, ply, move)
        if shown == self._incoming:
            return []
        self._incoming = shown
        return [shown]

    # -- state changes ----------------------------------------------------------------------

    def _take_back(self, plies: int) -> TakeBack:
        record = self._record
        self._record = dataclasses.replace(record, record=record.record[:-plies], take_backs=record.take_backs + 1)
        self._position = self._replay_current()  # the passes forced before and after, as the referee undoes them
        self._incoming = None
        self._proposal = self._peer_proposal = None
        self._copied_ply = min(self._copied_ply, len(self._record.record))
        return TakeBack(plies)

    def _finish_if_over(self) -> tuple[Event, ...]:
        outcome = self._position.outcome()
        if outcome is None:
            return ()
        return self._finish(FinishedGame(self._record.record, outcome.to_text(), Ending.RULES))

    def _finish(self, finished: FinishedGame) -> tuple[Event, ...]:
        number = self._record.game_number
        self._record = SetRecord(
            self._record.lineup, self._record.first_starter, finished=(*self._record.finished, finished)
        )
        self._position = self._replay_current()
        self._clear_proposals()
        self._incoming = None
        self._copied_ply = 0
        if self._record.is_set_over():
            self.phase = Phase.SET_OVER
        return (GameEnded(number, finished.result, finished.ending),)

    def _clear_proposals(self) -> None:
        self._proposal = self._peer_proposal = self._answer = None

    def _desync(self, reason: str, now: float, *, tell: bool) -> Step:
        self.phase = Phase.DESYNC
        self.desync_reason = reason
        self._incoming = None
        messages = (self._message(Kind.DESYNC, now),) if tell else ()
        return Step(messages=messages, events=(Desynced(reason),))

    def _check_playing(self) -> None:
        if self.phase is Phase.DESYNC:
            raise SessionError(f"the nests disagree and have stopped: {self.desync_reason}")
        if self.phase is Phase.SET_OVER:
            raise SessionError("the set is over")

    def _replay_current(self) -> Position:
        record = self._record
        return replay(self.game, record.lineup, record.starter(record.game_number), record.record, "record")

    def _compare(self, number: int, mine: tuple[str, ...], theirs: tuple[str, ...]) -> str | None:
        """Their move to copy, if ``theirs`` is ``mine`` plus one move of theirs; None if
        the records of game ``number`` agree or ours is ahead by one move of ours.
        Raises :class:`_DisagreementError` for anything else."""
        common = min(len(mine), len(theirs))
        for ply in range(common):
            if mine[ply] != theirs[ply]:
                where = f"move {ply + 1} of game {number + 1}"
                raise _DisagreementError(f"{where} is {mine[ply]} here and {theirs[ply]} there")
        if len(mine) == len(theirs):
            return None
        longer, holder = (theirs, self.side.opponent) if len(theirs) > len(mine) else (mine, self.side)
        who = "we" if holder is self.side else "they"
        record = self._record
        position = replay(self.game, record.lineup, record.starter(number), longer[:common], "record")
        for ply in range(common, len(longer)):  # more than one only across passes forced on the other
            if position.turn is not holder:
                more = len(longer) - common
                raise _DisagreementError(
                    f"{who} have {more} moves of game {number + 1} more than the other, not all {who} made"
                )
            position.push(self.game.read_move(longer[ply]))
            pass_if_forced(position)
        return longer[common] if holder is not self.side else None

    def _message(self, kind: Kind, now: float, last_move: LastMove | None = None) -> StateMessage:
        self._last_sent = now
        return StateMessage(
            kind=kind,
            game_id=self.pairing.game_id,
            nest=self.nest,
            side=self.side,
            game=self.game.name,
            set_record=self._record,
            proposal=self._proposal,
            answer=self._answer,
            desync=self.desync_reason if kind is Kind.DESYNC else None,
            last_move=last_move,
        )


class _DisagreementError(Exception):
    """The two records cannot both be right (internal: becomes a desync)."""
