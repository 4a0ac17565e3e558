"""The builder's guides followed as a builder would: every path they name exists, every
config they copy is read and (on GPIO) walked with the rehearsal, and the values, pins
and angles in their words agree with the config, the schematic and the geometry they are
drawn from."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.daemon.config import load_config
from firmware_host.games import load_game
from firmware_host.schematic import schematic_svg, status_light_resistor
from firmware_host.wiring import INSTALLED, build_config, committed_schematic, render_wiring

ROOT = Path(__file__).resolve().parent.parent
GUIDES = ["README.md", "wiring.md", "wiring-battle.md", "docs/building.md", "hardware/pico/README.md"]
TOP_FOLDERS = ("docs/", "firmware_host/", "hardware/", "sim/", "benchmarks/", "tests/", ".ci/")


def _text(guide: str) -> str:
    return (ROOT / guide).read_text(encoding="utf-8")


def _installed_paths(text: str) -> set[str]:
    """The files under /opt/nestref a guide names (its own venv aside: step 2 makes it)."""
    found = set(re.findall(r"/opt/nestref/([\w./-]+[\w])", text))
    return {path for path in found if not path.startswith(".venv") and "[" not in path}


def _repository_paths(text: str) -> set[str]:
    """The repository's files a guide names in backticks or as a link's target."""
    named = re.findall(r"`([\w./-]+)`", text) + re.findall(r"\]\(([\w./-]+)(?:#[\w-]+)?\)", text)
    return {path.removeprefix("../") for path in named if path.removeprefix("../").startswith(TOP_FOLDERS)}


@pytest.mark.parametrize("guide", GUIDES)
def test_every_path_a_guide_names_exists(guide):
    text = _text(guide)
    base = (ROOT / guide).parent
    missing = [path for path in _installed_paths(text) if not (ROOT / path).exists()]
    for path in _repository_paths(text):
        if not ((ROOT / path).exists() or (base / path).exists()):
            missing.append(path)
    assert not missing, f"{guide} names paths that do not exist: {sorted(missing)}"


def test_the_paths_are_looked_for_where_a_builder_would_find_them():
    # The check above could pass by finding nothing: it finds the paths the set-up copies.
    assert "firmware_host/daemon/default_config.toml" in _installed_paths(_text("wiring.md"))
    assert "firmware_host/games/battle/builds/classic.toml" in _installed_paths(_text("wiring-battle.md"))
    assert "docs/nestref.service" in _installed_paths(_text("wiring.md"))


@pytest.mark.parametrize("guide", ["wiring.md", "wiring-battle.md", "docs/building.md"])
def test_every_config_a_guide_copies_or_walks_is_read_and_rehearsed(guide, capsys):
    text = _text(guide)
    configs = re.findall(r"sudo cp /opt/nestref/(\S+\.toml) /etc/nestref/config.toml", text)
    configs += re.findall(r"calibrate --config /opt/nestref/(\S+\.toml)", text)
    assert configs, f"{guide} copies no config"
    for config in configs:
        path = ROOT / config
        assert main(["wiring", "--config", str(path)]) == 0, f"{guide}: {config} is not a config nestref reads"
        if load_config(path).sensors.backend == "gpio":  # the rehearsal walks a simulated GPIO matrix
            assert main(["calibrate", "--mock", "--config", str(path)]) == 0, f"{guide}: the walk on {config} fails"
    capsys.readouterr()


def test_each_guide_copies_the_config_of_its_own_build():
    assert "sudo cp /opt/nestref/firmware_host/daemon/default_config.toml" in _text("wiring.md")
    battle = build_config("battle")
    assert battle is not None
    shipped = battle.resolve().relative_to(ROOT)
    assert f"sudo cp {INSTALLED / shipped} /etc/nestref/config.toml" in _text("wiring-battle.md")


@pytest.mark.parametrize("game", ["cuckoo", "battle"])
def test_the_status_lights_resistors_agree_in_the_parts_the_table_and_the_schematic(game):
    build = build_config(game)
    config = load_config(build, game=game) if build is not None else load_config(None)
    guide, drawing = render_wiring(config), schematic_svg(config)
    for light, pin in config.status_lights.items():
        value = status_light_resistor(light)
        assert f"| {light.replace('_', ' ')} | GPIO{pin} | pin " in guide
        row = next(line for line in guide.splitlines() if line.startswith(f"| {light.replace('_', ' ')} | GPIO"))
        assert row.endswith(f"| {value} |"), row
    values = [status_light_resistor(light) for light in config.status_lights]
    for value in set(values):
        assert drawing.count(f">{value}<") == values.count(value), f"the schematic's {value} resistors"
        assert f"{values.count(value)} x {value}" in guide, "the parts list"
    assert "through a 330 ohm resistor" not in guide


@pytest.mark.parametrize("game", ["cuckoo", "battle"])
def test_each_shipped_build_has_its_schematic_committed_and_shown(game):
    build = build_config(game)
    config = load_config(build, game=game) if build is not None else load_config(None)
    drawing = committed_schematic(config)
    assert drawing is not None
    assert (ROOT / drawing).read_text(encoding="utf-8") == schematic_svg(config), (
        f"run: nestref --game {game} wiring --schematic {drawing}"
    )
    guide = "wiring.md" if build is None else f"wiring-{game}.md"
    assert f"]({drawing})" in _text(guide)


def test_the_battle_guide_says_what_it_was_made_from_and_nothing_of_another_build():
    guide = _text("wiring-battle.md")
    assert "generated from the battle game's shipped build" in guide
    assert "default config" not in guide.split("## Parts")[0]
    assert "capture light" not in guide, "the battle build has no capture light"
    assert "The MAX7219 runs at 5 V" not in guide, "its cell LEDs are WS2812s on the Pico"


def test_the_rehearsal_marks_the_neighbours_at_the_angle_the_nest_has():
    """docs/building.md's rehearsal: the switch runs towards the cell's top corner, the
    neighbours' marks lie at the angle the geometry gives either side of that line."""
    said = re.search(r"30 mm away at (\d+)° either side of the switch's\s+line", _text("docs/building.md"))
    assert said is not None
    board = load_game("cuckoo").board
    x0, y0 = board.centre("a1")
    angles = set()
    for cell in board.cells:
        x, y = board.centre(cell)
        if math.isclose(math.hypot(x - x0, y - y0), 1.0, abs_tol=1e-6) and not math.isclose(y, y0, abs_tol=1e-6):
            angles.add(round(math.degrees(math.atan2(abs(x - x0), abs(y - y0)))))
    assert angles == {int(said.group(1))}


def test_the_max7219_pins_are_given_by_number():
    guide = " ".join(_text("wiring.md").split())  # the words, whatever the line breaks
    for name, pin in (("DIN", 1), ("CLK", 13), ("LOAD/CS", 12), ("ISET", 18), ("V+", 19)):
        assert f"**{name}** (its pin {pin})" in guide
        assert f"| {pin} | {name} |" in guide


def test_the_parts_list_has_the_pieces_the_frame_and_the_glue():
    guide = _text("wiring.md")
    pieces = len(load_game("cuckoo").lineup_pieces("standard"))
    assert f"| piece | {pieces} |" in guide
    assert "| frame | 1 |" in guide
    assert "| glue |" in guide
