"""The switches' health, as the nest shows it: what the boot self-test found (its words
on the OLED's bottom line until the first move, and in the log), and whether a serial
scanner is there (a pulled cable: "sensors not connected")."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from firmware_host.daemon.diagnostics import boot_checks
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import SensorsShown
from firmware_host.referee.signals import MoveAccepted, Signal
from hardware.sensors import Crossing

logger = logging.getLogger(__name__)


class Sensors(Part):
    """The self-test's findings and the scanner's link."""

    name = "sensors"

    def __init__(self, host: Host) -> None:
        self.host = host
        self.is_tested = False
        self._shown = SensorsShown()

    def self_test(self, scans: Sequence[frozenset[Crossing]], occupied: Sequence[str]) -> None:
        """The boot self-test over ``scans`` taken with nobody touching the nest, which
        should hold ``occupied`` (empty: anything)."""
        self.is_tested = True
        findings = boot_checks(list(scans), self.host.config.matrix, occupied=list(occupied))
        for finding in findings:
            logger.warning("self-test: %s", finding.to_text())
        notice = "check " + " ".join(place for f in findings for place in f.where) if findings else ""
        self._shown = SensorsShown(
            self._shown.connected,
            notice,
            self._shown.findings + tuple(finding.to_text() for finding in findings),
        )

    @property
    def is_link_as_shown(self) -> bool:
        """Whether the scanner's link is as the nest shows it."""
        return self.host.devices.switches.connected == self._shown.connected

    def turn(self, now: int) -> None:
        connected = self.host.devices.switches.connected
        if connected != self._shown.connected:
            self._shown = SensorsShown(connected, self._shown.notice, self._shown.findings)
            (logger.info if connected else logger.warning)("sensors %s", "connected" if connected else "not connected")
            self.host.show()

    def heard(self, signal: Signal) -> None:
        if isinstance(signal, MoveAccepted) and self._shown.notice:
            self._shown = SensorsShown(self._shown.connected, "", self._shown.findings)  # until the first move

    def status(self) -> SensorsShown:
        return self._shown
