"""Remote play in the daemon, what it is: the pairing, the session and the set kept
(``[broker]`` in the config; docs/remote-play.md); the other nest's side is seated at
the referee as the computer is by the remote seat's part.

:class:`RemotePlay` is what the daemon holds when a broker is configured. It pairs
(offering a game under a code, or joining one with its code: from the buttons or the
page), then runs a :class:`~firmware_host.remote.player.RemotePlayer` and a
:class:`~firmware_host.remote.seat.RemoteSeat` as that module says:

- the remote colour is "the computer's" at the referee, so that on its turn only the
  move chosen at the other nest is accepted, shown on the OLED and lit on the cells;
- the session's events come from the link's thread and are posted to the loop, where
  the remote seat (:mod:`firmware_host.daemon.parts.remote_seat`, which is remote play
  at the referee and on the buttons) acts on them (a resignation, a take back agreed)
  and hands the other side's move to the referee once it wants it;
- every signal the daemon announces (already recorded: record, then announce) is
  :meth:`RemotePlay.heard`: each move accepted here, ours or the copy of theirs, goes
  to the session, and so does our resignation;
- the set is kept beside the games' record (:mod:`~firmware_host.remote.kept`), so a
  daemon started again resumes it, and a move the referee recorded but the session had
  not yet taken (the power cut between the two) is given to it then.

What the players see of it is one value, :class:`RemoteShown`, which the presenter
words (:mod:`.remote_shown`). paho is loaded only when a game is offered, joined or resumed.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from firmware_host.daemon.remote_shown import RemoteShown, RemoteStage
from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Position, Side
from firmware_host.referee.referee import CommandError
from firmware_host.referee.signals import GameOver, MoveAccepted, Signal
from firmware_host.remote.kept import KeptSetError, read_kept, write_kept
from firmware_host.remote.messages import CODE_ALPHABET, MessageError
from firmware_host.remote.seat import RemoteSeat
from firmware_host.remote.session import (
    Event,
    Pairing,
    Phase,
    SessionError,
    SessionRecord,
)

if TYPE_CHECKING:
    from firmware_host.recorder.service import RefereeService
    from firmware_host.remote.broker import BrokerSettings
    from firmware_host.remote.player import RemotePlayer

logger = logging.getLogger(__name__)

TICK_S = 1.0  # the session's resends and heartbeats, and the link's "since" on the OLED


class RemotePlayError(NestrefError, ValueError):
    """What a player asked of remote play cannot be done now; the message says why."""


class Nest(Protocol):
    """What of the daemon remote play uses (the :class:`~firmware_host.daemon.Daemon` has it)."""

    def post(self, command: Callable[[], None]) -> None: ...

    def set_players(self, computers: frozenset[Side], level_number: int | None = None) -> None: ...

    def begin_game_from(self, position: Position) -> None: ...

    def pause(self) -> None: ...

    def link_lost(self) -> None: ...


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
        self.nest = nest
        self._kept = kept
        self.lineup = lineup
        self.first_starter = first_starter
        self._clock = clock
        self._codes = codes or random.SystemRandom()
        self._player_factory = player_factory
        self.player: RemotePlayer | None = None
        self.seat = RemoteSeat(game, send=self.send)
        self.stage = RemoteStage.UNPAIRED
        self.code = ""
        self.entered = ""  # the code being chosen on the buttons (parts/remote_seat.py)
        self.choosing = 0  # the index in CODE_ALPHABET the switch points at
        self.events: list[Event] = []  # posted from the link's thread, acted on by turn()
        self.said = ""
        self._last_tick = float("-inf")
        self.is_synced = True  # the referee's record and the session's compared after a resume
        self.refused = 0  # messages not believed, for the log and the tests
        self.flagged_game: int | None = None  # the game the referee here ended on time, told to the session
        self.is_changed = True  # what is shown may have changed since last asked (a press, an event)

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
        self.is_synced = False
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
        self.nest.set_players(frozenset())
        if was_stopped:
            self.nest.begin_game_from(self.game.start(self.lineup, self.first_starter))

    def act(self, kind: str, fields: dict[str, Any], service: RefereeService | None, now: int) -> None:
        """A request from the page: ``remote_offer``, ``remote_join`` (``code``),
        ``remote_leave``, ``remote_resign``, ``remote_draw``, ``remote_take_back``,
        ``remote_answer`` (``accept``). Raises :class:`RemotePlayError`."""
        self.is_changed = True
        match kind:
            case "remote_offer":
                self.offer()
            case "remote_join":
                self.join(str(fields["code"]))
            case "remote_leave":
                self.leave()
            case "remote_resign":
                self.resign(service, now)
            case "remote_draw":
                self._session_call(lambda player: player.offer_draw())
            case "remote_take_back":
                self._session_call(lambda player: player.request_take_back())
            case "remote_answer":
                self._session_call(lambda player: player.answer(bool(fields["accept"])))
            case _:
                raise RemotePlayError(f"unknown request {kind!r}")

    # -- the loop -------------------------------------------------------------------------

    @property
    def is_paired(self) -> bool:
        return self.stage in (RemoteStage.PLAYING, RemoteStage.SET_OVER, RemoteStage.DESYNC)

    def tick(self) -> None:
        """The session ticked about once a second (resends, heartbeats, the link's "since")."""
        moment = self._clock()
        if moment - self._last_tick >= TICK_S:
            self._last_tick = moment
            self.is_changed = True  # the link's "since" moves on
            if self.player is not None:
                self.player.tick()

    def next_turn(self) -> float | None:
        """When :meth:`turn` next has something to do by itself (the loop's clock,
        seconds): the next tick while there is a link, or now while the record is still
        to be synchronised; None with no link (what comes from it is posted)."""
        if self.player is None:
            return None
        if not self.is_synced and self.player.session is not None:
            return self._clock()
        return self._last_tick + TICK_S

    def shown_if_changed(self) -> RemoteShown | None:
        """:meth:`shown`, if something may have changed since it was last asked (an event,
        a request, a second gone by); None otherwise. The loop asks every turn: most turns
        cost it nothing."""
        if not self.is_changed:
            return None
        self.is_changed = False
        return self.shown()

    def heard(self, signal: Signal) -> None:
        """A signal the daemon announced (already recorded): a move accepted here goes
        to the session, and so does our own resignation."""
        if self.stage is not RemoteStage.PLAYING or self.player is None:
            return
        if isinstance(signal, MoveAccepted):
            self.seat.heard([signal])
            self.is_changed = True  # waiting for its copy, or the copy made
        elif isinstance(signal, GameOver) and signal.outcome.is_resignation:
            if signal.outcome.winner is not self.our_side().opponent:
                return  # they resigned there, and the referee was told so here
            try:
                self.player.resign()
            except SessionError as error:
                logger.warning("our resignation was not sent: %s", error)
        elif isinstance(signal, GameOver) and signal.outcome.is_time_loss and signal.outcome.winner is not None:
            assert self.player.session is not None
            self.flagged_game = self.player.session.set_record.game_number  # ended here: not again (remote_seat)
            try:
                self.player.flag_fell(signal.outcome.winner.opponent)
            except SessionError as error:
                logger.warning("the flag fall was not sent: %s", error)

    def shown(self) -> RemoteShown:
        """What the nest shows of remote play now. Read from the loop while the link's
        thread may change the session: at worst a second stale, shown again next tick."""
        player = self.player
        session = player.session if player is not None else None
        if self.stage is RemoteStage.ENTERING:
            return RemoteShown(self.stage, code=self.entered, choosing=CODE_ALPHABET[self.choosing])
        if session is None:
            return RemoteShown(self.stage, code=self.code, said=self.said)
        link = session.link
        return RemoteShown(
            self.stage,
            code=self.code,
            side=session.side,
            link=link.to_text(self._clock()),
            is_link_up=link.is_healthy(self._clock()),
            is_waiting_for_copy=session.is_waiting_for_copy(),
            their_proposal=session.peer_proposal.kind if session.peer_proposal is not None else None,
            our_proposal=session.proposal.kind if session.proposal is not None else None,
            desync=session.desync_reason or "",
            said=self.said,
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
            on_event=lambda event: self.nest.post(lambda: self.events.append(event)),
            on_paired=lambda pairing: self.nest.post(lambda: self._paired(pairing)),
            on_record=self._keep,
        )

    def _forget(self) -> None:
        self.close()
        self.stage, self.code, self.said, self.events = RemoteStage.UNPAIRED, "", "", []
        self.seat = RemoteSeat(self.game, send=self.send)
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
        self.stage, self.is_changed = RemoteStage.PLAYING, True
        self.lineup = pairing.lineup
        remote = self.our_side().opponent
        self.nest.set_players(frozenset({remote}))
        if new_set:
            self.nest.begin_game_from(self.game.start(pairing.lineup, pairing.first_starter))
        if self.player is not None and self.player.session is not None:
            self.follow_phase(self.player.session.phase)

    def our_side(self) -> Side:
        assert self.player is not None and self.player.session is not None
        return self.player.session.side

    def follow_phase(self, phase: Phase) -> None:
        if phase is Phase.DESYNC:
            self.stage = RemoteStage.DESYNC
        elif phase is Phase.SET_OVER:
            self.stage = RemoteStage.SET_OVER

    def send(self, move: str) -> None:
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

    def resign(self, service: RefereeService | None, now: int) -> None:
        """Our side gives the game up: at the referee, whose signal sends it (heard)."""
        if self.stage is not RemoteStage.PLAYING or service is None:
            raise RemotePlayError("no game at a distance is being played")
        try:
            service.resign(self.our_side(), now)
        except CommandError as error:
            raise RemotePlayError(str(error)) from None
