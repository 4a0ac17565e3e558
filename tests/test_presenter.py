"""The presenter's screens stay true and fit: over random games (hypothesis) played by
hands on the referee — moves, captures, illegal attempts, pieces knocked, take backs,
resignations, new games, the computer's moves, questions answered, nests set up and put
right — the scene after every signal is the referee's state (whose turn, the
last move, the moves made, the captures to make, the score), and no text on any screen
is cut."""

from __future__ import annotations

import contextlib
import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.legacy import text
from PIL import Image, ImageDraw

from firmware_host.daemon.lights import cells, lights
from firmware_host.daemon.oled_words import MAX_HEADLINE_WIDTH, MAX_LINES, fits, text_width
from firmware_host.daemon.presenter import Scene, View
from firmware_host.daemon.screens import screen
from firmware_host.games.base import PublicText, PublicView
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Move, Nest, Piece, Position, Rule, Side, WinCondition
from firmware_host.games.cuckoo.rules import Outcome as CuckooOutcome
from firmware_host.referee.referee import CommandError, Mode, Referee, Settings
from firmware_host.referee.signals import (
    CorrectionCause,
    CorrectionNeeded,
    FixKind,
    FixStep,
    GameOver,
    MoveQuestion,
    MoveRefused,
    SetupNeeded,
    Signal,
    TakenBack,
    TurnStarted,
)
from hardware.display import FOOTER_FONT, HEIGHT, LINE_FONT, LINE_WIDTH, WIDTH, render
from hardware.outputs import Blink, Screen
from tests.referee_helpers import referee_for

NEST = Nest.default()
GAME = CuckooGame(NEST)
SEEDS = st.integers(0, 2**32)


def assert_fits(screen: Screen) -> None:
    """Nothing on ``screen`` is cut: the headline, every line and the footer are drawn
    whole, and there are no more lines than the OLED shows."""
    assert text_width(screen.headline) <= MAX_HEADLINE_WIDTH, screen
    assert len(screen.lines) <= MAX_LINES, screen
    for line in screen.lines:
        assert fits(line), (line, screen)
    assert fits(screen.footer, footer=True), screen


# -- the presenter's measure is the driver's ------------------------------------------------


def drawn_alone(line: str, *, footer: bool) -> Image.Image:
    """``line`` drawn whole, as the driver draws a line (or the footer), on a wide canvas."""
    canvas = Image.new("1", (1000, 8), 0)
    text(ImageDraw.Draw(canvas), (2, 0), line, fill=1, font=FOOTER_FONT if footer else LINE_FONT)
    return canvas.crop((0, 0, WIDTH - 2, 8))


def drawn_by_the_driver(line: str, *, footer: bool) -> Image.Image:
    if footer:
        return render(Screen("", (), line)).crop((0, HEIGHT - 7, WIDTH - 2, HEIGHT + 1))
    return render(Screen("", (line,), "")).crop((0, 20, WIDTH - 2, 28))


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 -:+()'", min_size=1, max_size=40), st.booleans())
def test_a_line_that_fits_is_drawn_whole_and_one_that_does_not_is_cut(line, footer):
    # The driver (hardware/display.py) cuts what it cannot draw whole: the presenter's
    # measure must say what the driver does, for the same fonts and width.
    assert (drawn_by_the_driver(line, footer=footer) == drawn_alone(line, footer=footer)) == fits(line, footer=footer)


def test_the_widest_lines_that_fit():
    assert LINE_WIDTH == WIDTH - 4
    line = "m" * 40
    while not fits(line):
        line = line[:-1]
    assert drawn_by_the_driver(line, footer=False) == drawn_alone(line, footer=False)
    assert drawn_by_the_driver(line + "m", footer=False) != drawn_alone(line + "m", footer=False)


# -- random games on the referee ----------------------------------------------------------


class Players:
    """Hands at the nest and fingers on the buttons, choosing at random what to do next,
    the referee judging and the scene following every signal."""

    def __init__(self, rng: random.Random, *, computers: frozenset[Side]) -> None:
        self.rng = rng
        start = Position.from_lineup(rng.choice(list(NEST.lineup_names)), turn=rng.choice(list(Side)))
        self.referee, signals = referee_for(start, settings=Settings(computers=computers))
        self.occupied = set(start.occupied())
        self.scene = Scene(GAME, computers=computers, computer_level=1)
        self.time = 0
        self.last_correction: CorrectionNeeded | None = None
        self.last_setup: SetupNeeded | None = None
        self.seen: set[type] = set()
        self.take(signals)

    # -- the referee, the scene --

    def take(self, signals: list[Signal]) -> None:
        for signal in signals:
            self.scene = self.scene.following(signal)
            assert_fits(screen(self.scene))
            assert_fits(screen(self.scene, show_pin=False))
            self.seen.add(type(signal))
            if isinstance(signal, CorrectionNeeded):
                self.last_correction = signal
            if isinstance(signal, SetupNeeded):
                self.last_setup = signal
        check_the_view(self.scene, self.referee)

    def sense(self, cell: str, occupied: bool) -> None:
        self.time += self.rng.randint(200, 600)
        (self.occupied.add if occupied else self.occupied.discard)(cell)
        self.take(self.referee.sense(cell, occupied, self.time))

    def settle(self) -> None:
        """Time passes until the referee waits for nothing but the players."""
        for _ in range(1000):
            due = self.referee.next_deadline()
            if due is None:
                return
            self.time = max(self.time, due)
            self.take(self.referee.tick(due))
        raise AssertionError("the referee never settles")

    def command(self, name: str, *args: object) -> None:
        self.time += 500
        with contextlib.suppress(CommandError):
            self.take(getattr(self.referee, name)(*args, self.time))

    # -- what the players do --

    def turn(self) -> None:
        """One thing done, as the nest asks or at random; then the nest left alone."""
        referee, rng = self.referee, self.rng
        if referee.mode is Mode.SETUP:
            self.set_up()
        elif referee.mode is Mode.CORRECTING:
            self.put_right()
        elif referee.question:
            self.command("answer", rng.choice(referee.question))
        elif referee.wants_computer_move and rng.random() < 0.9:
            assert referee.position is not None
            self.command("play_computer_move", rng.choice(list(referee.position.legal_moves())))
        else:
            choice = rng.random()
            if choice < 0.65:
                self.move()
            elif choice < 0.77:
                self.command("take_back")
            elif choice < 0.85:
                self.wrong_move()
            elif choice < 0.9:
                self.sense(rng.choice(sorted(self.occupied)), False)  # a piece knocked off
            elif choice < 0.95:
                assert referee.position is not None
                self.command("resign", rng.choice(list(Side)))
            else:
                self.command("new_game")
        self.settle()

    def move(self) -> None:
        """A legal move by hand (the computer's, if it chose one): a capture with the
        captured piece lifted first."""
        position = self.referee.position
        assert position is not None
        move = self.referee.computer_move or self.rng.choice(list(position.legal_moves()))
        if move.is_pass:
            return
        assert move.origin is not None and move.target is not None
        if move.is_capture:
            self.sense(move.target, False)
        self.sense(move.origin, False)
        self.sense(move.target, True)

    def wrong_move(self) -> None:
        """One of the side to move's pieces put down on an empty cell near it."""
        position = self.referee.position
        assert position is not None
        own = sorted(cell for cell, piece in position.pieces().items() if piece.side is position.turn)
        origin = self.rng.choice(own)
        empty = sorted(cell for cell in NEST.cells if cell not in self.occupied and NEST.distance(origin, cell) <= 2)
        if empty:
            self.sense(origin, False)
            self.sense(self.rng.choice(empty), True)

    def put_right(self) -> None:
        """The first step of the plan the OLED shows."""
        assert self.last_correction is not None
        step = self.last_correction.steps[0]
        if step.kind is not FixKind.PLACE:
            assert step.source is not None
            self.sense(step.source, False)
        if step.kind is not FixKind.REMOVE:
            assert step.target is not None
            self.sense(step.target, True)

    def set_up(self) -> None:
        """One cell of the next lineup filled or emptied, as the OLED asks."""
        setup = self.last_setup
        assert setup is not None
        cells = [(cell, True) for cell in setup.fill] + [(cell, False) for cell in setup.empty]
        if cells:
            self.sense(*self.rng.choice(cells))


def check_the_view(scene: Scene, referee: Referee) -> None:
    """What the scene shows is the referee's state."""
    lit = lights(scene)
    if referee.mode is Mode.SETUP:
        assert scene.view in (View.OVER, View.SETUP)
        assert Blink.ON not in (lit["red_turn"], lit["blue_turn"])
        return
    position = referee.position
    assert position is not None
    playing = referee.mode is Mode.PLAYING
    assert scene.view in ((View.PLAYING, View.QUESTION) if playing else (View.CORRECTING,))
    stack = position.move_stack
    assert scene.side is position.turn
    assert (lit["red_turn"], lit["blue_turn"]) == (
        (Blink.ON, Blink.OFF) if position.turn is Side.RED else (Blink.OFF, Blink.ON)
    )
    assert scene.plies == len(stack)
    assert scene.last_move == (stack[-1] if stack else None)
    assert scene.position == position.to_text()
    assert scene.number == referee.number
    assert scene.score == referee.games.score
    assert scene.computer_move == referee.computer_move
    if scene.thinking:
        assert referee.wants_computer_move
    shown = screen(scene)
    if playing:
        assert referee.mode is Mode.PLAYING
        assert scene.captures == referee.compulsory
        assert lit["capture"] is (Blink.ON if referee.compulsory else Blink.OFF)
        if scene.view is View.PLAYING and not scene.thinking and scene.computer_move is None:
            assert shown.headline == ("CAPTURE" if scene.captures else position.turn.label.upper())
            if not stack:
                assert shown.lines[-2:] == ("lift a piece", "to move it")
            elif not scene.captures:
                assert f"last: {stack[-1]}" in shown.lines
    else:
        assert shown.headline in ("ILLEGAL", "FIX NEST", "UNDO")
        assert scene.correction is not None and scene.correction.steps
        step = scene.correction.steps[0]
        assert any(line.startswith(("move", "take off", "put", "fill")) for line in shown.lines), shown
        assert str(step.target or step.source) in " ".join(shown.lines), shown


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.sampled_from([frozenset(), frozenset({Side.BLUE}), frozenset(Side)]))
def test_the_screens_follow_the_referee_over_random_games(seed, computers):
    players = Players(random.Random(seed), computers=computers)
    for _ in range(120):
        players.turn()


def test_the_random_games_do_what_the_test_says_they_do():
    """Over a few seeds, the games of the test above hold every kind of moment."""
    seen: set[type] = set()
    for seed in range(12):
        players = Players(random.Random(seed), computers=frozenset({Side.BLUE}) if seed % 2 else frozenset())
        for _ in range(120):
            players.turn()
        seen |= players.seen
    assert {TakenBack, GameOver, MoveRefused, CorrectionNeeded, SetupNeeded, TurnStarted} <= seen


# -- every text the presenter can be given ------------------------------------------------

CELLS = st.sampled_from(NEST.cells)
MOVES = st.builds(lambda a, b, x: Move(a, b, x), CELLS, CELLS, st.booleans())
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789,:'", min_size=1, max_size=14)
SENTENCES = st.lists(WORDS, min_size=1, max_size=14).map(" ".join)
PIECES = st.sampled_from([Piece.from_letter(letter) for letter in "EWCewc"])
STEPS = st.builds(
    lambda kind, source, target, piece: FixStep(
        kind,
        None if kind is FixKind.PLACE else source,
        None if kind is FixKind.REMOVE else target,
        None if kind is FixKind.REMOVE else piece,
    ),
    st.sampled_from(list(FixKind)),
    CELLS,
    CELLS,
    PIECES,
)
ADDRESSES = st.one_of(
    st.ip_addresses(v=4).map(lambda a: f"{a}:8080"),
    st.ip_addresses(v=6).map(lambda a: f"[{a}]:65535"),
)


@settings(max_examples=300, deadline=None)
@given(
    attempt=st.none() | MOVES,
    rule=st.none() | st.sampled_from(list(Rule)),
    reason=SENTENCES,
    steps=st.lists(STEPS, min_size=1, max_size=6),
    cause=st.sampled_from(list(CorrectionCause)),
    faults=st.sets(CELLS, max_size=61),
    notice=st.none() | st.lists(st.sampled_from([*NEST.cells, "r5c5", "r10c12"]), min_size=1).map(" ".join),
    address=st.none() | ADDRESSES,
    pin=st.none() | st.from_regex(r"[0-9]{4}", fullmatch=True),
    captures=st.lists(MOVES, max_size=12),
    question=st.lists(MOVES, min_size=1, max_size=8, unique=True),
    highlighted=st.integers(0, 7),
    computers=st.sets(st.sampled_from(list(Side))),
    fill=st.lists(CELLS, max_size=34, unique=True),
    empty=st.lists(CELLS, max_size=34, unique=True),
    number=st.integers(1, 99),
    score=st.tuples(st.integers(0, 2), st.integers(0, 2)),
)
def test_no_text_on_any_screen_is_cut(  # every input a screen shows
    attempt, rule, reason, steps, cause, faults, notice, address, pin, captures, question, highlighted,
    computers, fill, empty, number, score,
):  # fmt: skip
    scene = Scene(
        GAME,
        address=address or "",
        pin=pin or "",
        computers=frozenset(computers),
        computer_level=5,
        faults=frozenset(faults),
        notice="check " + notice if notice else "",
    )
    for side in Side:
        scene = scene.following(TurnStarted(side, number, tuple(captures), by_computer=side in computers))
        assert_fits(screen(scene))
        scene = scene.following(MoveRefused(attempt, rule, reason))
        scene = scene.following(CorrectionNeeded(cause, tuple(steps)))
        shown = screen(scene)
        assert_fits(shown)
        assert any(step_words in " ".join(shown.lines) for step_words in (str(steps[0].target), str(steps[0].source)))
        scene = scene.following(TurnStarted(side, number, ()))
        scene = scene.following(MoveQuestion(tuple(question)))
        scene = dataclasses.replace(scene, highlighted=highlighted % len(question))
        shown = screen(scene)
        assert_fits(shown)
        if len(question) > 1:  # the answer pointed at is among those shown
            assert f"> {question[scene.highlighted]}" in shown.lines
        for outcome in (CuckooOutcome(side, WinCondition(number % 4 + 1)), CuckooOutcome(side, None)):
            scene = scene.following(GameOver(outcome, score, side if number % 2 else None))
            scene = scene.following(SetupNeeded("standard", side.opponent, tuple(fill), tuple(empty), number=number))
            assert_fits(screen(scene))
            scene = scene.following(SetupNeeded("standard", side.opponent, tuple(fill), tuple(empty), number=number))
            assert_fits(screen(scene))


def test_a_strike_announced_is_shown_with_both_ranks_and_the_cells_to_act_on_lit():
    from firmware_host.games import load_game
    from firmware_host.games.battle import Move as BattleMove
    from firmware_host.referee.signals import MoveAccepted, StrikeAnnounced

    scene = Scene(load_game("battle"))
    strike = BattleMove("e4", "e5", True)
    scene = scene.following(TurnStarted(Side.RED, 3, ()))
    scene = scene.following(StrikeAnnounced(strike, Side.RED, "colonel strikes major: major removed", ("e5",), "e5"))
    shown = screen(scene)
    assert shown.headline == "STRIKE" and shown.lines == ("colonel", "strikes major", "major removed")
    assert cells(scene) == {"e5": Blink.ON}  # the struck square: clear it, the winner stands there
    scene = scene.following(StrikeAnnounced(strike, Side.RED, "major strikes colonel: major removed", ("e4",), "e5"))
    assert cells(scene) == {"e4": Blink.FAST, "e5": Blink.ON}
    scene = scene.following(MoveAccepted(strike, Side.RED, 4, PublicView(Side.BLUE, {}, PublicText(""))))
    scene = scene.following(TurnStarted(Side.BLUE, 4, ()))
    assert screen(scene).headline == "STRIKE" and cells(scene) == {}, "the words stay, the lights go"
    scene = scene.following(
        MoveAccepted(BattleMove("a7", "a6"), Side.BLUE, 5, PublicView(Side.RED, {}, PublicText("")))
    )
    assert screen(scene).headline != "STRIKE"
