"""What a button press means: one table (``daemon/button_meanings.py``'s ``MEANINGS``) that the
daemon performs and the page says, read here through its lookups."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.daemon.button_meanings import MEANINGS, Situation, button_help, buttons_now, meaning_of
from firmware_host.daemon.buttons import ButtonAction, Press
from firmware_host.daemon.remote_shown import RemoteStage
from firmware_host.games.base import Side
from firmware_host.referee.referee import Mode

BUTTONS = ("confirm", "take_back", "switch")
STAGES = ["", *(stage.value for stage in RemoteStage)]
SITUATIONS = st.builds(
    Situation,
    mode=st.none() | st.sampled_from(list(Mode)),
    question_open=st.booleans(),
    to_move=st.none() | st.sampled_from(list(Side)),
    computers=st.frozensets(st.sampled_from(list(Side))),
    remote=st.sampled_from(STAGES),
    their_proposal=st.booleans(),
)


def does(button: str, press: Press, **situation: object) -> str | None:
    meaning = meaning_of(ButtonAction(button, press), Situation(**situation))  # type: ignore[arg-type]
    return meaning.does if meaning is not None else None


def test_the_referees_buttons_mean_what_docs_daemon_md_says():
    assert does("confirm", Press.SHORT, mode=Mode.PLAYING, question_open=True) == "answer"
    assert does("confirm", Press.SHORT, mode=Mode.SETUP) == "next_players"
    assert does("confirm", Press.SHORT, mode=Mode.PLAYING) is None
    assert does("confirm", Press.LONG, mode=Mode.PLAYING) == does("confirm", Press.LONG, mode=Mode.SETUP) == "new_game"
    assert does("take_back", Press.SHORT, mode=Mode.CORRECTING) == "take_back"
    assert does("take_back", Press.LONG, mode=Mode.PLAYING, to_move=Side.RED) == "resign"
    assert does("take_back", Press.LONG, mode=Mode.SETUP, to_move=Side.RED) is None  # no game on
    assert does("switch", Press.SHORT, mode=Mode.PLAYING, question_open=True) == "next_answer"
    assert does("switch", Press.DOUBLE, mode=Mode.PLAYING, to_move=Side.RED) == "hint"
    assert does("switch", Press.DOUBLE, mode=Mode.PLAYING, to_move=Side.RED, computers=frozenset({Side.RED})) is None
    assert does("switch", Press.SHORT, mode=Mode.SETUP) == "other_starter"
    assert does("switch", Press.LONG, mode=Mode.SETUP) == "next_lineup"
    assert does("switch", Press.LONG, mode=Mode.PLAYING) is None


def test_remote_plays_buttons_come_first_and_a_question_keeps_confirm_and_switch():
    assert does("confirm", Press.SHORT, mode=Mode.SETUP, remote="unpaired") == "remote_offer"
    assert does("confirm", Press.SHORT, mode=Mode.PLAYING, remote="unpaired", question_open=True) == "answer"
    assert does("switch", Press.LONG, mode=Mode.SETUP, remote="set over") == "remote_enter"
    assert does("take_back", Press.SHORT, mode=Mode.SETUP, remote="entering") == "code_undo"
    assert does("confirm", Press.LONG, mode=Mode.SETUP, remote="entering") is None  # nothing, not a new game
    assert does("take_back", Press.LONG, mode=Mode.SETUP, remote="offering") == "remote_leave"
    assert does("take_back", Press.SHORT, mode=Mode.SETUP, remote="offering") == "take_back"  # as without a broker
    assert does("take_back", Press.SHORT, mode=Mode.PLAYING, remote="desync") is None  # play stopped
    playing = {"mode": Mode.PLAYING, "remote": "playing", "to_move": Side.RED}
    assert does("confirm", Press.SHORT, **playing, their_proposal=True) == "remote_accept"
    assert does("switch", Press.SHORT, **playing, their_proposal=True) == "remote_decline"
    assert does("switch", Press.SHORT, **playing, their_proposal=True, question_open=True) == "next_answer"
    assert does("take_back", Press.SHORT, **playing) == "remote_take_back"
    assert does("take_back", Press.LONG, **playing) == "remote_resign"
    assert does("switch", Press.LONG, **playing) == "remote_draw"
    assert does("confirm", Press.LONG, **playing) == "remote_no_new_game"


def test_the_table_names_only_stages_and_buttons_that_exist():
    for meaning in MEANINGS:
        assert meaning.button in BUTTONS
        assert not meaning.asks or meaning.press is Press.LONG, meaning  # only a hold is asked about
    for stage in STAGES:  # every stage the table reads is remote play's
        assert any(meaning.when(Situation(mode=Mode.SETUP, remote=stage)) for meaning in MEANINGS)
    assert {stage.value for stage in RemoteStage} >= {"entering", "unpaired", "set over", "offering", "joining"}


@given(SITUATIONS)
def test_what_the_page_is_told_a_button_means_is_what_a_press_does(situation):
    shown = buttons_now(situation, BUTTONS)
    for button in BUTTONS:
        for press, key in ((Press.SHORT, "press"), (Press.LONG, "hold")):
            meaning = meaning_of(ButtonAction(button, press), situation)
            assert shown[button][key] == (meaning.words if meaning is not None else None)
        hold = meaning_of(ButtonAction(button, Press.LONG), situation)
        assert (shown[button]["ask"] is not None) == (hold is not None and bool(hold.asks))


def test_a_hold_that_cannot_be_undone_asks_in_the_side_to_moves_words():
    shown = buttons_now(Situation(mode=Mode.PLAYING, to_move=Side.BLUE), BUTTONS)
    assert shown["take_back"]["ask"] == {"text": "blue resigns: red wins this game.", "ok": "Resign for blue"}
    assert shown["switch"] == {"press": None, "hold": None, "label": "Next lineup", "ask": None}
    remote = buttons_now(Situation(mode=Mode.PLAYING, to_move=Side.BLUE, remote="playing"), BUTTONS)
    assert remote["switch"]["label"] == "Offer a draw" and remote["switch"]["ask"] is None
    assert button_help("take_back") == {
        "name": "take_back",
        "press": "take back the last move",
        "hold": "the side to move resigns",
        "label": "Resign…",
    }
    assert button_help("switch")["hold"] == "before a set: the next lineup"
