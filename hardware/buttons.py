"""Buttons on GPIO pins, with gpiozero. (Buttons wired into the switch matrix are read
by the matrix scan instead.) Each press and release is handed on with its name; what
it means is decided above the drivers."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gpiozero import Button
from gpiozero.pins import Factory


class PinButtons:
    """Buttons between a GPIO pin and ground (pull-ups on)."""

    def __init__(
        self, pins: Mapping[str, int], *, pin_factory: Factory, on_change: Callable[[str, bool], None]
    ) -> None:
        """``on_change(name, pressed)`` is called from gpiozero's callback thread on a
        real Pi: it must only hand the event on (say, to the daemon's loop)."""
        self._buttons: dict[str, Button] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, pin_factory=pin_factory)
                button.when_pressed = _reporter(on_change, name, True)
                button.when_released = _reporter(on_change, name, False)
                self._buttons[name] = button
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons = {}


def _reporter(on_change: Callable[[str, bool], None], name: str, pressed: bool) -> Callable[[], None]:
    def report() -> None:
        on_change(name, pressed)

    return report
