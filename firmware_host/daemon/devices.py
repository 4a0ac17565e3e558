"""Opening the hardware the config names: the switch matrix (on GPIO, or a Pico over
serial), the OLED, the status lights and the cell lights, on a pin factory the caller
gives (the Pi's, or gpiozero's mock one in the simulator and the tests)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from gpiozero import GPIOZeroError
from gpiozero.pins import Factory

from firmware_host.daemon.config import Config
from firmware_host.errors import HardwareError
from hardware.buzzer import Sounder
from hardware.display import OledDisplay, open_oled
from hardware.errors import DeviceError
from hardware.lights import CellLights, StatusLights, open_max7219
from hardware.pixel_lights import PicoCellLights
from hardware.sensors import SwitchMatrix
from hardware.strike_pad import StrikePad, TagReader


@dataclass
class Devices:
    """The hardware the daemon drives, open."""

    pin_factory: Factory
    switches: SwitchMatrix
    display: OledDisplay | None = None
    status_lights: StatusLights | None = None
    cell_lights: CellLights | PicoCellLights | None = None
    sounder: Sounder | None = None
    strike_pad: StrikePad | None = None

    def close(self) -> None:
        """Dark and released, in reverse order of opening, the pin factory last."""
        self.release()
        with contextlib.suppress(Exception):
            self.pin_factory.close()

    def release(self) -> None:
        """The devices dark and released; the pin factory, the caller's, left open."""
        if self.strike_pad is not None:
            with contextlib.suppress(Exception):
                self.strike_pad.close()
        if self.sounder is not None:
            with contextlib.suppress(Exception):
                self.sounder.close()
        if self.cell_lights is not None:
            with contextlib.suppress(Exception):
                self.cell_lights.clear()
        if self.status_lights is not None:
            self.status_lights.close()
        if self.display is not None:
            with contextlib.suppress(Exception):
                self.display.clear()
        self.switches.close()


def open_switches(config: Config, *, pin_factory: Factory | None) -> SwitchMatrix:
    """The switch matrix the config names: scanned on GPIO, or by a Pico over serial.
    Only the backend named is imported (pyserial is not loaded on a GPIO nest)."""
    if config.sensors.backend == "gpio":
        from hardware.matrix import GpioMatrix

        return GpioMatrix(config.sensors.rows, config.sensors.columns, pin_factory=pin_factory)
    from hardware.serial_scanner import SerialScanner

    return SerialScanner(config.sensors.port, size=config.sensors.size, baudrate=config.sensors.baudrate)


def open_pixel_lights(config: Config, switches: SwitchMatrix) -> PicoCellLights:
    """The WS2812 chain on the Pico that scans the matrix: its LIGHTS frames go over the
    same serial link (the config allows the driver with the serial backend only)."""
    from hardware.serial_scanner import SerialScanner

    if not isinstance(switches, SerialScanner):
        raise DeviceError('cell lights: "ws2812" LEDs are driven by the Pico: set sensors.backend = "serial"')
    lights = config.cell_lights
    return PicoCellLights(switches, lights.chain, count=lights.count, brightness=lights.brightness)


def open_strike_pad(config: Config, reader: TagReader | None = None) -> StrikePad:
    """The strike pad the config names, looking already: its PN532 on the config's port,
    or ``reader`` (the simulator's mock one)."""
    from hardware.strike_pad import Pn532Reader

    port = config.strike_pad.port
    pad = StrikePad((lambda: reader) if reader is not None else (lambda: Pn532Reader(port)))
    pad.start()
    return pad


def open_sounder(config: Config, *, pin_factory: Factory) -> Sounder:
    """The piezo the config names: a passive one playing tones, or an active one that
    beeps the tunes' rhythm."""
    from hardware.buzzer import BeepSounder, TonalSounder

    kind = TonalSounder if config.sound.buzzer == "tonal" else BeepSounder
    return kind(config.sound.pin, pin_factory=pin_factory)


def open_devices(
    config: Config,
    *,
    pin_factory: Factory,
    display_device: Any = None,
    cell_device: Any = None,
    tag_reader: TagReader | None = None,
) -> Devices:
    """Open what the config names. The output devices may be given instead (the
    simulator and the tests give luma's dummy devices and a MockFactory), and the strike
    pad's reader (a mock one). Raises :class:`HardwareError`; what was opened before the
    failure is released. The strike pad's reader is opened by the pad's own thread, which
    keeps trying: a pad that is not there is logged, never fatal."""
    devices: Devices | None = None
    try:
        devices = Devices(pin_factory, open_switches(config, pin_factory=pin_factory))
        if config.display.driver != "none":
            if display_device is None:  # a real OLED: frames go out from a thread of their own
                device = open_oled(
                    config.display.driver,
                    bus=config.display.i2c_bus,
                    address=config.display.i2c_address,
                    rotate=config.display.rotate,
                )
                devices.display = OledDisplay(device, background=True)
            else:
                devices.display = OledDisplay(display_device)
        devices.status_lights = StatusLights(config.status_lights, pin_factory=pin_factory)
        if config.cell_lights.driver == "max7219":
            device = cell_device or open_max7219(
                port=config.cell_lights.spi_port,
                device=config.cell_lights.spi_device,
                brightness=config.cell_lights.brightness,
            )
            devices.cell_lights = CellLights(device, config.cell_lights.map)
        elif config.cell_lights.driver == "ws2812":
            devices.cell_lights = open_pixel_lights(config, devices.switches)
        if config.sound.enabled:
            devices.sounder = open_sounder(config, pin_factory=pin_factory)
        if config.strike_pad.enabled:
            devices.strike_pad = open_strike_pad(config, tag_reader)
        return devices
    except Exception as error:  # the pin libraries raise plain errors ("GPIO busy")
        if devices is not None:
            devices.release()
        if isinstance(error, DeviceError):
            raise HardwareError(str(error)) from None
        hint = "is another program using the pins?" if isinstance(error, GPIOZeroError | OSError) else ""
        raise HardwareError(f"GPIO: {error}; {hint or 'see wiring.md'}") from None
