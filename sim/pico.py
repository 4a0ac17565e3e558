"""A Raspberry Pi Pico scanning the nest, simulated: the firmware's own ``Scanner``
(hardware/pico/main.py) in a thread, over a simulated matrix, writing to a pty.

The daemon's ``SerialScanner`` reads the pty's slave side through a symlink, as it would
read /dev/ttyACM0. Closing the master is pulling the cable; a new pty behind the same
symlink is plugging it back. The firmware's clock advances exactly 1 ms per scan, so
what it sends depends on scans, not on how busy the machine is. The simulator and the
serial backend's tests use it.

With LEDs (``lights``), the firmware's own ``PixelLights`` reads the daemon's LIGHTS
frames from the same pty and writes its pictures where the PIO's DMA would take them:
``pixels()`` is what the chain shows now. (tests/test_scanner_protocol.py runs the same
classes on MicroPython's Unix port.)
"""

from __future__ import annotations

import os
import threading
import tty
from collections.abc import Iterable
from pathlib import Path

from hardware.pico.main import PixelLights, Scanner
from hardware.scanner_protocol import Snapshot, decode_packet
from hardware.sensors import Crossing

WAIT_S = 5.0


class SimulatedMatrix:
    """A reed-switch matrix (8x8 unless told) as the firmware's row and column callables see it."""

    def __init__(self, columns: int = 8) -> None:
        self._open = (1 << columns) - 1  # every column high: no switch closed on the row
        self._lock = threading.Lock()
        self._closed: set[Crossing] = set()
        self._next_scan_flickers: set[Crossing] = set()
        self._levels: dict[int, int] = {}  # row: its column levels, read at the scan's start
        self._selected_row: int | None = None

    def set_closed(self, positions: Iterable[Crossing]) -> None:
        with self._lock:
            self._closed = set(positions)

    def set(self, position: Crossing, closed: bool) -> None:
        """Close (a piece's magnet arrives) or open (it leaves) one switch."""
        with self._lock:
            (self._closed.add if closed else self._closed.discard)(position)

    def flicker_next_scan(self, positions: Iterable[Crossing]) -> None:
        """The next scan reads these switches the other way; the one after, as before."""
        with self._lock:
            self._next_scan_flickers |= set(positions)

    def drive_row(self, row: int, is_selected: bool) -> None:
        if is_selected and row == 0:  # a scan starts: what it reads is fixed now
            with self._lock:
                reading = self._closed ^ self._next_scan_flickers
                self._next_scan_flickers = set()
            self._levels = {}
            for closed_row, column in reading:  # a closed switch pulls its column low
                self._levels[closed_row] = self._levels.get(closed_row, self._open) & ~(1 << column)
        self._selected_row = row if is_selected else None

    def read_columns(self) -> int:
        return self._open if self._selected_row is None else self._levels.get(self._selected_row, self._open)


class SimulatedPico:
    """The firmware's Scanner in a thread, writing to whichever pty ``link`` points at:
    a ``size`` matrix (rows, columns) and a chain of ``lights`` LEDs (0: none)."""

    def __init__(self, link: Path, *, size: tuple[int, int] = (8, 8), lights: int = 0) -> None:
        self.link = link
        self.size = size
        self.lights = lights
        self.matrix = SimulatedMatrix(size[1])
        self._pixels: tuple[int, ...] = (0,) * lights  # the words last written to the chain
        self.pixel_writes = 0
        self.frames_dropped = 0
        self._master: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._frames_to_drop = 0
        self._garbage = b""
        self._flickers_after_snapshot: set[Crossing] = set()
        self._now_us = 0

    def plug(self) -> None:
        """A new pty, with the link re-pointed at it (as udev would a new /dev/ttyACM0)."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo of what the firmware writes before the host opens it
        path = os.ttyname(slave)
        os.close(slave)
        os.set_blocking(master, False)  # a full buffer drops frames, as USB does
        temporary = self.link.with_name(self.link.name + ".new")
        os.symlink(path, temporary)
        os.replace(temporary, self.link)
        self._master = master

    def boot(self) -> None:
        """Power on: the firmware starts, a boot HELLO first."""
        self._stop.clear()
        self._now_us = 0
        rows, columns = self.size
        scanner = Scanner(
            self.matrix.drive_row,
            self.matrix.read_columns,
            self._write,
            lambda: self._now_us,
            rows=rows,
            cols=columns,
            read_host=self._read_host,
            lights=PixelLights(self.lights, self._write_pixels) if self.lights else None,
        )
        self._thread = threading.Thread(target=self._run, args=(scanner,), daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the firmware stops and the pty is gone."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=WAIT_S)
            if self._thread.is_alive():
                raise RuntimeError("the simulated Pico did not stop")
            self._thread = None
        if self._master is not None:
            os.close(self._master)
            self._master = None

    def drop_frames(self, count: int) -> None:
        with self._lock:
            self._frames_to_drop += count

    def inject(self, garbage: bytes) -> None:
        """Bytes to write just before the next frame."""
        with self._lock:
            self._garbage += garbage

    def flicker_after_next_snapshot(self, positions: Iterable[Crossing]) -> None:
        """Flip these switches for the one scan right after the next SNAPSHOT is sent."""
        with self._lock:
            self._flickers_after_snapshot |= set(positions)

    def pixels(self) -> list[tuple[int, int, int]]:
        """What each LED of the chain shows now: (red, green, blue)."""
        with self._lock:
            words = self._pixels
        return [(word >> 16 & 0xFF, word >> 24 & 0xFF, word >> 8 & 0xFF) for word in words]

    def _write_pixels(self, words: list[int]) -> bool:
        picture = tuple(words)
        with self._lock:
            self._pixels = picture
            self.pixel_writes += 1
        return True

    def _read_host(self) -> bytes:
        master = self._master
        if master is None:
            return b""
        try:
            return os.read(master, 32)  # HOST_BYTES_PER_STEP, as on the Pico
        except (BlockingIOError, OSError):
            return b""

    def _run(self, scanner: Scanner) -> None:
        while not self._stop.is_set():
            scanner.step()
            self._now_us += 1000  # the firmware's clock: exactly one scan period a scan
            self._stop.wait(0.001)  # and roughly 1 kHz in real time

    def _write(self, frame: bytes) -> None:
        with self._lock:
            garbage, self._garbage = self._garbage, b""
            is_dropped = self._frames_to_drop > 0
            self._frames_to_drop -= is_dropped
        if garbage:
            self._send(garbage)
        if is_dropped or not self._send(frame):
            self.frames_dropped += 1
        elif self._flickers_after_snapshot and isinstance(decode_packet(frame[1:-1]), Snapshot):
            with self._lock:
                flickers, self._flickers_after_snapshot = self._flickers_after_snapshot, set()
            self.matrix.flicker_next_scan(flickers)

    def _send(self, data: bytes) -> bool:
        assert self._master is not None
        try:
            return os.write(self._master, data) == len(data)
        except BlockingIOError:
            return False
