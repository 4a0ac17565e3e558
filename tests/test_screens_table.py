"""The OLED's screens and the cell lights as tables (``screens.SCREENS``,
``lights.CELL_LIGHTS``): every row is reached by some scene, the first row that applies
is the one shown, and what each shows fits the OLED."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.daemon.lights import CELL_LIGHTS, cells
from firmware_host.daemon.presenter import Scene, View
from firmware_host.daemon.remote_shown import RemoteShown, RemoteStage
from firmware_host.daemon.screens import FOOTERS, SCREENS, footer, screen, screen_row
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Move, Nest, Side, WinCondition
from firmware_host.games.cuckoo.rules import Outcome as CuckooOutcome
from firmware_host.referee.signals import (
    CorrectionCause,
    CorrectionNeeded,
    FixKind,
    FixStep,
    SetupNeeded,
    StrikeAnnounced,
)
from firmware_host.remote.messages import ProposalKind
from hardware.outputs import Blink
from tests.test_presenter import assert_fits

GAME = CuckooGame(Nest.default())
MOVE = Move.from_text("c3-c4")
TURN = Scene(GAME, view=View.PLAYING, side=Side.RED, plies=3, last_move=Move.from_text("c7-c6"))
SETUP = SetupNeeded("standard", Side.BLUE, ("a1", "b2"), ("e5",), number=2)
FIX = CorrectionNeeded(CorrectionCause.ILLEGAL_MOVE, (FixStep(FixKind.MOVE, "c4", "c3", None),))
STRIKE = StrikeAnnounced(MOVE, Side.RED, "colonel strikes major: major removed", ("c4",), "c4")


def remote(stage: RemoteStage, **fields: object) -> RemoteShown:
    return RemoteShown(stage, code="K7Q2", side=Side.RED, link="link lost 0:12", **fields)  # type: ignore[arg-type]


SCENES: dict[str, Scene] = {
    "starting": Scene(GAME),
    "code entered": replace(TURN, remote=remote(RemoteStage.ENTERING, choosing="M")),
    "code offered": replace(TURN, remote=remote(RemoteStage.OFFERING)),
    "joining": replace(TURN, remote=remote(RemoteStage.JOINING)),
    "desync": replace(TURN, remote=remote(RemoteStage.DESYNC, desync="the records differ at move 4")),
    "their proposal": replace(TURN, remote=remote(RemoteStage.PLAYING, their_proposal=ProposalKind.DRAW)),
    "correction": replace(TURN, view=View.CORRECTING, correction=FIX),
    "confirm": replace(TURN, view=View.QUESTION, question=(MOVE,)),
    "which": replace(TURN, view=View.QUESTION, question=(MOVE, Move.from_text("c3-d4")), highlighted=1),
    "over": replace(TURN, view=View.OVER, outcome=CuckooOutcome(Side.RED, WinCondition(1)), score=(1, 0)),
    "set up": replace(TURN, view=View.SETUP, setup=SETUP, computers=frozenset({Side.BLUE}), computer_level=3),
    "idle": replace(TURN, side=None),
    "strike": replace(TURN, strike=STRIKE),
    "computer's move": replace(TURN, computer_move=MOVE),
    "hint": replace(TURN, hint=MOVE),
    "hint on a screen": replace(TURN, hint_on_screen_of=Side.RED),  # a game that hides pieces
    "hint wanted": replace(TURN, hint_wanted=True),
    "their turn": replace(TURN, thinking=True, remote=remote(RemoteStage.PLAYING, is_link_up=True)),
    "thinking": replace(TURN, thinking=True, computers=frozenset({Side.RED})),
    "capture": replace(TURN, captures=(Move.from_text("c3xc4"),)),
    "first move": replace(TURN, plies=0, last_move=None),
    "to move": TURN,
}


def test_every_screen_of_the_table_is_shown_by_a_scene_and_fits():
    assert [row.name for row in SCREENS] == list(SCENES)  # each row once, in the table's order
    for name, scene in SCENES.items():
        assert screen_row(scene).name == name
        assert_fits(screen(scene))
        assert_fits(screen(scene, show_pin=False))


def test_the_first_row_that_applies_wins():
    # A correction outranks the computer's move, which outranks a capture to make.
    both = replace(TURN, computer_move=MOVE, captures=(Move.from_text("c3xc4"),))
    assert screen(both).headline == str(MOVE)
    assert screen(replace(both, view=View.CORRECTING, correction=FIX)).headline == "ILLEGAL"
    # Remote play's own screens outrank the referee's: a desync stops the game shown.
    assert screen(replace(both, remote=remote(RemoteStage.DESYNC))).headline == "DESYNC"


def test_every_footer_of_the_table_is_reached_and_the_pin_shows_only_on_the_nest():
    base = replace(TURN, address="192.168.1.20:8080")
    scenes = {
        "no sensors": replace(base, sensors_connected=False),
        "no record": replace(base, storage_ok=False, storage_trouble="disk full"),
        "link down": replace(base, remote=remote(RemoteStage.PLAYING)),
        "faults": replace(base, faults=frozenset({"d4", "f6"})),
        "notice": replace(base, notice="check r5c5"),
        "clock": replace(base, clock=("4:31", "0:09.3")),
        "pin": replace(base, pin="4821"),
        "address": base,
        "score": TURN,
    }
    assert [row.name for row in FOOTERS] == list(scenes)
    for name, scene in scenes.items():
        row = next(row for row in FOOTERS if row.when(scene))
        assert row.name == name
    assert footer(scenes["pin"]) == "PIN 4821 192.168.1.20:8080"
    assert "4821" not in footer(scenes["pin"], show_pin=False)
    assert footer(scenes["link down"]) == "link lost 0:12"


def test_every_row_of_the_cell_lights_lights_what_it_says():
    lit = {
        "correction": cells(SCENES["correction"]),
        "question": cells(SCENES["which"]),
        "set up": cells(SCENES["set up"]),
        "decided": cells(replace(SCENES["over"], last_move=MOVE)),
        "strike": cells(SCENES["strike"]),
        "move shown": cells(SCENES["computer's move"]),
        "captures": cells(SCENES["capture"]),
    }
    assert [row.name for row in CELL_LIGHTS] == list(lit)
    assert lit["correction"] == {"c4": Blink.FAST, "c3": Blink.ON}  # take it from here, put it there
    assert lit["question"] == {"c3": Blink.FAST, "c4": Blink.SLOW, "d4": Blink.FAST}  # the answer pointed at, fast
    assert lit["set up"] == {"a1": Blink.ON, "b2": Blink.ON, "e5": Blink.FAST}
    assert lit["decided"] == {"c4": Blink.FAST}  # the piece that decided it (no position known: the last move's)
    assert lit["strike"] == {"c4": Blink.ON}  # the winner stands where the loser is taken off
    assert lit["move shown"] == lit["captures"] == {"c3": Blink.SLOW, "c4": Blink.ON}
    assert cells(TURN) == {} and cells(replace(SCENES["capture"], thinking=True)) == {}
