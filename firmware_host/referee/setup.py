"""The phase between games: the nest is set up for the next game, which starts by itself
once the nest shows its lineup."""

from __future__ import annotations

from firmware_host.referee.decisions import NOTHING, Decisions, StartGame, Table
from firmware_host.referee.signals import SetupNeeded


class Setup:
    """Waits for the nest to show the set's lineup; made fresh for every game to set up."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.shown: SetupNeeded | None = None

    def needed(self) -> SetupNeeded:
        """What the nest still needs, as it stands."""
        table, state = self.table, self.table.set_state
        board, sensors = table.game.board, table.sensors
        wanted = table.game.lineup_pieces(state.lineup)
        ignored = set(sensors.faulty)
        occupied = set(sensors.settled) - ignored
        return SetupNeeded(
            state.lineup,
            state.starter,
            tuple(sorted(set(wanted) - occupied - ignored, key=board.index)),
            tuple(sorted(occupied - set(wanted), key=board.index)),
            state.number,
        )

    def on_change(self, at: int, cell: str | None = None, *, settled: bool = True) -> Decisions:
        """Say what the nest needs, when that changed."""
        needed = self.needed()
        if needed == self.shown:
            return NOTHING
        self.shown = needed
        return (needed,)

    def on_quiet(self, at: int) -> Decisions:
        decisions = self.on_change(at)
        assert self.shown is not None
        if self.shown.fill or self.shown.empty:
            return decisions
        return (*decisions, StartGame())

    def deadline(self) -> int | None:
        return None

    def on_deadline(self, at: int) -> Decisions:
        return NOTHING
