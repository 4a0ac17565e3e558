"""Cell lights of any colour: a WS2812 chain on the Pico, told by LIGHTS frames.

The host's ``PicoCellLights`` writes to the same port the ``SerialScanner`` reads; on the
other end of a pty, the firmware's own ``Scanner`` and ``PixelLights`` (hardware/pico/main.py)
read the frames and write their pictures where the PIO's DMA would take them. The same
classes run on MicroPython's Unix port in tests/test_scanner_protocol.py.
"""

from __future__ import annotations

import doctest
import logging
import time

import pytest
from luma.core.device import dummy

from hardware import pixel_lights
from hardware.lights import CellLights
from hardware.outputs import Blink, CellLight, Colour
from hardware.pixel_lights import REPEAT_S, PicoCellLights, scaled
from hardware.reconnect import Backoff
from hardware.scanner_protocol import Hello, HostFrameDecoder
from hardware.serial_scanner import SerialScanner
from sim.pico import SimulatedPico

WAIT_S = 15.0  # generous: a machine under load starves the simulated Pico's thread (seen at a load of 10 on 2 cores)
test_logger = logging.getLogger("tests.pixel_lights")
CELLS = {"a1": 0, "b1": 1, "c1": 2, "j10": 99}
WHITE, RED, GREEN, AMBER = (scaled(colour, 64) for colour in (Colour.WHITE, Colour.RED, Colour.GREEN, Colour.AMBER))


def test_the_modules_examples_hold():
    assert doctest.testmod(pixel_lights).failed == 0


class Nest:
    """The host's scanner and cell lights, the simulated Pico with 100 LEDs on a pty."""

    def __init__(self, tmp_path, *, leds=100):
        self.pico = SimulatedPico(tmp_path / "ttyPico", size=(10, 10), lights=leds)
        backoff = Backoff("serial scanner (test)", test_logger, initial_s=0.01, maximum_s=0.05)
        self.host = SerialScanner(str(self.pico.link), size=(10, 10), backoff=backoff)
        self.lights = PicoCellLights(self.host, CELLS, count=100, brightness=64)
        self.pico.plug()
        self.host.poll()
        self.pico.boot()
        self.wait(lambda: self.host.hello is not None)

    def wait(self, condition, what="the condition"):
        """Poll the link and refresh the lights (as the daemon's loop does) until ``condition()``."""
        deadline = time.monotonic() + WAIT_S
        while not condition():
            self.host.poll()
            self.lights.refresh(time.monotonic())
            assert time.monotonic() < deadline, f"timed out waiting for {what}; the chain shows {self.shown()}"
            time.sleep(0.002)

    def shown(self):
        pixels = self.pico.pixels()
        return {cell: pixels[index] for cell, index in CELLS.items()}

    def close(self):
        self.host.close()
        self.pico.unplug()


@pytest.fixture
def nest(tmp_path):
    nest = Nest(tmp_path)
    yield nest
    nest.close()


def test_the_pico_shows_each_cell_in_its_colour_and_blinks_it(nest):
    assert nest.host.hello.lights == 100 and nest.host.hello.protocol_version == 2
    nest.lights.show({"a1": Blink.ON, "b1": CellLight(Blink.SLOW, Colour.RED), "c1": Blink.FAST}, time.monotonic())
    nest.wait(lambda: nest.shown()["a1"] == WHITE, "a1 white")
    seen: dict[str, set[tuple[int, int, int]]] = {cell: set() for cell in CELLS}

    def both_blinked():
        for cell, rgb in nest.shown().items():
            seen[cell].add(rgb)
        return len(seen["b1"]) == len(seen["c1"]) == 2

    nest.wait(both_blinked, "b1 and c1 to blink")
    assert seen["a1"] == {WHITE}  # steady
    assert seen["b1"] == {RED, (0, 0, 0)} and seen["c1"] == {AMBER, (0, 0, 0)}
    assert seen["j10"] == {(0, 0, 0)}
    assert nest.lights.shown() == {
        "a1": CellLight(Blink.ON, Colour.WHITE),
        "b1": CellLight(Blink.SLOW, Colour.RED),
        "c1": CellLight(Blink.FAST, Colour.AMBER),
    }


def test_what_is_no_longer_shown_goes_dark(nest):
    nest.lights.show({"a1": Blink.ON, "j10": CellLight(Blink.ON, Colour.BLUE)}, time.monotonic())
    nest.wait(lambda: nest.shown()["j10"] == scaled(Colour.BLUE, 64), "j10 blue")
    nest.lights.show({"j10": CellLight(Blink.ON, Colour.GREEN)}, time.monotonic())
    nest.wait(lambda: nest.shown() == {"a1": (0, 0, 0), "b1": (0, 0, 0), "c1": (0, 0, 0), "j10": GREEN})
    nest.lights.clear()
    nest.wait(lambda: set(nest.shown().values()) == {(0, 0, 0)}, "all dark")


def test_a_pico_plugged_back_in_gets_its_lights_again(nest):
    nest.lights.show({"a1": Blink.ON}, time.monotonic())
    nest.wait(lambda: nest.shown()["a1"] == WHITE)
    nest.pico.unplug()  # the cable pulled: the Pico's power with it (the chain has its own)
    nest.host.poll()
    writes = nest.pico.pixel_writes
    nest.pico.plug()
    nest.pico.boot()  # the firmware writes the chain dark first
    nest.wait(lambda: nest.pico.pixel_writes >= writes + 2 and nest.shown()["a1"] == WHITE, "a1 lit again")


def test_a_pico_without_the_chain_is_sent_nothing_and_that_is_logged_once(tmp_path, caplog):
    nest = Nest(tmp_path, leds=0)
    try:
        with caplog.at_level(logging.ERROR, logger="hardware.pixel_lights"):
            nest.lights.show({"a1": Blink.ON}, time.monotonic())
            for _ in range(3):
                nest.lights.refresh(time.monotonic())
        assert nest.lights.frames_sent == 0
        errors = [record.getMessage() for record in caplog.records]
        assert errors == [
            "cell lights: the Pico's firmware 2.0 drives 0 LEDs, but [cell_lights] has 100: nothing is lit"
            " (set LED_COUNT in its main.py and flash it again: hardware/pico/README.md)"
        ]
    finally:
        nest.close()


# The host's side alone, on a link that keeps what it is sent


CHAIN_OF_100 = Hello(0, 2, 0, 10, 10, 1000, lights=100)


class FakeLink:
    def __init__(self, hello=CHAIN_OF_100):
        self.hello = hello
        self.link_id = 1
        self.sent = []
        self.is_up = True

    def send(self, data):
        if self.is_up:
            self.sent.extend(HostFrameDecoder().feed(data))
        return self.is_up


def test_nothing_is_sent_before_the_pico_says_it_drives_the_chain():
    link = FakeLink(hello=None)
    lights = PicoCellLights(link, CELLS, count=100, brightness=64)
    lights.show({"a1": Blink.ON}, 10.0)
    assert link.sent == []
    link.hello = Hello(0, 1, 0, 10, 10, 1000, protocol_version=1)  # firmware 1: no LEDs
    assert not lights.refresh(10.1) and link.sent == []
    link.hello = Hello(1, 2, 0, 10, 10, 1000, lights=100)
    assert lights.refresh(10.2)
    assert [frame.led(0) for frame in link.sent] == [(1, WHITE)]


def test_a_frame_carries_the_blink_phase_and_is_repeated_while_anything_is_lit():
    link = FakeLink()
    lights = PicoCellLights(link, CELLS, count=100, brightness=64)
    lights.show({"c1": Blink.FAST}, 100.25)
    assert [(frame.seq, frame.phase_ms, frame.led(2)) for frame in link.sent] == [(0, 250, (3, AMBER))]
    assert lights.next_change(100.3) == pytest.approx(100.25 + REPEAT_S)
    assert not lights.refresh(100.9)  # not due yet
    assert lights.refresh(101.25) and link.sent[-1].phase_ms == 250 and link.sent[-1].seq == 1
    lights.show({}, 101.5)  # dark: sent once, never repeated
    assert not any(link.sent[-1].leds) and lights.next_change(101.6) is None
    assert not lights.refresh(105.0) and len(link.sent) == 3


def test_a_frame_is_sent_again_at_once_when_the_link_changed_or_a_send_failed():
    link = FakeLink()
    lights = PicoCellLights(link, CELLS, count=100, brightness=64)
    lights.show({"a1": Blink.ON}, 1.0)
    link.link_id += 1  # reopened, or the Pico rebooted
    assert lights.refresh(1.01) and len(link.sent) == 2
    link.is_up = False
    lights.show({"a1": Blink.SLOW}, 1.02)
    link.is_up = True
    assert lights.refresh(1.03) and link.sent[-1].led(0) == (2, GREEN)


def test_lit_follows_the_blinking_at_the_last_refresh_and_same_colours_share_the_palette():
    link = FakeLink()
    lights = PicoCellLights(link, CELLS, count=100, brightness=255)
    lights.show({"a1": Blink.ON, "b1": Blink.SLOW, "c1": Blink.ON, "nowhere": Blink.ON, "j10": Blink.OFF}, 7.2)
    assert lights.lit() == {"a1", "b1", "c1"}
    lights.refresh(7.7)
    assert lights.lit() == {"a1", "c1"}
    assert link.sent[0].palette == bytes([255, 255, 255, 0, 255, 0])
    assert link.sent[0].leds[:4] == bytes([0x10, 0x21, 0x10, 0x00])


def test_a_mapping_off_the_chain_is_refused():
    with pytest.raises(ValueError, match="chain of 4"):
        PicoCellLights(FakeLink(), {"a1": 4}, count=4, brightness=64)


def test_the_one_colour_matrix_shows_a_coloured_light_by_its_blinking():
    device = dummy(width=8, height=8, mode="1")
    lights = CellLights(device, {"a1": (0, 0), "b1": (1, 0)})
    lights.show({"a1": CellLight(Blink.ON, Colour.RED), "b1": CellLight(Blink.OFF, Colour.BLUE)}, 0.0)
    assert lights.lit() == {"a1"}
    assert device.image.getpixel((0, 0)) == 255 and device.image.getpixel((1, 0)) == 0
