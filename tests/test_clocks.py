"""The game clock: time controls read from text, and every rule of the clock with the
time passed in (no wall clock), including a flag fall during a correction and across
a restart with the snapshot on disk."""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host import clocks
from firmware_host.clocks import (
    ClockError,
    ClockState,
    ControlKind,
    GameClock,
    TimeControl,
    format_time,
)
from firmware_host.games.base import Side

RED, BLUE = Side.RED, Side.BLUE


# -- time controls -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "base_ms", "bonus_ms"),
    [
        ("5", ControlKind.SUDDEN, 300_000, 0),
        ("sudden 15", ControlKind.SUDDEN, 900_000, 0),
        ("  Sudden   15 ", ControlKind.SUDDEN, 900_000, 0),
        ("5+3", ControlKind.FISCHER, 300_000, 3000),
        ("5 + 3", ControlKind.FISCHER, 300_000, 3000),
        ("5 fischer 3", ControlKind.FISCHER, 300_000, 3000),
        ("10 bronstein 5", ControlKind.BRONSTEIN, 600_000, 5000),
        ("3+0", ControlKind.SUDDEN, 180_000, 0),  # no increment: sudden death
        ("600 bronstein 600", ControlKind.BRONSTEIN, 36_000_000, 600_000),
    ],
)
def test_a_time_control_is_read_from_its_text(text, kind, base_ms, bonus_ms):
    assert TimeControl.from_text(text) == TimeControl(kind, base_ms, bonus_ms)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a time control"),
        ("5 3", "not a time control"),
        ("5+", "not a time control"),
        ("five", "the minutes 'five' is not a whole number"),
        ("5+x", "the increment in seconds 'x' is not a whole number"),
        ("5 bronstein 2.5", "the delay in seconds '2.5' is not a whole number"),
        ("5 blitz 3", "'blitz' is not fischer or bronstein"),
        ("0", "the minutes must be 1 to 600, not 0"),
        ("601+2", "the minutes must be 1 to 600, not 601"),
        ("5+601", "the increment in seconds must be 0 to 600, not 601"),
        ("sudden 5+3", "the minutes '5+3' is not a whole number"),
        ("\uff15+3", "is not a whole number"),  # a full-width digit 5 is no digit here
    ],
)
def test_a_bad_time_control_is_refused_saying_what_is_wrong(text, message):
    with pytest.raises(ClockError, match="time control") as raised:
        TimeControl.from_text(text)
    assert message in str(raised.value)
    assert repr(text[:40]) in str(raised.value)


def test_a_time_control_made_by_hand_is_checked():
    with pytest.raises(ClockError, match="sudden death has no increment"):
        TimeControl(ControlKind.SUDDEN, 60_000, 1000)
    with pytest.raises(ClockError, match="whole seconds"):
        TimeControl(ControlKind.FISCHER, 60_000, 0)
    with pytest.raises(ClockError, match="whole minutes"):
        TimeControl(ControlKind.FISCHER, 61_000, 1000)


@given(st.text(max_size=30) | st.from_regex(r"\s*(sudden\s+)?\d{1,4}(\s*\+\s*\d{1,4}|\s+[a-z]{3,10}\s+\d{1,4})?\s*"))
def test_any_text_is_read_as_a_time_control_or_refused_with_a_clock_error(text):
    message = None
    try:
        control = TimeControl.from_text(text)
    except ClockError as error:
        message = str(error)
    if message is None:
        assert TimeControl.from_text(control.to_text()) == control
    else:
        assert message.startswith(f"time control {text[:40]!r}: ")


controls = st.one_of(
    st.builds(lambda m: TimeControl(ControlKind.SUDDEN, m * 60_000), st.integers(1, 600)),
    st.builds(
        lambda kind, m, s: TimeControl(kind, m * 60_000, s * 1000),
        st.sampled_from([ControlKind.FISCHER, ControlKind.BRONSTEIN]),
        st.integers(1, 600),
        st.integers(1, 600),
    ),
)


@given(controls)
def test_a_time_control_reads_back_from_its_text(control):
    assert TimeControl.from_text(control.to_text()) == control


# -- the clock, rule by rule -------------------------------------------------------


def five_plus_three() -> GameClock:
    return GameClock.new(TimeControl.from_text("5+3"), first=RED)


def test_nothing_runs_before_the_first_move_and_the_first_move_is_untimed():
    clock = five_plus_three()
    assert clock.state is ClockState.WAITING and clock.running is None
    assert clock.remaining(RED, 60_000) == clock.remaining(BLUE, 60_000) == 300_000
    clock = clock.move_accepted(RED, 60_000)
    assert clock.time(RED) == clocks.SideTime(300_000)  # no time used, no increment
    assert clock.running is BLUE
    assert clock.remaining(BLUE, 70_000) == 290_000


def test_an_accepted_move_switches_the_clock_and_earns_the_increment():
    clock = five_plus_three().move_accepted(RED, 0).move_accepted(BLUE, 12_500)
    assert clock.time(BLUE) == clocks.SideTime(remaining_ms=290_500, used_ms=12_500, credited_ms=3000)
    assert clock.running is RED
    assert clock.remaining(RED, 20_000) == 300_000 - 7_500
    assert clock.remaining(BLUE, 20_000) == 290_500  # blue's clock stopped with its move


def test_a_provisional_move_leaves_the_movers_clock_running():
    # Red lifts and sets down a piece at 5 s; the referee asks which move it was, and
    # only at 9 s is the answer given and the move accepted. Until then red's clock runs.
    clock = five_plus_three().move_accepted(RED, 0).move_accepted(BLUE, 1_000)
    assert clock.running is RED and clock.remaining(RED, 9_000) == 292_000
    clock = clock.move_accepted(RED, 9_000)
    assert clock.time(RED).used_ms == 8_000 and clock.running is BLUE


def test_a_move_by_the_side_not_to_move_is_refused():
    with pytest.raises(ClockError, match="red to move, not blue"):
        five_plus_three().move_accepted(BLUE, 0)


def test_bronstein_gives_back_what_the_move_took_up_to_the_delay():
    clock = GameClock.new(TimeControl.from_text("10 bronstein 5"), first=RED).move_accepted(RED, 0)
    quick = clock.move_accepted(BLUE, 3_000)
    assert quick.time(BLUE).remaining_ms == 600_000  # 3 s used, 3 s back
    slow = clock.move_accepted(BLUE, 8_000)
    assert slow.time(BLUE).remaining_ms == 600_000 - 3_000  # 8 s used, the 5 s delay back


def test_sudden_death_gives_nothing_back():
    clock = GameClock.new(TimeControl.from_text("sudden 1"), first=BLUE).move_accepted(BLUE, 0)
    assert clock.move_accepted(RED, 2_000).time(RED).remaining_ms == 58_000


def test_each_side_may_have_its_own_control():
    clock = GameClock.new(TimeControl.from_text("5+3"), TimeControl.from_text("3+2"), first=RED)
    assert clock.display(0) == ("5:00", "3:00")
    clock = clock.move_accepted(RED, 0).move_accepted(BLUE, 1_000).move_accepted(RED, 2_000)
    assert clock.time(BLUE).credited_ms == 2_000 and clock.time(RED).credited_ms == 3_000


def test_the_flag_falls_when_the_time_runs_out_and_the_clock_stops_there():
    clock = GameClock.new(TimeControl.from_text("1"), first=RED).move_accepted(RED, 0)
    assert clock.flagged(59_999) is None
    assert clock.flagged(60_000) is BLUE
    late = clock.move_accepted(BLUE, 75_000)  # a move after the flag fell does not count
    assert late.state is ClockState.FLAGGED and late.fallen is BLUE
    assert late.since_ms == 60_000 and late.time(BLUE) == clocks.SideTime(0, 60_000, 0)
    assert late.running is None and late.remaining(RED, 90_000) == 60_000
    assert late.taken_back(91_000) == late.resume(91_000) == late.at(91_000)


def test_a_flag_falls_during_a_correction_on_the_clock_of_the_side_that_caused_it():
    # Blue makes an illegal move at 50 s; the nest is put right while blue's clock runs
    # (blue caused it), and blue's minute runs out before the nest is right again.
    clock = GameClock.new(TimeControl.from_text("1"), first=RED).move_accepted(RED, 0)
    during_correction = clock.at(50_000)
    assert during_correction.running is BLUE
    assert during_correction.flagged(60_000) is BLUE
    assert during_correction.remaining(RED, 60_000) == 60_000


def test_a_take_back_runs_the_clock_again_for_the_side_that_made_the_move():
    clock = five_plus_three().move_accepted(RED, 0).move_accepted(BLUE, 10_000)
    clock = clock.taken_back(14_000)  # red pressed take back 4 s into its turn
    assert clock.running is BLUE and clock.ply == 1
    assert clock.time(RED).used_ms == 4_000  # time spent is spent
    assert clock.time(BLUE).credited_ms == 3_000  # and the increment stays earned
    assert clock.remaining(BLUE, 20_000) == 293_000 - 6_000


def test_taking_back_the_first_move_makes_the_clock_wait_again():
    clock = five_plus_three().move_accepted(RED, 0).taken_back(5_000)
    assert clock.state is ClockState.WAITING and clock.to_move is RED
    assert clock.time(BLUE).used_ms == 5_000
    assert clock.remaining(RED, 50_000) == 300_000
    assert five_plus_three().taken_back(1_000).state is ClockState.WAITING


def test_a_pause_stops_both_clocks_until_resumed():
    clock = five_plus_three().move_accepted(RED, 0).pause(10_000)
    assert clock.running is None and clock.flagged(10**9) is None
    assert clock.remaining(BLUE, 10**9) == 290_000
    clock = clock.resume(100_000)
    assert clock.running is BLUE and clock.remaining(BLUE, 101_000) == 289_000


def test_a_stopped_clock_keeps_its_times():
    clock = five_plus_three().move_accepted(RED, 0).stop(7_000)
    assert clock.state is ClockState.STOPPED and clock.move_accepted(BLUE, 8_000) == clock.at(8_000)
    assert clock.resume(9_000).state is ClockState.STOPPED and clock.flagged(10**9) is None
    assert clock.remaining(BLUE, 10**9) == 293_000


def test_time_never_goes_back():
    clock = five_plus_three().move_accepted(RED, 1_000)
    with pytest.raises(ClockError, match="500 ms, before its last event at 1000 ms"):
        clock.remaining(RED, 500)


def test_low_time_is_under_ten_seconds():
    clock = GameClock.new(TimeControl.from_text("1"), first=RED).move_accepted(RED, 0)
    assert not clock.is_low(BLUE, 50_000) and clock.is_low(BLUE, 50_001)
    assert not clock.is_low(RED, 50_001)


@given(st.integers(1, clocks.MAX_MINUTES))
def test_the_low_time_mark_is_a_tenth_of_the_base_from_10_to_30_seconds(minutes):
    mark = TimeControl.from_text(str(minutes)).low_time_ms
    assert clocks.LOW_TIME_WARNING_MIN_MS <= mark <= clocks.LOW_TIME_WARNING_MAX_MS
    tenth = minutes * 6_000
    assert mark == tenth or (mark == 10_000 and tenth < 10_000) or (mark == 30_000 and tenth > 30_000)


@given(
    st.sampled_from(["1", "3", "5+3", "2 bronstein 5", "60"]),
    st.lists(st.integers(0, 5_000), min_size=1, max_size=60),
)
def test_the_low_time_warning_falls_due_once_the_running_side_is_under_its_mark(control_text, steps):
    control = TimeControl.from_text(control_text)
    clock = GameClock.new(control, first=RED).move_accepted(RED, 0)  # blue's clock runs
    warned: frozenset[Side] = frozenset()
    now = 0
    for step in steps:
        now += step
        due = clock.low_time_side(now, warned=warned)
        left = clock.remaining(BLUE, now)
        # Due exactly when blue runs under its mark with its flag not down, and not warned yet.
        assert (due is BLUE) == (0 < left < control.low_time_ms and BLUE not in warned)
        assert due is not RED  # red's clock does not run
        if due is not None:
            warned |= {due}
    assert clock.low_time_side(now, warned=frozenset({BLUE})) is None


def test_a_clock_read_back_knows_which_sides_were_low_already():
    clock = GameClock.new(TimeControl.from_text("1"), first=RED).move_accepted(RED, 0)
    assert clock.low_sides(49_000) == frozenset() and clock.low_sides(51_000) == {BLUE}
    again = GameClock.from_snapshot(clock.snapshot(51_000), 7)
    assert again.low_sides(7) == {BLUE}
    assert clock.pause(51_000).low_time_side(60_000) is None  # a paused clock warns no one


# -- the clock's faces -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (300_000, "5:00"),
        (299_999, "4:59"),
        (60_000, "1:00"),
        (10_000, "0:10"),
        (9_999, "0:09.9"),
        (9_300, "0:09.3"),
        (99, "0:00.0"),
        (0, "0:00.0"),
        (-5, "0:00.0"),
        (3_600_000, "1:00:00"),
        (36_000_000, "10:00:00"),
    ],
)
def test_the_time_is_shown_as_a_clock_shows_it(ms, text):
    assert format_time(ms) == text


def shown_ms(text: str) -> int:
    *hours_minutes, seconds = text.split(":")
    whole = 0
    for part in hours_minutes:
        whole = whole * 60 + int(part)
    return round((whole * 60 + float(seconds)) * 1000)


@given(st.integers(0, 36_000_000))
def test_the_time_shown_is_the_time_left_counted_down_to_its_last_digit(ms):
    shown = shown_ms(format_time(ms))
    step = 100 if ms < clocks.LOW_TIME_MS else 1000
    assert shown <= ms < shown + step


# -- properties over random games --------------------------------------------------


@dataclass(frozen=True)
class Event:
    kind: str  # move, take back, pause, resume, look
    after_ms: int


events = st.lists(
    st.builds(
        Event,
        st.sampled_from(["move", "move", "move", "take back", "pause", "resume", "look"]),
        st.integers(0, 40_000),
    ),
    max_size=40,
)


def play(clock: GameClock, game: list[Event]) -> list[tuple[Event, GameClock, GameClock, int]]:
    """Each event with the clock before it and after it, and when it came."""
    now, history = 0, []
    for event in game:
        now += event.after_ms
        before = clock
        if event.kind == "move":
            clock = clock.move_accepted(clock.to_move, now)
        elif event.kind == "take back":
            clock = clock.taken_back(now)
        elif event.kind == "pause":
            clock = clock.pause(now)
        elif event.kind == "resume":
            clock = clock.resume(now)
        else:
            clock = clock.at(now)
        history.append((event, before, clock, now))
    return history


@given(controls, controls, st.sampled_from(Side), events)
def test_time_is_conserved(red, blue, first, game):
    for _, _, clock, _ in play(GameClock.new(red, blue, first=first), game):
        for side in Side:
            account = clock.time(side)
            assert account.used_ms + account.remaining_ms == clock.control(side).base_ms + account.credited_ms
            assert account.remaining_ms >= 0


@given(controls, controls, st.sampled_from(Side), events)
def test_a_clock_runs_only_for_the_side_to_move_and_only_while_running(red, blue, first, game):
    for _, before, after, now in play(GameClock.new(red, blue, first=first), game):
        elapsed = now - before.since_ms
        running = before.running
        for side in Side:
            used = after.time(side).used_ms - before.time(side).used_ms
            if side is running:
                assert used == (elapsed if after.fallen is None else before.time(side).remaining_ms)
            else:
                assert used == 0


@given(st.integers(1, 600), st.integers(1, 60), events)
def test_fischer_gives_the_increment_for_every_timed_move(minutes, seconds, game):
    clock = GameClock.new(TimeControl(ControlKind.FISCHER, minutes * 60_000, seconds * 1000), first=RED)
    timed = {RED: 0, BLUE: 0}
    for event, before, after, _ in play(clock, game):
        if event.kind == "move" and before.state in (ClockState.RUNNING, ClockState.PAUSED) and after.fallen is None:
            timed[before.to_move] += 1
        for side in Side:
            assert after.time(side).credited_ms == timed[side] * seconds * 1000


@given(st.integers(1, 600), st.integers(1, 60), events)
def test_bronstein_never_gives_back_more_than_the_move_took(minutes, seconds, game):
    clock = GameClock.new(TimeControl(ControlKind.BRONSTEIN, minutes * 60_000, seconds * 1000), first=BLUE)
    turn_start: dict[Side, int] = {}  # what the side had when its turn began
    for event, before, after, _ in play(clock, game):
        mover = before.to_move
        turn_start.setdefault(mover, before.time(mover).remaining_ms)
        if event.kind == "move" and after.to_move is not mover:
            credit = after.time(mover).credited_ms - before.time(mover).credited_ms
            turn_ms = before.turn_ms + after.time(mover).used_ms - before.time(mover).used_ms
            assert 0 <= credit <= min(seconds * 1000, turn_ms)
            assert after.time(mover).remaining_ms <= turn_start[mover]  # time never grows
        if after.to_move is not mover:
            turn_start = {after.to_move: after.time(after.to_move).remaining_ms}


@given(controls, controls, st.sampled_from(Side), events, st.integers(0, 200_000))
def test_the_questions_asked_every_tick_answer_as_the_clock_brought_up_to_date(red, blue, first, game, wait):
    # flagged() and remaining() take a short cut, without making the clock anew.
    for _, _, clock, now in play(GameClock.new(red, blue, first=first), game):
        later = now + wait
        assert clock.flagged(later) == clock.at(later).fallen
        for side in Side:
            assert clock.remaining(side, later) == clock.at(later).time(side).remaining_ms


@given(controls, controls, st.sampled_from(Side), events, st.integers(0, 40_000), st.integers(0, 10**9))
def test_a_snapshot_restores_the_same_clock_at_any_time_origin(red, blue, first, game, wait, origin):
    history = play(GameClock.new(red, blue, first=first), game)
    clock, now = (history[-1][2], history[-1][3]) if history else (GameClock.new(red, blue, first=first), 0)
    now += wait
    data = json.loads(json.dumps(clock.snapshot(now)))  # plain data, through JSON
    restored = GameClock.from_snapshot(data, origin)
    assert restored.snapshot(origin) == data
    for side in Side:
        assert restored.time(side) == clock.at(now).time(side)
        assert restored.remaining(side, origin + 1_234) == clock.remaining(side, now + 1_234)
    assert restored.flagged(origin + 10**8) == clock.flagged(now + 10**8)


def test_the_clock_survives_a_restart_and_its_flag_falls_after_it(tmp_path: Path):
    # The daemon writes the snapshot with every move; it stops 10 s into blue's turn
    # and starts again on a new monotonic clock: the time it was down is nobody's.
    clock = GameClock.new(TimeControl.from_text("1"), first=RED).move_accepted(RED, 5_000)
    clock = clock.move_accepted(BLUE, 25_000).move_accepted(RED, 30_000)  # red used 5 s, blue 20 s
    saved = tmp_path / "clock.json"
    saved.write_text(json.dumps(clock.snapshot(30_000)), encoding="utf-8")
    restarted = GameClock.from_snapshot(json.loads(saved.read_text(encoding="utf-8")), 1_000)
    assert restarted.running is BLUE and restarted.display(1_000) == ("0:55", "0:40")
    assert restarted.flagged(40_999) is None
    assert restarted.flagged(41_000) is BLUE


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.pop("ply"), "expected the keys version, controls"),
        (lambda data: data.update(version=2), "version: this nestref reads version 1, not 2"),
        (lambda data: data["controls"].update(red="5+x"), "controls.red: time control '5+x'"),
        (lambda data: data["controls"].update(red=5), "controls.red: expected a time control's text, got 5"),
        (lambda data: data["times"]["blue"].update(used_ms=-1), "times.blue.used_ms: expected a whole number"),
        (lambda data: data["times"]["blue"].update(used_ms=True), "times.blue.used_ms: expected a whole number"),
        (lambda data: data.update(to_move="green"), "to_move: expected red or blue, got 'green'"),
        (lambda data: data.update(state="ticking"), "state: 'ticking' is not one of: waiting, running"),
        (lambda data: data.update(fallen="red"), "fallen: a side's flag is down exactly when"),
        (lambda data: data.update(times=[]), "times: expected a table, got list"),
        (lambda data: data["times"]["red"].update(remaining_ms=1), "times.red: used_ms + remaining_ms must be"),
        (lambda data: data.update(ply=0), "ply: a clock running has some moves made, not 0"),
        (lambda data: data.update(state="waiting"), "ply: a clock waiting has no moves made, not 1"),
    ],
)
def test_a_bad_snapshot_is_refused_naming_the_key(change, message):
    data = five_plus_three().move_accepted(RED, 0).snapshot(1_000)
    change(data)
    with pytest.raises(ClockError, match="clock snapshot") as raised:
        GameClock.from_snapshot(data, 0)
    assert message in str(raised.value)


def test_the_clock_reads_no_clock_of_its_own():
    tree = ast.parse(Path(clocks.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"time", "datetime", "asyncio", "threading"}
