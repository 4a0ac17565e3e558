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

    @property
    def cells(self) -> frozenset[str]:
        """The squares the set-up puts a piece on (what the switches can check)."""
        return frozenset(self.ranks)

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


@dataclass(frozen=True)
class GuidedPlacement:
    """A set-up made on the nest by asking for one rank at a time ("place your marshal"):
    the square that fills next holds the rank asked for, so the switches alone tell the
    referee each rank. The ranks are asked for in the board file's order, each as many
    times as the army has it. Immutable: :meth:`place` and :meth:`undo` return the next.

    >>> from firmware_host.games.battle.field import Field
    >>> guide = GuidedPlacement.begin(Field.default(), Side.RED)
    >>> guide.prompt()
    'place your marshal (1 of 1)'
    >>> guide = guide.place("e4")
    >>> guide.prompt(), guide.placed
    ('place your general (1 of 1)', (('e4', 'marshal'),))
    """

    field: Field
    side: Side
    cells: tuple[str, ...] = ()
    """The squares filled so far, in order: the n-th holds the n-th rank asked for."""

    @classmethod
    def begin(cls, field: Field, side: Side) -> GuidedPlacement:
        """A placement with nothing placed yet."""
        return cls(field, side)

    @property
    def order(self) -> tuple[Rank, ...]:
        """The ranks in the order they are asked for: the board file's, each as many
        times as the army has it."""
        return tuple(rank for rank in self.field.army for _ in range(rank.count))

    @property
    def next_rank(self) -> Rank | None:
        """The rank the next square to fill will hold; None once the army is placed."""
        order = self.order
        return order[len(self.cells)] if len(self.cells) < len(order) else None

    def is_complete(self) -> bool:
        return self.next_rank is None

    @property
    def placed(self) -> tuple[tuple[str, str], ...]:
        """The squares filled so far with the name of the rank each holds, in order: for
        the placing player's own screen only."""
        return tuple((cell, rank.name) for cell, rank in zip(self.cells, self.order, strict=False))

    def prompt(self) -> str:
        """What the placing player's own screen asks for next (never a shared screen:
        it says where ranks went)."""
        rank = self.next_rank
        if rank is None:
            return "your army is placed"
        done = sum(1 for placed in self.order[: len(self.cells)] if placed == rank)
        return f"place your {rank.name} ({done + 1} of {rank.count})"

    def place(self, cell: str) -> GuidedPlacement:
        """The placement once ``cell`` has filled with the rank asked for. Raises
        :class:`SetupError` for a square off the side's rows, one already filled, or a
        piece too many."""
        side = self.side.label
        if self.is_complete():
            raise SetupError(f"{side}'s army is placed: {cell} is a piece too many")
        if cell not in self.field.setup_cells(self.side):
            rows = ", ".join(map(str, sorted(self.field.setup_rows(self.side))))
            raise SetupError(f"{cell} is not on {side}'s rows ({rows}): place the piece there")
        if cell in self.cells:
            raise SetupError(f"{cell} already holds a piece of {side}'s")
        return GuidedPlacement(self.field, self.side, (*self.cells, cell))

    def undo(self) -> GuidedPlacement:
        """The placement without its last piece (lifted again): that rank is asked for
        again. Raises :class:`SetupError` when nothing is placed."""
        if not self.cells:
            raise SetupError(f"nothing of {self.side.label}'s is placed yet")
        return GuidedPlacement(self.field, self.side, self.cells[:-1])

    def setup(self) -> Setup:
        """The finished set-up, checked. Raises :class:`SetupError` while ranks are
        still to place."""
        rank = self.next_rank
        if rank is not None:
            raise SetupError(f"{self.side.label}'s set-up is not finished: {self.prompt()}")
        setup = Setup(self.side, dict(zip(self.cells, self.order, strict=True)))
        setup.check(self.field)
        return setup
