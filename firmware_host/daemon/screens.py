"""The OLED's screens, as data: an ordered table of rows, each saying when it shows and
what it shows, over one :class:`~firmware_host.daemon.presenter.Scene`. The first row
that applies is the screen; the footer is a table of its own. Pure: the words are
fitted to the OLED by :mod:`~firmware_host.daemon.oled_words`.

The OLED is read from across the table: a headline in big letters (whose turn, ILLEGAL,
CAPTURE, who won, SET UP) and up to three short lines. Every line is worded to fit the
OLED's 124 pixels whole (``fits``): a sentence too long for one line takes two, a list
too long says how many it leaves out, and what matters least gives way first
(``arranged``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware_host.daemon.oled_words import (
    MAX_LINES,
    Block,
    arranged,
    first_fitting,
    listed,
    strike_lines,
)
from firmware_host.daemon.presenter import PLAYING_VIEWS, Scene, View
from firmware_host.daemon.remote_shown import RemoteStage
from firmware_host.referee.signals import CorrectionCause, FixKind, FixStep, MoveRefused
from hardware.outputs import Screen

HIDDEN_PIN = "****"  # the PIN, on the page of a player who has not given it


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


# -- the footer -----------------------------------------------------------------------------


@dataclass(frozen=True)
class FooterRow:
    """One way the OLED's bottom line reads: ``when`` it shows, what it ``says`` (given
    whether the PIN may show)."""

    name: str
    when: Callable[[Scene], bool]
    says: Callable[[Scene, bool], str]


def _link_words(scene: Scene, show_pin: bool) -> str:
    assert scene.remote is not None
    return first_fitting([scene.remote.link], footer=True)  # the game waits: say why, and since when


def _clock_words(scene: Scene, show_pin: bool) -> str:
    assert scene.clock is not None
    red, blue = scene.clock  # while a game is played, its times matter most
    return first_fitting([f"red {red}  blue {blue}", f"R {red}  B {blue}"], footer=True)


def _pin_words(scene: Scene, show_pin: bool) -> str:
    # The score is on the page and on the result screens; this line is short.
    pin = f"PIN {scene.pin if show_pin else HIDDEN_PIN}"
    return first_fitting([f"{pin} {scene.address}".rstrip(), pin], footer=True)


def _address_words(scene: Scene, show_pin: bool) -> str:
    score = f"set {scene.score[0]}-{scene.score[1]}"  # the terminal printed the address too: it gives way
    return first_fitting([f"{score}  {scene.address}", scene.address, score], footer=True)


FOOTERS: tuple[FooterRow, ...] = (
    FooterRow("no sensors", lambda s: not s.sensors_connected, lambda s, _: "sensors not connected"),
    FooterRow("no record", lambda s: not s.storage_ok, lambda s, _: f"cannot save games: {s.storage_trouble}"),
    FooterRow(
        "link down",
        lambda s: s.remote is not None and s.remote.stage is RemoteStage.PLAYING and not s.remote.is_link_up,
        _link_words,
    ),
    FooterRow("faults", lambda s: bool(s.faults), lambda s, _: listed("faulty:", sorted(s.faults), footer=True)),
    FooterRow("notice", lambda s: bool(s.notice), lambda s, _: first_fitting([s.notice], footer=True)),
    FooterRow("clock", lambda s: s.clock is not None and s.view in PLAYING_VIEWS, _clock_words),
    FooterRow("pin", lambda s: bool(s.pin), _pin_words),
    FooterRow("address", lambda s: bool(s.address), _address_words),
    FooterRow("score", lambda s: True, lambda s, _: f"set {s.score[0]}-{s.score[1]}"),
)
"""The footer's rows, the first that applies winning: what stops the referee, then what
is wrong, then the game's clock, then how to reach the page, then the score."""


def footer(scene: Scene, *, show_pin: bool = True) -> str:
    """The OLED's bottom line; without ``show_pin``, the PIN starred out (for the pages
    that have not given it: only the nest's own screen shows it)."""
    row = next(row for row in FOOTERS if row.when(scene))
    return row.says(scene, show_pin)


# -- the screens ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScreenRow:
    """One of the OLED's screens: ``when`` it shows, and what it ``shows`` (given the
    footer, which the rows do not choose)."""

    name: str
    when: Callable[[Scene], bool]
    shows: Callable[[Scene, str], Screen]


def _entering(scene: Scene, footer: str) -> Screen:
    assert scene.remote is not None
    code = scene.remote.code + scene.remote.choosing
    lines = arranged([Block.of("switch: next  confirm: ok", "switch, confirm"), Block.of("take back: undo")])
    return Screen(code.ljust(6, "_"), lines, footer)


def _offering(scene: Scene, footer: str) -> Screen:
    assert scene.remote is not None
    lines = arranged([Block.of("game code: join with it", "game code"), Block.of("at the other nest")])
    return Screen(scene.remote.code, lines, footer)


def _joining(scene: Scene, footer: str) -> Screen:
    assert scene.remote is not None
    return Screen(scene.remote.code, arranged([Block.of("joining...")]), footer)


def _desync(scene: Scene, footer: str) -> Screen:
    assert scene.remote is not None
    lines = arranged([Block.of(scene.remote.desync, "the records differ"), Block.of("hold take back: leave", rank=1)])
    return Screen("DESYNC", lines, "play stopped on both nests", alert=True)


def _their_proposal(scene: Scene, footer: str) -> Screen:
    assert scene.remote is not None and scene.remote.their_proposal is not None
    draw = scene.remote.their_proposal.value == "draw"
    asked = "they offer a draw" if draw else "they ask to take back"
    lines = arranged([Block.of(asked), Block.of("confirm: yes  switch: no", "confirm / switch")])
    return Screen("DRAW?" if draw else "UNDO?", lines, footer)


CORRECTION_HEADLINES = {
    CorrectionCause.ILLEGAL_MOVE: "ILLEGAL",
    CorrectionCause.DISTURBED: "FIX NEST",
    CorrectionCause.TAKE_BACK: "UNDO",
    CorrectionCause.RESUMED: "FIX NEST",
}


def _correction(scene: Scene, footer: str) -> Screen:
    correction = scene.correction
    assert correction is not None
    cause = correction.cause
    blocks: list[Block] = []
    if scene.refused is not None and cause is CorrectionCause.ILLEGAL_MOVE:
        blocks.append(Block.of(*_refusal_words(scene, scene.refused), rank=1))
    elif cause is CorrectionCause.RESUMED:
        blocks.append(Block.of("resumed game", rank=1, optional=True))
    steps = correction.steps
    if steps:
        blocks.append(Block.of(step_text(steps[0]), short_step_text(steps[0])))
        if len(steps) > 1:
            blocks.append(Block.of(f"then {len(steps) - 1} more", rank=2, optional=True))
    return Screen(CORRECTION_HEADLINES[cause], arranged(blocks), footer, alert=cause is CorrectionCause.ILLEGAL_MOVE)


def _refusal_words(scene: Scene, refused: MoveRefused) -> list[str]:
    """Why a move was refused, the fullest first: the move and the rule it broke."""
    attempt = f"{refused.attempt}: " if refused.attempt is not None else ""
    if refused.rule is not None:
        words = scene.game.rule_words(refused.rule)
        return [attempt + words, words]
    if scene.computer_move is not None:  # not the computer's move (the referee's words are long)
        return [f"{attempt}play {scene.computer_move}", f"play {scene.computer_move}"]
    if scene.thinking or (scene.side is not None and scene.side in scene.computers):
        return [f"{attempt}wait for the computer", "wait for the computer"]
    return [refused.reason, attempt + "not a legal move", "not a legal move"]


def _confirm(scene: Scene, footer: str) -> Screen:
    return Screen("CONFIRM?", (f"{scene.question[0]} made?",), "confirm: yes")  # the one move the nest may show


def _which(scene: Scene, footer: str) -> Screen:
    question, highlighted = scene.question, scene.highlighted
    # Three answers show at a time, the one pointed at among them.
    first = min(max(0, highlighted - 1), max(0, len(question) - MAX_LINES))
    options = tuple(
        ("> " if i == highlighted else "  ") + str(question[i])
        for i in range(first, min(first + MAX_LINES, len(question)))
    )
    return Screen("WHICH?", options, "switch: next  confirm: ok")


def _over(scene: Scene, footer: str) -> Screen:
    outcome = scene.outcome
    assert outcome is not None
    # How the next game starts: the nest set up for it (the referee starts it then).
    number = scene.setup.number if scene.setup is not None else scene.number + 1
    if scene.set_winner is not None or number == 1:
        hint = Block.of("set up: new set", "set up", rank=1)
    else:
        hint = Block.of(f"set up for game {number}", f"set up game {number}", rank=1)
    if outcome.winner is None:
        agreed = scene.remote is not None and scene.remote.said.endswith("a draw by agreement")
        words = Block.of("drawn by agreement" if agreed else scene.game.outcome_words(outcome))
        return Screen("DRAW", arranged([words, Block.of("game played again", rank=2, optional=True), hint]), footer)
    blocks = [Block.of(scene.game.outcome_words(outcome))]
    if scene.set_winner is not None:
        high, low = max(scene.score), min(scene.score)
        blocks.append(Block.of(f"and the set, {high}-{low}", f"set {high}-{low}", rank=2, optional=True))
    return Screen(f"{outcome.winner.label.upper()} WINS", arranged([*blocks, hint]), footer)


def _setup(scene: Scene, footer: str) -> Screen:
    setup = scene.setup
    assert setup is not None
    blocks = [Block.of(f"game {setup.number}: {setup.starter.label} starts")]
    if scene.computers:
        sides = "both" if len(scene.computers) > 1 else next(iter(scene.computers)).label
        blocks.append(Block.of(f"computer: {sides} L{scene.computer_level}", rank=2, optional=True))
    fill, empty = [f"+{cell}" for cell in setup.fill], [f"-{cell}" for cell in setup.empty]
    if fill and empty:
        both = f"fill {len(fill)}, empty {len(empty)}"
        listed_both = (listed(f"fill {len(fill)}:", fill), listed(f"empty {len(empty)}:", empty))
        blocks.append(Block((listed_both, (both,)), rank=1))
    elif fill or empty:
        one = listed(f"fill {len(fill)}:" if fill else f"empty {len(empty)}:", fill or empty)
        blocks.append(Block.of(one, rank=1))
    return Screen("SET UP", arranged(blocks), footer)


def _last(scene: Scene) -> Block:
    return Block.of(f"last: {scene.last_move}", rank=2, optional=True) if scene.last_move else Block(((),))


def _side(scene: Scene) -> str:
    assert scene.side is not None
    return scene.side.label


def _strike(scene: Scene, footer: str) -> Screen:
    assert scene.strike is not None
    return Screen("STRIKE", strike_lines(scene.strike.words), footer)  # what it revealed, for both to read


def _computer_move(scene: Scene, footer: str) -> Screen:
    whose = "their move" if scene.is_remote_playing else "computer's move"  # in big letters, read across the table
    return Screen(str(scene.computer_move), (whose, "make it on the nest"), footer)


def _waiting_for_them(scene: Scene, footer: str) -> Screen:
    assert scene.remote is not None
    waiting = "waiting for the copy" if scene.remote.is_waiting_for_copy else "their move, at their nest"
    return Screen(_side(scene).upper(), arranged([Block.of(waiting, "waiting"), _last(scene)]), footer)


def _capture(scene: Scene, footer: str) -> Screen:
    captures = [str(move) for move in scene.captures]
    lines = arranged([Block.of(f"{_side(scene)} must take:"), Block.of(listed("", captures)), _last(scene)])
    return Screen("CAPTURE", lines, footer)


def _to_move(scene: Scene, footer: str) -> Screen:
    warning = Block.of(scene.warning, rank=1, optional=True) if scene.warning else Block(((),))
    return Screen(_side(scene).upper(), arranged([Block.of("to move"), _last(scene), warning]), footer)


CHOOSING_A_HINT = Block.of("the computer is", rank=1, optional=True)


def _remote_stage(stage: RemoteStage) -> Callable[[Scene], bool]:
    return lambda scene: scene.remote is not None and scene.remote.stage is stage


SCREENS: tuple[ScreenRow, ...] = (
    ScreenRow("starting", lambda s: s.view is View.STARTING, lambda s, f: Screen("nestref", ("starting...",), f)),
    # Remote play's own: the code offered or being entered, a desync, a proposal to answer.
    ScreenRow("code entered", _remote_stage(RemoteStage.ENTERING), _entering),
    ScreenRow("code offered", _remote_stage(RemoteStage.OFFERING), _offering),
    ScreenRow("joining", _remote_stage(RemoteStage.JOINING), _joining),
    ScreenRow("desync", _remote_stage(RemoteStage.DESYNC), _desync),
    ScreenRow(
        "their proposal",
        lambda s: s.is_remote_playing and s.remote is not None and bool(s.remote.their_proposal) and not s.question,
        _their_proposal,
    ),
    # The referee's: what to put right, what to answer, the result, the set-up.
    ScreenRow("correction", lambda s: s.view is View.CORRECTING and s.correction is not None, _correction),
    ScreenRow("confirm", lambda s: s.view is View.QUESTION and len(s.question) == 1, _confirm),
    ScreenRow("which", lambda s: s.view is View.QUESTION and bool(s.question), _which),
    ScreenRow("over", lambda s: s.view is View.OVER and s.outcome is not None, _over),
    ScreenRow("set up", lambda s: s.view is View.SETUP and s.setup is not None, _setup),
    ScreenRow("idle", lambda s: s.side is None, lambda s, f: Screen("nestref", (), f)),
    # A turn: what the strike revealed, the move to make, a hint, whose turn.
    ScreenRow("strike", lambda s: s.strike is not None, _strike),
    ScreenRow("computer's move", lambda s: s.computer_move is not None, _computer_move),
    ScreenRow(
        "hint",
        lambda s: s.hint is not None,
        lambda s, f: Screen(str(s.hint), arranged([Block.of(f"hint for {_side(s)}", "hint")]), f),
    ),
    ScreenRow(
        "hint wanted",
        lambda s: s.hint_wanted,
        lambda s, f: Screen("HINT", arranged([CHOOSING_A_HINT, Block.of("choosing a hint", "thinking")]), f),
    ),
    ScreenRow("their turn", lambda s: s.thinking and s.is_remote_playing, _waiting_for_them),
    ScreenRow(
        "thinking",
        lambda s: s.thinking,
        lambda s, f: Screen("THINKING", arranged([Block.of(f"computer is {_side(s)}"), _last(s)]), f),
    ),
    ScreenRow("capture", lambda s: bool(s.captures), _capture),
    ScreenRow(
        "first move",
        lambda s: s.plies == 0,
        lambda s, f: Screen(_side(s).upper(), arranged([Block.of("to move"), Block.of("lift a piece to move it")]), f),
    ),
    ScreenRow("to move", lambda s: True, _to_move),
)
"""The OLED's screens, the first that applies showing: the daemon starting, remote
play's own, then the referee's (a correction, a question, the result, a set-up), then a
turn's."""


def screen_row(scene: Scene) -> ScreenRow:
    """The row of :data:`SCREENS` that shows for ``scene``."""
    return next(row for row in SCREENS if row.when(scene))


def screen(scene: Scene, *, show_pin: bool = True) -> Screen:
    """What the OLED shows for ``scene``; without ``show_pin``, with the PIN starred out."""
    return screen_row(scene).shows(scene, footer(scene, show_pin=show_pin))
