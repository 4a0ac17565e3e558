"""A light of any colour under every cell: a chain of WS2812 (or SK6812) LEDs that the Pico
scanning the matrix drives, told by LIGHTS frames over the same serial link
(docs/scanner-protocol.md).

:class:`PicoCellLights` has the cell lights' small interface (``show``, ``refresh``,
``next_change``, ``lit``, ``clear``, as :class:`hardware.lights.CellLights`). The Pico blinks
the LEDs itself, from the phase of this daemon's blink clock that each frame carries, so
they blink in step with the status lights; this side sends a frame when what is shown
changes, again every ``LIGHTS_REPEAT_MS`` while anything is lit (which also keeps the
Pico's blinking in step, and makes good a lost frame), and at once when the link was
reopened or the Pico rebooted.

Why the Pico and not the Pi (``rpi-ws281x``): docs/daemon.md, "Cell lights of any colour".
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Protocol

from hardware.outputs import Blink, CellLight, Colour, cell_light
from hardware.scanner_protocol import (
    BLINK_FAST,
    BLINK_ON,
    BLINK_SLOW,
    LIGHTS_REPEAT_MS,
    MAX_COLOURS,
    Hello,
    Lights,
)

logger = logging.getLogger(__name__)

BLINK_CODES = {Blink.ON: BLINK_ON, Blink.SLOW: BLINK_SLOW, Blink.FAST: BLINK_FAST}
REPEAT_S = LIGHTS_REPEAT_MS / 1000


class PicoLink(Protocol):
    """What the cell lights use of the link to the Pico (a :class:`SerialScanner`)."""

    @property
    def hello(self) -> Hello | None:
        """The Pico's last HELLO (None before one)."""
        ...

    @property
    def link_id(self) -> int:
        """Changes when what the Pico was sent may have been lost (reopened, rebooted)."""
        ...

    def send(self, data: bytes) -> bool:
        """Write ``data``; whether all of it went."""
        ...


def scaled(colour: Colour, brightness: int) -> tuple[int, int, int]:
    """``colour`` at ``brightness`` (0-255) of full.

    >>> scaled(Colour.AMBER, 64)
    (64, 27, 0)
    """
    red, green, blue = colour.value
    return (red * brightness // 255, green * brightness // 255, blue * brightness // 255)


class PicoCellLights:
    """The cell LEDs of a WS2812 chain on the Pico behind ``link``; ``mapping`` gives each
    cell's LED by its place in the chain (0 first), ``count`` is the chain's length and
    ``brightness`` (0-255) scales every colour (the power supply is sized for it)."""

    def __init__(self, link: PicoLink, mapping: Mapping[str, int], *, count: int, brightness: int) -> None:
        if not mapping or max(mapping.values()) >= count or min(mapping.values()) < 0:
            raise ValueError(f"a cell's LED is not in the chain of {count}")
        self.link = link
        self.mapping = dict(mapping)
        self.count = count
        self.brightness = brightness
        self._shown: dict[str, CellLight] = {}  # lit cells only
        self._frame = self._encode({})  # (palette, LEDs) of what is shown: dark, sent once the Pico is there
        self._sent_frame: tuple[bytes, bytes] | None = None  # what the Pico was last sent
        self._sent_at: float | None = None
        self._sent_link: int | None = None
        self._seq = 0
        self._now = 0.0
        self._complained: tuple[int, int] | None = None  # the misfit last logged
        self.frames_sent = 0

    @property
    def is_ready(self) -> bool:
        """Whether the Pico said it drives this chain (a version-2 HELLO with its count)."""
        hello = self.link.hello
        if hello is None:
            return False
        if hello.protocol_version >= 2 and hello.lights == self.count:
            self._complained = None
            return True
        misfit = (hello.protocol_version, hello.lights)
        if misfit != self._complained:
            self._complained = misfit
            logger.error(
                "cell lights: the Pico's firmware %s drives %d LEDs, but [cell_lights] has %d: nothing is lit"
                " (set LED_COUNT in its main.py and flash it again: hardware/pico/README.md)",
                hello.firmware_version,
                hello.lights,
                self.count,
            )
        return False

    def show(self, cells: Mapping[str, Blink | CellLight], now: float) -> None:
        """Show ``cells`` (cell: how) from ``now`` on; cells left out are dark."""
        shown = {}
        for cell, value in cells.items():
            light = cell_light(value)
            if cell in self.mapping and light.blink is not Blink.OFF:
                shown[cell] = light
        self._shown = shown
        self._frame = self._encode(shown)
        self.refresh(now)

    def refresh(self, now: float) -> bool:
        """Send the frame if the Pico lacks it, or it is due again; whether it was sent."""
        self._now = now
        frame = self._frame
        is_lit = any(frame[1])
        is_due = (
            frame != self._sent_frame
            or self._sent_link != self.link.link_id
            or (is_lit and self._sent_at is not None and now - self._sent_at >= REPEAT_S)
        )
        if not is_due or not self.is_ready:
            return False
        palette, leds = frame
        data = Lights(self._seq, int(now * 1000) % 1000, palette, leds).to_bytes()
        if not self.link.send(data):
            return False
        self._seq = (self._seq + 1) & 0xFF
        self._sent_frame, self._sent_at, self._sent_link = frame, now, self.link.link_id
        self.frames_sent += 1
        return True

    def next_change(self, now: float) -> float | None:
        """When the frame is next due again (None while nothing is lit)."""
        if self._sent_at is None or not self._shown:
            return None
        return self._sent_at + REPEAT_S

    def lit(self) -> frozenset[str]:
        """The cells whose LED is on at the last refresh, by their blinking."""
        return frozenset(cell for cell, light in self._shown.items() if light.blink.is_lit(self._now))

    def shown(self) -> dict[str, CellLight]:
        """The cells lit or blinking, and how (the colour each shows)."""
        return {cell: CellLight(light.blink, light.shown_colour) for cell, light in self._shown.items()}

    def clear(self) -> None:
        """Every LED dark (sent at once if the link is up)."""
        self.show({}, self._now)

    def _encode(self, shown: Mapping[str, CellLight]) -> tuple[bytes, bytes]:
        """The palette and the LED bytes of a LIGHTS frame showing ``shown``."""
        palette: list[tuple[int, int, int]] = []
        leds = bytearray(self.count)
        for cell, light in shown.items():
            colour = light.shown_colour
            assert colour is not None  # (a light that is off is not kept)
            rgb = scaled(colour, self.brightness)
            if rgb not in palette:
                palette.append(rgb)
            assert len(palette) <= MAX_COLOURS  # (there are fewer colours)
            leds[self.mapping[cell]] = BLINK_CODES[light.blink] << 4 | palette.index(rgb)
        return bytes(channel for rgb in palette for channel in rgb), bytes(leds)
