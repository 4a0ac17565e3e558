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
        return bool(self._state)  # MockPin's own state, read as its _get_state does: one call less a read


class QuietPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """An output pin (a matrix row, an LED) that, unlike gpiozero's MockPin, keeps no
    history of its states: a daemon running for days would fill memory with it."""

    def _change_state(self, value: bool) -> bool:
        if bool(self._get_state()) == value:
            return False
        self._state = value
        return True


class RowPin(QuietPin):
    """A row output of the simulated matrix: it tells the matrix when it is driven low,
    so that reading a column costs a set operation, about what a real pin's read costs
    (rather than asking every row pin for its function and state at every read)."""

    def __init__(self, factory: MockFactory, info: Any, matrix: MockSwitchMatrix | None = None, row: int = 0):
        super().__init__(factory, info)
        self.matrix = matrix
        self.row = row

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._tell_matrix()

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        self._tell_matrix()
        return changed

    def _tell_matrix(self) -> None:
        if self.matrix is not None:
            self.matrix.row_driven(self.row, self._function == "output" and not self._state)


class MockSwitchMatrix:
    """Switches at matrix positions, on a MockFactory's pins. Create it before the
    daemon claims the pins: the factory then hands the daemon these very pins."""

    def __init__(self, factory: MockFactory, rows: Sequence[int], columns: Sequence[int]) -> None:
        self._closed_rows: list[set[int]] = [set() for _ in columns]  # per column: rows closed on it
        self._low_rows: set[int] = set()  # the rows driven low now
        for row, pin in enumerate(rows):
            factory.pin(pin, pin_class=RowPin, matrix=self, row=row)
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

    def row_driven(self, row: int, low: bool) -> None:
        """Row ``row`` is driven low now (``low``), or not (high, or an input)."""
        (self._low_rows.add if low else self._low_rows.discard)(row)

    def pulls_low(self, column: int) -> bool:
        """Whether a closed switch connects ``column`` to a row driven low."""
        return not self._closed_rows[column].isdisjoint(self._low_rows)
