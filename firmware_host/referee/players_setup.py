"""The phase between games of a game whose players set up privately (the battle game):
each side's set-up comes from its player's own screen — the whole of it at once, or one
piece at a time as that screen asks, the cell that fills being the piece asked for —
and the game starts by itself once both are given and the nest shows them.

What a set-up holds (a rank on each cell) reaches the referee only as the game's own
value (:class:`~firmware_host.games.base.SideSetup`, from
:class:`~firmware_host.games.base.PlayersSetUp`); the signals say only which cells to
fill or empty and how many pieces each side has placed.
"""

from __future__ import annotations

from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import OWN_SETUPS, Placement, PlayersSetUp, Side, SideSetup
from firmware_host.referee.decisions import NOTHING, Decisions, StartFromSetups, Table
from firmware_host.referee.signals import SetupNeeded, SetupProgress, SetupState, Signal


class PlayersSetup:
    """Waits for both sides' own set-ups and for the nest to show them; made fresh for
    every game to set up.

    A side is *waiting* (nothing given: its rows are its own business, its player may be
    putting pieces down before saying what they are), *placing* (a guided placement:
    each cell of its rows that fills takes the piece asked for; lifting the last piece
    placed takes it back, and it is asked for again), or *ready* (a whole set-up given,
    or the placement complete: the nest must show exactly its cells). The squares of
    neither side's rows must stay empty.

    While a placed piece other than the last is off its cell, a piece set down on the
    side's rows is not taken as the next one: it might be that piece, moved, and then the
    ranks would be guessed. It must be lifted again (the nest says so) and the missing
    one put back.
    """

    def __init__(self, table: Table, hiding: PlayersSetUp) -> None:
        self.table = table
        self.hiding = hiding
        self.given: dict[Side, SideSetup] = {}
        self.placing: dict[Side, Placement] = {}
        self.blocked: set[str] = set()  # set down while a placed piece was missing: to lift again
        self.shown: SetupNeeded | None = None
        self.progress: dict[Side, SetupProgress] = {}

    # -- the players' screens --------------------------------------------------------

    def give(self, setup: Any) -> list[Signal]:
        """``setup`` (the game's own value, from its player's screen) is its side's."""
        side = setup.side
        self.placing.pop(side, None)
        self.given[side] = setup
        return self._report()

    def guide(self, side: Side) -> list[Signal]:
        """``side`` places its pieces one at a time from now on, starting afresh; the
        pieces already on its rows are to be lifted first."""
        self.given.pop(side, None)
        self.placing[side] = self.hiding.guided_placement(side)
        occupied = set(self.table.sensors.settled) - set(self.table.sensors.faulty)
        self.blocked = (self.blocked - self.hiding.setup_cells(side)) | (occupied & self.hiding.setup_cells(side))
        return self._report()

    def clear(self, side: Side) -> list[Signal]:
        """``side``'s set-up is withdrawn: it is waiting again."""
        self.given.pop(side, None)
        self.placing.pop(side, None)
        self.blocked -= self.hiding.setup_cells(side)
        return self._report()

    def prompt(self, side: Side) -> str | None:
        """What ``side``'s own screen asks for while it places its pieces (private)."""
        placement = self.placing.get(side)
        return placement.prompt() if placement is not None else None

    def state(self, side: Side) -> SetupState:
        if side in self.given or (side in self.placing and self.placing[side].is_complete()):
            return SetupState.READY
        return SetupState.PLACING if side in self.placing else SetupState.WAITING

    def setups(self) -> dict[Side, SideSetup] | None:
        """Both sides' set-ups, once both are ready."""
        found = {}
        for side in Side:
            if side in self.given:
                found[side] = self.given[side]
            elif side in self.placing and self.placing[side].is_complete():
                found[side] = self.placing[side].setup()
            else:
                return None
        return found

    # -- what the nest must show ------------------------------------------------------

    def expected(self, side: Side) -> frozenset[str] | None:
        """The cells of ``side``'s rows that must hold a piece, or None while it is
        waiting (its rows are not judged)."""
        if side in self.given:
            return self.given[side].cells
        if side in self.placing:
            return frozenset(self.placing[side].cells)
        return None

    def needed(self) -> SetupNeeded:
        table, state = self.table, self.table.set_state
        board, sensors = table.game.board, table.sensors
        ignored = set(sensors.faulty)
        occupied = set(sensors.settled) - ignored
        fill: set[str] = set()
        empty = set(occupied)
        for side in Side:
            rows = self.hiding.setup_cells(side)
            expected = self.expected(side)
            if expected is None:
                empty -= rows
                continue
            fill |= expected - occupied - ignored
            empty -= expected
        empty |= self.blocked & occupied
        return SetupNeeded(
            OWN_SETUPS,
            state.starter,
            tuple(sorted(fill, key=board.index)),
            tuple(sorted(empty, key=board.index)),
            state.number,
        )

    # -- what the referee asks of a phase ---------------------------------------------

    def on_change(self, at: int, cell: str | None = None, *, settled: bool = True) -> Decisions:
        """A settled change of ``cell``: a placing side's piece placed or taken back."""
        if cell is not None and settled:
            self._place(cell)
        return self._report()

    def _place(self, cell: str) -> None:
        side = next((side for side in self.placing if cell in self.hiding.setup_cells(side)), None)
        if side is None:
            return
        sensors = self.table.sensors
        placement = self.placing[side]
        if cell not in sensors.settled:
            self.blocked.discard(cell)
            if placement.cells and placement.cells[-1] == cell:
                self.placing[side] = placement.undo()
            return
        if cell in placement.cells or cell in self.blocked:
            return
        faulty = sensors.faulty
        missing = [placed for placed in placement.cells if placed not in sensors.settled and placed not in faulty]
        if missing or placement.is_complete():
            self.blocked.add(cell)  # which piece this is cannot be told: lift it again
            return
        try:
            self.placing[side] = placement.place(cell)
        except NestrefError:
            self.blocked.add(cell)

    def _report(self) -> list[Signal]:
        signals: list[Signal] = []
        for side in Side:
            placement = self.placing.get(side)
            placed = len(placement.cells) if placement is not None else 0
            progress = SetupProgress(side, self.state(side), placed, self.hiding.setup_size(side))
            if self.progress.get(side) != progress:
                self.progress[side] = progress
                signals.append(progress)
        needed = self.needed()
        if needed != self.shown:
            self.shown = needed
            signals.append(needed)
        return signals

    def on_quiet(self, at: int) -> Decisions:
        signals = self._report()
        assert self.shown is not None
        setups = self.setups()
        if setups is None or self.shown.fill or self.shown.empty:
            return signals
        return (*signals, StartFromSetups(setups[Side.RED], setups[Side.BLUE]))

    def deadline(self) -> int | None:
        return None

    def on_deadline(self, at: int) -> Decisions:
        return NOTHING
