"""The status lights and the cell lights, as data over one
:class:`~firmware_host.daemon.presenter.Scene`. Pure: the drivers in ``hardware/`` blink
what they say.

The lights follow one grammar, the same on the status LEDs and the cell LEDs
(docs/daemon.md): steady for facts, slow blinking for what to do next, fast blinking for
what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware_host.daemon.presenter import PLAYING_VIEWS, Scene, View
from firmware_host.games.base import Move, Side
from hardware.outputs import Blink

Lit = dict[str, Blink]


@dataclass(frozen=True)
class LightRow:
    """One way some lights read: ``when`` it applies, and what it ``lights``."""

    name: str
    when: Callable[[Scene], bool]
    lights: Callable[[Scene], Lit]


# -- the status lights --------------------------------------------------------------------------

ERROR_LIGHT: tuple[tuple[str, Callable[[Scene], bool], Blink], ...] = (
    ("stopped", lambda s: s.view is View.CORRECTING or not s.sensors_connected or not s.storage_ok, Blink.FAST),
    ("asking", lambda s: s.view is View.QUESTION, Blink.SLOW),
    ("to check", lambda s: bool(s.faults or s.notice), Blink.ON),
)
"""The ``error`` light, the first row that applies winning (none: off): the nest to put
right or the referee unable to go on, a question to answer, a switch to check."""


def _turn(scene: Scene) -> Lit:
    assert scene.side is not None
    lit = {f"{scene.side.label}_turn": Blink.ON}
    return lit | ({"capture": Blink.ON} if scene.captures else {})


def _result(scene: Scene) -> Lit:
    assert scene.outcome is not None
    return {f"{side.label}_turn": Blink.SLOW for side in Side if scene.outcome.winner in (side, None)}


def _starter(scene: Scene) -> Lit:
    assert scene.setup is not None
    return {f"{scene.setup.starter.label}_turn": Blink.SLOW}


TURN_LIGHTS: tuple[LightRow, ...] = (
    LightRow("turn", lambda s: s.view in PLAYING_VIEWS and s.side is not None, _turn),
    LightRow("result", lambda s: s.view is View.OVER and s.outcome is not None, _result),
    LightRow("set up", lambda s: s.view is View.SETUP and s.setup is not None, _starter),
)
"""The turn lights (and the capture light): whose turn, who won, who starts next."""


def lights(scene: Scene) -> Lit:
    """The status lights, by the names of the config's ``[status_lights]``: whose turn
    (``red_turn``, ``blue_turn``), something wrong (``error``), a capture to make
    (``capture``)."""
    lit = dict.fromkeys(("red_turn", "blue_turn", "error", "capture"), Blink.OFF)
    lit |= _first(TURN_LIGHTS, scene)
    lit["error"] = next((blink for _, when, blink in ERROR_LIGHT if when(scene)), Blink.OFF)
    return lit


# -- the cell lights -----------------------------------------------------------------------------


def _correction(scene: Scene) -> Lit:
    assert scene.correction is not None
    lit: Lit = {}
    for i, step in enumerate(scene.correction.steps):
        for cell, blink in ((step.source, Blink.FAST), (step.target, Blink.ON)):
            if cell is not None:
                lit[cell] = blink if i == 0 else Blink.SLOW
    return lit


def _question(scene: Scene) -> Lit:
    lit: Lit = {}
    for i, move in enumerate(scene.question):
        for cell in (move.origin, move.target):
            if cell is not None:
                lit[cell] = Blink.FAST if i == scene.highlighted else Blink.SLOW
    return lit


def _setup(scene: Scene) -> Lit:
    assert scene.setup is not None
    return dict.fromkeys(scene.setup.fill, Blink.ON) | dict.fromkeys(scene.setup.empty, Blink.FAST)


def _deciding_cell(scene: Scene) -> str | None:
    """The piece that decided the game: the one the game names (Operation Cuckoo: the
    winner's lone cuckoo), or else the piece that made the last move."""
    outcome, game = scene.outcome, scene.game
    if outcome is None or outcome.winner is None:
        return None
    # (A game that hides pieces names no cell: its public notation is no position to read.)
    readable = scene.position and game.hidden is None
    cell = game.outcome_cell(game.read_position(scene.position), outcome) if readable else None
    if cell is not None:
        return cell
    return scene.last_move.target if scene.last_move is not None else None


def _decided(scene: Scene) -> Lit:
    cell = _deciding_cell(scene)
    return {cell: Blink.FAST} if cell is not None else {}


def _strike(scene: Scene) -> Lit:
    assert scene.strike is not None
    lit = dict.fromkeys(scene.strike.removed, Blink.FAST)  # take these off...
    if scene.strike.winner_on is not None:
        lit[scene.strike.winner_on] = Blink.ON  # ...the winner stands here
    return lit


def _moves(moves: tuple[Move, ...]) -> Lit:
    """What to do next: this piece (slow) to here (steady; a piece it captures stands here)."""
    lit: Lit = {}
    for move in moves:
        if move.origin is not None and move.target is not None:
            lit[move.origin] = Blink.SLOW
            lit[move.target] = Blink.ON
    return lit


def _move_shown(scene: Scene) -> Lit:
    assert scene.move_shown is not None
    return _moves((scene.move_shown,))


def _is_won_in_play(scene: Scene) -> bool:
    outcome = scene.outcome
    return scene.view is View.OVER and outcome is not None and bool(outcome.winner) and not outcome.is_resignation


CELL_LIGHTS: tuple[LightRow, ...] = (
    LightRow("correction", lambda s: s.view is View.CORRECTING and s.correction is not None, _correction),
    LightRow("question", lambda s: s.view is View.QUESTION and bool(s.question), _question),
    LightRow("set up", lambda s: s.view is View.SETUP and s.setup is not None, _setup),
    LightRow("decided", _is_won_in_play, _decided),
    LightRow("strike", lambda s: s.view is View.PLAYING and s.strike is not None and not s.strike_made, _strike),
    LightRow("move shown", lambda s: s.view is View.PLAYING and s.move_shown is not None, _move_shown),
    LightRow("captures", lambda s: s.view is View.PLAYING and not s.thinking, lambda s: _moves(s.captures)),
)
"""The cell lights, the first row that applies lighting (none: all dark): the steps to
put the nest right, the answers of a question, the set-up, the piece that won, a strike
to act on, the move to make, the captures to make."""


def cells(scene: Scene) -> Lit:
    """The cell LEDs: the cells to show, and how."""
    return _first(CELL_LIGHTS, scene)


def _first(rows: tuple[LightRow, ...], scene: Scene) -> Lit:
    row = next((row for row in rows if row.when(scene)), None)
    return row.lights(scene) if row is not None else {}
