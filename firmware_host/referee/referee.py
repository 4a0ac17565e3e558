"""The referee: reed-switch changes in, refereed moves and signals out.

Pure code with no I/O and no clock: every input carries the time it happened, in
milliseconds, and returns the signals it caused. ``next_deadline()`` says when the
referee next wants ``tick()`` even if the nest stays still (a move settling, a
debounce ending). ``docs/referee.md`` describes the states and the signals.

How a move is recognised (see also :mod:`firmware_host.referee.tracker`):

- Every settled change is compared with the position: a finished legal move becomes the
  *candidate*. The candidate is committed once the nest has been still for
  ``settle_ms`` (``extend_ms`` if the piece could still slide on), or as soon as the
  nest shows the other side starting its move while it cannot be the mover's move any
  more. So the opponent's turn never starts on a move that is still provisional, and a
  fast reply is not lost.
- When the nest is still but shows no legal move: pieces in the air that the mover may
  lift are a move under way; anything else is refused, with the rule it breaks, and the
  players are guided, one piece at a time, until the nest matches again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field
from enum import Enum

from firmware_host.errors import NestrefError
from firmware_host.referee.correction import plan_correction
from firmware_host.referee.sensing import (
    LONG_AGO,
    CellChanged,
    FaultCleared,
    FaultFound,
    SensorEvent,
    SensorFilter,
    Steadied,
    Timing,
    Touched,
)
from firmware_host.referee.signals import (
    ComputerMove,
    Corrected,
    CorrectionCause,
    CorrectionNeeded,
    FixKind,
    FixStep,
    GameAbandoned,
    GameOver,
    GameStarted,
    MissedCapture,
    MoveAccepted,
    MoveQuestion,
    MoveRefused,
    QuestionClosed,
    SensorFault,
    SensorRecovered,
    SetupNeeded,
    Signal,
    TakenBack,
    TurnStarted,
)
from firmware_host.referee.tracker import TurnView
from firmware_host.rules import PASS, GameSet, Move, Nest, Outcome, Piece, Position, Rule, Side


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
    """``rules.md`` §5: accept a step that misses a compulsory capture, with a warning."""
    first_starter: Side = Side.RED
    """Who starts the first game of a new set."""
    computers: frozenset[Side] = frozenset()
    """The sides the computer plays: on their turns only the computer's move is accepted."""


class Referee:
    """Referees the games of a set on one nest; see the module documentation."""

    def __init__(self, nest: Nest, *, settings: Settings, lineup: str, occupied: Iterable[str], now: int) -> None:
        """A referee for ``nest``, whose set is played from ``lineup``, with the nest's
        sensors reading ``occupied`` at ``now``. Start it with :meth:`begin_game`,
        :meth:`resume_game` or :meth:`await_setup`."""
        nest.lineup(lineup)  # raises early for an unknown lineup
        self.nest = nest
        self.settings = settings
        self.timing = settings.timing
        self.lineup = lineup
        occupied = set(occupied)
        for cell in occupied:
            nest.check_cell(cell)
        self.sensors = SensorFilter(nest.cells, occupied, self.timing, now)
        self.mode = Mode.SETUP
        self.games = GameSet(first_starter=settings.first_starter)
        self.number = 1  # of the game being played, or set up next
        self.starter = settings.first_starter  # of that game
        self.position: Position | None = None
        self._view: TurnView | None = None
        self._candidate: Move | None = None
        self._candidate_seen = now  # when the nest first showed the candidate
        self._question: tuple[Move, ...] | None = None
        self._last_change = now
        self._quiet_at: int | None = None
        self._correction = CorrectionCause.DISTURBED
        self._alone: tuple[str, int] | None = None
        self._plan: tuple[FixStep, ...] = ()
        self._setup_shown: SetupNeeded | None = None
        self._before_game_over = (self.games, self.number, self.starter)  # for a take back
        self._outcome: Outcome | None = None  # of the last game, once it ended
        self._proof_used: dict[str, int] = {}  # cell: when a capture's piece landed there
        self._set_started = False  # whether a game of the set in self.games has started
        self.computers = settings.computers
        self._computer_move: Move | None = None  # chosen for this turn, not yet made

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
        return self.mode is Mode.PLAYING and self._mismatch()

    # -- starting ---------------------------------------------------------------------

    def begin_game(
        self, position: Position, *, now: int, games: GameSet | None = None, number: int = 1
    ) -> list[Signal]:
        """Start a game from ``position`` at once (the nest is taken to show it); by
        default the first game of a new set that ``position``'s side to move starts."""
        self.games = games if games is not None else GameSet(first_starter=position.turn)
        self.number, self.starter, self.position = number, position.turn, position
        signals: list[Signal] = [
            GameStarted(number, self.lineup, position.turn, position.to_nfn(), new_set=games is None)
        ]
        self._set_started = True
        outcome = position.outcome()
        if outcome is not None:  # a position already decided
            return signals + self._end_game(outcome, now)
        signals += self._start_turn(now)
        if self._mismatch():
            return signals + self._enter_correction(CorrectionCause.DISTURBED, now)
        return signals + self._turn_signal()

    def resume_game(self, position: Position, *, games: GameSet, number: int, starter: Side, now: int) -> list[Signal]:
        """Go on with a game interrupted at ``position`` (with its moves made): if the
        nest no longer matches it, the players are first guided to put it right."""
        if position.outcome() is not None:
            raise ValueError("a finished game cannot be resumed: set up the next one")
        self.games, self.number, self.starter, self.position = games, number, starter, position
        self._set_started = True
        signals = self._start_turn(now)
        if self._mismatch():
            return signals + self._enter_correction(CorrectionCause.RESUMED, now)
        return signals + self._turn_signal()

    def await_setup(self, *, now: int, games: GameSet | None = None, number: int = 1) -> list[Signal]:
        """Wait for the nest to show the set's lineup; the game starts by itself."""
        self.games = games if games is not None else GameSet(first_starter=self.settings.first_starter)
        self._set_started = games is not None
        self.number, self.starter = number, self.games.next_starter
        self.mode, self.position, self._view = Mode.SETUP, None, None
        self._setup_shown, self._computer_move = None, None
        return self._show_setup() + self._on_quiet(now)

    # -- inputs -----------------------------------------------------------------------

    def sense(self, cell: str, occupied: bool, now: int) -> list[Signal]:
        """One raw sensor reading of ``cell`` at ``now`` (times must not go back)."""
        self.nest.check_cell(cell)
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
        times = [self.sensors.next_deadline(), self._quiet_at, self._stuck_deadline()]
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
        showed_it = self._view is not None and not self._mismatch()
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
        signals += self._start_turn(now)
        if not self._mismatch():
            return signals + self._turn_signal()
        # The nest showing the capture made: it is undone exactly, capturer first.
        single_capture = taken == 1 and move.is_capture
        steps = _undo_capture(move, position.pieces()) if showed_it and single_capture else None
        return signals + self._enter_correction(CorrectionCause.TAKE_BACK, now, steps)

    def resign(self, side: Side, now: int) -> list[Signal]:
        """``side`` gives the game up. Raises :class:`CommandError` if no game is on."""
        signals = self._advance(now) + self._commit_provisional(now)
        if self.mode is Mode.SETUP or self.position is None:
            raise CommandError("no game is being played")
        return signals + self._end_game(Outcome(side.opponent, None), now)

    def new_game(self, now: int) -> list[Signal]:
        """Stop the game being played, if any (it does not count), and wait for the nest
        to be set up for a new one."""
        signals = self._advance(now)
        if self.mode is not Mode.SETUP:
            signals.append(GameAbandoned(self.number))
        if self._question is not None:
            signals.append(QuestionClosed())
        self.mode, self.position, self._view = Mode.SETUP, None, None
        self._setup_shown, self._question, self._candidate = None, None, None
        self._computer_move = None
        return signals + self._show_setup() + self._on_quiet(now)

    def choose_setup(self, *, now: int, starter: Side | None = None, lineup: str | None = None) -> list[Signal]:
        """Before the first game of a set: who starts it, and from which lineup. Raises
        :class:`CommandError` once the set is under way."""
        signals = self._advance(now)
        if self.mode is not Mode.SETUP or self._set_started:
            raise CommandError("the starting side and the lineup are chosen before a set begins")
        if lineup is not None:
            self.nest.lineup(lineup)
            self.lineup = lineup
        if starter is not None:
            self.games, self.starter = GameSet(first_starter=starter), starter
        self._setup_shown = None
        return signals + self._show_setup() + self._on_quiet(now)

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
        self._view = self._turn_view(position)
        self._candidate = None
        if self._question is not None:
            self._question = None
            signals.append(QuestionClosed())
        return signals + (self._turn_signal() if self.mode is Mode.PLAYING else [])

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
            raise CommandError(f"{move} is not a legal move in {position.to_nfn()}")
        # (Never a pass: a side that can only pass passes at once, in _start_turn.)
        self._computer_move = legal[legal.index(move)]
        self._view = self._turn_view(position)
        self._candidate = None
        shown = ComputerMove(self._computer_move, position.turn, len(position.move_stack))
        return [*signals, shown]

    def answer(self, move: Move, now: int) -> list[Signal]:
        """The player says which move of a :class:`MoveQuestion` was made."""
        signals = self._advance(now)
        if self.mode is not Mode.PLAYING or self._question is None or move not in self._question:
            raise CommandError(f"{move} does not answer an open question")
        return signals + self._commit(move, now)

    def _commit_provisional(self, now: int) -> list[Signal]:
        """A move the nest shows, still provisional when a control is pressed, stands:
        the player pressing "take back" means that move."""
        if self.mode is not Mode.PLAYING or self._candidate is None:
            return []
        matches = self._current_view().matches(self._occupied, self._ignored, self._evidence)
        if [(match.move, match.is_certain) for match in matches] != [(self._candidate, True)]:
            return []
        return self._commit(self._candidate, now)

    # -- time ---------------------------------------------------------------------------

    def _advance(self, now: int) -> list[Signal]:
        """Everything due up to ``now``, in time order."""
        signals: list[Signal] = []
        while (due := self.next_deadline()) is not None and due <= now:
            for event in self.sensors.advance(due):
                signals += self._on_sensor_event(event, due)
            if self._quiet_at is not None and self._quiet_at <= due:
                self._quiet_at = None
                signals += self._on_quiet(due)
            stuck = self._stuck_deadline()
            if stuck is not None and stuck <= due:
                signals += self._declare_stuck(due)
        return signals

    def _on_sensor_event(self, event: SensorEvent, now: int) -> list[Signal]:
        if isinstance(event, Touched | Steadied):
            if isinstance(event, Touched):  # raw activity: decide only once the nest is still again
                self._last_change = max(self._last_change, event.at)
                self._quiet_at = self._last_change + self.timing.settle_ms  # waiting starts again
            # A capture's evidence may be such a flicker, too brief to settle; a glitch
            # that ended (Steadied) may have proved one.
            return self._on_change(event.at, event.cell, settled=False) if self.mode is Mode.PLAYING else []
        signals: list[Signal] = []
        if isinstance(event, FaultFound):
            signals.append(SensorFault(event.cell, event.problem))
        elif isinstance(event, FaultCleared):
            signals.append(SensorRecovered(event.cell))
        at = event.at if isinstance(event, CellChanged) else now
        self._last_change = max(self._last_change, at)
        self._quiet_at = self._last_change + self.timing.settle_ms
        return signals + self._on_change(at, event.cell)

    @property
    def _occupied(self) -> Set[str]:
        return self.sensors.settled

    @property
    def _ignored(self) -> Set[str]:
        return self.sensors.faulty.keys()

    def _evidence(self, origin: str, target: str) -> bool | None:
        if origin in self.sensors.faulty or target in self.sensors.faulty:
            return None
        lifted_at = self.sensors.last_emptied[origin]
        # A flicker that proved one capture on a cell proves no later one there.
        floor = self._proof_used.get(target, LONG_AGO)
        return self.sensors.was_empty_since(target, lifted_at, grace=self.timing.capture_grace_ms, floor=floor)

    # -- playing ------------------------------------------------------------------------

    def _on_change(self, at: int, cell: str, *, settled: bool = True) -> list[Signal]:
        """The nest changed at ``cell``; ``settled`` is False for a raw reading that has
        not settled yet: it can prove a capture, but it does not show the nest."""
        if self.mode is Mode.SETUP:
            return self._show_setup()
        if self.mode is Mode.CORRECTING:
            return self._show_correction()
        signals: list[Signal] = []
        if self._question is not None:
            self._question = None
            signals.append(QuestionClosed())
        view = self._current_view()
        occupied, ignored = self._occupied, self._ignored
        matches = view.matches(occupied, ignored, self._evidence)
        candidate = self._candidate
        if settled and candidate is not None and candidate not in [match.move for match in matches]:
            # Once the nest showed the candidate, a change away from its cells that the
            # other side's move explains is the other side starting: the mover was done.
            # A change on its cells may be the mover changing its mind, as long as the
            # mover's move explains it.
            revising = cell in self._cells_of(candidate) and view.is_in_progress(occupied, ignored)
            if not revising and self._view_after(candidate).is_in_progress(occupied, ignored):
                signals += self._commit(candidate, at)
                return signals + self._on_change(at, cell)
        if len(matches) == 1 and matches[0].is_certain:
            if matches[0].move != self._candidate:
                self._candidate = matches[0].move
                self._candidate_seen = at
        elif matches or view.difference(occupied, ignored) == (frozenset(), frozenset()):
            self._candidate = None  # all put back, or a doubt only the player can settle
        return signals

    def _on_quiet(self, at: int) -> list[Signal]:
        """The nest has been still for ``settle_ms``: decide."""
        if self.mode is Mode.SETUP:
            return self._try_start_game(at)
        if self.mode is Mode.CORRECTING:
            if self._mismatch():
                return []
            self.mode = Mode.PLAYING
            self._candidate, self._question = None, None
            return [Corrected(), *self._turn_signal()]
        view = self._current_view()
        occupied, ignored = self._occupied, self._ignored
        matches = view.matches(occupied, ignored, self._evidence)
        if len(matches) == 1 and matches[0].is_certain:
            move = matches[0].move
            if move in view.extendable and at < self._last_change + self.timing.extend_ms:
                self._quiet_at = self._last_change + self.timing.extend_ms
                return []
            return self._commit(move, at)
        if matches:
            options = tuple(match.move for match in matches)
            if self._question == options:
                return []
            self._question = options
            return [MoveQuestion(options)]
        lifted, placed = view.difference(occupied, ignored)
        if not lifted and not placed:
            self._candidate = None
            return []
        replied = self._unseen_capture_and_reply(lifted)
        if replied is not None:
            capture, finished = replied
            if not finished:
                return []  # wait for the reply to be made
            return self._commit(capture, at, proven=False) + self._on_quiet(at)
        waited = at >= self._last_change + self.timing.extend_ms
        if not waited:
            self._quiet_at = self._last_change + self.timing.extend_ms  # in case we wait below
        # Only pieces in the air, and one of them an opponent's whose cell flickered since
        # a piece of the mover's was lifted: a capture was made, though not a legal one.
        attempt = None if placed else self._attempted_capture(lifted)
        if view.is_in_progress(occupied, ignored):
            if not placed and attempt is not None and not self._unseen_captures(lifted):
                # (With a legal capture the sensors may have missed, the flicker is more
                # likely the other side touching a piece, the move done: it is asked.)
                return self._refuse(at, attempt)
            if not placed:  # a move under way; or a capture whose evidence the sensors missed?
                return self._ask_about_unseen_captures(at, lifted)
            if view.is_resting_between(occupied, ignored):  # it may slide on
                return self._refuse(at) if waited else []
            # A legal move made while another piece is still in the air (or knocked off).
            return self._commit_with_strays(at, self._legal_move_with_strays()) if waited else []
        if self._candidate is not None and self._view_after(self._candidate).is_in_progress(occupied, ignored):
            return []  # the other side may have started (say, lifting the piece it captures)
        clear_attempt = len(lifted) == 1 and len(placed) == 1
        legal = self._legal_move_with_strays() if clear_attempt or waited else None
        if clear_attempt and legal is None:
            return self._refuse(at)  # at once: the players see the problem while it is fresh
        if not waited:
            return []  # give pieces in the air a moment to land, so the refusal can name the move
        if legal is not None:
            return self._commit_with_strays(at, legal)  # a legal move, and a piece knocked or pushed aside
        return self._refuse(at, attempt)

    def _ask_about_unseen_captures(self, at: int, lifted: Set[str]) -> list[Signal]:
        """A single piece of the mover's lifted for ``ask_ms``, every piece it could
        capture still in place: the capture may be made, unseen. Ask rather than wait
        for ever; the question closes as soon as the nest changes."""
        options = self._unseen_captures(lifted)
        if not options:
            return []
        due = self._last_change + self.timing.ask_ms
        if at < due:
            self._quiet_at = due
            return []
        if self._question == options:
            return []
        self._question = options
        return [MoveQuestion(options)]

    def _unseen_captures(self, lifted: Set[str]) -> tuple[Move, ...]:
        """The legal captures a single lifted piece may have made unseen: its targets
        are all still occupied (by the capturer, or untouched)."""
        if len(lifted) != 1:
            return ()
        view = self._current_view()
        return tuple(move for move in view.captures if move.origin in lifted and move.target in self._occupied)

    def _unseen_capture_and_reply(self, lifted: Set[str]) -> tuple[Move, bool] | None:
        """A capture whose evidence the sensors missed (a piece pushed off too fast for
        the scan) that the other side's reply confirms: the mover's piece lifted with
        its target still in place, and then the other side moving. A piece in a hand does
        not stop the other side, so the capture was made. Returns the capture, and
        whether the reply is finished; None unless exactly one capture explains it."""
        view, occupied, ignored = self._current_view(), self._occupied, self._ignored
        found = []
        for capture in view.captures:
            if capture.origin not in lifted or capture.target not in occupied:
                continue
            after = self._view_after(capture)
            if after.difference(occupied, ignored) == (frozenset(), frozenset()):
                continue  # no reply yet: the capturer may still be in a hand
            replies = after.matches(occupied, ignored, self._evidence)
            if len(replies) == 1 and replies[0].is_certain:
                found.append((capture, True))
            elif not replies and after.is_in_progress(occupied, ignored):
                found.append((capture, False))
        return found[0] if len(found) == 1 else None

    def _legal_move_with_strays(self) -> Move | None:
        """A legal move the nest shows made, apart from a piece or two out of place away
        from that move's cells: lifted (knocked off, or held), or for a capture, put on a
        neighbour of its target (the captured piece pushed aside). Not a second move: a
        piece lifted here and put there is one move too many, and no guess is made."""
        view = self._current_view()
        lifted, placed = view.difference(self._occupied, self._ignored)
        found = []
        for move in view.moves:
            assert move.origin is not None and move.target is not None
            if move.origin not in lifted:
                continue
            if move.is_capture:
                if move.target not in self._occupied or not self._evidence(move.origin, move.target):
                    continue
            elif move.target not in placed:
                continue
            lifted_strays, placed_strays = lifted - {move.origin}, placed - {move.target}
            if lifted_strays and placed_strays:
                continue
            if placed_strays and not (
                move.is_capture and all(self.nest.distance(cell, move.target) == 1 for cell in placed_strays)
            ):
                continue
            strays = lifted_strays | placed_strays
            if strays and len(strays) <= 2 and not strays & self._cells_of(move):
                found.append((len(strays), self.nest.index(move.origin), self.nest.index(move.target), move))
        return min(found)[3] if found else None

    def _commit_with_strays(self, at: int, move: Move | None) -> list[Signal]:
        """Commit ``move``, the legal move the nest shows (:meth:`_legal_move_with_strays`);
        then have the strays put right."""
        if move is None:  # another piece was taken for the move's: no legal move to keep
            return self._refuse(at)
        signals = self._commit(move, at, announce=False)
        if self.mode is not Mode.PLAYING:
            return signals
        if self._mismatch():
            return signals + self._enter_correction(CorrectionCause.DISTURBED, at)
        return signals + self._turn_signal()

    def _cells_of(self, move: Move) -> set[str]:
        """The cells a move touches: its origin, its target and a middle cell crossed."""
        assert move.origin is not None and move.target is not None
        middle = self.nest.between(move.origin, move.target)
        return {move.origin, move.target} | ({middle} if middle else set())

    def _current_view(self) -> TurnView:
        assert self._view is not None and self.position is not None
        return self._view

    def _turn_view(self, position: Position) -> TurnView:
        """The view of the turn in ``position``: against the computer, only its move."""
        only = None
        if position.turn in self.computers:
            only = (self._computer_move,) if self._computer_move is not None else ()
        return TurnView(position, lenient=self.settings.lenient, only=only)

    def _view_after(self, move: Move) -> TurnView:
        assert self.position is not None
        after = self.position.copy()
        after.push_unchecked(move)  # a move the position generated (TurnView.moves)
        return TurnView(after, lenient=self.settings.lenient)

    def _attempted_capture(self, lifted: Set[str]) -> Move | None:
        """A capture the nest shows made, though not a legal one: a piece lifted, and a
        piece of the other side whose cell read empty since and holds a piece again (the
        capturer). The mover's pieces first; then the other side's, out of turn.

        A piece "capturing" one of its own side shows nothing this does not: lifting two
        pieces and putting one back looks the same."""
        view = self._current_view()
        attempts = [
            Move(origin, target, True)
            for origin in lifted
            for target, piece in view.pieces.items()
            if piece.side is not view.pieces[origin].side
            and target in self._occupied
            and target not in self._ignored
            and self._evidence(origin, target)
        ]
        # A legal one is still under way: another piece is in the air.
        attempts = [move for move in attempts if move not in view.moves]
        return min(
            attempts,
            key=lambda m: (str(m.origin) not in view.own, self.nest.distance(str(m.origin), str(m.target))),
            default=None,
        )

    def _commit(self, move: Move, at: int, *, announce: bool = True, proven: bool = True) -> list[Signal]:
        """Play ``move``; ``proven`` is False for a capture the sensors never saw, which
        used up no flicker on its target."""
        position, view = self.position, self._current_view()
        assert position is not None
        side = position.turn
        if move.is_capture and move.target is not None and proven:
            # The flickers on the target so far proved this capture: they prove no later one.
            seen = self._candidate_seen if move == self._candidate else at
            self._proof_used[move.target] = self.sensors.burst_end(move.target, seen)
        played = position.push(move, lenient=self.settings.lenient)
        signals: list[Signal] = []
        if self._question is not None:
            signals.append(QuestionClosed())
        signals.append(MoveAccepted(played, side, len(position.move_stack), position.to_nfn()))
        if view.compulsory and not played.is_capture:
            signals.append(MissedCapture(played, view.compulsory))
        self._candidate, self._question = None, None
        outcome = position.outcome()
        if outcome is not None:
            return signals + self._end_game(outcome, at)
        signals += self._start_turn(at)
        return signals + (self._turn_signal() if announce else [])

    def _start_turn(self, at: int) -> list[Signal]:
        """Begin the turn of the side to move in :attr:`position`; a side with no legal
        move passes at once. The caller announces the turn."""
        position = self.position
        assert position is not None
        self.mode = Mode.PLAYING
        self._candidate, self._question, self._computer_move = None, None, None
        signals: list[Signal] = []
        if position.legal_moves() == [PASS]:
            side = position.turn
            position.push(PASS)
            signals.append(MoveAccepted(PASS, side, len(position.move_stack), position.to_nfn()))
        self._view = self._turn_view(position)
        return signals

    def _turn_signal(self) -> list[Signal]:
        view = self._current_view()
        ply = len(view.position.move_stack)
        signals: list[Signal] = [TurnStarted(view.side, ply, view.compulsory, by_computer=view.side in self.computers)]
        if self._computer_move is not None:
            signals.append(ComputerMove(self._computer_move, view.side, ply))
        return signals

    # -- refusing and putting right -----------------------------------------------------

    def _refuse(self, at: int, attempt: Move | None = None) -> list[Signal]:
        refused, steps = self._diagnose(attempt)
        cause = CorrectionCause.ILLEGAL_MOVE if refused.attempt is not None else CorrectionCause.DISTURBED
        return [refused, *self._enter_correction(cause, at, steps)]

    def _diagnose(self, attempt: Move | None) -> tuple[MoveRefused, tuple[FixStep, ...] | None]:
        """What the nest shows, as a refused move, and the first plan to undo it."""
        view = self._current_view()
        lifted, placed = view.difference(self._occupied, self._ignored)
        if attempt is not None:  # an illegal capture
            assert attempt.origin is not None and attempt.target is not None
            refusal = self._refusal(attempt)
            assert refusal is not None, "an allowed capture would have matched"
            return MoveRefused(attempt, *refusal), _undo_capture(attempt, view.pieces)
        if len(placed) == 1:
            (cell,) = placed
            if lifted:  # the piece lifted nearest to it moved there; the mover's on a tie
                origin = min(lifted, key=lambda c: (self.nest.distance(c, cell), c not in view.own, self.nest.index(c)))
                move = Move(origin, cell)
                refusal = self._refusal(move)
                if refusal is not None:
                    return MoveRefused(move, *refusal), None
                strays = sorted(lifted - view.liftable - {origin}, key=self.nest.index)
                reason = f"{move} was made while {', '.join(strays)} were disturbed"
                return MoveRefused(None, None, reason), None
            return MoveRefused(None, None, f"a piece appeared on {cell}, where none should be"), None
        if len(placed) > 1:
            cells = ", ".join(sorted(placed, key=self.nest.index))
            return MoveRefused(None, None, f"pieces were put on {cells}: one move at a time"), None
        strays = sorted(lifted - view.liftable, key=self.nest.index)
        cell = strays[0] if strays else sorted(lifted, key=self.nest.index)[0]
        piece = view.pieces[cell]
        if piece.side is not view.side:
            reason = f"the {piece.label} on {cell} was lifted, but it is {view.side.label}'s turn"
            reason += " and it cannot be captured" if view.captures or not view.own & lifted else ""
            rule = Rule.NOT_YOUR_TURN if not lifted & view.own else None
            return MoveRefused(None, rule, reason), None
        return MoveRefused(None, None, f"the {piece.label} on {cell} was lifted"), None

    def _refusal(self, move: Move) -> tuple[Rule | None, str] | None:
        """Why ``move`` is refused now: the rule it breaks; or, on the computer's turn,
        that it is not the computer's move. None if it is accepted."""
        view = self._current_view()
        illegal = view.position.check_move(move, lenient=self.settings.lenient)
        if illegal is not None:
            return illegal.rule, illegal.reason
        if move in view.moves:
            return None
        if self._computer_move is not None:
            return None, f"the computer plays {self._computer_move}"
        return None, "the computer is choosing its move: wait for it"

    def _mismatch(self) -> bool:
        lifted, placed = self._current_view().difference(self._occupied, self._ignored)
        return bool(lifted or placed)

    def _enter_correction(
        self, cause: CorrectionCause, at: int, steps: tuple[FixStep, ...] | None = None
    ) -> list[Signal]:
        self.mode = Mode.CORRECTING
        self._correction = cause
        lifted, placed = self._current_view().difference(self._occupied, self._ignored)
        # The one cell left wrong, and since when it has been: a stuck sensor, maybe.
        self._alone = (next(iter(lifted | placed)), at) if len(lifted | placed) == 1 else None
        self._candidate, self._question = None, None
        self._plan = steps if steps is not None else self._correction_plan()
        return [CorrectionNeeded(cause, self._plan)]

    def _correction_plan(self) -> tuple[FixStep, ...]:
        wanted = self._current_view().pieces
        ignored = self._ignored
        sensed = (set(self._occupied) - set(ignored)) | (set(wanted) & set(ignored))
        return plan_correction(self.nest, sensed, wanted)

    def _show_correction(self) -> list[Signal]:
        lifted, placed = self._current_view().difference(self._occupied, self._ignored)
        wrong = lifted | placed
        if len(wrong) == 1 and (self._alone is None or self._alone[0] not in wrong):
            self._alone = (next(iter(wrong)), self._last_change)
        elif self._alone is not None and self._alone[0] not in wrong:
            self._alone = None
        plan = self._correction_plan()
        if plan == self._plan or not plan:
            return []
        self._plan = plan
        return [CorrectionNeeded(self._correction, plan)]

    def _stuck_deadline(self) -> int | None:
        """In correction, when the one cell that keeps the nest from matching, reading a
        piece where none should be, is to be taken as stuck: it has not changed for
        ``stuck_ms`` while the players changed other cells, trying to put the nest right."""
        if self.mode is not Mode.CORRECTING:
            return None
        lifted, placed = self._current_view().difference(self._occupied, self._ignored)
        if lifted or len(placed) != 1:
            return None  # a cell that reads empty may just be waiting for its piece: never stuck
        (cell,) = placed
        if self._alone is None or self._alone[0] != cell:
            return None
        since = max(self._alone[1], self.sensors.last_change[cell])
        if self._last_change <= since:
            return None  # nobody has tried anything since: they may just not have got to it
        return since + self.timing.stuck_ms

    def _declare_stuck(self, at: int) -> list[Signal]:
        _, placed = self._current_view().difference(self._occupied, self._ignored)
        (cell,) = placed
        fault = self.sensors.mark_stuck(cell)
        self._quiet_at = at  # decide at once: the nest may match now
        return [SensorFault(fault.cell, fault.problem)]

    # -- between games ------------------------------------------------------------------

    def _end_game(self, outcome: Outcome, at: int) -> list[Signal]:
        closing: list[Signal] = [QuestionClosed()] if self._question is not None else []
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
        self.mode, self._view = Mode.SETUP, None
        self._candidate, self._question, self._setup_shown = None, None, None
        self._quiet_at = at + self.timing.settle_ms  # the nest may show the lineup already
        return signals + self._show_setup()

    def _setup_target(self) -> dict[str, Piece]:
        return dict(self.nest.lineup(self.lineup).pieces)

    def _show_setup(self) -> list[Signal]:
        wanted = self._setup_target()
        occupied = set(self._occupied) - set(self._ignored)
        order = self.nest.index
        setup = SetupNeeded(
            self.lineup,
            self.starter,
            tuple(sorted(set(wanted) - occupied - set(self._ignored), key=order)),
            tuple(sorted(occupied - set(wanted), key=order)),
            self.number,
        )
        if setup == self._setup_shown:
            return []
        self._setup_shown = setup
        return [setup]

    def _try_start_game(self, at: int) -> list[Signal]:
        signals = self._show_setup()
        setup = self._setup_shown
        if setup is None or setup.fill or setup.empty:
            return signals
        position = Position.from_lineup(self.lineup, turn=self.starter, nest=self.nest)
        self.position = position
        signals.append(
            GameStarted(self.number, self.lineup, self.starter, position.to_nfn(), new_set=not self._set_started)
        )
        self._set_started = True
        return signals + self._start_turn(at) + self._turn_signal()


def _has_move(position: Position) -> bool:
    """Whether ``position`` has a move made in it to take back (passes aside)."""
    return any(not move.is_pass for move in position.move_stack)


def _undo_capture(capture: Move, pieces: Mapping[str, Piece]) -> tuple[FixStep, ...]:
    """Putting right a capture made from the position of ``pieces``: the capturer back
    first, then the captured piece."""
    assert capture.origin is not None and capture.target is not None
    return (
        FixStep(FixKind.MOVE, capture.target, capture.origin, pieces[capture.origin]),
        FixStep(FixKind.PLACE, None, capture.target, pieces[capture.target]),
    )
