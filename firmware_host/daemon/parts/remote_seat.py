"""The other nest's seat (with a ``[broker]``): remote play
(:class:`~firmware_host.daemon.remote_play.RemotePlay`) as one part of the loop. Paired,
the remote side sits at the referee as the computer's does, and its move is handed to
the referee once it wants it (the session's events acted on there: a take back or a
draw agreed, a resignation, a desync); the buttons mean what remote play says first
(:func:`remote_perform`); its status is what the OLED and the page show of it
(:class:`RemoteShown`). What remote play is — pairing, the session, the set kept — stays
in :mod:`firmware_host.daemon.remote_play`."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from typing import Any

from firmware_host.daemon.button_meanings import Situation, meaning_of
from firmware_host.daemon.buttons import ButtonAction
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.remote_play import Nest, RemotePlay, RemotePlayError
from firmware_host.daemon.remote_shown import RemoteShown, RemoteStage
from firmware_host.games.base import Move, Position, Side
from firmware_host.recorder.service import RefereeService
from firmware_host.referee.referee import CommandError, Mode
from firmware_host.referee.signals import Signal
from firmware_host.remote.kept import kept_path, nest_name
from firmware_host.remote.messages import CODE_ALPHABET, CODE_LENGTH, Ending
from firmware_host.remote.session import (
    Desynced,
    Event,
    GameEnded,
    LinkChanged,
    MoveCopied,
    ProposalDeclined,
    ProposalMade,
    Refused,
    SessionError,
    ShowMove,
    TakeBack,
)

logger = logging.getLogger(__name__)


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


class RemoteSeatPart(Part):
    """Remote play, in the loop."""

    name = "remote"

    def __init__(
        self, host: Host, nest: Nest, *, situation: Callable[[], Situation], remote_nest: str | None = None
    ) -> None:
        self.host = host
        config = host.config
        assert config.broker is not None
        self._situation = situation  # what a press means depends on it
        self.play = RemotePlay(
            config.game,
            config.broker,
            nest_name=remote_nest or config.remote_nest or nest_name(socket.gethostname()),
            nest=nest,
            kept=kept_path(config.database),
            lineup=config.lineup,
            first_starter=config.referee.first_starter,
            clock=host.clock,
        )
        self._shown: RemoteShown | None = None
        self._chooser: _ServiceAsChooser | None = None

    def start(self) -> None:
        # Told the signals after the listeners already subscribed (the page; a
        # benchmark's clock, which so sees a move accepted before it is sent).
        self.host.subscribe(self.play.heard)
        self.play.start()

    def close(self) -> None:
        self.play.close()

    @property
    def is_seated(self) -> bool:
        return self.play.is_paired

    def want(self, position: Position | None) -> None:
        """Nothing to ask: the other nest sends its move when it is made there, and the
        session hands it to the referee in its turn."""

    def pressed(self, action: ButtonAction, now: int) -> bool:
        service = self.host.service
        meaning = meaning_of(action, self._situation())
        if service is None or meaning is None or not meaning.is_remote:
            return False
        remote_perform(self.play, meaning.does, service, now)
        self.turn(now)
        self.host.show()
        return True

    def act(self, kind: str, fields: dict[str, Any]) -> None:
        """A request of the page (:meth:`RemotePlay.act`). Raises
        :class:`~firmware_host.daemon.remote_play.RemotePlayError`."""
        try:
            self.play.act(kind, fields, self.host.service, self.host.now_ms())
        finally:
            self.turn(self.host.now_ms())
            self.host.show()

    def turn(self, now: int) -> None:
        service = self.host.service
        if service is not None and not self.host.paused:
            self.host.publish(self._at_referee(service, now))
            self.play.tick()
        shown = self.play.shown_if_changed()
        if shown is not None and shown != self._shown:
            self._shown = shown
            self.host.show()

    def _at_referee(self, service: RefereeService, now: int) -> list[Signal]:
        """The session's events acted on at the referee, their move handed to it once
        it wants it."""
        play = self.play
        signals: list[Signal] = []
        if not play.is_synced and play.player is not None and play.player.session is not None:
            self._sync(service)
        if play.events:
            events, play.events = play.events, []
            for event in events:
                signals += self._act_on(event, service, now)
            play.is_changed = True
        if play.stage is RemoteStage.PLAYING:
            if self._chooser is None or self._chooser.service is not service:  # a new one after a restart
                self._chooser = _ServiceAsChooser(service)
            signals += play.seat.poll(self._chooser, now)
        return signals

    def _sync(self, service: RefereeService) -> None:
        """After a resume: a move the referee recorded that the session never took (the
        power cut between the two) is given to it now; nothing acknowledged is lost."""
        play = self.play
        play.is_synced = True
        assert play.player is not None and play.player.session is not None
        position = service.referee.position
        if position is None or service.referee.mode is Mode.SETUP:
            return
        recorded = tuple(move.to_text() for move in position.move_stack if not move.is_pass)  # the set's has none
        kept = play.player.session.set_record.record
        if recorded == kept:
            return
        if len(recorded) == len(kept) + 1 and recorded[:-1] == kept:
            logger.info("the record has %s, which the set kept had not: sent now", recorded[-1])
            play.send(recorded[-1])
        else:
            logger.warning(
                "the referee's record (%d moves) and the set kept (%d) differ; the other nest's will tell",
                len(recorded),
                len(kept),
            )

    def _act_on(self, event: Event, service: RefereeService, now: int) -> list[Signal]:
        """A session event, in the loop."""
        play = self.play
        play.seat.told(event)
        signals: list[Signal] = []
        if isinstance(event, ShowMove | MoveCopied):
            play.said = ""
        elif isinstance(event, TakeBack):
            signals += self._take_back(event.plies, service, now)
            play.said = event.to_text()
        elif isinstance(event, GameEnded):
            if event.ending is Ending.RESIGNED and event.result == play.our_side().label:
                try:  # they resigned there: the referee ends the game here too
                    signals += service.resign(play.our_side().opponent, now)
                except CommandError as error:
                    logger.info("their resignation: %s", error)
            elif event.ending is Ending.TIME and event.game_number != play.flagged_game:
                try:  # a flag fell there first: the game is lost on time here too
                    signals += service.flag_fell(Side.from_text(event.result).opponent, now)
                except CommandError as error:
                    logger.info("the flag fall there: %s", error)
            elif event.ending is Ending.AGREED:
                try:  # a drawn game of the set, here as there: the starter alternates
                    signals += service.agree_draw(now)
                except CommandError as error:
                    logger.info("the draw agreed: %s", error)
            play.said = event.to_text()
        elif isinstance(event, Desynced):
            logger.error("remote play stopped: %s", event.to_text())
            play.nest.pause()
            play.nest.link_lost()
        elif isinstance(event, LinkChanged):
            (logger.info if event.is_up else logger.warning)("remote play: %s", event.to_text())
            if not event.is_up:
                play.nest.link_lost()
        elif isinstance(event, ProposalMade | ProposalDeclined):
            play.said = event.to_text()
        elif isinstance(event, Refused):
            play.refused += event.count
            logger.warning("remote play: %s", event.to_text())
        if play.player is not None and play.player.session is not None:
            play.follow_phase(play.player.session.phase)
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

    def next_due(self, now: int) -> int | None:
        moment = self.play.next_turn()
        return now + max(0, int((moment - self.host.clock()) * 1000)) if moment is not None else None

    def status(self) -> RemoteShown | None:
        return self._shown


# -- what the buttons do in remote play (their meanings: daemon/button_meanings.py) --------


def remote_perform(play: RemotePlay, does: str, service: RefereeService, now: int) -> None:
    """A press that means ``does`` to remote play (a ``remote_...`` or ``code_...`` action
    of :data:`~firmware_host.daemon.button_meanings.MEANINGS`; docs/daemon.md, "Buttons in
    remote play"); what cannot be done now is said on the OLED."""
    play.is_changed = True
    player = play.player
    try:
        match does:
            case "code_next" | "code_back" | "code_take" | "code_undo":
                _enter(play, does)
            case "remote_offer":
                play.offer()
            case "remote_enter":
                play.stage, play.entered, play.choosing = RemoteStage.ENTERING, "", 0
            case "remote_leave":
                play.leave()
            case "remote_accept" | "remote_decline" if player is not None:
                player.answer(does == "remote_accept")
            case "remote_take_back" if player is not None:
                player.request_take_back()
                play.said = "take back asked"
            case "remote_resign":
                play.resign(service, now)
            case "remote_draw" if player is not None:
                player.offer_draw()
                play.said = "draw offered"
            case "remote_no_new_game":  # a new game here alone would part the two records
                play.said = "a game at a distance is ended by resigning or a draw"
            case "remote_seats_fixed":  # choosing who plays here alone, between games, would part the records
                play.said = "the seats are fixed for the set"
    except (RemotePlayError, SessionError) as error:
        logger.info("button: %s", error)
        play.said = str(error)


def _enter(play: RemotePlay, does: str) -> None:
    """A game's code chosen on the buttons: switch points at the next character,
    confirm takes it, take back undoes the last (or, with none taken, gives up)."""
    match does:
        case "code_next":
            play.choosing = (play.choosing + 1) % len(CODE_ALPHABET)
        case "code_back":
            play.choosing = (play.choosing - 1) % len(CODE_ALPHABET)
        case "code_take":
            play.entered += CODE_ALPHABET[play.choosing]
            if len(play.entered) == CODE_LENGTH:
                entered, play.entered = play.entered, ""
                play.stage = RemoteStage.UNPAIRED
                play.join(entered)
        case "code_undo":
            if play.entered:
                play.entered = play.entered[:-1]
            else:
                play.stage = RemoteStage.UNPAIRED
