"""The builder's guide: the bill of materials, the sizes it rests on, the Pi's set-up
steps, the schematic, and the documents around them say what the code does."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.daemon.config import Config, load_config
from firmware_host.errors import ConfigError
from firmware_host.games.cuckoo.rules import Nest, Position, Side
from firmware_host.schematic import PHYSICAL, schematic_svg
from firmware_host.wiring import BUILD, SCHEMATIC, bill_of_materials, free_pins, pi_setup_text, render_wiring
from tests.test_calibrate import walk_the_nest

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
EXAMPLE_BOARD = ROOT / "docs" / "examples" / "hexhex-3.toml"
PICO_ON_THE_UART = (
    '[sensors]\nbackend = "serial"\n[sensors.serial]\nport = "/dev/serial0"\n'
    '[status_lights]\nerror = 4\ncapture = 5\n[cell_lights]\ndriver = "none"\n'
    "[buttons]\nconfirm = 16\ntake_back = 20\nswitch = 21\n"
)
SPI_ON_CE1 = (  # GPIO7 is CE1 then: row 3 moves to the error light's pin
    '[sensors.gpio]\nrows = [4, 5, 6, 14, 12, 13, 16, 17]\n[status_lights]\nerror = "none"\n'
    "[cell_lights]\nspi_device = 1\n"
)
NO_DISPLAY_NO_LIGHTS = (
    '[display]\ndriver = "none"\n[cell_lights]\ndriver = "none"\n'
    '[status_lights]\nred_turn = "none"\nblue_turn = "none"\nerror = "none"\ncapture = "none"\n'
)


def config_from(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def counts(config: Config) -> dict[str, int | None]:
    return {part.name: part.count for part in bill_of_materials(config)}


# The bill of materials


def test_the_parts_are_counted_from_the_config():
    config = load_config(None)
    parts = counts(config)
    pieces = Position.from_lineup("standard").pieces()
    assert parts["reed switch"] == len(config.game.board.cells) == 61
    assert parts["diode"] == len(config.matrix) == 64  # the cells and the three matrix buttons
    assert parts["magnet"] == len(pieces) == 34
    assert parts["push button"] == 3
    assert parts["LED, 3 mm"] == parts["resistor, 1/4 W"] == 4
    assert parts["LED, 3 mm, diffused"] == 61  # one in every cell
    assert "Raspberry Pi Pico" not in parts


def test_a_smaller_nest_needs_fewer_parts(tmp_path):
    config = config_from(tmp_path, f'[game]\nboard = "{EXAMPLE_BOARD}"\n')
    parts = counts(config)
    assert parts["reed switch"] == len(config.game.board.cells) < 61
    assert parts["diode"] == len(config.matrix)
    assert parts["magnet"] == len(config.game.lineup_pieces(config.lineup))
    assert parts["LED, 3 mm, diffused"] == len(config.game.board.cells)


def test_a_build_without_oled_or_lights_buys_none(tmp_path):
    parts = counts(config_from(tmp_path, NO_DISPLAY_NO_LIGHTS))
    for name in ("OLED", "LED, 3 mm", "resistor, 1/4 W", "LED driver", "LED, 3 mm, diffused"):
        assert name not in parts


def test_a_pico_build_buys_a_pico_and_counts_its_buttons_on_pins(tmp_path):
    config = config_from(tmp_path, PICO_ON_THE_UART)
    parts = counts(config)
    assert parts["Raspberry Pi Pico"] == 1
    assert parts["diode"] == len(config.matrix) == 61  # the buttons are on pins: no diodes
    assert parts["push button"] == 3
    assert parts["LED, 3 mm"] == len(config.status_lights) == 4  # red and blue turn stay on their pins


def test_every_part_of_the_guide_is_in_its_table():
    config = load_config(None)
    guide = render_wiring(config)
    for part in bill_of_materials(config):
        count = "" if part.count is None else str(part.count)
        assert f"| {part.name} | {count} | {part.spec} |" in guide
    assert "MDSR-7-15-20" in guide and "15-20 AT" in guide and "N42" in guide


# The sizes the guide rests on


def centre_mm(nest: Nest, cell: str) -> tuple[float, float]:
    q, r = nest.coordinates(cell)
    return BUILD.pitch_mm * (q + r / 2), BUILD.pitch_mm * math.sqrt(3) / 2 * r


def test_no_other_magnet_is_nearer_to_a_switch_than_the_guide_says():
    nest = Nest.default()
    nearest = math.inf
    for cell in nest.cells:  # the switch runs north from its cell's centre, the glass's length
        x0, y0 = centre_mm(nest, cell)
        along = [(x0, y0 + BUILD.glass_mm * k / 200) for k in range(201)]
        for other in nest.cells:
            if other != cell:
                x, y = centre_mm(nest, other)
                nearest = min(nearest, *(math.dist((x, y), point) for point in along))
    assert nearest == pytest.approx(BUILD.nearest_other_magnet_mm(), abs=0.01)
    # the guide's rule: every other magnet at least four times as far as the switch's own
    assert nearest >= 4 * BUILD.magnet_to_reeds_mm()


def test_the_cells_fit_the_sheet_the_parts_list_buys():
    nest = Nest.default()
    xs = [centre_mm(nest, cell)[0] for cell in nest.cells]
    ys = [centre_mm(nest, cell)[1] for cell in nest.cells]
    width, height = BUILD.cells_area_mm(nest)
    assert width == pytest.approx(max(xs) - min(xs) + BUILD.pitch_mm)  # a cell is a pitch wide
    assert height == pytest.approx(max(ys) - min(ys) + 2 * BUILD.pitch_mm / math.sqrt(3))  # corner to corner
    assert f"at least {width:.0f} x {height:.0f} mm" in render_wiring(load_config(None))


def test_the_building_guide_uses_the_guides_sizes():
    building = (ROOT / "docs" / "building.md").read_text(encoding="utf-8")
    assert f"{BUILD.pitch_mm:g} mm pitch" in building
    assert f"rows\n  {BUILD.pitch_mm * math.sqrt(3) / 2:.1f} mm apart" in building


# The Pi's set-up: written once


# What raspi-config's non-interactive commands write (its source, as on Bookworm).
RASPI_CONFIG_WRITES = {
    "do_i2c 0": "dtparam=i2c_arm=on",
    "do_spi 0": "dtparam=spi=on",
    "do_serial_hw 0": "enable_uart=1",
    "do_serial_hw 1": "enable_uart=0",
    "do_serial_cons 1": None,  # removes console=serial0 from cmdline.txt
}


def blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)


@pytest.mark.parametrize("text", [None, PICO_ON_THE_UART, NO_DISPLAY_NO_LIGHTS, SPI_ON_CE1])
def test_the_commands_write_the_config_txt_the_steps_show(tmp_path, text):
    config = load_config(None) if text is None else config_from(tmp_path, text)
    steps = pi_setup_text(config)
    commands, listing = blocks(steps)[0], blocks(steps)[1] if "config.txt` then holds" in steps else ""
    written = set()
    for line in commands.splitlines():
        line = line.strip()
        if match := re.match(r"sudo raspi-config nonint (\w+ \d)", line):
            if RASPI_CONFIG_WRITES[match.group(1)]:
                written.add(RASPI_CONFIG_WRITES[match.group(1)])
        elif match := re.match(r"printf '\[all\]\\n(.*)\\n' \| sudo tee -a /boot/firmware/config.txt", line):
            written.update(match.group(1).split("\\n"))
    shown = {line.split("#")[0].strip() for line in listing.splitlines() if line.strip()}
    assert written == shown
    uses = config.pins()
    assert ("dtparam=i2c_arm=on" in shown) == (config.display.driver != "none")
    assert ("dtparam=spi=on" in shown) == (config.cell_lights.driver != "none")
    assert ("enable_uart=0" in shown) == (14 in uses and not uses[14].startswith("sensors: UART"))
    assert ("enable_uart=1" in shown) == (config.sensors.backend == "serial")


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_pi_set_up_steps_are_written_once_in_wiring_md():
    guide = (ROOT / "wiring.md").read_text(encoding="utf-8")
    readme = section((ROOT / "README.md").read_text(encoding="utf-8"), "On the Raspberry Pi")
    building = (ROOT / "docs" / "building.md").read_text(encoding="utf-8")
    steps = section(guide, "Setting up the Pi")
    for command in ("raspi-config nonint", "apt install", "useradd", "systemctl enable", "calibrate --config"):
        assert command in steps
        assert command not in readme, f"the README repeats {command!r}: point to wiring.md instead"
    for text in (readme, building):
        assert "wiring.md#setting-up-the-pi" in text
        assert "config.txt" not in text and "apt install" not in text
    assert "building.md" in readme and "docs/building.md" in guide


# The schematic


def test_the_committed_schematic_is_what_nestref_wiring_draws(tmp_path, capsys):
    drawn = tmp_path / "schematic.svg"
    assert main(["wiring", "--schematic", str(drawn)]) == 0
    assert capsys.readouterr().out == ""  # the drawing alone: no guide printed
    assert drawn.read_text(encoding="utf-8") == (ROOT / SCHEMATIC).read_text(encoding="utf-8"), (
        "run: nestref wiring --output wiring.md --schematic docs/schematic.svg"
    )
    assert f"({SCHEMATIC})" in (ROOT / "wiring.md").read_text(encoding="utf-8")


def test_nestref_wiring_writes_the_guide_and_the_schematic_together(tmp_path, capsys):
    guide, drawing = tmp_path / "wiring.md", tmp_path / "schematic.svg"
    assert main(["wiring", "--output", str(guide), "--schematic", str(drawing)]) == 0
    config = load_config(None)
    assert guide.read_text(encoding="utf-8") == render_wiring(config)
    assert drawing.read_text(encoding="utf-8") == schematic_svg(config)
    assert main(["wiring", "--help"]) == 0
    assert "--schematic" in capsys.readouterr().out


def groups(svg: str, kind: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == kind]


def words(element: ET.Element) -> str:
    return " ".join(text for text in element.itertext())


def label(pin: ET.Element) -> str:
    """A header pin's label: its GPIO and what uses it (the last text; the first is the pin's number)."""
    return pin.findall(f"{SVG}text")[-1].text or ""


@pytest.mark.parametrize("text", [None, PICO_ON_THE_UART, NO_DISPLAY_NO_LIGHTS])
def test_the_schematic_draws_every_pin_switch_and_diode_of_the_config(tmp_path, text):
    config = load_config(None) if text is None else config_from(tmp_path, text)
    svg = schematic_svg(config)
    pins = {int(g.get("data-gpio", -1)): label(g) for g in groups(svg, "pin") if g.get("data-gpio")}
    assert len(groups(svg, "pin")) == 40
    for gpio in config.pins():  # every pin the config uses is on the header, named
        assert f"GPIO{gpio}" in pins[gpio]
        assert pins[gpio].replace(f"GPIO{gpio}", "").strip(), f"GPIO{gpio} drawn without its use"
    rows, columns = config.sensors.size
    drawn_rows = {int(g.get("data-row", -1)): words(g) for g in groups(svg, "row")}
    drawn_columns = {int(g.get("data-column", -1)): words(g) for g in groups(svg, "column")}
    assert sorted(drawn_rows) == list(range(rows)) and sorted(drawn_columns) == list(range(columns))
    if config.sensors.backend == "gpio":
        for r, pin in enumerate(config.sensors.rows):
            assert f"GPIO{pin} (pin {PHYSICAL[pin]})" in drawn_rows[r]
            assert pins[pin] in (f"row {r}  GPIO{pin}", f"GPIO{pin}  row {r}")
        for c, pin in enumerate(config.sensors.columns):
            assert f"GPIO{pin}" in drawn_columns[c]
            assert pins[pin] in (f"col {c}  GPIO{pin}", f"GPIO{pin}  col {c}")
    contacts = groups(svg, "switch") + groups(svg, "button")
    assert sorted(g.get("data-name", "") for g in contacts) == sorted(config.matrix)
    assert len(groups(svg, "diode")) == len(config.matrix)  # one diode per switch and matrix button
    assert all(len([d for d in g.iter(f"{SVG}g") if d.get("class") == "diode"]) == 1 for g in contacts)
    assert {g.get("data-name") for g in groups(svg, "button")} == {
        name for name, pin in config.buttons.items() if pin is None
    }
    assert bool(groups(svg, "oled")) == (config.display.driver != "none")
    assert bool(groups(svg, "led-driver")) == (config.cell_lights.driver != "none")
    assert bool(groups(svg, "pico")) == (config.sensors.backend == "serial")
    lights = {int(g.get("data-gpio", -1)) for g in groups(svg, "light")}
    assert lights == set(config.status_lights.values())
    buttons_on_pins = {int(g.get("data-gpio", -1)) for g in groups(svg, "pin-button")}
    assert buttons_on_pins == {pin for pin in config.buttons.values() if pin is not None}


def test_the_oled_and_the_led_driver_are_wired_to_their_buses():
    svg = schematic_svg(load_config(None))
    (oled,) = groups(svg, "oled")
    assert all(net in words(oled) for net in ("3V3 (pin 1)", "GPIO3 (pin 5)", "GPIO2 (pin 3)", "0x3C"))
    (driver,) = groups(svg, "led-driver")
    assert all(net in words(driver) for net in ("5V (pin 2)", "GPIO10 (pin 19)", "GPIO11 (pin 23)", "GPIO8 (pin 24)"))


def test_a_guide_for_another_build_does_not_show_the_default_schematic(tmp_path):
    guide = render_wiring(config_from(tmp_path, PICO_ON_THE_UART))
    assert SCHEMATIC not in guide
    assert "--schematic schematic.svg" in guide


# The calibration walk-through


def walk(config_path: Path, dead: frozenset[str]) -> str:
    """What the walk prints on a nest soldered as the default map says but for a1 and b1
    (each on the other's crossing), and ``dead`` cells whose switches never close."""
    wiring = dict(load_config(None).matrix)
    wiring["a1"], wiring["b1"] = wiring["b1"], wiring["a1"]
    _, said = walk_the_nest(config_path, wiring, dead)
    return said.replace(str(config_path), "/etc/nestref/config.toml")


def transcript(marker: str) -> list[str]:
    building = (ROOT / "docs" / "building.md").read_text(encoding="utf-8")
    match = re.search(rf"<!-- {marker} -->\n```\n(.*?)```", building, re.DOTALL)
    assert match, marker
    return match.group(1).splitlines()


def shows_in_order(shown: list[str], said: list[str]) -> None:
    """Each line shown is what the walk said, in the order it said it; ``...`` skips
    lines, and nothing else does."""
    position = 0
    for k, line in enumerate(shown):
        if line == "...":
            continue
        if k > 0 and shown[k - 1] != "...":
            assert said[position] == line, f"{line!r} does not follow {shown[k - 1]!r}"
        else:
            assert line in said[position:], f"the walk never says {line!r} there"
            position = said.index(line, position)
        position += 1
    if shown[-1] != "...":
        assert position == len(said), "the walk says more after the transcript ends"


def test_the_calibration_walk_through_is_what_nestref_calibrate_says(tmp_path):
    config_path = tmp_path / "config.toml"
    config_path.write_text("[game]\nlenient = false\n", encoding="utf-8")
    first = walk(config_path, dead=frozenset({"d4"})).splitlines()
    shows_in_order(transcript("calibrate-transcript-first"), first)
    assert "[matrix]" not in config_path.read_text(encoding="utf-8")  # not written
    second = walk(config_path, dead=frozenset()).splitlines()
    shows_in_order(transcript("calibrate-transcript-second"), second)
    assert load_config(config_path).matrix["a1"] == (0, 1)
    third = walk(config_path, dead=frozenset())
    assert "The config's map matches the nest." in third
    assert "`The config's map matches the nest.`" in (ROOT / "docs" / "building.md").read_text(encoding="utf-8")


def test_the_docs_link_the_building_guide():
    building = "docs/building.md"
    assert (ROOT / building).exists()
    assert f"({building})" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"({building}" in (ROOT / "wiring.md").read_text(encoding="utf-8")
    assert "(building.md" in (ROOT / "docs" / "daemon.md").read_text(encoding="utf-8")


# The rules card


def test_the_rules_card_names_the_nests_homebases_and_pieces():
    card = (ROOT / "docs" / "rules-card.md").read_text(encoding="utf-8")
    nest = Nest.default()
    for side in Side:
        homebases = " ".join(sorted(nest.homebases(side)))
        assert f"{side.label} `{homebases}`" in card
    red = Counter(
        piece.kind.label for piece in Position.from_lineup("standard").pieces().values() if piece.side is Side.RED
    )
    assert f"{red['egg']} eggs, {red['warbler']} reed warblers and {red['cuckoo']} cuckoo" in card
    assert len(nest.cells) == 61 and "61 hexagonal cells" in card
    assert "compulsory" in card and "best of three" in card
    assert re.findall(r"^(\d)\. ", card, re.MULTILINE) == ["1", "2", "3", "4"]  # the four ways a game is won


# The piezo


@pytest.mark.parametrize("extra", ["", PICO_ON_THE_UART, NO_DISPLAY_NO_LIGHTS, '[sensors]\nbackend = "serial"\n'])
def test_every_pin_the_guide_calls_free_for_the_piezo_is_one_the_config_takes(tmp_path, extra):
    config = config_from(tmp_path, extra)
    free = free_pins(config)
    guide = render_wiring(config)
    assert "## The piezo buzzer (optional)" in guide and "220 ohm resistor" in guide
    for gpio in free:
        assert f"GPIO{gpio} (pin {PHYSICAL[gpio]})" in guide
        with_piezo = config_from(tmp_path, f"{extra}\n[sound]\nenabled = true\npin = {gpio}\n")
        assert with_piezo.pins()[gpio] == "sound.pin"
    for gpio in set(config.pins()) - set(free):  # and a pin in use is refused, naming its use
        with pytest.raises(ConfigError, match=rf"sound\.pin: GPIO{gpio} is already used by"):
            config_from(tmp_path, f"{extra}\n[sound]\nenabled = true\npin = {gpio}\n")


def test_the_default_build_has_no_pin_free_for_the_piezo_and_a_pico_build_has_gpio18():
    guide = render_wiring(load_config(None))
    assert "| the Pi scans the matrix (`gpio`) (this build) | none |" in guide
    assert re.search(r"\| a Pico scans it \(`serial`\) \| [^|]*GPIO18 \(pin 12\)", guide)
    assert "None in this build (`[sound] enabled = false`)" in guide


def test_a_build_with_the_piezo_names_its_pin(tmp_path):
    config = config_from(tmp_path, '[sensors]\nbackend = "serial"\n[sound]\nenabled = true\npin = 18\n')
    assert "This build sounds a passive piezo on **GPIO18 (pin 12)**" in render_wiring(config)
    assert 18 not in free_pins(config)


def test_nestref_wiring_for_the_battle_game_writes_the_guide_of_its_ten_by_ten_build(tmp_path, capsys):
    from firmware_host.games import load_game
    from firmware_host.wiring import build_config

    out = tmp_path / "wiring-battle.md"
    assert main(["--game", "battle", "wiring", "--output", str(out)]) == 0
    guide = out.read_text(encoding="utf-8")
    assert guide == (ROOT / "wiring-battle.md").read_text(encoding="utf-8"), "run: nestref --game battle wiring"
    config = load_config(build_config("battle"), game="battle")
    field = load_game("battle").board
    assert config.game.board.name == field.name and config.sensors.size == (10, 10)
    assert config.sensors.backend == "serial", "a Pico scans the 10x10 matrix and drives the LEDs"
    for cell in field.cells:  # every square of the field on a crossing of the matrix; no lake
        assert f"| {cell} |" in guide or f" {cell} |" in guide, cell
    assert len(set(config.matrix.values())) == len(field.cells) + 3 == 95
    for lake in ("c5", "d6", "g5", "h6"):
        assert f" {lake} |" not in guide and f"| {lake}: " not in guide
    assert "reed switch | 92 |" in guide and "the Pi's twenty matrix pins" in guide
    assert "for now the Pi scans" not in guide
    assert (
        "| RGB LED | 92 | WS2812B-V5" in guide
        and "`MATRIX_ROWS = 10`, `MATRIX_COLUMNS = 10` and `LED_COUNT = 92`" in guide
    )
    assert "![The LED chain and the strike pad](docs/schematic-battle-lights.svg)" in guide
    assert "![The nest and its cells](docs/classic.svg)" in guide
    assert main(["--game", "battle", "board", "--svg", str(tmp_path / "classic.svg")]) == 0
    assert (tmp_path / "classic.svg").read_text() == (ROOT / "docs" / "classic.svg").read_text()
    assert build_config("cuckoo") is None  # Operation Cuckoo's build is the defaults
