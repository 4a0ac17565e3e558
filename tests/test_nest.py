"""The default nest's geometry and lineups (rules.md §1 and §2)."""

from __future__ import annotations

import pytest

from firmware_host.games.cuckoo.rules import Direction, Kind, Nest, Piece, Position, Side
from tests import reference_rules

NEST = Nest.default()


def test_the_default_nest_has_61_cells_in_rows_of_5_to_9():
    assert NEST.name == "hexhex-5"
    assert len(NEST.cells) == 61
    assert [len(row) for row in NEST.rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert NEST.rows[0] == ("a1", "b1", "c1", "d1", "e1")
    assert NEST.rows[4] == ("a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5")
    assert NEST.rows[8] == ("a9", "b9", "c9", "d9", "e9")


def test_e5_is_the_centre():
    assert NEST.coordinates("e5") == (0, 0)
    assert NEST.turned("e5") == "e5"
    assert all(NEST.neighbour("e5", direction) is not None for direction in Direction)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("a1", {"E": "b1", "NW": "a2", "NE": "b2"}),
        ("e5", {"E": "f5", "W": "d5", "NW": "d6", "NE": "e6", "SW": "d4", "SE": "e4"}),
        ("c7", {"E": "d7", "W": "b7", "NW": "b8", "NE": "c8", "SW": "c6", "SE": "d6"}),
    ],
)
def test_the_worked_neighbour_examples(cell, expected):
    found = {d.name: NEST.neighbour(cell, d) for d in Direction if NEST.neighbour(cell, d) is not None}
    assert found == expected


def test_the_long_north_east_diagonal_from_a1():
    line, cell = ["a1"], "a1"
    while (cell := NEST.neighbour(cell, Direction.NE)) is not None:  # type: ignore[assignment]
        line.append(cell)
    assert line == ["a1", "b2", "c3", "d4", "e5", "e6", "e7", "e8", "e9"]


def test_every_neighbour_follows_the_row_and_position_formulas():
    # The nest file gives hex coordinates; the contract gives formulas on (row, position).
    for cell in NEST.cells:
        for direction in Direction:
            assert NEST.neighbour(cell, direction) == reference_rules.neighbour(cell, direction.name), (cell, direction)


def test_a_letter_is_a_position_in_the_row_not_a_file():
    assert NEST.line("c3", "c7") is None
    assert NEST.line("c3", "c5") == (Direction.NW, 2)
    assert NEST.line("a1", "c3") == (Direction.NE, 2)
    assert NEST.line("a1", "a1") is None


def test_forward_directions_and_homebases():
    assert set(NEST.forward(Side.RED)) == {Direction.NW, Direction.NE}
    assert set(NEST.forward(Side.BLUE)) == {Direction.SW, Direction.SE}
    assert NEST.homebases(Side.RED) == {"b1", "c1", "d1"}
    assert NEST.homebases(Side.BLUE) == {"b9", "c9", "d9"}


def test_the_180_degree_turn_maps_row_r_position_i_to_row_10_minus_r_position_l_minus_1_minus_i():
    for cell in NEST.cells:
        row, i = reference_rules.split(cell)
        length = reference_rules.ROW_LENGTHS[10 - row]
        assert NEST.turned(cell) == f"{chr(ord('a') + length - 1 - i)}{10 - row}"
        assert NEST.turned(NEST.turned(cell)) == cell


LINEUP_ROWS = {
    # red's rows 1, 2 and 3, west to east, "." for empty (rules.md §2)
    "standard": ("EWCWE", "EEEEEE", "EEE.EEE"),
    "advanced-1": ("EW.WE", "EEEEEE", "EEECEEE"),
    "advanced-2": ("EW.WE", "EEEEEE", "EECEEEE"),
}


@pytest.mark.parametrize("name", LINEUP_ROWS)
def test_lineups_place_red_as_the_contract_says_and_blue_turned_by_180_degrees(name):
    pieces = NEST.lineup(name).pieces
    for row_number, letters in enumerate(LINEUP_ROWS[name], start=1):
        row = NEST.rows[row_number - 1]
        assert "".join(pieces[c].letter if c in pieces else "." for c in row) == letters
        turned_row = NEST.rows[9 - row_number]
        assert "".join(pieces[c].letter if c in pieces else "." for c in reversed(turned_row)) == letters.lower()
    assert len(pieces) == 34
    for side in Side:
        kinds = [piece.kind for piece in pieces.values() if piece.side is side]
        assert (kinds.count(Kind.EGG), kinds.count(Kind.WARBLER), kinds.count(Kind.CUCKOO)) == (14, 2, 1)
    for cell, piece in pieces.items():
        assert pieces[NEST.turned(cell)] == Piece(piece.side.opponent, piece.kind)


def test_the_standard_start_in_nfn():
    start = Position.from_lineup("standard")
    assert start.to_nfn() == "ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r"
    assert start.turn is Side.RED


def test_lineup_names_and_an_unknown_lineup():
    assert NEST.lineup_names == ("standard", "advanced-1", "advanced-2")
    with pytest.raises(ValueError, match="no lineup 'expert'"):
        NEST.lineup("expert")


def test_an_unknown_cell_is_named_in_the_error():
    with pytest.raises(ValueError, match="'j5' is not a cell of the nest hexhex-5"):
        NEST.coordinates("j5")
    assert "j5" not in NEST
    assert "i5" in NEST
