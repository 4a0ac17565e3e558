"""The outputs: the OLED and the lights, drawn from the scene (:mod:`..screens`,
:mod:`..lights`; a part's announcement over the OLED's screen), and the piezo, which sounds the cues of the
referee's signals (:mod:`firmware_host.daemon.tunes`) and tells the pages, which have
their own mute. A loose I2C or SPI wire is logged now and then, never fatal: the referee
goes on without its voice."""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.daemon.config import Sound
from firmware_host.daemon.devices import Devices
from firmware_host.daemon.lights import cells, lights
from firmware_host.daemon.parts.part import Part
from firmware_host.daemon.presenter import Scene
from firmware_host.daemon.screens import screen
from firmware_host.daemon.tunes import Cue, cue_for, tune
from firmware_host.referee.signals import Signal
from hardware.buzzer import Tune
from hardware.outputs import Screen, WiringErrors


class Outputs(Part):
    """The devices that show the game: the OLED, the status lights, the cell lights, the piezo."""

    name = "outputs"

    def __init__(self, devices: Devices, clock: Callable[[], float], sound: Sound) -> None:
        self.devices = devices
        self.clock = clock
        self._sound = sound
        self._wiring_errors = WiringErrors(clock)
        self._sounding = False  # a tune was still playing at the last refresh
        self._cue_listeners: list[Callable[[Cue], None]] = []

    def subscribe_cues(self, listener: Callable[[Cue], None]) -> None:
        """Have ``listener`` told every cue sounded (or that would be, with ``[sound] enabled``)."""
        self._cue_listeners.append(listener)

    def cue(self, cue: Cue) -> None:
        """Sound ``cue`` on the piezo (with ``[sound] enabled``), and tell the pages."""
        if self._sound.enabled:
            self.sound(tune(cue))
        for listener in self._cue_listeners:
            listener(cue)

    def heard(self, signal: Signal) -> None:
        cue = cue_for(signal, move_accepted=self._sound.move_accepted)
        if cue is not None:
            self.cue(cue)

    def turn(self, now: int) -> None:
        self.refresh()

    def next_due(self, now: int) -> int | None:
        """Now while a tune plays (its notes are some tens of ms); else the next blink."""
        if self._sounding:
            return now
        change = self.next_change()
        return now + max(0, int((change - self.clock()) * 1000)) if change is not None else None

    def show(self, scene: Scene, announced: Screen | None = None) -> None:
        """Show ``scene`` (on the OLED, a part's ``announced`` screen over it, if given)."""
        now = self.clock()
        display, status, cell_lights = self.devices.display, self.devices.status_lights, self.devices.cell_lights
        # The lights first: theirs is a few pin writes, the OLED's frame some letters to draw.
        if status is not None:
            self._output("status lights", lambda: status.show(lights(scene), now))
        if cell_lights is not None:
            self._output("cell lights", lambda: cell_lights.show(cells(scene), now))
        if display is not None:
            self._output("OLED", lambda: display.show(announced if announced is not None else screen(scene)))

    def refresh(self) -> None:
        """Blink the lights that blink, in time."""
        now = self.clock()
        status, cells = self.devices.status_lights, self.devices.cell_lights
        if status is not None:
            self._output("status lights", lambda: status.refresh(now))
        if cells is not None:
            self._output("cell lights", lambda: cells.refresh(now))
        sounder = self.devices.sounder
        if sounder is not None:
            self._sounding = bool(self._output("buzzer", lambda: sounder.refresh(now)))

    @property
    def is_sounding(self) -> bool:
        """Whether a tune was still playing at the last :meth:`refresh` (or was just begun)."""
        return self._sounding

    def next_change(self) -> float | None:
        """When a light next turns on or off by its blinking (the loop's clock, seconds);
        None if none blinks."""
        now = self.clock()
        status, cells = self.devices.status_lights, self.devices.cell_lights
        changes = (
            status.next_change(now) if status is not None else None,
            cells.next_change(now) if cells is not None else None,
        )
        return min((change for change in changes if change is not None), default=None)

    def sound(self, tune: Tune) -> None:
        """Play ``tune`` on the piezo, if one is fitted (a tune playing gives way)."""
        sounder = self.devices.sounder
        if sounder is not None:
            now = self.clock()
            self._output("buzzer", lambda: sounder.play(tune, now))
            self._sounding = True

    def _output(self, device: str, draw: Callable[[], object]) -> object:
        """What ``draw`` returns; None, logged, if the device's wiring failed."""
        try:
            return draw()
        except OSError as error:
            self._wiring_errors.log(device, error)
            return None
