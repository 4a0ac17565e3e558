"""From raw reed-switch readings to settled cell changes.

A reed switch bounces when it closes, and a magnet moving slowly past it can chatter at
the edge of its field. A reading therefore counts only once the cell has kept it for
``debounce_ms``. The raw readings are kept too, because they are the evidence a capture
needs: the captured piece's cell reads empty, however briefly, as it is lifted or
pushed off. A cell that changes implausibly often is reported as faulty and ignored
until it calms down. Pure code: time is passed in, in milliseconds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from firmware_host.referee.signals import SensorProblem

LONG_AGO = -(2**62)


@dataclass(frozen=True)
class Timing:
    """How long things take at the nest, in milliseconds; see ``docs/referee.md`` for
    why the defaults are what they are."""

    debounce_ms: int = 30
    """A reading counts once the cell has kept it this long (contact bounce and magnet
    chatter last a few milliseconds; placing a piece takes a tenth of a second)."""
    settle_ms: int = 250
    """A move is committed once the nest has been still this long."""
    extend_ms: int = 1000
    """...or this long, when the piece could still slide on (a warbler or cuckoo resting
    on the middle cell of a double step), or rests where it may only pass."""
    capture_grace_ms: int = 100
    """A captured piece's cell may read empty this long before the capturer's cell does
    (a capturer slid onto its target pushes the captured piece off while it still
    touches its own cell) and still count as evidence of the capture, provided the
    captured piece had stood still for ``settle_ms`` (a piece rocking as it is put down
    proves nothing)."""
    flicker_changes: int = 40
    """A cell whose raw reading changes this often within ``flicker_window_ms`` is
    faulty: a hand makes at most about three changes a second on one cell, and each
    bounces a few times at most."""
    flicker_window_ms: int = 1000
    slow_flicker_changes: int = 8
    """A cell whose reading changes, or glitches too briefly to settle, this often within
    ``slow_flicker_window_ms`` is faulty too: that is four lifts and put-backs in two
    seconds, which no one does."""
    slow_flicker_window_ms: int = 2000
    recover_ms: int = 5000
    """A flickering cell is used again once it has been still this long."""
    stuck_ms: int = 10_000
    """A cell that alone keeps the nest from matching, unchanged this long while the
    players put the nest right, is taken to be faulty."""
    ask_ms: int = 3000
    """A capturer lifted this long, with every piece it could capture still in place,
    may have made a capture the sensors did not see (a captured piece swept off so fast
    that its cell never read empty): the referee asks."""

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"timing.{name} must be a whole number of milliseconds, not {value!r}")
        if self.extend_ms < self.settle_ms:
            raise ValueError("timing.extend_ms must be at least timing.settle_ms")
        if self.settle_ms < self.debounce_ms:
            raise ValueError("timing.settle_ms must be at least timing.debounce_ms")
        for name in ("flicker_window_ms", "slow_flicker_window_ms"):
            if getattr(self, name) < 1:
                raise ValueError(f"timing.{name} must be at least 1")
        for name in ("flicker_changes", "slow_flicker_changes"):
            if getattr(self, name) < 4:  # one lift and put-back, each bouncing once
                raise ValueError(f"timing.{name} must be at least 4: fewer is an ordinary move")


@dataclass(frozen=True)
class CellChanged:
    """A cell's settled reading changed at ``at``."""

    cell: str
    occupied: bool
    at: int


@dataclass(frozen=True)
class Touched:
    """A working cell's raw reading changed at ``at``: the nest is not still."""

    cell: str
    at: int


@dataclass(frozen=True)
class Steadied:
    """A working cell's raw reading has held for ``debounce_ms`` without changing its
    settled reading: a glitch ended (a captured piece pushed off, a piece passing over)."""

    cell: str
    at: int


@dataclass(frozen=True)
class FaultFound:
    cell: str
    problem: SensorProblem


@dataclass(frozen=True)
class FaultCleared:
    cell: str


SensorEvent = CellChanged | Touched | Steadied | FaultFound | FaultCleared


class SensorFilter:
    """Raw readings in, settled changes out; remembers when each cell last changed."""

    def __init__(self, cells: Iterable[str], occupied: Iterable[str], timing: Timing, now: int) -> None:
        self.timing = timing
        self.raw: set[str] = set(occupied)
        self.settled: set[str] = set(self.raw)
        # Before the first reading nothing is known to have changed: "long ago".
        self.last_change: dict[str, int] = dict.fromkeys(cells, LONG_AGO)
        self.last_emptied: dict[str, int] = dict(self.last_change)  # read empty after a settled piece
        # Read empty after a piece had stood there for settle_ms: not the rocking of a
        # piece just put down.
        self.last_emptied_steady: dict[str, int] = dict(self.last_change)
        self.settled_at: dict[str, int] = dict(self.last_change)  # when the settled reading last changed
        self._steady: dict[str, bool] = {}  # whether the cell's burst of changes began on a steady piece
        self._recent: dict[str, deque[int]] = {cell: deque() for cell in self.last_change}  # raw changes
        # Debounce periods ended, whether or not the reading changed: a settled change,
        # or a glitch too short to settle.
        self._episodes: dict[str, deque[int]] = {cell: deque() for cell in self.last_change}
        self._due: dict[str, int] = {}  # cell: when its raw reading becomes settled
        self.faulty: dict[str, SensorProblem] = {}

    def read(self, cell: str, occupied: bool, now: int) -> list[SensorEvent]:
        """Take one raw reading. A reading equal to the last one changes nothing."""
        if occupied == (cell in self.raw):
            return []
        (self.raw.add if occupied else self.raw.discard)(cell)
        if now - self.last_change[cell] >= self.timing.debounce_ms:  # a new burst, not a bounce
            self._steady[cell] = cell in self.settled and now - self.settled_at[cell] >= self.timing.settle_ms
            if not occupied and cell in self.settled:  # a settled piece starts to leave
                self.last_emptied[cell] = now
        self.last_change[cell] = now
        if not occupied and self._steady.get(cell):
            self.last_emptied_steady[cell] = now
        if self.faulty.get(cell) is SensorProblem.STUCK:
            # A stuck cell that changes after all is trusted again.
            del self.faulty[cell]
            self._due[cell] = now + self.timing.debounce_ms
            return [FaultCleared(cell), Touched(cell, now)]
        recent = self._recent[cell]
        recent.append(now)
        while recent[0] <= now - self.timing.flicker_window_ms:
            recent.popleft()
        if cell in self.faulty:
            return []
        if len(recent) >= self.timing.flicker_changes:
            self.faulty[cell] = SensorProblem.FLICKERING
            self._due.pop(cell, None)
            return [FaultFound(cell, SensorProblem.FLICKERING)]
        self._due[cell] = now + self.timing.debounce_ms
        return [Touched(cell, now)]

    def mark_stuck(self, cell: str) -> FaultFound:
        """The referee found ``cell`` contradicting every explanation: ignore it until it
        changes."""
        self.faulty[cell] = SensorProblem.STUCK
        self._due.pop(cell, None)
        return FaultFound(cell, SensorProblem.STUCK)

    def next_deadline(self) -> int | None:
        """When :meth:`advance` next has something to do."""
        times = list(self._due.values())
        times += [
            self.last_change[cell] + self.timing.recover_ms
            for cell, problem in self.faulty.items()
            if problem is SensorProblem.FLICKERING
        ]
        return min(times, default=None)

    def advance(self, now: int) -> list[SensorEvent]:
        """Everything that became due by ``now``, in time order."""
        due = sorted((at, cell) for cell, at in self._due.items() if at <= now)
        events: list[tuple[int, SensorEvent]] = []
        for at, cell in due:
            del self._due[cell]
            changed = self._settle(cell, at)
            events.append((at, changed if changed is not None else Steadied(cell, at)))
            episodes = self._episodes[cell]
            episodes.append(at)
            while episodes[0] <= at - self.timing.slow_flicker_window_ms:
                episodes.popleft()
            if len(episodes) >= self.timing.slow_flicker_changes:
                self.faulty[cell] = SensorProblem.FLICKERING
                events.append((at, FaultFound(cell, SensorProblem.FLICKERING)))
        for cell, problem in list(self.faulty.items()):
            calm_since = self.last_change[cell] + self.timing.recover_ms
            if problem is SensorProblem.FLICKERING and calm_since <= now:
                del self.faulty[cell]
                self._recent[cell].clear()
                self._episodes[cell].clear()
                events.append((calm_since, FaultCleared(cell)))
                changed = self._settle(cell, calm_since)
                if changed is not None:
                    events.append((calm_since, changed))
        events.sort(key=lambda item: item[0])
        return [event for _, event in events]

    def _settle(self, cell: str, at: int) -> CellChanged | None:
        """The settled reading of ``cell`` takes its raw one at ``at``; the change, if any."""
        occupied = cell in self.raw
        if occupied == (cell in self.settled):
            return None
        (self.settled.add if occupied else self.settled.discard)(cell)
        self.settled_at[cell] = at
        return CellChanged(cell, occupied, at)

    def burst_end(self, cell: str, seen: int) -> int:
        """When the run of changes on ``cell`` going on at ``seen`` ended: the changes
        from the last one at or before ``seen`` on, while each follows the one before
        within ``debounce_ms``."""
        times = self._recent[cell]
        earlier = [time for time in times if time <= seen]
        end = earlier[-1] if earlier else seen
        for time in times:
            if time <= end:
                continue
            if time - end >= self.timing.debounce_ms:
                break
            end = time
        return end

    def was_empty_since(self, cell: str, since: int, *, grace: int, floor: int = LONG_AGO) -> bool:
        """Whether ``cell``, which reads occupied now and has for ``debounce_ms``, read
        empty, however briefly, at some moment after ``since``; or, up to ``grace``
        before it, read empty after its piece had stood still for ``settle_ms``. Either
        after ``floor``. (A cell that reads empty now shows a capture under way, not one
        made.)"""
        if cell not in self.raw or cell in self._due:
            return False  # not occupied again, or not for long enough to tell a landing from a bounce
        change, emptied = self.last_change[cell], self.last_emptied_steady[cell]
        return (change > since and change > floor) or (emptied >= since - grace and emptied > floor)
