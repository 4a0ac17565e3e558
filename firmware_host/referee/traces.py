"""What the hands did during a turn that the nest may no longer show.

The switches tell only which cells hold a piece now. A turn keeps what its changes
showed since it began: the cells pieces were set down on, when each cell of the
position first emptied and was filled again, the captures possibly made with no scan
seeing them. The turn's readings are checked against these (:class:`Traces`): a
reading of several moves must account for every cell visited lately, a capture proved
only by a late flicker may be another hand's touch, a piece lifted may have slid the way
of a capture no scan saw.
"""

from __future__ import annotations

from collections.abc import Set

from firmware_host.games.base import Board, Move
from firmware_host.referee.sensing import LONG_AGO, SensorFilter, Timing
from firmware_host.referee.tracker import SLIDE_MS, Observation, TurnView, captures_in_the_air


class Traces:
    """The traces of one turn's hands; made fresh with each turn (see the module
    documentation)."""

    def __init__(self, sensors: SensorFilter, timing: Timing, board: Board) -> None:
        self.sensors, self.timing, self.board = sensors, timing, board
        # Captures the nest has shown possibly made with no scan seeing them (only a
        # capturer lifted, its target in place), since it last showed the position: what
        # follows may be moves made after one, that the nest cannot show one by one.
        self.doubts: set[Move] = set()
        # Cells empty in the position that pieces were set down on this turn: a reading of
        # several moves must account for each done lately (a piece set down where no
        # move of it goes was another hand's doing: an illegal move, maybe undone since).
        self.visited: set[str] = set()
        # When each cell of the position first emptied this turn: a piece lifted, put
        # back and lifted again may have been on its way since the first time.
        self.first_emptied: dict[str, int] = {}
        self.refilled: dict[str, int] = {}  # and when a piece was last set down on it again

    def note(self, view: TurnView, seen: Observation, cell: str, *, settled: bool) -> None:
        """A change on ``cell`` (``settled``, or a glitch that ended)."""
        if settled and cell in seen.occupied and cell not in view.expected:
            self.visited.add(cell)
        if cell in view.expected and cell not in seen.occupied:
            self.first_emptied.setdefault(cell, seen.emptied(cell))
        elif settled and cell in self.first_emptied:
            self.refilled[cell] = seen.since(cell)

    def note_still(self, view: TurnView, seen: Observation, lifted: Set[str], placed: Set[str]) -> None:
        """The nest has been still, ``lifted`` and ``placed`` off the view's position."""
        if not lifted and not placed:
            self.doubts.clear()  # all back as it was: whatever was in doubt was not made
        elif len(lifted) == 1 and not placed:  # what a capture no scan saw looks like
            self.doubts.update(view.unseen_captures(seen))

    def visits(self, at: int) -> set[str]:
        """The cells visited that a reading must account for: those that changed within
        ``undo_ms`` (an illegal move is undone within that) or are still occupied."""
        sensors, recent = self.sensors, at - self.timing.undo_ms
        return {cell for cell in self.visited if cell in sensors.settled or sensors.last_change[cell] >= recent}

    def next_visit_expiry(self, at: int) -> int | None:
        """When the next cell visited but empty again drops out of :meth:`visits` (its
        last change ``undo_ms`` old), if any does."""
        sensors, undo_ms = self.sensors, self.timing.undo_ms
        ends = [
            sensors.last_change[cell] + undo_ms + 1
            for cell in self.visited
            if cell not in sensors.settled and sensors.last_change[cell] + undo_ms > at
        ]
        return min(ends, default=None)

    def accounts_for(
        self,
        view: TurnView,
        moves: tuple[Move, ...],
        visits: set[str],
        seen: Observation,
        *,
        extra: frozenset[str] = frozenset(),
        reach: int = 1,
    ) -> bool:
        """Whether ``moves``, made in turn from the view's position, explain the cells
        visited lately: each on a move's way, or within ``reach`` of it (a hand touching
        down as it carries a piece, a piece pushed aside), while that move was being made
        (from its piece leaving to its coming to rest); or among ``extra`` but for the
        cells of ``moves`` (those of a move still under way after them); or resting where
        it was set down after them. (A reading of several moves is held to their ways: so
        many hands beside so many cells would explain anything.)"""
        board, land_ms = self.board, self.timing.land_ms
        unexplained = set(visits)
        for move in moves:
            footprint = view.footprints[move]
            left = min(seen.emptied(cell) for cell in footprint.empties) if footprint.empties else LONG_AGO
            # The move is over once its piece rests where it goes (a capture no scan saw
            # shows no landing: as late as a capturer lands).
            rested = [seen.since(cell) for cell in footprint.fills | footprint.proofs if cell in seen.occupied]
            over = max(max(rested, default=LONG_AGO), left + land_ms if not footprint.fills else LONG_AGO) + SLIDE_MS
            unexplained = {
                visit
                for visit in unexplained
                if not (
                    left - SLIDE_MS <= seen.since(visit) <= over
                    and any(board.distance(visit, cell) <= reach for cell in footprint.cells)
                )
            }
            extra -= footprint.cells
            view = view.after(move)
        # A piece resting where it was set down after the moves is the next move's doing.
        _, placed = view.difference(seen.occupied, seen.ignored)
        return not unexplained - extra - placed

    def late_proof(self, view: TurnView, move: Move, seen: Observation) -> tuple[Move, ...]:
        """For a capture proved only by a flicker later than a capturer lands, while the
        same piece may have made another capture that no scan saw: the captures it may
        have been (the flicker may be another hand's touch). Else nothing."""
        footprint = view.footprints[move]
        if not footprint.proofs or all(
            seen.prompt_evidence(origin, target) and not self._came_back_late(origin, target, seen)
            for origin in footprint.empties
            for target in footprint.proofs
        ):
            return ()
        others = [other for other in view.unseen_captures(seen) if other.origin == move.origin and other != move]
        return (move, *others) if others else ()

    def _came_back_late(self, origin: str, target: str, seen: Observation) -> bool:
        """Whether a piece was set down on the capturer's cell after its target was
        lifted (maybe the target's, in another hand) and lifted again, and the target
        filled later than a capturer lands after the capturer first left."""
        first = self.first_emptied.get(origin, seen.emptied(origin))
        if not seen.emptied(target) < self.refilled.get(origin, LONG_AGO) < seen.emptied(origin):
            return False
        return seen.since(target) > first + self.timing.land_ms

    def slid_unseen(self, view: TurnView, seen: Observation, *, alone: bool = False) -> tuple[Move, ...]:
        """The captures no scan saw that a lifted piece may have made: over a cell it
        would slide across that was set down on after it first left this turn, and
        soon after it last left. ``alone``: with nothing after it, so that every piece
        set down is the captured one pushed aside."""
        land_ms, board = self.timing.land_ms, self.board
        _, placed = view.difference(seen.occupied, seen.ignored)
        found = []
        for move, footprint in captures_in_the_air(view, seen):
            if alone and not all(
                cell not in footprint.passes and any(board.distance(cell, target) <= 1 for target in footprint.proofs)
                for cell in placed
            ):
                continue  # a piece set down where this capture leaves none
            first = min(self.first_emptied.get(cell, seen.emptied(cell)) for cell in footprint.empties)
            left = max(seen.emptied(cell) for cell in footprint.empties)
            # (A crossed cell still occupied is no sign of this capture: the captured
            # piece is pushed on, away from the way the capturer came.)
            crossed = {cell for cell in footprint.passes & self.visited if cell not in seen.occupied}
            if any(first <= seen.since(cell) <= left + land_ms for cell in crossed):
                found.append(move)
        return tuple(found)

    def proof_is_its_own(self, view: TurnView, move: Move, seen: Observation) -> bool:
        """Whether the flicker that proves capture ``move`` came well before the other
        side began to move: one that came just as it did (within ``capture_grace_ms``)
        may be the reply's own capture pushing a piece off; it is not used up."""
        footprint = view.footprints[move]
        if not footprint.proofs:
            return True
        lifted, _ = view.difference(seen.occupied, seen.ignored)
        others = lifted - footprint.empties
        if not others:
            return True
        sensors, grace = self.sensors, self.timing.capture_grace_ms
        began = min(seen.since(cell) for cell in others)
        left = min(seen.emptied(cell) for cell in footprint.empties)
        return all(sensors.first_burst_end(target, left - grace) < began - grace for target in footprint.proofs)

    def doubted(self, view: TurnView, seen: Observation) -> tuple[Move, ...]:
        """The captures the nest showed possibly made unseen, since it last showed the
        position, when other pieces than their capturers are off their cells now: what
        the nest shows may be the moves made after one of them."""
        lifted, _ = view.difference(seen.occupied, seen.ignored)
        if not lifted - {move.origin for move in self.doubts}:
            return ()
        return tuple(sorted(self.doubts, key=str))
