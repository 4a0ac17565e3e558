"""Remote play in the daemon: the other nest's side seated at the referee as the
computer is, through a broker (``[broker]`` in the config; docs/remote-play.md).

:class:`RemotePlay` is what the daemon holds when a broker is configured. It pairs
(offering a game under a code, or joining one with its code: from the buttons or the
page), then runs a :class:`~firmware_host.remote.player.RemotePlayer` and a
:class:`~firmware_host.remote.seat.RemoteSeat` as that module says:

- the remote colour is "the computer's" at the referee, so that on its turn only the
  move chosen at the other nest is accepted, shown on the OLED and lit on the cells;
- the session's events come from the link's thread and are posted to the loop, where
  :meth:`RemotePlay.turn` acts on them with the referee (a resignation, a take back
  agreed) and hands the other side's move to the referee once it wants it;
- every signal the daemon announces (already recorded: record, then announce) is
  :meth:`RemotePlay.heard`: each move accepted here, ours or the copy of theirs, goes
  to the session, and so does our resignation;
- the set is kept beside the games' record (:mod:`~firmware_host.remote.kept`), so a
  daemon started again resumes it, and a move the referee recorded but the session had
  not yet taken (the power cut between the two) is given to it then.

What the players see of it is one value, :class:`RemoteShown`, which the presenter
words. paho is loaded only when a game is offered, joined or resumed.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from firmware_host.daemon.buttons import ButtonAction, Press
from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Move, Position, Side
from firmware_host.referee.referee import CommandError, Mode
from firmware_host.referee.signals import GameOver, MoveAccepted, Signal
from firmware_host.remote.identity import IdentityError, NestIdentity, load_identity
from firmware_host.remote.kept import KeptSetError, read_kept, write_kept
from firmware_host.remote.messages import CODE_ALPHABET, CODE_LENGTH, Ending, MessageError, ProposalKind
from firmware_host.remote.seat import RemoteSeat
from firmware_host.remote.session import (
    Desynced,
    Event,
    GameEnded,
    LinkChanged,
    MoveCopied,
    Pairing,
    Phase,
    ProposalDeclined,
    ProposalMade,
    Refused,
    SessionError,
    SessionRecord,
    ShowMove,
    TakeBack,
)

if TYPE_CHECKING:
    from firmware_host.recorder.service import RefereeService
    from firmware_host.remote.broker import BrokerSettings
    from firmware_host.remote.player import RemotePlayer

logger = logging.getLogger(__name__)

TICK_S = 1.0  # the session's resends and heartbeats, and the link's "since" on the OLED


class RemotePlayError(NestrefError, ValueError):
    """What a player asked of remote play cannot be done now; the message says why."""


class RemoteStage(Enum):
    UNPAIRED = "unpaired"  # no game offered or joined
    ENTERING = "entering"  # a game's code being chosen on the buttons
    OFFERING = "offering"  # a code shown, waiting for the other nest to join
    JOINING = "joining"  # a code given, waiting for its offer
    PLAYING = "playing"
    SET_OVER = "set over"
    DESYNC = "desync"  # the records disagree: play stopped on both nests


@dataclass(frozen=True)
class RemoteShown:
    """Remote play as the nest shows it, at one moment."""

    stage: RemoteStage
    code: str = ""  # the game's code; while entering, the characters taken so far
    choosing: str = ""  # while entering: the character the switch button points at
    side: Side | None = None  # the side this nest plays
    link: str = ""  # "link up", "link lost 1:05", "other nest away 0:12"
    is_link_up: bool = False
    is_waiting_for_copy: bool = False  # our move made here, not yet copied there
    their_proposal: ProposalKind | None = None  # to answer: confirm yes, switch no
    our_proposal: ProposalKind | None = None  # waiting for their answer
    desync: str = ""
    said: str = ""  # the last thing the other side said (a draw declined, a take back agreed)

    def to_json(self) -> dict[str, Any]:
        """For the page (``page/remote.js``)."""
        return {
            "type": "remote",
            "stage": self.stage.value,
            "code": self.code,
            "choosing": self.choosing,
            "side": self.side.label if self.side is not None else None,
            "link": self.link,
            "link_up": self.is_link_up,
            "waiting_for_copy": self.is_waiting_for_copy,
            "their_proposal": self.their_proposal.value if self.their_proposal else None,
            "our_proposal": self.our_proposal.value if self.our_proposal else None,
            "desync": self.desync,
            "said": self.said,
        }


class Nest(Protocol):
    """What of the daemon remote play uses (the :class:`~firmware_host.daemon.Daemon` has it)."""

    def post(self, command: Callable[[], None]) -> None: ...

    def set_players(self, computers: frozenset[Side], level_number: int | None = None) -> None: ...

    def begin_game_from(self, position: Position) -> None: ...

    def pause(self) -> None: ...

    def link_lost(self) -> None: ...


class _ServiceAsChooser:
    """The referee service as the seat sees it: it wants a move chosen elsewhere, and
    takes one (recorded and announced by the service)."""

    def __init__(self, service: RefereeService) -> None:
        self.service = service

    @property
    def wants_computer_move(self) -> bool:
        return self.service.referee.wants_computer_move

    def play_computer_move(self, move: Move, now: int) -> list[Signal]:
        return self.service.play_computer_move(move, now)


PlayerFactory = Callable[..., "RemotePlayer"]


class RemotePlay:
    """The daemon's remote play: pairing, the session's events at the referee, what is shown."""

    def __init__(
        self,
        game: Game,
        settings: BrokerSettings,
        *,
        nest_name: str,
        nest: Nest,
        kept: Path | None,
        lineup: str,
        first_starter: Side,
        clock: Callable[[], float],
        codes: random.Random | None = None,
        player_factory: PlayerFactory | None = None,
    ) -> None:
        """``nest_name`` is this nest's name on the broker (a kept set's own name wins,
        so that a set resumes under the name it was paired with); ``kept`` is where the
        set is kept (None: not kept); a game offered here is of ``lineup``, the set
        started by ``first_starter``, this nest playing red."""
        self.game = game
        self.settings = settings
        self.nest_name = nest_name
        self._nest = nest
        self._kept = kept
        self.lineup = lineup
        self.first_starter = first_starter
        self._clock = clock
        self._codes = codes or random.SystemRandom()
        self._player_factory = player_factory
        self.player: RemotePlayer | None = None
        self.seat = RemoteSeat(game, send=self._send)
        self.stage = RemoteStage.UNPAIRED
        self.code = ""
        self._entered = ""  # the code being chosen on the buttons
        self._choosing = 0  # the index in CODE_ALPHABET the switch points at
        self._events: list[Event] = []  # posted from the link's thread, acted on by turn()
        self._said = ""
        self._last_tick = float("-inf")
        self._is_synced = True  # the referee's record and the session's compared after a resume
        self.refused = 0  # messages not believed, for the log and the tests
        self._is_changed = True  # what is shown may have changed since last asked
        self._chooser: _ServiceAsChooser | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Resume the set kept, if any (a bad file is logged, and set aside)."""
        if self._kept is None:
            return
        try:
            kept = read_kept(self._kept, self.game)
        except KeptSetError as error:
            logger.error("%s; the set is not resumed", error)
            self._kept.replace(self._kept.with_name(self._kept.name + ".bad"))
            return
        if kept is None:
            return
        name, pairing, record = kept
        self.nest_name = name
        player = self._new_player()
        try:
            player.resume(pairing, record)
        except SessionError as error:
            logger.error("the set kept in %s cannot be resumed: %s", self._kept, error)
            player.close()
            return
        self.player, self.code = player, pairing.code
        self._seated(pairing, new_set=False)
        self._is_synced = False
        logger.info("resumed game %s at move %d", pairing.code, len(record.set_record.record))

    def close(self) -> None:
        if self.player is not None:
            self.player.close()
            self.player = None

    # -- what the players ask -------------------------------------------------------------

    def offer(self) -> str:
        """Offer a game under a fresh code; the code to show. Raises :class:`RemotePlayError`."""
        if self.stage not in (RemoteStage.UNPAIRED, RemoteStage.ENTERING, RemoteStage.SET_OVER):
            raise RemotePlayError(f"a game is already {self.stage.value}: leave it first")
        self._forget()
        player = self._new_player()
        self.code = player.offer(
            side=Side.RED, lineup=self.lineup, first_starter=self.first_starter, random=self._codes
        )
        self.player, self.stage = player, RemoteStage.OFFERING
        logger.info("offered game %s", self.code)
        return self.code

    def join(self, code: str) -> None:
        """Join the game offered under ``code``. Raises :class:`RemotePlayError`."""
        if self.stage not in (RemoteStage.UNPAIRED, RemoteStage.ENTERING, RemoteStage.SET_OVER):
            raise RemotePlayError(f"a game is already {self.stage.value}: leave it first")
        code = code.strip().upper()
        player = self._new_player()
        try:
            player.join(code)
        except MessageError as error:
            raise RemotePlayError(f"game code: {error}") from None
        self._forget()
        self.player, self.code, self.stage = player, code, RemoteStage.JOINING
        logger.info("joining game %s", code)

    def leave(self) -> None:
        """Leave the game (offered, joined, played or stopped in a desync): the set kept
        is forgotten; the nest plays on its own (after a desync, a new set: play had stopped)."""
        was_stopped = self.stage is RemoteStage.DESYNC
        self._forget()
        self._nest.set_players(frozenset())
        if was_stopped:
            self._nest.begin_game_from(self.game.start(self.lineup, self.first_starter))

    def act(self, kind: str, fields: dict[str, Any], service: RefereeService | None, now: int) -> None:
        """A request from the page: ``remote_offer``, ``remote_join`` (``code``),
        ``remote_leave``, ``remote_resign``, ``remote_draw``, ``remote_take_back``,
        ``remote_answer`` (``accept``). Raises :class:`RemotePlayError`."""
        self._is_changed = True
        match kind:
            case "remote_offer":
                self.offer()
            case "remote_join":
                self.join(str(fields["code"]))
            case "remote_leave":
                self.leave()
            case "remote_resign":
                self._resign(service, now)
            case "remote_draw":
                self._session_call(lambda player: player.offer_draw())
            case "remote_take_back":
                self._session_call(lambda player: player.request_take_back())
            case "remote_answer":
                self._session_call(lambda player: player.answer(bool(fields["accept"])))
            case _:
                raise RemotePlayError(f"unknown request {kind!r}")

    def button(self, action: ButtonAction, service: RefereeService, now: int, *, question_open: bool) -> bool:
        """A button press, if it means something to remote play now (docs/daemon.md,
        "Remote play"); False leaves it to the referee's gestures."""
        stage, press = self.stage, (action.button, action.press)
        self._is_changed = True
        try:
            if stage is RemoteStage.ENTERING:
                self._enter(press)
                return True
            if stage in (RemoteStage.UNPAIRED, RemoteStage.SET_OVER) and not question_open:
                if press == ("confirm", Press.SHORT):
                    self.offer()
                    return True
                if press == ("switch", Press.LONG):
                    self.stage, self._entered, self._choosing = RemoteStage.ENTERING, "", 0
                    return True
                return False
            if stage in (RemoteStage.OFFERING, RemoteStage.JOINING, RemoteStage.DESYNC):
                if press == ("take_back", Press.LONG):
                    self.leave()
                    return True
                return stage is RemoteStage.DESYNC  # stopped: nothing else is done
            if stage is RemoteStage.PLAYING:
                return self._playing_button(press, service, now, question_open=question_open)
        except (RemotePlayError, SessionError) as error:
            logger.info("button: %s", error)
            self._said = str(error)
            return True
        return False

    def _playing_button(
        self, press: tuple[str, Press], service: RefereeService, now: int, *, question_open: bool
    ) -> bool:
        player = self.player
        assert player is not None and player.session is not None
        if player.session.peer_proposal is not None and not question_open:
            if press == ("confirm", Press.SHORT):
                player.answer(True)
                return True
            if press == ("switch", Press.SHORT):
                player.answer(False)
                return True
        match press:
            case ("take_back", Press.SHORT):
                player.request_take_back()
                self._said = "take back asked"
                return True
            case ("take_back", Press.LONG):
                self._resign(service, now)
                return True
            case ("switch", Press.LONG):
                player.offer_draw()
                self._said = "draw offered"
                return True
            case ("confirm", Press.LONG):
                self._said = "a game at a distance is ended by resigning or a draw"
                return True  # a new game here alone would part the two records
        return False

    def _enter(self, press: tuple[str, Press]) -> None:
        """A game's code chosen on the buttons: switch points at the next character,
        confirm takes it, take back undoes the last (or, with none taken, gives up)."""
        match press:
            case ("switch", Press.SHORT):
                self._choosing = (self._choosing + 1) % len(CODE_ALPHABET)
            case ("switch", Press.LONG):
                self._choosing = (self._choosing - 1) % len(CODE_ALPHABET)
            case ("confirm", Press.SHORT):
                self._entered += CODE_ALPHABET[self._choosing]
                if len(self._entered) == CODE_LENGTH:
                    entered, self._entered = self._entered, ""
                    self.stage = RemoteStage.UNPAIRED
                    self.join(entered)
            case ("take_back", Press.SHORT):
                if self._entered:
                    self._entered = self._entered[:-1]
                else:
                    self.stage = RemoteStage.UNPAIRED

    # -- the loop -------------------------------------------------------------------------

    @property
    def is_paired(self) -> bool:
        return self.stage in (RemoteStage.PLAYING, RemoteStage.SET_OVER, RemoteStage.DESYNC)

    def turn(self, service: RefereeService, now: int) -> list[Signal]:
        """One turn of the daemon's loop: the session's events acted on, their move
        handed to the referee once it wants it, the session ticked about once a second."""
        signals: list[Signal] = []
        if not self._is_synced and self.player is not None and self.player.session is not None:
            self._sync(service)
        if self._events:
            events, self._events = self._events, []
            for event in events:
                signals += self._act_on(event, service, now)
            self._is_changed = True
        if self.stage is RemoteStage.PLAYING:
            if self._chooser is None or self._chooser.service is not service:  # a new one after a restart
                self._chooser = _ServiceAsChooser(service)
            signals += self.seat.poll(self._chooser, now)
        moment = self._clock()
        if moment - self._last_tick >= TICK_S:
            self._last_tick = moment
            self._is_changed = True  # the link's "since" moves on
            if self.player is not None:
                self.player.tick()
        return signals

    def next_turn(self) -> float | None:
        """When :meth:`turn` next has something to do by itself (the loop's clock,
        seconds): the next tick while there is a link, or now while the record is still
        to be synchronised; None with no link (what comes from it is posted)."""
        if self.player is None:
            return None
        if not self._is_synced and self.player.session is not None:
            return self._clock()
        return self._last_tick + TICK_S

    def shown_if_changed(self) -> RemoteShown | None:
        """:meth:`shown`, if something may have changed since it was last asked (an event,
        a request, a second gone by); None otherwise. The loop asks every turn: most turns
        cost it nothing."""
        if not self._is_changed:
            return None
        self._is_changed = False
        return self.shown()

    def heard(self, signal: Signal) -> None:
        """A signal the daemon announced (already recorded): a move accepted here goes
        to the session, and so does our own resignation."""
        if self.stage is not RemoteStage.PLAYING or self.player is None:
            return
        if isinstance(signal, MoveAccepted):
            self.seat.heard([signal])
            self._is_changed = True  # waiting for its copy, or the copy made
        elif isinstance(signal, GameOver) and signal.outcome.is_resignation:
            if signal.outcome.winner is not self._our_side().opponent:
                return  # they resigned there, and the referee was told so here
            try:
                self.player.resign()
            except SessionError as error:
                logger.warning("our resignation was not sent: %s", error)

    def shown(self) -> RemoteShown:
        """What the nest shows of remote play now. Read from the loop while the link's
        thread may change the session: at worst a second stale, shown again next tick."""
        player = self.player
        session = player.session if player is not None else None
        if self.stage is RemoteStage.ENTERING:
            return RemoteShown(self.stage, code=self._entered, choosing=CODE_ALPHABET[self._choosing])
        if session is None:
            return RemoteShown(self.stage, code=self.code, said=self._said)
        link = session.link
        return RemoteShown(
            self.stage,
            code=self.code,
            side=session.side,
            link=link.to_text(self._clock()),
            is_link_up=link.is_up and link.is_peer_online,
            is_waiting_for_copy=session.is_waiting_for_copy(),
            their_proposal=session.peer_proposal.kind if session.peer_proposal is not None else None,
            our_proposal=session.proposal.kind if session.proposal is not None else None,
            desync=session.desync_reason or "",
            said=self._said,
        )

    # -- inside ---------------------------------------------------------------------------

    def _new_player(self) -> RemotePlayer:
        if self._player_factory is not None:
            factory = self._player_factory
        else:
            from firmware_host.remote.player import RemotePlayer  # paho, only when a game is played

            factory = RemotePlayer
        return factory(
            self.game,
            self.settings,
            nest=self.nest_name,
            clock=self._clock,
            on_event=lambda event: self._nest.post(lambda: self._events.append(event)),
            on_paired=lambda pairing: self._nest.post(lambda: self._paired(pairing)),
            on_record=self._keep,
            identity=self._identity(),
        )

    def _identity(self) -> NestIdentity | None:
        """The nest's key, kept beside its record (made on its first start); None without a record on disk."""
        if self._kept is None:
            return None
        try:
            return load_identity(self._kept.parent, self.nest_name)
        except IdentityError as error:
            logger.error("%s; a key for this run alone is used", error)
            return None

    def _forget(self) -> None:
        self.close()
        self.stage, self.code, self._said, self._events = RemoteStage.UNPAIRED, "", "", []
        self.seat = RemoteSeat(self.game, send=self._send)
        if self._kept is not None:
            self._kept.unlink(missing_ok=True)

    def _keep(self, pairing: Pairing, record: SessionRecord) -> None:
        """The session's state changed (from either thread, under the player's lock)."""
        if self._kept is None:
            return
        try:
            write_kept(self._kept, pairing, record, nest=self.nest_name)
        except OSError as error:
            logger.error("%s: the set cannot be kept (%s); a restart would not resume it", self._kept, error)

    def _paired(self, pairing: Pairing) -> None:
        """In the loop: the other nest answered; a new set begins from the pairing's lineup."""
        if self.player is None or self.player.session is None or pairing.code != self.code:
            return  # left meanwhile
        self._seated(pairing, new_set=True)

    def _seated(self, pairing: Pairing, *, new_set: bool) -> None:
        self.stage, self._is_changed = RemoteStage.PLAYING, True
        self.lineup = pairing.lineup
        remote = self._our_side().opponent
        self._nest.set_players(frozenset({remote}))
        if new_set:
            self._nest.begin_game_from(self.game.start(pairing.lineup, pairing.first_starter))
        if self.player is not None and self.player.session is not None:
            self._follow_phase(self.player.session.phase)

    def _our_side(self) -> Side:
        assert self.player is not None and self.player.session is not None
        return self.player.session.side

    def _follow_phase(self, phase: Phase) -> None:
        if phase is Phase.DESYNC:
            self.stage = RemoteStage.DESYNC
        elif phase is Phase.SET_OVER:
            self.stage = RemoteStage.SET_OVER

    def _send(self, move: str) -> None:
        assert self.player is not None
        try:
            self.player.local_move(move)
        except SessionError as error:
            logger.warning("move %s not sent: %s", move, error)

    def _session_call(self, call: Callable[[RemotePlayer], None]) -> None:
        if self.stage is not RemoteStage.PLAYING or self.player is None:
            raise RemotePlayError("no game at a distance is being played")
        try:
            call(self.player)
        except SessionError as error:
            raise RemotePlayError(str(error)) from None

    def _resign(self, service: RefereeService | None, now: int) -> None:
        """Our side gives the game up: at the referee, whose signal sends it (heard)."""
        if self.stage is not RemoteStage.PLAYING or service is None:
            raise RemotePlayError("no game at a distance is being played")
        try:
            service.resign(self._our_side(), now)
        except CommandError as error:
            raise RemotePlayError(str(error)) from None

    def _sync(self, service: RefereeService) -> None:
        """After a resume: a move the referee recorded that the session never took (the
        power cut between the two) is given to it now; nothing acknowledged is lost."""
        self._is_synced = True
        assert self.player is not None and self.player.session is not None
        position = service.referee.position
        if position is None or service.referee.mode is Mode.SETUP:
            return
        recorded = tuple(move.to_text() for move in position.move_stack)
        kept = self.player.session.set_record.record
        if recorded == kept:
            return
        if len(recorded) == len(kept) + 1 and recorded[:-1] == kept:
            logger.info("the record has %s, which the set kept had not: sent now", recorded[-1])
            self._send(recorded[-1])
        else:
            logger.warning(
                "the referee's record (%d moves) and the set kept (%d) differ; the other nest's will tell",
                len(recorded),
                len(kept),
            )

    def _act_on(self, event: Event, service: RefereeService, now: int) -> list[Signal]:
        """A session event, in the loop."""
        self.seat.told(event)
        signals: list[Signal] = []
        if isinstance(event, ShowMove | MoveCopied):
            self._said = ""
        elif isinstance(event, TakeBack):
            signals += self._take_back(event.plies, service, now)
            self._said = event.to_text()
        elif isinstance(event, GameEnded):
            if event.ending is Ending.RESIGNED and event.result == self._our_side().label:
                try:  # they resigned there: the referee ends the game here too
                    signals += service.resign(self._our_side().opponent, now)
                except CommandError as error:
                    logger.info("their resignation: %s", error)
            elif event.ending is Ending.AGREED:
                try:  # a drawn game of the set, here as there: the starter alternates
                    signals += service.agree_draw(now)
                except CommandError as error:
                    logger.info("the draw agreed: %s", error)
            self._said = event.to_text()
        elif isinstance(event, Desynced):
            logger.error("remote play stopped: %s", event.to_text())
            self._nest.pause()
            self._nest.link_lost()
        elif isinstance(event, LinkChanged):
            (logger.info if event.is_up else logger.warning)("remote play: %s", event.to_text())
            if not event.is_up:
                self._nest.link_lost()
        elif isinstance(event, ProposalMade | ProposalDeclined):
            self._said = event.to_text()
        elif isinstance(event, Refused):
            self.refused += event.count
            logger.warning("remote play: %s", event.to_text())
        if self.player is not None and self.player.session is not None:
            self._follow_phase(self.player.session.phase)
        return signals

    def _take_back(self, plies: int, service: RefereeService, now: int) -> list[Signal]:
        """``plies`` moves undone at the referee, one each: with the remote side seated
        as the computer, the referee's own take back would undo its reply too."""
        remote = service.referee.computers
        signals = service.set_computers(frozenset(), now)
        try:
            for _ in range(plies):
                signals += service.take_back(now)
        except CommandError as error:
            logger.error("the take back agreed could not be made here: %s", error)
        signals += service.set_computers(remote, now)
        return signals
