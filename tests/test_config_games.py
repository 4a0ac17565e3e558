"""The config for a game other than the default: its own board and defaults, whether it
is chosen in the file or by ``--game``."""

from __future__ import annotations

import pytest

from firmware_host.daemon.config import load_config
from firmware_host.errors import ConfigError
from firmware_host.games import load_game
from firmware_host.games.base import Side

BUILD = load_game("battle").assets.build("classic")


def write(tmp_path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_game_chosen_by_the_command_line_plays_on_its_own_board():
    config = load_config(None, game="battle")
    assert (config.game.name, config.game.board.name, config.lineup) == ("battle", "classic", "demo")
    assert config.computer_level == 3  # the default level, which the battle game's computer has
    assert config.sensors.size == (10, 10)  # its 92 squares and 3 buttons
    assert set(config.matrix) == {*config.game.board.cells, "confirm", "take_back", "switch"}
    assert config.cell_lights.driver == "none" and set(config.status_lights) == {"red_turn", "blue_turn", "error"}
    # The defaults are the shipped build the wiring guide describes.
    build = load_config(BUILD)
    assert (build.sensors.rows, build.sensors.columns) == (config.sensors.rows, config.sensors.columns)
    assert build.status_lights == config.status_lights and build.matrix == config.matrix


def test_a_game_named_in_the_file_plays_on_its_own_board(tmp_path):
    config = load_config(write(tmp_path, '[game]\nname = "battle"\nfirst_starter = "blue"\n'))
    assert (config.game.name, config.game.board.name) == ("battle", "classic")
    assert config.referee.first_starter is Side.BLUE


def test_the_command_line_game_drops_the_files_board_and_lineup_of_another_game(tmp_path):
    path = write(tmp_path, '[game]\nname = "cuckoo"\nboard = "hexhex-5"\nlineup = "advanced-1"\nlenient = true\n')
    config = load_config(path, game="battle")
    assert (config.game.name, config.game.board.name, config.lineup) == ("battle", "classic", "demo")
    assert config.referee.lenient  # what is no game's own is kept
    assert load_config(path, game="cuckoo").lineup == "advanced-1"  # the same game keeps them


def test_a_level_the_file_names_is_checked_against_the_games_levels(tmp_path):
    with pytest.raises(ConfigError, match=r"players.level: 6 is out of range \(from 1 to 5\)"):
        load_config(write(tmp_path, "[players]\nlevel = 6\n"), game="battle")


def test_the_file_overrides_the_games_own_defaults(tmp_path):
    rows = "[sensors.gpio]\nrows = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 26]\n"
    config = load_config(write(tmp_path, f'[game]\nname = "battle"\n{rows}[status_lights]\nerror = "none"\n'))
    assert config.sensors.size == (11, 10) and "error" not in config.status_lights
    with pytest.raises(ConfigError, match=r"cell_lights: c8 falls off the 8x8 LED matrix"):
        load_config(write(tmp_path, '[game]\nname = "battle"\n[cell_lights]\ndriver = "max7219"\n'))
