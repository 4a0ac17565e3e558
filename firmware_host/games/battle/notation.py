"""The rows of the field in text, as positions, views and set-ups write them
(``docs/rules-battle.md`` §7): rows north to south, separated by ``/``; in a row, from
west to east, a piece's letter (and its mark, ``+`` or ``!``), a number of empty squares
or ``.`` for one, and ``~`` for a lake square.

>>> from firmware_host.games.battle.field import Field
>>> field = Field.default()
>>> read_rows(field, "2~~2~~2", (5,))
{}
>>> read_rows(field, "S+9", (1,))
{'a1': ('S', '+')}
>>> write_rows(field, (5, 4), {"a4": "S+", "j4": "s"})
'2~~2~~2/S+8s'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from firmware_host.errors import NotationError

if TYPE_CHECKING:
    from firmware_host.games.battle.field import Field

_ROW_TOKEN = re.compile(r"([0-9]+)|([A-Za-z])([+!]?)|(~)|(\.)|(.)", re.DOTALL)
MARKS = "+!"


def read_rows(field: Field, text: str, numbers: Sequence[int]) -> dict[str, tuple[str, str]]:
    """The pieces written in ``text``, the rows ``numbers`` (north to south), as square
    to (letter, mark). Raises :class:`NotationError` saying which row is wrong (the
    caller says what was being read)."""
    rows = text.split("/")
    if len(rows) != len(numbers):
        raise NotationError(f"it has {len(rows)} rows, expected {len(numbers)} (rows {_span(numbers)})")
    pieces: dict[str, tuple[str, str]] = {}
    for number, row_text in zip(numbers, rows, strict=True):
        squares = field.row_squares(number)
        written = _row_items(row_text, number, len(squares))
        if len(written) != len(squares):
            raise NotationError(f"row {number} describes {len(written)} squares, the row has {len(squares)}")
        for square, item in zip(squares, written, strict=True):
            if field.is_lake(square) != (item == "~"):
                wanted = "~ there (a lake)" if field.is_lake(square) else "a piece or an empty square there, not ~"
                raise NotationError(
                    f"row {number}: {square} is {'a lake' if field.is_lake(square) else 'a square'}: write {wanted}"
                )
            if item not in ("~", "."):
                pieces[square] = (item[0], item[1:])
    return pieces


def _row_items(text: str, number: int, length: int) -> list[str]:
    """The squares one row's text describes, west to east: ``.`` an empty square, ``~``
    a lake, else a piece's letter and mark; no more than ``length`` + 1 (enough to say
    the row is too long)."""
    items: list[str] = []
    for token in _ROW_TOKEN.finditer(text):
        run, letter, mark, lake, _dot, other = token.groups()
        if other is not None:
            raise NotationError(f"row {number} has {other!r}, expected a letter, a number of empty squares, . or ~")
        if run is not None:
            count = int(run) if len(run) <= 3 else length + 1  # no int() of a number of any size
            if count == 0:
                raise NotationError(f"row {number} has a run of 0 empty squares")
            items += ["."] * min(count, length + 1)
        else:
            items.append(letter + mark if letter is not None else "~" if lake is not None else ".")
        if len(items) > length:
            raise NotationError(f"row {number} describes more than its {length} squares")
    return items


def write_rows(field: Field, numbers: Sequence[int], letters: Mapping[str, str], *, dots: bool = False) -> str:
    """The rows ``numbers`` (north to south) with ``letters`` (square to letter and
    mark); runs of empty squares as numbers, or with ``dots`` one ``.`` each (a set-up,
    whose columns then line up)."""
    rows = []
    for number in numbers:
        text, empty = "", 0
        for square in field.row_squares(number):
            written = "~" if field.is_lake(square) else letters.get(square)
            if written is None:
                if dots:
                    text += "."
                else:
                    empty += 1
                continue
            text += (str(empty) if empty else "") + written
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def _span(numbers: Sequence[int]) -> str:
    return f"{numbers[0]} to {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
