"""Sensor logs (sensor-log.md): reading, writing, and every error with its line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Nest, Position
from firmware_host.referee.sensor_log import (
    SensorEvent,
    SensorLogError,
    decoded_lines,
    read_sensor_log,
    stream_sensor_log,
    write_sensor_log,
)

NEST = Nest.default()
GAME = CuckooGame(NEST)

EXAMPLE = """\
# lineup: standard
0 c3-
180 c3+
950 c3-
1010 c4+     # the red egg stepped c3-c4
"""


def test_the_example_of_the_format():
    log = read_sensor_log(EXAMPLE, game=GAME)
    assert log.start == Position.from_lineup("standard")
    assert log.start_label == "standard"
    assert [event.to_text() for event in log.events] == ["0 c3-", "180 c3+", "950 c3-", "1010 c4+"]
    assert [event.line for event in log.events] == [2, 3, 4, 5]


def test_no_header_means_the_standard_lineup_is_up_to_the_reader():
    log = read_sensor_log("5 a3-\n", game=GAME)
    assert log.start is None
    assert log.events == (SensorEvent(5, "a3", False, 1),)


def test_a_position_header_comments_and_blank_lines():
    nfn = "ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b"
    text = f"\n# recorded on the club's nest\n#   position:   {nfn}  \n\n10 a7-   # a comment\n# lineup: advanced-1\n"
    log = read_sensor_log(text, game=GAME)
    assert log.start == Position.from_nfn(nfn)
    assert log.start_label == "position"
    assert len(log.events) == 1  # a header after the first event is only a comment


def test_header_spellings_a_byte_order_mark_and_long_zeros():
    text = "\ufeff#  LINEUP : advanced-2   # on the club's nest\n00000000000000000000 a3-\n"
    log = read_sensor_log(text, game=GAME)
    assert log.start_label == "advanced-2"
    assert log.events[0].time_ms == 0


def test_a_log_says_which_cells_hold_pieces_when_the_nest_does_not_show_its_position():
    start = Position.from_lineup()
    log = read_sensor_log(f"# position: {start.to_nfn()}\n# occupied: a1 e5\n0 e5-\n", game=GAME)
    assert log.start == start and log.occupied == {"a1", "e5"}
    assert read_sensor_log("# occupied:\n", game=GAME).occupied == frozenset()  # an empty nest
    assert read_sensor_log("0 c3-\n", game=GAME).occupied is None  # the position's own cells


def test_glitches_are_readings_not_errors():
    log = read_sensor_log("0 c3+\n0 e5-\n", game=GAME)  # + on an occupied cell, - on an empty one
    assert len(log.events) == 2


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("0 c3-\n5 z9+\n", 2, "'z9' is not a cell of the nest hexhex-5"),
        ("0 c3-\nx c3+\n", 2, "the time 'x' is not a whole number of milliseconds"),
        ("-5 c3-\n", 1, "the time '-5' is not a whole number"),
        ("1.5 c3-\n", 1, "the time '1.5' is not a whole number"),
        ("100 c3-\n50 c3+\n", 2, "time goes backwards: 50 after 100"),
        ("0 c3\n", 1, "expected a cell and + or -, such as 'c3-', got 'c3'"),
        ("0 c3*\n", 1, "expected a cell and + or -"),
        ("0\n", 1, "expected '<time_ms> <cell><sign>'"),
        ("0 c3- c4+\n", 1, "expected '<time_ms> <cell><sign>'"),
        ("garbage\n", 1, "expected '<time_ms> <cell><sign>'"),
        ("# lineup: standard\n# lineup: advanced-1\n", 2, "a second header"),
        ("# lineup: expert\n", 1, "no lineup 'expert'"),
        ("# position: ewcwe r\n", 1, "cannot read the NFN"),
        ("99999999999999999999 c3-\n", 1, "is too large"),
        ("0 C3-\n", 1, "expected a cell and + or -"),
        ("# occupied: a1 z9\n", 1, "occupied: 'z9' is not a cell of the board hexhex-5"),
        ("# occupied: a1\n# occupied: b1\n", 2, "a second 'occupied' line"),
    ],
)
def test_a_bad_line_is_named_with_what_is_wrong(text, line, message):
    with pytest.raises(SensorLogError) as error:
        read_sensor_log(text, game=GAME, source="game.log")
    assert str(error.value).startswith(f"game.log:{line}: ")
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_writing_and_reading_back():
    events = [SensorEvent(0, "c3", False), SensorEvent(950, "c4", True)]
    text = write_sensor_log(events, header="lineup: advanced-2")
    assert text == "# lineup: advanced-2\n0 c3-\n950 c4+\n"
    log = read_sensor_log(text, game=GAME)
    assert [(e.time_ms, e.cell, e.occupied) for e in log.events] == [(0, "c3", False), (950, "c4", True)]
    assert log.start_label == "advanced-2"


@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_with_a_clear_error(text):
    message: str | None = None
    try:
        log = read_sensor_log(text, game=GAME, source="fuzz.log")
    except SensorLogError as error:
        message = str(error)
    else:
        times = [event.time_ms for event in log.events]
        assert times == sorted(times)
        assert all(event.cell in NEST for event in log.events)
    assert message is None or message.startswith("fuzz.log:")


@given(st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(list(NEST.cells)), st.booleans()), max_size=50))
def test_any_events_round_trip(raw):
    events = [SensorEvent(time, cell, occupied) for time, cell, occupied in sorted(raw, key=lambda e: e[0])]
    log = read_sensor_log(write_sensor_log(events), game=GAME)
    assert [(e.time_ms, e.cell, e.occupied) for e in log.events] == [(e.time_ms, e.cell, e.occupied) for e in events]


def test_only_a_newline_ends_a_line_a_form_feed_in_a_comment_does_not():
    text = "# lineup: standard\n0 c3-   # a form feed \f and a vertical tab \v in a comment\r\n300 c4+\n"
    log = read_sensor_log(text, game=GAME, source="game.log")
    assert [event.to_text() for event in log.events] == ["0 c3-", "300 c4+"]
    assert [event.line for event in log.events] == [2, 3]
    with pytest.raises(SensorLogError, match=r"^game\.log:1: "):
        read_sensor_log("0 c3- \f 300 c4+\n", game=GAME, source="game.log")  # not two lines


def test_a_stream_reads_its_header_at_once_and_its_events_as_they_are_taken():
    taken: list[int] = []

    def lines():
        for number, line in enumerate(["# lineup: advanced-1\n", "0 c3-\n", "300 c4+\n", "200 c5+\n"], start=1):
            taken.append(number)
            yield line

    stream = stream_sensor_log(lines(), game=GAME, source="game.log")
    assert stream.start_label == "advanced-1" and taken == [1, 2]  # up to the first event, no further
    assert next(stream.events).to_text() == "0 c3-"
    assert next(stream.events).to_text() == "300 c4+" and taken == [1, 2, 3]
    with pytest.raises(SensorLogError, match=r"^game\.log:4: time goes backwards"):
        next(stream.events)


def test_a_line_that_is_not_utf_8_is_named():
    lines = decoded_lines([b"# lineup: standard\n", b"0 c3-\n", b"300 \xff4+\n"], source="game.log")
    with pytest.raises(SensorLogError, match=r"^game\.log:3: not UTF-8 text"):
        list(stream_sensor_log(lines, game=GAME, source="game.log").events)
