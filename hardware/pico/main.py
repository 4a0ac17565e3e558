"""The Pico's firmware: scan the nest's 8x8 reed-switch matrix at 1 kHz, send frames.

MicroPython runs this file at boot as ``main.py``. Each scan drives one row low at a
time and reads the columns, whose pull-ups hold them high unless a closed switch (and
its diode) connects them to the selected row. Frames go to the daemon over USB (the
Pico's own serial port, ``sys.stdout.buffer``) or, if ``USE_UART``, over a UART; the
protocol is ``hardware/scanner_protocol.py`` (docs/scanner-protocol.md).

What is sent, and when:

- a HELLO at boot (marked as the boot one) and every 2 s, so a host that connects
  later learns the matrix's size, the firmware version and the scan rate;
- a SNAPSHOT (every switch) as soon as anything changed, but at most every 4 ms, and
  at least every 100 ms, changed or not, as the heartbeat. Its latch marks every switch
  that read otherwise at any scan since the previous SNAPSHOT, so a flicker of a single
  scan (1 ms) is never lost between two frames.

The scanning core, ``Scanner``, takes plain callables for the pins, the output and the
clock; ``machine`` is imported only in ``build_scanner``. So the tests run this very
class under CPython against a simulated matrix on a pty. Like the protocol module,
this file uses nothing MicroPython lacks (no typing, dataclasses or enums).

Pins (Raspberry Pi Pico or Pico 2: GPIO, then physical pin):

- rows 0-7: GP2-GP9 (pins 4, 5, 6, 7, 9, 10, 11, 12);
- columns 0-7: GP10-GP17 (pins 14, 15, 16, 17, 19, 20, 21, 22);
- UART0, if used: GP0 TX to the Pi's RXD (pin 1, GND on pin 3); GP1 RX stays unused.

They are consecutive GPIOs along one side of the board, clear of GP23-GP25 and GP29,
which the Pico itself uses (power supply mode, USB sense, the LED, VSYS sense).

Rows are open-drain: a row not selected floats rather than driving high, so two closed
switches in one column can never short a high row to the low one, even on a matrix
built without diodes. Each switch has a diode whose cathode faces its row, so closed
switches elsewhere cannot make a ghost reading.
"""

import sys

from hardware.scanner_protocol import (
    HELLO_INTERVAL_MS,
    SNAPSHOT_MAX_INTERVAL_MS,
    SNAPSHOT_MIN_INTERVAL_MS,
    Hello,
    Snapshot,
    bitmap_size,
)

# mypy reads this block, and neither interpreter runs it: MicroPython has no typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

FIRMWARE_VERSION = (1, 0)
"""(major, minor), announced in every HELLO."""

ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
"""GPIO of each row, row 0 first: open-drain outputs, pulled low to select the row."""

COLUMN_PINS = (10, 11, 12, 13, 14, 15, 16, 17)
"""GPIO of each column, column 0 first: inputs with pull-ups; low = switch closed."""

SCAN_HZ = 1000
"""Whole-matrix scans per second: a flicker must last 1 ms to be seen."""

SETTLE_US = 10
"""Wait after selecting a row before reading: the internal pull-ups (50-80 kOhm) and
the wiring's capacitance need a few microseconds to raise a column the previous row
had pulled low."""

USE_UART = False
"""False: frames go over USB. True: over UART ``UART_ID`` on the pins below."""

UART_ID = 0
UART_TX_PIN = 0
UART_RX_PIN = 1
UART_BAUD = 115200
"""Enough for the most the protocol sends (6 kB/s); the daemon must use the same."""


def _subtract(newer: int, older: int) -> int:
    return newer - older


class Scanner:
    """Scans the matrix and sends HELLO and SNAPSHOT frames, one scan per ``step()``.

    The callables:

    - ``drive_row(row, is_selected)``: pull row ``row`` low (selected) or release it;
      it must wait for the columns to settle after selecting;
    - ``read_columns()``: the column levels, bit c for column c (1 = high = open);
    - ``write(frame)``: send one whole frame's bytes;
    - ``ticks_us()``: a microsecond clock, compared only through ``ticks_diff(newer,
      older)`` (MicroPython's wraps around; plain subtraction if not given).
    """

    def __init__(
        self,
        drive_row: "Callable[[int, bool], object]",
        read_columns: "Callable[[], int]",
        write: "Callable[[bytes], object]",
        ticks_us: "Callable[[], int]",
        *,
        ticks_diff: "Callable[[int, int], int] | None" = None,
        rows: int = len(ROW_PINS),
        cols: int = len(COLUMN_PINS),
        scan_hz: int = SCAN_HZ,
    ) -> None:
        self._drive_row = drive_row
        self._read_columns = read_columns
        self._write = write
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff or _subtract
        self.rows = rows
        self.cols = cols
        self.scan_hz = scan_hz
        size = bitmap_size(rows, cols)
        self._reading = bytearray(size)  # the scan in progress
        self._reported = bytearray(size)  # "closed" of the last SNAPSHOT sent
        self._latch = bytearray(size)  # read otherwise than reported, since then
        self._column_mask = (1 << cols) - 1
        self._seq = 0
        self._last_hello_us: int | None = None
        self._last_snapshot_us: int | None = None

    def step(self) -> None:
        """One scan period's work: a HELLO if due, one scan, a SNAPSHOT if due."""
        now = self._ticks_us()
        if self._last_hello_us is None or self._ticks_diff(now, self._last_hello_us) >= HELLO_INTERVAL_MS * 1000:
            is_boot = self._last_hello_us is None
            major, minor = FIRMWARE_VERSION
            self._send(Hello(self._seq, major, minor, self.rows, self.cols, self.scan_hz, is_boot))
            self._last_hello_us = now
        self._scan()
        has_news = False
        for i in range(len(self._latch)):
            self._latch[i] |= self._reading[i] ^ self._reported[i]
            if self._latch[i]:
                has_news = True
        if self._is_snapshot_due(now, has_news):
            self._send_snapshot(now)

    def run(self, sleep_us: "Callable[[int], object]", keep_running: "Callable[[], bool] | None" = None) -> None:
        """Step ``scan_hz`` times a second, for ever or while ``keep_running()``."""
        period_us = 1000000 // self.scan_hz
        while keep_running is None or keep_running():
            started = self._ticks_us()
            self.step()
            spare_us = period_us - self._ticks_diff(self._ticks_us(), started)
            if spare_us > 0:
                sleep_us(spare_us)

    def _scan(self) -> None:
        reading = self._reading
        for i in range(len(reading)):
            reading[i] = 0
        for row in range(self.rows):
            self._drive_row(row, True)
            closed = ~self._read_columns() & self._column_mask
            self._drive_row(row, False)
            if not closed:
                continue
            if self.cols == 8:
                reading[row] = closed  # the usual matrix: one byte per row, quickly
                continue
            for col in range(self.cols):
                if closed >> col & 1:
                    bit = row * self.cols + col
                    reading[bit >> 3] |= 1 << (bit & 7)

    def _is_snapshot_due(self, now: int, has_news: bool) -> bool:
        if self._last_snapshot_us is None:
            return True
        since_us = self._ticks_diff(now, self._last_snapshot_us)
        if since_us >= SNAPSHOT_MAX_INTERVAL_MS * 1000:
            return True
        return has_news and since_us >= SNAPSHOT_MIN_INTERVAL_MS * 1000

    def _send_snapshot(self, now: int) -> None:
        if self._last_snapshot_us is None:
            # Nothing was reported before the first SNAPSHOT, so nothing flickered.
            for i in range(len(self._latch)):
                self._latch[i] = 0
        self._send(Snapshot(self._seq, self.rows, self.cols, bytes(self._reading), bytes(self._latch)))
        self._last_snapshot_us = now
        # The reading becomes the reported state; the old buffer takes the next scan.
        self._reported, self._reading = self._reading, self._reported
        for i in range(len(self._latch)):
            self._latch[i] = 0

    def _send(self, frame: "Hello | Snapshot") -> None:
        self._write(frame.to_bytes())
        self._seq = (self._seq + 1) & 0xFF


def build_scanner() -> Scanner:
    """The scanner on the Pico's pins, sending over USB or the UART (MicroPython only)."""
    import time

    import machine  # type: ignore[import-not-found]  # MicroPython's own module

    sleep_us = time.sleep_us  # type: ignore[attr-defined]
    rows = [machine.Pin(pin, machine.Pin.OPEN_DRAIN, value=1) for pin in ROW_PINS]
    columns = [machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for pin in COLUMN_PINS]

    def drive_row(row: int, is_selected: bool) -> None:
        rows[row].value(0 if is_selected else 1)
        if is_selected:
            sleep_us(SETTLE_US)

    def read_columns() -> int:
        levels = 0
        for col in range(len(columns)):
            levels |= columns[col].value() << col
        return levels

    if USE_UART:
        uart = machine.UART(UART_ID, baudrate=UART_BAUD, tx=machine.Pin(UART_TX_PIN), rx=machine.Pin(UART_RX_PIN))
        write = uart.write
    else:
        write = sys.stdout.buffer.write
    return Scanner(drive_row, read_columns, write, time.ticks_us, ticks_diff=time.ticks_diff)  # type: ignore[attr-defined]


def main() -> None:
    """Scan for ever; after an unexpected error, start again rather than stop."""
    import time

    while True:
        try:
            build_scanner().run(time.sleep_us)  # type: ignore[attr-defined]
        except Exception as error:  # a Pico that stops scanning is worse than one that restarts
            sys.print_exception(error)  # type: ignore[attr-defined]  # the host skips it as garbage
            time.sleep(1)


if __name__ == "__main__":
    main()
