"""Who plays: a person at each side by default; the computer (or, paired through a
broker, the other nest) at the sides chosen (``set_players``: the page, the confirm
button between games). Each turn the seat of the sides not played on the nest is told
whether the referee wants its move now; a person's seat needs no telling."""

from __future__ import annotations

import logging

from firmware_host.daemon.parts.part import Host, Part, PersonSeat, Seat
from firmware_host.daemon.statuses import PlayersShown
from firmware_host.games.base import Side

logger = logging.getLogger(__name__)


class Players(Part):
    """The sides' seats, and the level the computer plays at."""

    name = "players"

    def __init__(self, host: Host, *, computer: Seat, remote: Seat | None = None) -> None:
        self.host = host
        self.person: Seat = PersonSeat()
        self.computer = computer
        self.remote = remote
        config = host.config
        self._shown = PlayersShown(config.referee.computers, config.computer_level)

    @property
    def computers(self) -> frozenset[Side]:
        """The sides the computer (or the other nest) plays, as last chosen."""
        return self._shown.computers

    def seat(self, side: Side) -> Seat:
        """Who makes ``side``'s moves now."""
        return self._away_seat() if side in self._shown.computers else self.person

    def _away_seat(self) -> Seat:
        """The seat of the moves chosen away from the nest: the other nest's while paired."""
        remote = self.remote
        return remote if remote is not None and remote.is_seated else self.computer

    def set_players(self, computers: frozenset[Side], level: int) -> None:
        """The computer plays ``computers`` at ``level`` (the engine's level set already)."""
        self._shown = PlayersShown(computers, level)
        service = self.host.service
        if service is not None:
            self.host.publish(service.set_computers(computers, self.host.now_ms()))
        logger.info(
            "players",
            extra={
                "fields": {
                    "computer": " ".join(side.label for side in Side if side in computers) or "none",
                    "level": level,
                }
            },
        )
        self.host.show()

    def turn(self, now: int) -> None:
        service = self.host.service
        referee = service.referee if service is not None and not self.host.paused else None
        wanted = referee.position if referee is not None and referee.wants_computer_move else None
        chosen_by = self._away_seat() if wanted is not None else None
        for seat in (self.computer, self.remote):
            if seat is not None:
                seat.want(wanted if seat is chosen_by else None)

    def next_due(self, now: int) -> int | None:
        service = self.host.service
        if service is not None and service.referee.wants_computer_move:
            return now  # the seat's move may come any turn
        return None

    def status(self) -> PlayersShown:
        return self._shown
