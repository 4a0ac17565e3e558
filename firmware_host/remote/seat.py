"""The other nest's side at this nest's referee: the integration point for the daemon.

The referee already accepts only a move chosen elsewhere on the computer's turns, so
the remote side is seated as "the computer" (the referee's ``computers`` holds its
colour). A :class:`RemoteSeat`, on the daemon's loop:

- is :meth:`~RemoteSeat.told` the session's events (posted from the link's thread):
  the other side's move is kept until the referee wants it, then played as the
  computer's move is (:meth:`~RemoteSeat.poll`), so that the nest shows it and lights it
  and the referee accepts only its copy;
- :meth:`~RemoteSeat.heard` the referee's signals: each move accepted on this nest, ours
  or the copy of theirs, goes to the session (which sends it, or acks the copy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from firmware_host.games.base import Game, Move
from firmware_host.referee.signals import MoveAccepted, Signal
from firmware_host.remote.session import Event, GameEnded, ShowMove, TakeBack


class ChosenElsewhere(Protocol):
    """What of the referee the seat uses (the :class:`~firmware_host.referee.referee.Referee` has it)."""

    @property
    def wants_computer_move(self) -> bool: ...

    def play_computer_move(self, move: Move, now: int) -> list[Signal]: ...


class RemoteSeat:
    """Between the session (through ``send``: ``RemotePlayer.local_move``) and the referee."""

    def __init__(self, game: Game, *, send: Callable[[str], None]) -> None:
        self.game = game
        self._send = send
        self._waiting: ShowMove | None = None  # their move, not yet handed to the referee

    def told(self, event: Event) -> None:
        """A session event: their move is kept for :meth:`poll`; a take back or a game's
        end drops a move not yet shown."""
        if isinstance(event, ShowMove):
            self._waiting = event
        elif isinstance(event, TakeBack | GameEnded):
            self._waiting = None

    def poll(self, referee: ChosenElsewhere, now: int) -> list[Signal]:
        """Hand their move to the referee once it wants it (call every loop turn);
        returns the referee's signals (the move to show)."""
        if self._waiting is None or not referee.wants_computer_move:
            return []
        move, self._waiting = self.game.read_move(self._waiting.move), None
        return referee.play_computer_move(move, now)

    def heard(self, signals: Iterable[Signal]) -> None:
        """The referee's signals: every move accepted here goes to the session."""
        for signal in signals:
            if isinstance(signal, MoveAccepted):
                self._send(signal.move.to_text())
