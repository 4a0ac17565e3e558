"""Who may give a PIN (web/access.py), time passed in: each side's own PIN gives a
session of that side alone; wrong PINs slow their source down at that target alone,
never the rightful player; sessions are kept per side; the PINs survive a restart in a
file no other user may read (docs/simulator.md, "Guessing a PIN")."""

from __future__ import annotations

import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.errors import ConfigError
from firmware_host.web.access import PIN_DIGITS, PinGuard, PinRefusedError, Sessions, SidePins, source_of

SIDES = ["red", "blue"]


def wrong_pin(pins: SidePins) -> str:
    return next(f"{n:06d}" for n in range(10**6) if f"{n:06d}" not in pins.pins.values())


def test_a_right_pin_gives_a_session_of_that_side_alone():
    pins = SidePins(SIDES)
    assert pins.pins["red"] != pins.pins["blue"]
    assert all(len(pin) == PIN_DIGITS and pin.isdigit() for pin in pins.pins.values())
    token = pins.log_in("red", pins.pins["red"], "192.168.1.7", now=0.0)
    assert pins.side_of(token, 1.0) == "red"
    assert pins.side_of(token, Sessions.SESSION_S + 1.0) is None  # it ended
    assert pins.side_of("not-a-token", 1.0) is None and pins.side_of(None, 1.0) is None
    with pytest.raises(PinRefusedError, match="wrong PIN for blue"):
        pins.log_in("blue", pins.pins["red"], "192.168.1.7", now=0.0)
    with pytest.raises(PinRefusedError, match="no side 'green': the sides are red, blue"):
        pins.log_in("green", "000000", "192.168.1.7", now=0.0)


def test_wrong_pins_make_their_source_wait_longer_and_longer_at_that_side_alone():
    pins = SidePins(SIDES)
    wrong = wrong_pin(pins)
    for _ in range(PinGuard.FREE_TRIES - 1):
        with pytest.raises(PinRefusedError, match="wrong PIN for blue"):
            pins.log_in("blue", wrong, "192.168.1.7", now=10.0)
    waits = []
    now = 10.0
    for _ in range(10):  # each wrong PIN after the free ones doubles the wait, up to an hour
        with pytest.raises(PinRefusedError, match="wrong PIN for blue"):
            pins.log_in("blue", wrong, "192.168.1.7", now=now)
        with pytest.raises(PinRefusedError, match=r"too many wrong PINs: try again in (\d+) s") as refused:
            pins.log_in("blue", pins.pins["blue"], "192.168.1.7", now=now)  # even the right one, meanwhile
        waits.append(int(refused.value.args[0].split()[-2]))
        now += waits[-1]
    assert waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]
    # Meanwhile the same source gives red's PIN (it is red's player, guessing blue's),
    # and another machine blue's: neither waits.
    assert pins.side_of(pins.log_in("red", pins.pins["red"], "192.168.1.7", now=now - 1), now) == "red"
    assert pins.side_of(pins.log_in("blue", pins.pins["blue"], "192.168.1.8", now=now - 1), now) == "blue"
    # Once the wait is over, the right PIN is taken, and the count starts afresh.
    token = pins.log_in("blue", pins.pins["blue"], "192.168.1.7", now=now)
    assert pins.side_of(token, now) == "blue"
    for _ in range(PinGuard.FREE_TRIES - 1):
        with pytest.raises(PinRefusedError, match="wrong PIN"):
            pins.log_in("blue", wrong, "192.168.1.7", now=now)
    assert pins.log_in("blue", pins.pins["blue"], "192.168.1.7", now=now)


def test_an_ipv6_guesser_is_one_source_whatever_address_of_its_64_it_takes():
    pins = SidePins(SIDES)
    wrong = wrong_pin(pins)
    for n in range(PinGuard.FREE_TRIES):
        with pytest.raises(PinRefusedError, match="wrong PIN"):
            pins.log_in("red", wrong, f"2001:db8::{n + 1:x}", now=0.0)
    with pytest.raises(PinRefusedError, match="try again in 30 s"):
        pins.log_in("red", pins.pins["red"], "2001:db8::ffff:1", now=0.0)
    assert pins.log_in("red", pins.pins["red"], "2001:db8:0:1::1", now=0.0)  # the next /64: another machine
    assert source_of("::ffff:10.0.0.2") == "10.0.0.2" and source_of("not an address") == "not an address"


def test_many_sources_guessing_a_side_are_heard_only_from_known_devices_or_once_it_is_opened_at_the_nest():
    pins = SidePins(SIDES)
    wrong = wrong_pin(pins)
    known = "10.0.0.200"
    pins.log_in("red", pins.pins["red"], known, now=0.0)  # red's phone, earlier
    for n in range(PinGuard.TARGET_TRIES):
        with pytest.raises(PinRefusedError, match="wrong PIN for red"):
            pins.log_in("red", wrong, f"10.0.1.{n}", now=float(n))
    with pytest.raises(PinRefusedError, match="too many wrong PINs for red from elsewhere"):
        pins.log_in("red", pins.pins["red"], "10.0.2.1", now=100.0)  # not even compared
    assert pins.log_in("blue", pins.pins["blue"], "10.0.2.1", now=100.0)  # blue's PIN is not the one guessed
    assert pins.log_in("red", pins.pins["red"], known, now=100.0)  # red's own phone: heard
    pins.shown_at_nest("red", now=200.0)  # red's player at the nest: any device is heard for a while
    assert pins.log_in("red", pins.pins["red"], "10.0.2.1", now=200.0 + PinGuard.OPEN_S - 1)
    with pytest.raises(PinRefusedError, match="from elsewhere"):
        pins.log_in("red", pins.pins["red"], "10.0.2.2", now=200.0 + PinGuard.OPEN_S)
    for _ in range(PinGuard.FREE_TRIES):  # a guesser behind the same address as red's player (a NAT)
        with pytest.raises(PinRefusedError, match="wrong PIN for red"):
            pins.log_in("red", wrong, known, now=300.0)
    with pytest.raises(PinRefusedError, match="too many wrong PINs: try again"):
        pins.log_in("red", pins.pins["red"], known, now=300.0)
    pins.shown_at_nest("red", now=300.0)  # red's player holds the buttons: their address waits no more
    assert pins.log_in("red", pins.pins["red"], known, now=300.0)
    assert pins.log_in("red", pins.pins["red"], "10.0.2.2", now=PinGuard.TARGET_WINDOW_S + 301)  # an hour on


def test_guessing_over_a_games_length_is_hopeless():
    """The arithmetic of docs/simulator.md: one source gets this many guesses in a day,
    all sources together this many at one side, of a million PINs."""
    guard, now, guesses = PinGuard(), 0.0, 0
    while now < 24 * 3600:
        try:
            guard.check("red", "000000", "999999", "10.0.0.1", now)
        except PinRefusedError as refused:
            if refused.args[0].startswith("wrong PIN"):
                guesses += 1
                continue
            now += float(refused.args[0].split()[-2])
    assert guesses == 5 + 7 + 22  # the free ones, the doubling waits' first hour, then one an hour
    assert PinGuard.TARGET_TRIES * 24 / 10**PIN_DIGITS < 0.001  # many sources: under 0.1 % a day


def test_red_logging_in_again_and_again_never_ends_blues_session():
    pins = SidePins(SIDES)
    blue = pins.log_in("blue", pins.pins["blue"], "10.0.0.2", now=0.0)
    reds = [pins.log_in("red", pins.pins["red"], "10.0.0.1", now=float(n)) for n in range(5 * Sessions.PER_TARGET)]
    assert pins.side_of(blue, 100.0) == "blue"
    assert [pins.side_of(token, 100.0) for token in reds[-Sessions.PER_TARGET :]] == ["red"] * Sessions.PER_TARGET
    assert pins.side_of(reds[0], 100.0) is None  # red's oldest ended instead


def test_the_pins_survive_a_restart_in_a_file_for_this_user_alone(tmp_path):
    path = tmp_path / "player-pins.toml"
    first = SidePins(SIDES, pins_file=path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert SidePins(SIDES, pins_file=path).pins == first.pins  # the next start
    text = path.read_text()
    assert text.startswith("# Each side's own PIN") and f'red = "{first.pins["red"]}"' in text
    path.unlink()
    assert SidePins(SIDES, pins_file=path).pins.keys() == first.pins.keys()  # deleted: new ones


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('red = "12345"\nblue = "654321"\n', r"red: a PIN of 6 digits is wanted; delete the file for new PINs"),
        ('red = "123456"\n', r"blue: a PIN of 6 digits is wanted"),
        ('red = "123456"\nblue = "123456"\n', r"blue: the same PIN as another side's"),
        ('red = 123456\nblue = "654321"\n', r"red: a PIN of 6 digits"),
        ("red = \n", r"the players' PINs: .*delete the file for new PINs"),
        (
            'red = "\uff11\uff12\uff13\uff14\uff15\uff16"\nblue = "654321"\n',
            r"red: a PIN of 6 digits",
        ),  # not ASCII digits
    ],
)
def test_a_pins_file_that_is_not_one_is_named_and_not_replaced(tmp_path, text, error):
    path = tmp_path / "player-pins.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"^{path}: {error}"):
        SidePins(SIDES, pins_file=path)
    assert path.read_text() == text


@given(st.text(max_size=12))
def test_no_pin_but_the_sides_own_opens_it(pin):
    pins = SidePins(SIDES)
    try:
        token = pins.log_in("red", pin, "10.0.0.1", now=0.0)
    except PinRefusedError:
        assert pin != pins.pins["red"]
    else:
        assert pin == pins.pins["red"] and pins.side_of(token, 0.0) == "red"


def test_what_is_remembered_of_sources_stays_bounded():
    guard = PinGuard()
    for n in range(PinGuard.MAX_SOURCES + 500):
        with pytest.raises(PinRefusedError):
            guard.check(f"side {n % 2}", "000000", "999999", f"s{n}", now=float(n) * 1e4)
    assert len(guard._guesses) == PinGuard.MAX_SOURCES
