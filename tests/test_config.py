"""The daemon's config: defaults, overrides, and every mistake named by its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.daemon.config import default_matrix, load_config
from firmware_host.errors import ConfigError
from firmware_host.games.cuckoo.rules import Nest, Side


def write(tmp_path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_defaults_describe_the_build_in_the_wiring_guide():
    config = load_config(None)
    assert config.game.board is Nest.default() and config.game.name == "cuckoo"
    assert (config.lineup, config.referee.first_starter, config.referee.lenient) == ("standard", Side.RED, False)
    assert config.sensors.backend == "gpio"
    assert config.sensors.size == (8, 8)
    assert config.matrix["a1"] == (0, 0)
    assert config.matrix["e9"] == (7, 4)
    assert {config.matrix[name] for name in ("confirm", "take_back", "switch")} == {(7, 5), (7, 6), (7, 7)}
    assert config.cell_lights.map["a1"] == (0, 0)
    assert config.cell_lights.map["b1"] == (1, 0)
    pins = config.pins()
    assert len(pins) == 26  # every header GPIO but ID_SD and ID_SC
    assert set(pins) == set(range(2, 28))


def test_a_file_overrides_only_what_it_says(tmp_path):
    config = load_config(
        write(
            tmp_path,
            """
[game]
first_starter = "blue"
lenient = true
[sensors]
backend = "serial"
[sensors.serial]
port = "/dev/ttyACM1"
[display]
driver = "sh1106"
i2c_address = 0x3D
[status_lights]
capture = "none"
[buttons]
confirm = 15
[timing]
settle_ms = 300
""",
        )
    )
    assert config.referee.first_starter is Side.BLUE
    assert config.referee.lenient
    assert config.referee.timing.settle_ms == 300
    assert config.referee.timing.extend_ms == 1000
    assert (config.sensors.backend, config.sensors.port, config.sensors.baudrate) == ("serial", "/dev/ttyACM1", 115200)
    assert (config.display.driver, config.display.i2c_address) == ("sh1106", 0x3D)
    assert "capture" not in config.status_lights
    assert config.buttons == {"confirm": 15, "take_back": None, "switch": None}
    assert "confirm" not in config.matrix
    assert 4 not in config.pins()  # the serial backend leaves the matrix pins free


def test_a_calibrated_matrix_map(tmp_path):
    nest = Nest.default()
    swapped = default_matrix(nest, ["confirm", "take_back", "switch"], (8, 8))
    swapped["a1"], swapped["b1"] = swapped["b1"], swapped["a1"]
    lines = "\n".join(f"{name} = [{row}, {column}]" for name, (row, column) in swapped.items())
    config = load_config(write(tmp_path, f"[matrix]\n{lines}\n"))
    assert config.matrix["a1"] == (0, 1)
    assert config.matrix["b1"] == (0, 0)
    # The LEDs are wired apart from the switches: a recalibrated switch does not move them.
    assert (config.cell_lights.map["a1"], config.cell_lights.map["b1"]) == ((0, 0), (1, 0))


def test_relative_paths_are_beside_the_config(tmp_path):
    config = load_config(write(tmp_path, '[storage]\ndatabase = "games.sqlite"\nsensor_log = "logs"\n'))
    assert config.database == str(tmp_path / "games.sqlite")
    assert config.sensor_log == str(tmp_path / "logs")


def test_a_custom_board_file_next_to_the_config(tmp_path):
    (tmp_path / "small.toml").write_text(Path("docs/examples/hexhex-3.toml").read_text(encoding="utf-8"))
    config = load_config(write(tmp_path, '[game]\nboard = "small.toml"\nlineup = "small"\n'))
    assert config.game.board.name == "hexhex-3"
    assert config.matrix["c5"] == (2, 2)  # 19 cells: rows 0-2, then the buttons at the end


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("[game]\ncolour = 1\n", "game.colour", "unknown key"),
        ("[gmae]\n", "gmae", "unknown key (expected one of: broker, buttons, cell_lights"),
        ("[status_lights]\nerror = 4\n", "status_lights.error", "GPIO4 is already used by sensors.gpio.rows (row 0)"),
        ("[buttons]\nconfirm = 26\n", "buttons.confirm", "GPIO26 is already used by status_lights.red_turn"),
        ("[status_lights]\nerror = 2\n", "status_lights.error", "GPIO2 is already used by display: I2C1 SDA"),
        ("[status_lights]\nerror = 10\n", "status_lights.error", "already used by cell lights: SPI0 MOSI"),
        ("[status_lights]\nerror = 0\n", "status_lights.error", "ID_SD"),
        ("[status_lights]\nerror = 28\n", "status_lights.error", "28 is out of range (from 0 to 27)"),
        ('[status_lights]\nerror = "off"\n', "status_lights.error", 'expected a BCM pin number or "none"'),
        ("[sensors.gpio]\nrows = [4, 4]\n", "sensors.gpio.rows", "4 is listed twice"),
        ("[sensors.gpio]\nrows = [4, 5]\n", "sensors", "a 2x8 switch matrix has 16 places"),
        ("[sensors.gpio]\nrows = []\n", "sensors.gpio.rows", "expected 1 to 16 pins, got 0"),
        ('[sensors]\nbackend = "usb"\n', "sensors.backend", "'usb' is not one of: gpio, serial"),
        ("[sensors]\nscan_hz = 5\n", "sensors.scan_hz", "out of range"),
        ("[sensors]\nasleep_scan_hz = 30\n", "sensors.asleep_scan_hz", "30 is out of range (from 5 to 20)"),
        ("[sensors]\nasleep_scan_hz = 4\n", "sensors.asleep_scan_hz", "out of range"),
        ('[display]\ndriver = "ssd1309"\n', "display.driver", "is not one of: ssd1306, sh1106, none"),
        ("[display]\ni2c_address = 200\n", "display.i2c_address", "out of range"),
        ('[game]\nlineup = "expert"\n', "game.lineup", "is not one of: standard, advanced-1, advanced-2"),
        ('[game]\nboard = "missing.toml"\n', "game.board", "cannot read the board file"),
        ('[game]\nlenient = "yes"\n', "game.lenient", "expected true or false"),
        ('[storage]\ndatabase = ""\n', "storage.database", "must name a file"),
        ("[matrix]\na1 = [0, 0]\n", "matrix", "no place for b1 c1 d1"),
        ("[matrix]\nz9 = [0, 0]\n", "matrix.z9", "not a cell of the nest hexhex-5 nor a button"),
        ("[matrix]\na1 = [0, 9]\n", "matrix.a1", "9 is out of range (from 0 to 7)"),
        ("[matrix]\na1 = [0, 0]\nb1 = [0, 0]\n", "matrix.b1", "[0, 0] is also where a1 is"),
        ("[buttons]\nconfirm = 9\n[matrix]\nconfirm = [7, 7]\n", "matrix.confirm", "buttons.confirm is on a GPIO pin"),
        ("[cell_lights.map]\na1 = [9, 0]\n", "cell_lights.map.a1", "9 is out of range"),
        ("[timing]\nsettle = 5\n", "timing.settle", "unknown key"),
        ("[timing]\nsettle_ms = 900\nextend_ms = 100\n", "timing", "extend_ms must be at least"),
        ("[timing]\ndebounce_ms = 300\n", "timing", "settle_ms must be at least timing.debounce_ms"),
        ("[timing]\nslow_flicker_window_ms = 0\n", "timing", "slow_flicker_window_ms must be at least 1"),
        ("[timing]\nslow_flicker_changes = 2\n", "timing", "slow_flicker_changes must be at least 4"),
        ("[display]\nrotate = 1\n", "display.rotate", "expected 0 or 2"),
        ("[cell_lights]\nspi_port = 1\n", "cell_lights.spi_port", "out of range"),
        ("[cell_lights]\nspi_device = 1\n", "sensors.gpio.rows (row 3)", "GPIO7 is already used by cell lights: SPI0"),
        (
            '[sensors]\nbackend = "serial"\n[sensors.serial]\nport = "/dev/serial0"\n',
            "status_lights.error",
            "GPIO14 is already used by sensors: UART TXD",
        ),
        ('[logging]\nlevel = "loud"\n', "logging.level", "is not one of: debug, info, warning, error"),
        ("[game\n", "", "not valid TOML"),
    ],
)
def test_a_mistake_is_named_with_its_key(tmp_path, text, key, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    text = str(error.value)
    assert text.startswith(f"{path}: {key}: " if key else f"{path}: ")
    assert message in text
    assert "\n" not in text


def test_a_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the config: No such file"):
        load_config(tmp_path / "nope.toml")


def test_a_nest_of_more_cells_than_the_led_matrix_has(tmp_path):
    # 91 cells (a hexagon of side 6): more than a MAX7219's 64 LEDs.
    rows = [[(q, r) for q in range(max(-5, -5 - r), min(5, 5 - r) + 1)] for r in range(-5, 6)]
    cells = "".join(
        f"{chr(ord('a') + i)}{number} = [{q}, {r}]\n"
        for number, row in enumerate(rows, start=1)
        for i, (q, r) in enumerate(row)
    )
    (tmp_path / "big.toml").write_text(
        'name = "big"\n[sides.red]\nforward = ["NW", "NE"]\nhomebases = ["f1"]\n'
        '[sides.blue]\nforward = ["SW", "SE"]\nhomebases = ["f11"]\n'
        '[lineups.small]\ncuckoo = "f1"\nwarblers = ["a1"]\neggs = ["b1"]\n'
        f"[cells]\n{cells}",
        encoding="utf-8",
    )
    big = (
        '[game]\nboard = "big.toml"\nlineup = "small"\n'
        "[sensors.gpio]\nrows = [4, 5, 6, 7, 12, 13, 16, 17, 20, 21, 22, 23]\n"
        "columns = [18, 19, 24, 25, 26, 27, 14, 15, 10, 11]\n"
        '[status_lights]\nred_turn = "none"\nblue_turn = "none"\nerror = "none"\ncapture = "none"\n'
    )
    config = load_config(write(tmp_path, big + '[cell_lights]\ndriver = "none"\n'))
    assert len(config.game.board.cells) == 91 and len(config.cell_lights.map) == 64
    with pytest.raises(ConfigError, match=r"cell_lights: .* falls off the 8x8 LED matrix: the nest has more cells"):
        load_config(write(tmp_path, big))
