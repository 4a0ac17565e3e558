"""The game's clock, in a game played with one (``[clock]``): both sides' times on the
OLED's bottom line, every second, and the low-time cue when the side to move falls
under its mark. The referee keeps the time (:mod:`firmware_host.clocks`); this part
shows it."""

from __future__ import annotations

from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import ClockShown
from firmware_host.daemon.tunes import Cue


class GameClock(Part):
    """The clock as the nest shows it."""

    name = "clock"

    def __init__(self, host: Host) -> None:
        self.host = host
        self._shown = ClockShown()

    def turn(self, now: int) -> None:
        service = self.host.service
        if service is None or self.host.paused:
            return
        if service.low_time(now) is not None:
            self.host.sound(Cue.LOW_TIME)
        times = service.clock_display(now)
        if times != self._shown.times:  # a game with a clock: its time, every second
            self._shown = ClockShown(times)
            self.host.show()

    def status(self) -> ClockShown:
        return self._shown
