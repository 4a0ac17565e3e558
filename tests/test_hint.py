"""A hint on request: switch pressed twice quickly in a person's turn (or the page's
Hint button) has the computer choose the side to move's move, in its own process as for
its own moves; the move is lit on the nest as the computer's is and said on the OLED,
and the move made next is marked in the record (``{hint}``), in the store and exported.
The daemon runs on the simulator's mock hardware (gpiozero's MockFactory, luma's dummy
devices); hands make the moves on the switches."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.daemon.buttons import ButtonAction, ButtonGestures, Press
from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.recorder.store import GameStore
from firmware_host.records import Played, write_records
from firmware_host.referee.referee import CommandError
from firmware_host.referee.signals import MoveAccepted, Signal
from hardware.outputs import Blink
from tests.test_computer_at_the_nest import COMPUTER_WAIT_S, make
from tests.test_daemon import Rig, play_c3_c4

# -- the gesture ------------------------------------------------------------------------


def test_a_second_short_press_soon_after_the_first_is_a_double_press():
    gestures = ButtonGestures(double_s=0.5)
    actions: list[ButtonAction] = []
    for at, pressed in ((1.0, True), (1.1, False), (1.3, True), (1.4, False)):
        actions += gestures.change("switch", pressed, at)
    actions += gestures.tick(1.5)
    short, double = ButtonAction("switch", Press.SHORT), ButtonAction("switch", Press.DOUBLE)
    assert actions == [short, short, double]
    # A third press soon after is a short press again, not a second double.
    actions = gestures.change("switch", True, 1.6) + gestures.change("switch", False, 1.7) + gestures.tick(1.8)
    assert actions == [short]


@given(st.lists(st.tuples(st.floats(0.04, 1.0), st.floats(0.04, 1.0)), min_size=1, max_size=12))
def test_double_presses_are_the_short_presses_that_end_soon_after_an_unpaired_one(presses):
    # (held for, then released for) in seconds, each longer than the debounce and shorter than a hold.
    gestures = ButtonGestures(hold_s=2.0, double_s=0.5)
    actions: list[ButtonAction] = []
    at, releases = 10.0, []
    for held, gap in presses:
        actions += gestures.change("switch", True, at)
        at += held
        actions += gestures.change("switch", False, at)
        releases.append(at)
        at += gap
    actions += gestures.tick(at + 1)
    assert [a for a in actions if a.press is Press.SHORT] == [ButtonAction("switch", Press.SHORT)] * len(presses)
    expected, unpaired = 0, None
    for release in releases:
        if unpaired is not None and release - unpaired <= 0.5:
            expected, unpaired = expected + 1, None
        else:
            unpaired = release
    assert sum(a.press is Press.DOUBLE for a in actions) == expected
    assert all(a.press is not Press.LONG for a in actions)


# -- at the nest -------------------------------------------------------------------------


def double_press(rig: Rig, button: str = "switch") -> None:
    for _ in range(2):
        rig.change(button, True)
        rig.run_for(0.08)
        rig.change(button, False)
        rig.run_for(0.08)


def wait_for_the_hint(rig: Rig) -> Move:
    deadline = time.monotonic() + COMPUTER_WAIT_S
    while rig.daemon.snapshot().game.hint is None:
        assert time.monotonic() < deadline, "no hint came"
        rig.run_for(0.02)
        time.sleep(0.001)  # the engine's process answers through a thread of the daemon's
    shown = rig.daemon.snapshot().game.hint
    assert shown is not None
    return Move.from_text(shown.to_text())


def test_switch_twice_in_a_persons_turn_lights_the_hint_and_marks_the_move_made(tmp_path):
    rig = Rig(tmp_path, "[players]\nlevel = 1\n")
    heard: list[Signal] = []
    rig.daemon.subscribe(heard.append)
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)  # red's first move, no hint
    double_press(rig)
    assert rig.daemon.snapshot().game.is_hint_wanted or rig.daemon.snapshot().game.hint is not None
    hint = wait_for_the_hint(rig)
    position = Position.from_lineup()
    position.push(Move.from_text("c3-c4"))
    assert hint in position.legal_moves() and position.turn is Side.BLUE  # blue's move, a legal one
    assert hint.origin is not None and hint.target is not None
    seen: set[str] = set()
    for _ in range(60):  # over a second: the piece's cell blinks slowly, its target is steady
        rig.run_for(0.02)
        lit = set(rig.devices.cell_lights.lit())  # type: ignore[union-attr]
        assert hint.target in lit
        seen |= lit
    assert seen == {hint.origin, hint.target}  # lit as the computer's move is
    assert rig.daemon.snapshot().cells == {hint.origin: Blink.SLOW, hint.target: Blink.ON}
    screen = rig.daemon.snapshot().screen
    assert screen.headline == str(hint) and screen.lines[0] == "hint for blue"
    make(rig, hint)
    accepted = [signal for signal in heard if isinstance(signal, MoveAccepted)]
    assert [(str(s.move), s.hinted) for s in accepted] == [("c3-c4", False), (str(hint), True)]
    assert rig.daemon.snapshot().game.hint is None and not rig.devices.cell_lights.lit()  # type: ignore[union-attr]
    rig.close()
    with GameStore(rig.config.database, game=rig.config.game, clock=time.time) as store:
        (summary,) = store.games()
        record = store.game_record(summary.id)
        text = write_records([record], game=store.game)
    assert record.events == (Played("c3-c4"), Played(str(hint), hinted=True))
    assert f"1. c3-c4 {hint} {{hint}} *" in text


def test_no_hint_between_games_or_in_the_computers_turn(tmp_path):
    rig = Rig(tmp_path, '[players]\nblue = "computer"\nlevel = 1\n')
    rig.start()  # an empty nest: waiting to be set up
    with pytest.raises(CommandError, match="a hint is for a person's turn in a game"):
        rig.daemon.ask_hint()
    rig.show(Position.from_lineup())
    rig.run_for(1.0)
    play_c3_c4(rig)  # the computer's turn now
    with pytest.raises(CommandError, match="it is the computer's turn"):
        rig.daemon.ask_hint()
    double_press(rig)  # the gesture means nothing in the computer's turn
    assert not rig.daemon.snapshot().game.is_hint_wanted
    rig.close()


def test_a_hint_asked_for_and_then_a_move_made_is_dropped(tmp_path):
    rig = Rig(tmp_path, "[players]\nlevel = 5\n")
    rig.show(Position.from_lineup())
    rig.start()
    rig.daemon.ask_hint()
    assert rig.daemon.snapshot().game.is_hint_wanted and rig.daemon.snapshot().screen.headline == "HINT"
    play_c3_c4(rig)  # made before the hint came: it is for a position gone by
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        rig.run_for(0.05)
        time.sleep(0.01)
        assert rig.daemon.snapshot().game.hint is None
    assert not rig.daemon.snapshot().game.is_hint_wanted
    rig.close()
    with GameStore(rig.config.database, game=rig.config.game, clock=time.time) as store:
        (summary,) = store.games()
        assert store.game_record(summary.id).events == (Played("c3-c4"),)  # no mark
