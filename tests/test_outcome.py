"""How a game ends (rules.md §4), and the pass and draw of §3."""

from __future__ import annotations

import pytest

from firmware_host.games.cuckoo.rules import DRAW, IllegalMoveError, Move, Outcome, Rule, Side, WinCondition
from tests.helpers import play, setup

RED, BLUE = Side.RED, Side.BLUE


def ends(position_pieces: str, move: str, turn: str = "r") -> Outcome | None:
    """The outcome after playing ``move`` from a hand-made position."""
    position = play(setup(position_pieces, turn), move)
    return position.outcome()


def test_condition_1_capturing_the_last_piece_but_the_cuckoo_makes_the_opponent_win():
    assert ends("Ca1 We5 ef5 ce9", "e5xf5") == Outcome(BLUE, WinCondition.ONLY_CUCKOO_LEFT)


def test_condition_2_capturing_the_cuckoo_wins():
    assert ends("Ca1 Ee5 cf5 ea9", "e5xf5") == Outcome(RED, WinCondition.CUCKOO_CAPTURED)
    assert ends("Ca1 Ea2 ea9 ce5 Ee4", "e5xe4", "b") is None  # capturing an egg does not


def test_condition_3_the_cuckoo_entering_an_opponents_homebase_wins():
    assert ends("Cc8 Ea1 ce5 eh4", "c8-c9") == Outcome(RED, WinCondition.CUCKOO_TOOK_NEST)
    assert ends("Cc8 Ea1 ce5 eh4", "c8-b9") == Outcome(RED, WinCondition.CUCKOO_TOOK_NEST)
    assert ends("Ca5 Ee9 cc2 ea9", "c2-c1", "b") == Outcome(BLUE, WinCondition.CUCKOO_TOOK_NEST)


def test_condition_4_another_piece_entering_an_opponents_homebase_loses():
    assert ends("Ca1 Ec8 ce5 eh4", "c8-c9") == Outcome(BLUE, WinCondition.ENTERED_HOMEBASE)
    assert ends("Ca1 Wc7 ch5 eh4", "c7-c9") == Outcome(BLUE, WinCondition.ENTERED_HOMEBASE)
    assert ends("Ca5 Ee9 wc2 ca9", "c2-c1", "b") == Outcome(RED, WinCondition.ENTERED_HOMEBASE)


def test_an_own_homebase_is_no_goal():
    # In the standard lineup each side's cuckoo and warblers start on its own homebases.
    assert setup("Cc1 Wb1 Ed1 cc9 wb9 ed9").outcome() is None


def test_condition_1_comes_before_3_a_cuckoo_taking_the_last_piece_on_a_homebase_loses():
    # Red's cuckoo captures blue's last piece but its cuckoo, standing on blue's homebase c9.
    assert ends("Cc8 Ee1 ec9 ca5", "c8xc9") == Outcome(BLUE, WinCondition.ONLY_CUCKOO_LEFT)


def test_condition_2_comes_before_4_taking_the_cuckoo_on_a_homebase_wins():
    # Red's egg captures blue's cuckoo standing on blue's homebase c9.
    assert ends("Ca1 Ec8 cc9 ea5", "c8xc9") == Outcome(RED, WinCondition.CUCKOO_CAPTURED)


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [
        # Without history each condition is read for red, then for blue.
        ("Ce5 ce6", Outcome(RED, WinCondition.ONLY_CUCKOO_LEFT)),
        ("Ce5 ce6 ea9", Outcome(RED, WinCondition.ONLY_CUCKOO_LEFT)),
        ("Ce5 Ea1 ce6", Outcome(BLUE, WinCondition.ONLY_CUCKOO_LEFT)),
        ("Ea1 ea9", Outcome(BLUE, WinCondition.CUCKOO_CAPTURED)),
        ("Ea1 Ca2 ea9", Outcome(RED, WinCondition.CUCKOO_CAPTURED)),
        ("Cc9 Ea1 cc1 ea9", Outcome(RED, WinCondition.CUCKOO_TOOK_NEST)),
        ("Ca5 Ea1 cc1 ea9", Outcome(BLUE, WinCondition.CUCKOO_TOOK_NEST)),
        ("Ca5 Ec9 cc1 ea9", Outcome(BLUE, WinCondition.CUCKOO_TOOK_NEST)),
        ("Ca5 Ec9 ca9 eb1", Outcome(BLUE, WinCondition.ENTERED_HOMEBASE)),
        ("Ca5 Ea1 ca9 eb1", Outcome(RED, WinCondition.ENTERED_HOMEBASE)),
        ("Ca5 Ea1 ca9 ea2", None),
    ],
)
def test_a_position_without_history_is_read_in_the_contracts_order(pieces, expected):
    for turn in "rb":
        assert setup(pieces, turn).outcome() == expected


def test_a_finished_game_has_no_moves_and_refuses_one():
    position = play(setup("Ca1 Ee5 cf5 ea9"), "e5xf5")
    assert position.legal_moves() == []
    assert position.is_over()
    with pytest.raises(IllegalMoveError) as error:
        position.push(Move("a1", "a2"))
    assert error.value.illegal.rule is Rule.GAME_OVER
    assert "red wins" in error.value.illegal.reason


def test_neither_side_with_a_legal_move_is_a_draw():
    position = setup("Ea9 Ce9 ca1 ee1")
    assert position.legal_moves() == []
    assert position.outcome() == DRAW
    assert DRAW.is_draw
    assert DRAW.to_text() == "draw"
    illegal = position.check_move(Move.from_text("pass"))
    assert illegal is not None
    assert illegal.rule is Rule.GAME_OVER


def test_a_move_that_leaves_neither_side_a_move_draws():
    # Blue's egg steps to the bottom row; red was stuck already.
    position = setup("Ea9 Ce9 ca1 ee2", "b")
    play(position, "e2-e1")
    assert position.outcome() == DRAW


def test_outcomes_in_words():
    assert str(Outcome(RED, WinCondition.CUCKOO_TOOK_NEST)) == (
        "red wins: red's cuckoo entered a blue homebase (condition 3)"
    )
    assert str(Outcome(BLUE, WinCondition.ENTERED_HOMEBASE)) == (
        "blue wins: a red piece other than the cuckoo entered a blue homebase (condition 4)"
    )
    assert str(Outcome(RED, WinCondition.ONLY_CUCKOO_LEFT)) == (
        "red wins: red has lost every piece but its cuckoo (condition 1)"
    )
    assert str(DRAW) == "draw: neither side has a legal move"
    assert str(Outcome(BLUE, None)) == "blue wins: red resigned"
    assert Outcome(BLUE, None).is_resignation
    assert not Outcome(BLUE, WinCondition.CUCKOO_CAPTURED).is_resignation
    with pytest.raises(ValueError, match="a draw has no winning condition"):
        Outcome(None, WinCondition.CUCKOO_CAPTURED)
