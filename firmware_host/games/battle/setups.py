"""A side's set-up: the rank its player puts on each square of its own rows before the
game (``docs/rules-battle.md`` §2). The referee learns it privately; the other side never
sees it.

Written as the side's rows, north to south, one capital letter a square (``.`` an empty
square), such as ``SP..SS..PS/LJSCNNCSJL/...``.
"""

from __future__ import annotations

import random
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
    referee each rank. The ranks are asked for in an order drawn from ``seed`` (each as
    many times as the army has it): the order in which squares fill, which everybody at
    the table and on the shared page sees, then says nothing of where each rank went.
    Immutable: :meth:`place` and :meth:`undo` return the next.

    >>> from firmware_host.games.battle.field import Field
    >>> guide = GuidedPlacement.begin(Field.default(), Side.RED, seed=7)
    >>> guide.prompt()
    'place your scout (1 of 8)'
    >>> guide = guide.place("e4")
    >>> guide.prompt(), guide.placed
    ('place your scout (2 of 8)', (('e4', 'scout'),))
    """

    field: Field
    side: Side
    order: tuple[Rank, ...]
    """The ranks in the order they are asked for, each as many times as the army has it."""
    cells: tuple[str, ...] = ()
    """The squares filled so far, in order: the n-th holds the n-th rank asked for."""

    @classmethod
    def begin(cls, field: Field, side: Side, *, seed: int) -> GuidedPlacement:
        """A placement with nothing placed yet, its order drawn with ``seed`` (the
        referee draws it where the opponent cannot know it)."""
        order = [rank for rank in field.army for _ in range(rank.count)]
        random.Random(seed).shuffle(order)
        return cls(field, side, tuple(order))

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
        return GuidedPlacement(self.field, self.side, self.order, (*self.cells, cell))

    def undo(self) -> GuidedPlacement:
        """The placement without its last piece (lifted again): that rank is asked for
        again. Raises :class:`SetupError` when nothing is placed."""
        if not self.cells:
            raise SetupError(f"nothing of {self.side.label}'s is placed yet")
        return GuidedPlacement(self.field, self.side, self.order, self.cells[:-1])

    def setup(self) -> Setup:
        """The finished set-up, checked. Raises :class:`SetupError` while ranks are
        still to place."""
        rank = self.next_rank
        if rank is not None:
            raise SetupError(f"{self.side.label}'s set-up is not finished: {self.prompt()}")
        setup = Setup(self.side, dict(zip(self.cells, self.order, strict=True)))
        setup.check(self.field)
        return setup


@dataclass(frozen=True)
class SetupCheck:
    """The check after a set-up that the pieces on the nest are the ranks the referee
    holds: its player is asked, on their own screen, to lift one piece at a time by its
    rank ("lift your marshal"), in an order drawn from ``seed``; the square that opens
    must be one where the set-up has that rank. Two pieces put down swapped, or a set-up
    given that differs from the pieces, fail it. Every piece is asked for but the last,
    whose square is then the only one left. Immutable: :meth:`lift` returns the next.

    >>> from firmware_host.games.battle.field import Field
    >>> field = Field.default()
    >>> check = SetupCheck.begin(field.lineup("demo").setups[Side.RED], seed=3)
    >>> check.prompt(), check.total
    ('lift your major (1 of 35)', 35)
    >>> check.holds("a1"), check.holds("b3")  # a1 holds the flag, b3 a major
    (False, True)
    >>> check.lift("b3").checked
    ('b3',)
    """

    setup: Setup
    order: tuple[Rank, ...]
    """The ranks in the order they are asked for (one a piece, the last piece left out)."""
    checked: tuple[str, ...] = ()
    """The squares lifted so far that held the rank asked for, in order."""

    @classmethod
    def begin(cls, setup: Setup, *, seed: int) -> SetupCheck:
        """A check of ``setup`` with nothing lifted yet, its order drawn with ``seed``."""
        order = sorted(setup.ranks.values(), key=lambda rank: rank.name)
        random.Random(seed).shuffle(order)
        return cls(setup, tuple(order[:-1]))

    @property
    def side(self) -> Side:
        return self.setup.side

    @property
    def total(self) -> int:
        """The pieces to lift."""
        return len(self.order)

    @property
    def next_rank(self) -> Rank | None:
        """The rank asked for next; None once the check is done."""
        return self.order[len(self.checked)] if len(self.checked) < len(self.order) else None

    def is_complete(self) -> bool:
        return self.next_rank is None

    def holds(self, cell: str) -> bool:
        """Whether a lift of ``cell`` now is the piece asked for: the set-up has the rank
        asked for there, and the square was not lifted before in this check."""
        rank = self.next_rank
        return rank is not None and cell not in self.checked and self.setup.ranks.get(cell) == rank

    def lift(self, cell: str) -> SetupCheck:
        """The check once ``cell`` was lifted as the piece asked for. Raises
        :class:`SetupError` if the set-up does not have that rank there (the pieces and
        the set-up differ there, or the player lifted another piece)."""
        rank = self.next_rank
        if rank is None:
            raise SetupError(f"{self.side.label}'s pieces are checked")
        if not self.holds(cell):
            raise SetupError(f"{cell} is not where your set-up has a {rank.name}")
        return SetupCheck(self.setup, self.order, (*self.checked, cell))

    def prompt(self) -> str:
        """What the checking player's own screen asks for next (private: it names a rank)."""
        rank = self.next_rank
        if rank is None:
            return "your pieces are checked"
        return f"lift your {rank.name} ({len(self.checked) + 1} of {self.total})"
