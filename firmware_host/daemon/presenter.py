"""What the nest's outputs are drawn from: one frozen value, :class:`Scene`, which the
referee's signals and the daemon's parts replace whole. Pure.

The OLED's screen (:mod:`~firmware_host.daemon.screens`), the status and cell lights
(:mod:`~firmware_host.daemon.lights`) and the page read a scene and nothing else: each
is a function of it, written as an ordered table of rows (when the row shows, what it
shows), the first row that applies winning, as Klipper's display is data over the
printer's statuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from firmware_host.daemon.oled_words import listed
from firmware_host.daemon.remote_shown import RemoteShown, RemoteStage
from firmware_host.daemon.statuses import Gathered
from firmware_host.games.base import Game, Move, Outcome, Side
from firmware_host.referee.signals import (
    ComputerMove,
    Corrected,
    CorrectionNeeded,
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
    StrikeAnnounced,
    TakenBack,
    TurnStarted,
)


class View(Enum):
    STARTING = "starting"
    PLAYING = "playing"
    CORRECTING = "correcting"
    QUESTION = "question"
    OVER = "over"
    SETUP = "setup"


PLAYING_VIEWS = frozenset({View.PLAYING, View.QUESTION, View.CORRECTING})
"""The views in which a move is being made (or put right, or asked about)."""


@dataclass(frozen=True)
class Scene:
    """Everything the nest's outputs show, at one moment: what the referee's signals
    said (:meth:`following` takes one in) and what the daemon's parts report beside
    them (the address, the PIN, the sensors' link, the record's health, the players,
    a hint, the clock, remote play: set with :func:`dataclasses.replace`)."""

    game: Game = field(repr=False, compare=False)
    # -- what the daemon's parts report
    address: str = ""  # the web page's address, when the daemon serves one
    pin: str = ""  # the PIN players at other machines give the page, when one is needed
    sensors_connected: bool = True
    storage_ok: bool = True  # False while moves cannot be recorded (a full disk)
    storage_trouble: str = "disk error"  # then why: locked, read-only, disk full, disk error
    notice: str = ""  # from the boot self-test, until the first move
    computers: frozenset[Side] = frozenset()  # the sides the computer plays
    computer_level: int = 0
    hint_wanted: bool = False  # the players asked for a hint; the engine is choosing it
    hint: Move | None = None  # the engine's suggestion for the side to move, until a move is made
    clock: tuple[str, str] | None = None  # red's and blue's time, when the game has a clock
    remote: RemoteShown | None = None  # remote play, with a [broker] (the remote side is in computers)
    # -- what the signals said
    view: View = View.STARTING
    side: Side | None = None  # to move
    plies: int | None = None  # moves made in the game so far (None: not known yet, as after a restart)
    played: tuple[MoveAccepted, ...] = ()  # this game's moves seen, oldest first
    last_move: Move | None = None
    captures: tuple[Move, ...] = ()
    refused: MoveRefused | None = None
    correction: CorrectionNeeded | None = None
    question: tuple[Move, ...] = ()
    highlighted: int = 0  # the answer the buttons point at
    outcome: Outcome | None = None
    score: tuple[int, int] = (0, 0)
    score_before_over: tuple[int, int] = (0, 0)  # the set's score before the last result (a take back restores it)
    set_winner: Side | None = None
    setup: SetupNeeded | None = None
    holding_result: bool = False  # the result stays up until the players touch the nest
    position: str = ""  # the game's position now as everybody may see it, in its notation ("" if not known)
    start: str = ""  # the game's first position
    number: int = 1  # of the game in its set
    warning: str = ""  # a missed capture under lenient refereeing, until the next move
    faults: frozenset[str] = frozenset()
    thinking: bool = False  # the computer is choosing the move of the side to move
    computer_move: Move | None = None  # the computer's move, for the players to make
    strike: StrikeAnnounced | None = None  # the last strike announced, until the next move
    strike_made: bool = False  # ...and whether the nest has shown it made

    @property
    def answer(self) -> Move | None:
        """The answer the buttons point at, if a question is open."""
        return self.question[self.highlighted] if self.question else None

    @property
    def is_playing(self) -> bool:
        """Whether a move is being made (or put right, or asked about)."""
        return self.view in PLAYING_VIEWS

    @property
    def is_remote_playing(self) -> bool:
        """Whether a game with another nest is on (its side is "the computer's")."""
        return self.remote is not None and self.remote.stage is RemoteStage.PLAYING

    @property
    def move_shown(self) -> Move | None:
        """The move lit on the nest for the players: the computer's, or a hint."""
        return self.computer_move if self.computer_move is not None else self.hint

    def with_next_answer(self) -> Scene:
        """The same, the buttons pointing at the next answer of an open question."""
        if not self.question:
            return self
        return replace(self, highlighted=(self.highlighted + 1) % len(self.question))

    def with_parts(self, parts: Gathered) -> Scene:
        """The same, with what the daemon's parts report now (their statuses, gathered
        by the loop): the scene's inputs beside the referee's signals."""
        return replace(
            self,
            address=parts.page.address,
            pin=parts.page.pin,
            sensors_connected=parts.sensors.connected,
            storage_ok=parts.record.saved,
            storage_trouble=parts.record.trouble,
            notice=parts.sensors.notice,
            computers=parts.players.computers,
            computer_level=parts.players.level,
            hint_wanted=parts.hint.wanted,
            hint=parts.hint.move,
            clock=parts.clock.times,
            remote=parts.remote,
        )

    def following(self, signal: Signal) -> Scene:
        """The scene once ``signal`` is taken in."""
        return replace(self, **_changes(self, signal))


def _changes(scene: Scene, signal: Signal) -> dict[str, Any]:
    """What ``signal`` changes of ``scene``: the fields to replace, by name."""
    changes: dict[str, Any] = {}
    if not isinstance(signal, MissedCapture | SensorFault | SensorRecovered | ComputerMove):
        changes.update(hint_wanted=False, hint=None)  # a hint is for the position it was asked in
    if isinstance(signal, GameStarted | GameOver | GameAbandoned | CorrectionNeeded):
        changes.update(question=())  # whatever was asked no longer stands
    if isinstance(signal, GameStarted | GameAbandoned | TakenBack):
        changes.update(thinking=False, computer_move=None, strike=None)
    if isinstance(signal, StrikeAnnounced):
        changes.update(strike=signal, strike_made=False)
    elif isinstance(signal, MoveAccepted) and scene.strike is not None:
        if signal.move == scene.strike.move and not scene.strike_made:
            changes.update(strike_made=True)  # its words stay up until the next move
        else:
            changes.update(strike=None)
    match signal:
        case GameStarted():
            changes.update(view=View.PLAYING, number=signal.number, outcome=None, set_winner=None)
            changes.update(side=signal.starter, plies=0, played=(), last_move=None)
            changes.update(position=signal.public_view.text, start=signal.public_view.text, setup=None, captures=())
            if signal.new_set:
                changes.update(score=(0, 0))
        case TurnStarted():
            changes.update(view=View.PLAYING, side=signal.side, captures=signal.captures)
            changes.update(refused=None, correction=None, question=())
            changes.update(thinking=signal.by_computer, computer_move=None)
            if scene.plies != signal.ply:  # resumed after a restart: the moves before were not seen
                changes.update(plies=signal.ply, played=(), last_move=None)
        case ComputerMove():
            changes.update(thinking=False, computer_move=signal.move)
        case MoveAccepted():
            changes.update(last_move=signal.move, warning="", position=signal.public_view.text, notice="")
            changes.update(played=(*scene.played, signal), side=signal.side.opponent, plies=signal.ply)
            changes.update(thinking=False, computer_move=None)  # made; the next turn's comes with its announcement
        case MissedCapture():
            changes.update(warning=listed("missed", [str(move) for move in signal.captures]))
        case MoveRefused():
            changes.update(refused=signal)
        case CorrectionNeeded():
            changes.update(view=View.CORRECTING, correction=signal)
        case Corrected():
            changes.update(refused=None, correction=None)
        case MoveQuestion():
            changes.update(view=View.QUESTION, question=signal.options, highlighted=0)
        case QuestionClosed():
            changes.update(question=())
            if scene.view is View.QUESTION:
                changes.update(view=View.PLAYING)
        case TakenBack():
            changes.update(_taken_back(scene, signal))
        case GameOver():
            changes.update(thinking=False, computer_move=None, score_before_over=scene.score)
            changes.update(view=View.OVER, outcome=signal.outcome, score=signal.score, set_winner=signal.set_winner)
            changes.update(holding_result=True)
        case GameAbandoned():
            changes.update(outcome=None)
        case SetupNeeded():
            changes.update(setup=signal)
            if scene.holding_result:  # the first, sent with the result: keep the result up
                changes.update(holding_result=False)
            else:
                changes.update(view=View.SETUP)
        case SensorFault():
            changes.update(faults=scene.faults | {signal.cell})
        case SensorRecovered():
            changes.update(faults=scene.faults - {signal.cell})
    return changes


def _taken_back(scene: Scene, signal: TakenBack) -> dict[str, Any]:
    """The move of ply ``signal.ply`` is no longer played: its side is to move again,
    the move before it is the last (the nest is put right before the turn is
    announced again, so whose turn it is must be right meanwhile)."""
    taken = next((played for played in scene.played if played.ply == signal.ply), None)
    side = scene.side
    if taken is not None:
        side = taken.side
    elif side is not None:  # a move made before a restart: turns alternate, passes included
        side = side.opponent
    played = tuple(move for move in scene.played if move.ply < signal.ply)
    plies = signal.ply - 1
    before = played[-1] if played and played[-1].ply == plies else None
    changes: dict[str, Any] = {
        "side": side,
        "played": played,
        "plies": plies,
        "last_move": before.move if before is not None else None,
        "position": before.public_view.text if before is not None else scene.start if plies == 0 else "",
        "captures": (),  # the turn's captures come with its announcement
        "warning": "",
    }
    if scene.view in (View.OVER, View.SETUP):  # the game that had ended is on again
        changes.update(view=View.PLAYING, outcome=None, set_winner=None, setup=None)
        changes.update(score=scene.score_before_over, holding_result=False)
    return changes
