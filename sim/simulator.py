"""What the simulator's page can do to the nest: hands on the table, the buttons, sensor
logs replayed and recorded. Every act ends as reed switches closing and opening (or a
button's contact), which the daemon reads through its simulated hardware like any
other; nothing here tells the referee anything directly, but for a replay's start,
which begins a game from the log's position as ``nestref referee --events`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from firmware_host.daemon import Daemon
from firmware_host.daemon.remote_play import RemotePlayError
from firmware_host.errors import NestrefError
from firmware_host.games.base import Piece, PlayersSetUp, Side, public_view
from firmware_host.referee.referee import CommandError
from firmware_host.referee.sensor_log import (
    SensorEvent,
    SensorLogHeader,
    SensorLogStream,
    SensorLogWriter,
    stream_sensor_log,
)
from firmware_host.referee.signals import (
    GameOver,
    GameStarted,
    MoveAccepted,
    SetupNeeded,
    Signal,
    StrikeAnnounced,
    TakenBack,
)
from firmware_host.web.protocol import MAX_LOG_BYTES, ActionError
from hardware.sensors import Crossing
from sim.table import HeldPiece, Table, TableError

PRESS_S = 0.2  # a button pressed
HOLD_S = 2.5  # a button held (the daemon takes 2 s for a hold)
SET_UP_STEP_S = 0.02  # between two pieces put on by "set up"
REAL_TIME_GAP_MS = 1000  # a replay at speed keeps gaps up to this long as they were
SPEEDS = (0.1, 100.0)
RECORDING_RESERVE = 1024  # of a recording's MAX_LOG_BYTES, kept for its header and its last line
RECORDING_FULL = "the recording reached 1 MiB here: what followed was not recorded"  # its last comment


class SimulatorError(ActionError):
    """What the page asked cannot be done; the message says why. Nothing changed."""


class Switches(Protocol):
    """The simulated switch matrix (on mock pins, or the simulated Pico's)."""

    def set(self, position: Crossing, closed: bool) -> None: ...


class ButtonPins(Protocol):
    """A button on a GPIO pin of gpiozero's MockFactory."""

    def drive_low(self) -> None: ...
    def drive_high(self) -> None: ...


@dataclass
class Replay:
    """A sensor log being replayed, its events read one by one as they are played
    (memory stays flat, however many there are)."""

    log: SensorLogStream
    events: int  # in the log
    done: int = 0  # events applied so far
    speed: float = 1.0
    task: asyncio.Task[None] | None = None
    last_ms: int | None = None  # the time of the last event applied
    _next: SensorEvent | None = None

    def peek(self) -> SensorEvent:
        """The next event, not yet applied (there must be one)."""
        if self._next is None:
            self._next = next(self.log.events)
        return self._next

    def take(self) -> SensorEvent:
        """The next event, to apply now."""
        event, self._next = self.peek(), None
        self.done += 1
        self.last_ms = event.time_ms
        return event


@dataclass
class Recording:
    """The switch changes made since recording began, as a sensor log: written by the one
    writer (:attr:`writer`), from a header of public values only (the page it goes to is
    a shared one)."""

    header: SensorLogHeader
    started: float
    lines: list[str] = field(default_factory=list)  # each with its newline
    size: int = 0  # bytes of the log so far
    is_full: bool = False  # it reached MAX_LOG_BYTES: what came after is not in it
    writer: SensorLogWriter = field(init=False)

    def __post_init__(self) -> None:
        self.writer = SensorLogWriter(self._add)
        self.writer.comment("recorded by nestref sim")
        self.writer.header(self.header)

    def _add(self, line: str) -> None:
        """One more line, unless the log would grow past what the page can load again."""
        size = len(line.encode())
        if self.size + size > MAX_LOG_BYTES - RECORDING_RESERVE:
            self.is_full = True
        if not self.is_full:
            self.lines.append(line)
            self.size += size

    def text(self) -> str:
        """The log as it stands, saying where it stopped if it grew full (the reserve
        keeps room for that last comment)."""
        ending: list[str] = []
        if self.is_full:
            SensorLogWriter(ending.append).comment(RECORDING_FULL)
        return "".join([*self.lines, *ending])


class Simulator:
    """The simulated table of one daemon, and what hands and buttons do on it."""

    def __init__(
        self,
        daemon: Daemon,
        switches: Switches,
        *,
        pieces: Mapping[str, Piece],
        button_pin: Callable[[int], ButtonPins] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.daemon = daemon
        self.switches = switches
        self.button_pin = button_pin
        self.clock = clock
        self.replay: Replay | None = None
        self.recording: Recording | None = None
        self.table = Table(daemon.config.game.board, self._switch, pieces)
        self._setup_needed: SetupNeeded | None = None  # what the nest must show to start, as last said
        self._strike: StrikeAnnounced | None = None  # a strike announced and not yet made
        daemon.subscribe(self._on_signal)

    def _on_signal(self, signal: Signal) -> None:
        if isinstance(signal, SetupNeeded):
            self._setup_needed = signal
        if isinstance(signal, StrikeAnnounced):
            self._strike = signal
        elif isinstance(signal, MoveAccepted | TakenBack | GameStarted | GameOver):
            self._strike = None

    def _strike_winner(self, cell: str) -> HeldPiece | None:
        """The piece a player puts down on ``cell`` after a strike announced to end with
        its winner there: the one lifted off the square the winner stood on (the striker's
        when it won, else the struck piece), as the announcement says."""
        strike = self._strike
        if strike is None or strike.winner_on != cell:
            return None
        origin, target = strike.move.origin, strike.move.target
        stood_on = origin if origin not in strike.removed else target
        return self.table.lifted_from(stood_on) if stood_on is not None else None

    # -- acts --

    def table_message(self) -> dict[str, Any]:
        """The table as the page draws it: the pieces on the nest, in the hand, in the box."""
        table = self.table
        return {
            "type": "table",
            "cells": table.letters(),
            "hand": [{"id": held.id, "piece": held.piece.letter} for held in table.hand],
            "next": next_piece.id if (next_piece := table.next_to_put(self._side_to_move())) else None,
            "box": [{"id": held.id, "piece": held.piece.letter} for held in table.box],
        }

    async def act(self, kind: str, fields: Mapping[str, Any]) -> dict[str, Any] | None:
        """Do what a page asked (a checked message of docs/simulator.md); a message
        for that page alone, if there is one. Raises :class:`SimulatorError`."""
        table = self.table
        try:
            match kind:
                case "lift":
                    table.lift(fields["cell"])
                case "put":
                    piece = fields.get("piece")
                    if piece is None and (winner := self._strike_winner(fields["cell"])) is not None:
                        piece = winner.id  # the strike's winner goes down, whoever struck
                    table.put(fields["cell"], piece, side_to_move=self._side_to_move())
                case "knock":
                    table.knock(fields["cell"])
                case "take":
                    table.take(fields["piece"])
                case "drop":
                    table.drop(fields["piece"])
                case "clear":
                    table.clear()
                case "slide":
                    for step in table.slide_steps(fields["path"]):
                        await asyncio.sleep(step.pause_s)
                        step.act()
                case "button":
                    await self.press(fields["name"], hold=fields.get("hold", False))
                case "setup":
                    await self.set_up(fields.get("lineup"))
                case "players":
                    computers = frozenset(side for side in Side if fields[side.label] == "computer")
                    self.daemon.set_players(computers, fields.get("level"))
                case "log_load":
                    await self.load_log(fields["text"])
                case "replay_play":
                    self.play(fields.get("speed", 1.0))
                case "replay_pause":
                    self.pause()
                case "replay_step":
                    self.step()
                case "record_start":
                    self.start_recording()
                case "record_stop":
                    return self.stop_recording()
                case "hint":
                    self.daemon.ask_hint()
                case _ if kind.startswith("remote_"):
                    self.daemon.remote_action(kind, dict(fields))
                case _:
                    raise SimulatorError(f"unknown act {kind!r}")
        except (TableError, CommandError, RemotePlayError) as error:
            raise SimulatorError(str(error)) from None
        return None

    def _side_to_move(self) -> Side | None:
        """Whose move is being made on the nest, as the daemon shows it (None: no game on)."""
        return self.daemon.snapshot().game.to_move

    async def press(self, name: str, *, hold: bool = False) -> None:
        """A button pressed, or held, and let go."""
        pin = self.daemon.config.buttons[name]
        if pin is None:
            place = self.daemon.config.matrix[name]
            self.switches.set(place, True)
            await asyncio.sleep(HOLD_S if hold else PRESS_S)
            self.switches.set(place, False)
        else:
            if self.button_pin is None:
                raise SimulatorError(f"the {name} button is on GPIO{pin}, which this simulation cannot press")
            contact = self.button_pin(pin)
            contact.drive_low()  # a button shorts its pin to ground
            await asyncio.sleep(HOLD_S if hold else PRESS_S)
            contact.drive_high()

    async def set_up(self, lineup: str | None) -> None:
        """Every piece off the nest, then the lineup's put on, one by one. For a game
        whose players set up on their own screens, and no lineup named: the pieces put
        where the nest asks (the cells the referee says to fill and to empty)."""
        game = self.daemon.config.game
        hiding = game.setups
        if lineup is None and hiding is not None:
            await self._fill_as_asked(hiding)
            return
        name = lineup or self.daemon.snapshot().game.lineup
        pieces = self.daemon.config.game.lineup_pieces(name)
        for _ in self.table.set_up(pieces):
            await asyncio.sleep(SET_UP_STEP_S)

    async def _fill_as_asked(self, hiding: PlayersSetUp) -> None:
        needed = self._setup_needed
        if needed is None:
            return  # (nothing asked yet)
        game = self.daemon.config.game
        spares = {piece.side: piece for piece in game.lineup_pieces(game.lineups[0]).values()}
        home = {cell: side for side in Side for cell in hiding.setup_cells(side)}
        # A piece of the other side on a side's rows (left there by the game before) the
        # switches take for that side's: the players would put it back in the box and one
        # of their own there, and so does the simulator.
        wrong = [cell for cell, piece in self.table.cells.items() if cell in home and piece.side is not home[cell]]
        for cell in sorted({*needed.empty, *wrong}, key=game.board.index):
            if cell in self.table.cells:
                self.table.knock(cell)
                await asyncio.sleep(SET_UP_STEP_S)
        for cell in sorted({*needed.fill, *(set(wrong) - set(needed.empty))}, key=game.board.index):
            if cell not in self.table.cells:
                self.table.put_from_box(cell, home[cell], spares[home[cell]])
                await asyncio.sleep(SET_UP_STEP_S)

    # -- sensor logs --

    async def load_log(self, text: str) -> None:
        """Begin a replay: the game starts again from the log's position, with the nest
        set to it."""
        game = self.daemon.config.game
        size = len(text.encode("utf-8"))
        if size > MAX_LOG_BYTES:
            raise SimulatorError(f"the sensor log is {size:,} bytes: the simulator takes logs up to {MAX_LOG_BYTES:,}")

        def stream() -> SensorLogStream:
            return stream_sensor_log(lines_of(text), game=game, source="the sensor log")

        try:  # the whole log checked first, line by line, so that a bad line loads nothing
            log = stream()
            events = sum(1 for _ in log.events)
        except NestrefError as error:
            raise SimulatorError(str(error)) from None
        self.pause()
        start = log.start if log.start is not None else game.start(game.lineups[0], Side.RED)
        self.daemon.pause()  # the nest is rearranged: nothing to referee meanwhile
        self.table.set_exactly(start.pieces(), occupied=log.occupied)
        await asyncio.sleep(3 / self.daemon.config.sensors.asleep_scan_hz)  # the daemon reads the new nest
        self.daemon.begin_game_from(start)
        self.replay = Replay(stream(), events)

    def play(self, speed: float) -> None:
        """Play the loaded log on from where it is, ``speed`` times as fast."""
        replay = self._loaded()
        if not SPEEDS[0] <= speed <= SPEEDS[1]:
            raise SimulatorError(f"speed: from {SPEEDS[0]:g} to {SPEEDS[1]:g}")
        self.pause()
        replay.speed = speed
        if replay.done < replay.events:
            replay.task = asyncio.create_task(self._play(replay))

    def pause(self) -> None:
        if self.replay is not None and self.replay.task is not None:
            self.replay.task.cancel()
            self.replay.task = None

    def step(self) -> None:
        """The log's next event, at once."""
        replay = self._loaded()
        self.pause()
        if replay.done >= replay.events:
            raise SimulatorError("the sensor log has been replayed to its end")
        self._apply(replay)

    async def _play(self, replay: Replay) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while replay.done < replay.events:
                if replay.last_ms is not None:
                    await asyncio.sleep(replay_pause_s(replay.peek().time_ms - replay.last_ms, replay.speed))
                self._apply(replay)
            replay.task = None

    def _apply(self, replay: Replay) -> None:
        event = replay.take()
        self.table.sense(event.cell, event.occupied)

    def _loaded(self) -> Replay:
        if self.replay is None:
            raise SimulatorError("load a sensor log first")
        return self.replay

    def start_recording(self) -> None:
        """Record the switch changes from now, from what the nest holds: the game's
        position as everybody may see it (and the cells occupied, if they are not the
        position's)."""
        game = self.daemon.config.game
        position = self.daemon.position_now()
        public = public_view(game, position) if position is not None else None
        occupied = tuple(sorted(self.table.cells, key=game.board.index))
        self.recording = Recording(SensorLogHeader(public, occupied), self.clock())

    def stop_recording(self) -> dict[str, Any]:
        recording = self.recording
        if recording is None:
            raise SimulatorError("not recording")
        self.recording = None
        return {"type": "recording", "on": False, "text": recording.text()}

    def _switch(self, cell: str, closed: bool) -> None:
        self.switches.set(self.daemon.config.matrix[cell], closed)
        if self.recording is not None:
            at = round((self.clock() - self.recording.started) * 1000)
            self.recording.writer.reading(at, cell, closed)

    # -- for the page --

    def replay_message(self) -> dict[str, Any]:
        replay = self.replay
        return {
            "type": "replay",
            "loaded": replay is not None,
            "events": replay.events if replay else 0,
            "done": replay.done if replay else 0,
            "playing": bool(replay and replay.task),
            "speed": replay.speed if replay else 1.0,
        }

    def recording_message(self) -> dict[str, Any]:
        return {"type": "recording", "on": self.recording is not None}


def lines_of(text: str) -> Iterator[str]:
    r"""The lines of ``text``, each with its ``\n``, one at a time: only a newline ends a
    line, as in a file (``str.splitlines`` would break at a form feed too), and no copy
    of the text is made.

    >>> list(lines_of("0 c3-\n# a\fb\n5 c4+"))
    ['0 c3-\n', '# a\x0cb\n', '5 c4+']
    """
    start = 0
    while start < len(text):
        end = text.find("\n", start) + 1 or len(text)
        yield text[start:end]
        start = end


def replay_pause_s(gap_ms: int, speed: float) -> float:
    """How long a replay waits between two events ``gap_ms`` apart in the log. Slowed
    down, every gap grows. Sped up, only pauses longer than a second shrink (to one
    second at least): the daemon referees in real time, so the hands' own movements —
    a bounce, a slide, the referee's settle times — keep their timing."""
    if speed <= 1:
        return gap_ms / speed / 1000
    return max(min(gap_ms, REAL_TIME_GAP_MS), gap_ms / speed) / 1000
