"""The raw readings of the switches, kept for bug reports: sensor logs in a folder, one
file per start of the referee (and per ``SENSOR_LOG_BYTES``), the newest
``SENSOR_LOGS_KEPT`` kept. A log that cannot be written is given up with a warning: it
is never worth stopping the referee for."""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TextIO

from firmware_host.referee.sensor_log import SensorLogHeader, SensorLogWriter

logger = logging.getLogger(__name__)

SENSOR_LOG_BYTES = 16 * 1024 * 1024  # a sensor log is closed and a new one begun at this size
SENSOR_LOGS_KEPT = 10  # the newest sensor logs kept; older ones are deleted


class SensorLogs:
    """The folder of sensor logs, and the one being written."""

    def __init__(self, folder: str | Path, *, wall_clock: Callable[[], float]) -> None:
        self.folder = Path(folder)
        self._wall_clock = wall_clock
        self._file: TextIO | None = None
        self._path: Path | None = None
        self._writer: SensorLogWriter | None = None
        self._given_up = False

    def begin(self, header: SensorLogHeader) -> None:
        """A new log, beginning with ``header`` (what the nest holds)."""
        self.close()
        if self._given_up:
            return
        stamp = datetime.fromtimestamp(self._wall_clock()).strftime("sensors-%Y%m%d-%H%M%S")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for number in itertools.count():
                path = self.folder / f"{stamp}{f'-{number}' if number else ''}.log"
                try:
                    file = path.open("x", encoding="utf-8", buffering=1)
                    break
                except FileExistsError:
                    continue
            self._file, self._path = file, path
            old = sorted(self.folder.glob("sensors-*.log"), key=lambda p: p.stat().st_mtime)[:-SENSOR_LOGS_KEPT]
            for stale in old:
                stale.unlink()
            self._writer = SensorLogWriter(file.write)
            self._writer.header(header)
        except OSError as error:
            self._failed(error)

    def reading(self, time_ms: int, cell: str, occupied: bool, *, header: Callable[[], SensorLogHeader]) -> None:
        """One reading; a log grown to ``SENSOR_LOG_BYTES`` is closed and another begun
        with ``header()`` (what the nest holds then)."""
        if self._writer is None or self._file is None:
            return
        try:
            self._writer.reading(time_ms, cell, occupied)
            if self._file.tell() >= SENSOR_LOG_BYTES:
                self.begin(header())
        except OSError as error:
            self._failed(error)

    def _failed(self, error: OSError) -> None:
        logger.warning("sensor log %s: %s; no more readings are recorded", self._path or self.folder, error)
        self.close()
        self._given_up = True

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
        self._file, self._writer = None, None
