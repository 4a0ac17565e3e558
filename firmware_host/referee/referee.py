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
nest is put right. A phase decides once the nest has been still for ``settle_ms``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from firmware_host.errors import NestrefError
from firmware_host.games.base import (
    OWN_SETUPS,
    Game,
    GameSet,
    Move,
    Outcome,
    Position,
    Side,
    capture_announcer,
    players_set_up,
    public_text,
)
from firmware_host.referee.correction import Correction, undo_capture
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
from firmware_host.referee.setup import Setup
from firmware_host.referee.signals import (
    ComputerMove,
    CorrectionCause,
    FixStep,
    GameAbandoned,
    GameOver,
    GameStarted,
    MissedCapture,
    MoveAccepted,
    QuestionClosed,
    SensorFault,
    SensorRecovered,
    Signal,
    TakenBack,
    TurnStarted,
)
from firmware_host.referee.tracker import Observation, TurnView
from firmware_host.referee.turn import Turn


class CommandError(NestrefError, ValueError):
    """A control that does not apply now, such as taking back when no move was made."""


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


class Referee:
    """Referees the games of a set on one board; see the module documentation."""

    def __init__(self, game: Game, *, settings: Settings, lineup: str, occupied: Iterable[str], now: int) -> None:
        """A referee for ``game`` on its board, whose set is played from ``lineup``, with
        the board's sensors reading ``occupied`` at ``now``. Start it with
        :meth:`begin_game`, :meth:`resume_game` or :meth:`await_setup`."""
        self.hiding = players_set_up(game)
        """The game as one whose players set up privately, if it is one: its set-ups come
        from the players' screens (:meth:`give_setup`, :meth:`guide_setup`)."""
        if self.hiding is None or lineup != OWN_SETUPS:
            game.check_lineup(lineup)  # raises early for an unknown lineup
        self.announcer = capture_announcer(game)
        """The game as one whose captures the referee announces (the battle game's
        strikes), if it is one."""
        self.game = game
        self.board = board = game.board
        self.settings = settings
        self.timing = settings.timing
        self.lineup = lineup
        occupied = set(occupied)
        for cell in occupied:
            board.check_cell(cell)
        self.sensors = SensorFilter(board.cells, occupied, self.timing, now)
        self.evidence = CaptureEvidence(self.sensors, self.timing)
        self.games = GameSet(first_starter=settings.first_starter)
        self.number = 1  # of the game being played, or set up next
        self.starter = settings.first_starter  # of that game
        self.position: Position | None = None
        self.computers = settings.computers
        self.phase: Phase = self._setup_phase()
        self.last_change = now  # of any reading: the nest is still since then
        self._decide_at: int | None = None  # when the phase decides next, if nothing changes
        self._before_game_over = (self.games, self.number, self.starter)  # for a take back
        self._outcome: Outcome | None = None  # of the last game, once it ended
        self._set_started = False  # whether a game of the set in self.games has started
        self._computer_move: Move | None = None  # chosen for this turn, not yet made

    # -- what the referee is doing ----------------------------------------------------

    @property
    def mode(self) -> Mode:
        if isinstance(self.phase, Turn):
            return Mode.PLAYING
        return Mode.CORRECTING if isinstance(self.phase, Correction) else Mode.SETUP

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
    def computer_move(self) -> Move | None:
        """The computer's move this turn, chosen and not yet made on the nest."""
        return self._computer_move

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
        self.games = games if games is not None else GameSet(first_starter=position.turn)
        self.number, self.starter, self.position = number, position.turn, position
        signals: list[Signal] = [
            GameStarted(
                number,
                self._lineup_played,
                position.turn,
                position.to_text(),
                new_set=games is None,
                public_position=public_text(self.game, position),
            )
        ]
        self._set_started = True
        outcome = position.outcome()
        if outcome is not None:  # a position already decided
            return signals + self._end_game(outcome, now)
        return signals + self._start_turn(now, correct=CorrectionCause.DISTURBED)

    def resume_game(self, position: Position, *, games: GameSet, number: int, starter: Side, now: int) -> list[Signal]:
        """Go on with a game interrupted at ``position`` (with its moves made): if the
        nest no longer matches it, the players are first guided to put it right."""
        if position.outcome() is not None:
            raise ValueError("a finished game cannot be resumed: set up the next one")
        self.games, self.number, self.starter, self.position = games, number, starter, position
        self._set_started = True
        return self._start_turn(now, correct=CorrectionCause.RESUMED)

    def await_setup(self, *, now: int, games: GameSet | None = None, number: int = 1) -> list[Signal]:
        """Wait for the nest to show the set's lineup; the game starts by itself."""
        self.games = games if games is not None else GameSet(first_starter=self.settings.first_starter)
        self._set_started = games is not None
        self.number, self.starter = number, self.games.next_starter
        self.position, self._computer_move = None, None
        return self._enter_setup(now)

    # -- inputs -----------------------------------------------------------------------

    def sense(self, cell: str, occupied: bool, now: int) -> list[Signal]:
        """One raw sensor reading of ``cell`` at ``now`` (times must not go back)."""
        self.board.check_cell(cell)
        signals = self._advance(now)
        for event in self.sensors.read(cell, occupied, now):
            signals += self._on_sensor_event(event, now)
        return signals

    def tick(self, now: int) -> list[Signal]:
        """Let time pass to ``now`` with the nest unchanged."""
        return self._advance(now)

    def next_deadline(self) -> int | None:
        """When the referee next needs :meth:`tick`, or None if only a change can move
        it on."""
        times = [self.sensors.next_deadline(), self._decide_at, self.phase.deadline()]
        return min((time for time in times if time is not None), default=None)

    # -- commands (buttons, the web page) -----------------------------------------------

    def take_back(self, now: int) -> list[Signal]:
        """Take back the last move (and the passes after it); the players are guided to
        put the nest back. Raises :class:`CommandError` if there is none."""
        signals = self._advance(now) + self._commit_provisional(now)
        position = self.position
        if position is None or not _has_move(position):
            raise CommandError("there is no move to take back")
        if self.mode is Mode.SETUP:  # the game had ended: it is open again
            self.games, self.number, self.starter = self._before_game_over
            self._set_started = True
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
        signals = self._advance(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        return signals + self._end_game(self.game.resignation(side), now)

    def agree_draw(self, now: int) -> list[Signal]:
        """The players agreed a draw (at a distance: a draw offered and accepted through
        the link); it counts as a drawn game of the set. Raises :class:`CommandError` if
        no game is on."""
        signals = self._advance(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        return signals + self._end_game(self.game.agreed_draw(), now)

    def flag_fell(self, side: Side, now: int) -> list[Signal]:
        """``side``'s clock ran out: it loses on time (what waits to be decided is
        decided first: a move made before the flag fell stands). Raises
        :class:`CommandError` if no game is on."""
        signals = self._advance(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        if self.position.outcome() is not None:
            return signals  # the game ended by the rules first
        return signals + self._end_game(self.game.time_loss(side), now)

    def new_game(self, now: int) -> list[Signal]:
        """Stop the game being played, if any (it does not count), and wait for the nest
        to be set up for a new one."""
        signals = self._advance(now)
        if self.mode is not Mode.SETUP:
            signals.append(GameAbandoned(self.number))
        signals += self._close_question()
        self.position, self._computer_move = None, None
        return signals + self._enter_setup(now)

    def choose_setup(self, *, now: int, starter: Side | None = None, lineup: str | None = None) -> list[Signal]:
        """Before the first game of a set: who starts it, and from which lineup. Raises
        :class:`CommandError` once the set is under way."""
        signals = self._advance(now)
        if self.mode is not Mode.SETUP or self._set_started:
            raise CommandError("the starting side and the lineup are chosen before a set begins")
        if lineup is not None:
            self.lineup = self.game.check_lineup(lineup)
        if starter is not None:
            self.games, self.starter = GameSet(first_starter=starter), starter
        return signals + self._enter_setup(now)

    # -- the players' own set-ups (a game that hides pieces) --------------------------

    def give_setup(self, setup: object, now: int) -> list[Signal]:
        """A whole set-up from its player's screen (the game's own value, read and
        checked by its ``read_setup``) is its side's for the next game; the nest must
        show its cells. Raises :class:`CommandError` unless the referee waits for the
        players' own set-ups."""
        signals = self._advance(now)
        phase = self._players_setup()
        return signals + phase.give(setup) + self._decide_soon(now)

    def guide_setup(self, side: Side, now: int) -> list[Signal]:
        """``side`` places its pieces one at a time, as its own screen asks
        (:meth:`placement_prompt`): the cell of its rows that fills next holds the piece
        asked for. Raises :class:`CommandError` as :meth:`give_setup` does."""
        signals = self._advance(now)
        phase = self._players_setup()
        return signals + phase.guide(side) + self._decide_soon(now)

    def clear_setup(self, side: Side, now: int) -> list[Signal]:
        """``side``'s set-up, given or being placed, is withdrawn. Raises
        :class:`CommandError` as :meth:`give_setup` does."""
        signals = self._advance(now)
        return signals + self._players_setup().clear(side) + self._decide_soon(now)

    def placement_prompt(self, side: Side) -> str | None:
        """What ``side``'s own screen asks for while it places its pieces one at a time,
        None otherwise. Private: it names the piece asked for; never on a shared screen."""
        phase = self.phase
        return phase.prompt(side) if isinstance(phase, PlayersSetup) else None

    def _players_setup(self) -> PlayersSetup:
        phase = self.phase
        if not isinstance(phase, PlayersSetup):
            if self.hiding is None:
                raise CommandError(f"{self.game.title} starts from a lineup on the nest, not from the players' set-ups")
            raise CommandError("set-ups are given between games, not while one is played")
        return phase

    def _decide_soon(self, now: int) -> list[Signal]:
        """The nest may show what was just given already: decide once it is still."""
        self.decide_by(max(now, self.last_change + self.timing.settle_ms))
        return []

    def set_computers(self, sides: Iterable[Side], now: int) -> list[Signal]:
        """The computer plays ``sides`` from now on (none: people play both). A change
        for the side to move applies to the turn under way: it is announced again."""
        signals = self._advance(now)
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
        signals = self._advance(now)
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
        signals = self._advance(now)
        phase = self.phase
        if not isinstance(phase, Turn) or phase.question is None or move not in phase.question:
            raise CommandError(f"{move} does not answer an open question")
        return signals + phase.answer(move, now)

    def _commit_provisional(self, now: int) -> list[Signal]:
        """A move the nest shows, still provisional when a control is pressed, stands:
        the player pressing "take back" means that move."""
        move = self.phase.shown_move() if isinstance(self.phase, Turn) else None
        return self.commit(move, now) if move is not None else []

    # -- time ---------------------------------------------------------------------------

    def _advance(self, now: int) -> list[Signal]:
        """Everything due up to ``now``, in time order."""
        signals: list[Signal] = []
        while (due := self.next_deadline()) is not None and due <= now:
            for event in self.sensors.advance(due):
                signals += self._on_sensor_event(event, due)
            if self._decide_at is not None and self._decide_at <= due:
                self._decide_at = None
                signals += self.phase.on_quiet(due)
            deadline = self.phase.deadline()
            if deadline is not None and deadline <= due:
                signals += self.phase.on_deadline(due)
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
        return signals + self.phase.on_change(at, event.cell, settled=not isinstance(event, Steadied))

    def decide_at(self, moment: int) -> None:
        """Have the phase decide again at ``moment``, unless the nest changes before."""
        self._decide_at = moment

    def decide_by(self, moment: int) -> None:
        """Have the phase decide again no later than ``moment`` (sooner if it asked to)."""
        if self._decide_at is None or moment < self._decide_at:
            self._decide_at = moment

    def decide_now(self, at: int) -> list[Signal]:
        """The phase just begun decides at once: the nest has been still."""
        return self.phase.on_quiet(at)

    # -- what the phases share ----------------------------------------------------------

    def observation(self) -> Observation:
        """What the sensors say now, for the tracker."""
        return self.evidence.observation()

    def _mismatch(self, view: TurnView) -> bool:
        lifted, placed = view.difference(self.sensors.settled, self.sensors.faulty.keys())
        return bool(lifted or placed)

    def commit(self, move: Move, at: int, *, announce: bool = True, proven: bool = True) -> list[Signal]:
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

    def after_strays(self, at: int) -> list[Signal]:
        """After a move committed with pieces still out of place: have them put right."""
        if not isinstance(self.phase, Turn):
            return []
        if self._mismatch(self.phase.view):
            return self.enter_correction(CorrectionCause.DISTURBED, at)
        return self._turn_signal()

    def enter_correction(
        self, cause: CorrectionCause, at: int, steps: tuple[FixStep, ...] | None = None
    ) -> list[Signal]:
        assert isinstance(self.phase, Turn | Correction)
        self.phase = Correction(self, self.phase.view, cause, at, steps)
        return self.phase.start()

    def resume_turn(self, at: int) -> list[Signal]:
        """The nest matches the game again (or for a piece in the air): the turn goes
        on, announced afresh, and decided anew."""
        assert self.position is not None
        self._decide_at = at
        return self._renew_turn(self.position, began=at)

    def declare_stuck(self, cell: str, at: int) -> list[Signal]:
        fault = self.sensors.mark_stuck(cell)
        self._decide_at = at  # decide at once: the nest may match now
        return [SensorFault(fault.cell, fault.problem)]

    def start_next_game(self, at: int) -> list[Signal]:
        """The nest shows the lineup: the game set up starts."""
        return self._started(self.game.start(self.lineup, self.starter), at)

    def start_from_setups(self, red: object, blue: object, at: int) -> list[Signal]:
        """Both sides' own set-ups are given and the nest shows them: the game starts."""
        assert self.hiding is not None
        return self._started(self.hiding.start_from_setups(red, blue, self.starter), at)

    def _started(self, position: Position, at: int) -> list[Signal]:
        self.position = position
        signals: list[Signal] = [
            GameStarted(
                self.number,
                self._lineup_played,
                self.starter,
                position.to_text(),
                new_set=not self._set_started,
                public_position=public_text(self.game, position),
            )
        ]
        self._set_started = True
        return signals + self._start_turn(at)

    @property
    def _lineup_played(self) -> str:
        """The lineup the record names for a game started now."""
        return OWN_SETUPS if self.hiding is not None else self.lineup

    def _accepted(self, move: Move, side: Side, position: Position) -> MoveAccepted:
        ply = len(position.move_stack)
        return MoveAccepted(move, side, ply, position.to_text(), public_position=public_text(self.game, position))

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
            return signals + self.enter_correction(correct, at, steps)
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
        self._before_game_over = (self.games, self.number, self.starter)
        self._outcome = outcome
        games = self.games.record(outcome)
        signals: list[Signal] = [*closing, GameOver(outcome, games.score, games.winner)]
        if games.is_over():
            self.games, self.number = GameSet(first_starter=self.settings.first_starter), 1
            self._set_started = False
        else:
            self.games, self.number = games, self.number + 1
        self.starter = self.games.next_starter
        self.phase = self._setup_phase()
        self._decide_at = at + self.timing.settle_ms  # the nest may show the lineup already
        return signals + self.phase.on_change(at)

    def _enter_setup(self, now: int) -> list[Signal]:
        if not isinstance(self.phase, PlayersSetup):  # set-ups given stay given: who starts may change
            self.phase = self._setup_phase()
        return self.phase.on_change(now) + self.phase.on_quiet(now)

    def _setup_phase(self) -> Setup | PlayersSetup:
        """A fresh phase between games: the players' own set-ups for a game that has
        them, else the lineup read off the nest."""
        return PlayersSetup(self, self.hiding) if self.hiding is not None else Setup(self)


def _has_move(position: Position) -> bool:
    """Whether ``position`` has a move made in it to take back (passes aside)."""
    return any(not move.is_pass for move in position.move_stack)
