"""The config of the battle build's hardware: WS2812 cell lights driven by the Pico (which
then scans up to 10x10), and the strike pad with its tags file; and the schematic of both."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from firmware_host.daemon.config import StrikePadTags, load_config, read_strike_pad_tags, serpentine
from firmware_host.errors import ConfigError
from firmware_host.games import load_game
from firmware_host.wiring import build_config
from firmware_host.wiring_lights import lights_schematic_svg, supply_for, worst_case_amps
from hardware.outputs import Blink, CellLight, Colour
from hardware.pixel_lights import PicoCellLights, scaled
from sim.mock_devices import open_mock_nest

ROOT = Path(__file__).resolve().parent.parent
BATTLE_BUILD = build_config("battle")
PICO_WITH_LEDS = """
[game]
name = "battle"
[sensors]
backend = "serial"
[sensors.serial]
size = [10, 10]
[cell_lights]
driver = "ws2812"
brightness = 48
"""


def config_of(tmp_path, text, *, name="config.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def refused(tmp_path, text):
    with pytest.raises(ConfigError) as error:
        config_of(tmp_path, text)
    return str(error.value)


def test_the_battle_build_has_a_ws2812_under_every_square_on_the_pico_that_scans_ten_by_ten():
    assert BATTLE_BUILD is not None
    config = load_config(BATTLE_BUILD, game="battle")
    field = load_game("battle").board
    assert (config.sensors.backend, config.sensors.size) == ("serial", (10, 10))
    assert config.cell_lights.driver == "ws2812" and config.cell_lights.count == len(field.cells) == 92
    assert config.cell_lights.chain == serpentine(field)
    assert sorted(config.cell_lights.chain.values()) == list(range(92))
    assert not {7, 8, 9, 10, 11} & set(config.pins()), "the LEDs take no SPI pin of the Pi"


def test_a_chain_may_be_mapped_cell_by_cell(tmp_path):
    field = load_game("battle").board
    chain = "\n".join(f"{cell} = {91 - i}" for i, cell in enumerate(field.cells))
    config = config_of(tmp_path, PICO_WITH_LEDS + "[cell_lights.map]\n" + chain)
    assert config.cell_lights.chain["a1"] == 91 and config.cell_lights.count == 92


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ('backend = "serial"', 'backend = "gpio"'),
            '"ws2812" LEDs are driven by the Pico .* sensors.backend = "serial"',
        ),
        (("brightness = 48", "brightness = 4"), "cell_lights.brightness: 4 is too dim to see: 8 to 255"),
        (("size = [10, 10]", "size = [11, 10]"), r"sensors.serial.size: 11 is out of range \(from 1 to 10\)"),
        (("size = [10, 10]", "size = 10"), r"sensors.serial.size: expected \[rows, columns\], got 10"),
        (("size = [10, 10]", "size = [8, 8]"), "a 8x8 switch matrix has 64 places, but 92 cells"),
    ],
)
def test_a_bad_light_or_pico_key_is_named(tmp_path, change, message):
    import re

    text = PICO_WITH_LEDS.replace(*change)
    assert re.search(message, refused(tmp_path, text)), refused(tmp_path, text)


@pytest.mark.parametrize(
    ("map_text", "message"),
    [
        ("a1 = 0", "cell_lights.map: no LED for b1: a map must light every cell"),
        ("a1 = [0, 0]", r"cell_lights.map.a1: expected the LED's place in the chain \(0 to 255\), got \[0, 0\]"),
        ("c5 = 0", "cell_lights.map.c5: not a cell of the nest classic"),
        ("a1 = 256", r"cell_lights.map.a1: 256 is out of range \(from 0 to 255\)"),
    ],
)
def test_a_bad_chain_is_named(tmp_path, map_text, message):
    import re

    text = PICO_WITH_LEDS + "[cell_lights.map]\n" + map_text
    assert re.search(message, refused(tmp_path, text)), refused(tmp_path, text)


def test_two_cells_on_one_led_are_refused(tmp_path):
    field = load_game("battle").board
    chain = "\n".join(f"{cell} = {min(i, 90)}" for i, cell in enumerate(field.cells))
    assert "cell_lights.map.j10: LED 90 is also the LED of i10" in refused(
        tmp_path, PICO_WITH_LEDS + "[cell_lights.map]\n" + chain
    )


def test_the_default_pico_scans_eight_by_eight_as_before():
    config = load_config(None)
    assert config.cell_lights.driver == "max7219"
    serial = load_config(None)
    assert serial.sensors.size == (8, 8)


# The LEDs' power and schematic


def test_the_supply_is_sized_for_every_led_lit_white_at_the_brightness():
    config = load_config(BATTLE_BUILD, game="battle")
    assert worst_case_amps(config) == pytest.approx(92 * (60 * 48 / 255 + 1) / 1000)
    assert supply_for(worst_case_amps(config)).startswith("Mean Well GST18E05-P1J (5 V, 3 A")
    assert supply_for(3.5).startswith("Mean Well GST40A05-P1J") and supply_for(20) == "a 5 V supply of at least 25 A"


def test_the_committed_lights_schematic_is_what_the_code_draws():
    drawn = lights_schematic_svg(load_config(BATTLE_BUILD, game="battle"))
    committed = (ROOT / "docs" / "schematic-battle-lights.svg").read_text(encoding="utf-8")
    assert drawn == committed, "run the snippet in docs/daemon.md, 'Cell lights of any colour', to draw it again"
    assert "92 WS2812B" in drawn and "GP22 (pin 29)" in drawn and "470 ohm" in drawn and "PN532" not in drawn


# The simulated nest: the daemon's devices opened by name, the Pico's firmware behind a pty


def test_the_simulated_battle_nest_lights_its_squares_through_the_pico():
    config = load_config(BATTLE_BUILD, game="battle")
    nest = open_mock_nest(config)
    try:
        lights = nest.devices.cell_lights
        assert isinstance(lights, PicoCellLights) and nest.pico is not None and nest.pico.lights == 92
        lights.show({"a1": Blink.ON, "a10": CellLight(Blink.ON, Colour.BLUE)}, time.monotonic())
        deadline = time.monotonic() + 5
        while nest.pico.pixels()[91] != scaled(Colour.BLUE, 48) or nest.pico.pixels()[0] != scaled(Colour.WHITE, 48):
            nest.devices.switches.poll()
            lights.refresh(time.monotonic())
            assert time.monotonic() < deadline, nest.pico.pixels()[:3]
            time.sleep(0.005)
    finally:
        nest.devices.release()
        nest.close()


# The strike pad


PAD = (
    PICO_WITH_LEDS
    + """
[strike_pad]
enabled = true
port = "/dev/serial0"
tags = "pad-tags.toml"
"""
)


def test_a_strike_pad_not_calibrated_yet_has_no_tags_and_takes_the_uart_pins(tmp_path):
    config = config_of(tmp_path, PAD)
    pad = config.strike_pad
    assert pad.enabled and pad.tags_file == str(tmp_path / "pad-tags.toml") and len(pad.tags) == 0
    assert config.pins()[14].startswith("strike pad: UART TXD") and config.pins()[15].startswith("strike pad")


def test_the_tags_file_says_which_tag_is_under_which_piece_and_never_shows_it(tmp_path):
    (tmp_path / "pad-tags.toml").write_text('[tags]\n04a224b2c35e80 = "red Marshal"\n04c1d2e3 = "blue Scout"\n')
    tags = config_of(tmp_path, PAD).strike_pad.tags
    assert tags.piece(bytes.fromhex("04a224b2c35e80")) == "red Marshal" and tags.piece(b"\x01\x02\x03\x04") is None
    assert repr(tags) == "StrikePadTags(2 tags)" and "Marshal" not in str(tags)


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ('04A224B2C35E80 = "red Marshal"', "tags.04A224B2C35E80: expected a tag's UID: 8, 14 or 20 hex digits"),
        ('04a224 = "red Marshal"', "tags.04a224: expected a tag's UID"),
        ('04a224b2 = "green Marshal"', 'tags.04a224b2: expected "red" or "blue" and a piece'),
        ("04a224b2 = 3", "tags.04a224b2: expected a string"),
        (
            "\n".join(f'{i:08x} = "red Scout"' for i in range(1, 38)),
            "tags: 37 tags for red's pieces, but a side has 36",
        ),
    ],
)
def test_a_bad_tags_file_is_named_with_its_key(tmp_path, tags, message):
    path = tmp_path / "pad-tags.toml"
    path.write_text("[tags]\n" + tags + "\n")
    error = refused(tmp_path, PAD)
    assert error.startswith(f"{path}: ") and message in error, error


def test_a_strike_pad_on_the_picos_own_port_or_without_a_tags_file_is_refused(tmp_path):
    on_pico = PAD.replace('port = "/dev/serial0"', 'port = "/dev/ttyACM0"')
    assert "strike_pad.port: /dev/ttyACM0 is the Pico's (sensors.serial.port)" in refused(tmp_path, on_pico)
    no_file = PAD.replace('tags = "pad-tags.toml"', 'tags = ""')
    assert "strike_pad.tags: the tags file" in refused(tmp_path, no_file)


def test_a_pico_on_the_uart_and_a_strike_pad_on_it_cannot_share_it(tmp_path):
    text = PAD.replace("size = [10, 10]", 'size = [10, 10]\nport = "/dev/ttyAMA0"')
    assert "strike_pad.port: the header's one UART is the Pico's (sensors.serial.port = /dev/ttyAMA0)" in refused(
        tmp_path, text
    )


def test_the_tags_reader_takes_no_file_as_no_tags(tmp_path):
    game = load_game("battle")
    assert read_strike_pad_tags(tmp_path / "none.toml", game, game.lineups[0]) == StrikePadTags({})


def test_the_simulated_nest_opens_the_strike_pad_by_name_on_the_mock_reader(tmp_path):
    from hardware.strike_pad import TagPlaced

    nest = open_mock_nest(config_of(tmp_path, PAD))
    try:
        pad, reader = nest.devices.strike_pad, nest.tag_reader
        assert pad is not None and reader is not None
        reader.place(bytes.fromhex("04c1d2e3"))
        deadline = time.monotonic() + 5
        events: list[object] = []
        while not events:
            events = list(pad.poll())
            assert time.monotonic() < deadline
            time.sleep(0.005)
        assert [(type(event), event.uid) for event in events if isinstance(event, TagPlaced)] == [
            (TagPlaced, bytes.fromhex("04c1d2e3"))
        ]
    finally:
        nest.devices.release()
        nest.close()
    assert reader.is_closed
