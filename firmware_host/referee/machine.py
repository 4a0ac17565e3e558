"""The referee's machinery: what lasts across a set, the phase it is in, and the
phases' decisions carried out.

A phase (:class:`~firmware_host.referee.setup.Setup`,
:class:`~firmware_host.referee.players_setup.PlayersSetup`,
:class:`~firmware_host.referee.turn.Turn`,
:class:`~firmware_host.referee.correction.Correction`) reads the nest through the
:class:`~firmware_host.referee.decisions.Table` the machine is, and returns its
decisions; :meth:`PhaseMachine._apply` carries them out: a move committed and the next
turn begun, a question put, the nest to put right, a game started or ended. Time passes
only as :meth:`PhaseMachine._advance` is told it has, to the deadlines the sensors and
the phase ask for. The commands and what the daemon asks of a referee are
:class:`~firmware_host.referee.referee.Referee`'s, built on this.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from firmware_host.games.base import (
    OWN_SETUPS,
    Game,
    Move,
    Outcome,
    Position,
    Side,
    public_view,
)
from firmware_host.referee.correction import Correction
from firmware_host.referee.decisions import (
    Ask,
    CloseQuestion,
    Commit,
    Correct,
    Decisions,
    DeclareStuck,
    GoOn,
    StartFromSetups,
    StartGame,
    Then,
    WaitUntil,
)
from firmware_host.referee.evidence import CaptureEvidence
from firmware_host.referee.players_setup import PlayersSetup
from firmware_host.referee.sensing import (
    CellChanged,
    FaultCleared,
    FaultFound,
    SensorEvent,
    SensorFilter,
    Steadied,
    Timing,
    Touched,
)
from firmware_host.referee.set_state import SetState
from firmware_host.referee.setup import Setup
from firmware_host.referee.signals import (
    ComputerMove,
    CorrectionCause,
    FixStep,
    GameOver,
    GameStarted,
    MissedCapture,
    MoveAccepted,
    MoveQuestion,
    QuestionClosed,
    SensorFault,
    SensorRecovered,
    Signal,
    TurnStarted,
)
from firmware_host.referee.tracker import Observation, TurnView
from firmware_host.referee.turn import Turn


class Mode(Enum):
    """What the referee waits for."""

    PLAYING = "playing"  # the side to move to make its move
    CORRECTING = "correcting"  # the nest to match the game again
    SETUP = "setup"  # the nest to show the next game's lineup


@dataclass(frozen=True)
class Settings:
    """How the referee referees."""

    timing: Timing = field(default_factory=Timing)
    lenient: bool = False
    """``docs/rules.md`` §5: accept a step that misses a compulsory capture, with a warning."""
    first_starter: Side = Side.RED
    """Who starts the first game of a new set."""
    computers: frozenset[Side] = frozenset()
    """The sides the computer plays: on their turns only the computer's move is accepted."""


Phase = Setup | PlayersSetup | Turn | Correction


class PhaseMachine:
    """The state of a referee and its phases' decisions applied; see the module
    documentation. :class:`~firmware_host.referee.referee.Referee` is the one made."""

    def __init__(self, game: Game, *, settings: Settings, lineup: str, occupied: Iterable[str], now: int) -> None:
        """A referee for ``game`` on its board, whose set is played from ``lineup``, with
        the board's sensors reading ``occupied`` at ``now``. Start it with
        :meth:`begin_game`, :meth:`resume_game` or :meth:`await_setup`."""
        if game.setups is None or lineup != OWN_SETUPS:
            game.check_lineup(lineup)  # raises early for an unknown lineup
        self.game = game
        self.board = board = game.board
        self.settings = settings
        self.timing = settings.timing
        occupied = set(occupied)
        for cell in occupied:
            board.check_cell(cell)
        self.sensors = SensorFilter(board.cells, occupied, self.timing, now)
        self.evidence = CaptureEvidence(self.sensors, self.timing)
        self.set_state = SetState.new(settings.first_starter, lineup)
        """Where the set stands (replaced whole, never changed in place)."""
        self.position: Position | None = None
        self.computers = settings.computers
        self.phase: Phase = self._setup_phase()
        self.last_change = now  # of any reading: the nest is still since then
        self._decide_at: int | None = None  # when the phase decides next, if nothing changes
        self._before_game_over = self.set_state  # for a take back
        self._outcome: Outcome | None = None  # of the last game, once it ended
        self._computer_move: Move | None = None  # chosen for this turn, not yet made
        self._recorded: list[str] = []  # the record's positions of the last call (recorded_positions)

    def recorded_positions(self) -> tuple[str, ...]:
        """For the record alone: the position after each :class:`GameStarted` and
        :class:`MoveAccepted` among the signals the last call returned, in their order,
        in the game's own notation (:meth:`Position.to_text`, every hidden rank of the
        battle game in it). Never broadcast: the signals carry only the public view."""
        return tuple(self._recorded)

    @property
    def mode(self) -> Mode:
        if isinstance(self.phase, Turn):
            return Mode.PLAYING
        return Mode.CORRECTING if isinstance(self.phase, Correction) else Mode.SETUP

    @property
    def computer_move(self) -> Move | None:
        """The computer's move this turn, chosen and not yet made on the nest."""
        return self._computer_move

    def next_deadline(self) -> int | None:
        """When the referee next needs :meth:`tick`, or None if only a change can move
        it on."""
        times = [self.sensors.next_deadline(), self._decide_at, self.phase.deadline()]
        return min((time for time in times if time is not None), default=None)

    # -- time ---------------------------------------------------------------------------

    def _catch_up(self, now: int) -> list[Signal]:
        """A call begins at ``now``: the last call's record is dropped
        (:meth:`recorded_positions`), and everything due until now is decided."""
        self._recorded = []
        return self._advance(now)

    def _advance(self, now: int) -> list[Signal]:
        """Everything due up to ``now``, in time order."""
        signals: list[Signal] = []
        while (due := self.next_deadline()) is not None and due <= now:
            for event in self.sensors.advance(due):
                signals += self._on_sensor_event(event, due)
            if self._decide_at is not None and self._decide_at <= due:
                self._decide_at = None
                signals += self._apply(self.phase.on_quiet(due), due)
            deadline = self.phase.deadline()
            if deadline is not None and deadline <= due:
                signals += self._apply(self.phase.on_deadline(due), due)
        return signals

    def _on_sensor_event(self, event: SensorEvent, now: int) -> list[Signal]:
        signals: list[Signal] = []
        if isinstance(event, FaultFound):
            signals.append(SensorFault(event.cell, event.problem))
        elif isinstance(event, FaultCleared):
            signals.append(SensorRecovered(event.cell))
        at = event.at if isinstance(event, CellChanged | Touched | Steadied) else now
        self.last_change = max(self.last_change, at)
        self._decide_at = self.last_change + self.timing.settle_ms  # waiting starts again
        if isinstance(event, Touched):
            return signals  # raw activity: the nest is not still; decided once it is
        # (A glitch that ended, Steadied, may have been the flicker that proves a capture.)
        cell, settled = event.cell, not isinstance(event, Steadied)
        decisions = self.phase.on_change(at, cell, settled=settled)
        return signals + self._apply(decisions, at, (cell, settled)) if decisions else signals  # mostly nothing

    def _decide_by(self, moment: int) -> None:
        """Have the phase decide again no later than ``moment`` (sooner if it asked to)."""
        if self._decide_at is None or moment < self._decide_at:
            self._decide_at = moment

    # -- applying what the phases decide ------------------------------------------------

    def _apply(self, decisions: Decisions, at: int, change: tuple[str, bool] | None = None) -> list[Signal]:
        """Carry out the phase's ``decisions`` (taken at ``at``, on ``change``: the cell
        and whether it settled, if a change was read), in order: the signals they make."""
        signals: list[Signal] = []
        for decision in decisions:
            if isinstance(decision, WaitUntil):
                self._decide_by(decision.moment)
            elif isinstance(decision, Ask):
                signals.append(MoveQuestion(decision.options))
            elif isinstance(decision, CloseQuestion):
                signals.append(QuestionClosed())
            elif isinstance(decision, Commit):
                signals += self._apply_commit(decision, at, change)
            elif isinstance(decision, Correct):
                if decision.refused is not None:
                    signals.append(decision.refused)
                signals += self._enter_correction(decision.cause, at, decision.steps)
            elif isinstance(decision, GoOn):
                signals += self._resume_turn(at)
            elif isinstance(decision, DeclareStuck):
                signals += self._declare_stuck(decision.cell, at)
            elif isinstance(decision, StartGame):
                state = self.set_state
                signals += self._started(self.game.start(state.lineup, state.starter), at)
            elif isinstance(decision, StartFromSetups):
                setups = self.game.setups
                assert setups is not None
                start = setups.start_from_setups(decision.red, decision.blue, self.set_state.starter)
                signals += self._started(start, at)
            else:
                signals.append(decision)  # a signal, said as it is
        return signals

    def _apply_commit(self, decision: Commit, at: int, change: tuple[str, bool] | None) -> list[Signal]:
        then = decision.then
        signals = self._commit(decision.move, at, announce=then is not Then.PUT_STRAYS_RIGHT, proven=decision.proven)
        if then is Then.PUT_STRAYS_RIGHT:
            signals += self._after_strays(at)
        elif then is Then.DECIDE_NOW:  # the phase just begun decides at once: the nest has been still
            signals += self._apply(self.phase.on_quiet(at), at)
        elif then is Then.DECIDE_SOON:
            self._decide_at = at
        elif then is Then.PASS_CHANGE_ON:
            assert change is not None
            cell, settled = change
            signals += self._apply(self.phase.on_change(at, cell, settled=settled), at, change)
        return signals

    # -- what the phases share ----------------------------------------------------------

    def observation(self) -> Observation:
        """What the sensors say now, for the tracker."""
        return self.evidence.observation()

    def _mismatch(self, view: TurnView) -> bool:
        lifted, placed = view.difference(self.sensors.settled, self.sensors.faulty.keys())
        return bool(lifted or placed)

    def _commit(self, move: Move, at: int, *, announce: bool = True, proven: bool = True) -> list[Signal]:
        """Play ``move``, one the turn read; ``proven`` is False for a capture the
        sensors never saw, which used up no flicker on its target."""
        position, phase = self.position, self.phase
        assert position is not None and isinstance(phase, Turn)
        view, side = phase.view, position.turn
        if move.is_capture and move.target is not None and move.origin is not None and proven:
            self.evidence.spend(move.origin, move.target)
        played = position.push(move, lenient=self.settings.lenient)
        signals: list[Signal] = self._close_question()
        signals.append(self._accepted(played, side, position))
        if view.compulsory and not played.is_capture:
            signals.append(MissedCapture(played, view.compulsory))
        outcome = position.outcome()
        if outcome is not None:
            return signals + self._end_game(outcome, at)
        # The next turn began no earlier than this move did (a fast reply may be under
        # way already, and a later move may have slid across the cell it left since).
        began = min((self.sensors.last_left[cell] for cell in view.footprints[move].empties), default=at)
        return signals + self._start_turn(at, announce=announce, began=began)

    def _after_strays(self, at: int) -> list[Signal]:
        """After a move committed with pieces still out of place: have them put right."""
        if not isinstance(self.phase, Turn):
            return []
        if self._mismatch(self.phase.view):
            return self._enter_correction(CorrectionCause.DISTURBED, at)
        return self._turn_signal()

    def _enter_correction(
        self, cause: CorrectionCause, at: int, steps: tuple[FixStep, ...] | None = None
    ) -> list[Signal]:
        assert isinstance(self.phase, Turn | Correction)
        self.phase = Correction(self, self.phase.view, cause, at, steps)
        return self._apply(self.phase.start(), at)

    def _resume_turn(self, at: int) -> list[Signal]:
        """The nest matches the game again (or for a piece in the air): the turn goes
        on, announced afresh, and decided anew."""
        assert self.position is not None
        self._decide_at = at
        return self._renew_turn(self.position, began=at)

    def _declare_stuck(self, cell: str, at: int) -> list[Signal]:
        fault = self.sensors.mark_stuck(cell)
        self._decide_at = at  # decide at once: the nest may match now
        return [SensorFault(fault.cell, fault.problem)]

    def _started(self, position: Position, at: int) -> list[Signal]:
        """The game set up starts from ``position`` (the nest shows it)."""
        state = self.set_state
        self.position = position
        signals: list[Signal] = [
            GameStarted(
                state.number,
                self._lineup_played,
                state.starter,
                public_view(self.game, position),
                new_set=not state.started,
            )
        ]
        self._recorded.append(position.to_text())
        self.set_state = replace(state, started=True)
        return signals + self._start_turn(at)

    @property
    def _lineup_played(self) -> str:
        """The lineup the record names for a game started now."""
        return OWN_SETUPS if self.game.setups is not None else self.set_state.lineup

    def _accepted(self, move: Move, side: Side, position: Position) -> MoveAccepted:
        self._recorded.append(position.to_text())
        return MoveAccepted(move, side, len(position.move_stack), public_view(self.game, position))

    # -- turns --------------------------------------------------------------------------

    def _start_turn(
        self,
        at: int,
        *,
        announce: bool = True,
        correct: CorrectionCause | None = None,
        steps: tuple[FixStep, ...] | None = None,
        view: TurnView | None = None,
        began: int | None = None,
    ) -> list[Signal]:
        """Begin the turn of the side to move in :attr:`position`; a side with no legal
        move passes at once. With ``correct``, a nest that does not show the position
        is put right first, for that cause (with the plan ``steps``, if given)."""
        position = self.position
        assert position is not None
        self._computer_move = None
        signals: list[Signal] = []
        moves = position.legal_moves()
        if len(moves) == 1 and moves[0].is_pass:
            side, passing = position.turn, moves[0]
            position.push(passing)
            signals.append(self._accepted(passing, side, position))
            view = None
        view = view if view is not None else self._turn_view(position)
        self.phase = Turn(self, view, began=at if began is None else began)
        if correct is not None and self._mismatch(self.phase.view):
            return signals + self._enter_correction(correct, at, steps)
        return signals + (self._turn_signal() if announce else [])

    def _renew_turn(self, position: Position, *, announce: bool = True, began: int | None = None) -> list[Signal]:
        """The same turn, read afresh (whom the computer plays changed, or its move was
        chosen, or the nest was put right at ``began``)."""
        signals = self._close_question()
        if began is None:
            began = self.phase.began if isinstance(self.phase, Turn) else self.last_change
        self.phase = Turn(self, self._turn_view(position), began=began)
        return signals + (self._turn_signal() if announce else [])

    def _turn_view(self, position: Position) -> TurnView:
        """The view of the turn in ``position``: against the computer, only its move."""
        only = None
        if position.turn in self.computers:
            only = (self._computer_move,) if self._computer_move is not None else ()
        return TurnView(position, lenient=self.settings.lenient, only=only)

    def _turn_signal(self) -> list[Signal]:
        assert isinstance(self.phase, Turn)
        view = self.phase.view
        ply = len(view.position.move_stack)
        signals: list[Signal] = [TurnStarted(view.side, ply, view.compulsory, by_computer=view.side in self.computers)]
        if self._computer_move is not None:
            signals.append(ComputerMove(self._computer_move, view.side, ply))
        return signals

    def _close_question(self) -> list[Signal]:
        phase = self.phase
        if isinstance(phase, Turn) and phase.question is not None:
            phase.question = None
            return [QuestionClosed()]
        return []

    # -- between games ------------------------------------------------------------------

    def _end_game(self, outcome: Outcome, at: int) -> list[Signal]:
        closing = self._close_question()
        state = self._before_game_over = self.set_state
        self._outcome = outcome
        games = state.games.record(outcome)
        signals: list[Signal] = [*closing, GameOver(outcome, games.score, games.winner)]
        self.set_state = state.after(outcome, first_starter=self.settings.first_starter)
        self.phase = self._setup_phase()
        self._decide_at = at + self.timing.settle_ms  # the nest may show the lineup already
        return signals + self._apply(self.phase.on_change(at), at)

    def _enter_setup(self, now: int) -> list[Signal]:
        if not isinstance(self.phase, PlayersSetup):  # set-ups given stay given: who starts may change
            self.phase = self._setup_phase()
        signals = self._apply(self.phase.on_change(now), now)
        return signals + self._apply(self.phase.on_quiet(now), now)

    def _setup_phase(self) -> Setup | PlayersSetup:
        """A fresh phase between games: the players' own set-ups for a game that has
        them, else the lineup read off the nest."""
        setups = self.game.setups
        return PlayersSetup(self, setups) if setups is not None else Setup(self)
