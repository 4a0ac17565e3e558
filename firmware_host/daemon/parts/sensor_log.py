"""The raw readings of the switches, for bug reports (``[storage] sensor_log``): a log
begun with what the nest holds each time a referee starts, every reading of a cell's
switch written as it is felt (:class:`~firmware_host.daemon.sensor_logs.SensorLogs`).
Its header carries the position's public view alone: no hidden rank."""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.sensor_logs import SensorLogs
from firmware_host.games.base import public_view
from firmware_host.referee.sensor_log import SensorLogHeader


class SensorLog(Part):
    """The sensor logs being written."""

    name = "sensor log"

    def __init__(self, host: Host, folder: str) -> None:
        self.host = host
        self.logs = SensorLogs(folder, wall_clock=host.wall_clock)

    def _header(self, occupied: Sequence[str]) -> SensorLogHeader:
        service = self.host.service
        position = service.referee.position if service is not None else None
        public = public_view(self.host.config.game, position) if position is not None else None
        return SensorLogHeader(public, tuple(occupied))

    def referee_started(self, occupied: Sequence[str]) -> None:
        self.logs.begin(self._header(occupied))

    def sensed(self, cell: str, closed: bool, now: int) -> None:
        self.logs.reading(now, cell, closed, header=lambda: self._header(self.host.occupied()))

    def restarted(self) -> None:
        self.logs.close()

    def close(self) -> None:
        self.logs.close()
