"""The daemon's devices on the libraries' own test doubles: gpiozero's MockFactory for
the pins and luma's dummy devices for the OLED and the LED matrix. The simulator and
``nestref run --mock`` run the real daemon on these.

The switch matrix is simulated on the MockFactory's pins (the daemon scans it with
gpiozero), or, for ``backend = "serial"``, by the Pico's own firmware code behind a pty
(the daemon reads it with pyserial).
"""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy

from firmware_host.daemon import Devices, open_devices
from firmware_host.daemon.config import Config
from sim.mock_matrix import MockSwitchMatrix, QuietPin
from sim.pico import SimulatedMatrix, SimulatedPico
from sim.strike_pad import MockTagReader


class NestFactory(MockFactory):  # type: ignore[misc]  # gpiozero ships no types
    """gpiozero's MockFactory, whose ``pwm_pins`` are its PWM pins whatever a device
    asks for (a device asks for the factory's default class)."""

    def __init__(self, *, pwm_pins: tuple[int, ...] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pwm_pins = pwm_pins

    def pin(self, name: Any, pin_class: Any = None, **kwargs: Any) -> Any:
        if pin_class is None and name in self.pwm_pins:
            pin_class = MockPWMPin
        return super().pin(name, pin_class, **kwargs)


@dataclass
class MockNest:
    """The simulated hardware: the devices the daemon drives, and the switches hands
    close and open."""

    config: Config  # as the daemon must see it (a serial backend's port is the pty's)
    devices: Devices
    switches: MockSwitchMatrix | SimulatedMatrix
    factory: MockFactory
    pico: SimulatedPico | None = None
    tag_reader: MockTagReader | None = None  # the strike pad's, where the config has one
    _folder: tempfile.TemporaryDirectory[str] | None = None

    def close(self) -> None:
        """After the daemon has closed the devices: the Pico unplugged."""
        if self.pico is not None:
            self.pico.unplug()
        if self._folder is not None:
            self._folder.cleanup()


def open_mock_nest(config: Config) -> MockNest:
    """The config's devices, simulated. The switch matrix (a MockSwitchMatrix or the
    simulated Pico's) must be set before the daemon starts to read it."""
    # Outputs that keep no history: the simulator runs for hours. A passive piezo's
    # tones need PWM: its pin is gpiozero's PWM pin.
    tonal = config.sound.enabled and config.sound.buzzer == "tonal"
    factory = NestFactory(pin_class=QuietPin, pwm_pins=(config.sound.pin,) if tonal else ())
    pico, folder = None, None
    switches: MockSwitchMatrix | SimulatedMatrix
    if config.sensors.backend == "gpio":
        switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    else:
        folder = tempfile.TemporaryDirectory(prefix="nestref-pico-")
        leds = config.cell_lights.count if config.cell_lights.driver == "ws2812" else 0
        pico = SimulatedPico(Path(folder.name) / "ttyACM0", size=config.sensors.size, lights=leds)
        pico.plug()
        pico.boot()
        switches = pico.matrix
        config = dataclasses.replace(config, sensors=dataclasses.replace(config.sensors, port=str(pico.link)))
    tag_reader = MockTagReader() if config.strike_pad.enabled else None
    devices = open_devices(
        config,
        pin_factory=factory,
        display_device=dummy(width=128, height=64, mode="1"),
        cell_device=dummy(width=8, height=8, mode="1"),
        tag_reader=tag_reader,
    )
    return MockNest(config, devices, switches, factory, pico, tag_reader, folder)


def open_mock_devices(config: Config) -> tuple[Devices, MockSwitchMatrix]:
    """The devices, and the simulated switch matrix on mock pins that hands close and
    open (the GPIO backend only)."""
    if config.sensors.backend != "gpio":
        from firmware_host.errors import ConfigError

        raise ConfigError(
            f'{config.source}: sensors.backend: the simulated nest is scanned on GPIO: set sensors.backend = "gpio"'
        )
    nest = open_mock_nest(config)
    assert isinstance(nest.switches, MockSwitchMatrix)
    return nest.devices, nest.switches
