"""A game is one folder (firmware_host/games/<name>/): what a game's package holds, each
file of it read by the game, and nothing outside the folder naming the game's files or
modules, so that a third game is one folder and the list of games (found by the
folders) the only place that knows it."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from firmware_host.daemon.config import load_config
from firmware_host.games import game_names, load_game
from firmware_host.games.assets import BOARDS, BUILDS, DEFAULT_CONFIG, GameAssets
from firmware_host.wiring import build_config

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "firmware_host" / "games"
PRODUCT = ("firmware_host", "sim", "hardware")  # what ships, or runs it; tests and docs may name any game
TEXT_FILES = (".py", ".toml", ".js", ".html", ".css")


def folder_files(name: str) -> set[str]:
    """Every file of the game's folder but its code, relative to the folder."""
    folder = GAMES / name
    return {
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.suffix != ".py" and "__pycache__" not in path.parts
    }


@pytest.mark.parametrize("name", game_names())
def test_a_game_folder_holds_its_code_its_boards_and_maybe_its_defaults_and_builds(name):
    assets = load_game(name).assets
    assert assets == GameAssets.of(name) and (GAMES / name / "__init__.py").is_file()
    boards, builds = assets.board_names(), assets.build_names()
    assert load_game(name).board.name in boards  # its usual board ships with it
    expected = {f"{BOARDS}/{board}.toml" for board in boards} | {f"{BUILDS}/{build}.toml" for build in builds}
    if assets.default_config() is not None:
        expected.add(DEFAULT_CONFIG)
    assert folder_files(name) == expected  # nothing else: every file there is one the game reads
    for board in boards:  # each of its boards is a board of the game
        assert load_game(name, GAMES / name / BOARDS / f"{board}.toml").board.name == board
    for build in builds:  # a build is a nest for one of its boards, a config the daemon takes
        assert build in boards
        config = load_config(assets.build(build), game=name)
        assert config.game.name == name and set(config.game.board.cells) <= set(config.matrix)
    defaults = load_config(None, game=name)  # its defaults are the daemon's, under a user's file
    assert defaults.game.name == name and set(defaults.game.board.cells) <= set(defaults.matrix)
    built = build_config(name)
    assert built is None or built == assets.build(load_game(name).board.name)


def test_the_shipped_files_are_found_and_an_unknown_board_is_named_as_such():
    assert GameAssets.of("battle").build("classic") == GAMES / "battle" / BUILDS / "classic.toml"
    assert GameAssets.of("cuckoo").build_names() == () and GameAssets.of("cuckoo").build("hexhex-5") is None
    assert GameAssets.of("cuckoo").build("../../daemon/default_config") is None  # names, not paths
    with pytest.raises(Exception, match=r"ships no board 'hexhex-9' \(it ships: hexhex-5\)"):
        GameAssets.of("cuckoo").board_text("hexhex-9")


def names_of(name: str) -> re.Pattern[str]:
    """What names a game's files or modules: its package (``firmware_host.games.battle``,
    ``from firmware_host.games import battle``), its folder (``games/battle/``), a file
    named for it (``default_config_battle.toml``), or one of the files its folder holds."""
    files = sorted({Path(each).name for each in folder_files(name)} - {DEFAULT_CONFIG}, key=len, reverse=True)
    return re.compile(
        rf"games\.{name}\b|from firmware_host\.games import [^\n]*\b{name}\b|games/{name}\b|{name}\.toml"
        + "".join(f"|(?<![\\w-]){re.escape(file)}" for file in files)
    )


def test_the_patterns_catch_what_names_a_game():
    pattern = names_of("battle")
    for text in (
        "from firmware_host.games.battle.field import Field",
        "importlib.import_module('firmware_host.games.battle')",
        "from firmware_host.games import cuckoo, battle",
        '"games/battle/boards/*.toml"',
        'resources.files("firmware_host.daemon").joinpath("default_config_battle.toml")',
        "Field.load('classic.toml')",
    ):
        assert pattern.search(text), text
    for text in ("nestref --game battle wiring", 'load_game("battle")', "the battle game", "games.battlement"):
        assert not pattern.search(text), text


def product_texts(name: str) -> dict[str, str]:
    """The text of every product file outside the game's folder, by path; the import
    contracts of ``pyproject.toml`` but those contained in the game's own package (its
    inner layers, written where import-linter reads contracts)."""
    texts = {}
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in TEXT_FILES and "__pycache__" not in path.parts and GAMES / name not in path.parents:
                texts[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    own = [f"firmware_host.games.{name}"]
    contracts = project["tool"]["importlinter"]["contracts"]
    project["tool"]["importlinter"]["contracts"] = [each for each in contracts if each.get("containers") != own]
    texts["pyproject.toml"] = json.dumps(project, indent=1)
    return texts


@pytest.mark.parametrize("name", game_names())
def test_nothing_outside_a_game_folder_names_its_files_or_modules(name):
    pattern = names_of(name)
    texts = product_texts(name)
    found = [path for path in texts if pattern.search(path)]  # a file named for the game, such as builds/battle.toml
    found += [
        f"{path}:{text.count(chr(10), 0, match.start()) + 1}: {match.group()}"
        for path, text in texts.items()
        for match in pattern.finditer(text)
    ]
    assert not found, "reach the game through its package and its assets (firmware_host/games/assets.py)"
