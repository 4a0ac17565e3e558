"""Putting the nest right: plans of which piece to move where, one at a time, and the
phase of the referee that waits for the nest to match the game again."""

from __future__ import annotations

from collections.abc import Mapping, Set

from firmware_host.games.base import Board, Move, Piece
from firmware_host.referee.decisions import NOTHING, Decisions, DeclareStuck, GoOn, Table
from firmware_host.referee.signals import Corrected, CorrectionCause, CorrectionNeeded, FixKind, FixStep
from firmware_host.referee.tracker import TurnView


def plan_correction(board: Board, occupied: Set[str], wanted: Mapping[str, Piece]) -> tuple[FixStep, ...]:
    """Steps that turn the nest's ``occupied`` cells into the position ``wanted``.

    Each cell that should be empty is paired with the nearest cell that should be full
    (the closest pairs first): "move the piece on X to Y". Cells left over are emptied
    or filled on their own. Empty when the nest already matches.
    """
    extra = sorted(set(occupied) - set(wanted), key=board.index)
    missing = sorted(set(wanted) - set(occupied), key=board.index)
    pairs = sorted(
        ((board.distance(source, target), board.index(source), board.index(target), source, target))
        for source in extra
        for target in missing
    )
    steps: list[FixStep] = []
    for _, _, _, source, target in pairs:
        if source in extra and target in missing:
            steps.append(FixStep(FixKind.MOVE, source, target, wanted[target]))
            extra.remove(source)
            missing.remove(target)
    steps += [FixStep(FixKind.REMOVE, source, None, None) for source in extra]
    steps += [FixStep(FixKind.PLACE, None, target, wanted[target]) for target in missing]
    return tuple(steps)


def undo_capture(capture: Move, pieces: Mapping[str, Piece]) -> tuple[FixStep, ...]:
    """Putting right a capture made from the position of ``pieces``: the capturer back
    first, then the captured piece."""
    assert capture.origin is not None and capture.target is not None
    return (
        FixStep(FixKind.MOVE, capture.target, capture.origin, pieces[capture.origin]),
        FixStep(FixKind.PLACE, None, capture.target, pieces[capture.target]),
    )


class Correction:
    """The phase in which the nest must be made to match the game (strict refereeing)
    before play goes on: the players are guided one piece at a time, the plan made anew
    after every change. Made fresh each time the nest has to be put right."""

    def __init__(
        self, table: Table, view: TurnView, cause: CorrectionCause, at: int, steps: tuple[FixStep, ...] | None
    ) -> None:
        self.table = table
        self.sensors = table.sensors
        self.view = view
        self.cause = cause
        lifted, placed = self._wrong()
        # The one cell left wrong, and since when it has been: a stuck sensor, maybe.
        self.alone: tuple[str, int] | None = (next(iter(lifted | placed)), at) if len(lifted | placed) == 1 else None
        self.plan = steps if steps is not None else self._plan()

    def start(self) -> Decisions:
        return (CorrectionNeeded(self.cause, self.plan),)

    def _wrong(self) -> tuple[frozenset[str], frozenset[str]]:
        return self.view.difference(self.sensors.settled, self.sensors.faulty.keys())

    def _plan(self) -> tuple[FixStep, ...]:
        sensors, wanted = self.sensors, self.view.pieces
        ignored = sensors.faulty.keys()
        sensed = (set(sensors.settled) - set(ignored)) | (set(wanted) & set(ignored))
        return plan_correction(self.table.game.board, sensed, wanted)

    def on_change(self, at: int, cell: str, *, settled: bool = True) -> Decisions:
        lifted, placed = self._wrong()
        wrong = lifted | placed
        if len(wrong) == 1 and (self.alone is None or self.alone[0] not in wrong):
            self.alone = (next(iter(wrong)), self.table.last_change)
        elif self.alone is not None and self.alone[0] not in wrong:
            self.alone = None
        plan = self._plan()
        if plan == self.plan or not plan:
            return NOTHING
        self.plan = plan
        return (CorrectionNeeded(self.cause, plan),)

    def on_quiet(self, at: int) -> Decisions:
        lifted, placed = self._wrong()
        if self._shows_a_legal_move():
            return (Corrected(), GoOn())
        if placed or (lifted and not self._capture_may_be_made(lifted)):
            return NOTHING
        return (Corrected(), GoOn())

    def _shows_a_legal_move(self) -> bool:
        """Whether, after a nest disturbed (more than one move on it at once), what is
        wrong was undone but for a legal move of the side to move, cleanly made (a move
        made, then a second piece moved before the first was read, and only the second
        put back): the turn goes on, and takes it. (After an illegal move the nest must
        match first, as strict refereeing asks; after a take back or a resumed game it
        must show the position itself, not the move taken back.)"""
        if self.cause is not CorrectionCause.DISTURBED:
            return False
        done = self.view.finished(self.table.observation())
        return len(done) == 1 and done[0].is_clean and done[0].is_certain

    def _capture_may_be_made(self, lifted: frozenset[str]) -> bool:
        """Whether the one piece still off the nest is the mover's, and may have made a
        capture no scan saw: what was refused may have come after it (the other side
        moving, or an illegal move of its own), so the turn goes on from here, the
        piece taken to be in the air, and the reply will tell."""
        if self.cause in (CorrectionCause.RESUMED, CorrectionCause.TAKE_BACK) or len(lifted) != 1:
            return False
        return bool(self.view.unseen_captures(self.table.observation()))

    def deadline(self) -> int | None:
        """When the one cell that keeps the nest from matching, reading a piece where
        none should be, is to be taken as stuck: it has not changed for ``stuck_ms``
        while the players changed other cells, trying to put the nest right."""
        lifted, placed = self._wrong()
        if lifted or len(placed) != 1:
            return None  # a cell that reads empty may just be waiting for its piece: never stuck
        (cell,) = placed
        if self.alone is None or self.alone[0] != cell:
            return None
        since = max(self.alone[1], self.sensors.last_change[cell])
        if self.table.last_change <= since:
            return None  # nobody has tried anything since: they may just not have got to it
        return since + self.table.timing.stuck_ms

    def on_deadline(self, at: int) -> Decisions:
        """The cell is stuck: it is ignored from now on, and the nest may match now."""
        return (DeclareStuck(next(iter(self._wrong()[1]))),)
