"""Sensor logs: what the nest felt, as text (``sensor-log.md``).

One event per line, ``<time_ms> <cell><sign>``: ``-`` when the cell became empty, ``+``
when it became occupied. ``#`` starts a comment; before the first event, a comment
``# lineup: <name>`` or ``# position: <text>`` says what the nest holds at the start;
``# occupied: <cells>`` after it, that the nest holds those cells instead (the daemon
writes it when the nest does not show the game's position: pieces knocked over, say).
For a game whose players set up privately (the battle game), ``# setup red: <text>`` and
``# setup blue: <text>`` give each side's set-up instead, in the game's notation: the
nest starts empty (or as ``occupied`` says) and the events put the pieces down. Such a
log holds every hidden rank: it is a private record of the nest, like the game record.
``docs/sensor-log.md`` has the format.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Position, PublicView, Side

_CHANGE = re.compile(r"([a-z]+[0-9]+)([+-])")
_HEADER = re.compile(
    r"#\s*(lineup|position|occupied|setup red|setup blue|check red|check blue)\s*:\s*([^#]*?)\s*(#.*)?", re.IGNORECASE
)


class SensorLogError(NestrefError, ValueError):
    """A sensor log that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class SensorEvent:
    """One line of a log: at ``time_ms``, ``cell`` became occupied or empty."""

    time_ms: int
    cell: str
    occupied: bool
    line: int = 0  # in the file it came from; 0 if it came from elsewhere

    def to_text(self) -> str:
        return f"{self.time_ms} {self.cell}{'+' if self.occupied else '-'}"


@dataclass(frozen=True)
class SensorLog:
    """A parsed log: the position its header names (None: the usual lineup), and
    its events in order."""

    start: Position | None
    start_label: str | None  # the lineup name, or "position"
    events: tuple[SensorEvent, ...]
    occupied: frozenset[str] | None = None  # the cells held at the start, if not the position's
    setups: Mapping[Side, Any] = field(default_factory=dict)
    """The players' own set-ups, by side, for a game that has them (the game's values)."""
    checks: Mapping[Side, int] = field(default_factory=dict)
    """The sides whose pieces are checked against their set-ups, each with the seed of
    the order its pieces are asked for in (``# check red: 7``)."""


@dataclass(frozen=True)
class SensorLogStream:
    """A log being read line by line: its header, read before the first event, and its
    events, parsed as they are taken (memory stays flat, however long the log).
    ``events`` raises :class:`SensorLogError` when it reaches a bad line."""

    start: Position | None
    start_label: str | None
    events: Iterator[SensorEvent]
    occupied: frozenset[str] | None = None  # the cells held at the start, if not the position's
    setups: Mapping[Side, Any] = field(default_factory=dict)
    """The players' own set-ups, by side, for a game that has them (the game's values)."""
    checks: Mapping[Side, int] = field(default_factory=dict)
    """The sides whose pieces are checked against their set-ups, each with the seed of
    the order its pieces are asked for in (``# check red: 7``)."""


def stream_sensor_log(lines: Iterable[str], *, game: Game, source: str = "<sensor log>") -> SensorLogStream:
    """Read a sensor log from ``lines`` (an open text file, or any iterable of lines),
    the header at once and the events as they are taken. Only ``\\n`` ends a line (a
    form feed in a comment is part of the comment); a trailing ``\\r`` is dropped.
    Raises :class:`SensorLogError` naming the line and what is wrong with it: an unknown
    cell, a bad time, time going backwards, a second header, anything else that is not
    an event, a comment or a blank line."""
    parser = _LineParser(game, source)
    numbered = enumerate(lines, start=1)
    first: SensorEvent | None = None
    for number, line in numbered:
        first = parser.parse(line, number)
        if first is not None:
            break

    def events() -> Iterator[SensorEvent]:
        if first is None:
            return
        yield first
        for number, line in numbered:
            event = parser.parse(line, number)
            if event is not None:
                yield event

    return SensorLogStream(parser.start, parser.label, events(), parser.occupied, parser.setups, parser.checks)


def decoded_lines(binary: Iterable[bytes], *, source: str) -> Iterator[str]:
    """The lines of a file opened in binary, as text: UTF-8, split at ``\\n`` only.
    Raises :class:`SensorLogError` naming the line that is not UTF-8."""
    for number, raw in enumerate(binary, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise SensorLogError(f"{source}:{number}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def read_sensor_log(text: str, *, game: Game, source: str = "<sensor log>") -> SensorLog:
    """Parse the whole text of a sensor log (:func:`stream_sensor_log`, all at once)."""
    stream = stream_sensor_log(text.split("\n"), game=game, source=source)
    return SensorLog(
        stream.start, stream.start_label, tuple(stream.events), stream.occupied, stream.setups, stream.checks
    )


class _LineParser:
    """One line at a time: the header while no event has come, then events."""

    def __init__(self, game: Game, source: str) -> None:
        self.game = game
        self.board = game.board
        self.source = source
        self.start: Position | None = None
        self.label: str | None = None
        self.occupied: frozenset[str] | None = None
        self.setups: dict[Side, Any] = {}
        self.checks: dict[Side, int] = {}
        self.last_time = 0
        self.seen_event = False

    def parse(self, line: str, number: int) -> SensorEvent | None:
        """The event on ``line``, or None for a comment, a header or a blank line."""

        def fail(what: str) -> SensorLogError:
            return SensorLogError(f"{self.source}:{number}: {what}")

        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte-order mark from a Windows editor
        body, _, comment = line.rstrip("\r\n").partition("#")
        body = body.strip()
        if not body:
            header = _HEADER.fullmatch("#" + comment.strip()) if comment and not self.seen_event else None
            if header is not None:
                kind, value, _ = header.groups()
                if kind.lower() == "occupied":
                    self.occupied = self._cells(value, fail)
                    return None
                if kind.lower().startswith("setup"):
                    self._setup(Side.from_text(kind.split()[1].lower()), value, fail)
                    return None
                if kind.lower().startswith("check"):
                    self._check(Side.from_text(kind.split()[1].lower()), value, fail)
                    return None
                if self.setups:
                    raise fail("a lineup or a position after set-ups: a log starts from one or the other")
                if self.label is not None:
                    raise fail("a second header: a log starts from one lineup or position")
                try:
                    if kind.lower() == "lineup":
                        self.start, self.label = self.game.start(value, Side.RED), value
                    else:
                        self.start, self.label = self.game.read_position(value), "position"
                except NestrefError as error:
                    raise fail(str(error)) from None
            return None
        fields = body.split()
        if len(fields) != 2:
            raise fail(f"expected '<time_ms> <cell><sign>', such as '950 c3-', got {body[:60]!r}")
        time_text, change = fields
        if not time_text.isascii() or not time_text.isdigit():
            raise fail(f"the time {time_text[:20]!r} is not a whole number of milliseconds, 0 or more")
        if len(time_text.lstrip("0")) > 15:
            raise fail(f"the time {time_text[:20]}... is too large")
        match = _CHANGE.fullmatch(change)
        if match is None:
            raise fail(f"expected a cell and + or -, such as 'c3-', got {change[:20]!r}")
        cell, sign = match.groups()
        time_ms = int(time_text)
        if cell not in self.board:
            try:
                self.board.check_cell(cell)  # the board's own words for what is wrong
            except NestrefError as error:
                raise fail(str(error)) from None
        if time_ms < self.last_time:
            raise fail(f"time goes backwards: {time_ms} after {self.last_time}")
        self.last_time = time_ms
        self.seen_event = True
        return SensorEvent(time_ms, cell, sign == "+", number)

    def _setup(self, side: Side, text: str, fail: Callable[[str], SensorLogError]) -> None:
        """A ``setup red:`` or ``setup blue:`` line: that side's own set-up."""
        hiding = self.game.setups
        if hiding is None:
            raise fail(f"a set-up: {self.game.title} starts from a lineup or a position, not from set-ups")
        if self.label is not None:
            raise fail("a set-up after a lineup or a position: a log starts from one or the other")
        if side in self.setups:
            raise fail(f"a second set-up for {side.label}")
        try:
            self.setups[side] = hiding.read_setup(side, text)
        except NestrefError as error:
            raise fail(str(error)) from None

    def _check(self, side: Side, text: str, fail: Callable[[str], SensorLogError]) -> None:
        """A ``check red:`` or ``check blue:`` line: that side's pieces are checked against
        its set-up, asked for in the order the seed ``text`` draws."""
        if self.game.setups is None:
            raise fail(f"a check: {self.game.title} starts from a lineup or a position, not from set-ups")
        if side in self.checks:
            raise fail(f"a second check for {side.label}")
        if not text.isascii() or not text.isdigit() or len(text) > 20:
            raise fail(f"a check's seed is a whole number, 0 or more, got {text[:20]!r}")
        self.checks[side] = int(text)

    def _cells(self, text: str, fail: Callable[[str], SensorLogError]) -> frozenset[str]:
        """The cells of an ``occupied:`` line: names of the board's cells, spaced."""
        if self.occupied is not None:
            raise fail("a second 'occupied' line")
        cells = text.split()
        for cell in cells:
            if cell not in self.board:
                raise fail(f"occupied: {cell[:20]!r} is not a cell of the board {self.board.name}")
        return frozenset(cells)


@dataclass(frozen=True)
class SensorLogHeader:
    """What a log written at the nest says it holds at the start: the game's position as
    everybody may see it (a :class:`~firmware_host.games.base.PublicView`, never the
    position's own notation, which writes every hidden rank), if one is played, and the
    cells ``occupied``, if the nest does not show that position. A log's header may go
    where the nest's secrets may not (a recording sent to the simulator's page, a bug
    report): it is built from public values only. (A log of a game that hides ranks,
    begun mid-game, names a position that cannot be replayed: its hidden pieces are not
    in it.)"""

    position: PublicView | None
    occupied: tuple[str, ...]

    def lines(self) -> list[str]:
        """The header's comment lines (docs/sensor-log.md)."""
        lines = [f"position: {self.position.text}"] if self.position is not None else []
        if self.position is None or set(self.position.letters) != set(self.occupied):
            lines.append(f"occupied: {' '.join(self.occupied)}")
        return lines


class SensorLogWriter:
    """The one writer of sensor logs: line by line, to ``write`` (a file's, or a list's
    ``append``), each line ending in a newline. The daemon, the simulator and the tests
    all write through it."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self._write = write

    def header(self, header: SensorLogHeader) -> None:
        """The log's header: what the nest holds at its start (before the first event)."""
        for line in header.lines():
            self.comment(line)

    def comment(self, text: str) -> None:
        """A comment line; ``lineup: <name>`` or ``position: <text>`` (and
        ``occupied: <cells>``) before the first event is the log's header. A newline in
        ``text`` is written as a space."""
        self._write(f"# {' '.join(text.splitlines())}\n")

    def event(self, event: SensorEvent) -> None:
        self._write(event.to_text() + "\n")

    def reading(self, time_ms: int, cell: str, occupied: bool) -> None:
        """One reading, as the switches gave it."""
        self._write(f"{time_ms} {cell}{'+' if occupied else '-'}\n")


def write_sensor_log(events: Iterable[SensorEvent], *, header: str | None = None) -> str:
    """A sensor log's text: an optional header (``lineup: standard``) and the events."""
    lines: list[str] = []
    writer = SensorLogWriter(lines.append)
    if header:
        writer.comment(header)
    for event in events:
        writer.event(event)
    return "".join(lines)
