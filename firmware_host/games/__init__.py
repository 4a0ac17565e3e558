"""The games nestref referees, each one folder behind one interface
(:mod:`firmware_host.games.base`). A game's package has a ``load(board)`` function
that returns its :class:`~firmware_host.games.base.Game` on a board file (None: the
game's usual board), most simply a :class:`~firmware_host.games.base_game.BaseGame`;
its files ship in its folder (:mod:`firmware_host.games.assets`). The packages are
found by their folders, so a new game is a new folder and nothing else: this list is
the only place that knows which games there are.

>>> from firmware_host.games import game_names, load_game
>>> load_game("cuckoo").title
'Operation Cuckoo'
>>> game_names()
('cuckoo', 'battle', 'chess')
>>> load_game("battle").title
'Pirates and Wizards'
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game

DEFAULT_GAME = "cuckoo"


class UnknownGameError(NestrefError, ValueError):
    """No game of that name; the message names the games there are."""


def game_names() -> tuple[str, ...]:
    """The games there are, by name, the default first."""
    found = sorted(module.name for module in pkgutil.iter_modules(__path__) if module.ispkg)
    return tuple(sorted(found, key=lambda name: name != DEFAULT_GAME))


def load_game(name: str = DEFAULT_GAME, board: str | Path | None = None) -> Game:
    """The game ``name`` on the board file ``board`` (None: the game's usual board).

    Raises :class:`UnknownGameError`, or the game's own error for a board file it
    cannot read."""
    if name not in game_names():
        raise UnknownGameError(f"there is no game {name!r}: the games are {', '.join(game_names())}")
    package = importlib.import_module(f"{__name__}.{name}")
    game: Game = package.load(board)
    return game
