"""What the nest's switch matrix reports, whichever way it is read.

Both sensor backends — the Pi scanning the matrix on its own GPIO pins, and a Pico
scanning it and sending frames over serial — deliver the same thing: the matrix
positions ``(row, column)`` whose switch is closed, and the positions whose switch
changed and changed back since the last report (a flicker too brief to be seen in two
reports, which a pushed-off capture causes). The daemon maps positions to cells and
buttons with the configured matrix map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

Crossing = tuple[int, int]
"""A switch's place in the matrix: (row, column), from 0."""


@dataclass(frozen=True)
class ScanUpdate:
    """One report of the whole matrix."""

    closed: frozenset[Crossing]
    """Every switch closed now: a full picture, never a difference."""
    flickered: frozenset[Crossing] = frozenset()
    """Switches that read the other way, briefly, since the last report."""


class SwitchMatrix(Protocol):
    """A source of matrix reports."""

    @property
    def connected(self) -> bool:
        """Whether the switches can be read now (a serial scanner's cable may be pulled)."""
        ...

    def poll(self) -> list[ScanUpdate]:
        """The reports available now, oldest first (none if nothing new)."""
        ...

    def close(self) -> None:
        """Release the pins or the port."""
        ...
