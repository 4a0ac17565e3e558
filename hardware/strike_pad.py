"""The strike pad: one NFC reader beside the nest, a sticker tag under each piece. A piece
put on the pad is read, and its tag's UID reported as an event; which piece that is, the
driver does not know (the config's tags file says, and the referee decides what it means).

The reader is a small interface, :class:`TagReader` (one look at the pad: the UID of the
tag on it, or None). Its real implementation, :class:`Pn532Reader`, is a thin adapter over
Adafruit's ``adafruit-circuitpython-pn532`` library, talking to a PN532 module in HSU
(UART) mode through pyserial. Why this one, and why on the Pi's UART: docs/daemon.md,
"The strike pad". :class:`PadWatch` turns looks into events (pure, the time passed in);
:class:`StrikePad` looks in a thread of its own, since one look waits for the reader
(up to its timeout), and hands the events to the daemon's loop without ever waiting.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hardware.errors import DeviceError
from hardware.reconnect import Backoff

logger = logging.getLogger(__name__)

LIFTED_AFTER_S = 0.3
"""A tag not read for this long is off the pad (a look takes 0.1 s when no tag is there:
three missed looks, so a single bad read never lifts a piece)."""

LOOK_TIMEOUT_S = 0.1
"""How long one look waits for a tag."""

PN532_BAUDRATE = 115200  # the PN532's HSU speed after power-up


@dataclass(frozen=True)
class TagPlaced:
    """A tag came onto the pad (``at``: the pad's clock, seconds)."""

    uid: bytes
    at: float


@dataclass(frozen=True)
class TagLifted:
    """The tag that was on the pad left it."""

    uid: bytes
    at: float


PadEvent = TagPlaced | TagLifted


class TagReader(Protocol):
    """An NFC reader, as the pad uses it."""

    def read_uid(self) -> bytes | None:
        """One look at the pad: the UID of the tag on it, or None; it may wait up to its
        timeout. Raises OSError (or the reader's own error) when the reader fails."""
        ...

    def close(self) -> None:
        """Release the port."""
        ...


class PadWatch:
    """Looks at the pad, into events: a tag read while none was on is placed; a tag not
    read for ``lifted_after_s`` (or another tag read) is lifted. Pure: the time is given."""

    def __init__(self, lifted_after_s: float = LIFTED_AFTER_S) -> None:
        self.lifted_after_s = lifted_after_s
        self.on: bytes | None = None
        """The tag on the pad now (None: the pad is clear)."""
        self._last_read_at = 0.0

    def look(self, uid: bytes | None, now: float) -> list[PadEvent]:
        """The events that a look at ``now`` finding ``uid`` (None: no tag) makes."""
        events: list[PadEvent] = []
        if uid is not None:
            if self.on is not None and uid != self.on:
                events.append(TagLifted(self.on, now))
                self.on = None
            if self.on is None:
                events.append(TagPlaced(uid, now))
                self.on = uid
            self._last_read_at = now
        elif self.on is not None and now - self._last_read_at >= self.lifted_after_s:
            events.append(TagLifted(self.on, now))
            self.on = None
        return events

    def clear(self, now: float) -> list[PadEvent]:
        """The reader was lost: a tag on the pad is lifted as far as anyone can tell."""
        events: list[PadEvent] = [TagLifted(self.on, now)] if self.on is not None else []
        self.on = None
        return events


class StrikePad:
    """The pad, looked at in a thread of its own: :meth:`poll` hands over the events
    since the last call, oldest first, and never waits. ``open_reader`` opens the reader
    (:class:`Pn532Reader`, or a mock); it is opened again through ``backoff`` when it
    fails, and a failure is logged, never raised."""

    def __init__(
        self,
        open_reader: Callable[[], TagReader],
        *,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
        watch: PadWatch | None = None,
        pause_s: float = 0.02,
    ) -> None:
        self._open_reader = open_reader
        self._clock = clock
        self._backoff = backoff or Backoff("strike pad", logger)
        self._watch = watch or PadWatch()
        self._pause_s = pause_s
        self._events: deque[PadEvent] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reader: TagReader | None = None
        self._thread: threading.Thread | None = None
        self.looks = 0

    @property
    def connected(self) -> bool:
        """Whether the reader is open and answered its last look."""
        return self._reader is not None

    def start(self) -> None:
        """Start looking (the thread is a daemon thread: it never holds up an exit)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="strike pad", daemon=True)
            self._thread.start()

    def poll(self) -> list[PadEvent]:
        """The events since the last call, oldest first."""
        with self._lock:
            events = list(self._events)
            self._events.clear()
        return events

    def close(self) -> None:
        """Stop looking and release the reader. Safe to call twice."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5 * LOOK_TIMEOUT_S + 1)
            self._thread = None
        self._close_reader()

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self._clock()
            if self._reader is None:
                if not self._backoff.is_due(now):
                    self._stop.wait(self._pause_s)
                    continue
                try:
                    self._reader = self._open_reader()
                except Exception as error:  # no reader, a port that is not there: try later
                    self._backoff.failed(now, error)
                    continue
            try:
                uid = self._reader.read_uid()
            except Exception as error:  # a pulled wire, a garbled frame: the reader again, later
                self._close_reader()
                self._backoff.failed(self._clock(), error)
                self._keep(self._watch.clear(self._clock()))
                continue
            self._backoff.succeeded()
            self.looks += 1
            self._keep(self._watch.look(uid, self._clock()))
            self._stop.wait(self._pause_s)

    def _keep(self, events: list[PadEvent]) -> None:
        if events:
            with self._lock:
                self._events.extend(events)

    def _close_reader(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            with contextlib.suppress(Exception):
                reader.close()


class Pn532Reader:
    """A PN532 module in HSU (UART) mode on serial ``port``, through Adafruit's
    ``adafruit_pn532`` (its :class:`PN532_UART`, over a pyserial port, which is what it
    asks of a UART: ``read``, ``write``, ``in_waiting``, ``reset_input_buffer``).

    Raises :class:`DeviceError` saying what to check when the module does not answer.
    """

    def __init__(
        self,
        port: str,
        *,
        timeout_s: float = LOOK_TIMEOUT_S,
        open_port: Callable[..., Any] | None = None,
    ) -> None:
        import serial  # here, not at the top: a nest without a pad loads no pyserial

        try:
            from adafruit_pn532.uart import PN532_UART
        except ImportError as error:
            raise DeviceError(
                f"strike pad: the PN532 library is missing ({error}); install nestref with its strike-pad extra"
            ) from None
        self.port = port
        self._timeout_s = timeout_s
        try:
            self._serial = (open_port or serial.serial_for_url)(port, baudrate=PN532_BAUDRATE, timeout=timeout_s)
        except (serial.SerialException, OSError, ValueError) as error:
            raise DeviceError(f"strike pad: cannot open {port} ({error}); check [strike_pad] port") from None
        try:
            self._pn532 = PN532_UART(self._serial, debug=False)  # wakes it, configures it, asks its version
            self.firmware = tuple(self._pn532.firmware_version)
        except (RuntimeError, OSError, serial.SerialException) as error:
            self.close()
            raise DeviceError(
                f"strike pad: no PN532 answers on {port} ({error}); check its wiring and that its switches"
                " select HSU (UART)"
            ) from None

    def read_uid(self) -> bytes | None:
        uid = self._pn532.read_passive_target(timeout=self._timeout_s)
        return bytes(uid) if uid else None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._serial.close()
