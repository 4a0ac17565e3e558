"""The switch matrix as a Pico scanning it reports it over a serial port.

``SerialScanner`` reads the frames of ``hardware.scanner_protocol`` (written down in
docs/scanner-protocol.md) with pyserial and turns each SNAPSHOT into a ``ScanUpdate``.
Nothing that comes through the port can stop the daemon: garbage is skipped up to the
next frame, a lost frame is counted and made good by the next one (every SNAPSHOT is
the whole matrix), and a pulled cable closes the port, which is then reopened through
the shared ``Backoff`` until the Pico is back; its first SNAPSHOT after that is
reported whatever it holds, so the daemon sees the full picture again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from types import TracebackType
from typing import Protocol, Self

import serial

from hardware.reconnect import Backoff
from hardware.scanner_protocol import (
    PROTOCOL_VERSION,
    SNAPSHOT_MAX_INTERVAL_MS,
    FrameDecoder,
    Hello,
    Snapshot,
    is_bit_set,
)
from hardware.sensors import Crossing, ScanUpdate

logger = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115200
"""The firmware's UART speed; a USB port ignores it."""

STALE_AFTER_S = 5 * SNAPSHOT_MAX_INTERVAL_MS / 1000
"""With no valid frame for this long (five missed heartbeats), the link is down."""

# A flooded port cannot hold up the daemon's loop: one poll reads at most this many
# chunks, and stops reading after the time budget (what is left waits in the port for the
# next poll). A Pico sends at most 6 kB/s, some 30 bytes per scan period.
_READ_SIZE = 1024
_MAX_READS_PER_POLL = 16
POLL_BUDGET_S = 0.002


class SerialPort(Protocol):
    """What the scanner uses of a pyserial port."""

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes, without waiting (the port is opened with timeout=0)."""
        ...

    def write(self, data: bytes) -> int | None:
        """Write what fits now, without waiting (opened with write_timeout=0)."""
        ...

    def close(self) -> None:
        """Release the port."""
        ...


class OpenPort(Protocol):
    """Opens a port: :func:`open_serial` or a test's stand-in."""

    def __call__(self, url: str, *, baudrate: int, timeout: float) -> SerialPort: ...


def open_serial(url: str, *, baudrate: int, timeout: float) -> SerialPort:
    """A pyserial port that never waits to write either: what the Pico does not take at
    once is dropped (a LIGHTS frame cut short is refused by the Pico, and sent again)."""
    port: SerialPort = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=0)
    return port


class SerialScanner:
    """A ``SwitchMatrix`` read from a Pico over a serial port (USB or UART).

    ``url`` is a device path (``/dev/ttyACM0``, ``/dev/serial0``, a pty) or any pyserial
    URL; ``size`` the (rows, columns) of the matrix the config wires: a HELLO or a
    SNAPSHOT of another size is not this nest's matrix, and its reports are not taken.
    The port is opened by ``poll()``, not here, and reopened by ``poll()`` when
    ``backoff`` says so after it failed. ``clock`` gives seconds (monotonic).
    """

    def __init__(
        self,
        url: str,
        *,
        size: tuple[int, int],
        baudrate: int = DEFAULT_BAUDRATE,
        open_port: OpenPort = open_serial,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
    ) -> None:
        self.url = url
        self.size = size
        self._baudrate = baudrate
        self._open_port = open_port
        self._clock = clock
        self._backoff = backoff or Backoff(f"serial scanner {url}", logger)
        self._port: SerialPort | None = None
        self._is_closed = False
        self._decoder = FrameDecoder()
        self._last_seq: int | None = None
        self._last_frame_at: float | None = None
        self._has_reported_since_open = False
        self._last_closed: frozenset[Crossing] | None = None
        self.hello: Hello | None = None
        """The latest HELLO of the config's matrix size: the firmware version and the
        matrix size (None before one)."""
        self.frames_received = 0
        """Valid frames, since this scanner was made."""
        self.frames_lost = 0
        """Frames missing from the sequence numbers (a reconnection's gap not counted)."""
        self.frames_misfit = 0
        """Valid frames of another matrix size than the config's (or the HELLO's): not taken."""
        self._misfit_logged: set[tuple[int, int]] = set()
        self._announced: tuple[int, int] | None = None  # the size the last HELLO announced
        self.link_id = 0
        """Goes up when the port is (re)opened and when the Pico announces it booted: what
        the Pico was sent before may be lost (its LEDs, which the cell lights send again)."""

    @property
    def frames_rejected(self) -> int:
        """Damaged frames and garbage, counted once per stretch up to the next zero byte."""
        return self._decoder.frames_rejected

    @property
    def connected(self) -> bool:
        """Whether the port is open and a valid frame arrived in the last ``STALE_AFTER_S``."""
        return (
            self._port is not None
            and self._last_frame_at is not None
            and self._clock() - self._last_frame_at <= STALE_AFTER_S
        )

    def poll(self) -> list[ScanUpdate]:
        """The reports that arrived since the last call, oldest first; never raises.

        An update is made for every SNAPSHOT that differs from the previous one (or
        has flickers), and for the first after the port was (re)opened.
        """
        if self._is_closed:
            return []
        port = self._reopen() if self._port is None else self._port
        updates: list[ScanUpdate] = []
        if port is None:
            return updates
        try:
            began = self._clock()
            for _ in range(_MAX_READS_PER_POLL):
                data = port.read(_READ_SIZE)
                if not data:
                    break
                self._take(data, updates)
                if self._clock() - began >= POLL_BUDGET_S:
                    break
        except (serial.SerialException, OSError) as error:  # unplugged, or the device failed
            self._lose_port(error)
        except Exception as error:  # a driver's bug must not stop the referee: log it whole, reconnect
            logger.exception("serial scanner %s: unexpected error reading the port", self.url)
            self._lose_port(error)
        return updates

    def send(self, data: bytes) -> bool:
        """Write ``data`` to the Pico (a LIGHTS frame), if the port is open and takes all of
        it now; never raises and never waits. A port that fails is lost, as in ``poll()``."""
        port = self._port
        if port is None or self._is_closed:
            return False
        try:
            written = port.write(data)
        except (serial.SerialException, OSError) as error:  # unplugged
            self._lose_port(error)
            return False
        except Exception as error:  # a driver's bug must not stop the referee
            logger.exception("serial scanner %s: unexpected error writing the port", self.url)
            self._lose_port(error)
            return False
        return written is None or written == len(data)

    def close(self) -> None:
        """Close the port; ``poll()`` then reports nothing. Safe to call twice."""
        self._is_closed = True
        self._close_port()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def _reopen(self) -> SerialPort | None:
        now = self._clock()
        if not self._backoff.is_due(now):
            return None
        try:
            self._port = self._open_port(self.url, baudrate=self._baudrate, timeout=0)
        except Exception as error:  # a missing device, a bad URL: both mean "try later"
            self._backoff.failed(now, error)
            return None
        self._decoder.reset()
        self._last_seq = None
        self._last_frame_at = None
        self._has_reported_since_open = False
        self.link_id += 1
        return self._port

    def _lose_port(self, error: BaseException) -> None:
        self._close_port()
        self._backoff.failed(self._clock(), error)

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a port that is already gone may fail; it is gone either way
                logger.debug("serial scanner %s: error closing the port", self.url, exc_info=True)

    def _take(self, data: bytes, updates: list[ScanUpdate]) -> None:
        for frame in self._decoder.feed(data):
            self.frames_received += 1
            self._count_lost(frame)
            if not self._fits(frame):
                continue
            if self._last_frame_at is None:
                self._backoff.succeeded()  # a frame of this nest's matrix, not just an open port, proves the link
            self._last_frame_at = self._clock()
            if isinstance(frame, Hello):
                self._take_hello(frame)
            else:
                update = self._to_update(frame)
                if update is not None:
                    updates.append(update)

    def _fits(self, frame: Hello | Snapshot) -> bool:
        """Whether ``frame`` is of the matrix the config wires and the last HELLO
        announced; a misfit is counted, and logged once per size."""
        size = (frame.rows, frame.cols)
        if isinstance(frame, Hello):
            self._announced = size
        if size == self.size and self._announced in (None, self.size):
            return True
        self.frames_misfit += 1
        if size not in self._misfit_logged:
            self._misfit_logged.add(size)
            what = "announces" if isinstance(frame, Hello) else "reports"
            logger.error(
                "serial scanner %s %s a %dx%d matrix, but the config wires %dx%d: its reports are not taken"
                " (check [sensors] and the Pico's firmware)",
                self.url,
                what,
                frame.rows,
                frame.cols,
                *self.size,
            )
        return False

    def _count_lost(self, frame: Hello | Snapshot) -> None:
        # A boot HELLO starts the numbers again at 0: that jump loses nothing.
        is_restart = isinstance(frame, Hello) and frame.is_boot
        if self._last_seq is not None and not is_restart:
            lost = (frame.seq - self._last_seq - 1) & 0xFF
            if lost:
                logger.debug("serial scanner %s: %d frames lost before #%d", self.url, lost, frame.seq)
            self.frames_lost += lost
        self._last_seq = frame.seq

    def _take_hello(self, hello: Hello) -> None:
        previous, self.hello = self.hello, hello
        if hello.is_boot:
            self.link_id += 1
        if previous is not None and _identity(previous) == _identity(hello):
            return  # the periodic repeat of what is known already
        logger.info(
            "serial scanner %s: firmware %s, %dx%d matrix scanned at %d Hz, %d LEDs",
            self.url,
            hello.firmware_version,
            hello.rows,
            hello.cols,
            hello.scan_hz,
            hello.lights,
        )
        if not 1 <= hello.protocol_version <= PROTOCOL_VERSION:
            logger.warning(
                "serial scanner %s speaks protocol version %d; this daemon knows versions 1 to %d",
                self.url,
                hello.protocol_version,
                PROTOCOL_VERSION,
            )

    def _to_update(self, snapshot: Snapshot) -> ScanUpdate | None:
        closed = crossings_in(snapshot.closed, snapshot.rows, snapshot.cols)
        latched = crossings_in(snapshot.latch, snapshot.rows, snapshot.cols)
        previous = closed if self._last_closed is None else self._last_closed
        # A latched switch that is back where the previous update had it changed and
        # changed back: a flicker. One that is not back simply changed, as ``closed`` shows.
        flickered = latched - (closed ^ previous)
        is_news = not self._has_reported_since_open or closed != previous or bool(flickered)
        self._last_closed = closed
        self._has_reported_since_open = True
        return ScanUpdate(closed, flickered) if is_news else None


def _identity(hello: Hello) -> tuple[str, int, int, int, int, int]:
    return (hello.firmware_version, hello.rows, hello.cols, hello.scan_hz, hello.protocol_version, hello.lights)


def crossings_in(bitmap: bytes, rows: int, cols: int) -> frozenset[Crossing]:
    """The (row, column) of every bit set in a protocol bitmap.

    >>> sorted(crossings_in(bytes([0b1001]), 2, 2))
    [(0, 0), (1, 1)]
    """
    return frozenset((row, col) for row in range(rows) for col in range(cols) if is_bit_set(bitmap, row * cols + col))
