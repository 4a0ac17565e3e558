"""The nest's switch matrix, simulated on gpiozero's own MockFactory pins.

Hands close and open switches here; the daemon's real :class:`hardware.matrix.GpioMatrix`
scans the same mock pins exactly as it scans real ones. A column pin reads low while a
closed switch connects it to a row that the scan drives low (the diodes make it
one-way: ideal, with no ghosting).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.sensors import Crossing


class ColumnPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """A column input of the simulated matrix."""

    def __init__(self, factory: MockFactory, info: Any, matrix: MockSwitchMatrix | None = None, column: int = 0):
        super().__init__(factory, info)
        self.matrix = matrix
        self.column = column

    def _get_state(self) -> bool:
        if self._function == "input" and self.matrix is not None and self.matrix.pulls_low(self.column):
            return False
        return bool(super()._get_state())


class QuietPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """An output pin (a matrix row, an LED) that, unlike gpiozero's MockPin, keeps no
    history of its states: a daemon running for days would fill memory with it."""

    def _change_state(self, value: bool) -> bool:
        if bool(self._get_state()) == value:
            return False
        self._state = value
        return True


class MockSwitchMatrix:
    """Switches at matrix positions, on a MockFactory's pins. Create it before the
    daemon claims the pins: the factory then hands the daemon these very pins."""

    def __init__(self, factory: MockFactory, rows: Sequence[int], columns: Sequence[int]) -> None:
        self._rows = [factory.pin(pin, pin_class=QuietPin) for pin in rows]
        self._closed_rows: list[set[int]] = [set() for _ in columns]  # per column: rows closed on it
        for column, pin in enumerate(columns):
            factory.pin(pin, pin_class=ColumnPin, matrix=self, column=column)

    def set(self, position: Crossing, closed: bool) -> None:
        """Close (a piece's magnet arrives) or open (it leaves) one switch."""
        row, column = position
        (self._closed_rows[column].add if closed else self._closed_rows[column].discard)(row)

    def set_all(self, positions: Iterable[Crossing]) -> None:
        """Exactly these switches closed."""
        for rows in self._closed_rows:
            rows.clear()
        for position in positions:
            self.set(position, True)

    def pulls_low(self, column: int) -> bool:
        rows = self._rows
        return any(rows[row].function == "output" and not rows[row].state for row in self._closed_rows[column])
