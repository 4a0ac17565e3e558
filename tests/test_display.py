"""The OLED: the screens drawn through luma's dummy device and compared,
pixel for pixel, with the reference images in docs/screens (shown in the README).

Set NESTREF_UPDATE_SCREENS=1 to write the references anew after a deliberate change.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy
from PIL import Image

from firmware_host.daemon.presenter import Scene
from firmware_host.daemon.screens import screen
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Move, Nest, Position, Side
from firmware_host.referee.referee import Settings
from firmware_host.referee.signals import Signal
from hardware.display import OledDisplay, render
from hardware.outputs import Screen
from tests.helpers import setup
from tests.referee_helpers import Table

SCREENS = Path(__file__).resolve().parent.parent / "docs" / "screens"
UPDATE = os.environ.get("NESTREF_UPDATE_SCREENS") == "1"


def played(table: Table, *scripts: str, gap: int = 300) -> list[Signal]:
    for script in scripts:
        table.do(script, gap=gap)
        table.settle()
    return table.signals


def scenes() -> dict[str, list[Signal]]:
    start = Position.from_lineup
    resigned = Table(start())
    resigned.signals += resigned.referee.resign(Side.BLUE, 500)
    undone = Table(start())
    played(undone, "c3- c4+", "c7- d6+")
    undone.signals += undone.referee.take_back(undone.time + 500)
    against = Table(start(), settings=Settings(computers=frozenset({Side.BLUE})))
    thinking = list(played(against, "c3- c4+"))
    against.signals += against.referee.play_computer_move(Move.from_text("c7-d6"), against.time)
    return {
        "first-move": Table(start()).signals,
        "turn": played(Table(start()), "c3- c4+", "c7- d6+"),
        "capture": played(Table(start()), "c3- c4+", "c7- d6+", "c4- c5+", "d6- d5+"),
        "illegal": played(Table(start()), "c3- c5+"),
        "fix-nest": played(Table(start()), "a7-"),
        "question": played(Table(setup("Ca1 We5 ed6 ee6 ee9 ca9")), "e5- +300 d6- +5 d6+ e6- +5 e6+", gap=0),
        "confirm": played(Table(setup("Ca1 We5 ed6 ee9 ca9")), "e5-"),  # its target never read empty
        "winner": played(Table(setup("Ca1 Ee5 cf5 ea9")), "e5- f5- f5+"),
        "set-up": played(Table(setup("Ca1 Ee5 cf5 ea9")), "e5- f5- f5+", "a1-"),
        "resigned": resigned.signals,
        "undo": undone.signals,
        "thinking": thinking,
        "computer-move": against.signals,
        "clock": played(Table(start()), "c3- c4+", "c7- d6+"),
        "hint": played(Table(start()), "c3- c4+"),
    }


# What the daemon's parts report beside the signals: the clock's faces each
# second, a hint the engine chose.
BESIDE_SIGNALS: dict[str, dict[str, Any]] = {
    "clock": {"clock": ("4:31", "0:09.3")},  # red to move, blue's time low: tenths
    "hint": {"hint": Move.from_text("c7-d6")},
}


def screen_of(signals: list[Signal], name: str = "") -> Screen:
    scene = Scene(CuckooGame(Nest.default()))
    for signal in signals:
        scene = scene.following(signal)
    return screen(dataclasses.replace(scene, **BESIDE_SIGNALS.get(name, {})))


@pytest.mark.parametrize("name", list(scenes()))
def test_each_screen_matches_its_reference_image(name):
    device = dummy(width=128, height=64, mode="1")
    OledDisplay(device).show(screen_of(scenes()[name], name))
    reference = SCREENS / f"{name}.png"
    if UPDATE:
        device.image.save(reference)
    expected = Image.open(reference)
    assert expected.size == (128, 64)
    assert device.image.convert("L").tobytes() == expected.convert("L").tobytes(), (
        f"{name} differs from {reference}; NESTREF_UPDATE_SCREENS=1 writes it anew"
    )


def test_the_screens_say_what_the_players_need():
    screens = {name: screen_of(signals, name) for name, signals in scenes().items()}
    assert screens["first-move"].lines == ("to move", "lift a piece", "to move it")
    assert (screens["turn"].headline, screens["turn"].lines[1]) == ("RED", "last: c7-d6")
    assert screens["capture"].headline == "CAPTURE"
    assert screens["capture"].lines[:2] == ("red must take:", "c5xd5")
    assert screens["illegal"].alert
    assert screens["illegal"].lines == ("c3-c5: too far", "move c5 to c3")
    assert screens["fix-nest"].lines == ("put blue egg on a7",)
    assert screens["question"].lines[0].startswith("> e5x")
    assert (screens["confirm"].headline, screens["confirm"].lines) == ("CONFIRM?", ("e5xd6 made?",))
    assert screens["winner"].headline == "RED WINS"
    # The game's words, too long for one line, take two; then how the next game starts.
    assert screens["winner"].lines == ("cuckoo", "captured (2)", "set up for game 2")
    assert screens["set-up"].headline == "SET UP"
    assert screens["set-up"].lines == ("game 2: blue starts", "fill 33: +a1 +b1 +31", "empty 1: -f5")
    assert screens["resigned"].lines == ("blue resigned", "set up for game 2")
    # Blue's move taken back: blue is to move again, red's move is the last one.
    assert (screens["undo"].headline, screens["undo"].lines) == ("UNDO", ("move d6 to c7",))
    assert screens["thinking"].lines == ("computer is blue", "last: c3-c4")
    assert screens["computer-move"].headline == "c7-d6"
    assert (screens["clock"].headline, screens["clock"].footer) == ("RED", "red 4:31  blue 0:09.3")
    assert (screens["hint"].headline, screens["hint"].lines) == ("c7-d6", ("hint for blue",))


def test_a_screen_is_drawn_only_when_it_changes():
    display = OledDisplay(dummy(width=128, height=64, mode="1"))
    assert display.show(Screen("RED", ("to move",)))
    assert not display.show(Screen("RED", ("to move",)))
    assert display.show(Screen("BLUE", ("to move",)))
    assert display.frames == 2


def test_long_text_is_cut_to_fit():
    image = render(Screen("A VERY LONG HEADLINE INDEED", ("x" * 80,), "y" * 80))
    assert image.size == (128, 64)
    assert image.getbbox() is not None
    # Cut, not overflowing: the two rightmost columns stay dark (text starts at x = 2),
    # but for the footer's rule at y = 55.
    assert image.crop((126, 0, 128, 55)).getbbox() is None
    assert image.crop((126, 56, 128, 64)).getbbox() is None
    assert render(Screen("", ("x" * 80,), "")).crop((2, 20, 128, 30)).getbbox() is not None


class SlowLooseDummy(dummy):  # type: ignore[misc]  # luma ships no types
    """luma's dummy device on a slow bus, whose first frame fails (a loose wire)."""

    def __init__(self) -> None:
        super().__init__(width=128, height=64, mode="1")
        self.sent = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def display(self, image: Image.Image) -> None:
        self.sent += 1
        self.started.set()
        self.release.wait(5)
        if self.sent == 1:
            raise OSError(121, "Remote I/O error")
        super().display(image)


def test_a_background_display_sends_the_newest_frame_and_survives_a_failed_one(caplog):
    device = SlowLooseDummy()
    oled = OledDisplay(device, background=True)
    first, second, third = (Screen(name, (), "") for name in ("ONE", "TWO", "THREE"))
    oled.show(first)
    assert device.started.wait(5)  # the thread is sending it; show() did not wait
    oled.show(second)  # replaced by the third before the thread gets to it
    oled.show(third)
    device.release.set()
    assert oled.wait_sent()
    assert device.sent == 2  # the first (failed) and the newest
    assert device.image.convert("1").tobytes() == render(third).tobytes()
    assert "OLED: [Errno 121] Remote I/O error; check its wiring" in caplog.text
    oled.clear()
    assert device.image.getbbox() is None
