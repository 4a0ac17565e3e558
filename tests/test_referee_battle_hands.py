"""The battle game's referee on hand-model sensor logs (tests/battle_hands.py), replayed
through ``nestref referee --game battle --events``: every move read, none that was not
played, every strike announced before it is made, a swapped pair refused, illegal moves
refused and undone (docs/referee.md, "Strikes"; docs/sensor-log.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.games.base import Side
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.sensor_log import read_sensor_log
from firmware_host.referee.signals import MoveAccepted, MoveQuestion, MoveRefused, Signal, StrikeAnnounced
from tests.battle_hands import play_battle_game
from tests.battle_helpers import GAME
from tests.referee_helpers import replay

SWAPPED = "were lifted together: the switches cannot tell one piece from the other"


def replayed(text: str) -> list[Signal]:
    """The signals of the referee replaying the log ``text``, as ``nestref referee`` does."""
    log = read_sensor_log(text, game=GAME)
    referee = Referee(GAME, settings=Settings(), lineup="demo", occupied=(), now=0)
    signals = referee.await_setup(now=0)
    for side in Side:
        signals += referee.give_setup(log.setups[side], 0)
    return signals + [signal for _, signal in replay(referee, log.events)]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(1, 80),
    illegal=st.sampled_from([0.0, 0.3]),
    swap=st.sampled_from([0.0, 0.2]),
)
def test_the_referee_reads_every_battle_game_hands_play(seed, plies, illegal, swap):
    played = play_battle_game(random.Random(seed), plies, illegal=illegal, swap=swap)
    signals = replayed(played.to_text())
    assert [str(s.move) for s in signals if isinstance(s, MoveAccepted)] == [str(move) for move in played.moves]
    position = played.start()
    announced = [s for s in signals if isinstance(s, StrikeAnnounced)]
    expected = []
    for move in played.moves:
        if move.is_strike:
            expected.append((str(move), position.strike(move).words()))
        position.push(move)
    assert [(str(s.move), s.words) for s in announced] == expected
    pending = None  # the strike announced since the last move, if any
    for signal in signals:  # each strike announced after the move before it, before it is made
        if isinstance(signal, StrikeAnnounced):
            pending = signal.move
        elif isinstance(signal, MoveAccepted):
            assert (pending == signal.move) == signal.move.is_capture, signal
            pending = None
    refused = [s for s in signals if isinstance(s, MoveRefused)]
    swaps, attempts = (
        played.hands.made["swapped pair"],
        sum(count for name, count in played.hands.made.items() if name.startswith("illegal")),
    )
    assert sum(SWAPPED in s.reason for s in refused) == swaps
    assert len(refused) == swaps + attempts
    assert not [s for s in signals if isinstance(s, MoveQuestion)]


def test_the_hand_model_makes_every_behaviour_it_claims():
    made: Counter[str] = Counter()
    for seed in range(12):
        made += play_battle_game(random.Random(seed), 60, illegal=0.3, swap=0.2).hands.made
    for behaviour in (
        "bounce",
        "wobble",
        "step slid",
        "run slid",
        "hesitation",
        "strike: lift",
        "strike: touch",
        "strike: struck first",
        "swapped pair",
        "illegal out_of_reach",
        "illegal not_straight",
        "illegal blocked",
    ):
        assert made[behaviour] > 0, behaviour


@pytest.mark.parametrize("seed", range(6))
def test_nestref_referee_replays_a_battle_log_and_prints_the_events(capsys, tmp_path, seed):
    played = play_battle_game(random.Random(seed), 40, illegal=0.2, swap=0.15)
    path = tmp_path / "battle.log"
    path.write_text(played.to_text(), encoding="utf-8")
    assert main(["--game", "battle", "referee", "--events", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["red set-up: waiting", "blue set-up: waiting"]
    assert "red set-up: ready" in lines and "blue set-up: ready" in lines
    assert "game 1 starts: own, red to move" in lines
    assert [line.removeprefix("move ") for line in lines if line.startswith("move ")] == [
        str(move) for move in played.moves
    ]
    strikes = [line for line in lines if line.startswith("strike ")]
    assert len(strikes) == sum(move.is_strike for move in played.moves)
    assert sum(SWAPPED in line for line in lines) == played.hands.made["swapped pair"]
    position = played.start()
    for move in played.moves:
        position.push(move)
    assert lines[-2] == position.to_text()


def test_a_log_of_set_ups_is_checked_line_by_line(capsys, tmp_path):
    played = play_battle_game(random.Random(1), 2)
    text = played.to_text()
    red, _, rest = text.split("\n", 2)
    cases = [
        (f"{red}\n{rest}", "needs both 'setup red:' and 'setup blue:' lines (blue missing)"),
        (f"{red}\n{red}\n{rest}", "2: a second set-up for red"),
        (f"{red}\n# setup blue: MMMMMMMMMM/10/10/10\n{rest}", "2: blue's set-up has 10 marshals; the army has 1"),
        (f"# lineup: demo\n{text}", "2: a set-up after a lineup or a position"),
    ]
    for number, (log, message) in enumerate(cases):
        path = tmp_path / f"bad{number}.log"
        path.write_text(log, encoding="utf-8")
        assert main(["--game", "battle", "referee", "--events", str(path)]) == 2
        assert message in capsys.readouterr().err, message
    path = tmp_path / "cuckoo.log"
    path.write_text(text, encoding="utf-8")
    assert main(["referee", "--events", str(path)]) == 2
    assert "1: a set-up: Operation Cuckoo starts from a lineup or a position" in capsys.readouterr().err


def test_a_log_begun_as_the_game_starts_says_the_set_ups_and_the_cells_they_fill(capsys, tmp_path):
    played = play_battle_game(random.Random(3), 1)
    red, blue = (played.setups[side] for side in Side)
    cells = " ".join(sorted(red.cells | blue.cells))
    (move,) = played.moves
    header = "".join(f"# setup {side.label}: {played.setups[side].to_text(GAME.field)}\n" for side in Side)
    log = f"{header}# occupied: {cells}\n1000 {move.origin}-\n1400 {move.target}+\n"
    path = tmp_path / "from-the-start.log"
    path.write_text(log, encoding="utf-8")
    assert main(["--game", "battle", "referee", "--events", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "game 1 starts: own, red to move" in lines and f"move {move}" in lines
