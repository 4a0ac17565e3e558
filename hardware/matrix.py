"""The reed-switch matrix scanned on the Pi's own GPIO pins, with gpiozero.

Each switch sits with a diode where a row line crosses a column line. Rows are outputs
that idle high; columns are inputs with pull-ups. To read row ``r``, the scan drives it
low: a closed switch on that row pulls its column low through its diode (the diodes
stop "ghost" readings when several switches are closed). One scan reads every row in
turn. The scan reports what it read; debouncing is the referee's job.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from hardware.sensors import Crossing, ScanUpdate


class GpioMatrix:
    """A switch matrix on GPIO pins (BCM numbers); a :class:`hardware.sensors.SwitchMatrix`."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, pin_factory: Factory) -> None:
        """Claim the pins. Raises gpiozero's errors if a pin is in use or missing."""
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        try:
            for pin in rows:
                self._rows.append(DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory))
            for pin in columns:
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise

    @property
    def connected(self) -> bool:
        """The Pi's own pins: always there."""
        return True

    def scan(self) -> frozenset[Crossing]:
        """Read every switch once: the positions that are closed."""
        closed: set[Crossing] = set()
        columns = self._columns
        for r, row in enumerate(self._rows):
            row.off()  # drive the row low
            closed.update((r, c) for c, column in enumerate(columns) if column.is_active)
            row.on()
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
