"""Status lights, cell lights and buttons: the real drivers on gpiozero's MockFactory
and luma's MAX7219 driver over a recorded SPI bus."""

from __future__ import annotations

import threading

from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st
from luma.core.device import dummy
from luma.led_matrix.device import max7219

from firmware_host.daemon.buttons import ButtonAction, ButtonGestures, Press
from hardware.buttons import PinButtons
from hardware.lights import CellLights, StatusLights
from hardware.outputs import Blink

PINS = {"red_turn": 26, "blue_turn": 27, "error": 14, "capture": 15}


def test_status_lights_are_on_off_and_blink_in_step():
    factory = MockFactory()
    lights = StatusLights(PINS, pin_factory=factory)
    lights.show({"red_turn": Blink.ON, "error": Blink.FAST, "capture": Blink.SLOW}, now=0.0)
    states = {name: factory.pin(pin).state for name, pin in PINS.items()}
    assert states == {"red_turn": True, "blue_turn": False, "error": True, "capture": True}
    lights.refresh(0.2)  # the fast blink is off for 0.125-0.25 s, the slow one for 0.5-1 s
    assert (factory.pin(14).state, factory.pin(15).state) == (False, True)
    lights.refresh(0.6)
    assert (factory.pin(14).state, factory.pin(15).state) == (True, False)
    lights.close()
    assert not any(factory.pin(pin).state for pin in PINS.values())


def test_an_unchanged_light_is_not_written_again():
    factory = MockFactory()
    lights = StatusLights({"error": 14}, pin_factory=factory)
    lights.show({"error": Blink.SLOW}, now=0.0)
    for step in range(1, 40):
        lights.refresh(step / 20)  # two seconds: two blinks
    changes = [state for _, state in factory.pin(14).states]
    assert changes == [False, True, False, True, False]  # off at first, then two seconds of 1 Hz
    lights.close()


class RecordedSpi:
    """The SPI bus under the MAX7219: keeps what the driver sends."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []

    def command(self, *data: int) -> None:
        self.sent.append(list(data))

    def data(self, data: list[int]) -> None:
        self.sent.append(list(data))

    def cleanup(self) -> None:
        pass


def lit_leds(bus: RecordedSpi) -> set[tuple[int, int]]:
    """Decode the last frame the MAX7219 driver sent: digit register x+1 holds column x,
    bit y lit."""
    columns: dict[int, int] = {}
    for message in bus.sent:
        for register, value in zip(message[::2], message[1::2], strict=False):
            if 1 <= register <= 8:
                columns[register - 1] = value
    return {(x, y) for x, bits in columns.items() for y in range(8) if bits >> y & 1}


@given(st.dictionaries(st.sampled_from(["a1", "b1", "c1", "e5", "e9"]), st.sampled_from(list(Blink))))
def test_cell_lights_reach_the_max7219_as_the_mapped_leds(cells):
    mapping = {"a1": (0, 0), "b1": (1, 0), "c1": (2, 0), "e5": (4, 4), "e9": (7, 7)}
    bus = RecordedSpi()
    lights = CellLights(max7219(bus, cascaded=1), mapping)
    lights.show(cells, now=0.0)
    expected = {mapping[cell] for cell, blink in cells.items() if blink is not Blink.OFF}  # at t=0 all blinks are on
    assert lit_leds(bus) == expected


def test_cell_lights_draw_only_when_what_is_lit_changes():
    lights = CellLights(dummy(width=8, height=8, mode="1"), {"a1": (0, 0), "b1": (1, 0)})
    lights.show({"a1": Blink.ON, "b1": Blink.SLOW}, now=0.0)
    assert lights.frames == 1
    assert not lights.refresh(0.1)
    assert lights.refresh(0.6)  # b1 goes dark
    assert lights.device.image.getpixel((1, 0)) == 0
    assert lights.device.image.getpixel((0, 0)) == 255


def test_pin_buttons_report_presses_and_releases():
    factory = MockFactory()
    seen: list[tuple[str, bool]] = []
    buttons = PinButtons({"confirm": 9, "switch": 7}, pin_factory=factory, on_change=lambda n, p: seen.append((n, p)))
    factory.pin(9).drive_low()
    factory.pin(9).drive_high()
    factory.pin(7).drive_low()
    assert seen == [("confirm", True), ("confirm", False), ("switch", True)]
    buttons.close()


def test_gestures_short_and_long_presses():
    gestures = ButtonGestures(hold_s=2.0)
    assert gestures.change("confirm", True, 10.0) == []
    assert gestures.change("confirm", False, 10.4) == []  # the press counted at 10.03
    assert gestures.tick(10.5) == [ButtonAction("confirm", Press.SHORT)]
    assert gestures.change("take_back", True, 20.0) == []
    assert gestures.tick(20.1) == []
    assert gestures.next_deadline() == 22.0
    assert gestures.tick(21.9) == []
    assert gestures.tick(22.0) == [ButtonAction("take_back", Press.LONG)]  # while still held
    gestures.change("take_back", False, 23.0)
    assert gestures.tick(23.1) == []  # no short press as well
    assert gestures.next_deadline() is None


def test_gestures_ignore_contact_bounce_and_glitches():
    gestures = ButtonGestures()
    actions = []
    for time, pressed in ((1.000, True), (1.002, False), (1.004, True), (1.5, False), (1.503, True), (1.505, False)):
        actions += gestures.change("switch", pressed, time)
    actions += gestures.tick(2.0)
    assert actions == [ButtonAction("switch", Press.SHORT)]
    # A switch read closed for one scan is no press, and certainly no long one.
    assert gestures.change("take_back", True, 5.0) == []
    assert gestures.change("take_back", False, 5.005) == []
    assert gestures.tick(10.0) == []


def test_a_button_callback_from_another_thread_is_only_handed_on():
    factory = MockFactory()
    seen: list[str] = []
    done = threading.Event()

    def hand_on(name: str, pressed: bool) -> None:
        seen.append(name)
        done.set()

    buttons = PinButtons({"confirm": 9}, pin_factory=factory, on_change=hand_on)
    threading.Thread(target=factory.pin(9).drive_low).start()
    assert done.wait(5)
    assert seen == ["confirm"]
    buttons.close()
