"""The referee: reed-switch changes in, refereed moves and signals out.

Pure code with no I/O and no clock: every input carries the time it happened, in
milliseconds, and returns the signals it caused. ``next_deadline()`` says when the
referee next wants ``tick()`` even if the nest stays still (a move settling, a
debounce ending). ``docs/referee.md`` describes the states and the signals.

The referee keeps what lasts across a set — the games, the position, the sensors — and
hands the nest's changes to the phase it is in, an object made fresh when the phase
begins: :class:`~firmware_host.referee.setup.Setup` between games,
:class:`~firmware_host.referee.turn.Turn` while a move is being made (how a move is
read is told there), :class:`~firmware_host.referee.correction.Correction` while the
nest is put right. A phase decides once the nest has been still for ``settle_ms``, and
returns its decisions as values, which the referee applies
(:class:`~firmware_host.referee.machine.PhaseMachine`, what the referee is built on).
This module is the referee's face: starting a game, the nest's readings, the controls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from firmware_host.errors import NestrefError
from firmware_host.games.base import (
    GameSet,
    Move,
    Outcome,
    Position,
    Side,
    public_view,
)
from firmware_host.referee.correction import Correction, undo_capture
from firmware_host.referee.machine import Mode, PhaseMachine, Settings
from firmware_host.referee.players_setup import PlayersSetup
from firmware_host.referee.set_state import SetState
from firmware_host.referee.signals import (
    ComputerMove,
    CorrectionCause,
    GameAbandoned,
    GameStarted,
    Signal,
    TakenBack,
)
from firmware_host.referee.turn import Turn

__all__ = ["CommandError", "Mode", "Referee", "Settings"]


class CommandError(NestrefError, ValueError):
    """A control that does not apply now, such as taking back when no move was made."""


class Referee(PhaseMachine):
    """Referees the games of a set on one board; see the module documentation."""

    # -- what the referee is doing ----------------------------------------------------

    @property
    def games(self) -> GameSet:
        """The games of the set so far."""
        return self.set_state.games

    @property
    def number(self) -> int:
        """The number in its set of the game being played, or set up next."""
        return self.set_state.number

    @property
    def starter(self) -> Side:
        """Who starts the game being played, or set up next."""
        return self.set_state.starter

    @property
    def lineup(self) -> str:
        """The lineup the set is played from."""
        return self.set_state.lineup

    @property
    def question(self) -> tuple[Move, ...] | None:
        """The moves the players are asked about now (:class:`MoveQuestion`), if any."""
        return self.phase.question if isinstance(self.phase, Turn) else None

    @property
    def compulsory(self) -> tuple[Move, ...]:
        """The captures the rules make compulsory for the side to move now (none between games)."""
        return self.phase.view.compulsory if isinstance(self.phase, Turn | Correction) else ()

    @property
    def wants_computer_move(self) -> bool:
        """Whether a game is on, the computer plays the side to move, and it has not
        chosen its move yet (:meth:`play_computer_move`)."""
        return (
            self.mode is not Mode.SETUP
            and self.position is not None
            and self.position.turn in self.computers
            and self._computer_move is None
        )

    @property
    def outcome(self) -> Outcome | None:
        """How the game in :attr:`position` ended; None while it is played."""
        return self._outcome if self.mode is Mode.SETUP else None

    @property
    def move_in_progress(self) -> bool:
        """Whether a game is on and the nest does not show its position: a piece is in
        a hand, or a move waits to be settled."""
        return isinstance(self.phase, Turn) and self._mismatch(self.phase.view)

    # -- starting ---------------------------------------------------------------------

    def begin_game(
        self, position: Position, *, now: int, games: GameSet | None = None, number: int = 1
    ) -> list[Signal]:
        """Start a game from ``position`` at once (the nest is taken to show it); by
        default the first game of a new set that ``position``'s side to move starts."""
        self._recorded = []
        played = games if games is not None else GameSet(first_starter=position.turn)
        self.set_state = SetState(played, number, position.turn, self.lineup, started=True)
        self.position = position
        signals: list[Signal] = [
            GameStarted(
                number,
                self._lineup_played,
                position.turn,
                public_view(self.game, position),
                new_set=games is None,
            )
        ]
        self._recorded.append(position.to_text())
        outcome = position.outcome()
        if outcome is not None:  # a position already decided
            return signals + self._end_game(outcome, now)
        return signals + self._start_turn(now, correct=CorrectionCause.DISTURBED)

    def resume_game(self, position: Position, *, games: GameSet, number: int, starter: Side, now: int) -> list[Signal]:
        """Go on with a game interrupted at ``position`` (with its moves made): if the
        nest no longer matches it, the players are first guided to put it right."""
        if position.outcome() is not None:
            raise ValueError("a finished game cannot be resumed: set up the next one")
        self._recorded = []
        self.set_state = SetState(games, number, starter, self.lineup, started=True)
        self.position = position
        return self._start_turn(now, correct=CorrectionCause.RESUMED)

    def await_setup(self, *, now: int, games: GameSet | None = None, number: int = 1) -> list[Signal]:
        """Wait for the nest to show the set's lineup; the game starts by itself."""
        self._recorded = []
        started = games is not None
        games = games if games is not None else GameSet(first_starter=self.settings.first_starter)
        self.set_state = SetState(games, number, games.next_starter, self.lineup, started=started)
        self.position, self._computer_move = None, None
        return self._enter_setup(now)

    # -- inputs -----------------------------------------------------------------------

    def sense(self, cell: str, occupied: bool, now: int) -> list[Signal]:
        """One raw sensor reading of ``cell`` at ``now`` (times must not go back)."""
        self.board.check_cell(cell)
        signals = self._catch_up(now)
        for event in self.sensors.read(cell, occupied, now):
            signals += self._on_sensor_event(event, now)
        return signals

    def tick(self, now: int) -> list[Signal]:
        """Let time pass to ``now`` with the nest unchanged."""
        return self._catch_up(now)

    # -- commands (buttons, the web page) -----------------------------------------------

    def take_back(self, now: int) -> list[Signal]:
        """Take back the last move (and the passes after it); the players are guided to
        put the nest back. Raises :class:`CommandError` if there is none."""
        signals = self._catch_up(now) + self._commit_provisional(now)
        position = self.position
        if position is None or not _has_move(position):
            raise CommandError("there is no move to take back")
        if self.mode is Mode.SETUP:  # the game had ended: it is open again
            self.set_state = replace(self._before_game_over, lineup=self.lineup, started=True)
        showed_it = isinstance(self.phase, Turn) and not self._mismatch(self.phase.view)
        taken = 0
        while True:
            ply = len(position.move_stack)
            move = position.pop()
            signals.append(TakenBack(move, ply))
            if move.is_pass:
                continue
            taken += 1
            # Against the computer, taking back its reply alone would only have it play
            # that reply again: the player's own move is taken back with it.
            if position.turn in self.computers and len(self.computers) == 1 and _has_move(position):
                continue
            break
        # The side of the move taken back has a move (that one): no pass is made here.
        # The nest showing the capture made: it is undone exactly, capturer first.
        exact = showed_it and taken == 1 and move.is_capture
        steps = undo_capture(move, position.pieces()) if exact else None
        return signals + self._start_turn(now, correct=CorrectionCause.TAKE_BACK, steps=steps)

    def resign(self, side: Side, now: int) -> list[Signal]:
        """``side`` gives the game up. Raises :class:`CommandError` if no game is on."""
        signals = self._catch_up(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        return signals + self._end_game(self.game.resignation(side), now)

    def agree_draw(self, now: int) -> list[Signal]:
        """The players agreed a draw (at a distance: a draw offered and accepted through
        the link); it counts as a drawn game of the set. Raises :class:`CommandError` if
        no game is on."""
        signals = self._catch_up(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        return signals + self._end_game(self.game.agreed_draw(), now)

    def flag_fell(self, side: Side, now: int) -> list[Signal]:
        """``side``'s clock ran out: it loses on time (what waits to be decided is
        decided first: a move made before the flag fell stands). Raises
        :class:`CommandError` if no game is on."""
        signals = self._catch_up(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        if self.position.outcome() is not None:
            return signals  # the game ended by the rules first
        return signals + self._end_game(self.game.time_loss(side), now)

    def new_game(self, now: int) -> list[Signal]:
        """Stop the game being played, if any (it does not count), and wait for the nest
        to be set up for a new one."""
        signals = self._catch_up(now)
        if self.mode is not Mode.SETUP:
            signals.append(GameAbandoned(self.number))
        signals += self._close_question()
        self.position, self._computer_move = None, None
        return signals + self._enter_setup(now)

    def choose_setup(self, *, now: int, starter: Side | None = None, lineup: str | None = None) -> list[Signal]:
        """Before the first game of a set: who starts it, and from which lineup. Raises
        :class:`CommandError` once the set is under way."""
        signals = self._catch_up(now)
        if self.mode is not Mode.SETUP or self.set_state.started:
            raise CommandError("the starting side and the lineup are chosen before a set begins")
        if lineup is not None:
            self.set_state = replace(self.set_state, lineup=self.game.check_lineup(lineup))
        if starter is not None:
            self.set_state = replace(self.set_state, games=GameSet(first_starter=starter), starter=starter)
        return signals + self._enter_setup(now)

    # -- the players' own set-ups (a game that hides pieces) --------------------------

    def give_setup(self, setup: object, now: int) -> list[Signal]:
        """A whole set-up from its player's screen (the game's own value, read and
        checked by its ``read_setup``) is its side's for the next game; the nest must
        show its cells. Raises :class:`CommandError` unless the referee waits for the
        players' own set-ups."""
        signals = self._catch_up(now)
        phase = self._players_setup()
        return signals + phase.give(setup) + self._decide_soon(now)

    def guide_setup(self, side: Side, now: int) -> list[Signal]:
        """``side`` places its pieces one at a time, as its own screen asks
        (:meth:`placement_prompt`): the cell of its rows that fills next holds the piece
        asked for. Raises :class:`CommandError` as :meth:`give_setup` does."""
        signals = self._catch_up(now)
        phase = self._players_setup()
        return signals + phase.guide(side) + self._decide_soon(now)

    def clear_setup(self, side: Side, now: int) -> list[Signal]:
        """``side``'s set-up, given or being placed, is withdrawn. Raises
        :class:`CommandError` as :meth:`give_setup` does."""
        signals = self._catch_up(now)
        return signals + self._players_setup().clear(side) + self._decide_soon(now)

    def check_setup(self, side: Side, now: int, *, seed: int | None = None) -> list[Signal]:
        """``side``'s pieces are checked against its set-up before the game starts: once
        the nest shows it, its own screen asks for one piece at a time to lift
        (:meth:`placement_prompt`), in the order ``seed`` draws (None: drawn where nobody
        can know it; a sensor log's replay passes its own), and the cell that opens must
        hold it. Raises :class:`CommandError` as :meth:`give_setup` does."""
        signals = self._catch_up(now)
        return signals + self._players_setup().ask_check(side, seed=seed) + self._decide_soon(now)

    def placement_prompt(self, side: Side) -> str | None:
        """What ``side``'s own screen asks for while it places its pieces one at a time or
        checks them, None otherwise. Private: it names the piece asked for; never on a
        shared screen."""
        phase = self.phase
        return phase.prompt(side) if isinstance(phase, PlayersSetup) else None

    def _players_setup(self) -> PlayersSetup:
        phase = self.phase
        if not isinstance(phase, PlayersSetup):
            if self.game.setups is None:
                raise CommandError(f"{self.game.title} starts from a lineup on the nest, not from the players' set-ups")
            raise CommandError("set-ups are given between games, not while one is played")
        return phase

    def _decide_soon(self, now: int) -> list[Signal]:
        """The nest may show what was just given already: decide once it is still."""
        self._decide_by(max(now, self.last_change + self.timing.settle_ms))
        return []

    def set_computers(self, sides: Iterable[Side], now: int) -> list[Signal]:
        """The computer plays ``sides`` from now on (none: people play both). A change
        for the side to move applies to the turn under way: it is announced again."""
        signals = self._catch_up(now)
        sides = frozenset(sides)
        if sides == self.computers:
            return signals
        self.computers = sides
        position = self.position
        if self.mode is Mode.SETUP or position is None:
            return signals
        self._computer_move = None
        if isinstance(self.phase, Turn):
            return signals + self._renew_turn(position)
        return signals  # the nest is being put right: the turn is announced once it is

    def play_computer_move(self, move: Move, now: int) -> list[Signal]:
        """The computer chose ``move`` for the side to move: from now on the nest must
        show exactly that move; any other is refused like an illegal one. Raises
        :class:`CommandError` if the computer has no move to choose now, or if ``move``
        is not legal."""
        signals = self._catch_up(now)
        position = self.position
        if not self.wants_computer_move or position is None:
            raise CommandError("the computer has no move to choose now")
        legal = position.legal_moves()
        if move not in legal:
            raise CommandError(f"{move} is not a legal move in {position.to_text()}")
        # (Never a pass: a side that can only pass passes at once, in _start_turn.)
        self._computer_move = legal[legal.index(move)]
        shown = ComputerMove(self._computer_move, position.turn, len(position.move_stack))
        if isinstance(self.phase, Turn):
            signals += self._renew_turn(position, announce=False)
        return [*signals, shown]

    def answer(self, move: Move, now: int) -> list[Signal]:
        """The player says which move of a :class:`MoveQuestion` was made."""
        signals = self._catch_up(now)
        phase = self.phase
        if not isinstance(phase, Turn) or phase.question is None or move not in phase.question:
            raise CommandError(f"{move} does not answer an open question")
        return signals + self._apply(phase.answer(move, now), now)

    def _commit_provisional(self, now: int) -> list[Signal]:
        """A move the nest shows, still provisional when a control is pressed, stands:
        the player pressing "take back" means that move."""
        move = self.phase.shown_move() if isinstance(self.phase, Turn) else None
        return self._commit(move, now) if move is not None else []


def _has_move(position: Position) -> bool:
    """Whether ``position`` has a move made in it to take back (passes aside)."""
    return any(not move.is_pass for move in position.move_stack)
