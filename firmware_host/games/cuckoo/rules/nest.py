"""The nest: the board's geometry as data, read from a board file.

A nest is a set of pointy-top hexagonal cells, each with a name and axial hex
coordinates ``[q, r]``: ``r`` grows by one per row going north (towards blue), ``q``
by one per cell going east along a row. Neighbours, straight lines and the 180° turn
that gives blue its lineup all follow from the coordinates. Each side has its forward
directions and its homebases; the lineups name red's cells, and blue's pieces stand
on those cells turned by 180°.

The default nest, ``hexhex-5``, ships in the game's folder as ``boards/hexhex-5.toml``
(:class:`~firmware_host.games.assets.GameAssets`);
``docs/board-files.md`` describes the format for a differently printed nest.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from firmware_host.errors import BoardFileError, NotationError
from firmware_host.games.assets import GameAssets
from firmware_host.games.cuckoo.rules.pieces import Kind, Piece, Side
from firmware_host.toml_checks import TomlChecker

DEFAULT_NEST = "hexhex-5"
CELL_NAME = re.compile(r"[a-z]+[1-9][0-9]*")
LINEUP_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
MAX_SPAN = 256  # rows or cells per row a nest may spread over: far more than a table holds


class Direction(Enum):
    """The six directions on a pointy-top nest, as axial steps ``(dq, dr)``."""

    E = (1, 0)
    W = (-1, 0)
    NE = (0, 1)
    NW = (-1, 1)
    SE = (1, -1)
    SW = (0, -1)

    @property
    def dq(self) -> int:
        return self.value[0]

    @property
    def dr(self) -> int:
        return self.value[1]

    @property
    def label(self) -> str:
        """The direction in words, such as ``north-west``."""
        words = {"N": "north", "S": "south", "E": "east", "W": "west"}
        return "-".join(words[letter] for letter in self.name)


@dataclass(frozen=True)
class Lineup:
    """A starting lineup: which piece stands on which cell, for both sides."""

    name: str
    description: str
    pieces: Mapping[str, Piece]


class Nest:
    """The geometry of one nest. Immutable; build it with :meth:`load`,
    :meth:`from_toml` or :meth:`default`.

    >>> nest = Nest.default()
    >>> nest.neighbour("e5", Direction.NW)
    'd6'
    >>> [nest.neighbour(cell, Direction.NE) for cell in ("a1", "b2", "c3", "d4")]
    ['b2', 'c3', 'd4', 'e5']
    >>> nest.turned("a1")
    'e9'
    """

    def __init__(
        self,
        *,
        name: str,
        description: str,
        cells: Mapping[str, tuple[int, int]],
        forward: Mapping[Side, tuple[Direction, ...]],
        homebases: Mapping[Side, frozenset[str]],
        lineups: Iterable[Lineup],
        turned: Mapping[str, str],
    ) -> None:
        """Takes values already checked by :meth:`from_toml`; use that to build one."""
        self.name = name
        self.description = description
        self._coordinates = dict(cells)
        self._cell_at = {qr: cell for cell, qr in cells.items()}
        # Cells in reading order from red's side: rows south to north, west to east.
        self.cells: tuple[str, ...] = tuple(sorted(cells, key=lambda cell: (cells[cell][1], cells[cell][0])))
        self._index = {cell: i for i, cell in enumerate(self.cells)}
        rows: dict[int, list[str]] = {}
        for cell in self.cells:
            rows.setdefault(cells[cell][1], []).append(cell)
        #: The rows from south (red's side) to north, each from west to east.
        self.rows: tuple[tuple[str, ...], ...] = tuple(tuple(row) for _, row in sorted(rows.items()))
        self._forward = dict(forward)
        self._homebases = dict(homebases)
        self._lineups = {lineup.name: lineup for lineup in lineups}
        self._turned = dict(turned)
        # The cell between two cells that lie two steps apart in a straight line.
        self._between: dict[tuple[str, str], str] = {}
        for cell, (q, r) in cells.items():
            for direction in Direction:
                middle = self._cell_at.get((q + direction.dq, r + direction.dr))
                target = self._cell_at.get((q + 2 * direction.dq, r + 2 * direction.dr))
                if middle is not None and target is not None:
                    self._between[(cell, target)] = middle
        self._identity = self._key()  # a nest never changes: compared often (positions' tables are cached by nest)

    def __repr__(self) -> str:
        return f"<Nest {self.name}: {len(self.cells)} cells>"

    def _key(self) -> tuple[object, ...]:
        """Everything that makes a nest, for comparing two."""
        return (
            self.name,
            self.description,
            tuple(sorted(self._coordinates.items())),
            tuple(sorted((side.value, self._forward[side], tuple(sorted(self._homebases[side]))) for side in Side)),
            tuple(
                (lineup.name, lineup.description, tuple(sorted(lineup.pieces.items(), key=lambda item: item[0])))
                for lineup in self._lineups.values()
            ),
        )

    def __eq__(self, other: object) -> bool:
        """Nests are equal when they describe the same board, wherever they were read from."""
        if not isinstance(other, Nest):
            return NotImplemented
        return self is other or self._identity == other._identity

    def __hash__(self) -> int:
        return hash((self.name, len(self.cells)))

    # -- construction -----------------------------------------------------------------

    @classmethod
    @cache
    def default(cls) -> Nest:
        """The default nest, ``hexhex-5``, shipped with nestref."""
        return cls.from_toml(GameAssets.of("cuckoo").board_text(DEFAULT_NEST), source=f"{DEFAULT_NEST}.toml")

    @classmethod
    def load(cls, path: str | Path) -> Nest:
        """Read a board file. Raises :class:`BoardFileError` naming the file and what is
        wrong when it cannot be read or does not describe a valid nest."""
        reader = _BoardFileReader(str(path))
        return reader.read(reader.read_file(path, "board file"))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "<board file>") -> Nest:
        """Build a nest from the text of a board file; ``source`` names it in errors.

        Raises :class:`BoardFileError`.
        """
        reader = _BoardFileReader(source)
        return reader.read(reader.load(text))

    # -- cells ------------------------------------------------------------------------

    def __contains__(self, cell: object) -> bool:
        return cell in self._index

    def check_cell(self, cell: str) -> str:
        """Return ``cell`` if the nest has it; raise :class:`NotationError` otherwise."""
        if cell not in self._index:
            raise NotationError(f"{cell!r} is not a cell of the nest {self.name}")
        return cell

    def index(self, cell: str) -> int:
        """The cell's position in :attr:`cells` (reading order from red's side)."""
        return self._index[self.check_cell(cell)]

    def coordinates(self, cell: str) -> tuple[int, int]:
        """The cell's axial coordinates ``(q, r)``."""
        return self._coordinates[self.check_cell(cell)]

    cell_shape = "hex"
    """The cells' shape (firmware_host.games.base.Board): pointy-top hexagons."""

    def centre(self, cell: str) -> tuple[float, float]:
        """The cell's centre on the table, in cell pitches, x to the east and y to the
        north: neighbouring centres are one apart.

        >>> nest = Nest.default()
        >>> nest.centre("e5"), nest.centre("f5")
        ((0.0, 0.0), (1.0, 0.0))
        """
        q, r = self.coordinates(cell)
        return q + r / 2, math.sqrt(3) / 2 * r

    def cell_at(self, q: int, r: int) -> str | None:
        """The cell at axial coordinates ``(q, r)``, or None off the nest."""
        return self._cell_at.get((q, r))

    def neighbour(self, cell: str, direction: Direction) -> str | None:
        """The next cell from ``cell`` in ``direction``, or None at the edge."""
        q, r = self.coordinates(cell)
        return self._cell_at.get((q + direction.dq, r + direction.dr))

    def line(self, origin: str, target: str) -> tuple[Direction, int] | None:
        """The direction and number of steps from ``origin`` to ``target`` when they lie
        on one straight line of cells (every cell between them on the nest); else None.
        """
        q0, r0 = self.coordinates(origin)
        q1, r1 = self.coordinates(target)
        for direction in Direction:
            dq, dr = direction.value
            steps = max(abs(q1 - q0), abs(r1 - r0))
            if steps and (q0 + dq * steps, r0 + dr * steps) == (q1, r1):
                path = (self._cell_at.get((q0 + dq * k, r0 + dr * k)) for k in range(1, steps))
                return (direction, steps) if all(path) else None
        return None

    def between(self, origin: str, target: str) -> str | None:
        """The cell a straight move of two steps from ``origin`` to ``target`` crosses;
        None if they are not two steps apart in a straight line of cells.

        >>> Nest.default().between("e5", "c7")
        'd6'
        """
        return self._between.get((origin, target))

    def distance(self, origin: str, target: str) -> int:
        """The number of steps between two cells, as if the nest had no holes.

        >>> Nest.default().distance("a1", "e5")
        4
        """
        q0, r0 = self.coordinates(origin)
        q1, r1 = self.coordinates(target)
        dq, dr = q1 - q0, r1 - r0
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def turned(self, cell: str) -> str:
        """The cell that ``cell`` lands on when the nest is turned by 180°."""
        return self._turned[self.check_cell(cell)]

    # -- sides and lineups ------------------------------------------------------------

    def forward(self, side: Side) -> tuple[Direction, ...]:
        """The directions in which ``side``'s pieces move when not capturing."""
        return self._forward[side]

    def homebases(self, side: Side) -> frozenset[str]:
        """``side``'s homebases: its opponent's cuckoo wins there, and its opponent's
        other pieces lose there."""
        return self._homebases[side]

    @property
    def default_lineup(self) -> str:
        """The lineup games start from unless another is named: ``standard`` if the
        nest has one, else the board file's first."""
        return "standard" if "standard" in self._lineups else next(iter(self._lineups))

    @property
    def lineup_names(self) -> tuple[str, ...]:
        """The names of the lineups, in the board file's order."""
        return tuple(self._lineups)

    def lineup(self, name: str) -> Lineup:
        """The lineup called ``name``; raises :class:`NotationError` if there is none."""
        try:
            return self._lineups[name]
        except KeyError:
            known = ", ".join(self._lineups)
            raise NotationError(f"the nest {self.name} has no lineup {name!r} (it has: {known})") from None


class _BoardFileReader(TomlChecker):
    """Checks a parsed board file and builds the :class:`Nest`; every error names the
    file and the key at fault."""

    def __init__(self, source: str) -> None:
        super().__init__(source, BoardFileError)

    def read(self, data: dict[str, Any]) -> Nest:
        top = self.table(data, "", ("name", "sides", "lineups", "cells"), ("description",))
        name = self.string(top["name"], "name")
        if not name or not name.isprintable():
            raise self.fail("name", "must be a non-empty line of printable text")
        description = self.string(top.get("description", ""), "description")
        cells = self.read_cells(top["cells"])
        forward, homebases = self.read_sides(top["sides"], cells)
        turn = self.turn_of(cells)
        lineups = self.read_lineups(top["lineups"], cells, turn, homebases)
        return Nest(
            name=name,
            description=description,
            cells=cells,
            forward=forward,
            homebases=homebases,
            lineups=lineups,
            turned=turn,
        )

    def read_cells(self, data: Any) -> dict[str, tuple[int, int]]:
        table = self.table(data, "cells")
        if not table:
            raise self.fail("cells", "the nest has no cells")
        cells: dict[str, tuple[int, int]] = {}
        seen: dict[tuple[int, int], str] = {}
        for cell, value in table.items():
            where = f"cells.{cell}"
            if not CELL_NAME.fullmatch(cell):
                raise self.fail(where, "a cell name is lower-case letters then a number, such as 'c3'")
            if (
                not isinstance(value, list)
                or len(value) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
            ):
                raise self.fail(where, f"expected axial coordinates [q, r] (two integers), got {value!r}")
            qr = (value[0], value[1])
            if qr in seen:
                raise self.fail(where, f"has the same coordinates {list(qr)} as {seen[qr]}")
            seen[qr] = cell
            cells[cell] = qr
        for axis, values in (("q", [q for q, _ in cells.values()]), ("r", [r for _, r in cells.values()])):
            if max(values) - min(values) >= MAX_SPAN:
                raise self.fail(
                    "cells",
                    f"the cells spread over {max(values) - min(values) + 1} values of {axis}; at most {MAX_SPAN}",
                )
        return cells

    def cell(self, value: Any, where: str, cells: Mapping[str, tuple[int, int]]) -> str:
        cell = self.string(value, where)
        if cell not in cells:
            raise self.fail(where, f"{cell!r} is not a cell of this nest")
        return cell

    def read_sides(
        self, data: Any, cells: Mapping[str, tuple[int, int]]
    ) -> tuple[dict[Side, tuple[Direction, ...]], dict[Side, frozenset[str]]]:
        sides = self.table(data, "sides", ("red", "blue"))
        forward: dict[Side, tuple[Direction, ...]] = {}
        homebases: dict[Side, frozenset[str]] = {}
        for side in Side:
            where = f"sides.{side.label}"
            table = self.table(sides[side.label], where, ("forward", "homebases"))
            names = self.string_list(table["forward"], f"{where}.forward")
            if not names:
                raise self.fail(f"{where}.forward", "a side needs at least one forward direction")
            directions = []
            for direction in names:
                if direction not in Direction.__members__:
                    raise self.fail(
                        f"{where}.forward",
                        f"unknown direction {direction!r} (expected: {', '.join(Direction.__members__)})",
                    )
                directions.append(Direction[direction])
            if not _is_within_a_third_turn(directions):
                raise self.fail(
                    f"{where}.forward",
                    "the directions must lie within 120° of each other (such as NW and NE), or a game might never end",
                )
            forward[side] = tuple(directions)
            bases = self.string_list(table["homebases"], f"{where}.homebases")
            if not bases:
                raise self.fail(f"{where}.homebases", "a side needs at least one homebase")
            homebases[side] = frozenset(self.cell(cell, f"{where}.homebases", cells) for cell in bases)
        shared = homebases[Side.RED] & homebases[Side.BLUE]
        if shared:
            raise self.fail("sides", f"{min(shared)} is a homebase of both sides")
        return forward, homebases

    def turn_of(self, cells: Mapping[str, tuple[int, int]]) -> dict[str, str]:
        """Map every cell to the cell it lands on when the nest turns by 180°."""
        turned: dict[str, str] = {}
        for cell, image in _turned_cells(cells).items():
            if image is None:
                raise self.fail(
                    "cells",
                    f"the nest must look the same turned by 180° (blue's lineup is red's turned): "
                    f"{cell} {list(cells[cell])} has no cell opposite it",
                )
            turned[cell] = image
        return turned

    def read_lineups(
        self,
        data: Any,
        cells: Mapping[str, tuple[int, int]],
        turned: Mapping[str, str],
        homebases: Mapping[Side, frozenset[str]],
    ) -> list[Lineup]:
        table = self.table(data, "lineups")
        if not table:
            raise self.fail("lineups", "the nest needs at least one lineup")
        lineups = []
        for name, value in table.items():
            where = f"lineups.{name}"
            if not LINEUP_NAME.fullmatch(name):
                raise self.fail(where, "a lineup name is lower-case letters, digits and dashes")
            lineup = self.table(value, where, ("cuckoo", "warblers", "eggs"), ("description",))
            red: dict[str, Kind] = {}
            placed = [(self.cell(lineup["cuckoo"], f"{where}.cuckoo", cells), Kind.CUCKOO)]
            for key, kind in (("warblers", Kind.WARBLER), ("eggs", Kind.EGG)):
                placed += [
                    (self.cell(cell, f"{where}.{key}", cells), kind)
                    for cell in self.string_list(lineup[key], f"{where}.{key}")
                ]
            for cell, kind in placed:
                if cell in red:
                    raise self.fail(where, f"{cell} holds two pieces (a {red[cell].label} and a {kind.label})")
                red[cell] = kind
            pieces: dict[str, Piece] = {}
            for cell, kind in red.items():
                opposite = turned[cell]
                if opposite in red:
                    raise self.fail(
                        where,
                        f"red's {red[opposite].label} on {opposite} stands where blue's {kind.label} "
                        f"(red's {cell} turned by 180°) must stand",
                    )
                pieces[cell] = Piece(Side.RED, kind)
                pieces[opposite] = Piece(Side.BLUE, kind)
            if len(red) == 1:
                raise self.fail(where, "a side needs a piece besides its cuckoo, or it has won before the game starts")
            for cell, piece in pieces.items():
                home = homebases[piece.side.opponent]
                if cell in home:
                    raise self.fail(
                        where,
                        f"the {piece.label} on {cell} stands on a {piece.side.opponent.label} homebase:"
                        " the game would be over before it starts",
                    )
            description = self.string(lineup.get("description", ""), f"{where}.description")
            lineups.append(Lineup(name=name, description=description, pieces=pieces))
        return lineups


def _is_within_a_third_turn(directions: Iterable[Direction]) -> bool:
    """Whether the directions fit in an arc of 120°, so that one straight "forward" axis
    grows with every step in any of them: then pieces cannot step around in circles."""
    ring = [Direction.E, Direction.NE, Direction.NW, Direction.W, Direction.SW, Direction.SE]  # 60° apart
    chosen = {ring.index(direction) for direction in directions}
    return any(chosen <= {start, (start + 1) % 6, (start + 2) % 6} for start in range(6))


def _turned_cells(cells: Mapping[str, tuple[int, int]]) -> dict[str, str | None]:
    """Map every cell to the cell it lands on when the nest turns by 180° around its
    centre, (q, r) to (2 cq - q, 2 cr - r); None where no cell is there."""
    count = len(cells)
    twice_q = 2 * sum(q for q, _ in cells.values())
    twice_r = 2 * sum(r for _, r in cells.values())
    if twice_q % count or twice_r % count:  # the centre is not a cell centre or a midpoint
        return dict.fromkeys(cells)
    at = {qr: cell for cell, qr in cells.items()}
    return {cell: at.get((twice_q // count - q, twice_r // count - r)) for cell, (q, r) in cells.items()}
