"""Game clocks: a time control per side and the clock that runs them, as pure values.

Nothing here reads a clock: every method that needs the time takes ``now``, a count of
milliseconds from any fixed origin (the daemon passes its monotonic clock). A
:class:`GameClock` is immutable; each event returns the clock after it, as the
referee's phases do, so a game's clock can be replayed from its moves.

The rules (``docs/clocks-and-sound.md`` says why):

- the clock starts with the first accepted move: that move is untimed, and the
  opponent's clock runs from then on;
- only an accepted move switches it (a provisional move, one still being asked about,
  leaves the mover's clock running);
- while the nest is put right after an illegal move or a take back, the clock of the
  side to move, who caused it, keeps running; :meth:`GameClock.pause` stops both only
  for what no player caused (the daemon restarting);
- a side whose time reaches zero while its clock runs has lost on time: the clock
  stops at that instant (:meth:`GameClock.flagged`).

>>> control = TimeControl.from_text("5+3")
>>> clock = GameClock.new(control, first=Side.RED)
>>> clock = clock.move_accepted(Side.RED, now=1_000)  # the first move starts it
>>> clock = clock.move_accepted(Side.BLUE, now=13_500)  # blue thought for 12.5 s
>>> format_time(clock.remaining(Side.BLUE, now=13_500))
'4:50'
>>> clock.flagged(now=13_500) is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import Side

LOW_TIME_MS = 10_000  # under this a clock shows tenths
# The low-time cue sounds once per side per game when its time falls under a tenth of its
# base time, but never more than 30 s before the flag (a long game's tenth would warn
# minutes early, and be a cue the players learn to ignore) nor under 10 s (a blitz game's
# tenth would come too late to be of use).
LOW_TIME_SHARE = 10  # percent of the base time
LOW_TIME_WARNING_MIN_MS = 10_000
LOW_TIME_WARNING_MAX_MS = 30_000
MAX_MINUTES = 600  # ten hours: more is a typing mistake
MAX_BONUS_S = 600
SNAPSHOT_VERSION = 1
EXAMPLES = "such as 5, sudden 15, 5+3, 5 fischer 3, 10 bronstein 5"


class ClockError(NestrefError, ValueError):
    """A time control's text or a clock's snapshot cannot be read, or an event came at
    a time before the clock's last one; the message says what is wrong."""


class ControlKind(Enum):
    """How a side's time is given back after a move."""

    SUDDEN = "sudden"  # never: the whole game in the base time
    FISCHER = "fischer"  # the increment after every timed move, used or not
    BRONSTEIN = "bronstein"  # what the move took, up to the delay: time never grows


_CONTROL = re.compile(
    r"\s*(?:(?P<sudden>sudden)\s+(?P<sudden_minutes>\S+)"
    r"|(?P<minutes>[^\s+]+)\s*(?:(?P<plus>\+)|\s(?P<word>[a-z]+)\s)\s*(?P<seconds>\S+)"
    r"|(?P<bare>[^\s+]+))\s*"
)


@dataclass(frozen=True)
class TimeControl:
    """One side's time control: ``base_ms`` for the game, and per move an increment
    (Fischer) or a delay (Bronstein) of ``bonus_ms``; sudden death has none.

    Text form (:meth:`from_text`), minutes and seconds in whole numbers:
    ``5`` or ``sudden 5`` (sudden death, 5 minutes), ``5+3`` or ``5 fischer 3``
    (3 s increment), ``10 bronstein 5`` (5 s delay). An increment or delay of 0 is
    sudden death.

    >>> TimeControl.from_text("10 bronstein 5")
    TimeControl(kind=<ControlKind.BRONSTEIN: 'bronstein'>, base_ms=600000, bonus_ms=5000)
    >>> TimeControl.from_text("5 fischer 3").to_text()
    '5+3'
    """

    kind: ControlKind
    base_ms: int
    bonus_ms: int = 0

    def __post_init__(self) -> None:
        if not 60_000 <= self.base_ms <= MAX_MINUTES * 60_000 or self.base_ms % 60_000:
            raise ClockError(f"a base time must be 1 to {MAX_MINUTES} whole minutes, not {self.base_ms} ms")
        if self.kind is ControlKind.SUDDEN and self.bonus_ms != 0:
            raise ClockError("sudden death has no increment or delay")
        if self.kind is not ControlKind.SUDDEN and not (
            1000 <= self.bonus_ms <= MAX_BONUS_S * 1000 and self.bonus_ms % 1000 == 0
        ):
            raise ClockError(f"an increment or delay must be 1 to {MAX_BONUS_S} whole seconds, not {self.bonus_ms} ms")

    @classmethod
    def from_text(cls, text: str) -> TimeControl:
        """Read a time control (see the class). Raises :class:`ClockError` naming the
        part that is wrong."""
        shown = repr(text[:40])
        match = _CONTROL.fullmatch(text.lower())
        if match is None:
            raise ClockError(f"time control {shown}: not a time control ({EXAMPLES})")
        if match["bare"] is not None or match["sudden"] is not None:
            minutes = _whole(match["bare"] or match["sudden_minutes"], "minutes", 1, MAX_MINUTES, shown)
            return cls(ControlKind.SUDDEN, minutes * 60_000)
        minutes = _whole(match["minutes"], "minutes", 1, MAX_MINUTES, shown)
        if match["plus"]:
            kind = ControlKind.FISCHER
        elif match["word"] in (ControlKind.FISCHER.value, ControlKind.BRONSTEIN.value):
            kind = ControlKind(match["word"])
        else:
            raise ClockError(f"time control {shown}: {match['word']!r} is not fischer or bronstein ({EXAMPLES})")
        what = "increment" if kind is ControlKind.FISCHER else "delay"
        seconds = _whole(match["seconds"], f"{what} in seconds", 0, MAX_BONUS_S, shown)
        if seconds == 0:
            return cls(ControlKind.SUDDEN, minutes * 60_000)
        return cls(kind, minutes * 60_000, seconds * 1000)

    def to_text(self) -> str:
        """The text :meth:`from_text` reads back as this control."""
        minutes, seconds = self.base_ms // 60_000, self.bonus_ms // 1000
        if self.kind is ControlKind.SUDDEN:
            return f"sudden {minutes}"
        if self.kind is ControlKind.FISCHER:
            return f"{minutes}+{seconds}"
        return f"{minutes} bronstein {seconds}"

    @property
    def low_time_ms(self) -> int:
        """Under this much time left, a side is warned (the low-time cue): a tenth of the
        base time, from 10 s to 30 s.

        >>> [TimeControl.from_text(text).low_time_ms for text in ("1", "3+2", "5", "60")]
        [10000, 18000, 30000, 30000]
        """
        share = self.base_ms * LOW_TIME_SHARE // 100
        return max(LOW_TIME_WARNING_MIN_MS, min(LOW_TIME_WARNING_MAX_MS, share))

    def credit(self, used_ms: int) -> int:
        """What a side gets back after a timed move that took ``used_ms``."""
        if self.kind is ControlKind.FISCHER:
            return self.bonus_ms
        if self.kind is ControlKind.BRONSTEIN:
            return min(self.bonus_ms, used_ms)
        return 0


def _whole(text: str, what: str, low: int, high: int, shown: str) -> int:
    if not text.isdigit() or not text.isascii():
        raise ClockError(f"time control {shown}: the {what} {text[:20]!r} is not a whole number ({EXAMPLES})")
    value = int(text)
    if not low <= value <= high:
        raise ClockError(f"time control {shown}: the {what} must be {low} to {high}, not {value}")
    return value


class ClockState(Enum):
    """What a game's clock is doing."""

    WAITING = "waiting"  # for the first move
    RUNNING = "running"  # the side to move's clock runs
    PAUSED = "paused"  # both stopped, for what no player caused
    STOPPED = "stopped"  # the game ended otherwise
    FLAGGED = "flagged"  # a side's time ran out: the game is lost on time


@dataclass(frozen=True)
class SideTime:
    """One side's account, in ms: what is left, what its clock has run, what it got back."""

    remaining_ms: int
    used_ms: int = 0
    credited_ms: int = 0


@dataclass(frozen=True)
class GameClock:
    """Both sides' clocks in one game (see the module). Make one with :meth:`new`;
    every event returns a new clock. ``since_ms`` is the time up to which the
    accounts are brought; ``turn_ms`` what the side to move's clock has run this turn
    (for the Bronstein delay)."""

    controls: tuple[TimeControl, TimeControl]  # red's, blue's
    times: tuple[SideTime, SideTime]  # red's, blue's
    to_move: Side
    state: ClockState = ClockState.WAITING
    since_ms: int = 0
    turn_ms: int = 0
    ply: int = 0  # moves accepted and not taken back
    fallen: Side | None = None

    @classmethod
    def new(cls, red: TimeControl, blue: TimeControl | None = None, *, first: Side) -> GameClock:
        """A clock waiting for ``first``'s first move; ``blue`` defaults to red's control."""
        controls = (red, red if blue is None else blue)
        return cls(controls, (SideTime(controls[0].base_ms), SideTime(controls[1].base_ms)), first)

    def control(self, side: Side) -> TimeControl:
        return self.controls[_index(side)]

    def time(self, side: Side) -> SideTime:
        return self.times[_index(side)]

    @property
    def running(self) -> Side | None:
        """The side whose clock runs, if one does."""
        return self.to_move if self.state is ClockState.RUNNING else None

    def at(self, now: int) -> GameClock:
        """The clock with the time up to ``now`` charged to the side whose clock runs,
        its flag down if its time ran out. Raises :class:`ClockError` if ``now`` is
        before the last event."""
        self._check(now)
        side = self.running
        if side is None:
            # A fallen flag keeps the moment it fell; a stopped clock only moves on.
            return self if self.state is ClockState.FLAGGED else replace(self, since_ms=now)
        account = self.time(side)
        elapsed = now - self.since_ms
        if elapsed >= account.remaining_ms:  # the flag fell at since + remaining
            spent = account.remaining_ms
            account = SideTime(0, account.used_ms + spent, account.credited_ms)
            return replace(
                self._with(side, account),
                state=ClockState.FLAGGED,
                fallen=side,
                since_ms=self.since_ms + spent,
                turn_ms=self.turn_ms + spent,
            )
        account = SideTime(account.remaining_ms - elapsed, account.used_ms + elapsed, account.credited_ms)
        return replace(self._with(side, account), since_ms=now, turn_ms=self.turn_ms + elapsed)

    def move_accepted(self, side: Side, now: int) -> GameClock:
        """``side`` made a move and the referee accepted it: its time is charged and
        given back as its control says, and the opponent's clock starts. The first
        move starts the clock and is untimed. A clock whose flag fell, or that was
        stopped, stays as it is. Raises :class:`ClockError` if it is not ``side``'s
        move."""
        clock = self.at(now)
        if clock.state in (ClockState.FLAGGED, ClockState.STOPPED):
            return clock
        if side is not clock.to_move:
            raise ClockError(f"the clock has {clock.to_move.label} to move, not {side.label}")
        if clock.state is not ClockState.WAITING:
            account = clock.time(side)
            credit = clock.control(side).credit(clock.turn_ms)
            clock = clock._with(
                side, SideTime(account.remaining_ms + credit, account.used_ms, account.credited_ms + credit)
            )
        state = ClockState.PAUSED if clock.state is ClockState.PAUSED else ClockState.RUNNING
        return replace(clock, to_move=side.opponent, state=state, turn_ms=0, ply=clock.ply + 1)

    def taken_back(self, now: int) -> GameClock:
        """The last move was taken back: the clock runs again for the side that made
        it, with no time given back (the time spent is spent; the move's increment
        stays earned). Taking back the first move makes the clock wait again."""
        clock = self.at(now)
        if clock.state in (ClockState.FLAGGED, ClockState.STOPPED) or clock.ply == 0:
            return clock
        ply = clock.ply - 1
        state = clock.state if ply else ClockState.WAITING
        return replace(clock, to_move=clock.to_move.opponent, state=state, turn_ms=0, ply=ply)

    def pause(self, now: int) -> GameClock:
        """Stop both clocks (the daemon restarted and the nest is being checked: no
        player caused it)."""
        clock = self.at(now)
        return replace(clock, state=ClockState.PAUSED) if clock.state is ClockState.RUNNING else clock

    def resume(self, now: int) -> GameClock:
        """Run the side to move's clock again after :meth:`pause`."""
        clock = self.at(now)
        return replace(clock, state=ClockState.RUNNING) if clock.state is ClockState.PAUSED else clock

    def stop(self, now: int) -> GameClock:
        """The game ended (not on time): both clocks stop for good."""
        clock = self.at(now)
        return clock if clock.state is ClockState.FLAGGED else replace(clock, state=ClockState.STOPPED)

    def flagged(self, now: int) -> Side | None:
        """The side whose time has run out by ``now``, if one has."""
        # Asked on every tick of the daemon's loop: worked out without a new clock.
        self._check(now)
        side = self.running
        if side is not None and now - self.since_ms >= self.time(side).remaining_ms:
            return side
        return self.fallen

    def remaining(self, side: Side, now: int) -> int:
        """``side``'s time left at ``now``, in ms (0 once its flag fell)."""
        self._check(now)
        left = self.time(side).remaining_ms
        return max(0, left - (now - self.since_ms)) if side is self.running else left

    def is_low(self, side: Side, now: int) -> bool:
        """Whether ``side`` has less than :data:`LOW_TIME_MS` left (its time is shown
        with tenths)."""
        return self.remaining(side, now) < LOW_TIME_MS

    def low_time_side(self, now: int, *, warned: frozenset[Side] = frozenset()) -> Side | None:
        """The side to warn at ``now`` (the low-time cue), if one is due: the side whose
        clock runs, not in ``warned``, with less than its control's
        :attr:`TimeControl.low_time_ms` left and its flag not yet down. Asked on every
        tick of the loop: worked out without a new clock."""
        self._check(now)
        side = self.running
        if side is None or side in warned:
            return None
        left = self.time(side).remaining_ms - (now - self.since_ms)
        return side if 0 < left < self.control(side).low_time_ms else None

    def low_sides(self, now: int) -> frozenset[Side]:
        """The sides with less than their control's low-time mark left at ``now``
        (a clock read back after a restart: those were warned already)."""
        return frozenset(side for side in Side if self.remaining(side, now) < self.control(side).low_time_ms)

    def display(self, now: int) -> tuple[str, str]:
        """Red's and blue's time at ``now`` as the screens show them."""
        return format_time(self.remaining(Side.RED, now)), format_time(self.remaining(Side.BLUE, now))

    def snapshot(self, now: int) -> dict[str, Any]:
        """The clock at ``now`` as plain data (JSON's types), for the record: no
        absolute time is in it, so :meth:`from_snapshot` resumes it at any other
        time origin (after a restart, the daemon's monotonic clock starts again)."""
        clock = self.at(now)
        return {
            "version": SNAPSHOT_VERSION,
            "controls": {side.label: clock.control(side).to_text() for side in Side},
            "times": {
                side.label: {
                    "remaining_ms": clock.time(side).remaining_ms,
                    "used_ms": clock.time(side).used_ms,
                    "credited_ms": clock.time(side).credited_ms,
                }
                for side in Side
            },
            "to_move": clock.to_move.label,
            "state": clock.state.value,
            "turn_ms": clock.turn_ms,
            "ply": clock.ply,
            "fallen": clock.fallen.label if clock.fallen else None,
        }

    @classmethod
    def from_snapshot(cls, data: Any, now: int) -> GameClock:
        """The clock :meth:`snapshot` wrote, as it was then, at ``now``: the time in
        between (the daemon was down) is charged to no one. Raises
        :class:`ClockError` naming the key that is wrong."""
        return _SnapshotReader(data).read(now)

    def _check(self, now: int) -> None:
        if now < self.since_ms:
            raise ClockError(f"the clock was asked about {now} ms, before its last event at {self.since_ms} ms")

    def _with(self, side: Side, account: SideTime) -> GameClock:
        times = (account, self.times[1]) if side is Side.RED else (self.times[0], account)
        return replace(self, times=times)


def _index(side: Side) -> int:
    return 0 if side is Side.RED else 1


def format_time(ms: int) -> str:
    """A time left as a clock shows it: ``4:59``, ``1:05:00``; under ten seconds with
    tenths, ``0:09.3``. It counts down: a part of a second (a tenth, under ten
    seconds) not yet used up is not shown.

    >>> format_time(299_999), format_time(9_399), format_time(3_900_000), format_time(0)
    ('4:59', '0:09.3', '1:05:00', '0:00.0')
    """
    ms = max(ms, 0)
    if ms < LOW_TIME_MS:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, minutes, seconds = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class _SnapshotReader:
    def __init__(self, data: Any) -> None:
        self.data = data

    def fail(self, key: str, what: str) -> ClockError:
        return ClockError(f"clock snapshot: {key}: {what}")

    def table(self, value: Any, key: str, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {type(value).__name__}")
        if sorted(value) != sorted(keys):
            raise self.fail(key, f"expected the keys {', '.join(keys)}, got {', '.join(map(str, value)) or 'none'}")
        return value

    def count(self, value: Any, key: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(key, f"expected a whole number of 0 or more, got {value!r}")
        return value

    def side(self, value: Any, key: str) -> Side:
        for side in Side:
            if value == side.label:
                return side
        raise self.fail(key, f"expected red or blue, got {value!r}")

    def read(self, now: int) -> GameClock:
        keys = ("version", "controls", "times", "to_move", "state", "turn_ms", "ply", "fallen")
        data = self.table(self.data, "(the snapshot)", keys)
        if data["version"] != SNAPSHOT_VERSION:
            raise self.fail("version", f"this nestref reads version {SNAPSHOT_VERSION}, not {data['version']!r}")
        labels = tuple(side.label for side in Side)
        controls_data = self.table(data["controls"], "controls", labels)
        controls = []
        for side in Side:
            text = controls_data[side.label]
            if not isinstance(text, str):
                raise self.fail(f"controls.{side.label}", f"expected a time control's text, got {text!r}")
            try:
                controls.append(TimeControl.from_text(text))
            except ClockError as error:
                raise self.fail(f"controls.{side.label}", str(error)) from None
        times_data = self.table(data["times"], "times", labels)
        times = []
        for side in Side:
            where = f"times.{side.label}"
            account_keys = ("remaining_ms", "used_ms", "credited_ms")
            account = self.table(times_data[side.label], where, account_keys)
            account_time = SideTime(*(self.count(account[key], f"{where}.{key}") for key in account_keys))
            base_ms = controls[_index(side)].base_ms
            if account_time.used_ms + account_time.remaining_ms != base_ms + account_time.credited_ms:
                raise self.fail(where, "used_ms + remaining_ms must be the control's base time + credited_ms")
            times.append(account_time)
        try:
            state = ClockState(data["state"])
        except ValueError:
            known = ", ".join(state.value for state in ClockState)
            raise self.fail("state", f"{data['state']!r} is not one of: {known}") from None
        fallen = None if data["fallen"] is None else self.side(data["fallen"], "fallen")
        if (state is ClockState.FLAGGED) != (fallen is not None):
            raise self.fail("fallen", "a side's flag is down exactly when the state is flagged")
        ply = self.count(data["ply"], "ply")
        if (state is ClockState.WAITING) != (ply == 0) and state is not ClockState.STOPPED:
            raise self.fail("ply", f"a clock {state.value} has {'no' if ply else 'some'} moves made, not {ply}")
        return GameClock(
            controls=(controls[0], controls[1]),
            times=(times[0], times[1]),
            to_move=self.side(data["to_move"], "to_move"),
            state=state,
            since_ms=now,
            turn_ms=self.count(data["turn_ms"], "turn_ms"),
            ply=ply,
            fallen=fallen,
        )
