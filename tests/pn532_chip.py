"""A PN532 in HSU (UART) mode, simulated on a pty: it answers the frames of the PN532 User
Manual (NXP UM0701-02, section 6.2) that Adafruit's library sends to read a tag's UID.

Host to chip: ``00 00 FF LEN LCS D4 CMD params DCS 00`` (LEN + LCS and the sum of
``D4 CMD params`` + DCS are 0 modulo 256), after a wake-up of ``55 55 00 ...``. The chip
answers ``00 00 FF 00 FF 00`` (ACK), then ``00 00 FF LEN LCS D5 CMD+1 data DCS 00``.
It knows GetFirmwareVersion (02), SAMConfiguration (14) and InListPassiveTarget (4A),
which waits, unanswered, until a tag is on the pad or another command comes; any other
command is answered with an error frame (``00 00 FF 01 FF 7F 81 00``), as the chip does.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from pathlib import Path

ACK = b"\x00\x00\xff\x00\xff\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # IC PN532, version 1.6, ISO 14443A/B and 18092


def frame(data: bytes) -> bytes:
    """A frame from the chip carrying ``data`` (D5, the command + 1, its data)."""
    return bytes([0, 0, 0xFF, len(data), -len(data) & 0xFF, *data, -sum(data) & 0xFF, 0])


class Pn532Chip:
    """The chip on the master side of a pty; ``path`` is the port the host opens."""

    def __init__(self, link: Path) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.symlink(os.ttyname(self._slave), link)
        self.path = str(link)
        self._lock = threading.Lock()
        self._tag: bytes | None = None
        self._waiting = False  # an InListPassiveTarget unanswered
        self._buffer = b""
        self.commands: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def place(self, uid: bytes) -> None:
        with self._lock:
            self._tag = uid

    def lift(self) -> None:
        with self._lock:
            self._tag = None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for fd in (self._master, self._slave):
            os.close(fd)

    def _run(self) -> None:
        while not self._stop.is_set():
            readable, _, _ = select.select([self._master], [], [], 0.005)
            if readable:
                self._buffer += os.read(self._master, 1024)
                self._take_frames()
            with self._lock:
                tag = self._tag if self._waiting else None
            if tag is not None:
                self._waiting = False
                # NbTg 1, Tg 1, SENS_RES 00 44, SEL_RES 00, the UID's length and the UID.
                os.write(self._master, frame(bytes([0xD5, 0x4B, 1, 1, 0x00, 0x44, 0x00, len(tag), *tag])))

    def _take_frames(self) -> None:
        while (start := self._buffer.find(b"\x00\xff")) >= 0 and len(self._buffer) >= start + 4:
            length, check = self._buffer[start + 2], self._buffer[start + 3]
            end = start + 4 + length + 1
            if len(self._buffer) < end:
                return
            data, checksum = self._buffer[start + 4 : end - 1], self._buffer[end - 1]
            self._buffer = self._buffer[end:]
            if (length + check) & 0xFF or (sum(data) + checksum) & 0xFF or len(data) < 2 or data[0] != 0xD4:
                continue  # not a frame for the chip: the real one ignores it too
            self._answer(data[1], data[2:])

    def _answer(self, command: int, params: bytes) -> None:
        self.commands.append(command)
        self._waiting = False  # a new command ends the wait for a tag
        os.write(self._master, ACK)
        if command == 0x02:
            os.write(self._master, frame(bytes([0xD5, 0x03, *FIRMWARE])))
        elif command == 0x14:
            os.write(self._master, frame(bytes([0xD5, 0x15])))
        elif command == 0x4A and params[:1] == b"\x01":
            self._waiting = True
        else:
            os.write(self._master, ERROR_FRAME)
