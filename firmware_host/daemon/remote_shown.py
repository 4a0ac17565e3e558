"""Remote play as the nest shows it: its stage, and one frozen value of what the OLED,
the lights and the page say of it (:class:`RemoteShown`). A leaf: the presenter and the
snapshot read it without importing remote play itself (which knows the buttons)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from firmware_host.games.base import Side
from firmware_host.remote.messages import ProposalKind


class RemoteStage(Enum):
    UNPAIRED = "unpaired"  # no game offered or joined
    ENTERING = "entering"  # a game's code being chosen on the buttons
    OFFERING = "offering"  # a code shown, waiting for the other nest to join
    JOINING = "joining"  # a code given, waiting for its offer
    PLAYING = "playing"
    SET_OVER = "set over"
    DESYNC = "desync"  # the records disagree: play stopped on both nests


@dataclass(frozen=True)
class RemoteShown:
    """Remote play as the nest shows it, at one moment."""

    stage: RemoteStage
    code: str = ""  # the game's code; while entering, the characters taken so far
    choosing: str = ""  # while entering: the character the switch button points at
    side: Side | None = None  # the side this nest plays
    link: str = ""  # "link up", "link lost 1:05", "other nest away 0:12"
    is_link_up: bool = False
    is_waiting_for_copy: bool = False  # our move made here, not yet copied there
    their_proposal: ProposalKind | None = None  # to answer: confirm yes, switch no
    our_proposal: ProposalKind | None = None  # waiting for their answer
    desync: str = ""
    said: str = ""  # the last thing the other side said (a draw declined, a take back agreed)

    def to_json(self) -> dict[str, Any]:
        """For the page (``page/remote.js``)."""
        return {
            "type": "remote",
            "stage": self.stage.value,
            "code": self.code,
            "choosing": self.choosing,
            "side": self.side.label if self.side is not None else None,
            "link": self.link,
            "link_up": self.is_link_up,
            "waiting_for_copy": self.is_waiting_for_copy,
            "their_proposal": self.their_proposal.value if self.their_proposal else None,
            "our_proposal": self.our_proposal.value if self.our_proposal else None,
            "desync": self.desync,
            "said": self.said,
        }
