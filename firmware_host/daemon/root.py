"""The composition root: the :class:`Daemon` is the loop (:mod:`.loop`) with its parts
listed, in the order they take their turns, and the face the web page, the simulator
and the command line use.

``nestref run --config FILE`` runs it on the Pi (systemd keeps it running;
:mod:`.serve` runs it until SIGTERM); the simulator runs the very same :class:`Daemon`
on the libraries' mock devices. A new feature is one part more in :meth:`Daemon._parts`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from firmware_host.daemon.button_meanings import Situation, buttons_now, situation_of
from firmware_host.daemon.computer import ComputerPlayer
from firmware_host.daemon.config import Config
from firmware_host.daemon.devices import Devices
from firmware_host.daemon.lights import cells as lit_cells
from firmware_host.daemon.lights import lights as lit_lights
from firmware_host.daemon.loop import Loop
from firmware_host.daemon.parts.buttons import Buttons
from firmware_host.daemon.parts.clock import GameClock
from firmware_host.daemon.parts.computer_seat import ComputerSeat
from firmware_host.daemon.parts.hints import Hints
from firmware_host.daemon.parts.material import MaterialCount
from firmware_host.daemon.parts.own_screens import OwnScreens
from firmware_host.daemon.parts.page import Page
from firmware_host.daemon.parts.part import Part
from firmware_host.daemon.parts.players import Players
from firmware_host.daemon.parts.remote_seat import RemoteSeatPart
from firmware_host.daemon.parts.sensor_log import SensorLog
from firmware_host.daemon.parts.setups import Setups
from firmware_host.daemon.presenter import View
from firmware_host.daemon.remote_play import RemotePlay, RemotePlayError
from firmware_host.daemon.snapshot import GameShown, PrivateView, PublicPositions, Snapshot
from firmware_host.daemon.tunes import Cue
from firmware_host.games.base import Move, Position, Side
from firmware_host.recorder.store import GameSummary, RecordedGame
from firmware_host.records import GameRecord

logger = logging.getLogger(__name__)


class _AtTurnEnd(Part):
    """A callback at the end of every turn (after every other part's)."""

    name = "at turn end"

    def __init__(self, callback: Callable[[], None]) -> None:
        self._callback = callback

    def turn(self, now: int) -> None:
        self._callback()


class Daemon(Loop):
    """The referee at work on one nest, with every part it has."""

    def __init__(
        self,
        config: Config,
        devices: Devices,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        address: str = "",
        computer_seed: int | None = None,
        remote_nest: str | None = None,
    ) -> None:
        """``computer_seed`` makes the computer's choices repeatable (tests); by default
        it is drawn from the wall clock, and logged. ``remote_nest``: this nest's name
        in remote play, if not the config's (``[remote] nest``, or else the host's)."""
        super().__init__(config, devices, clock=clock, wall_clock=wall_clock)
        seed = computer_seed if computer_seed is not None else int(wall_clock() * 1000) % 2**32
        self._public_positions = PublicPositions(config.game)  # the snapshot's: no hidden rank
        self.page = Page(self, address=address)
        self.own_screens = OwnScreens(self, address=lambda: self.page.status().address)
        self.hints = Hints(self)
        self.computer_seat = ComputerSeat(self, self.hints, seed=seed)
        self.remote_seat = (
            RemoteSeatPart(self, self, situation=self.situation, remote_nest=remote_nest)
            if config.broker is not None
            else None
        )
        self.players = Players(self, computer=self.computer_seat, remote=self.remote_seat)
        self.setups = Setups(self, seed=seed, computers=lambda: self.players.computers)
        self.buttons = self.button_part = Buttons(
            self,
            scene=lambda: self.scene,
            situation=self.situation,
            point_at_next_answer=self._point_at_next_answer,
            parts=lambda: self.parts,
            set_players=self.set_players,
            ask_hint=self.ask_hint,
        )
        self.set_parts(self._parts())

    def _parts(self) -> list[Part]:
        """Every part, in the order they take their turns."""
        remote = [self.remote_seat] if self.remote_seat is not None else []
        sensor_log = [SensorLog(self, self.config.sensor_log)] if self.config.sensor_log else []
        return [
            self.record,  # first: closed last
            self.sensors,
            self.page,
            self.own_screens,  # before the buttons: two held together are its own
            self.button_part,
            *remote,
            GameClock(self),
            self.setups,
            self.players,
            self.hints,
            self.computer_seat,
            *sensor_log,
            MaterialCount(self),
            self.outputs,  # last of the root's: it draws what the others changed
        ]

    # -- the parts' faces, for the web page and the simulator ------------------------------

    @property
    def computer(self) -> ComputerPlayer:
        """The computer's engine (its own process)."""
        return self.computer_seat.engine

    @property
    def remote(self) -> RemotePlay | None:
        """Remote play, with a ``[broker]``."""
        return self.remote_seat.play if self.remote_seat is not None else None

    @property
    def findings(self) -> tuple[str, ...]:
        """What the boot self-test found."""
        return self.sensors.status().findings

    def at_turn_end(self, callback: Callable[[], None]) -> None:
        """Have ``callback`` called at the end of every turn of the loop, in its thread;
        it must be quick, and catch its own errors."""
        self.add_part(_AtTurnEnd(callback))

    def subscribe_cues(self, listener: Callable[[Cue], None]) -> None:
        """Have ``listener`` told every cue the daemon sounds (or would, with ``[sound]
        enabled``), as it sounds it: the page plays them too."""
        self.outputs.subscribe_cues(listener)

    def set_players(self, computers: frozenset[Side], level_number: int | None = None) -> None:
        """The computer plays ``computers`` (none: people play both), at ``level_number``
        if given; from the loop (the web page posts it). Raises
        :class:`~firmware_host.daemon.computer.UnknownLevelError` for a level that does not
        exist."""
        if level_number is not None:
            self.computer.set_level(level_number)
        self.players.set_players(computers, self.computer.level)

    def _point_at_next_answer(self) -> None:
        self.scene = self.scene.with_next_answer()

    def ask_hint(self) -> None:
        """The players ask for a hint (:mod:`.parts.hints`). Raises
        :class:`~firmware_host.referee.referee.CommandError` when none can be given now."""
        self.hints.ask(question_open=bool(self.scene.question))

    def give_setup(self, side: Side, text: str) -> None:
        """``side``'s whole set-up from its player's own screen (:meth:`Setups.give`)."""
        self.setups.give(side, text)

    def guide_setup(self, side: Side) -> None:
        """``side`` places its pieces one at a time (:meth:`Setups.guide`)."""
        self.setups.guide(side)

    def check_setup(self, side: Side) -> None:
        """``side``'s pieces checked against its set-up (:meth:`Setups.check`)."""
        self.setups.check(side)

    def clear_setup(self, side: Side) -> None:
        """``side``'s set-up withdrawn (:meth:`Setups.clear`)."""
        self.setups.clear(side)

    def private_view(self, side: Side) -> PrivateView | None:
        """What ``side``'s own screen shows (None: the game hides nothing). Private: for
        that player's authenticated screen alone."""
        view = self.setups.private_view(side)
        hint = self.hints.private_hint(side)
        return replace(view, hint=str(hint)) if view is not None and hint is not None else view

    def show_address(self, address: str) -> None:
        """The web page's address, on the OLED's bottom line."""
        self.page.show_address(address)

    def show_pin(self, pin: str) -> None:
        """The PIN that lets a page at another machine act, on the OLED's bottom line."""
        self.page.show_pin(pin)

    def show_own_screens(self, pins: dict[Side, str], *, shown: Callable[[Side], None]) -> None:
        """Each side's own PIN, which the OLED shows while that side's two buttons are
        held together (:mod:`.parts.own_screens`) and nowhere else; ``shown`` is told whose."""
        self.own_screens.offer(pins, shown=shown)

    def redraw(self) -> None:
        """Show again the scene and what the parts say."""
        self.show()

    def button_changed(self, name: str, pressed: bool) -> None:
        """A button on a GPIO pin went down or up (from gpiozero's thread)."""
        self.button_part.changed_on_pin(name, pressed)

    def remote_action(self, kind: str, fields: dict[str, Any]) -> None:
        """A request of the page for remote play (``remote_offer``, ``remote_join``, ...),
        in the loop's thread. Raises :class:`RemotePlayError`."""
        if self.remote_seat is None:
            raise RemotePlayError("no broker: name one in the config's [broker] (or --broker)")
        self.remote_seat.act(kind, fields)

    def link_lost(self) -> None:
        """The remote link or the other nest dropped: its cue, on the piezo and the pages."""
        self.sound(Cue.LINK_LOST)

    def position_now(self) -> Position | None:
        """The game's position as the referee has it now, or None between games."""
        service = self.service
        return service.referee.position.copy() if service is not None and service.referee.position else None

    def recorded_game(self) -> RecordedGame | None:
        """The last game as the record has it: what a screen may show as played."""
        return self.record.recorded_game()

    def past_games(self) -> list[GameSummary]:
        """Every game in the record, oldest first (the page's history)."""
        return self.record.past_games()

    def past_game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` of the record as a game record (``nestref export``'s)."""
        return self.record.past_game(game_id)

    def waiting_moves(self) -> list[Move]:
        """The moves the referee accepted that wait to be recorded."""
        return self.record.waiting_moves()

    def situation(self) -> Situation:
        """What a button press means depends on now (:class:`Situation`)."""
        return situation_of(self.scene, self.service.referee if self.service is not None else None)

    def snapshot(self) -> Snapshot:
        """What the nest shows now."""
        scene, devices = self.scene, self.devices
        display = devices.display
        recorded = self.recorded_game() if scene.view not in (View.STARTING, View.SETUP) else None
        service = self.service
        referee = service.referee if service is not None else None
        playing = scene.is_playing
        position, result = self._public_positions.of(recorded.position if recorded is not None else "")
        if display is None:
            frames, image = 0, None
        else:  # luma's dummy device keeps the frame it was sent; a real one does not
            sent = getattr(display.device, "image", None)
            frames, image = display.frames, display.image if sent is None else sent
        game = GameShown(
            number=scene.number,
            to_move=scene.side if playing else None,
            moves=tuple(recorded.moves) if recorded is not None else (),
            waiting=tuple(str(move) for move in self.waiting_moves()),
            saved=scene.storage_ok,
            score=scene.score,
            position=position,
            lineup=referee.lineup if referee is not None else self.config.lineup,
            computers=scene.computers,
            level=scene.computer_level,
            thinking=scene.thinking and playing,
            computer_move=scene.computer_move if playing else None,
            clock=scene.clock,
            hint=scene.hint if playing else None,
            is_hint_wanted=scene.hint_wanted and playing,
            result=result,
        )
        return Snapshot(
            view=scene.view,
            screen=(display.screen if display is not None and display.screen else None) or self.screen(),
            public_screen=self.screen(show_pin=False),
            oled_frames=frames,
            oled_image=image,
            status_lights=devices.status_lights.lit() if devices.status_lights is not None else {},
            cell_lights=frozenset(devices.cell_lights.lit()) if devices.cell_lights is not None else frozenset(),
            game=game,
            findings=self.findings,
            remote=scene.remote,
            lights=lit_lights(scene),
            cells=lit_cells(scene),
            question=scene.question,
            answer=scene.answer,
            buttons=buttons_now(self.situation(), tuple(self.config.buttons)),
        )
