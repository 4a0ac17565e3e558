"""The daemon: the one composition root. Config in; drivers, referee, record and outputs
wired; then a loop that reads the switches and shows what the referee says.

``nestref run --config FILE`` runs it on the Pi (systemd keeps it running); the
simulator runs the very same :class:`Daemon` on the libraries' mock devices. The loop
wakes ``scan_hz`` times a second: it reads the matrix, hands the changes to the
referee, lets the referee's time move on, handles button presses, and refreshes the
OLED and the lights. SIGTERM or SIGINT stop it cleanly: the record is closed and the
lights and the OLED are left dark.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_host.daemon.buttons import ButtonAction, ButtonGestures, command_for
from firmware_host.daemon.computer import ComputerPlayer
from firmware_host.daemon.config import Config
from firmware_host.daemon.devices import Devices
from firmware_host.daemon.diagnostics import boot_checks
from firmware_host.daemon.outputs import Outputs
from firmware_host.daemon.own_screens import OwnScreenChord
from firmware_host.daemon.presenter import Presenter, View
from firmware_host.daemon.remote_play import RemotePlay, RemotePlayError
from firmware_host.daemon.sensor_logs import SensorLogs
from firmware_host.daemon.snapshot import GameShown, PrivateView, Snapshot
from firmware_host.daemon.switches import SwitchMap
from firmware_host.daemon.tunes import Cue, cue_for, tune
from firmware_host.games.base import ComputerChoice, HiddenPieces, Move, Position, Side, players_set_up, public_view
from firmware_host.recorder.service import RefereeService
from firmware_host.recorder.store import GameStore, GameSummary, RecordedGame, StorageUnavailableError
from firmware_host.records import GameRecord
from firmware_host.referee.referee import CommandError, Mode
from firmware_host.referee.sensor_log import SensorLogHeader
from firmware_host.referee.signals import GameStarted, SetupProgress, SetupState, Signal
from firmware_host.remote.kept import kept_path, nest_name
from hardware.buttons import PinButtons
from hardware.sensors import Crossing, ScanUpdate

if TYPE_CHECKING:
    import asyncio  # imported by run(): a nest without its web page never loads it

logger = logging.getLogger(__name__)

BOOT_SCANS = 10  # scans of the self-test at start, nobody touching the nest
ACTIVE_S = 30.0  # after a change, scan fast for this long
ASLEEP_S = 300.0  # after this long without a change nobody is playing: scan slower still
# The computer searches in a process of its own, but the daemon has threads beside the
# loop (a real OLED's frame thread, gpiozero's for buttons on pins, the computer's
# listener): a thread that holds the interpreter hands it back to the loop this often
# (Python's default, 5 ms, would let one delay a scan by that much).
SWITCH_INTERVAL_S = 0.0005


class Daemon:
    """The referee at work on one nest."""

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
        self.config = config
        self.devices = devices
        self.clock = clock
        self.wall_clock = wall_clock
        self.presenter = Presenter(
            config.game,
            address=address,
            computers=config.referee.computers,
            computer_level=config.computer_level,
        )
        seed = computer_seed if computer_seed is not None else int(wall_clock() * 1000) % 2**32
        self._seed = seed
        self.computer = ComputerPlayer(
            config.game,
            level_number=config.computer_level,
            seed=seed,
            deliver=lambda history, result: self.post(lambda: self._computer_chose(history, result)),
        )
        self.gestures = ButtonGestures()
        self._own_screens: OwnScreenChord | None = None  # each side's PIN, shown while two buttons are held
        self._own_screen_shown: Callable[[Side], None] = lambda side: None
        self.service: RefereeService | None = None  # started once the switches are read
        self._t0 = clock()
        self._store: GameStore | None = None
        self._recorded: RecordedGame | None = None  # the last game as read from the record
        self._is_recorded_stale = True  # something was recorded since it was read
        self._commands: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        # Released by post(), held otherwise: run_alone's wait on it ends early when
        # something is posted. A bare lock's timed acquire is one call, as a plain sleep
        # is; an Event's wait runs a dozen lines of Python at every wake-up.
        self._posted = threading.Lock()
        self._posted.acquire()
        self._asleep: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None  # run()'s sleep
        self._pin_buttons: PinButtons | None = None
        self.switch_map = SwitchMap(config.matrix, config.game.board)
        self._closed: frozenset[Crossing] = frozenset()
        self._last_activity = float("-inf")
        self._quiet_until: float = 0  # referee ms: until then a turn that reads no change ends after the scan
        self._sensor_logs = SensorLogs(config.sensor_log, wall_clock=wall_clock) if config.sensor_log else None
        self._self_tested = False
        self._paused = False
        self._switch_interval = sys.getswitchinterval()  # Python's own, restored on close
        self.outputs = Outputs(devices, clock)
        self.findings: list[str] = []
        self._listeners: list[Callable[[Signal], None]] = []
        self._cue_listeners: list[Callable[[Cue], None]] = []
        self._hint_for: tuple[Move, ...] | None = None  # the moves before the position a hint is wanted in
        self.remote: RemotePlay | None = None  # with a [broker]: the other nest seated as the computer
        if config.broker is not None:
            self.remote = RemotePlay(
                config.game,
                config.broker,
                nest_name=remote_nest or config.remote_nest or nest_name(socket.gethostname()),
                nest=self,
                kept=kept_path(config.database),
                lineup=config.lineup,
                first_starter=config.referee.first_starter,
                clock=clock,
            )
        self._own_setups: dict[Side, object] = {}  # what each player's screen gave, for that screen alone
        self._setup_progress: dict[Side, SetupProgress] = {}
        # The game as one that hides its pieces, or None; asked once, not every turn:
        # two checks against a runtime protocol were a quarter of a whole turn.
        self._hiding: HiddenPieces | None = config.game if isinstance(config.game, HiddenPieces) else None
        self._turn_ends: list[Callable[[], None]] = []

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Open the record and the buttons, run the boot self-test, show "starting"."""
        config = self.config
        if config.database != ":memory:":
            folder = Path(config.database).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageUnavailableError(
                    f"{config.database}: cannot make the folder {folder}: {error.strerror}"
                ) from None
        self._store = GameStore(config.database, game=config.game, clock=self.wall_clock)
        pins = {name: pin for name, pin in config.buttons.items() if pin is not None}
        if pins:
            self._pin_buttons = PinButtons(pins, pin_factory=self.devices.pin_factory, on_change=self.button_changed)
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        if config.referee.computers:  # started now, so that its first move does not wait for it
            self.computer.start()
        self._self_test()
        if self.remote is not None:
            # Told the signals after the listeners already subscribed (the page; a
            # benchmark's clock, which so sees a move accepted before it is sent).
            self.subscribe(self.remote.heard)
            self.remote.start()
        self._show()
        logger.info(
            "daemon started",
            extra={
                "fields": {"backend": config.sensors.backend, "game": config.game.name, "board": config.game.board.name}
            },
        )

    def _close_sensor_log(self) -> None:
        if self._sensor_logs is not None:
            self._sensor_logs.close()

    def close(self) -> None:
        """Stop cleanly: the record closed, buttons released, lights and OLED dark."""
        if self.remote is not None:
            self.remote.close()
        self.computer.close()
        sys.setswitchinterval(self._switch_interval)
        if self._pin_buttons is not None:
            self._pin_buttons.close()
        self._close_sensor_log()
        if self._store is not None:
            self._store.close()
        self.devices.close()
        logger.info("daemon stopped")

    def run_alone(self, stop: threading.Event) -> None:
        """Loop until ``stop`` is set, sleeping between turns, when nothing shares the
        thread (no web page): a plain sleep wakes for less than half the CPU of an
        asyncio loop's wake-up (benchmarks/daemon_speed.py), which counts 200 times a
        second. ``stop`` is seen within one scan period. Something posted (the other
        nest's move, a button on a pin, the computer's choice) wakes it at once, not at
        the next scan: a still nest scans at 20 Hz or slower, which would add up to 50 ms or more."""
        next_at = self.clock()
        while not stop.is_set():
            self.turn()
            next_at = max(next_at + self.period(), self.clock())
            self._posted.acquire(True, max(0.0, next_at - self.clock()))  # (posted during the turn: at once)

    async def run(self, stop: asyncio.Event) -> None:
        """Loop until ``stop`` is set, in an asyncio loop shared with the web page."""
        import asyncio

        loop = asyncio.get_running_loop()
        next_at = self.clock()
        try:
            while not stop.is_set():
                self._posted.acquire(blocking=False)  # a post before this turn: this turn takes it
                self.turn()
                next_at = max(next_at + self.period(), self.clock())
                # asyncio.sleep's own way (a future and a timer), so that something posted
                # from another thread ends it early: the stop is seen within one scan
                # period, and no task is made a turn (as waiting on an event would).
                asleep = loop.create_future()
                self._asleep = (loop, asleep)
                if self._posted.acquire(blocking=False):  # posted during the turn
                    asleep.set_result(None)
                timer = loop.call_later(max(0.0, next_at - self.clock()), _wake, asleep)
                await asleep
                timer.cancel()
        finally:
            self._asleep = None

    # -- the loop -------------------------------------------------------------------------

    def period(self) -> float:
        """Seconds to the next turn: ``scan_hz`` while a move is under way (a piece in
        a hand) or the switches changed in the last ``ACTIVE_S``; ``idle_scan_hz`` once
        the nest is still (a move starts with a lift or a slide, seen within one idle
        period; fast scanning then catches a capture's flickers), and ``asleep_scan_hz``
        once it has been still for ``ASLEEP_S`` (a long think stays at the idle rate). A
        tune playing is played at the fast rate too: its notes are some tens of ms."""
        sensors = self.config.sensors
        still_for = self.clock() - self._last_activity
        if (
            still_for < ACTIVE_S
            or (self.service is not None and self.service.referee.move_in_progress)
            or self.outputs.is_sounding
        ):
            return 1 / sensors.scan_hz
        return 1 / (sensors.idle_scan_hz if still_for < ASLEEP_S else sensors.asleep_scan_hz)

    def now_ms(self) -> int:
        """The referee's clock: milliseconds since the daemon started."""
        return int((self.clock() - self._t0) * 1000)

    def turn(self) -> None:
        """One turn of the loop; a bug in it is logged and the referee starts again from
        the record, rather than leaving the players without a referee."""
        try:
            self.step()
        except Exception:
            logger.exception("the loop failed; the referee starts again from the record")
            self.restart()

    def step(self) -> None:
        """One turn of the loop: switches, commands, time, outputs. A quiet turn (the
        switches as they were, nothing asked, nothing due) ends after the scan: most of
        an idle nest's turns are such, and the rest of a turn costs twice the scan."""
        now = self.now_ms()
        updates = self.devices.switches.poll()
        if now < self._quiet_until and self._is_quiet(updates):
            return
        if updates and not self._self_tested:
            self._self_test(updates)  # a serial scanner's first reports come a little late
        for update in updates:
            self._on_scan(update, now)
        self._check_link()
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                break
            command()
        for action in self.gestures.tick(now / 1000):
            self._on_button(action, now)
        if self.remote is not None:
            self._remote_turn(now)
        if self.service is not None and not self._paused:
            self._publish(self.service.tick(now))
            saved = (self.service.storage_ok, self.service.storage_trouble.value)
            if saved != (self.presenter.storage_ok, self.presenter.storage_trouble):
                self.presenter.storage_ok, self.presenter.storage_trouble = saved
                self._show()
            if self.service.low_time(now) is not None:
                self._sound(Cue.LOW_TIME)
            clock = self.service.clock_display(now)
            if clock != self.presenter.clock:  # a game with a clock: its time, every second
                self.presenter.clock = clock
                self._show()
        self._set_up_computers()
        self._drive_computer()
        self.outputs.refresh()
        for ended in self._turn_ends:
            ended()
        self._quiet_until = self._next_due(now)

    def _is_quiet(self, updates: list[ScanUpdate]) -> bool:
        """Whether ``updates`` change nothing and nothing waits in the queue."""
        closed = self._closed
        for update in updates:  # (the matrix hands the last report again when nothing changed: ``is``)
            if update.flickered or (update.closed is not closed and update.closed != closed):
                return False
        return self._commands.empty() and self.devices.switches.connected == self.presenter.sensors_connected

    def _next_due(self, now: int) -> float:
        """Until when (referee ms) turns may be quiet: the first time something is due
        by itself — a referee deadline, a button's hold, a note, the record's next try,
        the link's tick, a blink — and never while the computer is wanted or the
        referee is not running (a game's start, a pause)."""
        service = self.service
        if (
            service is None
            or self._paused
            or not self._self_tested
            or service.referee.wants_computer_move
            or self._computer_setup_wanted()
        ):
            return now
        times = [service.next_deadline(now)]
        held = self.gestures.next_deadline()
        if held is not None:
            times.append(int(held * 1000))
        if self.outputs.is_sounding:
            times.append(now)
        for moment in (self.outputs.next_change(), self.remote.next_turn() if self.remote is not None else None):
            if moment is not None:  # a blink, the link's tick
                times.append(self._in_referee_ms(moment, now))
        return min((time for time in times if time is not None), default=math.inf)

    def _in_referee_ms(self, moment: float, now: int) -> int:
        """``moment`` of the loop's clock (the lights' and the link's), in referee ms."""
        return now + max(0, int((moment - self.clock()) * 1000))

    def restart(self) -> None:
        """Start the referee again from what the record holds (after a bug), with what
        the nest holds now; what was not yet recorded is felt again."""
        self.service = None
        self.gestures = ButtonGestures()
        self._close_sensor_log()
        with contextlib.suppress(Exception):
            self._start_referee(self._closed, self.now_ms())

    def post(self, command: Callable[[], None]) -> None:
        """Run ``command`` in the loop's next turn; safe from any thread."""
        self._commands.put(command)
        with contextlib.suppress(RuntimeError):  # released already: the loop is woken anyway
            self._posted.release()
        asleep = self._asleep
        if asleep is not None:  # run() sleeps in asyncio: woken through its loop
            asleep[0].call_soon_threadsafe(_wake, asleep[1])

    def button_changed(self, name: str, pressed: bool) -> None:
        """A button on a GPIO pin went down or up (from gpiozero's thread). The time is
        taken now, not when the loop gets to it, so a press is timed right."""
        now = self.now_ms()
        self.post(lambda: self._on_button_change(name, pressed, now))

    # -- the computer -----------------------------------------------------------------------

    def _drive_computer(self) -> None:
        """Have the computer choose while the referee wants its move, or a hint the
        players asked for in the position they are in; stop it otherwise."""
        service = self.service
        if service is None or self._paused:
            self.computer.want(None)
            return
        referee = service.referee
        if referee.wants_computer_move:
            is_remote = self.remote is not None and self.remote.is_paired  # the other nest chooses
            self.computer.want(None if is_remote else referee.position)
            return
        position = referee.position
        if self._hint_for is not None and (position is None or position.move_stack != self._hint_for):
            self._hint_for = None  # a move, a take back or a new game came first
        self.computer.want(position if self._hint_for is not None else None)

    def ask_hint(self) -> None:
        """The players ask for a hint (switch pressed twice, or the page): the engine
        chooses the side to move's move at the computer's level, in its own process as
        for its own moves, and it is lit on the nest and said on the OLED; the move made
        next is marked in the record. From the loop. Raises :class:`CommandError` when no
        hint can be given now (no game, the computer's turn, a question open)."""
        service = self.service
        referee = service.referee if service is not None else None
        position = referee.position if referee is not None else None
        if referee is None or position is None or referee.mode is not Mode.PLAYING or self.presenter.question:
            raise CommandError("a hint is for a person's turn in a game")
        if position.turn in referee.computers:
            raise CommandError("it is the computer's turn: it needs no hint")
        if self.presenter.hint is not None or self._hint_for == position.move_stack:
            return  # given, or on its way
        self._hint_for = position.move_stack
        self.presenter.hint_wanted = True
        logger.info("a hint is asked for", extra={"fields": {"side": position.turn.label}})
        self._show()

    def _computer_chose(self, history: tuple[Move, ...], result: ComputerChoice) -> None:
        """The engine's choice, in the loop: shown, if still wanted for that position."""
        service = self.service
        if service is None or not self.computer.is_searching_for(history):
            return  # a take back, a new game or a person taking over came first
        position = service.referee.position
        if self._hint_for == history and position is not None and position.move_stack == history:
            self._hint_chosen(service, history, result)
            return
        if position is None or position.move_stack != history or not service.referee.wants_computer_move:
            return
        self.computer.delivered()
        logger.info("the computer chose %s", result.move, extra={"fields": dict(result.facts)})
        try:
            self._publish(service.play_computer_move(result.move, self.now_ms()))
        except CommandError as error:
            logger.error("the computer's move was not taken: %s", error)

    def _hint_chosen(self, service: RefereeService, history: tuple[Move, ...], result: ComputerChoice) -> None:
        self.computer.delivered()
        self._hint_for = None
        service.hint_shown(history)
        self.presenter.hint_wanted, self.presenter.hint = False, result.move
        logger.info("hint: %s", result.move, extra={"fields": dict(result.facts)})
        self._show()

    def set_players(self, computers: frozenset[Side], level_number: int | None = None) -> None:
        """The computer plays ``computers`` (none: people play both), at ``level_number``
        if given; from the loop (the web page posts it). Raises
        :class:`~firmware_host.daemon.computer.UnknownLevelError` for a level that does not
        exist."""
        if level_number is not None:
            self.computer.set_level(level_number)
            self.presenter.computer_level = level_number
        self.presenter.computers = computers
        if self.service is not None:
            self._publish(self.service.set_computers(computers, self.now_ms()))
        logger.info(
            "players",
            extra={
                "fields": {
                    "computer": " ".join(side.label for side in Side if side in computers) or "none",
                    "level": self.computer.level,
                }
            },
        )
        self._show()

    # -- remote play ------------------------------------------------------------------------

    def _remote_turn(self, now: int) -> None:
        assert self.remote is not None
        if self.service is not None and not self._paused:
            self._publish(self.remote.turn(self.service, now))
        shown = self.remote.shown_if_changed()
        if shown is not None and shown != self.presenter.remote:
            self.presenter.remote = shown
            self._show()

    def remote_action(self, kind: str, fields: dict[str, Any]) -> None:
        """A request of the page for remote play (``remote_offer``, ``remote_join``, ...:
        :meth:`RemotePlay.act`), in the loop's thread. Raises
        :class:`~firmware_host.daemon.remote_play.RemotePlayError`."""
        if self.remote is None:
            raise RemotePlayError("no broker: name one in the config's [broker] (or --broker)")
        try:
            self.remote.act(kind, fields, self.service, self.now_ms())
        finally:
            self._remote_turn(self.now_ms())
            self._show()

    def link_lost(self) -> None:
        """The remote link or the other nest dropped: its cue, on the piezo and the pages."""
        self._sound(Cue.LINK_LOST)

    def _check_link(self) -> None:
        """A serial scanner may come and go (a pulled cable): say so on the OLED."""
        connected = self.devices.switches.connected
        if connected != self.presenter.sensors_connected:
            self.presenter.sensors_connected = connected
            (logger.info if connected else logger.warning)("sensors %s", "connected" if connected else "not connected")
            self._show()

    def recorded_game(self) -> RecordedGame | None:
        """The last game as the record has it: what a screen may show as played. Read
        again only after something new was recorded; while the record cannot be read
        (another program holds it), what was read last, which is on disk too."""
        if self._is_recorded_stale and self._store is not None:
            try:
                self._recorded = self._store.last_game()
                self._is_recorded_stale = False
            except StorageUnavailableError as error:
                logger.debug("%s; the page shows the game as last read", error)
        return self._recorded

    def past_games(self) -> list[GameSummary]:
        """Every game in the record, oldest first (the page's history). Raises
        :class:`StorageUnavailableError` if the record cannot be read now."""
        if self._store is None:
            return []
        return self._store.games()

    def past_game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` of the record as a game record (what ``nestref export``
        writes). Raises :class:`~firmware_host.recorder.store.UnknownGameError`,
        :class:`~firmware_host.recorder.store.StoreError` and
        :class:`StorageUnavailableError`."""
        if self._store is None:
            raise StorageUnavailableError("the game record is not open yet")
        return self._store.game_record(game_id)

    def waiting_moves(self) -> list[Move]:
        """The moves the referee accepted that wait to be recorded (the record cannot
        be written): shown as waiting, not as played."""
        return self.service.waiting_moves() if self.service is not None else []

    # -- for the web page and the simulator ---------------------------------------------------

    def subscribe(self, listener: Callable[[Signal], None]) -> None:
        """Have ``listener`` told every signal of the referee, once it is recorded."""
        self._listeners.append(listener)

    def subscribe_cues(self, listener: Callable[[Cue], None]) -> None:
        """Have ``listener`` told every cue the daemon sounds (or would, with ``[sound]
        enabled``), as it sounds it: the page plays them too."""
        self._cue_listeners.append(listener)

    def at_turn_end(self, callback: Callable[[], None]) -> None:
        """Have ``callback`` called at the end of every turn of the loop, in its thread
        (the live board's feed takes its snapshot there, once a turn's signals are all
        announced); it must be quick, and catch its own errors."""
        self._turn_ends.append(callback)
        self._quiet_until = 0  # its first call: at the end of the next turn, a whole one

    def snapshot(self) -> Snapshot:
        """What the nest shows now."""
        presenter, devices = self.presenter, self.devices
        display = devices.display
        recorded = self.recorded_game() if presenter.view not in (View.STARTING, View.SETUP) else None
        service = self.service
        referee = service.referee if service is not None else None
        playing = presenter.view in (View.PLAYING, View.QUESTION, View.CORRECTING)
        if display is None:
            frames, image = 0, None
        else:  # luma's dummy device keeps the frame it was sent; a real one does not
            sent = getattr(display.device, "image", None)
            frames, image = display.frames, display.image if sent is None else sent
        game = GameShown(
            number=presenter.number,
            to_move=presenter.side if playing else None,
            moves=tuple(recorded.moves) if recorded is not None else (),
            waiting=tuple(str(move) for move in self.waiting_moves()),
            saved=presenter.storage_ok,
            score=presenter.score,
            position=recorded.position if recorded is not None else "",
            lineup=referee.lineup if referee is not None else self.config.lineup,
            computers=presenter.computers,
            level=presenter.computer_level,
            thinking=presenter.thinking and playing,
            computer_move=presenter.computer_move if playing else None,
            clock=presenter.clock,
        )
        return Snapshot(
            view=presenter.view,
            screen=(display.screen if display is not None and display.screen else None) or presenter.screen(),
            public_screen=presenter.screen(show_pin=False),
            oled_frames=frames,
            oled_image=image,
            status_lights=devices.status_lights.lit() if devices.status_lights is not None else {},
            cell_lights=frozenset(devices.cell_lights.lit()) if devices.cell_lights is not None else frozenset(),
            game=game,
            findings=tuple(self.findings),
            remote=presenter.remote,
        )

    # -- the players' own screens (a game that hides pieces) -----------------------------

    def give_setup(self, side: Side, text: str) -> None:
        """``side``'s whole set-up, in the game's set-up notation, from its player's own
        screen; from the loop (the web page's server runs in it). Raises a
        :class:`~firmware_host.errors.NestrefError` saying what is wrong with it, or
        :class:`CommandError` when no set-up is awaited."""
        service = self._setup_service()
        hiding = players_set_up(self.config.game)
        assert hiding is not None
        setup = hiding.read_setup(side, text)
        if setup.side is not side:
            raise CommandError(f"that set-up is {setup.side.label}'s, not {side.label}'s")
        self._publish(service.give_setup(setup, self.now_ms()))
        self._own_setups[side] = setup

    def guide_setup(self, side: Side) -> None:
        """``side`` places its pieces one at a time, as its own screen asks. Raises
        :class:`CommandError` when no set-up is awaited."""
        self._publish(self._setup_service().guide_setup(side, self.now_ms()))
        self._own_setups.pop(side, None)

    def clear_setup(self, side: Side) -> None:
        """``side``'s set-up withdrawn. Raises :class:`CommandError` when none is awaited."""
        self._publish(self._setup_service().clear_setup(side, self.now_ms()))
        self._own_setups.pop(side, None)

    def _set_up_computers(self) -> None:
        """A side the computer plays has no screen to give its set-up from: while the
        referee waits for it, the daemon gives one drawn for it (the game's
        ``computer_setup``). The computer itself still plays from its view alone."""
        game = self._hiding
        if game is None or self.service is None or self._paused:
            return
        for side in self._computer_sides_to_set_up():
            setup = game.computer_setup(side, self._seed + self.presenter.number)
            try:
                self._publish(self.service.give_setup(setup, self.now_ms()))
            except CommandError as error:
                logger.info("no set-up for the computer's side now: %s", error)
                self._setup_progress.pop(side, None)  # not asked again until the referee says so
            else:
                logger.info("the computer's side is set up", extra={"fields": {"side": side.label}})

    def _computer_sides_to_set_up(self) -> list[Side]:
        """The computer's sides the referee waits for a set-up of."""
        return [
            side
            for side in self.presenter.computers
            if (progress := self._setup_progress.get(side)) is not None and progress.state is SetupState.WAITING
        ]

    def _computer_setup_wanted(self) -> bool:
        return self._hiding is not None and bool(self._computer_sides_to_set_up())

    def _setup_service(self) -> RefereeService:
        if players_set_up(self.config.game) is None:
            raise CommandError(f"{self.config.game.title} has no set-ups made on the players' screens")
        if self.service is None:
            raise CommandError("the referee has not started yet")
        return self.service

    def private_view(self, side: Side) -> PrivateView | None:
        """What ``side``'s own screen shows (None: the game hides nothing). Private: for
        that player's authenticated screen alone."""
        game = self._hiding
        if game is None:
            return None
        referee = self.service.referee if self.service is not None else None
        position = referee.position if referee is not None else None
        progress = self._setup_progress.get(side)
        setting_up = self.presenter.view in (View.SETUP, View.STARTING) or position is None
        if setting_up:
            setup = self._own_setups.get(side)
            cells = dict(game.setup_letters(setup)) if setup is not None else {}
        else:
            assert position is not None
            cells = dict(game.letters_seen_by(position, side))
        return PrivateView(
            side=side,
            cells=cells,
            setup_state=(progress.state.value if progress is not None else "waiting") if setting_up else "",
            placed=progress.placed if progress is not None else 0,
            total=progress.total if progress is not None else 0,
            prompt=referee.placement_prompt(side) if referee is not None and setting_up else None,
        )

    def show_address(self, address: str) -> None:
        """The web page's address, on the OLED's bottom line."""
        self.presenter.address = address
        self._show()

    def show_pin(self, pin: str) -> None:
        """The PIN that lets a page at another machine act, on the OLED's bottom line
        (and nowhere else)."""
        self.presenter.pin = pin
        self._show()

    def position_now(self) -> Position | None:
        """The game's position as the referee has it now (the simulator starts a sensor
        log from it), or None between games."""
        return (
            self.service.referee.position.copy() if self.service is not None and self.service.referee.position else None
        )

    def pause(self) -> None:
        """Stop refereeing while the simulator rearranges the nest (a replay's start):
        the switches are still read, but nobody is told."""
        self._paused = True
        self._quiet_until = 0

    def begin_game_from(self, position: Position) -> None:
        """A new set from ``position``, at once, the nest taken to show it (a replay
        starts so); refereeing goes on if it was paused."""
        self._close_sensor_log()
        self._start_referee(self._closed, self.now_ms(), position=position)
        self._paused = False

    def _on_scan(self, update: ScanUpdate, now: int) -> None:
        previous, self._closed = self._closed, update.closed
        if self._paused:
            return
        if self.service is None:  # the first reading: what the nest holds at start
            self._start_referee(update.closed, now)
            return
        readings = self.switch_map.readings(previous, update)
        if any(self.switch_map.names.get(crossing) not in self.presenter.faults for crossing, _ in readings):
            self._last_activity = self.clock()  # a faulty switch's noise does not keep the scan fast
        for crossing, closed in readings:
            self._reading(crossing, closed, now)

    def _reading(self, crossing: Crossing, closed: bool, now: int) -> None:
        switch_map = self.switch_map
        if crossing in switch_map.cells:
            cell = switch_map.cells[crossing]
            if self._sensor_logs is not None:
                self._sensor_logs.reading(
                    now, cell, closed, header=lambda: self._sensor_log_header(switch_map.cells_in(self._closed))
                )
            assert self.service is not None
            self._publish(self.service.sense(cell, closed, now))
        elif crossing in switch_map.buttons:
            self._on_button_change(switch_map.buttons[crossing], closed, now)

    def _start_referee(self, closed: frozenset[Crossing], now: int, position: Position | None = None) -> None:
        """Resume the record's game; or, given ``position``, begin a new set from it."""
        config = self.config
        assert self._store is not None
        occupied = self.switch_map.cells_in(closed)
        self.service = RefereeService.start(
            config.game,
            settings=dataclasses.replace(config.referee, computers=self.presenter.computers),  # as last chosen
            store=self._store,
            announce=self._announce,
            lineup=config.lineup,
            occupied=occupied,
            now=now,
            position=position,
            resume=position is None,
            control=config.clock,
        )
        self._is_recorded_stale = True
        self._open_sensor_log(occupied)
        self._show()

    def _sensor_log_header(self, occupied: list[str]) -> SensorLogHeader:
        position = self.service.referee.position if self.service is not None else None
        public = public_view(self.config.game, position) if position is not None else None
        return SensorLogHeader(public, tuple(occupied))

    def _open_sensor_log(self, occupied: list[str]) -> None:
        """Begin a sensor log of the raw readings, with what the nest holds."""
        if self._sensor_logs is not None and self.service is not None:
            self._sensor_logs.begin(self._sensor_log_header(occupied))

    # -- buttons --------------------------------------------------------------------------

    def _on_button_change(self, name: str, pressed: bool, now: int) -> None:
        chord = self._own_screens
        if chord is not None and chord.change(name, pressed):  # two buttons held: a side's own PIN
            self.gestures = ButtonGestures()  # nothing the chord began is a press
            shown = chord.shown()
            self.presenter.own_screen = (shown[0].label, shown[1]) if shown is not None else None
            if shown is not None:
                self._own_screen_shown(shown[0])
            self._show()
            return
        for action in self.gestures.change(name, pressed, now / 1000):
            self._on_button(action, now)

    def show_own_screens(self, pins: dict[Side, str], *, shown: Callable[[Side], None]) -> None:
        """Each side's own PIN, which the OLED shows while that side's two buttons are
        held together (:mod:`.own_screens`) and nowhere else; ``shown`` is told whose."""
        self._own_screens = OwnScreenChord(pins)
        self._own_screen_shown = shown

    def _on_button(self, action: ButtonAction, now: int) -> None:
        """What a press means depends on what the nest is doing (docs/daemon.md)."""
        if self.service is None or (self._own_screens is not None and self._own_screens.is_on):
            return
        logger.info("button", extra={"fields": {"button": action.button, "press": action.press.value}})
        remote, question_open = self.remote, self.presenter.answer is not None
        if remote is not None and remote.button(action, self.service, now, question_open=question_open):
            self._remote_turn(now)
            self._show()
            return
        try:
            lineups = self.config.game.lineups
            command_for(
                action,
                self.service,
                self.presenter,
                lineups=lineups,
                set_players=self.set_players,
                ask_hint=self.ask_hint,
            )(now)
        except CommandError as error:
            logger.info("button ignored: %s", error)
        self._show()

    # -- outputs --------------------------------------------------------------------------

    def _announce(self, signal: Signal) -> None:
        """A signal, already recorded: log it, show it, pass it on."""
        self._is_recorded_stale = True
        logger.info(signal.to_text(), extra={"fields": {"signal": type(signal).__name__}})
        self.presenter.apply(signal)
        if isinstance(signal, SetupProgress):
            self._setup_progress[signal.side] = signal
        elif isinstance(signal, GameStarted):
            self._own_setups.clear()  # the game has them now: the screens show its position
        cue = cue_for(signal, move_accepted=self.config.sound.move_accepted)
        if cue is not None:
            self._sound(cue)
        for listener in self._listeners:
            listener(signal)

    def _sound(self, cue: Cue) -> None:
        """Sound ``cue`` on the piezo (with ``[sound] enabled``), and tell the pages (which
        have their own mute)."""
        if self.config.sound.enabled:
            self.outputs.sound(tune(cue))
        for listener in self._cue_listeners:
            listener(cue)

    def _publish(self, signals: list[Signal]) -> None:
        self._quiet_until = 0  # the referee was asked something, maybe between turns: a whole turn next
        if signals:
            self._show()

    def redraw(self) -> None:
        """Show again what the presenter says (after something outside the referee
        changed it, such as the web page's address)."""
        self._show()

    def _show(self) -> None:
        self.outputs.show(self.presenter)
        # What is shown changed, maybe outside a turn (the page's actions call in from
        # the loop's own thread, between turns): the next turn is a whole one.
        self._quiet_until = 0

    def _self_test(self, first: list[ScanUpdate] | None = None) -> None:
        """Scan a few times with nobody touching the nest; report what is wrong on the
        OLED until the first move, and in the log."""
        scans = [update.closed for update in first or []]
        for _ in range(BOOT_SCANS if first is None else 0):
            scans += [update.closed for update in self.devices.switches.poll()]
        if not scans:
            return  # a serial scanner has not reported yet: the test runs on its first report
        self._self_tested = True
        empty_expected = not self._store_holds_game()
        occupied = self.switch_map.cells_in(scans[-1]) if empty_expected else []
        findings = boot_checks(scans, self.config.matrix, occupied=occupied)
        for finding in findings:
            self.findings.append(finding.to_text())
            logger.warning("self-test: %s", finding.to_text())
        if findings:  # on the OLED until the first move; the log has the words
            self.presenter.notice = "check " + " ".join(place for f in findings for place in f.where)
        if first is None:
            self._on_scan(ScanUpdate(scans[-1]), self.now_ms())

    def _store_holds_game(self) -> bool:
        saved = self._store.load() if self._store is not None else None
        return saved is not None and saved.position is not None

    @property
    def view(self) -> View:
        return self.presenter.view


def _wake(asleep: asyncio.Future[None]) -> None:
    """End the loop's sleep in :meth:`Daemon.run` (its timer, or something posted)."""
    if not asleep.done():
        asleep.set_result(None)
