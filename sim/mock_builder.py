"""A builder at a simulated nest, for ``nestref calibrate --mock``: a rehearsal of the
calibration walk off the Pi.

The builder reads each line the walk prints and does what it says, as a person at the
nest would: puts a piece on the cell named (closing the switch the nest is soldered to
for it), takes it off, presses a button and lets go. The switches are the simulator's,
on gpiozero's MockFactory pins, scanned by the real :class:`hardware.matrix.GpioMatrix`.
Time is the builder's own: the walk sleeps, and the builder's clock moves on by as much,
so the whole walk runs in a few seconds and every reading still settles as on a nest.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import TextIO

from firmware_host.errors import NestrefError
from hardware.sensors import Crossing
from sim.mock_matrix import MockSwitchMatrix

PACE_S = 0.4  # a builder reads a line and reaches the cell in this long
LONGEST_WALK_S = 3600.0  # simulated; a walk this long has stopped following its builder

_CLOSE = re.compile(r"(?:Put a piece on|Press the) (\w+)(?: button)?\.")
_OPEN = re.compile(r"(?:Take it off|Let go of) (\w+)\.")


class WalkStalledError(NestrefError, RuntimeError):
    """The walk went on for longer than any walk takes: it no longer says what to do."""


class MockBuilder(io.StringIO):
    """The transcript of the walk (give it to the walk as its ``out``), passed on to
    ``terminal`` as it is written; and the builder that reads it and acts, in its own
    time (:meth:`clock`, :meth:`sleep`). ``wiring`` is where each cell's and button's
    switch sits on the simulated matrix: soldered as the config's map says, unless told
    otherwise."""

    def __init__(self, terminal: TextIO, switches: MockSwitchMatrix, wiring: Mapping[str, Crossing]) -> None:
        super().__init__()
        self.terminal = terminal
        self.switches = switches
        self.wiring = dict(wiring)
        self.time = 0.0
        self._line = ""  # the last whole line told
        self._told_at = 0.0
        self._done = True  # what the last line asked is done

    def write(self, text: str) -> int:
        self.terminal.write(text)
        written = super().write(text)
        lines = self.getvalue().splitlines()
        if text.endswith("\n") and lines and lines[-1] != self._line:
            self._line, self._told_at, self._done = lines[-1], self.time, False
        return written

    def flush(self) -> None:
        self.terminal.flush()
        super().flush()

    def clock(self) -> float:
        return self.time

    def sleep(self, seconds: float) -> None:
        """Time passes; once the builder has had ``PACE_S`` to read the last line, it
        does what the line says. Raises :class:`WalkStalledError` past ``LONGEST_WALK_S``."""
        self.time += seconds
        if self.time > LONGEST_WALK_S:
            raise WalkStalledError(
                f"the walk is still going after {LONGEST_WALK_S:.0f} s: its last line: {self._line!r}"
            )
        if self._done or self.time - self._told_at < PACE_S:
            return
        self._done = True
        if (close := _CLOSE.fullmatch(self._line)) and close.group(1) in self.wiring:
            self.switches.set(self.wiring[close.group(1)], True)
        elif (lift := _OPEN.fullmatch(self._line)) and lift.group(1) in self.wiring:
            self.switches.set(self.wiring[lift.group(1)], False)

    @staticmethod
    def presses_enter() -> bool:
        """This builder skips no cell: every switch of the simulated nest works."""
        return False
