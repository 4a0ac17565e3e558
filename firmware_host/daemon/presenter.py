"""What the nest shows: the referee's signals turned into the OLED's screen, the status
lights and the cell lights. Pure: the drivers in ``hardware/`` draw what it decides.

The OLED is read from across the table: a headline in big letters (whose turn, ILLEGAL,
CAPTURE, who won, SET UP) and a few short lines. The lights follow one grammar, the same
on the status LEDs and the cell LEDs (docs/daemon.md): steady for facts, slow blinking
for what to do next, fast blinking for what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from firmware_host.games.base import Game, Move, Outcome, Side
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
from hardware.outputs import Blink, Screen

HIDDEN_PIN = "****"  # the PIN, on the page of a player who has not given it


class View(Enum):
    STARTING = "starting"
    PLAYING = "playing"
    CORRECTING = "correcting"
    QUESTION = "question"
    OVER = "over"
    SETUP = "setup"


def step_text(step: FixStep) -> str:
    """A correction step, short enough for the OLED."""
    if step.kind is FixKind.MOVE:
        return f"move {step.source} to {step.target}"
    if step.kind is FixKind.REMOVE:
        return f"take off {step.source}"
    return f"put {step.piece.label if step.piece else 'a piece'} on {step.target}"


@dataclass
class Presenter:
    """Follows the signals; :meth:`screen`, :meth:`lights` and :meth:`cells` say what
    to show now."""

    game: Game
    address: str = ""  # the web page's address, when the daemon serves one
    pin: str = ""  # the PIN players at other machines give the page, when one is needed
    view: View = View.STARTING
    side: Side | None = None  # to move
    last_move: Move | None = None
    captures: tuple[Move, ...] = ()
    refused: MoveRefused | None = None
    correction: CorrectionNeeded | None = None
    question: tuple[Move, ...] = ()
    highlighted: int = 0  # the answer the buttons point at
    outcome: Outcome | None = None
    score: tuple[int, int] = (0, 0)
    set_winner: Side | None = None
    setup: SetupNeeded | None = None
    holding_result: bool = False  # the result stays up until the players touch the nest
    position: str = ""  # NFN after the last move
    number: int = 1  # of the game in its set
    warning: str = ""  # a missed capture under lenient refereeing, until the next move
    faults: set[str] = field(default_factory=set)
    sensors_connected: bool = True
    storage_ok: bool = True  # False while moves cannot be recorded (a full disk)
    notice: str = ""  # from the boot self-test, until the first move
    computers: frozenset[Side] = frozenset()  # the sides the computer plays
    computer_level: int = 0
    thinking: bool = False  # the computer is choosing the move of the side to move
    computer_move: Move | None = None  # the computer's move, for the players to make

    def apply(self, signal: Signal) -> None:
        """Take in one signal."""
        if isinstance(signal, GameStarted | GameOver | GameAbandoned | CorrectionNeeded):
            self.question = ()  # whatever was asked no longer stands
        if isinstance(signal, GameStarted | GameAbandoned | TakenBack):
            self.thinking, self.computer_move = False, None
        if isinstance(signal, GameStarted):
            self.view, self.number, self.last_move, self.outcome, self.set_winner = (
                View.PLAYING,
                signal.number,
                None,
                None,
                None,
            )
            self.setup = None
            if signal.new_set:
                self.score = (0, 0)
        elif isinstance(signal, TurnStarted):
            self.view, self.side, self.captures = View.PLAYING, signal.side, signal.captures
            self.refused, self.correction, self.question = None, None, ()
            self.thinking, self.computer_move = signal.by_computer, None
        elif isinstance(signal, ComputerMove):
            self.thinking, self.computer_move = False, signal.move
        elif isinstance(signal, MoveAccepted):
            self.last_move, self.warning, self.position, self.notice = signal.move, "", signal.position, ""
        elif isinstance(signal, MissedCapture):
            self.warning = f"missed {' '.join(map(str, signal.captures))}"
        elif isinstance(signal, MoveRefused):
            self.refused = signal
        elif isinstance(signal, CorrectionNeeded):
            self.view, self.correction = View.CORRECTING, signal
        elif isinstance(signal, Corrected):
            self.refused, self.correction = None, None
        elif isinstance(signal, MoveQuestion):
            self.view, self.question, self.highlighted = View.QUESTION, signal.options, 0
        elif isinstance(signal, QuestionClosed):
            self.question = ()
            if self.view is View.QUESTION:
                self.view = View.PLAYING
        elif isinstance(signal, TakenBack):
            self.last_move = None
        elif isinstance(signal, GameOver):
            self.thinking, self.computer_move = False, None
            self.view, self.outcome, self.score, self.set_winner = (
                View.OVER,
                signal.outcome,
                signal.score,
                signal.set_winner,
            )
            self.holding_result = True
        elif isinstance(signal, GameAbandoned):
            self.outcome = None
        elif isinstance(signal, SetupNeeded):
            self.setup = signal
            if self.holding_result:  # the first, sent with the result: keep the result up
                self.holding_result = False
            else:
                self.view = View.SETUP
        elif isinstance(signal, SensorFault):
            self.faults.add(signal.cell)
        elif isinstance(signal, SensorRecovered):
            self.faults.discard(signal.cell)

    def next_answer(self) -> Move | None:
        """Point at the next answer of an open question; the one pointed at."""
        if not self.question:
            return None
        self.highlighted = (self.highlighted + 1) % len(self.question)
        return self.question[self.highlighted]

    @property
    def answer(self) -> Move | None:
        """The answer the buttons point at, if a question is open."""
        return self.question[self.highlighted] if self.question else None

    # -- the OLED ---------------------------------------------------------------------

    def footer(self, *, show_pin: bool = True) -> str:
        """The OLED's bottom line; without ``show_pin``, the PIN starred out (for the
        pages that have not given it: only the nest's own screen shows it)."""
        if not self.sensors_connected:
            return "sensors not connected"
        if not self.storage_ok:
            return "cannot save games: disk full?"
        if self.faults:
            return f"faulty: {' '.join(sorted(self.faults))}"
        if self.notice:
            return self.notice
        score = f"set {self.score[0]}-{self.score[1]}"
        if self.pin:  # the score is on the page and on the result screens; this line is short
            return f"PIN {self.pin if show_pin else HIDDEN_PIN} {self.address}".rstrip()
        return f"{score}  {self.address}" if self.address else score

    def screen(self, *, show_pin: bool = True) -> Screen:
        """What the OLED shows now; without ``show_pin``, with the PIN starred out."""
        footer = self.footer(show_pin=show_pin)
        if self.view is View.STARTING:
            return Screen("nestref", ("starting...",), footer)
        if self.view is View.CORRECTING and self.correction is not None:
            cause = self.correction.cause
            headline = {
                CorrectionCause.ILLEGAL_MOVE: "ILLEGAL",
                CorrectionCause.DISTURBED: "FIX NEST",
                CorrectionCause.TAKE_BACK: "UNDO",
                CorrectionCause.RESUMED: "FIX NEST",
            }[cause]
            lines: list[str] = []
            if self.refused is not None and cause is CorrectionCause.ILLEGAL_MOVE:
                attempt = f"{self.refused.attempt}: " if self.refused.attempt else ""
                lines.append(
                    attempt + (self.game.rule_words(self.refused.rule) if self.refused.rule else self.refused.reason)
                )
            elif cause is CorrectionCause.RESUMED:
                lines.append("resumed game")
            steps = self.correction.steps
            if steps:
                lines.append(step_text(steps[0]))
                if len(steps) > 1:
                    lines.append(f"then {len(steps) - 1} more")
            return Screen(headline, tuple(lines), footer, alert=cause is CorrectionCause.ILLEGAL_MOVE)
        if self.view is View.QUESTION and self.question:
            if len(self.question) == 1:  # a confirmation: the one move the nest may show
                return Screen("CONFIRM?", (f"{self.question[0]} made?",), "confirm: yes")
            options = tuple(
                ("> " if i == self.highlighted else "  ") + str(move) for i, move in enumerate(self.question)
            )
            return Screen("WHICH?", options[:3], "switch: next  confirm: ok")
        if self.view is View.OVER and self.outcome is not None:
            return self._over_screen(footer)
        if self.view is View.SETUP and self.setup is not None:
            setup = self.setup
            todo = [f"game {setup.number}: {setup.starter.label} starts"]
            if self.computers:
                sides = " & ".join(side.label for side in Side if side in self.computers)
                todo.append(f"computer: {sides} L{self.computer_level}")
            if setup.fill or setup.empty:
                todo.append(f"fill {len(setup.fill)}, empty {len(setup.empty)}")
                first = [f"+{cell}" for cell in setup.fill[:3]] + [f"-{cell}" for cell in setup.empty[:2]]
                todo.append(" ".join(first[:4]))
            return Screen("SET UP", tuple(todo), footer)
        if self.side is None:
            return Screen("nestref", (), footer)
        last = f"last: {self.last_move}" if self.last_move is not None else "first move"
        if self.computer_move is not None:  # the move in big letters, to read across the table
            return Screen(str(self.computer_move), ("computer's move", "make it on the nest"), footer)
        if self.thinking:
            return Screen("THINKING", (f"computer is {self.side.label}", last), footer)
        if self.captures:
            return Screen(
                "CAPTURE",
                (f"{self.side.label} must take:", " ".join(map(str, self.captures))[:40], last),
                footer,
            )
        turn = ("to move", last) + ((self.warning,) if self.warning else ())
        return Screen(self.side.label.upper(), turn, footer)

    def _over_screen(self, footer: str) -> Screen:
        outcome = self.outcome
        assert outcome is not None
        if outcome.winner is None:
            return Screen("DRAW", (self.game.outcome_words(outcome), "game played again"), footer)
        headline = f"{outcome.winner.label.upper()} WINS"
        result: tuple[str, ...] = (self.game.outcome_words(outcome),)
        if self.set_winner is not None:
            result += (f"and the set, {max(self.score)}-{min(self.score)}",)
        return Screen(headline, result, footer)

    def _deciding_cell(self) -> str | None:
        """The piece that decided the game: the one the game names (Operation Cuckoo:
        the winner's lone cuckoo), or else the piece that made the last move."""
        outcome = self.outcome
        if outcome is None or outcome.winner is None:
            return None
        cell = self.game.outcome_cell(self.game.read_position(self.position), outcome) if self.position else None
        if cell is not None:
            return cell
        return self.last_move.target if self.last_move is not None else None

    # -- the lights ---------------------------------------------------------------------

    def lights(self) -> dict[str, Blink]:
        """The status lights, by the names of the config's ``[status_lights]``: whose
        turn (``red_turn``, ``blue_turn``), something wrong (``error``), a capture to
        make (``capture``)."""
        turn = {Side.RED: Blink.OFF, Side.BLUE: Blink.OFF}
        error, capture = Blink.OFF, Blink.OFF
        if self.view in (View.PLAYING, View.CORRECTING, View.QUESTION) and self.side is not None:
            turn[self.side] = Blink.ON
            capture = Blink.ON if self.captures else Blink.OFF
        elif self.view is View.OVER and self.outcome is not None:
            for side in Side:
                if self.outcome.winner in (side, None):
                    turn[side] = Blink.SLOW
        elif self.view is View.SETUP and self.setup is not None:
            turn[self.setup.starter] = Blink.SLOW
        if self.view is View.CORRECTING or not self.sensors_connected or not self.storage_ok:
            error = Blink.FAST
        elif self.view is View.QUESTION:
            error = Blink.SLOW
        elif self.faults or self.notice:
            error = Blink.ON
        return {"red_turn": turn[Side.RED], "blue_turn": turn[Side.BLUE], "error": error, "capture": capture}

    def cells(self) -> dict[str, Blink]:
        """The cell LEDs: the cells to show, and how."""
        lit: dict[str, Blink] = {}
        if self.view is View.CORRECTING and self.correction is not None:
            for i, step in enumerate(self.correction.steps):
                for cell, blink in ((step.source, Blink.FAST), (step.target, Blink.ON)):
                    if cell is not None:
                        lit[cell] = blink if i == 0 else Blink.SLOW
        elif self.view is View.QUESTION and self.question:
            for i, move in enumerate(self.question):
                for cell in (move.origin, move.target):
                    if cell is not None:
                        lit[cell] = Blink.FAST if i == self.highlighted else Blink.SLOW
        elif self.view is View.SETUP and self.setup is not None:
            lit.update(dict.fromkeys(self.setup.fill, Blink.ON))
            lit.update(dict.fromkeys(self.setup.empty, Blink.FAST))
        elif (
            self.view is View.OVER
            and self.outcome is not None
            and self.outcome.winner
            and not self.outcome.is_resignation
        ):
            cell = self._deciding_cell()
            if cell is not None:
                lit[cell] = Blink.FAST
        elif self.view is View.PLAYING and self.computer_move is not None:
            move = self.computer_move
            if move.origin is not None and move.target is not None:
                lit[move.origin] = Blink.SLOW  # what to do next: this piece...
                lit[move.target] = Blink.ON  # ...to here (the piece it captures stands here)
        elif self.view is View.PLAYING and not self.thinking:
            for move in self.captures:
                if move.origin is not None and move.target is not None:
                    lit[move.origin] = Blink.SLOW
                    lit[move.target] = Blink.ON
        return lit
