"""The referee over whole games played by the hand model of ``spec/hands.md``
(hypothesis): as a latching scanner logs them and as the Pi's 200 Hz scan reads them,
with and without pushed-off captures that leave an empty reading, sloppy and with
illegal attempts. It reads exactly the game played, as far as the nest shows it (then it
asks); it never accepts a move that was not played, and, as far as the nest shows the
game, it refuses or asks for the nest to be put right only while an illegal attempt is on
the nest."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firmware_host.games.cuckoo.rules import Nest
from firmware_host.referee.signals import CorrectionNeeded, MoveAccepted, MoveQuestion, MoveRefused, Signal
from tests.hand_model import Played, play_game
from tests.referee_helpers import random_game, referee_for, replay

NEST = Nest.default()
LINEUPS = list(NEST.lineup_names)
SEEDS = st.integers(0, 2**32)


def judge(played: Played, timed: list[tuple[int, Signal]]) -> None:
    """What ``spec/hands.md`` asks of the referee, for one game."""
    want = [str(move) for move in played.moves if not move.is_pass]
    got = [str(signal.move) for _, signal in timed if isinstance(signal, MoveAccepted) and not signal.move.is_pass]
    assert got == want[: len(got)], "a move that was not played was accepted"
    if got != want:
        decidable = len([move for move in played.moves[: played.decidable()] if not move.is_pass])
        assert len(got) >= decidable, f"stopped after {len(got)} moves; the nest shows {decidable}"
        last = max(i for i, (_, signal) in enumerate(timed) if isinstance(signal, MoveAccepted)) if got else -1
        assert any(isinstance(signal, MoveQuestion) for _, signal in timed[last + 1 :]), "stopped without asking"
    attempts = played.hand.attempts
    until = played.undecidable_from()
    for at, signal in timed:
        if until is not None and at >= until:
            break  # beyond what the nest shows: the referee can only ask
        if isinstance(signal, MoveRefused | CorrectionNeeded):
            assert any(window.start <= at <= window.end + 3000 for window in attempts), (
                f"a false alarm at {at} ms: {signal.to_text()}"
            )


# Derandomized: the same 500 games in every run (python -m benchmarks.referee_hands
# plays thousands more, with other seeds).
@settings(
    max_examples=500, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(SEEDS, st.sampled_from(LINEUPS), st.booleans(), st.booleans(), st.booleans())
# A capture no scan saw, then illegal attempts by both sides, undone, around the reply.
@example(4174798, "standard", False, False, True)
# The same, and the capturer's side beginning its next move before the reply was read.
@example(5000060, "advanced-2", False, False, True)
# Two captures no scan saw end the game; hands touching pieces after it mimic captures.
@example(6000172, "advanced-1", False, False, False)
# A capture slid over a cell and pushed its target off unseen; the other side then lifted
# the piece beside it and put it back: which piece was taken, the switches cannot tell.
@example(12000077, "advanced-2", False, True, True)
# The same, the other side then lifting the capturer to capture it and setting a piece
# down on the cell slid over: the piece set down is the reply's, not the capture's.
@example(10292, "advanced-2", False, False, True)
# Captures no scan saw, each with a slide, one after another: hands beside a cell do not
# let a reading of several moves explain a cell visited away from all their ways.
@example(10116, "standard", False, True, False)
# A capture no scan saw, an illegal attempt undone, the reply; then a capture no scan saw
# slid across the cell the first capturer left: that cell's brief reading is the slide
# passing, not the first capturer leaving later than the reply began (advanced-2, c3).
@example(2971, "advanced-2", False, False, True)
# Captures no scan saw in a row, asked about; the game ends, and hands touching the pieces
# after it leave one reading, a reply every option allows and more moves: it settles nothing.
@example(10199, "advanced-2", False, False, False)
# Asked about a capture no scan saw; a reply only one option allows, and the next move
# begun: that settles it.
@example(10116, "standard", False, False, True)
# A legal move, then (before it was read) an illegal second one: only the second is undone.
@example(16197481, "standard", False, False, True)
def test_the_referee_reads_every_game_real_hands_play(seed, lineup, polled, push_flicker, illegal):
    rng = random.Random(seed)
    start, moves = random_game(rng, lineup, plies=300)
    flicker = 0.7 if push_flicker else 0.0
    played = play_game(rng, start, moves, polled=polled, push_flicker=flicker, illegal=0.3 if illegal else 0.0)
    referee, signals = referee_for(start)
    judge(played, [(0, signal) for signal in signals] + replay(referee, played.events))


def test_the_hand_model_makes_every_behaviour_of_the_spec():
    made: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        start, moves = random_game(rng, LINEUPS[seed % 3], plies=300)
        made += play_game(rng, start, moves, polled=False, push_flicker=0.7 * (seed % 2), illegal=0.3).hand.made
    behaviours = {
        "bounce", "wobble", "hesitation", "two in the air", "step slid", "double step slid",
        "capturer first", "captured first", "pushed off", "pushed off over the middle",
        "pushed off, no empty reading", "second piece before", "second piece in the air", "second piece after",
        "illegal step", "illegal capture", "illegal opponent", "noise after the game",
    }  # fmt: skip
    assert behaviours <= set(made), f"never made: {sorted(behaviours - set(made))}"


@pytest.mark.parametrize("polled", [False, True])
def test_a_polled_log_misses_flickers_shorter_than_a_scan(polled):
    from firmware_host.referee.sensor_log import SensorEvent
    from tests.hand_model import poll

    events = [SensorEvent(100, "c3", False), SensorEvent(102, "c3", True), SensorEvent(200, "c4", True)]
    read = poll(events) if polled else events
    assert [event.cell for event in read] == (["c4"] if polled else ["c3", "c3", "c4"])


@given(SEEDS, st.sampled_from(LINEUPS), st.booleans())
@settings(max_examples=30, deadline=None)
def test_the_hand_model_keeps_the_switches_consistent(seed, lineup, illegal):
    # Each switch changes only to the other state, and the nest ends as the game left it.
    rng = random.Random(seed)
    start, moves = random_game(rng, lineup, plies=300)
    played = play_game(rng, start, moves, polled=False, illegal=0.3 if illegal else 0.0)
    state = dict.fromkeys(NEST.cells, False) | dict.fromkeys(start.occupied(), True)
    times = [event.time_ms for event in played.events]
    assert times == sorted(times)
    for event in played.events:
        assert state[event.cell] != event.occupied, f"{event.to_text()}: the switch already read that"
        state[event.cell] = event.occupied
    end = start.copy()
    for move in moves:
        end.push(move)
    assert {cell for cell, occupied in state.items() if occupied} == set(end.occupied())
