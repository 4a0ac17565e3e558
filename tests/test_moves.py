"""Moves: steps, double steps, captures, compulsory capture, pass (rules.md §3)."""

from __future__ import annotations

import pytest

from firmware_host.games.cuckoo.rules import PASS, IllegalMoveError, Move, Rule, Side
from tests.helpers import moves, play, setup

# Each side keeps its cuckoo far away (red on a1, blue on e9) and out of the way.


def test_a_red_egg_steps_north_west_or_north_east():
    assert moves(setup("Ca1 Ee5 ce9 ea9"), "e5") == {"e5-d6", "e5-e6"}
    assert moves(setup("Ca1 Ec3 ce9 ea9"), "c3") == {"c3-c4", "c3-d4"}


def test_a_blue_egg_steps_south_west_or_south_east():
    assert moves(setup("Ca1 Ee1 ce9 ee5", "b"), "e5") == {"e5-d4", "e5-e4"}
    assert moves(setup("Ca1 Ee1 ce9 ec7", "b"), "c7") == {"c7-c6", "c7-d6"}


def test_a_step_off_the_nest_does_not_exist():
    assert moves(setup("Ca1 Ea5 ce9 ea9"), "a5") == {"a5-a6"}
    assert moves(setup("Ca1 Ea9 ce9 ei5"), "a9") == set()


def test_an_egg_never_moves_two_cells():
    assert moves(setup("Ca1 Ee5 ce9 ea9"), "e5") == {"e5-d6", "e5-e6"}
    with pytest.raises(IllegalMoveError) as error:
        play(setup("Ca1 Ee5 ce9 ea9"), "e5-e7")
    assert error.value.illegal.rule is Rule.TOO_FAR


@pytest.mark.parametrize("letter", ["W", "C"])
def test_warblers_and_cuckoos_step_one_or_two_cells_straight_forward(letter):
    cuckoo = "Ee1" if letter == "C" else "Ca1"
    position = setup(f"{cuckoo} {letter}e5 ce9 ea9")
    assert moves(position, "e5") == {"e5-d6", "e5-c7", "e5-e6", "e5-e7"}


def test_a_double_step_cannot_jump_an_own_piece_in_the_middle():
    position = setup("Ca1 We5 Ed6 ce9 ea9")
    assert moves(position, "e5") == {"e5-e6", "e5-e7"}
    with pytest.raises(IllegalMoveError) as error:
        play(position, "e5-c7")
    assert error.value.illegal.rule is Rule.BLOCKED
    assert "d6" in error.value.illegal.reason


def test_the_destination_of_a_step_must_be_empty():
    assert moves(setup("Ca1 We5 Ec7 ce9 ea9"), "e5") == {"e5-d6", "e5-e6", "e5-e7"}
    assert moves(setup("Ca1 Ec3 Ec4 ce9 ea9"), "c3") == {"c3-d4"}
    with pytest.raises(IllegalMoveError) as error:
        play(setup("Ca1 Ec3 Ec4 ce9 ea9"), "c3-c4")
    assert error.value.illegal.rule is Rule.OWN_PIECE


def test_pieces_do_not_step_backward_or_sideways():
    position = setup("Ca1 We5 ce9 ea9")
    for target, rule in (("f5", Rule.NOT_FORWARD), ("d4", Rule.NOT_FORWARD), ("g5", Rule.NOT_FORWARD)):
        illegal = position.check_move(Move("e5", target))
        assert illegal is not None
        assert illegal.rule is rule
        assert "north-west or north-east" in illegal.reason


def test_an_egg_captures_a_neighbour_in_any_of_the_six_directions():
    position = setup("Ca1 Ee5 ef5 ed5 ed6 ee6 ed4 ee4 ce9")
    assert moves(position) == {"e5xf5", "e5xd5", "e5xd6", "e5xe6", "e5xd4", "e5xe4"}


def test_an_egg_does_not_capture_two_cells_away():
    position = setup("Ca1 Ee5 ee7 ce9")
    assert moves(position, "e5") == {"e5-d6", "e5-e6"}
    assert not position.is_capture_compulsory()


@pytest.mark.parametrize("letter", ["W", "C"])
def test_warblers_and_cuckoos_capture_two_cells_away_in_any_direction(letter):
    other = "Eh6" if letter == "C" else "Ch6"
    position = setup(f"{other} {letter}e5 eg5 ec5 ec7 ee7 ec3 ee3 ce9")
    assert moves(position) == {"e5xg5", "e5xc5", "e5xc7", "e5xe7", "e5xc3", "e5xe3"}


def test_a_capture_two_cells_away_needs_an_empty_middle_cell():
    # The red egg in the middle can capture; the warbler cannot reach over it.
    position = setup("Ci5 We5 Ed4 ec3 ce9")
    assert moves(position) == {"d4xc3"}
    illegal = position.check_move(Move("e5", "c3", True))
    assert illegal is not None
    assert illegal.rule is Rule.BLOCKED
    # An opponent in the middle is captured instead of the one behind it.
    assert moves(setup("Ca1 We5 ee6 ee7 ce9")) == {"e5xe6"}
    illegal = setup("Ca1 We5 ee6 ee7 ce9").check_move(Move("e5", "e7", True))
    assert illegal is not None
    assert illegal.rule is Rule.BLOCKED


def test_a_blue_warbler_captures_backward():
    # The rulebook's example: the blue warbler is obliged to capture the red egg behind it.
    position = setup("Ca1 Ea2 ce9 we5 Ee6", "b")
    assert moves(position) == {"e5xe6"}
    play(position, "e5xe6")
    assert position.piece_at("e6") is not None
    assert position.piece_at("e6").letter == "w"  # type: ignore[union-attr]
    assert position.piece_at("e5") is None
    assert position.turn is Side.RED


def test_capturing_is_compulsory_even_when_a_warbler_could_step():
    position = setup("Ca1 We5 eg5 ce9")
    assert moves(position) == {"e5xg5"}
    assert position.is_capture_compulsory()
    illegal = position.check_move(Move("e5", "e6"))
    assert illegal is not None
    assert illegal.rule is Rule.CAPTURE_COMPULSORY
    assert "e5xg5" in illegal.reason


def test_any_piece_may_make_any_capture():
    position = setup("Ca1 Ec3 Ed3 We5 ed4 eg5 ce9")
    assert moves(position) == {"c3xd4", "d3xd4", "e5xd4", "e5xg5"}


def test_a_capture_removes_the_piece_and_ends_the_turn():
    position = setup("Ca1 We5 ef5 eg5 ea9 ce9")
    play(position, "e5xf5")
    assert position.piece_at("f5") is not None
    assert position.piece_at("f5").letter == "W"  # type: ignore[union-attr]
    assert position.turn is Side.BLUE  # no chain: g5 stays, blue moves
    assert position.piece_at("g5") is not None
    assert position.to_nfn() == "e3c/6/7/8/5We2/8/7/6/C4 b"


def test_captures_are_written_with_x_and_steps_with_a_dash():
    position = setup("Ca1 Ee5 ef5 ce9")
    for move, rule in ((Move("e5", "f5"), Rule.NOTATION), (Move("a1", "b2", True), Rule.NOTATION)):
        illegal = position.check_move(move)
        assert illegal is not None
        assert illegal.rule is rule


def test_moving_the_opponents_piece_or_an_empty_cell_or_off_the_nest():
    position = setup("Ca1 Ee5 ee7 ce9")
    cases = {
        Move("e7", "d6"): Rule.NOT_YOUR_TURN,
        Move("d3", "d4"): Rule.NO_PIECE,
        Move("e5", "j6"): Rule.NOT_A_CELL,
        Move("e5", "e5"): Rule.NOT_A_MOVE,
        Move("e5", "c7"): Rule.TOO_FAR,
        Move("a1", "a5"): Rule.TOO_FAR,
    }
    for move, rule in cases.items():
        illegal = position.check_move(move)
        assert illegal is not None, move
        assert illegal.rule is rule, move


def test_a_side_without_a_legal_move_passes():
    # Red's egg and cuckoo stand on the top row: nowhere forward to go, nothing to capture.
    position = setup("Ea9 Ce9 ca1 ee5")
    assert position.legal_moves() == [PASS]
    assert position.outcome() is None
    play(position, "pass")
    assert position.turn is Side.BLUE
    assert moves(position) == {"e5-d4", "e5-e4"}
    assert position.pop() == PASS
    assert position.turn is Side.RED


def test_a_side_with_a_legal_move_may_not_pass():
    illegal = setup("Ca1 Ee5 ce9 ea9").check_move(PASS)
    assert illegal is not None
    assert illegal.rule is Rule.PASS_NOT_ALLOWED


def test_lenient_refereeing_accepts_a_missed_capture():
    position = setup("Ca1 We5 eg5 ce9")
    with pytest.raises(IllegalMoveError):
        position.push(Move("e5", "e6"))
    assert position.check_move(Move("e5", "e6"), lenient=True) is None
    position.push(Move("e5", "e6"), lenient=True)
    assert position.piece_at("e6") is not None
    # Lenient is not lawless: a backward step is still refused.
    with pytest.raises(IllegalMoveError):
        setup("Ca1 We5 eg5 ce9").push(Move("e5", "e4"), lenient=True)


def test_an_illegal_move_leaves_the_position_unchanged():
    position = setup("Ca1 We5 eg5 ce9")
    before = position.to_nfn()
    with pytest.raises(IllegalMoveError, match="illegal move e5-e6: capturing is compulsory: e5xg5"):
        position.push(Move.from_text("e5-e6"))
    assert position.to_nfn() == before
    assert position.move_stack == ()
