"""Board files: a custom nest works without code, a malformed one gets a clear error."""

from __future__ import annotations

import re

import pytest

from firmware_host.errors import BoardFileError
from firmware_host.games.assets import GameAssets
from firmware_host.games.cuckoo.rules import Direction, Nest, Piece, Position, Side, perft

DEFAULT_TEXT = GameAssets.of("cuckoo").board_text("hexhex-5")
SMALL = "docs/examples/hexhex-3.toml"


def write(tmp_path, text: str) -> str:
    path = tmp_path / "nest.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def edited(old: str, new: str) -> str:
    assert old in DEFAULT_TEXT, old
    return DEFAULT_TEXT.replace(old, new, 1)


def test_the_shipped_file_is_the_default_nest(tmp_path):
    copy = Nest.load(write(tmp_path, DEFAULT_TEXT))
    default = Nest.default()
    assert copy.cells == default.cells
    assert copy.lineup("standard") == default.lineup("standard")
    assert perft(Position.from_lineup(nest=copy), 3) == 2968


def test_a_small_custom_nest_plays_by_the_same_rules():
    small = Nest.load(SMALL)
    assert small.name == "hexhex-3"
    assert len(small.cells) == 19
    assert [len(row) for row in small.rows] == [3, 4, 5, 4, 3]
    assert small.neighbour("c3", Direction.NE) == "c4"
    assert small.turned("a1") == "c5"
    assert small.homebases(Side.BLUE) == {"b5"}
    start = Position.from_lineup("small", nest=small)
    assert sorted(map(str, start.legal_moves())) == [
        "a2-a3",
        "a2-b3",
        "b2-b3",
        "b2-c3",
        "c2-c3",
        "c2-d3",
        "d2-d3",
        "d2-e3",
    ]
    assert perft(start, 4) == 46


def test_a_nest_with_a_hole_breaks_lines(tmp_path):
    # Remove the centre: nothing steps, double-steps or captures across e5.
    nest = Nest.load(write(tmp_path, edited("e5 = [0, 0]\n", "")))
    assert len(nest.cells) == 60
    assert nest.line("d4", "e6") is None
    assert nest.neighbour("d4", Direction.NE) is None
    pieces = {cell: Piece.from_letter(letter) for cell, letter in {"d4": "W", "a1": "C", "e6": "e", "e9": "c"}.items()}
    position = Position(pieces, Side.RED, nest=nest)
    assert {str(move) for move in position.legal_moves() if move.origin == "d4"} == {"d4-d5", "d4-c6"}
    assert position.to_nfn() == "4c/6/7/4e3/8/3W4/7/6/C4 r"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "not valid TOML: "),
        (edited('name = "hexhex-5"\n', ""), "missing key 'name'"),
        (edited('name = "hexhex-5"', 'name = "hexhex-5"\ncolour = "red"'), "unknown key 'colour'"),
        (edited('name = "hexhex-5"', "name = 5"), "name: expected a string, got an integer"),
        (edited('name = "hexhex-5"', 'name = ""'), "name: must be a non-empty line of printable text"),
        (edited('name = "hexhex-5"', 'name = "two\\nlines"'), "name: must be a non-empty line of printable text"),
        (edited("a1 = [0, -4]", '"a\\n1" = [0, -4]'), "cells.a\\n1: a cell name is lower-case letters"),
        (edited("a1 = [0, -4]", "a1 = [9223372036854775807, -4]"), "the cells spread over"),
        (edited('forward = ["NW", "NE"]', 'forward = ["E", "W"]'), "must lie within 120°"),
        (edited('forward = ["NW", "NE"]', 'forward = ["NE", "SE", "W"]'), "must lie within 120°"),
        (edited('homebases = ["b1", "c1", "d1"]', "homebases = []"), "sides.red.homebases: a side needs at least one"),
        (
            re.sub(r"warblers = .*\neggs = .*\n", "warblers = []\neggs = []\n", DEFAULT_TEXT, count=1),
            "lineups.standard: a side needs a piece besides its cuckoo",
        ),
        (edited('cuckoo = "c1"', 'cuckoo = "c9"'), "the red cuckoo on c9 stands on a blue homebase"),
        (edited("a1 = [0, -4]", "a1 = [0, -4, 1]"), "cells.a1: expected axial coordinates [q, r]"),
        (edited("a1 = [0, -4]", "a1 = [0, true]"), "cells.a1: expected axial coordinates [q, r]"),
        (edited("a1 = [0, -4]", 'a1 = "a1"'), "cells.a1: expected axial coordinates [q, r]"),
        (edited("a1 = [0, -4]", "a1 = [1, -4]"), "cells.b1: has the same coordinates [1, -4] as a1"),
        (edited("a1 = [0, -4]", "A1 = [0, -4]"), "cells.A1: a cell name is lower-case letters then a number"),
        (edited('forward = ["NW", "NE"]', 'forward = ["NW", "N"]'), "sides.red.forward: unknown direction 'N'"),
        (edited('forward = ["NW", "NE"]', "forward = []"), "sides.red.forward: a side needs at least one"),
        (edited('forward = ["NW", "NE"]', 'forward = ["NW", "NW"]'), "sides.red.forward: 'NW' is listed twice"),
        (edited('forward = ["NW", "NE"]', 'forward = "NW"'), "sides.red.forward: expected a list of strings"),
        (edited('homebases = ["b1", "c1", "d1"]', 'homebases = ["b1", "z1"]'), "'z1' is not a cell of this nest"),
        (edited('homebases = ["b1", "c1", "d1"]', 'homebases = ["b9"]'), "b9 is a homebase of both sides"),
        (edited("[sides.blue]", "[sides.green]"), "sides: unknown key 'green'"),
        (edited('cuckoo = "c1"', 'cuckoo = "c2"'), "lineups.standard: c2 holds two pieces"),
        (edited('cuckoo = "c1"', 'cuckoo = "e5"'), "red's cuckoo on e5 stands where blue's cuckoo"),
        (edited('cuckoo = "c1"', 'cuckoo = ["c1"]'), "lineups.standard.cuckoo: expected a string, got a list"),
        (edited('cuckoo = "c1"\n', ""), "lineups.standard: missing key 'cuckoo'"),
        (edited('eggs = ["a1", "e1"', 'eggs = ["j3", "e1"'), "lineups.standard.eggs: 'j3' is not a cell"),
        (edited("[lineups.standard]", "[lineups.Standard]"), "lineups.Standard: a lineup name is lower-case"),
        (edited("e9 = [0, 4]\n", ""), "the nest must look the same turned by 180°"),
        (edited("a1 = [0, -4]", "a1 = [0, -5]"), "the nest must look the same turned by 180°"),
        ('name = "x"\ncells = 3\nsides = 1\nlineups = 1\n', "cells: expected a table, got an integer"),
    ],
)
def test_a_malformed_board_file_is_refused_naming_the_file_and_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(BoardFileError) as error:
        Nest.load(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_forward_directions_within_120_degrees_are_accepted(tmp_path):
    nest = Nest.load(write(tmp_path, edited('forward = ["NW", "NE"]', 'forward = ["W", "NW", "NE"]')))
    assert nest.forward(Side.RED) == (Direction.W, Direction.NW, Direction.NE)


def test_a_board_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + DEFAULT_TEXT.encode())
    assert Nest.load(path) == Nest.default()


def test_nests_are_equal_when_they_describe_the_same_board(tmp_path):
    copy = Nest.load(write(tmp_path, DEFAULT_TEXT))
    assert copy == Nest.default()
    assert copy is not Nest.default()
    assert Position.from_lineup(nest=copy) == Position.from_lineup()
    assert Nest.load(SMALL) != Nest.default()
    renamed = Nest.load(write(tmp_path, edited('name = "hexhex-5"', 'name = "mine"')))
    assert renamed != Nest.default()


def test_a_missing_or_unreadable_file(tmp_path):
    with pytest.raises(BoardFileError, match=r"nope\.toml: cannot read the board file: No such file"):
        Nest.load(tmp_path / "nope.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(BoardFileError, match="cannot read the board file"):
        Nest.load(binary)
    with pytest.raises(BoardFileError, match="cannot read the board file"):
        Nest.load(tmp_path)  # a directory
