"""Diagnostics for builders: the boot self-test, and the calibration walk that finds
which switch of the matrix sits under which cell. Pure: scans and times are passed in.

A mis-soldered matrix is fixed in the config (``[matrix]``), not with a soldering iron:
``nestref calibrate`` walks the builder over every cell, notes the switch that closes,
and writes the map.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from hardware.sensors import Crossing


@dataclass(frozen=True)
class Finding:
    """Something wrong with the switches, in words, with the cells or places concerned."""

    problem: str
    where: tuple[str, ...]

    def to_text(self) -> str:
        return f"{self.problem}: {' '.join(self.where)}"


def place_name(position: Crossing, names: Mapping[Crossing, str]) -> str:
    return names.get(position, f"r{position[0]}c{position[1]}")


EMPTY_NEST_MAX = 3  # at most this many closed switches at start look like faults, not pieces


def boot_checks(
    scans: Sequence[frozenset[Crossing]], matrix: Mapping[str, Crossing], *, occupied: Sequence[str] = ()
) -> list[Finding]:
    """What a few scans in a row, with nobody touching the nest, show to be wrong: a
    switch that flickers, or one closed where the map puts nothing (a wiring mistake,
    or a stuck switch); and, given the cells ``occupied`` on a nest that should be empty
    (no game in the record), a few of them closed (a stuck switch, or a piece left on;
    more than ``EMPTY_NEST_MAX`` are pieces set up). A dead or stuck switch under a cell
    shows only in play, or in ``nestref calibrate``."""
    names = {position: name for name, position in matrix.items()}
    findings = []
    changing = sorted({p for a, b in itertools.pairwise(scans) for p in a ^ b})
    if changing:
        findings.append(
            Finding("flickering while nobody touches the nest", tuple(place_name(p, names) for p in changing))
        )
    always = frozenset.intersection(*scans) if scans else frozenset()
    unmapped = sorted(p for p in always if p not in names)
    if unmapped:
        findings.append(
            Finding("closed, where the map puts no cell or button", tuple(place_name(p, names) for p in unmapped))
        )
    if 0 < len(occupied) <= EMPTY_NEST_MAX:
        findings.append(Finding("closed on an empty nest (stuck, or a piece left on?)", tuple(occupied)))
    return findings


class Stage(Enum):
    CLEARING = "clearing"  # waiting for the nest to be empty
    PLACING = "placing"  # waiting for a piece on the current cell
    LIFTING = "lifting"  # waiting for it to be lifted again
    DONE = "done"


@dataclass
class Calibration:
    """The walk: clear the nest; then for each name (cells, then buttons) a piece is put
    on that cell (or the button pressed) and taken off again."""

    names: list[str]
    buttons: frozenset[str] = frozenset()
    settle_s: float = 0.15  # a reading must hold this long to count
    clear_timeout_s: float = 5.0  # switches still closed after this long are stuck
    stage: Stage = Stage.CLEARING
    index: int = 0
    found: dict[str, Crossing] = field(default_factory=dict)
    stuck: set[Crossing] = field(default_factory=set)
    skipped: list[str] = field(default_factory=list)
    _seen: frozenset[Crossing] | None = None
    _since: float = 0.0
    _started: float | None = None
    _prompted: bool = False

    @property
    def current(self) -> str | None:
        return self.names[self.index] if self.index < len(self.names) else None

    def prompt(self) -> str:
        name = self.current
        if self.stage is Stage.CLEARING:
            return "Take every piece off the nest."
        if self.stage is Stage.DONE or name is None:
            return "Done."
        if self.stage is Stage.LIFTING:
            return f"Take it off {name}." if name not in self.buttons else f"Let go of {name}."
        return f"Press the {name} button." if name in self.buttons else f"Put a piece on {name}."

    def skip(self) -> list[str]:
        """The builder skips the current cell (its switch may be dead)."""
        if self.current is not None and self.stage in (Stage.PLACING, Stage.LIFTING):
            self.skipped.append(self.current)
            return self._next()
        return []

    def feed(self, closed: frozenset[Crossing], now: float) -> list[str]:
        """One scan at ``now``; the lines to tell the builder, if any."""
        if self._started is None:
            self._started = now
        if closed != self._seen:
            self._seen, self._since = closed, now
        messages = [] if self._prompted else [self.prompt()]
        self._prompted = True
        if now - self._since < self.settle_s:
            return messages
        active = closed - self.stuck
        if self.stage is Stage.CLEARING:
            if not active:
                self.stage = Stage.PLACING
                return [*messages, self.prompt()]
            if now - self._started >= self.clear_timeout_s:
                self.stuck, self.stage = set(closed), Stage.PLACING
                names = " ".join(place_name(p, {}) for p in sorted(closed))
                return [
                    *messages,
                    f"These switches stay closed (stuck?): {names}; going on without them.",
                    self.prompt(),
                ]
        elif self.stage is Stage.PLACING:
            if len(active) > 1:
                return messages  # wait for one piece only
            if len(active) == 1:
                (position,) = active
                name = self.current
                assert name is not None
                owner = next((other for other, place in self.found.items() if place == position), None)
                self.found[name] = position
                self.stage = Stage.LIFTING
                note = f"{name}: row {position[0]}, column {position[1]}"
                if owner is not None:
                    note += f" — the same switch as {owner}! (two cells wired together?)"
                return [*messages, note, self.prompt()]
        elif self.stage is Stage.LIFTING and not active:
            return [*messages, *self._next()]
        return messages

    def _next(self) -> list[str]:
        self.index += 1
        self.stage = Stage.PLACING if self.current is not None else Stage.DONE
        return [self.prompt()]

    def differences(self, configured: Mapping[str, Crossing]) -> list[str]:
        """How the walk's map differs from the configured one, in words."""
        lines = []
        for name in self.names:
            found, given = self.found.get(name), configured.get(name)
            if found is not None and found != given:
                lines.append(f"{name}: the switch is at row {found[0]}, column {found[1]}, the config says {given}")
        lines += [f"{name}: skipped (a dead switch, or a broken wire?)" for name in self.skipped]
        return lines


def write_matrix(config_text: str, mapping: Mapping[str, Crossing]) -> str:
    """The config's text with its ``[matrix]`` table replaced by ``mapping``."""
    lines = config_text.splitlines()
    kept: list[str] = []
    in_matrix = False
    for line in lines:
        header = re.match(r"\s*\[([^\]]+)\]", line)
        if header:
            in_matrix = header.group(1).strip() == "matrix"
            if in_matrix:
                continue
        if not in_matrix:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    table = ["", "[matrix]  # written by nestref calibrate"]
    table += [f"{name} = [{row}, {column}]" for name, (row, column) in mapping.items()]
    return "\n".join(kept + table) + "\n"
