"""The switch matrix as the game sees it: which crossing is which cell of the board, and
which a button; and the readings one scan's report makes, in order."""

from __future__ import annotations

from collections.abc import Mapping

from firmware_host.games.base import Board
from hardware.sensors import Crossing, ScanUpdate


class SwitchMap:
    """Where each switch of the matrix is: on a cell of the board, or a button."""

    def __init__(self, matrix: Mapping[str, Crossing], board: Board) -> None:
        """``matrix``: each cell's and matrix button's crossing (the config's)."""
        self.board = board
        self.names = {crossing: name for name, crossing in matrix.items()}
        self.cells = {crossing: name for crossing, name in self.names.items() if name in board}
        self.buttons = {crossing: name for crossing, name in self.names.items() if name not in board}

    def cells_in(self, closed: frozenset[Crossing]) -> list[str]:
        """The cells whose switches are closed, in the board's reading order (buttons
        left out)."""
        return sorted((self.cells[place] for place in closed if place in self.cells), key=self.board.index)

    @staticmethod
    def readings(previous: frozenset[Crossing], update: ScanUpdate) -> list[tuple[Crossing, bool]]:
        """The readings ``update`` makes after ``previous``, in order: each switch that
        changed, as it reads now; and each that flickered without changing, read the
        other way and back (between two reports: a captured piece pushed off)."""
        changed = previous ^ update.closed
        readings = [(crossing, crossing in update.closed) for crossing in sorted(changed)]
        for crossing in sorted(update.flickered - changed):
            readings += [(crossing, crossing not in update.closed), (crossing, crossing in update.closed)]
        return readings
