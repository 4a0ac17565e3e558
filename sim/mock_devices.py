"""The daemon's devices on the libraries' own test doubles: gpiozero's MockFactory for
the pins and luma's dummy devices for the OLED and the LED matrix. The simulator and
``nestref run --mock`` run the real daemon on these."""

from __future__ import annotations

from luma.core.device import dummy

from firmware_host.config import Config
from firmware_host.daemon import Devices, open_devices
from firmware_host.errors import ConfigError
from sim.mock_matrix import MockSwitchMatrix, QuietPin


def open_mock_devices(config: Config) -> tuple[Devices, MockSwitchMatrix]:
    """The devices, and the simulated switch matrix that hands close and open."""
    from gpiozero.pins.mock import MockFactory

    if config.sensors.backend != "gpio":
        raise ConfigError(
            f'{config.source}: sensors.backend: the simulated nest is scanned on GPIO: set sensors.backend = "gpio"'
        )
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    for pin in config.status_lights.values():
        factory.pin(pin, pin_class=QuietPin)
    devices = open_devices(
        config,
        pin_factory=factory,
        display_device=dummy(width=128, height=64, mode="1"),
        cell_device=dummy(width=8, height=8, mode="1"),
    )
    return devices, switches
