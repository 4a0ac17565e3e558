"""The material count, on request: confirm pressed twice quickly during a game (or the
page's request, :meth:`MaterialCount.announce`) shows each side's pieces left on the
OLED for ``SHOWN_S`` seconds, until then or the referee's next word. In a game that
hides its pieces (the battle game) only what everybody sees: how many each side has on
the board, never of which ranks; in another, how many of each kind besides.

It is one part and one line in the root's list: it takes its own press
(:meth:`Part.pressed`), and reports an :class:`Announcement`, which the OLED shows
over the game's screen.
"""

from __future__ import annotations

from collections import Counter

from firmware_host.daemon.buttons import ButtonAction, Press
from firmware_host.daemon.oled_words import first_fitting
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.statuses import Announcement
from firmware_host.games.base import Position, Side
from firmware_host.referee.referee import CommandError, Mode
from firmware_host.referee.signals import SensorFault, SensorRecovered, Signal
from hardware.outputs import Screen

SHOWN_S = 4.0
GESTURE = ("confirm", Press.DOUBLE)  # (its first press means nothing without a question open)


def material_lines(position: Position, *, hides_ranks: bool) -> tuple[str, ...]:
    """Each side's pieces on the board in ``position``, a line a side (red's first):
    with ``hides_ranks``, their number alone; else the number of each kind too, as many
    as fit."""
    lines = []
    pieces = position.pieces()
    for side in (Side.RED, Side.BLUE):
        own = [piece for piece in pieces.values() if piece.side is side]
        total = f"{side.label} {len(own)}"
        if hides_ranks:
            lines.append(first_fitting([f"{total} pieces left", total]))
            continue
        kinds = Counter(piece.label.removeprefix(f"{side.label} ") for piece in own)
        listed = " ".join(f"{count} {kind}" for kind, count in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        lines.append(first_fitting([f"{total}: {listed}", total]))
    return tuple(lines)


class MaterialCount(Part):
    """Announces the pieces left, when asked."""

    name = "material"

    def __init__(self, host: Host) -> None:
        self.host = host
        self._shown: Announcement | None = None

    def announce(self) -> None:
        """Show the count now. Raises :class:`CommandError` between games."""
        service = self.host.service
        referee = service.referee if service is not None else None
        position = referee.position if referee is not None else None
        if referee is None or position is None or referee.mode is not Mode.PLAYING:
            raise CommandError("the pieces are counted in a game")
        lines = material_lines(position, hides_ranks=self.host.config.game.hidden is not None)
        until = self.host.now_ms() + int(SHOWN_S * 1000)
        self._shown = Announcement(Screen("PIECES", lines, "pieces on the board"), until)
        self.host.show()

    def pressed(self, action: ButtonAction, now: int) -> bool:
        if (action.button, action.press) != GESTURE or self.host.view.value != "playing":
            return False
        try:
            self.announce()
        except CommandError:
            return False
        return True

    def heard(self, signal: Signal) -> None:
        if self._shown is not None and not isinstance(signal, SensorFault | SensorRecovered):
            self._shown = None  # the referee's word comes first

    def turn(self, now: int) -> None:
        if self._shown is not None and now >= self._shown.until:
            self._shown = None
            self.host.show()

    def next_due(self, now: int) -> int | None:
        return self._shown.until if self._shown is not None else None

    def status(self) -> Announcement | None:
        return self._shown
