"""The Pico's firmware: scan the nest's reed-switch matrix (8x8, or up to 10x10) at 1 kHz,
send frames; and, in a build with them, drive a chain of WS2812 LEDs, one under every cell,
as the daemon's LIGHTS frames say.

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

The LEDs: the daemon sends a LIGHTS frame (every LED's colour and blinking) when what
they show changes and at least every second; the firmware blinks them itself, from the
phase the frame gives, so that they blink with the Pi's status lights, and turns them
all off when no LIGHTS came for 3 s (a daemon that stopped). Their bits go out from a
PIO state machine fed by DMA: a whole chain of 100 LEDs takes 3 ms on the wire, and the
scan goes on meanwhile. (MicroPython's own ``neopixel`` module sends them with
``machine.bitstream``, which holds the CPU with interrupts off for those 3 ms: scans
would stop, and a one-scan flicker could be lost.)

The scanning core, ``Scanner``, and the LEDs' core, ``PixelLights``, take plain
callables for the pins, the output and the clock; ``machine`` and ``rp2`` are imported
only in ``build_scanner``. So the tests run these very classes under CPython against a
simulated matrix on a pty, and under MicroPython's Unix port. Like the protocol module,
this file uses nothing MicroPython lacks (no typing, dataclasses or enums).

Pins (Raspberry Pi Pico or Pico 2: GPIO, then physical pin):

- rows 0-7: GP2-GP9 (pins 4, 5, 6, 7, 9, 10, 11, 12); rows 8-9: GP18, GP19 (pins 24, 25);
- columns 0-7: GP10-GP17 (pins 14, 15, 16, 17, 19, 20, 21, 22); columns 8-9: GP20, GP21
  (pins 26, 27);
- the LEDs' data: GP22 (pin 29), through a 74AHCT125 to 5 V logic;
- UART0, if used: GP0 TX to the Pi's RXD (pin 1, GND on pin 3), GP1 RX from the Pi's TXD
  (pin 2; only needed for the LEDs).

They are GPIOs along one side of the board, clear of GP23-GP25 and GP29, which the Pico
itself uses (power supply mode, USB sense, the LED, VSYS sense). An 8x8 nest is wired as
before the 10x10 one existed: rows and columns 8 and 9 took pins that were free.

Rows are open-drain: a row not selected floats rather than driving high, so two closed
switches in one column can never short a high row to the low one, even on a matrix
built without diodes. Each switch has a diode whose cathode faces its row, so closed
switches elsewhere cannot make a ghost reading.
"""

import sys

from hardware.scanner_protocol import (
    BLINK_FAST,
    BLINK_ON,
    BLINK_SLOW,
    HELLO_INTERVAL_MS,
    LIGHTS_TIMEOUT_MS,
    SNAPSHOT_MAX_INTERVAL_MS,
    SNAPSHOT_MIN_INTERVAL_MS,
    Hello,
    HostFrameDecoder,
    Lights,
    Snapshot,
    bitmap_size,
)

# mypy reads this block, and neither interpreter runs it: MicroPython has no typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

FIRMWARE_VERSION = (2, 0)
"""(major, minor), announced in every HELLO."""

# What this nest has: set these three before copying the file to the Pico. The battle
# game's nest (wiring-battle.md): 10, 10 and 100; Operation Cuckoo's (wiring.md): 8, 8, 0.
MATRIX_ROWS = 8
MATRIX_COLUMNS = 8
LED_COUNT = 0
"""LEDs in the chain on ``LED_PIN`` (0: none); the daemon's [cell_lights] must agree."""

ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 18, 19)
"""GPIO of each row, row 0 first: open-drain outputs, pulled low to select the row."""

COLUMN_PINS = (10, 11, 12, 13, 14, 15, 16, 17, 20, 21)
"""GPIO of each column, column 0 first: inputs with pull-ups; low = switch closed."""

LED_PIN = 22
"""The LED chain's data line."""

HOST_BYTES_PER_STEP = 32
"""The most bytes from the host taken per scan: a LIGHTS frame of 100 LEDs (some 130
bytes) arrives over a few scans, and no scan waits long for it."""

LED_BIT_US = 1.25  # a WS2812's bit time (800 kHz)
LED_RESET_US = 300  # low this long latches what was sent (WS2812B-V5: 280 us at least)

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
      older)`` (MicroPython's wraps around; plain subtraction if not given);
    - ``read_host()``: the bytes the host has sent since the last call (up to
      ``HOST_BYTES_PER_STEP``; none if not given), for ``lights``, the LEDs, if any.
    """

    def __init__(
        self,
        drive_row: "Callable[[int, bool], object]",
        read_columns: "Callable[[], int]",
        write: "Callable[[bytes], object]",
        ticks_us: "Callable[[], int]",
        *,
        ticks_diff: "Callable[[int, int], int] | None" = None,
        rows: int = MATRIX_ROWS,
        cols: int = MATRIX_COLUMNS,
        scan_hz: int = SCAN_HZ,
        read_host: "Callable[[], bytes] | None" = None,
        lights: "PixelLights | None" = None,
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
        self._read_host = read_host
        self.lights = lights
        self._host_decoder = HostFrameDecoder()

    @property
    def host_frames_rejected(self) -> int:
        """Damaged frames and garbage from the host (as ``FrameDecoder`` counts them)."""
        return self._host_decoder.frames_rejected

    def step(self) -> None:
        """One scan period's work: a HELLO if due, one scan, a SNAPSHOT if due; the
        host's bytes taken, and the LEDs shown as they are at this moment."""
        now = self._ticks_us()
        if self._last_hello_us is None or self._ticks_diff(now, self._last_hello_us) >= HELLO_INTERVAL_MS * 1000:
            is_boot = self._last_hello_us is None
            major, minor = FIRMWARE_VERSION
            count = 0 if self.lights is None else self.lights.count
            self._send(Hello(self._seq, major, minor, self.rows, self.cols, self.scan_hz, is_boot, lights=count))
            self._last_hello_us = now
        self._scan()
        has_news = False
        for i in range(len(self._latch)):
            self._latch[i] |= self._reading[i] ^ self._reported[i]
            if self._latch[i]:
                has_news = True
        if self._is_snapshot_due(now, has_news):
            self._send_snapshot(now)
        if self._read_host is not None:
            data = self._read_host()
            if data:
                for frame in self._host_decoder.feed(data):
                    if self.lights is not None:
                        self.lights.take(frame, now)
        if self.lights is not None:
            self.lights.show(now)

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


class PixelLights:
    """The chain of ``count`` LEDs as the host's LIGHTS frames say, blinking by itself.

    ``write(words)`` sends one word per LED (green, red, blue in its top three bytes, as
    the PIO program shifts them out) and returns whether it could start (False while the
    last one is still going out: it is tried again at the next scan). A LIGHTS frame
    becomes the four pictures the chain can show (the slow and the fast blinking each
    lit or dark), so a scan only picks one; a picture is written only when it changes.
    Times are ``ticks_us`` values, compared through ``ticks_diff``.
    """

    def __init__(
        self,
        count: int,
        write: "Callable[[list[int]], bool]",
        *,
        ticks_diff: "Callable[[int, int], int] | None" = None,
    ) -> None:
        self.count = count
        self._write = write
        self._ticks_diff = ticks_diff or _subtract
        dark = _words(count)
        self._dark = dark
        self._pictures = [dark, dark, dark, dark]  # by (slow lit) * 2 + (fast lit)
        self._taken_us: int | None = None  # when the last LIGHTS came
        self._phase_ms = 0  # the host's blink clock then, within its second
        self._shown: list[int] | None = None  # the picture last written
        self._last_write_us: int | None = None
        # After a write, the chain is busy for its bits and the reset that latches them.
        self._write_gap_us = int(count * 24 * LED_BIT_US) + LED_RESET_US
        self.frames_taken = 0
        self.frames_misfit = 0
        """LIGHTS for another number of LEDs than this chain's: not shown."""
        self.writes = 0

    def take(self, frame: Lights, now: int) -> None:
        """Show what ``frame`` says from ``now`` on."""
        if frame.count != self.count:
            self.frames_misfit += 1
            return
        pictures = [_words(self.count) for _ in range(4)]
        for index in range(self.count):
            blink, (red, green, blue) = frame.led(index)
            if not blink:
                continue
            word = (green << 24) | (red << 16) | (blue << 8)
            for picture in range(4):
                slow_lit, fast_lit = picture >> 1, picture & 1
                if blink == BLINK_ON or (blink == BLINK_SLOW and slow_lit) or (blink == BLINK_FAST and fast_lit):
                    pictures[picture][index] = word
        self._pictures = pictures
        self._taken_us = now
        self._phase_ms = frame.phase_ms
        self._shown = None  # a new frame is written even if it looks the same: it may have been lost
        self.frames_taken += 1

    def picture(self, now: int) -> "list[int]":
        """The words the chain should show at ``now``."""
        if self._taken_us is None:
            return self._dark
        elapsed_ms = self._ticks_diff(now, self._taken_us) // 1000
        if elapsed_ms >= LIGHTS_TIMEOUT_MS:
            return self._dark  # the host has gone quiet: no stale "do this" on the nest
        clock_ms = self._phase_ms + elapsed_ms
        slow_lit = clock_ms % 1000 < 500
        fast_lit = clock_ms % 250 < 125
        return self._pictures[(2 if slow_lit else 0) + (1 if fast_lit else 0)]

    def show(self, now: int) -> None:
        """Write the picture of ``now`` if it is not the one shown and the chain is free."""
        picture = self.picture(now)
        if picture is self._shown:
            return
        if self._last_write_us is not None and self._ticks_diff(now, self._last_write_us) < self._write_gap_us:
            return
        if self._write(picture):
            self._shown = picture
            self._last_write_us = now
            self.writes += 1


def _words(count: int) -> "list[int]":
    """``count`` dark LEDs' words, in the array the DMA reads (a list where there is no
    ``array`` module)."""
    try:
        from array import array

        return array("I", bytes(4 * count))  # type: ignore[return-value]  # a list of ints to every reader
    except ImportError:
        return [0] * count


def pin_runs(pins: "tuple[int, ...]") -> "list[tuple[int, int, int]]":
    """The pins, in runs of consecutive GPIOs: (first GPIO, mask, first bit) for each,
    so that a read of all the GPIOs at once gives the columns with one shift per run.

    >>> pin_runs((10, 11, 12, 13, 14, 15, 16, 17, 20, 21))
    [(10, 255, 0), (20, 3, 8)]
    """
    runs: list[tuple[int, int, int]] = []
    for bit in range(len(pins)):
        pin = pins[bit]
        if runs and pin == runs[-1][0] + runs[-1][1].bit_length():
            first, mask, at = runs[-1]
            runs[-1] = (first, (mask << 1) | 1, at)
        else:
            runs.append((pin, 1, bit))
    return runs


def open_pixel_writer(count: int) -> "Callable[[list[int]], bool]":
    """The LED chain's writer on ``LED_PIN``: PIO0's state machine 0 makes the WS2812's
    pulses (1.25 us a bit: 0.375 us high for a 0, 0.875 us for a 1) at 8 MHz, and a DMA
    channel feeds it a whole picture while the CPU scans (MicroPython only)."""
    import machine  # type: ignore[import-not-found]  # MicroPython's own modules
    import rp2  # type: ignore[import-not-found]

    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)  # type: ignore[untyped-decorator]
    def ws2812() -> None:  # MicroPython's examples/rp2/pio_ws2812.py: 10 cycles a bit
        wrap_target()  # type: ignore[name-defined]  # noqa: F821  # rp2.asm_pio's names
        label("bitloop")  # type: ignore[name-defined]  # noqa: F821
        out(x, 1).side(0)[2]  # type: ignore[name-defined]  # noqa: F821
        jmp(not_x, "do_zero").side(1)[1]  # type: ignore[name-defined]  # noqa: F821
        jmp("bitloop").side(1)[4]  # type: ignore[name-defined]  # noqa: F821
        label("do_zero")  # type: ignore[name-defined]  # noqa: F821
        nop().side(0)[4]  # type: ignore[name-defined]  # noqa: F821
        wrap()  # type: ignore[name-defined]  # noqa: F821

    state_machine = rp2.StateMachine(0, ws2812, freq=8_000_000, sideset_base=machine.Pin(LED_PIN))
    state_machine.active(1)
    dma = rp2.DMA()
    # Words, the read address moving on, the write address (the state machine's TX FIFO)
    # fixed, paced by PIO0 state machine 0's TX request (DREQ 0).
    control = dma.pack_ctrl(size=2, inc_write=False, treq_sel=0)
    in_flight: list[object] = [None]  # the picture the DMA reads: kept from the garbage collector until done

    def write(words: "list[int]") -> bool:
        if dma.active():
            return False
        in_flight[0] = words
        dma.config(read=words, write=state_machine, count=count, ctrl=control, trigger=True)
        return True

    return write


def build_scanner() -> Scanner:
    """The scanner on the Pico's pins, sending over USB or the UART (MicroPython only)."""
    import time

    import machine  # type: ignore[import-not-found, unused-ignore]  # MicroPython's own module

    sleep_us = time.sleep_us  # type: ignore[attr-defined]
    rows = [machine.Pin(pin, machine.Pin.OPEN_DRAIN, value=1) for pin in ROW_PINS[:MATRIX_ROWS]]
    for pin in COLUMN_PINS[:MATRIX_COLUMNS]:
        machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
    # All the GPIOs' levels in one read of the SIO's GPIO_IN register (the same address on
    # the RP2040 and the RP2350): ten pin reads in Python would take most of a scan.
    gpio_in = 0xD0000004
    mem32 = machine.mem32
    runs = pin_runs(COLUMN_PINS[:MATRIX_COLUMNS])

    def drive_row(row: int, is_selected: bool) -> None:
        rows[row].value(0 if is_selected else 1)
        if is_selected:
            sleep_us(SETTLE_US)

    def read_columns() -> int:
        levels = mem32[gpio_in]
        columns = 0
        for first, mask, at in runs:
            columns |= ((levels >> first) & mask) << at
        return columns

    if USE_UART:
        uart = machine.UART(UART_ID, baudrate=UART_BAUD, tx=machine.Pin(UART_TX_PIN), rx=machine.Pin(UART_RX_PIN))
        write = uart.write

        def read_host() -> bytes:
            return uart.read(HOST_BYTES_PER_STEP) or b""

    else:
        import select

        write = sys.stdout.buffer.write
        stdin = sys.stdin.buffer
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)

        def read_host() -> bytes:
            got = b""
            while len(got) < HOST_BYTES_PER_STEP and poller.poll(0):
                got += stdin.read(1)  # one byte: a longer read waits for all of them
            return got

    lights = PixelLights(LED_COUNT, open_pixel_writer(LED_COUNT), ticks_diff=time.ticks_diff) if LED_COUNT else None  # type: ignore[attr-defined]
    return Scanner(
        drive_row,
        read_columns,
        write,
        time.ticks_us,  # type: ignore[attr-defined]
        ticks_diff=time.ticks_diff,  # type: ignore[attr-defined]
        read_host=read_host if LED_COUNT else None,
        lights=lights,
    )


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
