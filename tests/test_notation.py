"""Notation: cells, moves and positions in text (rules.md §6)."""

from __future__ import annotations

import pytest

from firmware_host.errors import NotationError
from firmware_host.games.cuckoo.rules import PASS, Kind, Move, Nest, Piece, Position, PositionError, Side
from tests.helpers import setup

START = "ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r"


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("c3-c4", Move("c3", "c4", False)),
        ("b1-d3", Move("b1", "d3", False)),
        ("d4xe5", Move("d4", "e5", True)),
        ("pass", PASS),
    ],
)
def test_moves_read_and_write_as_in_the_contract(text, move):
    assert Move.from_text(text) == move
    assert move.to_text() == text
    assert str(move) == text
    assert eval(repr(move)) == move  # the repr round-trips


@pytest.mark.parametrize("text", ["", "c3", "c3c4", "c3--c4", "C3-c4", "c3-c4 ", "c3:c4", "3c-4c", "Pass", "c3-c4x"])
def test_unreadable_moves_are_refused_with_the_expected_forms(text):
    with pytest.raises(NotationError, match=r"expected <from>-<to>, <from>x<to> or pass"):
        Move.from_text(text)


def test_moves_equal_by_their_cells_and_kind_only():
    generated = Position.from_lineup().legal_moves()[0]
    assert Move.from_text(str(generated)) == generated
    assert hash(Move.from_text(str(generated))) == hash(generated)
    assert Move("c3", "c4") != Move("c3", "c4", True)


@pytest.mark.parametrize(
    "nfn",
    [
        START,
        "ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE b",
        "5/6/7/8/4C4/8/7/6/5 b",
        "1e3/6/7/8/9/8/7/6/4C r",
        "wweec/EEEEEE/eeeeeee/WWWWWWWW/9/8/7/6/4C r",
    ],
)
def test_nfn_round_trips(nfn):
    assert Position.from_nfn(nfn).to_nfn() == nfn


def test_nfn_rows_run_north_to_south_and_west_to_east():
    position = Position.from_nfn("e4/6/7/8/4C4/8/7/6/4W b")
    assert position.pieces() == {
        "e1": Piece(Side.RED, Kind.WARBLER),
        "e5": Piece.from_letter("C"),
        "a9": Piece.from_letter("e"),
    }
    assert position.turn is Side.BLUE


@pytest.mark.parametrize(
    ("nfn", "message"),
    [
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE", "the side to move"),
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE x", "the side to move is 'x'"),
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE r", "it has 8 rows, the nest hexhex-5 has 9"),
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE/5 r", "it has 10 rows"),
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE2EEE/EEEEEE/EWCWE r", "row 3 describes more than its 7 cells"),
        ("ewcwe/eeeeee/eee1eee/8/8/8/EEE1EEE/EEEEEE/EWCWE r", "row 5 describes 8 cells, the row has 9"),
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWKWE r", "row 1 has 'K'"),
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE0EEE/EEEEEE/EWCWE r", "row 3 has '0'"),
        ("", "the side to move"),
    ],
)
def test_bad_nfn_says_what_is_wrong(nfn, message):
    with pytest.raises(NotationError, match="cannot read the NFN") as error:
        Position.from_nfn(nfn)
    assert message in str(error.value)


def test_a_side_has_at_most_one_cuckoo():
    with pytest.raises(PositionError, match="red has two cuckoos"):
        Position.from_nfn("5/6/7/8/4C4/8/7/6/4C r")


def test_a_position_on_a_cell_not_on_the_nest_is_refused():
    with pytest.raises(PositionError, match="'j1' is not a cell"):
        Position({"j1": Piece.from_letter("E")}, Side.RED)


def test_cells_in_moves_are_checked_against_the_nest_when_played():
    illegal = setup("Ca1 Ee5 ce9 ea9").check_move(Move.from_text("e5-z9"))
    assert illegal is not None
    assert "z9 is not a cell of the nest hexhex-5" in illegal.reason


def test_nfn_depends_on_the_nests_rows():
    small = Nest.load("docs/examples/hexhex-3.toml")
    position = Position.from_lineup("small", nest=small)
    assert position.to_nfn() == "ecw/eeee/5/EEEE/WCE r"
    assert Position.from_nfn("ecw/eeee/5/EEEE/WCE r", nest=small) == position
    with pytest.raises(NotationError, match="the nest hexhex-3 has 5"):
        Position.from_nfn(START, nest=small)
