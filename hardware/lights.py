"""The lights: four status LEDs on GPIO pins (gpiozero), and one LED per cell on an 8x8
matrix driven by a MAX7219 (luma.led_matrix).

Blinking is driven from the daemon's own loop with the time passed in, rather than by
gpiozero's blink threads: every light then blinks in step with every other, status and
cell lights alike, and tests set the time instead of waiting.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpiozero import LED
from gpiozero.pins import Factory
from luma.core.render import canvas

from hardware.errors import DeviceError
from hardware.outputs import Blink, CellLight, blink_of, next_change


class StatusLights:
    """Status LEDs on GPIO pins, by the names the caller gives them; each shows as
    :meth:`show` says, a light it says nothing of stays off."""

    def __init__(self, pins: Mapping[str, int], *, pin_factory: Factory) -> None:
        self._leds: dict[str, LED] = {}
        try:
            for name, pin in pins.items():
                self._leds[name] = LED(pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise
        self._lights: dict[str, Blink] = {}
        self._lit: dict[str, bool] = {}

    def show(self, lights: Mapping[str, Blink], now: float) -> None:
        """Show ``lights`` (name: how) from ``now`` on."""
        self._lights = dict(lights)
        self.refresh(now)

    def refresh(self, now: float) -> None:
        """Turn each light on or off as its blinking says at ``now``."""
        for name, led in self._leds.items():
            lit = self._lights.get(name, Blink.OFF).is_lit(now)
            if self._lit.get(name) != lit:
                led.value = lit
                self._lit[name] = lit

    def next_change(self, now: float) -> float | None:
        """When a light next turns on or off by its blinking (None: none blinks)."""
        return next_change(self._lights.values(), now)

    def lit(self) -> dict[str, bool]:
        """Each light, and whether it is on now (as its pin is driven)."""
        return {name: bool(led.is_lit) for name, led in self._leds.items()}

    def close(self) -> None:
        """All off, pins released."""
        for led in self._leds.values():
            led.off()
            led.close()
        self._leds = {}


class CellLights:
    """One LED per cell on a luma device (a MAX7219's 8x8 matrix, or luma's dummy
    device); ``mapping`` gives each cell's LED as (x, y). Its LEDs have one colour: a
    :class:`CellLight`'s colour is not shown, its blinking is."""

    def __init__(self, device: Any, mapping: Mapping[str, tuple[int, int]]) -> None:
        self.device = device
        self.mapping = dict(mapping)
        # What show() was given, grouped by how the cells blink (the cells with an LED
        # only): a refresh, every turn of the loop, then looks at each way once, not
        # at each cell.
        self._groups: tuple[tuple[Blink, frozenset[str]], ...] = ()
        self._lit: frozenset[str] | None = None
        self.frames = 0

    def show(self, cells: Mapping[str, Blink | CellLight], now: float) -> None:
        groups: dict[Blink, set[str]] = {}
        for cell, shown in cells.items():
            blink = blink_of(shown)
            if cell in self.mapping and blink is not Blink.OFF:
                groups.setdefault(blink, set()).add(cell)
        self._groups = tuple((blink, frozenset(group)) for blink, group in groups.items())
        self.refresh(now)

    def refresh(self, now: float) -> bool:
        """Draw the cells lit at ``now``, if that changed; whether it drew."""
        lit = frozenset().union(*(group for blink, group in self._groups if blink.is_lit(now)))
        if lit == self._lit:
            return False
        with canvas(self.device) as draw:
            for cell in lit:
                draw.point(self.mapping[cell], fill="white")
        self._lit = lit
        self.frames += 1
        return True

    def next_change(self, now: float) -> float | None:
        """When a cell's light next turns on or off by its blinking (None: none blinks)."""
        return next_change((blink for blink, _ in self._groups), now)

    def lit(self) -> frozenset[str]:
        """The cells whose LED is on now."""
        return self._lit or frozenset()

    def clear(self) -> None:
        self.device.clear()
        self._lit = frozenset()


def open_max7219(*, port: int, device: int, brightness: int) -> Any:
    """The luma device for a MAX7219 on SPI. Raises :class:`DeviceError` saying what
    to check when it cannot be opened."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    from luma.core.interface.serial import noop, spi
    from luma.led_matrix.device import max7219

    try:
        # gpio=noop(): a MAX7219 needs no data/command or reset line.
        matrix = max7219(spi(port=port, device=device, gpio=noop()), cascaded=1)
    except (DeviceNotFoundError, DevicePermissionError, OSError, ImportError) as error:
        raise DeviceError(
            f"cell lights: no SPI device {port}.{device} ({error}); check that SPI is on (raspi-config)"
            " and the MAX7219's wiring"
        ) from None
    matrix.contrast(brightness)
    return matrix
