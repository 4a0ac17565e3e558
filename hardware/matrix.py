"""The reed-switch matrix scanned on the Pi's own GPIO pins, with gpiozero.

Each switch sits with a diode where a row line crosses a column line. Rows are outputs
that idle high; columns are inputs with pull-ups. To read row ``r``, the scan drives it
low: a closed switch on that row pulls its column low through its diode (the diodes
stop "ghost" readings when several switches are closed). One scan reads every row in
turn. The scan reports what it read; debouncing is the referee's job.

The pins are claimed and released as gpiozero devices (so that a pin in use is refused
as everywhere else), but a scan reads and drives them through gpiozero's pin layer,
where a device's ``is_active`` goes through four calls more and a row's ``on()`` stops
a blink under a lock first. It calls the methods every gpiozero pin implements
(``_get_state``, ``_set_state``: the pin API's own contract for its implementations,
lgpio's, RPi.GPIO's, the mock's), which a pin's ``state`` property only wraps in one
call more; a row's columns are read by ``map`` (the loop over them in C, not in Python
bytecode), and the reading is turned into crossings only when it differs from the
last: nearly every scan of a still nest reads what the last one did. Each call counts
where the nest is idle: a wake-up finds the caches cold. benchmarks/daemon_speed.py
prints a scan's time through the pins and through devices.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from hardware.sensors import Crossing, ScanUpdate


class GpioMatrix:
    """A switch matrix on GPIO pins (BCM numbers); a :class:`hardware.sensors.SwitchMatrix`."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, pin_factory: Factory) -> None:
        """Claim the pins. Raises gpiozero's errors if a pin is in use or missing."""
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        self._drive_row: list[Callable[[bool], None]] = []  # per row: its pin's level set (False: low)
        self._read_column: list[Callable[[], bool]] = []  # per column: its pin's level (False: low)
        self._crossings: list[Crossing] = []  # in the order a scan reads them: row by row
        self._last_reading: list[bool] = []  # the last scan's column levels, row by row
        self._last_update = ScanUpdate(frozenset())
        try:
            for pin in rows:
                self._rows.append(DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory))
            for pin in columns:
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self._drive_row = [device.pin._set_state for device in self._rows]
        self._read_column = [device.pin._get_state for device in self._columns]
        # Each crossing's tuple made once: a scan only picks them.
        self._crossings = [(r, c) for r in range(len(self._rows)) for c in range(len(self._columns))]

    @property
    def connected(self) -> bool:
        """The Pi's own pins: always there."""
        return True

    def scan(self) -> frozenset[Crossing]:
        """Read every switch once: the positions that are closed."""
        return self._read().closed

    def poll(self) -> list[ScanUpdate]:
        """One scan, as a report. A flicker shorter than the time between scans cannot
        be seen by this backend; the serial scanner latches them."""
        return [self._read()]

    def _read(self) -> ScanUpdate:
        """One scan: the last report again if every switch reads as it did."""
        reading: list[bool] = []
        read_columns = self._read_column
        for drive in self._drive_row:
            drive(False)  # the row low
            reading += map(operator.call, read_columns)  # a column reads low through a closed switch and its diode
            drive(True)
        if reading != self._last_reading:
            self._last_reading = reading
            closed = itertools.compress(self._crossings, map(operator.not_, reading))
            self._last_update = ScanUpdate(frozenset(closed))
        return self._last_update

    def close(self) -> None:
        """Release the pins (rows left as inputs, so nothing is driven)."""
        for device in (*self._rows, *self._columns):
            device.close()
        self._rows, self._columns = [], []
        self._drive_row, self._read_column, self._crossings, self._last_reading = [], [], [], []
