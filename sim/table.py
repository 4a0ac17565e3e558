"""The simulated table: where every piece is — on a cell, in a hand, or in the box off
the nest — and what the reed switches feel as hands move them.

A piece on a cell closes that cell's switch; lifting it opens the switch. Every act is
a physical one and goes to the switches through ``switch(cell, closed)``; the daemon
scans them as it scans a real nest. The table knows nothing of the rules: an illegal
move is made as easily as a legal one, and the referee says what it thinks of it.

A slide takes time: :meth:`Table.slide_steps` gives its switch changes as steps a
caller plays out with pauses between (the simulator does, with ``asyncio.sleep``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial

from firmware_host.games.base import Board, Piece, Side

Switch = Callable[[str, bool], None]  # a cell's switch closed (True) or opened

SLIDE_STEP_S = 0.06  # a sliding piece crosses a cell in about a tenth of a second
PUSH_OFF_GAP_S = 0.04  # a piece pushed off: its cell reads empty this long before the slider's magnet arrives


class TableError(ValueError):
    """An act the table cannot do (nothing to lift on an empty cell); nothing changed."""


@dataclass(frozen=True)
class UnknownPiece:
    """A piece a sensor log put down before it was known: no game's piece, drawn as
    ``?`` until the piece whose cell empties next turns out to be it."""

    letter: str = "?"
    side: None = None  # of neither side


UNKNOWN = UnknownPiece()


@dataclass(frozen=True)
class HeldPiece:
    """A piece off the nest, in a hand or in the box; ``id`` tells it from the others."""

    id: int
    piece: Piece | UnknownPiece
    lifted_from: str | None = None  # the cell a hand lifted it off, while it is in the hand


@dataclass(frozen=True)
class Step:
    """One moment of a slide: after ``pause_s``, ``act`` changes the table."""

    pause_s: float
    act: Callable[[], object]


class Table:
    """The nest's cells, a hand and the box."""

    def __init__(self, nest: Board, switch: Switch, cells: Mapping[str, Piece] | None = None) -> None:
        self.nest = nest
        self._switch = switch
        self.cells: dict[str, Piece | UnknownPiece] = {}
        self.hand: list[HeldPiece] = []  # in the order lifted
        self.box: list[HeldPiece] = []
        self._next_id = 1
        self._unknown: list[str] = []  # cells a sensor log filled before the piece was known
        for cell, piece in (cells or {}).items():
            self._occupy(self.nest.check_cell(cell), piece)

    # -- single acts ----------------------------------------------------------------------

    def lift(self, cell: str) -> HeldPiece:
        """The piece on ``cell`` into the hand."""
        cell = self._occupied(cell)
        held = HeldPiece(self._new_id(), self._vacate(cell), lifted_from=cell)
        self.hand.append(held)
        return held

    def put(self, cell: str, piece_id: int | None = None, *, side_to_move: Side | None = None) -> None:
        """A piece from the hand onto the empty ``cell``: the one ``piece_id`` names, or
        else the one a player would put down (:meth:`next_to_put`). Raises
        :class:`TableError` if the hand is empty, or holds different pieces none of which
        is the obvious one: the player chooses."""
        cell = self._empty(cell)
        if not self.hand:
            raise TableError("the hand is empty: lift a piece first")
        if piece_id is not None:
            held = self._held(self.hand, piece_id, "in the hand")
        elif (chosen := self.next_to_put(side_to_move)) is not None:
            held = chosen
        else:
            raise TableError("the hand holds different pieces: click the one to put down, then the cell")
        self.hand.remove(held)
        self._occupy(cell, held.piece)

    def lifted_from(self, cell: str) -> HeldPiece | None:
        """The piece in the hand that was lifted off ``cell``, if one was."""
        return next((held for held in reversed(self.hand) if held.lifted_from == cell), None)

    def next_to_put(self, side_to_move: Side | None = None) -> HeldPiece | None:
        """The piece in the hand a player would put down next, unless told which: with a
        game on, one of ``side_to_move``'s (a capturer lifts the piece it takes and its
        own, and puts down its own, whatever it lifted last); the one lifted last of
        those, or of the whole hand when there is no game or none is the side's, if
        they are all alike; None if the hand is empty or the choice is the player's
        (different pieces of the side to move, or of neither side).

        Which piece is which is the table's business: the switches feel only that a
        cell filled, so this choice changes the picture, never what the referee sees.
        """
        own = [held for held in self.hand if side_to_move is not None and held.piece.side is side_to_move]
        candidates = own or self.hand
        if not candidates or len({held.piece for held in candidates}) > 1:
            return None
        return candidates[-1]

    def knock(self, cell: str) -> HeldPiece:
        """The piece on ``cell`` knocked off the nest, into the box."""
        held = HeldPiece(self._new_id(), self._vacate(self._occupied(cell)))
        self.box.append(held)
        return held

    def take(self, piece_id: int) -> None:
        """A piece from the box into the hand."""
        held = self._held(self.box, piece_id, "in the box")
        self.box.remove(held)
        self.hand.append(held)

    def drop(self, piece_id: int) -> None:
        """A piece from the hand into the box."""
        held = self._held(self.hand, piece_id, "in the hand")
        self.hand.remove(held)
        self.box.append(held)

    def letters(self) -> dict[str, str]:
        """What stands on each occupied cell: a piece's letter, or ``?`` for a piece not
        yet known."""
        return {cell: piece.letter for cell, piece in self.cells.items()}

    def clear(self) -> None:
        """Every piece off the nest, and out of the hand, into the box."""
        for cell in [cell for cell in self.nest.cells if cell in self.cells]:
            if cell in self._unknown:
                self._unknown.remove(cell)
                self._vacate(cell)
            else:
                self.knock(cell)
        self.box += self.hand
        self.hand = []

    def set_up(self, pieces: Mapping[str, Piece]) -> Iterable[None]:
        """Clear the nest, then put ``pieces`` on it one at a time, in reading order:
        a step per piece, for the caller to pace. Pieces come from the box (the set is
        completed if the box lacks one: the simulator never runs short)."""
        self.clear()
        for cell in sorted(pieces, key=self.nest.index):
            self.box.remove(self._from_box(pieces[cell]))
            self._occupy(cell, pieces[cell])
            yield

    def put_from_box(self, cell: str, side: Side, spare: Piece) -> None:
        """A piece of ``side`` from the box onto the empty ``cell`` (``spare``, a piece of
        that side, if the box has none: the simulator never runs short). Which one it is
        the switches cannot tell: for a game whose pieces hide their identity, the
        table's pieces show their side alone."""
        cell = self._empty(cell)
        held = next((held for held in self.box if held.piece.side is side), None)
        if held is None:
            held = HeldPiece(self._new_id(), spare)
        else:
            self.box.remove(held)
        self._occupy(cell, held.piece)

    def set_exactly(self, pieces: Mapping[str, Piece], *, occupied: Iterable[str] | None = None) -> None:
        """The nest holds exactly ``pieces``, at once (a replay's starting position); or,
        given ``occupied``, pieces on exactly those cells: ``pieces``' where it has one,
        a piece not known yet elsewhere."""
        for _ in self.set_up(pieces if occupied is None else {c: p for c, p in pieces.items() if c in occupied}):
            pass
        for cell in sorted(set(occupied or ()) - set(self.cells), key=self.nest.index):
            self._unknown.append(cell)
            self._occupy(cell, UNKNOWN)

    def sense(self, cell: str, occupied: bool) -> None:
        """A switch change from a sensor log, made real on the table as best it can be:
        a cell emptying sends its piece to the hand; a cell filling takes the piece
        lifted last (the log names no piece). With the hand empty, it is a slide that closed its next cell
        before leaving its own: the cell holds a piece not yet known, which becomes the
        piece whose cell empties next."""
        cell = self.nest.check_cell(cell)
        if occupied and cell not in self.cells:
            if self.hand:  # the log says only that the cell filled: the piece lifted last
                self.put(cell, self.hand[-1].id)
            else:
                self._unknown.append(cell)
                self._occupy(cell, UNKNOWN)
        elif not occupied and cell in self.cells:
            piece = self._vacate(cell)
            if cell in self._unknown:
                self._unknown.remove(cell)
            elif self._unknown:  # the slide has ended: this piece is the one that arrived
                self.cells[self._unknown.pop(0)] = piece
            else:
                self.hand.append(HeldPiece(self._new_id(), piece))

    # -- slides ---------------------------------------------------------------------------

    def slide_steps(self, path: list[str]) -> list[Step]:
        """The piece on ``path[0]`` slides over the cells of ``path`` to its last one:
        it closes each cell's switch as it comes over it, and opens the one behind. An
        opponent's piece on the last cell is pushed off into the box as the slider
        arrives (its cell reads empty for ``PUSH_OFF_GAP_S``, long enough for a scan). Checked before any step
        is made: each cell is next to the one before, and the cells crossed are empty."""
        if len(path) < 2:
            raise TableError("a slide needs at least two cells")
        cells = [self.nest.check_cell(cell) for cell in path]
        slider = self.cells.get(cells[0])
        if slider is None:
            raise TableError(f"{cells[0]} is empty: nothing to slide")
        for before, after in itertools.pairwise(cells):
            if self.nest.distance(before, after) != 1:
                raise TableError(f"{after} is not next to {before}: a slide goes from cell to cell")
        for cell in cells[1:-1]:
            if cell in self.cells:
                raise TableError(f"{cell} holds a piece: a slide cannot pass over it")
        if len(set(cells)) != len(cells):
            raise TableError("a slide crosses each cell once")
        last, pushed = cells[-1], self.cells.get(cells[-1])
        if pushed is not None and pushed.side is not None and pushed.side is slider.side:
            raise TableError(f"{last} holds a piece of the same side: it cannot be pushed off")
        steps: list[Step] = []
        for before, after in itertools.pairwise(cells):
            if after == last and pushed is not None:
                # The slider leaves its cell, then shoves the captured piece off its own.
                steps.append(Step(SLIDE_STEP_S, partial(self._vacate, before)))
                steps.append(Step(SLIDE_STEP_S, partial(self.knock, last)))
                steps.append(Step(PUSH_OFF_GAP_S, partial(self._occupy, after, slider)))
            else:  # the next cell feels the magnet before the last one lets go
                steps.append(Step(SLIDE_STEP_S, partial(self._occupy, after, slider)))
                steps.append(Step(SLIDE_STEP_S, partial(self._vacate, before)))
        return steps

    # -- the parts --------------------------------------------------------------------------

    def _occupy(self, cell: str, piece: Piece | UnknownPiece) -> None:
        self.cells[cell] = piece
        self._switch(cell, True)

    def _vacate(self, cell: str) -> Piece | UnknownPiece:
        piece = self.cells.pop(cell)
        self._switch(cell, False)
        return piece

    def _occupied(self, cell: str) -> str:
        cell = self.nest.check_cell(cell)
        if cell not in self.cells:
            raise TableError(f"{cell} is empty")
        return cell

    def _empty(self, cell: str) -> str:
        cell = self.nest.check_cell(cell)
        if cell in self.cells:
            raise TableError(f"{cell} holds a piece already")
        return cell

    def _held(self, pieces: list[HeldPiece], piece_id: int, where: str) -> HeldPiece:
        for held in pieces:
            if held.id == piece_id:
                return held
        raise TableError(f"no piece {piece_id} {where}")

    def _from_box(self, piece: Piece) -> HeldPiece:
        for held in self.box:
            if held.piece == piece:
                return held
        held = HeldPiece(self._new_id(), piece)
        self.box.append(held)
        return held

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1
