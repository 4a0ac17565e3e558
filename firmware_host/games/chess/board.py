"""The chessboard: 64 squares in reading order from white's side, their distances and
centres, and the lineups of its board file (``boards/square-8.toml``), each a FEN.

Squares are named as in chess, ``a1`` white's queen-side corner; nestref's red side is
white (it moves first from the usual start), blue is black.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import chess

from firmware_host.errors import BoardFileError, NotationError
from firmware_host.games.assets import GameAssets
from firmware_host.games.chess.pieces import Piece, pieces_of
from firmware_host.toml_checks import TomlChecker

DEFAULT_BOARD = "square-8"
NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
SQUARES: tuple[str, ...] = tuple(chess.square_name(square) for square in chess.SQUARES)
"""Every square in reading order from white's side: rank 1 west to east, then rank 2, ..."""


@dataclass(frozen=True)
class Lineup:
    """A position a game may start from: its name, a description, its FEN."""

    name: str
    description: str
    fen: str

    @property
    def pieces(self) -> Mapping[str, Piece]:
        """The pieces it puts on the board, by square."""
        return pieces_of(chess.Board(self.fen))


class ChessBoard:
    """The 64 squares of a chessboard and the lineups of one board file. Immutable; build
    it with :meth:`default`, :meth:`load` or :meth:`from_toml`.

    >>> board = ChessBoard.default()
    >>> len(board.cells), board.cells[:3], board.distance("a1", "c2"), board.centre("h8")
    (64, ('a1', 'b1', 'c1'), 2, (7.0, 7.0))
    """

    cell_shape = "square"
    columns = 8
    rows = 8

    def __init__(self, name: str, description: str, lineups: Mapping[str, Lineup]) -> None:
        """Takes values already checked by :meth:`from_toml`; use that to build one."""
        self.name = name
        self.description = description
        self._lineups = dict(lineups)
        self.cells = SQUARES
        self._index = {cell: i for i, cell in enumerate(SQUARES)}

    def __repr__(self) -> str:
        return f"<ChessBoard {self.name}: 64 squares, lineups {', '.join(self._lineups)}>"

    @classmethod
    @cache
    def default(cls) -> ChessBoard:
        """The board shipped with nestref, ``square-8``."""
        return cls.from_toml(GameAssets.of("chess").board_text(DEFAULT_BOARD), source=f"{DEFAULT_BOARD}.toml")

    @classmethod
    def load(cls, path: str | Path) -> ChessBoard:
        """Read a board file. Raises :class:`BoardFileError` naming the file and the key."""
        reader = _BoardFileReader(str(path))
        return reader.read(reader.read_file(path, "board file"))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<board file>") -> ChessBoard:
        """A board from the text of a board file; ``source`` names it in errors."""
        reader = _BoardFileReader(source)
        return reader.read(reader.load(text))

    # -- squares ----------------------------------------------------------------------

    def __contains__(self, cell: object) -> bool:
        return cell in self._index

    def check_cell(self, cell: str) -> str:
        """``cell`` if it is a square; raises :class:`NotationError` otherwise."""
        if cell not in self._index:
            raise NotationError(f"{cell!r} is not a square of the chessboard (a1 to h8)")
        return cell

    def index(self, cell: str) -> int:
        return self._index[self.check_cell(cell)]

    def coordinates(self, cell: str) -> tuple[int, int]:
        """The square's file and rank from white's queen-side corner, from 0."""
        square = chess.parse_square(self.check_cell(cell))
        return chess.square_file(square), chess.square_rank(square)

    def centre(self, cell: str) -> tuple[float, float]:
        x, y = self.coordinates(cell)
        return float(x), float(y)

    def distance(self, origin: str, target: str) -> int:
        """The king's steps between two squares (a captured piece pushed off lands on
        any square around its own, diagonals too)."""
        return chess.square_distance(chess.parse_square(origin), chess.parse_square(target))

    # -- lineups ----------------------------------------------------------------------

    @property
    def lineup_names(self) -> tuple[str, ...]:
        return tuple(self._lineups)

    @property
    def default_lineup(self) -> str:
        return next(iter(self._lineups))

    def lineup(self, name: str) -> Lineup:
        """The lineup ``name``; raises :class:`NotationError` naming those there are."""
        try:
            return self._lineups[name]
        except KeyError:
            known = ", ".join(self._lineups)
            raise NotationError(f"the board {self.name} has no lineup {name!r} (it has: {known})") from None


class _BoardFileReader(TomlChecker):
    """Checks a parsed board file; every error names the file and the key at fault."""

    def __init__(self, source: str) -> None:
        super().__init__(source, BoardFileError)

    def read(self, data: dict[str, Any]) -> ChessBoard:
        top = self.table(data, "", ("name", "lineups"), ("description",))
        name = self.string(top["name"], "name")
        if not NAME.fullmatch(name):
            raise self.fail("name", "a board's name is lower-case letters, digits and dashes")
        table = self.table(top["lineups"], "lineups")
        if not table:
            raise self.fail("lineups", "the board needs at least one lineup to start a game from")
        lineups = {}
        for lineup_name, value in table.items():
            where = f"lineups.{lineup_name}"
            if not NAME.fullmatch(lineup_name):
                raise self.fail(where, "a lineup's name is lower-case letters, digits and dashes")
            lineup = self.table(value, where, ("fen",), ("description",))
            fen = self.string(lineup["fen"], f"{where}.fen")
            try:
                board = chess.Board(fen)
            except ValueError as error:
                raise self.fail(f"{where}.fen", f"not a FEN: {error}") from None
            if not board.is_valid():
                raise self.fail(f"{where}.fen", f"not a position of chess: {status_words(board.status())}")
            description = self.string(lineup.get("description", ""), f"{where}.description")
            lineups[lineup_name] = Lineup(lineup_name, description, board.fen())
        return ChessBoard(name, self.string(top.get("description", ""), "description"), lineups)


def status_words(status: chess.Status) -> str:
    """What is wrong with a position, in words (python-chess's status flags)."""
    names = [str(flag.name).lower().replace("_", " ") for flag in chess.Status if flag and flag in status]
    return ", ".join(names) or "invalid"
