"""The evidence of captures in what the sensors read: a capture's target must read empty,
however briefly, after its capturer was lifted (the captured piece taken off, or pushed
off as the capturer landed), or the capture cannot be told from the capturer held in the
air. A flicker proves one capture only: once a capture it proved is played, a later
capture on that cell needs a flicker of its own."""

from __future__ import annotations

from firmware_host.referee.sensing import LONG_AGO, SensorFilter, Timing
from firmware_host.referee.tracker import Observation


class CaptureEvidence:
    """What the sensors show of captures, for the tracker's :class:`Observation`."""

    def __init__(self, sensors: SensorFilter, timing: Timing) -> None:
        self.sensors = sensors
        self.timing = timing
        self._proof_used: dict[str, int] = {}  # cell: when the flicker that proved a capture there ended

    def observation(self) -> Observation:
        """What the sensors say now."""
        sensors = self.sensors
        return Observation(
            sensors.settled,
            sensors.faulty.keys(),
            self.evidence,
            sensors.settled_since.__getitem__,
            self.landed,
            sensors.last_emptied.__getitem__,
            self.prompt_evidence,
            sensors.last_left.__getitem__,
        )

    def spend(self, origin: str, target: str) -> None:
        """A capture from ``origin`` to ``target`` that the sensors proved was played: the
        flicker on ``target`` that proved it proves no later one."""
        self._proof_used[target] = self.sensors.first_burst_end(
            target, self.sensors.last_emptied[origin] - self.timing.capture_grace_ms
        )

    def landed(self, origin: str, target: str) -> bool:
        """Whether a piece came to rest on ``target`` as soon after ``origin`` was lifted
        as a capturer lands."""
        sensors, timing = self.sensors, self.timing
        left = sensors.last_emptied[origin]
        return left - timing.capture_grace_ms <= sensors.last_landing[target] <= left + timing.land_ms

    def evidence(self, origin: str, target: str, *, within: int | None = None) -> bool | None:
        """Whether ``target`` read empty after ``origin`` was lifted (within ``within`` ms
        of it, if given); None when a faulty sensor cannot say."""
        sensors = self.sensors
        if origin in sensors.faulty or target in sensors.faulty:
            return None
        floor = self._proof_used.get(target, LONG_AGO)
        lifted_at = sensors.last_emptied[origin]
        return sensors.was_empty_since(
            target, lifted_at, grace=self.timing.capture_grace_ms, floor=floor, within=within
        )

    def prompt_evidence(self, origin: str, target: str) -> bool | None:
        """Evidence as a capture makes it: the target's first change after the capturer
        left came as soon as a capturer lands."""
        return self.evidence(origin, target, within=self.timing.land_ms)
