"""The material count on request (daemon/parts/material.py): a part of its own, one line
in the root's list. Through the whole daemon on mock hardware: confirm pressed twice
quickly in a game shows each side's pieces on the OLED for a few seconds; in the battle
game, only how many each side has, never a rank."""

from __future__ import annotations

import random
import re

from firmware_host.daemon.parts.material import SHOWN_S, material_lines
from firmware_host.daemon.presenter import View
from firmware_host.games.base import Side
from firmware_host.games.battle import BattleGame, Field
from firmware_host.games.cuckoo.rules import Position
from tests.test_daemon import Rig, play_c3_c4

FIELD = Field.default()
RANK_WORDS = re.compile(r"\b(" + "|".join(rank.name for rank in FIELD.army) + r")s?\b", re.IGNORECASE)


def double_confirm(rig: Rig) -> None:
    rig.press("confirm")
    rig.press("confirm")


def test_confirm_twice_in_a_game_shows_the_pieces_left_for_a_few_seconds(tmp_path):
    rig = Rig(tmp_path)
    start = Position.from_lineup("standard")
    rig.start(start)
    play_c3_c4(rig)
    assert rig.daemon.view is View.PLAYING
    before = rig.daemon.snapshot().screen
    assert before.headline == "BLUE"
    double_confirm(rig)
    shown = rig.daemon.snapshot().screen
    assert shown.headline == "PIECES"
    counts = {side: sum(piece.side is side for piece in start.pieces().values()) for side in Side}
    assert shown.lines[0].startswith(f"red {counts[Side.RED]}")
    assert shown.lines[1].startswith(f"blue {counts[Side.BLUE]}")
    assert rig.devices.display is not None and rig.devices.display.screen == shown  # on the OLED itself
    rig.run_for(SHOWN_S + 0.5)
    assert rig.daemon.snapshot().screen == before  # and gone again
    assert rig.moves() == ["c3-c4"]  # the press asked the referee nothing
    rig.close()


def test_a_move_ends_the_count_at_once(tmp_path):
    rig = Rig(tmp_path)
    rig.start(Position.from_lineup("standard"))
    rig.change("c3", False)  # red's piece in a hand (the nest scans fast from now on)
    rig.run_for(0.3)
    double_confirm(rig)
    assert rig.daemon.snapshot().screen.headline == "PIECES"
    rig.change("c4", True)  # ...put down: the move made
    rig.run_for(0.5)
    assert rig.moves() == ["c3-c4"]
    assert rig.daemon.snapshot().screen.headline == "BLUE"
    rig.close()


def test_between_games_the_presses_mean_what_they_did(tmp_path):
    rig = Rig(tmp_path)
    rig.start()  # an empty nest: set up for the first game
    assert rig.daemon.view is View.SETUP
    double_confirm(rig)  # confirm between games: who the computer plays, stepped twice
    snapshot = rig.daemon.snapshot()
    assert snapshot.screen.headline == "SET UP"
    assert snapshot.game.computers == frozenset({Side.RED})
    rig.close()


def test_the_battle_games_count_is_of_pieces_alone_never_of_ranks():
    game = BattleGame(FIELD)
    position = game.start("demo", Side.RED)
    rng = random.Random(3)
    for _ in range(60):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    lines = material_lines(position, hides_ranks=True)
    counts = [sum(piece.side is side for piece in position.pieces().values()) for side in (Side.RED, Side.BLUE)]
    assert lines == (f"red {counts[0]} pieces left", f"blue {counts[1]} pieces left")
    assert not RANK_WORDS.search(" ".join(lines))
