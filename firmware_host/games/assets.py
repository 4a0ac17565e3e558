"""What a game's folder ships beside its code, found by its place in the folder, so that
a game is one folder (``firmware_host/games/<name>/``) and nothing outside it names its
files:

- ``boards/<board>.toml``: its board files (the game reads its usual one by name);
- ``default_config.toml``: its defaults over the shipped config's, if it has any (the
  battle game's larger switch matrix), laid under the user's config;
- ``builds/<board>.toml``: a nest built for one of its boards, a config laid over the
  defaults that ``nestref wiring --game <name>`` writes its guide from, if the game has
  one for its usual board.

The package data takes every ``*.toml`` under ``games/`` (``pyproject.toml``), so a new
game's files ship with it.

>>> assets = GameAssets.of("battle")
>>> assets.board_names(), assets.build_names()
(('classic', 'classic-40'), ('classic',))
>>> assets.default_config() is not None, GameAssets.of("cuckoo").default_config()
(True, None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from firmware_host.errors import BoardFileError

BOARDS = "boards"
BUILDS = "builds"
DEFAULT_CONFIG = "default_config.toml"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")  # a board's or a build's name, as its file's


@dataclass(frozen=True)
class GameAssets:
    """The files of the game whose package is ``package`` (``firmware_host.games.<name>``)."""

    package: str

    @classmethod
    def of(cls, name: str) -> GameAssets:
        """The files of the game called ``name``, whose folder is named so."""
        return cls(f"{__package__}.{name}")

    def _folder(self) -> Traversable:
        return resources.files(self.package)

    def _names(self, folder: str) -> tuple[str, ...]:
        place = self._folder().joinpath(folder)
        if not place.is_dir():
            return ()
        return tuple(
            sorted(entry.name.removesuffix(".toml") for entry in place.iterdir() if entry.name.endswith(".toml"))
        )

    def board_names(self) -> tuple[str, ...]:
        """The board files the game ships, by name."""
        return self._names(BOARDS)

    def board_text(self, name: str) -> str:
        """The text of the shipped board file ``name``. Raises :class:`BoardFileError` if
        the game ships none of that name."""
        source = self._folder().joinpath(BOARDS, f"{name}.toml")
        if not _NAME.fullmatch(name) or not source.is_file():
            known = ", ".join(self.board_names()) or "none"
            raise BoardFileError(f"{self.package} ships no board {name!r} (it ships: {known})")
        return source.read_text(encoding="utf-8")

    def default_config(self) -> str | None:
        """The text of the game's defaults over the shipped config's, or None if it has
        none."""
        source = self._folder().joinpath(DEFAULT_CONFIG)
        return source.read_text(encoding="utf-8") if source.is_file() else None

    def build_names(self) -> tuple[str, ...]:
        """The boards the game ships a nest's build for."""
        return self._names(BUILDS)

    def build(self, board: str) -> Path | None:
        """The config file of the nest built for the board ``board``, or None if the game
        ships none (a config file on disk: the config loader reads it as a user's)."""
        if not _NAME.fullmatch(board):
            return None
        path = Path(str(self._folder().joinpath(BUILDS, f"{board}.toml")))
        return path if path.is_file() else None
