"""The sensor filter: debounce, evidence of captures, faulty cells."""

from __future__ import annotations

from firmware_host.games.cuckoo.rules import Nest
from firmware_host.referee.sensing import (
    CellChanged,
    FaultCleared,
    FaultFound,
    SensorFilter,
    Steadied,
    Timing,
    Touched,
)
from firmware_host.referee.signals import SensorProblem

CELLS = Nest.default().cells


def sensors(occupied=("c3",)) -> SensorFilter:
    return SensorFilter(CELLS, occupied, Timing(), 0)


def drain(filter_: SensorFilter, until: int):
    events = []
    while (due := filter_.next_deadline()) is not None and due <= until:
        events += filter_.advance(due)
    return events


def test_a_reading_counts_once_it_has_lasted_the_debounce_time():
    s = sensors()
    assert s.read("c3", False, 100) == [Touched("c3", 100)]
    assert s.next_deadline() == 130
    assert s.advance(129) == []
    assert s.advance(130) == [CellChanged("c3", False, 130)]
    assert "c3" not in s.settled


def test_bounce_shorter_than_the_debounce_time_never_counts():
    s = sensors()
    for time, occupied in ((100, False), (101, True), (103, False), (104, True)):
        s.read("c3", occupied, time)
    assert drain(s, 1000) == [Steadied("c3", 134)]  # a glitch, over: no change
    assert "c3" in s.settled


def test_a_repeated_reading_changes_nothing():
    s = sensors()
    assert s.read("c3", True, 10) == []  # a glitch: + on an occupied cell
    assert s.read("e5", False, 10) == []
    assert s.next_deadline() is None


def test_evidence_that_a_cell_was_empty_however_briefly():
    s = sensors(("c3", "d4"))
    s.read("c3", False, 1000)  # the capturer leaves
    assert not s.was_empty_since("d4", 1000, grace=150)
    s.read("d4", False, 1500)
    s.read("d4", True, 1503)  # pushed off: 3 ms, never settles
    assert not s.was_empty_since("d4", 1000, grace=150)  # a landing, or a bounce as it is lifted?
    drain(s, 1600)  # occupied for debounce_ms: a landing
    assert s.was_empty_since("d4", 1000, grace=150)
    assert not s.was_empty_since("d4", 1600, grace=50)
    assert s.was_empty_since("d4", 1600, grace=150)  # just before the capturer left
    assert not s.was_empty_since("d4", 1600, grace=150, floor=1503)  # that flicker proved an earlier capture


def test_the_bounce_of_a_piece_arriving_is_no_evidence():
    s = sensors(("c3",))
    s.read("d4", True, 1000)  # a piece arrives on d4, bouncing
    s.read("d4", False, 1001)
    s.read("d4", True, 1002)
    drain(s, 2000)
    assert not s.was_empty_since("d4", 1050, grace=150)


def test_a_chattering_cell_is_faulty_until_it_calms_down():
    s = sensors()
    events = []
    for k in range(100):  # half a second of changes 5 ms apart: no piece settles so long
        events += s.read("h5", k % 2 == 0, 100 + 5 * k)
    assert FaultFound("h5", SensorProblem.FLICKERING) in events
    assert "h5" in s.faulty
    assert s.read("h5", True, 700) == []  # ignored while faulty
    later = drain(s, 10_000)
    assert FaultCleared("h5") in later
    assert "h5" not in s.faulty
    assert ("h5" in s.settled) == ("h5" in s.raw)


def test_a_wobbly_piece_settling_is_no_fault():
    # Chatter for a quarter of a second (pulses of 1-5 ms, gaps up to 15 ms), then rest.
    s = sensors(())
    events = s.read("h5", True, 100)
    time = 100
    while time < 340:
        events += s.read("h5", False, time + 12) + s.read("h5", True, time + 15)
        time += 15
    events += drain(s, 1000)
    assert not [event for event in events if isinstance(event, FaultFound)]
    assert CellChanged("h5", True, time + 30) in events
    assert "h5" in s.settled


def test_a_slowly_flickering_cell_is_faulty_too():
    s = sensors()
    events = []
    for k in range(8):
        events += s.read("h5", k % 2 == 0, 100 + 200 * k)
        events += drain(s, 100 + 200 * k + 100)
    assert FaultFound("h5", SensorProblem.FLICKERING) in events


def test_a_stuck_cell_is_trusted_again_when_it_changes():
    s = sensors(("e5",))
    assert s.mark_stuck("e5") == FaultFound("e5", SensorProblem.STUCK)
    assert s.read("e5", False, 500) == [FaultCleared("e5"), Touched("e5", 500)]
    assert drain(s, 1000) == [CellChanged("e5", False, 530)]
    assert "e5" not in s.faulty


def test_the_first_run_of_changes_after_a_moment():
    s = sensors(("d4",))
    for time, occupied in ((1000, False), (1003, True), (1010, False), (1012, True), (1100, False), (1104, True)):
        s.read("d4", occupied, time)
    assert s.first_burst_end("d4", 990) == 1012
    assert s.first_burst_end("d4", 1005) == 1012
    assert s.first_burst_end("d4", 1050) == 1104
    assert s.first_burst_end("d4", 2000) == 2000  # none: the moment itself


def test_evidence_that_came_as_a_capture_makes_it():
    s = sensors(("d4",))
    s.read("c3", False, 1000)
    s.read("d4", False, 4000)  # a touch long after the piece on c3 was lifted
    s.read("d4", True, 4005)
    drain(s, 5000)
    assert s.was_empty_since("d4", 1000, grace=100)
    assert not s.was_empty_since("d4", 1000, grace=100, within=2500)
    assert s.was_empty_since("d4", 2000, grace=100, within=2500)


def test_a_piece_passing_over_a_cell_is_not_one_leaving_it():
    s = sensors(("c3",))
    s.read("c3", False, 1000)  # the piece that stood on c3 leaves
    drain(s, 2000)
    s.read("c3", True, 5000)  # another piece slides across it: 150 ms
    drain(s, 5100)
    s.read("c3", False, 5150)
    drain(s, 6000)
    assert (s.last_emptied["c3"], s.last_left["c3"]) == (5150, 1000)
    s.read("c3", True, 7000)  # a piece set down to stay, and lifted later
    drain(s, 7500)
    s.read("c3", False, 8000)
    drain(s, 9000)
    assert (s.last_emptied["c3"], s.last_left["c3"]) == (8000, 8000)
