"""The buzzer drivers on gpiozero's MockFactory (MockPWMPin for the tonal one): the
pin's tone over time as a tune plays, and the cues' tunes."""

from __future__ import annotations

import itertools

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.daemon.tunes import TUNES, Cue, cue_for, frequency, tune, tunes_as_json
from firmware_host.games import load_game
from firmware_host.games.base import PublicText, PublicView, Side
from firmware_host.referee.signals import ComputerMove, GameOver, MoveAccepted, MoveRefused, TakenBack, TurnStarted
from hardware.buzzer import HIGHEST_HZ, LOWEST_HZ, BeepSounder, Sounder, TonalSounder

PIN = 18


def tonal() -> tuple[TonalSounder, MockPWMPin]:
    factory = MockFactory(pin_class=MockPWMPin)
    return TonalSounder(PIN, pin_factory=factory), factory.pin(PIN)


def test_a_tonal_sounder_plays_each_note_at_its_frequency_for_its_time():
    sounder, pin = tonal()
    sounder.play([(440.0, 100), (None, 50), (880.0, 200)], now=10.0)
    heard = []
    for step in range(0, 400, 10):
        now = 10.0 + step / 1000
        playing = sounder.refresh(now)
        heard.append((step, playing, pin.frequency, pin.state))
    assert heard[0] == (0, True, 440.0, 0.5)  # half duty: a square wave at the note
    assert heard[9][2] == 440.0 and heard[10][2] is None  # the rest from 100 ms
    assert heard[10][3] == 0  # a silent pin, not a stuck-high one
    assert heard[15][2] == heard[34][2] == 880.0  # from 150 ms to 350 ms
    assert heard[35] == (350, False, None, 0)
    assert {entry[2] for entry in heard} == {440.0, 880.0, None}


notes = st.tuples(st.none() | st.floats(LOWEST_HZ, HIGHEST_HZ), st.integers(1, 500))


@given(st.lists(notes, min_size=1, max_size=8), st.lists(st.integers(0, 4_000), max_size=30))
def test_the_pin_sounds_the_note_due_at_every_moment(tune_played, moments):
    factory = MockFactory(pin_class=MockPWMPin)
    sounder = TonalSounder(PIN, pin_factory=factory)
    try:
        sounder.play(tune_played, now=100.0)
        for moment in sorted(moments):  # ms after the start
            playing = sounder.refresh(100.0 + moment / 1000)
            ends = list(itertools.accumulate(ms for _, ms in tune_played))
            due = next((hz for (hz, _), end in zip(tune_played, ends, strict=True) if moment < end), None)
            assert playing == (moment < ends[-1])
            assert factory.pin(PIN).frequency == (None if due is None else pytest.approx(due))
    finally:
        sounder.close()


def test_a_new_tune_cuts_the_one_playing_and_off_silences_at_once():
    sounder, pin = tonal()
    sounder.play([(440.0, 1000)], now=0.0)
    sounder.play([(1760.0, 100)], now=0.2)
    assert pin.frequency == 1760.0
    sounder.off()
    assert pin.frequency is None and pin.state == 0
    assert sounder.refresh(0.25) is False and pin.frequency is None


def test_a_tonal_sounder_refuses_a_note_it_cannot_play_before_playing_any():
    sounder, pin = tonal()
    with pytest.raises(ValueError, match=r"note 2 of the tune: 5000.0 Hz is outside the piezo's 220-3520 Hz"):
        sounder.play([(440.0, 100), (5000.0, 100)], now=0.0)
    assert pin.frequency is None
    with pytest.raises(ValueError, match="note 1 of the tune: its duration must be a whole number of ms, not 0"):
        sounder.play([(440.0, 0)], now=0.0)


def test_closing_a_sounder_silences_it_and_frees_its_pin():
    factory = MockFactory(pin_class=MockPWMPin)
    sounder = TonalSounder(PIN, pin_factory=factory)
    sounder.play([(440.0, 1000)], now=0.0)
    sounder.close()
    assert factory.pin(PIN).frequency is None
    TonalSounder(PIN, pin_factory=factory).close()  # the pin can be claimed again


def test_an_active_buzzer_sounds_for_notes_and_is_silent_for_rests():
    factory = MockFactory()
    sounder = BeepSounder(PIN, pin_factory=factory)
    pin = factory.pin(PIN)
    sounder.play([(440.0, 100), (None, 100), (440.0, 100)], now=0.0)
    states = [(sounder.refresh(t / 1000), pin.state) for t in (0, 50, 100, 150, 200, 250, 300)]
    assert states == [(True, 1), (True, 1), (True, 0), (True, 0), (True, 1), (True, 1), (False, 0)]
    pin.assert_states([0, 1, 0, 1, 0])
    sounder.play([(440.0, 100)], now=1.0)
    sounder.off()
    assert pin.state == 0
    sounder.close()


def test_both_drivers_are_sounders():
    factory = MockFactory(pin_class=MockPWMPin)
    sounders: list[Sounder] = [TonalSounder(PIN, pin_factory=factory), BeepSounder(PIN + 1, pin_factory=factory)]
    for sounder in sounders:
        sounder.play(tune(Cue.GAME_WON), now=0.0)
        assert sounder.refresh(0.1) is True
        sounder.close()


# -- the tunes ---------------------------------------------------------------------


@pytest.mark.parametrize("cue", list(Cue))
def test_every_cue_has_a_short_tune_the_piezo_can_play(cue):
    notes = tune(cue)
    assert notes and sum(ms for _, ms in notes) <= 800  # short: a cue, not a melody
    assert notes[0][0] is not None and notes[-1][0] is not None  # no silent start or end
    for hz, ms in notes:
        assert ms > 0 and (hz is None or LOWEST_HZ <= hz <= HIGHEST_HZ)
    sounder, pin = tonal()
    sounder.play(notes, now=0.0)
    assert pin.frequency == notes[0][0]


def test_the_cues_can_be_told_apart_even_on_a_buzzer_of_one_pitch():
    # An active buzzer hears only the rhythm: when it sounds and when it rests.
    def rhythm(cue):
        return tuple((hz is not None, ms) for hz, ms in tune(cue))

    assert len({rhythm(cue) for cue in Cue}) == len(Cue)


def test_no_tune_repeats_a_note_without_a_rest_between():
    # The driver holds a note that does not change; two equal notes would sound as one.
    for cue, notes in TUNES.items():
        for (first, _), (second, _) in itertools.pairwise(notes):
            assert first is None or first != second, cue


@pytest.mark.parametrize(
    ("note", "hz"), [("A4", 440.0), ("A5", 880.0), ("A3", 220.0), ("C4", 261.626), ("Bb4", 466.164), ("E6", 1318.51)]
)
def test_notes_are_in_equal_temperament_from_a440(note, hz):
    assert frequency(note) == pytest.approx(hz, rel=1e-5)


@given(st.sampled_from("CDEFGAB"), st.integers(0, 8))
def test_an_octave_up_doubles_the_frequency(letter, octave):
    assert frequency(f"{letter}{octave + 1}") == pytest.approx(2 * frequency(f"{letter}{octave}"))


@pytest.mark.parametrize("name", ["H4", "A", "a4", "A#", "A44", ""])
def test_a_name_that_is_not_a_note_is_refused(name):
    with pytest.raises(ValueError, match="is not a note"):
        frequency(name)


def test_the_tunes_go_to_the_page_as_json():
    data = tunes_as_json()
    assert set(data) == {cue.value for cue in Cue}
    assert data["game won"][0] == [pytest.approx(1046.502, rel=1e-6), 120]


def test_the_referees_signals_choose_their_cues():
    game = load_game("cuckoo")
    move = game.start(game.lineups[0], Side.RED).legal_moves()[0]
    assert cue_for(MoveRefused(attempt=None, rule=None, reason="not a move")) is Cue.ILLEGAL_MOVE
    assert cue_for(TurnStarted(Side.RED, 4, (move,))) is Cue.CAPTURE_COMPULSORY
    assert cue_for(TurnStarted(Side.RED, 4, (move,), by_computer=True)) is None  # the computer needs no reminder
    assert cue_for(TurnStarted(Side.RED, 4, ())) is None
    assert cue_for(ComputerMove(move, Side.BLUE, 3)) is Cue.OPPONENT_MOVED
    accepted = MoveAccepted(move, Side.RED, 1, PublicView(Side.BLUE, {}, PublicText("")))
    assert cue_for(accepted) is None  # off by default
    assert cue_for(accepted, move_accepted=True) is Cue.MOVE_ACCEPTED
    assert cue_for(TakenBack(move, 1)) is None
    assert cue_for(GameOver(game.resignation(Side.BLUE), (1, 0), None)) is Cue.GAME_WON
    assert cue_for(GameOver(game.time_loss(Side.BLUE), (1, 0), None)) is Cue.FLAG_FALL  # lost on time
