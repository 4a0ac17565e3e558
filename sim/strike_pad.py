"""The strike pad, simulated: a reader that sees whatever tag the simulated hand put on the
pad (the simulator's and the tests' :class:`~hardware.strike_pad.TagReader`).

The real reader's adapter (:class:`~hardware.strike_pad.Pn532Reader`) is tested against
Adafruit's own PN532 classes talking to a simulated PN532 chip on a pty
(tests/pn532_chip.py); this one stands in for the whole reader where the pad's events are
what matters (the simulator, the referee's tests).
"""

from __future__ import annotations

import threading


class MockTagReader:
    """A reader whose pad holds the tag :meth:`place` put there until :meth:`lift`; a look
    takes ``look_s`` (a real one waits for a tag up to its timeout)."""

    def __init__(self, *, look_s: float = 0.005) -> None:
        self._lock = threading.Lock()
        self._on: bytes | None = None
        self._failures = 0
        self._wake = threading.Event()
        self.look_s = look_s
        self.looks = 0
        self.is_closed = False

    def place(self, uid: bytes) -> None:
        """A piece with the tag ``uid`` is put on the pad."""
        with self._lock:
            self._on = uid

    def lift(self) -> None:
        """The piece is taken off the pad."""
        with self._lock:
            self._on = None

    def fail(self, looks: int = 1) -> None:
        """The next ``looks`` fail as a pulled wire does (OSError)."""
        with self._lock:
            self._failures += looks

    def read_uid(self) -> bytes | None:
        self._wake.wait(self.look_s)
        with self._lock:
            self.looks += 1
            if self._failures:
                self._failures -= 1
                raise OSError(5, "Input/output error")
            return self._on

    def close(self) -> None:
        self.is_closed = True
