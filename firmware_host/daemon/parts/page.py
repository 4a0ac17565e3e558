"""The web page, as the nest shows it: its address, and the PIN that lets a page at
another machine act, on the OLED's bottom line (the PIN there and nowhere else)."""

from __future__ import annotations

from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import PageShown


class Page(Part):
    """Where the page is served, and its PIN."""

    name = "page"

    def __init__(self, host: Host, *, address: str = "") -> None:
        self.host = host
        self._shown = PageShown(address)

    def show_address(self, address: str) -> None:
        self._shown = PageShown(address, self._shown.pin)
        self.host.show()

    def show_pin(self, pin: str) -> None:
        self._shown = PageShown(self._shown.address, pin)
        self.host.show()

    def status(self) -> PageShown:
        return self._shown
