"""The field: the squares, the lakes, each side's set-up rows, the army and the demo
set-ups, read from a board file (``boards/classic.toml``; ``docs/rules-battle.md`` §1
to §3 describe them, the file's comments its format).

Squares are named by their column, ``a`` from the west, and their row, ``1`` on red's
side: ``a1`` is red's west corner. A lake square has a name, but it is no cell: no
switch lies under it and no piece ever stands on it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from firmware_host.errors import BoardFileError, NotationError
from firmware_host.games.assets import GameAssets
from firmware_host.games.base import Side
from firmware_host.games.battle.army import Army, Movement, Rank, Role
from firmware_host.games.battle.pieces import HIDDEN_LETTER, Piece
from firmware_host.games.battle.setups import Setup, SetupError
from firmware_host.toml_checks import TomlChecker

DEFAULT_FIELD = "classic"
DEFAULT_TWO_SQUARE_TURNS = 3
"""The seed's two-square rule: not back and forth between the same two squares in three
consecutive turns."""
NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
RANK_NAME = re.compile(r"[a-z]+(-[a-z]+)*")
MAX_COLUMNS = 26  # one letter a column
MAX_ROWS = 99
MAX_STRENGTH = 99
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""North, east, south, west, as (columns, rows): the only ways a piece goes."""


@dataclass(frozen=True)
class Lineup:
    """A named set-up of both sides, for starting a game without the players' own (a
    demo): everybody can read it in the board file, so it hides nothing."""

    name: str
    description: str
    setups: Mapping[Side, Setup]

    @property
    def pieces(self) -> dict[str, Piece]:
        """Both sides' pieces, by square."""
        return {cell: piece for side in Side for cell, piece in self.setups[side].pieces.items()}


class Field:
    """The field of one board file. Immutable; build it with :meth:`load`,
    :meth:`from_toml` or :meth:`default`.

    >>> field = Field.default()
    >>> len(field.cells), sorted(field.lakes)[:4], field.is_lake("c5")
    (92, ['c5', 'c6', 'd5', 'd6'], True)
    >>> field.rays("a4")[0][:3], field.rays("c4")[0]
    (('a5', 'a6', 'a7'), ())
    """

    cell_shape = "square"

    def __init__(
        self,
        *,
        name: str,
        description: str,
        columns: int,
        rows: int,
        lakes: frozenset[str],
        setup_rows: Mapping[Side, tuple[int, ...]],
        army: Army,
        two_square_turns: int,
    ) -> None:
        """Takes values already checked by :meth:`from_toml`; use that to build one."""
        self.name = name
        self.description = description
        self.columns = columns
        self.rows = rows
        self.lakes = lakes
        self.army = army
        self.two_square_turns = two_square_turns
        """The two-square rule: no piece goes back and forth between the same two squares
        in this many of its side's turns in a row (the seed's 3; 6 for tournament play:
        five moves, the sixth refused)."""
        self._setup_rows = {side: tuple(sorted(numbers, reverse=True)) for side, numbers in setup_rows.items()}
        self._coordinates = {_square_name(x, y): (x, y) for y in range(rows) for x in range(columns)}
        self.cells: tuple[str, ...] = tuple(square for square in self._coordinates if square not in lakes)
        """The squares pieces stand on, in reading order from red's side: rows south to
        north, each west to east."""
        self._index = {cell: i for i, cell in enumerate(self.cells)}
        self._rays = {cell: tuple(self._ray(cell, step) for step in DIRECTIONS) for cell in self.cells}
        self._home = {cell: side for side in Side for cell in self.setup_cells(side)}
        self._lineups: dict[str, Lineup] = {}  # filled in by the reader, once the field can check set-ups

    def __repr__(self) -> str:
        return f"<Field {self.name}: {self.columns}x{self.rows}, {len(self.lakes)} lake squares>"

    # -- construction -----------------------------------------------------------------

    @classmethod
    @cache
    def default(cls) -> Field:
        """The field shipped with nestref: ``classic``, 10 by 10 with two lakes."""
        return cls.from_toml(GameAssets.of("battle").board_text(DEFAULT_FIELD), source=f"{DEFAULT_FIELD}.toml")

    @classmethod
    def shipped(cls, name: str) -> Field:
        """The field of the board file ``name`` shipped with the game (``classic``, the
        default; ``classic-40``, the classic game's army of 40). Raises
        :class:`BoardFileError` naming those there are."""
        if name == DEFAULT_FIELD:
            return cls.default()
        return cls.from_toml(GameAssets.of("battle").board_text(name), source=f"{name}.toml")

    @classmethod
    def load(cls, path: str | Path) -> Field:
        """Read a board file, or the shipped one of that name (:meth:`shipped`: a name
        without ``.toml`` that the game ships, such as ``classic-40``). Raises
        :class:`BoardFileError` naming the file, the key and what is wrong."""
        if str(path) in GameAssets.of("battle").board_names():
            return cls.shipped(str(path))
        reader = _FieldFileReader(str(path))
        return reader.read(reader.read_file(path, "board file"))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<board file>") -> Field:
        """A field from the text of a board file; ``source`` names it in errors. Raises
        :class:`BoardFileError`."""
        reader = _FieldFileReader(source)
        return reader.read(reader.load(text))

    @property
    def most_moves_back_and_forth(self) -> int:
        """The most moves in a row one piece may make between the same two squares: one
        fewer than :attr:`two_square_turns`, whose move is refused."""
        return self.two_square_turns - 1

    # -- squares ----------------------------------------------------------------------

    def __contains__(self, cell: object) -> bool:
        return cell in self._index

    def check_cell(self, cell: str) -> str:
        """``cell`` if pieces may stand on it; raises :class:`NotationError` otherwise."""
        if cell not in self._index:
            what = "a lake" if cell in self.lakes else "not a square"
            raise NotationError(f"{cell!r} is {what} of the field {self.name}")
        return cell

    def is_lake(self, square: str) -> bool:
        return square in self.lakes

    def index(self, cell: str) -> int:
        """The cell's place in :attr:`cells`."""
        return self._index[self.check_cell(cell)]

    def coordinates(self, square: str) -> tuple[int, int]:
        """The square's column and row from red's west corner, from 0: ``a1`` is (0, 0).
        Lake squares have them too. Raises :class:`NotationError` off the field."""
        try:
            return self._coordinates[square]
        except KeyError:
            raise NotationError(f"{square!r} is not a square of the field {self.name}") from None

    def centre(self, cell: str) -> tuple[float, float]:
        """The cell's centre on the table, in squares, x east and y north."""
        x, y = self.coordinates(self.check_cell(cell))
        return float(x), float(y)

    def distance(self, origin: str, target: str) -> int:
        """The squares between two cells going forward, backward and sideways, as if
        there were no lakes."""
        (x0, y0), (x1, y1) = self.coordinates(origin), self.coordinates(target)
        return abs(x1 - x0) + abs(y1 - y0)

    def row_squares(self, number: int) -> tuple[str, ...]:
        """Row ``number`` (1 on red's side), west to east, lakes included."""
        return tuple(_square_name(x, number - 1) for x in range(self.columns))

    def rays(self, cell: str) -> tuple[tuple[str, ...], ...]:
        """From ``cell``, north, east, south and west: the cells in a straight line up to
        the edge or the first lake, nearest first."""
        return self._rays[cell]

    def between(self, origin: str, target: str) -> tuple[str, ...] | None:
        """The squares (lakes too) strictly between two squares of one row or column,
        nearest to ``origin`` first; None if they share neither (or are one square)."""
        (x0, y0), (x1, y1) = self.coordinates(origin), self.coordinates(target)
        if (x0 != x1) == (y0 != y1):
            return None
        steps = abs(x1 - x0) + abs(y1 - y0)
        dx, dy = (x1 - x0) // steps, (y1 - y0) // steps
        return tuple(_square_name(x0 + dx * k, y0 + dy * k) for k in range(1, steps))

    def _ray(self, cell: str, step: tuple[int, int]) -> tuple[str, ...]:
        x, y = self._coordinates[cell]
        found: list[str] = []
        while True:
            x, y = x + step[0], y + step[1]
            if not (0 <= x < self.columns and 0 <= y < self.rows) or _square_name(x, y) in self.lakes:
                return tuple(found)
            found.append(_square_name(x, y))

    # -- sides ------------------------------------------------------------------------

    def setup_rows(self, side: Side) -> tuple[int, ...]:
        """The rows ``side`` sets its army up on, north to south."""
        return self._setup_rows[side]

    def setup_cells(self, side: Side) -> frozenset[str]:
        """The cells of ``side``'s set-up rows."""
        return frozenset(
            square for number in self._setup_rows[side] for square in self.row_squares(number) if square in self
        )

    def home_of(self, cell: str) -> Side | None:
        """The side that sets up on ``cell``, if any."""
        return self._home.get(cell)

    def forward(self, side: Side) -> int:
        """Which way ``side`` faces its opponent: +1 north (red, set up in the south), -1 south."""
        return 1 if min(self._setup_rows[side]) < min(self._setup_rows[side.opponent]) else -1

    # -- demo set-ups -----------------------------------------------------------------

    @property
    def lineup_names(self) -> tuple[str, ...]:
        """The demo set-ups, in the board file's order."""
        return tuple(self._lineups)

    @property
    def default_lineup(self) -> str:
        """The demo set-up a game starts from unless another is named: the board file's
        first (a real game starts from the players' own)."""
        return next(iter(self._lineups))

    def lineup(self, name: str) -> Lineup:
        """The demo set-up ``name``; raises :class:`NotationError` naming those there are."""
        try:
            return self._lineups[name]
        except KeyError:
            known = ", ".join(self._lineups)
            raise NotationError(f"the field {self.name} has no set-up {name!r} (it has: {known})") from None


def _square_name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


class _FieldFileReader(TomlChecker):
    """Checks a parsed board file and builds the :class:`Field`; every error names the
    file and the key at fault."""

    def __init__(self, source: str) -> None:
        super().__init__(source, BoardFileError)

    def read(self, data: dict[str, Any]) -> Field:
        top = self.table(
            data,
            "",
            ("name", "columns", "rows", "lakes", "sides", "army", "lineups"),
            ("description", "rules"),
        )
        name = self.string(top["name"], "name")
        if not NAME.fullmatch(name):
            raise self.fail("name", "a field's name is lower-case letters, digits and dashes")
        columns = self.integer(top["columns"], "columns", 2, MAX_COLUMNS)
        rows = self.integer(top["rows"], "rows", 2, MAX_ROWS)
        squares = {_square_name(x, y) for x in range(columns) for y in range(rows)}
        lakes = self.string_list(top["lakes"], "lakes")
        for lake in lakes:
            if lake not in squares:
                raise self.fail("lakes", f"{lake!r} is not a square of a {columns} by {rows} field")
        army = self.read_army(top["army"])
        field = Field(
            name=name,
            description=self.string(top.get("description", ""), "description"),
            columns=columns,
            rows=rows,
            lakes=frozenset(lakes),
            setup_rows=self.read_sides(top["sides"], rows),
            army=army,
            two_square_turns=self.read_rules(top.get("rules", {})),
        )
        if len(field.cells) < 2:
            raise self.fail("lakes", "the lakes leave fewer than two squares")
        for side in Side:
            room = len(field.setup_cells(side))
            if room < army.size:
                raise self.fail(
                    f"sides.{side.label}.setup_rows",
                    f"{room} squares (lakes aside) cannot hold the army's {army.size} pieces",
                )
        field._lineups = self.read_lineups(top["lineups"], field)
        return field

    def read_rules(self, data: Any) -> int:
        rules = self.table(data, "rules", (), ("two_square_turns",))
        return self.integer(rules.get("two_square_turns", DEFAULT_TWO_SQUARE_TURNS), "rules.two_square_turns", 2, 99)

    def read_sides(self, data: Any, rows: int) -> dict[Side, tuple[int, ...]]:
        sides = self.table(data, "sides", ("red", "blue"))
        found: dict[Side, tuple[int, ...]] = {}
        for side in Side:
            where = f"sides.{side.label}"
            table = self.table(sides[side.label], where, ("setup_rows",))
            numbers = self.integer_list(table["setup_rows"], f"{where}.setup_rows", 1, rows)
            if not numbers:
                raise self.fail(f"{where}.setup_rows", "a side needs at least one row to set up on")
            found[side] = tuple(numbers)
        shared = set(found[Side.RED]) & set(found[Side.BLUE])
        if shared:
            raise self.fail("sides", f"row {min(shared)} is a set-up row of both sides")
        return found

    def read_army(self, data: Any) -> Army:
        table = self.table(data, "army")
        ranks = [self.read_rank(name, value) for name, value in table.items()]
        letters: dict[str, str] = {}
        for rank in ranks:
            if rank.letter in letters:
                raise self.fail(f"army.{rank.name}.letter", f"{rank.letter!r} is {letters[rank.letter]}'s letter too")
            letters[rank.letter] = rank.name
        names = {rank.name for rank in ranks}
        for rank in ranks:
            missing = sorted(rank.strikes_down - names)
            if missing:
                raise self.fail(f"army.{rank.name}.strikes_down", f"the army has no {missing[0]!r}")
        flags = [rank for rank in ranks if rank.role is Role.FLAG]
        if len(flags) != 1 or flags[0].count != 1:
            raise self.fail("army", 'an army has exactly one flag: one rank with role = "flag" and count = 1')
        if not any(rank.can_move for rank in ranks):
            raise self.fail("army", "an army needs a rank that moves")
        return Army(tuple(ranks))

    def read_rank(self, name: str, data: Any) -> Rank:
        where = f"army.{name}"
        if not RANK_NAME.fullmatch(name):
            raise self.fail(where, "a rank's name is lower-case letters (and dashes), such as 'marshal'")
        keys = self.table(data, where)
        role_name = keys.get("role")
        if role_name is None:
            rank = self.table(data, where, ("letter", "count", "strength", "moves"), ("strikes_down",))
        else:
            rank = self.table(data, where, ("letter", "count", "role"))
        letter = self.string(rank["letter"], f"{where}.letter")
        if not re.fullmatch(r"[A-Z]", letter) or letter == HIDDEN_LETTER:
            raise self.fail(
                f"{where}.letter", f"a rank's letter is one capital letter, not {HIDDEN_LETTER} (a hidden piece's)"
            )
        count = self.integer(rank["count"], f"{where}.count", 1, 99)
        if role_name is not None:
            role = Role(self.string(role_name, f"{where}.role", [role.value for role in Role]))
            return Rank(name, letter, count, role=role)
        moves = self.string(rank["moves"], f"{where}.moves", [Movement.STEP.value, Movement.RUN.value])
        return Rank(
            name,
            letter,
            count,
            strength=self.integer(rank["strength"], f"{where}.strength", 1, MAX_STRENGTH),
            movement=Movement(moves),
            strikes_down=frozenset(self.string_list(rank.get("strikes_down", []), f"{where}.strikes_down")),
        )

    def read_lineups(self, data: Any, field: Field) -> dict[str, Lineup]:
        table = self.table(data, "lineups")
        if not table:
            raise self.fail("lineups", "the field needs at least one set-up to start a game from")
        lineups = {}
        for name, value in table.items():
            where = f"lineups.{name}"
            if not NAME.fullmatch(name):
                raise self.fail(where, "a set-up's name is lower-case letters, digits and dashes")
            lineup = self.table(value, where, ("red", "blue"), ("description",))
            setups = {side: self.read_setup(lineup[side.label], f"{where}.{side.label}", field, side) for side in Side}
            description = self.string(lineup.get("description", ""), f"{where}.description")
            lineups[name] = Lineup(name, description, setups)
        return lineups

    def read_setup(self, data: Any, where: str, field: Field, side: Side) -> Setup:
        rows = self.string_list_in_order(data, where)
        try:
            return Setup.from_text(field, side, "/".join(rows))
        except (SetupError, NotationError) as error:
            raise self.fail(where, str(error)) from None

    def string_list_in_order(self, value: Any, where: str) -> Sequence[str]:
        """A list of strings that may repeat (two rows of a set-up may be alike)."""
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(where, "expected a list of strings, one a row, north to south")
        return value
