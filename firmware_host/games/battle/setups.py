"""A side's set-up: the rank its player puts on each square of its own rows before the
game (``docs/rules-battle.md`` §2). The referee learns it privately; the other side never
sees it.

Written as the side's rows, north to south, one capital letter a square (``.`` an empty
square), such as ``SP..SS..PS/LJSCNNCSJL/...``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware_host.errors import NestrefError, NotationError
from firmware_host.games.base import Side
from firmware_host.games.battle.army import Rank
from firmware_host.games.battle.notation import read_rows, write_rows
from firmware_host.games.battle.pieces import Piece

if TYPE_CHECKING:
    from firmware_host.games.battle.field import Field


class SetupError(NestrefError, ValueError):
    """A set-up that breaks the rules of setting up: a piece off the side's rows or on a
    lake, a rank too many or too few."""


@dataclass(frozen=True)
class Setup:
    """The ranks ``side`` puts on its squares, by square. Check it against the field
    with :meth:`check`; :meth:`from_text` checks what it reads."""

    side: Side
    ranks: Mapping[str, Rank]

    @property
    def pieces(self) -> dict[str, Piece]:
        return {cell: Piece(self.side, rank) for cell, rank in self.ranks.items()}

    @classmethod
    def from_text(cls, field: Field, side: Side, text: str) -> Setup:
        """Read ``side``'s set-up on ``field`` and check it. Raises
        :class:`NotationError` for text it cannot read, :class:`SetupError` for a set-up
        the rules do not allow.

        >>> from firmware_host.games.battle.field import Field
        >>> field = Field.default()
        >>> demo = field.lineup("demo").setups[Side.RED]
        >>> Setup.from_text(field, Side.RED, demo.to_text(field)) == demo
        True
        """
        numbers = field.setup_rows(side)
        try:
            written = read_rows(field, text, numbers)
        except NotationError as error:
            raise NotationError(f"cannot read {side.label}'s set-up: {error}") from None
        ranks = {}
        for cell, (letter, mark) in written.items():
            if mark or not letter.isupper():
                raise NotationError(
                    f"cannot read {side.label}'s set-up: {cell} has {letter + mark!r}; a set-up writes a rank's"
                    " capital letter alone"
                )
            try:
                ranks[cell] = field.army.by_letter(letter)
            except NotationError as error:
                raise NotationError(f"cannot read {side.label}'s set-up: {cell}: {error}") from None
        setup = cls(side, ranks)
        setup.check(field)
        return setup

    def to_text(self, field: Field) -> str:
        """The set-up in text, one character a square; :meth:`from_text` reads it."""
        letters = {cell: rank.letter for cell, rank in self.ranks.items()}
        return write_rows(field, field.setup_rows(self.side), letters, dots=True)

    def check(self, field: Field) -> None:
        """Raises :class:`SetupError` unless every piece stands on a square of the side's
        set-up rows and the set-up holds the army exactly, every rank as many times as
        the army has it."""
        side = self.side.label
        own = field.setup_cells(self.side)
        for cell in self.ranks:
            if cell in field.lakes:
                raise SetupError(f"{side}'s set-up puts a piece on {cell}, a lake")
            if cell not in own:
                rows = ", ".join(map(str, sorted(field.setup_rows(self.side))))
                raise SetupError(f"{side}'s set-up puts a piece on {cell}, which is not on {side}'s rows ({rows})")
        placed = Counter(self.ranks.values())
        for rank in placed:
            if rank not in field.army.ranks:
                raise SetupError(f"{side}'s set-up has a {rank.name}, which is not in the army")
        for rank in field.army:
            if placed[rank] != rank.count:
                raise SetupError(
                    f"{side}'s set-up has {placed[rank]} {_plural(rank.name, placed[rank])}; the army has {rank.count}"
                )


def _plural(name: str, count: int) -> str:
    return name if count == 1 else f"{name}s"
