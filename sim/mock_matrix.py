"""The nest's switch matrix, simulated on gpiozero's own MockFactory pins.

Hands close and open switches here; the daemon's real :class:`hardware.matrix.GpioMatrix`
scans the same mock pins exactly as it scans real ones. A column pin reads low while a
closed switch connects it to a row that the scan drives low (the diodes make it
one-way: ideal, with no ghosting).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gpiozero.exc import PinSetInput
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.sensors import Crossing


class ColumnPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """A column input of the simulated matrix. A read is one call and one set operation,
    as a real pin's is one call into lgpio (``LGPIOPin._get_state``): the daemon's scan is
    measured on these pins (benchmarks/daemon_speed.py), so they must cost no more."""

    def __init__(self, factory: MockFactory, info: Any, matrix: MockSwitchMatrix | None = None, column: int = 0):
        super().__init__(factory, info)
        # The matrix's own sets, kept whole (never rebound): the rows closed on this
        # column, and the rows driven low now.
        self._closed: set[int] = matrix._closed_rows[column] if matrix is not None else set()
        self._low: set[int] = matrix._low_rows if matrix is not None else set()

    def _get_state(self) -> bool:
        # Low while a closed switch connects it to a row driven low (an input only).
        if self._function == "input" and not self._closed.isdisjoint(self._low):
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
    (rather than asking every row pin for its function and state at every read). A
    write is one call, as a real pin's is (``LGPIOPin._set_state``)."""

    def __init__(self, factory: MockFactory, info: Any, matrix: MockSwitchMatrix | None = None, row: int = 0):
        super().__init__(factory, info)
        self._low: set[int] | None = matrix._low_rows if matrix is not None else None
        self.row = row

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._tell_matrix()

    def _set_state(self, value: Any) -> None:
        if self._function == "input":
            raise PinSetInput(f"cannot set state of pin {self!r}")  # as gpiozero's MockPin
        self._state = bool(value)
        self._tell_matrix()

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        self._tell_matrix()
        return changed

    def _tell_matrix(self) -> None:
        if self._low is not None:
            if self._function == "output" and not self._state:
                self._low.add(self.row)
            else:
                self._low.discard(self.row)


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
