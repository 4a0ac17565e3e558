"""The daemon's loop: the host of its parts (:mod:`firmware_host.daemon.parts`).

It wakes ``scan_hz`` times a second (slower once the nest is still): it reads the
switch matrix and hands each change to the parts and the referee, runs what was posted
to it from other threads, lets the referee's time move on, and gives every part its
turn; each signal the referee announces (already recorded) goes to the scene, the parts
and the listeners, and whatever changed is shown again from the scene and the parts'
gathered statuses. A turn that reads no change, with nothing posted and nothing due, ends after
the scan: the parts say when they next need a whole turn. What the parts are is the
composition root's (:mod:`firmware_host.daemon.root`); the loop knows none of them but
the sensors'.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from firmware_host.daemon.config import Config
from firmware_host.daemon.devices import Devices
from firmware_host.daemon.parts.buttons import Buttons
from firmware_host.daemon.parts.outputs import Outputs
from firmware_host.daemon.parts.part import Part
from firmware_host.daemon.parts.record import Record
from firmware_host.daemon.parts.sensors import Sensors
from firmware_host.daemon.presenter import Scene, View
from firmware_host.daemon.screens import screen
from firmware_host.daemon.statuses import Gathered, gather
from firmware_host.daemon.switches import SwitchMap
from firmware_host.daemon.tunes import Cue
from firmware_host.games.base import Position
from firmware_host.recorder.service import RefereeService
from firmware_host.referee.signals import Signal
from hardware.outputs import Screen
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
HOOKS = ("sensed", "heard", "turn", "next_due", "status")  # those the loop calls on every part, often


class Loop:
    """The referee at work on one nest: the switches read, the parts run in turn."""

    def __init__(
        self,
        config: Config,
        devices: Devices,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.devices = devices
        self.clock = clock
        self.wall_clock = wall_clock
        # What the outputs show: replaced whole, by each signal and by the parts' statuses.
        self.scene = Scene(config.game, computers=config.referee.computers, computer_level=config.computer_level)
        self.service: RefereeService | None = None  # started once the switches are read
        self.paused = False
        self.switch_map = SwitchMap(config.matrix, config.game.board)
        self.parts: list[Part] = []  # in the order they take their turns (the root lists them: set_parts)
        self._hooked: dict[str, list[Part]] = {}  # by hook: the parts that have it (a loop over no-ops costs)
        self._gathered: Gathered | None = None  # what the scene last took of the parts
        # The parts the loop itself needs: the record it starts the referee on, the
        # sensors it tests, the buttons of the matrix, the outputs it draws.
        self.record = Record(self)
        self.sensors = Sensors(self)
        self.outputs = Outputs(devices, clock, config.sound)
        self.buttons: Buttons | None = None  # the root's
        self._t0 = clock()
        self._commands: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        # Released by post(), held otherwise: run_alone's wait on it ends early when
        # something is posted. A bare lock's timed acquire is one call, as a plain sleep
        # is; an Event's wait runs a dozen lines of Python at every wake-up.
        self._posted = threading.Lock()
        self._posted.acquire()
        self._asleep: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None  # run()'s sleep
        self._closed: frozenset[Crossing] = frozenset()
        self._last_activity = float("-inf")
        self._quiet_until: float = 0  # referee ms: until then a turn that reads no change ends after the scan
        self._switch_interval = sys.getswitchinterval()  # Python's own, restored on close
        self._listeners: list[Callable[[Signal], None]] = []

    # -- the parts ------------------------------------------------------------------------

    def set_parts(self, parts: list[Part]) -> None:
        """The parts, in the order they take their turns."""
        self.parts = list(parts)
        self._hooked = {
            hook: [part for part in self.parts if getattr(type(part), hook) is not getattr(Part, hook)]
            for hook in HOOKS
        }
        self._quiet_until = 0  # a new part's first turn: a whole one

    def add_part(self, part: Part) -> None:
        """One part more, after the others (a live board's feed); started with the rest."""
        self.set_parts([*self.parts, part])

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Open the record, start the parts, run the boot self-test, show "starting"."""
        self.record.open()
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._self_test()
        for part in self.parts:  # (after the listeners subscribed: the page's, a benchmark's)
            part.start()
        self.show()
        config = self.config
        logger.info(
            "daemon started",
            extra={
                "fields": {"backend": config.sensors.backend, "game": config.game.name, "board": config.game.board.name}
            },
        )

    def close(self) -> None:
        """Stop cleanly: the parts closed (the record last), lights and OLED dark."""
        for part in reversed(self.parts):
            part.close()
        sys.setswitchinterval(self._switch_interval)
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
        """One turn of the loop: switches, what was posted, the referee's time, the parts."""
        now = self.now_ms()
        updates = self.devices.switches.poll()
        if now < self._quiet_until and self._is_quiet(updates):
            return
        if updates and not self.sensors.is_tested:
            self._self_test(updates)  # a serial scanner's first reports come a little late
        for update in updates:
            self._on_scan(update, now)
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                break
            command()
        if self.service is not None and not self.paused:
            self.publish(self.service.tick(now))
        for part in self._hooked["turn"]:
            part.turn(now)
        self._quiet_until = self._next_due(now)

    def _is_quiet(self, updates: list[ScanUpdate]) -> bool:
        """Whether ``updates`` change nothing and nothing waits in the queue."""
        closed = self._closed
        for update in updates:  # (the matrix hands the last report again when nothing changed: ``is``)
            if update.flickered or (update.closed is not closed and update.closed != closed):
                return False
        return self._commands.empty() and self.sensors.is_link_as_shown

    def _next_due(self, now: int) -> float:
        """Until when (referee ms) turns may be quiet: the first time something is due
        by itself — a referee deadline, or the first a part names — and never while the
        referee is not running (a game's start, a pause)."""
        service = self.service
        if service is None or self.paused or not self.sensors.is_tested:
            return now
        due: float = math.inf
        deadline = service.next_deadline(now)
        if deadline is not None:
            due = deadline
        for part in self._hooked["next_due"]:
            moment = part.next_due(now)
            if moment is not None and moment < due:
                due = moment
        return due

    def restart(self) -> None:
        """Start the referee again from what the record holds (after a bug), with what
        the nest holds now; what was not yet recorded is felt again."""
        self.service = None
        for part in self.parts:
            with contextlib.suppress(Exception):
                part.restarted()
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

    # -- the switches ---------------------------------------------------------------------

    def occupied(self) -> list[str]:
        """The cells the nest holds pieces on now, as the switches read."""
        return self.switch_map.cells_in(self._closed)

    def _on_scan(self, update: ScanUpdate, now: int) -> None:
        previous, self._closed = self._closed, update.closed
        if self.paused:
            return
        if self.service is None:  # the first reading: what the nest holds at start
            self._start_referee(update.closed, now)
            return
        switch_map = self.switch_map
        readings = switch_map.readings(previous, update)
        if any(switch_map.names.get(crossing) not in self.scene.faults for crossing, _ in readings):
            self._last_activity = self.clock()  # a faulty switch's noise does not keep the scan fast
        for crossing, closed in readings:
            if crossing in switch_map.cells:
                cell = switch_map.cells[crossing]
                for part in self._hooked["sensed"]:
                    part.sensed(cell, closed, now)
                self.publish(self.service.sense(cell, closed, now))
            elif crossing in switch_map.buttons and self.buttons is not None:
                self.buttons.changed(switch_map.buttons[crossing], closed, now)

    def _start_referee(self, closed: frozenset[Crossing], now: int, position: Position | None = None) -> None:
        """Resume the record's game; or, given ``position``, begin a new set from it."""
        config = self.config
        assert self.record.store is not None
        occupied = self.switch_map.cells_in(closed)
        self.service = RefereeService.start(
            config.game,
            settings=dataclasses.replace(config.referee, computers=self.scene.computers),  # as last chosen
            store=self.record.store,
            announce=self._announce,
            lineup=config.lineup,
            occupied=occupied,
            now=now,
            position=position,
            resume=position is None,
            control=config.clock,
        )
        for part in self.parts:
            part.referee_started(occupied)
        self.show()

    def _self_test(self, first: list[ScanUpdate] | None = None) -> None:
        """Scan a few times with nobody touching the nest; what is wrong is on the OLED
        until the first move, and in the log."""
        scans = [update.closed for update in first or []]
        for _ in range(BOOT_SCANS if first is None else 0):
            scans += [update.closed for update in self.devices.switches.poll()]
        if not scans:
            return  # a serial scanner has not reported yet: the test runs on its first report
        empty_expected = not self.record.holds_game()
        self.sensors.self_test(scans, self.switch_map.cells_in(scans[-1]) if empty_expected else [])
        if first is None:
            self._on_scan(ScanUpdate(scans[-1]), self.now_ms())

    def pause(self) -> None:
        """Stop refereeing while the simulator rearranges the nest (a replay's start):
        the switches are still read, but nobody is told."""
        self.paused = True
        self._quiet_until = 0

    def begin_game_from(self, position: Position) -> None:
        """A new set from ``position``, at once, the nest taken to show it (a replay
        starts so); refereeing goes on if it was paused."""
        self._start_referee(self._closed, self.now_ms(), position=position)
        self.paused = False

    # -- what the referee says, and what is shown -----------------------------------------

    def subscribe(self, listener: Callable[[Signal], None]) -> None:
        """Have ``listener`` told every signal of the referee, once it is recorded."""
        self._listeners.append(listener)

    def _announce(self, signal: Signal) -> None:
        """A signal, already recorded: log it, show it, pass it on."""
        logger.info(signal.to_text(), extra={"fields": {"signal": type(signal).__name__}})
        self.scene = self.scene.following(signal)
        for part in self._hooked["heard"]:
            part.heard(signal)
        for listener in self._listeners:
            listener(signal)

    def sound(self, cue: Cue) -> None:
        """Sound ``cue`` (on the piezo with ``[sound] enabled``), and tell the pages."""
        self.outputs.cue(cue)

    def publish(self, signals: list[Signal]) -> None:
        """The referee was asked something, maybe between turns: a whole turn next."""
        self._quiet_until = 0
        if signals:
            self.show()

    def gathered(self) -> Gathered:
        """Every part's status now, as one value."""
        return gather(part.status() for part in self._hooked["status"])

    def show(self) -> None:
        """Show the outputs again: the scene, with the parts' statuses gathered into it."""
        gathered = self.gathered()
        if gathered != self._gathered:  # (the parts' statuses change far less often than the scene)
            self._gathered, self.scene = gathered, self.scene.with_parts(gathered)
        announced = gathered.announcement
        self.outputs.show(self.scene, announced.screen if announced is not None else None)
        # What is shown changed, maybe outside a turn (the page's actions call in from
        # the loop's own thread, between turns): the next turn is a whole one.
        self._quiet_until = 0

    def screen(self, *, show_pin: bool = True) -> Screen:
        """What the OLED shows now (a part's announcement, or the scene's screen)."""
        announced = self.gathered().announcement
        if announced is not None:
            return announced.public if not show_pin and announced.public is not None else announced.screen
        return screen(self.scene, show_pin=show_pin)

    @property
    def view(self) -> View:
        return self.scene.view


def _wake(asleep: asyncio.Future[None]) -> None:
    """End the loop's sleep in :meth:`Loop.run` (its timer, or something posted)."""
    if not asleep.done():
        asleep.set_result(None)
