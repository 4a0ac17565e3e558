"""The config's [clock] and [sound]: their defaults, and every mistake named by its key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.clocks import ControlKind, TimeControl
from firmware_host.daemon.config import Sound, load_config
from firmware_host.errors import ConfigError

SERIAL = '[sensors]\nbackend = "serial"\n'  # a Pico scans the nest: the GPIO matrix's 16 pins are free


def write(tmp_path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_by_default_there_is_no_clock_and_no_sound():
    config = load_config(None)
    assert config.clock is None
    assert config.sound == Sound(enabled=False, pin=18, buzzer="tonal", move_accepted=False)
    assert "sound.pin" not in config.pins().values()


def test_a_clock_and_a_buzzer_are_read(tmp_path):
    text = f'{SERIAL}[clock]\ncontrol = "10 bronstein 5"\n[sound]\nenabled = true\nbuzzer = "active"\n'
    config = load_config(write(tmp_path, text))
    assert config.clock == TimeControl(ControlKind.BRONSTEIN, 600_000, 5000)
    assert config.sound == Sound(enabled=True, pin=18, buzzer="active", move_accepted=False)
    assert config.pins()[18] == "sound.pin"


def test_an_empty_control_is_no_clock(tmp_path):
    assert load_config(write(tmp_path, '[clock]\ncontrol = "  "\n')).clock is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[clock]\ncontrol = "5+x"', r"clock\.control: time control '5\+x': the increment in seconds 'x' is not"),
        ("[clock]\ncontrol = 5", r"clock\.control: expected a string, got an integer"),
        ('[clock]\nmoves = "40/90"', r"clock\.moves: unknown key \(expected one of: control\)"),
        ('[sound]\nenabled = "yes"', r"sound\.enabled: expected true or false, got a string"),
        ("[sound]\npin = 28", r"sound\.pin: 28 is out of range \(from 0 to 27\)"),
        ('[sound]\nbuzzer = "speaker"', r"sound\.buzzer: 'speaker' is not one of: tonal, active"),
        ("[sound]\nmove_accepted = 1", r"sound\.move_accepted: expected true or false, got an integer"),
        # With the GPIO matrix, every pin of the header is taken: the piezo needs one freed.
        ("[sound]\nenabled = true", r"sound\.pin: GPIO18 is already used by sensors\.gpio\.columns \(column 0\)"),
        (f"{SERIAL}[sound]\nenabled = true\npin = 26", r"sound\.pin: GPIO26 is already used by status_lights\.red"),
    ],
)
def test_a_mistake_in_clock_or_sound_is_named_by_its_key(tmp_path, text, message):
    path = write(tmp_path, text + "\n")
    with pytest.raises(ConfigError, match=rf"^{tmp_path}/config\.toml: {message}"):
        load_config(path)


def test_a_disabled_buzzer_takes_no_pin(tmp_path):
    config = load_config(write(tmp_path, "[sound]\nenabled = false\npin = 18\n"))
    assert config.pins()[18] == "sensors.gpio.columns (column 0)"


def test_a_bad_control_stops_the_command_with_exit_code_2(tmp_path, capsys):
    path = write(tmp_path, '[clock]\ncontrol = "5 blitz 3"\n')
    assert main(["wiring", "--config", path]) == 2
    error = capsys.readouterr().err
    assert "clock.control: time control '5 blitz 3': 'blitz' is not fischer or bronstein" in error


def test_the_configs_the_docs_show_are_read(tmp_path):
    docs = (Path(__file__).resolve().parent.parent / "docs" / "clocks-and-sound.md").read_text(encoding="utf-8")
    first, *_, freed = re.findall(r"```toml\n(.*?)```", docs, re.DOTALL)
    config = load_config(write(tmp_path, SERIAL + first))  # GPIO18 is free with a Pico scanning
    assert config.clock == TimeControl.from_text("5+3") and config.sound.pin == 18
    config = load_config(write(tmp_path, freed))  # a status light given up for the piezo
    assert config.sound.enabled and config.pins()[15] == "sound.pin"
