"""The phase between games of a game whose players set up privately (the battle game):
each side's set-up comes from its player's own screen — the whole of it at once, or one
piece at a time as that screen asks, the cell that fills being the piece asked for, in
an order drawn at random — and the game starts by itself once both are given, the nest
shows them and each side that asked for a check has passed it (its player lifted each
piece as its screen asked, and each lifted cell held the piece the referee has there).

What a set-up holds (a rank on each cell) reaches the referee only as the game's own
value (:class:`~firmware_host.games.base.SideSetup`, from
:class:`~firmware_host.games.base.PlayersSetUp`); the signals say only which cells to
fill or empty and how many pieces each side has placed.
"""

from __future__ import annotations

import secrets
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import OWN_SETUPS, Placement, PlayersSetUp, SetupCheck, Side, SideSetup
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

    A side whose player asked for a check (:meth:`ask_check`) is *checking* once it is
    ready and the nest shows its cells: its screen asks for one piece at a time ("lift
    your marshal"); a lift counts when the nest showed all of the side's cells before it
    and the cell holds that piece in the set-up; it is put back before the next. A cell
    lifted that holds another piece is said on that screen alone (the pieces and the
    set-up differ there, or the player took the wrong piece) and the same piece is asked
    for again; two of the side's pieces off at once (the pieces rearranged) start the
    check again. The orders of placing and of checking are drawn where nobody can know
    them (``secrets``, unless a test passes its seed), so what everybody sees — which
    cells open and fill, how many — says nothing of the ranks.
    """

    def __init__(self, table: Table, hiding: PlayersSetUp) -> None:
        self.table = table
        self.hiding = hiding
        self.given: dict[Side, SideSetup] = {}
        self.placing: dict[Side, Placement] = {}
        self.blocked: set[str] = set()  # set down while a placed piece was missing: to lift again
        self.shown: SetupNeeded | None = None
        self.progress: dict[Side, SetupProgress] = {}
        self.check_wanted: dict[Side, int | None] = {}  # the sides to check, each with its seed (None: drawn)
        self.checking: dict[Side, SetupCheck] = {}
        self.passed: set[Side] = set()
        self.check_note: dict[Side, str] = {}  # the last thing the check says on that side's screen

    # -- the players' screens --------------------------------------------------------

    def give(self, setup: Any) -> list[Signal]:
        """``setup`` (the game's own value, from its player's screen) is its side's."""
        side = setup.side
        self.placing.pop(side, None)
        self.given[side] = setup
        self._uncheck(side)
        return self._report()

    def guide(self, side: Side, *, seed: int | None = None) -> list[Signal]:
        """``side`` places its pieces one at a time from now on, starting afresh, asked
        for in an order drawn with ``seed`` (None: drawn here, where nobody can know
        it); the pieces already on its rows are to be lifted first."""
        self.given.pop(side, None)
        self._uncheck(side)
        drawn = seed if seed is not None else secrets.randbits(64)
        self.placing[side] = self.hiding.guided_placement(side, seed=drawn)
        occupied = set(self.table.sensors.settled) - set(self.table.sensors.faulty)
        self.blocked = (self.blocked - self.hiding.setup_cells(side)) | (occupied & self.hiding.setup_cells(side))
        return self._report()

    def clear(self, side: Side) -> list[Signal]:
        """``side``'s set-up is withdrawn: it is waiting again."""
        self.given.pop(side, None)
        self.placing.pop(side, None)
        self._uncheck(side)
        self.blocked -= self.hiding.setup_cells(side)
        return self._report()

    def ask_check(self, side: Side, *, seed: int | None = None) -> list[Signal]:
        """``side``'s pieces are checked against its set-up before the game starts, the
        pieces asked for in an order drawn with ``seed`` (None: drawn here); the check
        begins once the set-up is ready and the nest shows it, and a set-up given or
        placed again is checked again."""
        self.check_wanted[side] = seed
        self._uncheck(side)
        return self._report()

    def _uncheck(self, side: Side) -> None:
        """``side``'s set-up changed: a check made or under way is of the old one."""
        self.checking.pop(side, None)
        self.passed.discard(side)
        self.check_note.pop(side, None)

    def prompt(self, side: Side) -> str | None:
        """What ``side``'s own screen asks for while it places or checks its pieces
        (private: it names the piece asked for)."""
        check = self.checking.get(side)
        if check is not None:
            note = self.check_note.get(side)
            return check.prompt() if note is None else f"{note}; {check.prompt()}"
        if side in self.passed:
            return "your pieces are checked"
        placement = self.placing.get(side)
        return placement.prompt() if placement is not None else None

    def state(self, side: Side) -> SetupState:
        if side in self.checking:
            return SetupState.CHECKING
        if side in self.given or (side in self.placing and self.placing[side].is_complete()):
            return SetupState.READY
        return SetupState.PLACING if side in self.placing else SetupState.WAITING

    def setup_of(self, side: Side) -> SideSetup | None:
        """``side``'s set-up, once it is ready."""
        if side in self.given:
            return self.given[side]
        placement = self.placing.get(side)
        return placement.setup() if placement is not None and placement.is_complete() else None

    def setups(self) -> dict[Side, SideSetup] | None:
        """Both sides' set-ups, once both are ready."""
        found = {}
        for side in Side:
            setup = self.setup_of(side)
            if setup is None:
                return None
            found[side] = setup
        return found

    def is_checked(self) -> bool:
        """Whether every side that asked for a check has passed it."""
        return all(side in self.passed for side in self.check_wanted)

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
        """A settled change of ``cell``: a placing side's piece placed or taken back, a
        checking side's piece lifted or put back."""
        if cell is not None and settled:
            side = next((side for side in self.checking if cell in self.hiding.setup_cells(side)), None)
            if side is not None:
                self._check(side, cell)
            else:
                self._place(cell)
        return self._report()

    def _check(self, side: Side, cell: str) -> None:
        sensors = self.table.sensors
        check = self.checking[side]
        setup = self.setup_of(side)
        assert setup is not None
        if cell in sensors.settled or cell not in setup.cells:
            return  # put back, or a piece too many lifted: what the nest must show, the report says
        ignored = set(sensors.faulty)
        missing = setup.cells - set(sensors.settled) - ignored
        if missing != {cell}:  # two of its pieces off at once: they may come back swapped
            self.checking[side] = self._new_check(side, setup)
            self.check_note[side] = "two pieces lifted: put them back, the check starts again"
        elif check.holds(cell):
            self.checking[side] = check.lift(cell)
            self.check_note.pop(side, None)
            if self.checking[side].is_complete():
                del self.checking[side]
                self.passed.add(side)
        else:
            self.check_note[side] = (
                f"{cell} is not that piece in your set-up: put it back. If it is, the pieces and your set-up"
                " differ: put the pieces as your set-up has them, or give it again as they stand"
            )

    def _new_check(self, side: Side, setup: SideSetup) -> SetupCheck:
        seed = self.check_wanted.get(side)
        return self.hiding.setup_check(setup, seed=seed if seed is not None else secrets.randbits(64))

    def _begin_checks(self) -> None:
        """A side to check whose set-up is ready and shown on the nest begins its check."""
        sensors = self.table.sensors
        occupied = set(sensors.settled) - set(sensors.faulty)
        for side in self.check_wanted:
            if side in self.checking or side in self.passed:
                continue
            setup = self.setup_of(side)
            if setup is None:
                continue
            rows = self.hiding.setup_cells(side)
            if occupied & rows == setup.cells and not (self.blocked & rows):
                self.checking[side] = self._new_check(side, setup)

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
        self._begin_checks()
        signals: list[Signal] = []
        for side in Side:
            placement, check = self.placing.get(side), self.checking.get(side)
            if check is not None:
                progress = SetupProgress(side, SetupState.CHECKING, len(check.checked), check.total)
            else:
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
        if setups is None or self.shown.fill or self.shown.empty or not self.is_checked():
            return signals
        return (*signals, StartFromSetups(setups[Side.RED], setups[Side.BLUE]))

    def deadline(self) -> int | None:
        return None

    def on_deadline(self, at: int) -> Decisions:
        return NOTHING
