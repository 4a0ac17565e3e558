"""Sensor logs: what the nest felt, as text (``sensor-log.md``).

One event per line, ``<time_ms> <cell><sign>``: ``-`` when the cell became empty, ``+``
when it became occupied. ``#`` starts a comment; before the first event, a comment
``# lineup: <name>`` or ``# position: <NFN>`` says what the nest holds at the start.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from firmware_host.errors import NestrefError
from firmware_host.rules import Nest, Position

_CHANGE = re.compile(r"([a-z]+[0-9]+)([+-])")
_HEADER = re.compile(r"#\s*(lineup|position)\s*:\s*([^#]*?)\s*(#.*)?", re.IGNORECASE)


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
    """A parsed log: the position its header names (None: the standard lineup), and
    its events in order."""

    start: Position | None
    start_label: str | None  # the lineup name, or "position"
    events: tuple[SensorEvent, ...]


def read_sensor_log(text: str, *, nest: Nest, source: str = "<sensor log>") -> SensorLog:
    """Parse the text of a sensor log. Raises :class:`SensorLogError` naming the line
    and what is wrong with it: an unknown cell, a bad time, time going backwards, a
    second header, anything else that is not an event, a comment or a blank line."""
    start: Position | None = None
    label: str | None = None
    events: list[SensorEvent] = []
    last_time = 0
    text = text.removeprefix("\ufeff")  # a byte-order mark from a Windows editor
    for number, line in enumerate(text.splitlines(), start=1):

        def fail(what: str, number: int = number) -> SensorLogError:
            return SensorLogError(f"{source}:{number}: {what}")

        body, _, comment = line.partition("#")
        body = body.strip()
        if not body:
            header = _HEADER.fullmatch("#" + comment) if comment and not events else None
            if header is not None:
                if label is not None:
                    raise fail("a second header: a log starts from one lineup or position")
                kind, value, _ = header.groups()
                try:
                    if kind.lower() == "lineup":
                        start, label = Position.from_lineup(value, nest=nest), value
                    else:
                        start, label = Position.from_nfn(value, nest=nest), "position"
                except NestrefError as error:
                    raise fail(str(error)) from None
            continue
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
        if cell not in nest:
            raise fail(f"{cell} is not a cell of the nest {nest.name}")
        if time_ms < last_time:
            raise fail(f"time goes backwards: {time_ms} after {last_time}")
        last_time = time_ms
        events.append(SensorEvent(time_ms, cell, sign == "+", number))
    return SensorLog(start, label, tuple(events))


def write_sensor_log(events: Iterable[SensorEvent], *, header: str | None = None) -> str:
    """A sensor log's text: an optional header (``lineup: standard``) and the events."""
    lines = [f"# {header}"] if header else []
    lines += [event.to_text() for event in events]
    return "\n".join(lines) + "\n"
