"""The reed-switch matrix scanned on the Pi's own GPIO pins, with gpiozero.

Each switch sits with a diode where a row line crosses a column line. Rows are outputs
that idle high; columns are inputs with pull-ups. To read row ``r``, the scan drives it
low: a closed switch on that row pulls its column low through its diode (the diodes
stop "ghost" readings when several switches are closed). One scan reads every row in
turn. The scan reports what it read; debouncing is the referee's job.

The pins are claimed and released as gpiozero devices (so that a pin in use is refused
as everywhere else), but a scan reads and drives them through gpiozero's pin layer:
one property per pin, where a device's ``is_active`` goes through four calls more and
a row's ``on()`` stops a blink under a lock first. A scan took 0.054 ms on mock pins
through devices, 0.021 ms through pins (benchmarks/daemon_speed.py): on a Pi Zero 2 W
about 0.5 ms against 0.2 ms, 200 times a second.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from hardware.sensors import Crossing, ScanUpdate


class GpioMatrix:
    """A switch matrix on GPIO pins (BCM numbers); a :class:`hardware.sensors.SwitchMatrix`."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, pin_factory: Factory) -> None:
        """Claim the pins. Raises gpiozero's errors if a pin is in use or missing."""
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        self._row_pins: list[Any] = []  # gpiozero's Pin objects under the devices
        self._column_pins: list[Any] = []
        self._crossings: list[list[Crossing]] = []
        try:
            for pin in rows:
                self._rows.append(DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory))
            for pin in columns:
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self._row_pins = [device.pin for device in self._rows]
        self._column_pins = [device.pin for device in self._columns]
        # Each crossing's tuple made once: a scan only picks them.
        self._crossings = [[(r, c) for c in range(len(self._columns))] for r in range(len(self._rows))]

    @property
    def connected(self) -> bool:
        """The Pi's own pins: always there."""
        return True

    def scan(self) -> frozenset[Crossing]:
        """Read every switch once: the positions that are closed."""
        closed: list[Crossing] = []
        columns = self._column_pins
        for row, crossings in zip(self._row_pins, self._crossings, strict=True):
            row.state = False  # drive the row low
            # A column reads low (pulled down through a closed switch and its diode).
            closed += [crossing for crossing, column in zip(crossings, columns, strict=True) if not column.state]
            row.state = True
        return frozenset(closed)

    def poll(self) -> list[ScanUpdate]:
        """One scan, as a report. A flicker shorter than the time between scans cannot
        be seen by this backend; the serial scanner latches them."""
        return [ScanUpdate(self.scan())]

    def close(self) -> None:
        """Release the pins (rows left as inputs, so nothing is driven)."""
        for device in (*self._rows, *self._columns):
            device.close()
        self._rows, self._columns = [], []
        self._row_pins, self._column_pins, self._crossings = [], [], []
