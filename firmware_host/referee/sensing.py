"""From raw reed-switch readings to settled cell changes.

A reed switch bounces when it closes, and a magnet moving slowly past it can chatter at
the edge of its field. A reading therefore counts only once the cell has kept it for
``debounce_ms``. The raw readings are kept too, because they are the evidence a capture
needs: the captured piece's cell reads empty, however briefly, as it is lifted or
pushed off. A cell that chatters for longer than a piece settling does, or glitches
again and again, is reported as faulty and ignored until it calms down. Pure code: time is passed in, in milliseconds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from firmware_host.referee.signals import SensorProblem

LONG_AGO = -(2**62)
RECENT_CHANGES = 64  # raw changes kept per cell


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
    """What looks wrong is refused once the nest has been still this long: pieces in
    the air may still land, a piece resting where it may only pass may slide on."""
    land_ms: int = 2500
    """A capturer lands this long after leaving its cell at most (players hold it a
    second and a half): a first flicker on its target later than that is no evidence of
    the capture, but some other hand's touch."""
    rest_ms: int = 400
    """...or this long, when the piece could still slide on (a warbler or cuckoo on the
    middle cell of a double step): a slide crosses a cell in at most a quarter of a
    second, so a piece resting longer has stopped there."""
    capture_grace_ms: int = 100
    """A captured piece's cell may read empty this long before the capturer's cell does
    (a capturer slid onto its target pushes the captured piece off while it still
    touches its own cell) and still count as evidence of the capture, provided the
    captured piece had stood still for ``settle_ms`` (a piece rocking as it is put down
    proves nothing)."""
    chatter_ms: int = 400
    """A cell whose raw reading goes on changing, each change within ``debounce_ms`` of
    the one before, for longer than this is faulty: a wobbly piece settling at the edge
    of a switch's field chatters for up to a quarter of a second, then rests."""
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
    that its cell never read empty). The other side's reply would show it; if none has
    come, the referee asks."""
    undo_ms: int = 4000
    """An illegal move is held until the referee objects, then undone: within this long
    of being made, as players do. A move that proves a capture no scan saw when it is
    legal after it, but would be an illegal move after another capture, is believed once
    it has stood this long."""
    hold_ms: int = 2500
    """A piece may be held in the air this long, the nest otherwise still, before the
    players are asked to put it back: a player straightening a piece holds it for a
    second or so. A move made meanwhile is accepted once the piece is back."""

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"timing.{name} must be a whole number of milliseconds, not {value!r}")
        if self.extend_ms < self.settle_ms:
            raise ValueError("timing.extend_ms must be at least timing.settle_ms")
        if self.rest_ms < self.settle_ms:
            raise ValueError("timing.rest_ms must be at least timing.settle_ms")
        if self.settle_ms < self.debounce_ms:
            raise ValueError("timing.settle_ms must be at least timing.debounce_ms")
        if self.slow_flicker_window_ms < 1:
            raise ValueError("timing.slow_flicker_window_ms must be at least 1")
        if self.slow_flicker_changes < 4:  # one lift and put-back, each bouncing once
            raise ValueError("timing.slow_flicker_changes must be at least 4: fewer is an ordinary move")
        if self.chatter_ms < self.debounce_ms:
            raise ValueError("timing.chatter_ms must be at least timing.debounce_ms")


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
        # When a piece that had stood there for settle_ms began to leave: a piece only
        # passing over the cell since (a slide's middle cell reads occupied 60-250 ms)
        # left none.
        self.last_left: dict[str, int] = dict(self.last_change)
        # Read empty after a piece had stood there for settle_ms: not the rocking of a
        # piece just put down.
        self.last_emptied_steady: dict[str, int] = dict(self.last_change)
        self.settled_at: dict[str, int] = dict(self.last_change)  # when the settled reading last changed
        # When the last run of raw changes that ended with a piece resting on the cell
        # began: a piece landing, or the bounce of one pushed off under another.
        self.last_landing: dict[str, int] = dict(self.last_change)
        # When the run of raw changes that led to the settled reading began: the moment
        # a piece left or reached the cell, before its bounce and the debounce time.
        self.settled_since: dict[str, int] = dict(self.last_change)
        self._burst_start: dict[str, int] = dict(self.last_change)  # of the run of raw changes going on
        self._steady: dict[str, bool] = {}  # whether the cell's burst of changes began on a steady piece
        # The latest raw changes of each cell: enough to find the flicker that proved a capture.
        self._recent: dict[str, deque[int]] = {cell: deque(maxlen=RECENT_CHANGES) for cell in self.last_change}
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
            self._burst_start[cell] = now
            self._steady[cell] = cell in self.settled and now - self.settled_at[cell] >= self.timing.settle_ms
            if not occupied and cell in self.settled:  # a settled piece starts to leave
                self.last_emptied[cell] = now
                if self._steady[cell]:
                    self.last_left[cell] = now
        self.last_change[cell] = now
        if not occupied and self._steady.get(cell):
            self.last_emptied_steady[cell] = now
        if self.faulty.get(cell) is SensorProblem.STUCK:
            # A stuck cell that changes after all is trusted again.
            del self.faulty[cell]
            self._due[cell] = now + self.timing.debounce_ms
            return [FaultCleared(cell), Touched(cell, now)]
        self._recent[cell].append(now)
        if cell in self.faulty:
            return []
        if now - self._burst_start[cell] > self.timing.chatter_ms:  # no piece settling chatters this long
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
            if cell in self.raw:
                self.last_landing[cell] = self._burst_start[cell]
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
        self.settled_since[cell] = self._burst_start[cell]
        return CellChanged(cell, occupied, at)

    def first_burst_end(self, cell: str, after: int) -> int:
        """When the first run of changes on ``cell`` after ``after`` ended (each change
        within ``debounce_ms`` of the one before); ``after`` if there was none."""
        end = None
        for time in self._recent[cell]:
            if time <= after:
                continue
            if end is not None and time - end >= self.timing.debounce_ms:
                break
            end = time
        return after if end is None else end

    def was_empty_since(
        self, cell: str, since: int, *, grace: int, floor: int = LONG_AGO, within: int | None = None
    ) -> bool:
        """Whether ``cell``, which reads occupied now and has for ``debounce_ms``, read
        empty, however briefly, at some moment after ``since`` (and, given ``within``, its
        first change after ``since`` came no later than that after it); or, up to
        ``grace`` before it, read empty after its piece had stood still for
        ``settle_ms``. Either after ``floor``. (A cell that reads empty now shows a
        capture under way, not one made.)"""
        if cell not in self.raw or cell in self._due:
            return False  # not occupied again, or not for long enough to tell a landing from a bounce
        emptied = self.last_emptied_steady[cell]
        if emptied >= since - grace and emptied > floor and (within is None or emptied <= since + within):
            return True
        after = max(since, floor)
        if self.last_change[cell] <= after:
            return False
        if within is None:
            return True
        first = next((time for time in self._recent[cell] if time > after), self.last_change[cell])
        return first <= since + within
