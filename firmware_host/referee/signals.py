"""What the referee tells the players: one small set of typed signals.

The display, the LEDs, the web page, the database and the logs all consume these and
nothing else. Each is a frozen value with ``to_text()``, the line ``nestref referee``
prints for it. ``docs/referee.md`` describes when each is sent.

Signals are broadcast: every field is a public type. A position travels only as a
:class:`~firmware_host.games.base.PublicView`, which holds no hidden rank; the record's
own notation of it (every rank of the battle game) is handed to the recorder alone
(:meth:`~firmware_host.referee.referee.Referee.recorded_positions`), never in a signal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from firmware_host.games.base import Move, Outcome, Piece, PublicView, Side


class FixKind(Enum):
    """One kind of step towards the position the nest should show."""

    MOVE = "move"  # a piece stands where none should: it belongs on a nearby empty cell
    REMOVE = "remove"  # a piece stands where none should, and no cell is missing one
    PLACE = "place"  # a cell that should hold a piece is empty, and no piece is spare


@dataclass(frozen=True)
class FixStep:
    """One piece to move, take off or put on the nest."""

    kind: FixKind
    source: str | None  # the cell to empty (MOVE, REMOVE)
    target: str | None  # the cell to fill (MOVE, PLACE)
    piece: Piece | None  # the piece the target should hold (MOVE, PLACE)

    def to_text(self) -> str:
        if self.kind is FixKind.MOVE:
            return f"move the piece on {self.source} to {self.target}"
        if self.kind is FixKind.REMOVE:
            return f"take the piece off {self.source}"
        label = self.piece.label if self.piece else "piece"
        return f"put a {label} on {self.target}"


class CorrectionCause(Enum):
    """Why the nest must be put right."""

    ILLEGAL_MOVE = "illegal move"
    DISTURBED = "the nest was disturbed"  # bumped, knocked or extra pieces
    RESUMED = "the nest does not match the game resumed"
    TAKE_BACK = "take back"


class SensorProblem(Enum):
    FLICKERING = "keeps flickering"
    STUCK = "does not respond"


@dataclass(frozen=True)
class GameStarted:
    """A game began: the nest shows its first position."""

    number: int  # within the set, from 1; replayed draws count too
    lineup: str
    starter: Side
    public_view: PublicView
    """The first position as everybody may see it (nothing hidden): what a shared screen shows."""
    new_set: bool = False  # the first game started in a new set (not a game 1 played again)

    def to_text(self) -> str:
        return f"game {self.number} starts: {self.lineup}, {self.starter.label} to move"


@dataclass(frozen=True)
class TurnStarted:
    """It is ``side``'s turn; ``captures`` are its compulsory captures (empty if none).
    ``by_computer``: the computer plays ``side`` and is choosing its move; the nest
    waits for :class:`ComputerMove`."""

    side: Side
    ply: int  # moves made so far in this game
    captures: tuple[Move, ...]
    by_computer: bool = False

    def to_text(self) -> str:
        text = f"turn {self.side.label}"
        if self.by_computer:
            text += " (computer)"
        if self.captures:
            text += f": capture compulsory: {' '.join(map(str, self.captures))}"
        return text


@dataclass(frozen=True)
class ComputerMove:
    """The computer chose ``move`` for ``side``: a player makes it on the nest, and
    no other move is accepted. Sent again whenever the turn is announced again."""

    move: Move
    side: Side
    ply: int  # moves made so far in this game

    def to_text(self) -> str:
        return f"computer plays {self.move} for {self.side.label}: make it on the nest"


@dataclass(frozen=True)
class MoveAccepted:
    """A move was made and recorded; ``public_view`` is the position after it as
    everybody may see it (nothing hidden)."""

    move: Move
    side: Side
    ply: int  # this move's number in the game, from 1
    public_view: PublicView
    hinted: bool = False  # made after the players asked for a hint (the record marks it)

    def to_text(self) -> str:
        return f"move {self.move}" + (" after a hint" if self.hinted else "")


@dataclass(frozen=True)
class StrikeAnnounced:
    """A capture whose result the players cannot see (the battle game's strike) has
    begun: the referee tells both how it ends (``words``, which may name what the
    strike reveals, and nothing else), the cells whose pieces to take off
    (``removed``) and where the winner stands (``winner_on``, None: nobody). The move
    is accepted once the nest shows it; from now on it is the only one this turn."""

    move: Move
    side: Side
    words: str
    removed: tuple[str, ...]
    winner_on: str | None

    def to_text(self) -> str:
        text = f"strike {self.move}: {self.words}; take off {' '.join(self.removed)}"
        return text + (f"; winner on {self.winner_on}" if self.winner_on is not None else "")


@dataclass(frozen=True)
class MissedCapture:
    """Lenient refereeing: ``move`` was accepted though a capture was compulsory."""

    move: Move
    captures: tuple[Move, ...]

    def to_text(self) -> str:
        return f"warning: {self.move} missed a compulsory capture: {' '.join(map(str, self.captures))}"


@dataclass(frozen=True)
class MoveRefused:
    """What the players did is not a legal move. ``attempt`` is the move it looked like,
    if any; ``rule`` the rule it breaks (a value of the game's own), if it is a move at
    all."""

    attempt: Move | None
    rule: Any
    reason: str

    def to_text(self) -> str:
        what = f"illegal move {self.attempt}" if self.attempt is not None else "not a move"
        return f"refused: {what}: {self.reason}"


@dataclass(frozen=True)
class CorrectionNeeded:
    """The nest must be put right before play goes on; sent again after every change,
    with the plan made anew. The players follow ``steps[0]`` first."""

    cause: CorrectionCause
    steps: tuple[FixStep, ...]

    def to_text(self) -> str:
        return f"fix ({self.cause.value}): " + "; ".join(step.to_text() for step in self.steps)


@dataclass(frozen=True)
class Corrected:
    """The nest matches the game again; play goes on."""

    def to_text(self) -> str:
        return "corrected"


@dataclass(frozen=True)
class MoveQuestion:
    """The sensors cannot tell which of ``options`` was played, or, with one option,
    whether it was: the player must say (with one, it is a confirmation)."""

    options: tuple[Move, ...]

    def to_text(self) -> str:
        if len(self.options) == 1:  # a confirmation
            return f"question: {self.options[0]}? press confirm"
        return f"question: which move was it: {' or '.join(map(str, self.options))}?"


@dataclass(frozen=True)
class QuestionClosed:
    """The last question no longer stands: it was answered, or the nest changed."""

    def to_text(self) -> str:
        return "question closed"


@dataclass(frozen=True)
class TakenBack:
    """``move`` was taken back; the nest must show the position before it."""

    move: Move
    ply: int

    def to_text(self) -> str:
        return f"taken back: {self.move}"


@dataclass(frozen=True)
class GameOver:
    """The game ended; ``score`` is the set's (red, blue), ``set_winner`` its winner if
    this game decided the set."""

    outcome: Outcome
    score: tuple[int, int]
    set_winner: Side | None

    def to_text(self) -> str:
        text = f"game over: {self.outcome}; set {self.score[0]}-{self.score[1]}"
        return text + (f", {self.set_winner.label} wins the set" if self.set_winner else "")


@dataclass(frozen=True)
class GameAbandoned:
    """The game was stopped before it ended (a new game was asked for); it does not
    count in the set."""

    number: int

    def to_text(self) -> str:
        return f"game {self.number} abandoned"


@dataclass(frozen=True)
class SetupNeeded:
    """Before the next game: cells to ``fill`` and to ``empty`` so that the nest shows
    ``lineup``. The game starts by itself once it does."""

    lineup: str
    starter: Side
    fill: tuple[str, ...]
    empty: tuple[str, ...]
    number: int = 1  # of the game to be set up, in its set

    def to_text(self) -> str:
        return (
            f"setup {self.lineup} ({self.starter.label} starts): "
            f"fill {' '.join(self.fill) or '-'}; empty {' '.join(self.empty) or '-'}"
        )


class SetupState(Enum):
    """Where one side's own set-up stands (a game whose players set up privately)."""

    WAITING = "waiting"  # no set-up given yet
    PLACING = "placing"  # placing its pieces one at a time, as its own screen asks
    READY = "ready"  # its set-up is complete: the nest must show it
    CHECKING = "checking"  # the nest shows it; its pieces are lifted one at a time, as its own screen asks


@dataclass(frozen=True)
class SetupProgress:
    """Where ``side``'s own set-up stands: ``placed`` of ``total`` pieces so far (while it
    is checked: of the pieces to lift, those checked). Sent when it changes. It says how
    many, never which: what the pieces are is the placing player's own screen's to say
    (``Referee.placement_prompt``)."""

    side: Side
    state: SetupState
    placed: int
    total: int

    def to_text(self) -> str:
        text = f"{self.side.label} set-up: {self.state.value}"
        if self.state is SetupState.CHECKING:
            return text + f", {self.placed} of {self.total} checked"
        return text + (f", {self.placed} of {self.total} placed" if self.state is SetupState.PLACING else "")


@dataclass(frozen=True)
class SensorFault:
    """The sensor of ``cell`` misbehaves; the referee goes on without it."""

    cell: str
    problem: SensorProblem

    def to_text(self) -> str:
        return f"sensor fault: {self.cell} {self.problem.value}"


@dataclass(frozen=True)
class SensorRecovered:
    """The sensor of ``cell`` behaves again and is used again."""

    cell: str

    def to_text(self) -> str:
        return f"sensor recovered: {self.cell}"


Signal = (
    GameStarted
    | TurnStarted
    | ComputerMove
    | MoveAccepted
    | StrikeAnnounced
    | MissedCapture
    | MoveRefused
    | CorrectionNeeded
    | Corrected
    | MoveQuestion
    | QuestionClosed
    | TakenBack
    | GameOver
    | GameAbandoned
    | SetupNeeded
    | SetupProgress
    | SensorFault
    | SensorRecovered
)
"""Any signal."""
