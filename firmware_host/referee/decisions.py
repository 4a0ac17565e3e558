"""What a phase decides, as values, and what it may read to decide.

A phase of the referee (:class:`~firmware_host.referee.setup.Setup`,
:class:`~firmware_host.referee.players_setup.PlayersSetup`,
:class:`~firmware_host.referee.turn.Turn`,
:class:`~firmware_host.referee.correction.Correction`) never acts on the referee: it
reads the nest through a :class:`Table` and returns its decisions, in order (a signal
among them is said as it is); the
:class:`~firmware_host.referee.referee.Referee` applies them (python-chess computes a
move, one ``push`` applies it). A decision that ends the phase (a commit, a correction,
the turn going on, a game starting) comes last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from firmware_host.games.base import Game, Move
from firmware_host.referee.sensing import SensorFilter, Timing
from firmware_host.referee.set_state import SetState
from firmware_host.referee.signals import CorrectionCause, FixStep, MoveRefused, Signal
from firmware_host.referee.tracker import Observation


class Table(Protocol):
    """What a phase may read of the nest and the game being refereed (the referee is
    one): nothing here changes anything."""

    @property
    def game(self) -> Game: ...

    @property
    def timing(self) -> Timing: ...

    @property
    def sensors(self) -> SensorFilter:
        """The sensors' readings (to read, never to feed)."""
        ...

    @property
    def last_change(self) -> int:
        """When the nest last changed: it has been still since."""
        ...

    @property
    def set_state(self) -> SetState:
        """Where the set stands: the game to set up next, its lineup and starter."""
        ...

    @property
    def computer_move(self) -> Move | None:
        """The computer's move this turn, chosen and not yet made on the nest."""
        ...

    def observation(self) -> Observation:
        """What the sensors say now, for the tracker."""
        ...


class Then(Enum):
    """What follows a move committed."""

    NOTHING = "nothing"  # the next turn waits for the nest to change
    DECIDE_NOW = "decide now"  # the reply is on the nest already: the next turn decides at once
    DECIDE_SOON = "decide soon"  # the next turn decides at the next tick (a question answered)
    PUT_STRAYS_RIGHT = "put strays right"  # pieces still out of place: announced once they are put right
    PASS_CHANGE_ON = "pass the change on"  # the change that showed it is the next turn's


@dataclass(frozen=True)
class Commit:
    """Play ``move``; ``proven`` is False for a capture the sensors never saw, which
    used up no flicker on its target."""

    move: Move
    proven: bool = True
    then: Then = Then.NOTHING


@dataclass(frozen=True)
class Ask:
    """Ask the players which of ``options`` was made (with one, whether it was)."""

    options: tuple[Move, ...]


@dataclass(frozen=True)
class CloseQuestion:
    """The question asked no longer stands."""


@dataclass(frozen=True)
class Correct:
    """The nest must be put right, for ``cause`` (with the plan ``steps``, if given),
    after the move ``refused``, if one was."""

    cause: CorrectionCause
    steps: tuple[FixStep, ...] | None = None
    refused: MoveRefused | None = None


@dataclass(frozen=True)
class WaitUntil:
    """Decide again no later than ``moment``, unless the nest changes before."""

    moment: int


@dataclass(frozen=True)
class GoOn:
    """The nest matches the game again: the turn goes on, announced afresh (after
    :class:`~firmware_host.referee.signals.Corrected`)."""


@dataclass(frozen=True)
class DeclareStuck:
    """The sensor of ``cell`` is stuck: ignore it from now on."""

    cell: str


@dataclass(frozen=True)
class StartGame:
    """The nest shows the lineup: the game set up starts."""


@dataclass(frozen=True)
class StartFromSetups:
    """Both sides' own set-ups are given and the nest shows them: the game starts from
    them (each the game's own value)."""

    red: object
    blue: object


Decision = (
    Commit | Ask | CloseQuestion | Correct | WaitUntil | GoOn | DeclareStuck | StartGame | StartFromSetups | Signal
)
"""Any decision of a phase; a signal is said as it is (a strike announced, what the nest
needs, a set-up's progress)."""

Decisions = Sequence[Decision]
"""A phase's decisions, in the order they are applied."""

NOTHING: Decisions = ()
"""Nothing to decide."""
