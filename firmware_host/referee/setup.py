"""The phase between games: the nest is set up for the next game, which starts by itself
once the nest shows its lineup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware_host.referee.signals import SetupNeeded, Signal

if TYPE_CHECKING:
    from firmware_host.referee.referee import Referee


class Setup:
    """Waits for the nest to show the set's lineup; made fresh for every game to set up."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.shown: SetupNeeded | None = None

    def needed(self) -> SetupNeeded:
        """What the nest still needs, as it stands."""
        referee = self.referee
        board, sensors = referee.board, referee.sensors
        wanted = referee.game.lineup_pieces(referee.lineup)
        ignored = set(sensors.faulty)
        occupied = set(sensors.settled) - ignored
        return SetupNeeded(
            referee.lineup,
            referee.starter,
            tuple(sorted(set(wanted) - occupied - ignored, key=board.index)),
            tuple(sorted(occupied - set(wanted), key=board.index)),
            referee.number,
        )

    def on_change(self, at: int, cell: str | None = None, *, settled: bool = True) -> list[Signal]:
        """Say what the nest needs, when that changed."""
        needed = self.needed()
        if needed == self.shown:
            return []
        self.shown = needed
        return [needed]

    def on_quiet(self, at: int) -> list[Signal]:
        signals = self.on_change(at)
        assert self.shown is not None
        if self.shown.fill or self.shown.empty:
            return signals
        return signals + self.referee.start_next_game(at)

    def deadline(self) -> int | None:
        return None

    def on_deadline(self, at: int) -> list[Signal]:
        return []
