"""Each side's own PIN (web/access.py SidePins), time passed in: a session of the side
whose PIN was given; wrong PINs make the page, then every page, wait; sessions end."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.web.access import PinAttempts, PinRefusedError, SidePins


def test_a_right_pin_gives_a_session_of_that_side_alone():
    pins = SidePins(["red", "blue"])
    assert pins.pins["red"] != pins.pins["blue"] and all(len(pin) == 4 and pin.isdigit() for pin in pins.pins.values())
    token = pins.log_in("red", pins.pins["red"], PinAttempts(), now=0.0)
    assert pins.side_of(token, 1.0) == "red"
    assert pins.side_of(token, SidePins.SESSION_S + 1.0) is None  # it ended
    assert pins.side_of("not-a-token", 1.0) is None and pins.side_of(None, 1.0) is None
    with pytest.raises(PinRefusedError, match="wrong PIN for blue"):
        pins.log_in("blue", pins.pins["red"], PinAttempts(), now=0.0)
    with pytest.raises(PinRefusedError, match="no side 'green': the sides are red, blue"):
        pins.log_in("green", "0000", PinAttempts(), now=0.0)


def test_wrong_pins_in_a_row_make_the_page_wait():
    pins = SidePins(["red", "blue"])
    page = PinAttempts()
    wrong = next(f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in pins.pins.values())
    for _ in range(SidePins.PIN_TRIES):
        with pytest.raises(PinRefusedError, match="wrong PIN"):
            pins.log_in("red", wrong, page, now=10.0)
    with pytest.raises(PinRefusedError, match=r"too many wrong PINs: try again in 30 s"):
        pins.log_in("red", pins.pins["red"], page, now=10.0)  # even the right one, meanwhile
    assert pins.side_of(pins.log_in("red", pins.pins["red"], page, now=10.0 + SidePins.PAUSE_S), 41.0) == "red"


def test_wrong_pins_from_many_pages_make_every_page_wait():
    pins = SidePins(["red", "blue"])
    wrong = next(f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in pins.pins.values())
    for n in range(SidePins.SERVER_TRIES):
        with pytest.raises(PinRefusedError, match="wrong PIN"):
            pins.log_in("blue", wrong, PinAttempts(), now=float(n))
    with pytest.raises(PinRefusedError, match="too many wrong PINs here"):
        pins.log_in("blue", pins.pins["blue"], PinAttempts(), now=20.0)
    token = pins.log_in("blue", pins.pins["blue"], PinAttempts(), now=20.0 + SidePins.SERVER_WINDOW_S)
    assert pins.side_of(token, 81.0) == "blue"


@given(st.text(max_size=12))
def test_no_pin_but_the_sides_own_opens_it(pin):
    pins = SidePins(["red", "blue"])
    try:
        token = pins.log_in("red", pin, PinAttempts(), now=0.0)
    except PinRefusedError:
        assert pin != pins.pins["red"]
    else:
        assert pin == pins.pins["red"] and pins.side_of(token, 0.0) == "red"
