"""What the nest shows: the referee's signals turned into the OLED's screen, the status
lights and the cell lights. Pure: the drivers in ``hardware/`` draw what it decides.
Its words are fitted to the OLED by :mod:`firmware_host.daemon.oled_words`.

The OLED is read from across the table: a headline in big letters (whose turn, ILLEGAL,
CAPTURE, who won, SET UP) and up to three short lines. Every line is worded to fit the
OLED's 124 pixels whole (``fits``): a sentence too long for one line takes two, a
list too long says how many it leaves out, and what matters least gives way first
(``arranged``). The lights follow one grammar, the same on the status LEDs and the
cell LEDs (docs/daemon.md): steady for facts, slow blinking for what to do next, fast
blinking for what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from firmware_host.daemon.oled_words import (
    MAX_LINES,
    Block,
    arranged,
    first_fitting,
    listed,
    strike_lines,
)
from firmware_host.daemon.remote_play import RemoteShown, RemoteStage
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
    StrikeAnnounced,
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
    """A correction step, in a few words for the OLED."""
    if step.kind is FixKind.MOVE:
        return f"move {step.source} to {step.target}"
    if step.kind is FixKind.REMOVE:
        return f"take off {step.source}"
    return f"put {step.piece.label if step.piece else 'a piece'} on {step.target}"


def short_step_text(step: FixStep) -> str:
    """The same, shorter (the piece not named)."""
    if step.kind is FixKind.PLACE:
        return f"fill {step.target}"
    return step_text(step)


@dataclass
class Presenter:
    """Follows the signals; :meth:`screen`, :meth:`lights` and :meth:`cells` say what
    to show now."""

    game: Game
    address: str = ""  # the web page's address, when the daemon serves one
    pin: str = ""  # the PIN players at other machines give the page, when one is needed
    own_screen: tuple[str, str] | None = None  # (side, its own PIN) while two buttons show it (own_screens.py)
    view: View = View.STARTING
    side: Side | None = None  # to move
    plies: int | None = None  # moves made in the game so far (None: not known yet, as after a restart)
    played: list[MoveAccepted] = field(default_factory=list)  # this game's moves seen, oldest first
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
    position: str = ""  # the game's position now, in its notation ("" if not known)
    number: int = 1  # of the game in its set
    warning: str = ""  # a missed capture under lenient refereeing, until the next move
    faults: set[str] = field(default_factory=set)
    sensors_connected: bool = True
    storage_ok: bool = True  # False while moves cannot be recorded (a full disk)
    storage_trouble: str = "disk error"  # then why: locked, read-only, disk full, disk error
    notice: str = ""  # from the boot self-test, until the first move
    computers: frozenset[Side] = frozenset()  # the sides the computer plays
    computer_level: int = 0
    thinking: bool = False  # the computer is choosing the move of the side to move
    computer_move: Move | None = None  # the computer's move, for the players to make
    hint_wanted: bool = False  # the players asked for a hint; the engine is choosing it
    hint: Move | None = None  # the engine's suggestion for the side to move, until a move is made
    clock: tuple[str, str] | None = None  # red's and blue's time, when the game has a clock
    strike: StrikeAnnounced | None = None  # the last strike announced, until the next move
    strike_made: bool = False  # ...and whether the nest has shown it made
    remote: RemoteShown | None = None  # remote play, with a [broker] (the remote side is in computers)
    _start: str = ""  # the game's first position

    def apply(self, signal: Signal) -> None:
        """Take in one signal."""
        if not isinstance(signal, MissedCapture | SensorFault | SensorRecovered | ComputerMove):
            self.hint_wanted, self.hint = False, None  # a hint is for the position it was asked in
        if isinstance(signal, GameStarted | GameOver | GameAbandoned | CorrectionNeeded):
            self.question = ()  # whatever was asked no longer stands
        if isinstance(signal, GameStarted | GameAbandoned | TakenBack):
            self.thinking, self.computer_move = False, None
            self.strike = None
        if isinstance(signal, StrikeAnnounced):
            self.strike, self.strike_made = signal, False
        elif isinstance(signal, MoveAccepted) and self.strike is not None:
            if signal.move == self.strike.move and not self.strike_made:
                self.strike_made = True  # its words stay up until the next move
            else:
                self.strike = None
        if isinstance(signal, GameStarted):
            self.view, self.number, self.outcome, self.set_winner = View.PLAYING, signal.number, None, None
            self.side, self.plies, self.played, self.last_move = signal.starter, 0, [], None
            self.position = self._start = signal.position
            self.setup, self.captures = None, ()
            if signal.new_set:
                self.score = (0, 0)
        elif isinstance(signal, TurnStarted):
            self.view, self.side, self.captures = View.PLAYING, signal.side, signal.captures
            self.refused, self.correction, self.question = None, None, ()
            self.thinking, self.computer_move = signal.by_computer, None
            if self.plies != signal.ply:  # resumed after a restart: the moves before were not seen
                self.plies, self.played, self.last_move = signal.ply, [], None
        elif isinstance(signal, ComputerMove):
            self.thinking, self.computer_move = False, signal.move
        elif isinstance(signal, MoveAccepted):
            self.last_move, self.warning, self.position, self.notice = signal.move, "", signal.position, ""
            self.played.append(signal)
            self.side, self.plies = signal.side.opponent, signal.ply
            self.thinking, self.computer_move = False, None  # made; the next turn's comes with its announcement
        elif isinstance(signal, MissedCapture):
            self.warning = listed("missed", [str(move) for move in signal.captures])
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
            self._take_back(signal)
        elif isinstance(signal, GameOver):
            self.thinking, self.computer_move = False, None
            self.score_before_over = self.score
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

    def _take_back(self, signal: TakenBack) -> None:
        """The move of ply ``signal.ply`` is no longer played: its side is to move again,
        the move before it is the last (the nest is put right before the turn is
        announced again, so whose turn it is must be right meanwhile)."""
        taken = next((played for played in self.played if played.ply == signal.ply), None)
        if taken is not None:
            self.side = taken.side
        elif self.side is not None:  # a move made before a restart: turns alternate, passes included
            self.side = self.side.opponent
        self.played = [played for played in self.played if played.ply < signal.ply]
        self.plies = signal.ply - 1
        before = self.played[-1] if self.played and self.played[-1].ply == self.plies else None
        self.last_move = before.move if before is not None else None
        self.position = before.position if before is not None else self._start if self.plies == 0 else ""
        self.captures, self.warning = (), ""  # the turn's captures come with its announcement
        if self.view in (View.OVER, View.SETUP):  # the game that had ended is on again
            self.view, self.outcome, self.set_winner, self.setup = View.PLAYING, None, None, None
            self.score, self.holding_result = self.score_before_over, False

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
            return f"cannot save games: {self.storage_trouble}"  # each of them fits
        remote = self.remote
        if remote is not None and remote.stage is RemoteStage.PLAYING and not remote.is_link_up:
            return first_fitting([remote.link], footer=True)  # the game waits: say why, and since when
        if self.faults:
            return listed("faulty:", sorted(self.faults), footer=True)
        if self.notice:
            return first_fitting([self.notice], footer=True)
        if self.clock is not None and self.view in (View.PLAYING, View.QUESTION, View.CORRECTING):
            red, blue = self.clock  # while a game is played, its times matter most
            return first_fitting([f"red {red}  blue {blue}", f"R {red}  B {blue}"], footer=True)
        score = f"set {self.score[0]}-{self.score[1]}"
        if self.pin:  # the score is on the page and on the result screens; this line is short
            pin = f"PIN {self.pin if show_pin else HIDDEN_PIN}"
            return first_fitting([f"{pin} {self.address}".rstrip(), pin], footer=True)
        if self.address:  # the terminal printed the address too: the score gives way
            return first_fitting([f"{score}  {self.address}", self.address, score], footer=True)
        return score

    def screen(self, *, show_pin: bool = True) -> Screen:
        """What the OLED shows now; without ``show_pin``, with the PIN starred out."""
        footer = self.footer(show_pin=show_pin)
        if self.own_screen is not None:  # first: only while the buttons are held
            side, pin = self.own_screen
            shown = pin if show_pin else "*" * len(pin)
            return Screen(f"PIN {shown}", (f"{side}'s own screen:", self.address, "/player.html"), "let go to hide it")
        if self.view is View.STARTING:
            return Screen("nestref", ("starting...",), footer)
        remote_screen = self._remote_screen(footer)
        if remote_screen is not None:
            return remote_screen
        if self.view is View.CORRECTING and self.correction is not None:
            return self._correction_screen(self.correction, footer)
        if self.view is View.QUESTION and self.question:
            if len(self.question) == 1:  # a confirmation: the one move the nest may show
                return Screen("CONFIRM?", (f"{self.question[0]} made?",), "confirm: yes")
            # Three answers show at a time, the one pointed at among them.
            first = min(max(0, self.highlighted - 1), max(0, len(self.question) - MAX_LINES))
            options = tuple(
                ("> " if i == self.highlighted else "  ") + str(self.question[i])
                for i in range(first, min(first + MAX_LINES, len(self.question)))
            )
            return Screen("WHICH?", options, "switch: next  confirm: ok")
        if self.view is View.OVER and self.outcome is not None:
            return self._over_screen(footer)
        if self.view is View.SETUP and self.setup is not None:
            return self._setup_screen(self.setup, footer)
        if self.side is None:
            return Screen("nestref", (), footer)
        is_remote = self.remote is not None and self.remote.stage is RemoteStage.PLAYING
        if self.strike is not None:  # what the strike revealed, for both players to read
            return Screen("STRIKE", strike_lines(self.strike.words), footer)
        if self.computer_move is not None:  # the move in big letters, to read across the table
            whose = "their move" if is_remote else "computer's move"
            return Screen(str(self.computer_move), (whose, "make it on the nest"), footer)
        if self.hint is not None:  # as the computer's move, and said to be a hint
            return Screen(str(self.hint), arranged([Block.of(f"hint for {self.side.label}", "hint")]), footer)
        if self.hint_wanted:
            return Screen("HINT", arranged([Block.of("the computer is", rank=1, optional=True),
                                            Block.of("choosing a hint", "thinking")]), footer)  # fmt: skip
        last = Block.of(f"last: {self.last_move}", rank=2, optional=True) if self.last_move else Block(((),))
        if self.thinking and self.remote is not None and is_remote:
            waiting = "waiting for the copy" if self.remote.is_waiting_for_copy else "their move, at their nest"
            return Screen(self.side.label.upper(), arranged([Block.of(waiting, "waiting"), last]), footer)
        if self.thinking:
            return Screen("THINKING", arranged([Block.of(f"computer is {self.side.label}"), last]), footer)
        if self.captures:
            captures = [str(move) for move in self.captures]
            lines = arranged([Block.of(f"{self.side.label} must take:"), Block.of(listed("", captures)), last])
            return Screen("CAPTURE", lines, footer)
        if self.plies == 0:  # the first move of a game: what to do
            return Screen(
                self.side.label.upper(), arranged([Block.of("to move"), Block.of("lift a piece to move it")]), footer
            )
        warning = Block.of(self.warning, rank=1, optional=True) if self.warning else Block(((),))
        return Screen(self.side.label.upper(), arranged([Block.of("to move"), last, warning]), footer)

    def _remote_screen(self, footer: str) -> Screen | None:
        """Remote play's own screens: the code offered or being entered, a desync, the
        other side's proposal to answer. None: the game's screens as usual."""
        remote = self.remote
        if remote is None:
            return None
        stage = remote.stage
        if stage is RemoteStage.ENTERING:
            code = remote.code + remote.choosing
            return Screen(
                code.ljust(6, "_"),
                arranged([Block.of("switch: next  confirm: ok", "switch, confirm"), Block.of("take back: undo")]),
                footer,
            )
        if stage is RemoteStage.OFFERING:
            lines = arranged([Block.of("game code: join with it", "game code"), Block.of("at the other nest")])
            return Screen(remote.code, lines, footer)
        if stage is RemoteStage.JOINING:
            return Screen(remote.code, arranged([Block.of("joining...")]), footer)
        if stage is RemoteStage.DESYNC:
            lines = arranged([Block.of(remote.desync, "the records differ"), Block.of("hold take back: leave", rank=1)])
            return Screen("DESYNC", lines, "play stopped on both nests", alert=True)
        if stage is RemoteStage.PLAYING and remote.their_proposal is not None and not self.question:
            draw = remote.their_proposal.value == "draw"
            asked = "they offer a draw" if draw else "they ask to take back"
            lines = arranged([Block.of(asked), Block.of("confirm: yes  switch: no", "confirm / switch")])
            return Screen("DRAW?" if draw else "UNDO?", lines, footer)
        return None

    def _correction_screen(self, correction: CorrectionNeeded, footer: str) -> Screen:
        cause = correction.cause
        headline = {
            CorrectionCause.ILLEGAL_MOVE: "ILLEGAL",
            CorrectionCause.DISTURBED: "FIX NEST",
            CorrectionCause.TAKE_BACK: "UNDO",
            CorrectionCause.RESUMED: "FIX NEST",
        }[cause]
        blocks: list[Block] = []
        if self.refused is not None and cause is CorrectionCause.ILLEGAL_MOVE:
            blocks.append(Block.of(*self._refusal_words(self.refused), rank=1))
        elif cause is CorrectionCause.RESUMED:
            blocks.append(Block.of("resumed game", rank=1, optional=True))
        steps = correction.steps
        if steps:
            more = f"then {len(steps) - 1} more" if len(steps) > 1 else ""
            blocks.append(Block.of(step_text(steps[0]), short_step_text(steps[0])))
            if more:
                blocks.append(Block.of(more, rank=2, optional=True))
        return Screen(headline, arranged(blocks), footer, alert=cause is CorrectionCause.ILLEGAL_MOVE)

    def _refusal_words(self, refused: MoveRefused) -> list[str]:
        """Why a move was refused, the fullest first: the move and the rule it broke."""
        attempt = f"{refused.attempt}: " if refused.attempt is not None else ""
        if refused.rule is not None:
            words = self.game.rule_words(refused.rule)
            return [attempt + words, words]
        if self.computer_move is not None:  # not the computer's move (the referee's words are long)
            return [f"{attempt}play {self.computer_move}", f"play {self.computer_move}"]
        if self.thinking or (self.side is not None and self.side in self.computers):
            return [f"{attempt}wait for the computer", "wait for the computer"]
        return [refused.reason, attempt + "not a legal move", "not a legal move"]

    def _over_screen(self, footer: str) -> Screen:
        outcome = self.outcome
        assert outcome is not None
        # How the next game starts: the nest set up for it (the referee starts it then).
        number = self.setup.number if self.setup is not None else self.number + 1
        if self.set_winner is not None or number == 1:
            hint = Block.of("set up: new set", "set up", rank=1)
        else:
            hint = Block.of(f"set up for game {number}", f"set up game {number}", rank=1)
        if outcome.winner is None:
            agreed = self.remote is not None and self.remote.said.endswith("a draw by agreement")
            words = Block.of("drawn by agreement" if agreed else self.game.outcome_words(outcome))
            return Screen("DRAW", arranged([words, Block.of("game played again", rank=2, optional=True), hint]), footer)
        headline = f"{outcome.winner.label.upper()} WINS"
        blocks = [Block.of(self.game.outcome_words(outcome))]
        if self.set_winner is not None:
            high, low = max(self.score), min(self.score)
            blocks.append(Block.of(f"and the set, {high}-{low}", f"set {high}-{low}", rank=2, optional=True))
        return Screen(headline, arranged([*blocks, hint]), footer)

    def _setup_screen(self, setup: SetupNeeded, footer: str) -> Screen:
        blocks = [Block.of(f"game {setup.number}: {setup.starter.label} starts")]
        if self.computers:
            sides = "both" if len(self.computers) > 1 else next(iter(self.computers)).label
            blocks.append(Block.of(f"computer: {sides} L{self.computer_level}", rank=2, optional=True))
        fill, empty = [f"+{cell}" for cell in setup.fill], [f"-{cell}" for cell in setup.empty]
        if fill and empty:
            both = f"fill {len(fill)}, empty {len(empty)}"
            blocks.append(
                Block(((listed(f"fill {len(fill)}:", fill), listed(f"empty {len(empty)}:", empty)), (both,)), rank=1)
            )
        elif fill or empty:
            blocks.append(
                Block.of(listed(f"fill {len(fill)}:" if fill else f"empty {len(empty)}:", fill or empty), rank=1)
            )
        return Screen("SET UP", arranged(blocks), footer)

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

    def _move_shown(self) -> Move | None:
        """The move lit on the nest for the players: the computer's, or a hint."""
        return self.computer_move if self.computer_move is not None else self.hint

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
        elif self.view is View.PLAYING and self.strike is not None and not self.strike_made:
            lit.update(dict.fromkeys(self.strike.removed, Blink.FAST))  # take these off...
            if self.strike.winner_on is not None:
                lit[self.strike.winner_on] = Blink.ON  # ...the winner stands here
        elif self.view is View.PLAYING and (shown := self._move_shown()) is not None:
            if shown.origin is not None and shown.target is not None:
                lit[shown.origin] = Blink.SLOW  # what to do next: this piece...
                lit[shown.target] = Blink.ON  # ...to here (the piece it captures stands here)
        elif self.view is View.PLAYING and not self.thinking:
            for move in self.captures:
                if move.origin is not None and move.target is not None:
                    lit[move.origin] = Blink.SLOW
                    lit[move.target] = Blink.ON
        return lit
