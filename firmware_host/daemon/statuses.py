"""What the daemon's parts report: each a frozen value, made afresh when the part
changes, and the one value the views read of them all (:class:`Gathered`). A leaf:
the presenter, the snapshot and the parts import it, it imports none of them.

The views never reach into a part: the loop gathers the parts' statuses
(:func:`gather`) and hands the presenter the one value. A part whose status is of a
type the views do not know yet is ignored by them; one that only wants a few seconds
of the OLED reports an :class:`Announcement`, which any part may.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from firmware_host.daemon.remote_shown import RemoteShown
from firmware_host.games.base import Move, Side
from hardware.outputs import Screen


@dataclass(frozen=True)
class PageShown:
    """The web page, on the OLED's bottom line: where it is served, and the PIN that
    lets a page at another machine act (shown on the nest's own screen alone)."""

    address: str = ""
    pin: str = ""


@dataclass(frozen=True)
class RecordShown:
    """Whether moves can be recorded now, and if not why (locked, read-only, disk full,
    disk error)."""

    saved: bool = True
    trouble: str = "disk error"


@dataclass(frozen=True)
class ClockShown:
    """Red's and blue's time, in a game with a clock."""

    times: tuple[str, str] | None = None


@dataclass(frozen=True)
class PlayersShown:
    """Who plays: the sides the computer (or the other nest) plays, at which level."""

    computers: frozenset[Side] = frozenset()
    level: int = 0


@dataclass(frozen=True)
class HintShown:
    """A hint the players asked for: being chosen, or chosen (until a move is made). In a
    game that hides pieces the move is never here (it would say what the piece is): it goes
    to the side's own screen alone, and this says only on whose (``on_screen_of``)."""

    wanted: bool = False
    move: Move | None = None
    on_screen_of: Side | None = None


@dataclass(frozen=True)
class SensorsShown:
    """The switches: whether the scanner is there, and what the boot self-test found
    (its words on the OLED until the first move: ``notice``)."""

    connected: bool = True
    notice: str = ""
    findings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Announcement:
    """A screen a part shows over the game's until ``until`` (referee ms): something
    asked for, read, and gone again."""

    screen: Screen
    until: int
    public: Screen | None = None  # what the shared pages are shown of it, if not all (a PIN starred out)


@dataclass(frozen=True)
class Gathered:
    """Every part's status at one moment: what the views read besides the referee's
    signals."""

    page: PageShown = field(default_factory=PageShown)
    record: RecordShown = field(default_factory=RecordShown)
    clock: ClockShown = field(default_factory=ClockShown)
    players: PlayersShown = field(default_factory=PlayersShown)
    hint: HintShown = field(default_factory=HintShown)
    sensors: SensorsShown = field(default_factory=SensorsShown)
    remote: RemoteShown | None = None
    announcement: Announcement | None = None  # the first part's that has one


_FIELDS: dict[type, str] = {
    PageShown: "page",
    RecordShown: "record",
    ClockShown: "clock",
    PlayersShown: "players",
    HintShown: "hint",
    SensorsShown: "sensors",
    RemoteShown: "remote",
    Announcement: "announcement",
}


def gather(statuses: Iterable[object]) -> Gathered:
    """The statuses as one value (None, and a type the views do not read: left out);
    of two statuses of one type, the first part's."""
    found: dict[str, object] = {}
    for status in statuses:
        name = _FIELDS.get(type(status))
        if name is not None and name not in found:
            found[name] = status
    return Gathered(**found)  # type: ignore[arg-type]  # each by its own type, as _FIELDS pairs them
