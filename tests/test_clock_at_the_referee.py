"""The game clock at the referee: switched by accepted moves, written with them, a flag
fall a loss on time, and the times resumed from the record after a restart."""

from __future__ import annotations

import json
from typing import Any

from firmware_host.clocks import GameClock, TimeControl
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Nest, Outcome, Position, Side
from firmware_host.recorder.service import RefereeService
from firmware_host.recorder.store import GameStore
from firmware_host.records import TIME
from firmware_host.referee.referee import Settings
from firmware_host.referee.signals import GameOver, Signal
from tests.helpers import play as play_moves

GAME = CuckooGame(Nest.default())
FIVE_PLUS_THREE = TimeControl.from_text("5+3")
ONE_MINUTE = TimeControl.from_text("1")


def wall_clock() -> float:
    return 1_800_000_000.0


def start(path, control, *, occupied=None, heard=None, now=0, position=None) -> RefereeService:
    heard = heard if heard is not None else []
    lineup = Position.from_lineup()
    return RefereeService.start(
        GAME,
        settings=Settings(),
        store=GameStore(path, game=GAME, clock=wall_clock),
        announce=heard.append,
        lineup="standard",
        occupied=(lineup if occupied is None else occupied).occupied(),
        now=now,
        position=position,
        control=control,
    )


def move(service: RefereeService, lift: str, put: str, at: int) -> int:
    """A plain move by hand at ``at``; the time the referee has accepted it by."""
    service.sense(lift, False, at)
    service.sense(put, True, at + 200)
    while (due := service.referee.next_deadline()) is not None and due < at + 5_000:
        service.tick(due)
    return at + 1_000


def stored_clock(path) -> Any:
    store = GameStore(path, game=GAME, clock=wall_clock)
    saved = store.load()
    store.close()
    assert saved is not None and saved.clock is not None
    return json.loads(saved.clock)


def test_a_game_without_a_time_control_has_no_clock(tmp_path):
    service = start(tmp_path / "games.sqlite", None, position=Position.from_lineup())
    move(service, "c3", "c4", 1_000)
    assert service.clock is None and service.clock_display(5_000) is None


def test_accepted_moves_switch_the_clock_and_it_is_on_disk_with_them(tmp_path):
    path = tmp_path / "games.sqlite"
    service = start(path, FIVE_PLUS_THREE, position=Position.from_lineup())
    assert service.clock_display(0) == ("5:00", "5:00")  # waiting for the first move
    move(service, "c3", "c4", 1_000)  # red's first move starts the clock, untimed
    now = move(service, "c7", "c6", 31_000)  # blue thought for about 30 s
    assert service.clock is not None and service.clock.running is Side.RED
    blue_left = service.clock.remaining(Side.BLUE, now)
    assert blue_left == 300_000 - 30_000 + 3_000  # 30 s between the two acceptances, 3 s given back
    assert service.clock_display(now) == ("4:59", "4:33")  # red's clock runs since blue's move
    # What is on disk is the clock as of the last move: blue's time, red to move.
    saved = GameClock.from_snapshot(stored_clock(path), 0)
    assert saved.to_move is Side.RED
    assert saved.remaining(Side.BLUE, 0) == blue_left


def test_a_flag_fall_is_a_loss_on_time_that_counts_in_the_set(tmp_path):
    path = tmp_path / "games.sqlite"
    heard: list[Signal] = []
    service = start(path, ONE_MINUTE, heard=heard, position=Position.from_lineup())
    move(service, "c3", "c4", 1_000)  # blue's clock runs from here
    assert not any(isinstance(signal, GameOver) for signal in heard)
    service.tick(60_000)  # 59 s: not yet
    assert not any(isinstance(signal, GameOver) for signal in heard)
    service.tick(62_000)
    (over,) = [signal for signal in heard if isinstance(signal, GameOver)]
    assert over.outcome == Outcome(Side.RED, None, on_time=True)
    assert over.score == (1, 0)
    assert GAME.outcome_words(Outcome(Side.RED, None, on_time=True)) == "blue out of time"
    service.tick(70_000)  # told once
    assert sum(isinstance(signal, GameOver) for signal in heard) == 1
    store = GameStore(path, game=GAME, clock=wall_clock)
    (summary,) = store.games()
    assert (summary.result, summary.how) == ("red", TIME)
    assert store.load().games.score == (1, 0)  # type: ignore[union-attr]


def test_the_low_time_warning_comes_once_per_side_per_game_and_not_again_after_a_restart(tmp_path):
    path = tmp_path / "games.sqlite"
    service = start(path, ONE_MINUTE, position=Position.from_lineup())
    move(service, "c3", "c4", 1_000)  # blue's clock runs from about here
    assert [service.low_time(at) for at in (40_000, 49_000)] == [None, None]  # over 10 s left
    assert service.low_time(52_000) is Side.BLUE
    assert service.low_time(53_000) is None  # told once
    now = move(service, "c7", "c6", 54_000)  # blue moves with 6 s left; red's clock runs
    assert service.low_time(now + 40_000) is None  # red has about 19 s
    assert service.low_time(now + 55_000) is Side.RED
    service.store.close()
    shown = play_moves(Position.from_lineup(), "c3-c4", "c7-c6")
    again = start(path, ONE_MINUTE, occupied=shown, now=5_000_000)
    assert again.clock is not None and again.clock.low_sides(5_000_000) == {Side.BLUE}
    assert again.low_time(5_000_100) is None  # blue was warned before the restart; red's clock is paused


def test_a_restarted_daemon_goes_on_with_the_times_of_the_record(tmp_path):
    path = tmp_path / "games.sqlite"
    service = start(path, FIVE_PLUS_THREE, position=Position.from_lineup())
    move(service, "c3", "c4", 1_000)
    now = move(service, "c7", "c6", 61_000)  # blue spent about a minute
    assert service.clock is not None
    blue_left = service.clock.remaining(Side.BLUE, now)
    service.store.close()
    # The daemon restarts, its monotonic clock from another origin; the nest still shows the game.
    shown = play_moves(Position.from_lineup(), "c3-c4", "c7-c6")
    again = start(path, FIVE_PLUS_THREE, occupied=shown, now=9_000_000)
    assert again.clock is not None
    assert again.clock.remaining(Side.BLUE, 9_000_000) == blue_left
    assert again.clock.running is Side.RED


def test_a_record_with_a_clock_it_cannot_read_plays_on_without_one(tmp_path):
    path = tmp_path / "games.sqlite"
    service = start(path, FIVE_PLUS_THREE, position=Position.from_lineup())
    move(service, "c3", "c4", 1_000)
    service.store.close()
    store = GameStore(path, game=GAME, clock=wall_clock)
    store._db.execute("UPDATE games SET clock = '{\"version\": 99}'")
    store.close()
    shown = play_moves(Position.from_lineup(), "c3-c4")
    again = start(path, FIVE_PLUS_THREE, occupied=shown)
    assert again.clock is None and again.referee.position is not None
