"""The battle game's board files: the shipped one is the default field, another field
plays by the same rules without code, and every kind of bad file gets one line naming
the file, the key (or the TOML line) and what is wrong."""

from __future__ import annotations

import re

import pytest

from firmware_host.daemon.config import load_config
from firmware_host.errors import BoardFileError
from firmware_host.games import load_game
from firmware_host.games.assets import GameAssets
from firmware_host.games.base import Side, perft
from firmware_host.games.battle import load
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.position import Position
from tests.test_battle_perft import ref_perft, ref_read
from tests.test_battle_rules import CLASSIC_TEXT, moves

SMALL = """
name = "pond"
columns = 4
rows = 5
lakes = ["b3"]

[rules]
two_square_turns = 4

[sides.red]
setup_rows = [1, 2]

[sides.blue]
setup_rows = [4, 5]

[army.captain]
letter = "P"
strength = 6
moves = "step"
count = 2

[army.scout]
letter = "S"
strength = 2
moves = "run"
count = 2

[army.bomb]
letter = "B"
role = "bomb"
count = 1

[army.flag]
letter = "F"
role = "flag"
count = 1

[lineups.only]
red = ["PSSP", "BF.."]
blue = [".FB.", "PSSP"]
"""


def write(tmp_path, text: str) -> str:
    path = tmp_path / "field.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def edited(old: str, new: str) -> str:
    assert old in CLASSIC_TEXT, old
    return CLASSIC_TEXT.replace(old, new, 1)


def test_the_shipped_file_is_the_default_field(tmp_path):
    copy = Field.load(write(tmp_path, CLASSIC_TEXT))
    default = Field.default()
    assert copy.cells == default.cells and copy.lakes == default.lakes and copy.army == default.army
    assert copy.lineup("demo") == default.lineup("demo")
    assert perft(Position.from_lineup(copy, "demo", Side.RED), 3) == 8680
    assert len(default.cells) == 92 and default.army.size == 36 and default.two_square_turns == 3


def test_the_classic_army_of_40_ships_as_a_second_board_file():
    assert load_game("battle", "classic-40").board.name == "classic-40"
    game = load("classic-40")
    field, classic = game.field, Field.default()
    assert field.name == "classic-40" and GameAssets.of("battle").board_names() == ("classic", "classic-40")
    assert field.army.size == 40 and field.army.by_name("bomb").count == 6 and field.army.flag.count == 1
    others = [rank for rank in field.army if rank.name != "bomb"]
    assert others == [rank for rank in classic.army if rank.name != "bomb"]  # only the Bombs differ
    assert field.cells == classic.cells and field.two_square_turns == 3
    for side in Side:  # the army fills its four rows: no square stays empty
        assert len(field.setup_cells(side)) == 40 == len(field.lineup("demo").setups[side].cells)
    start = game.start("demo", Side.RED)
    state = ref_read(start.to_text())
    assert tuple(perft(start, depth) for depth in (1, 2, 3)) == tuple(ref_perft(state, d) for d in (1, 2, 3))
    assert perft(start, 2) == 94  # fewer first moves than the 36's: no gap to step into


def test_the_classic_army_of_40_is_chosen_by_its_name_in_the_config_or_the_command_line(tmp_path):
    assert load_config(None, game="battle", board="classic-40").game.board.name == "classic-40"
    config = tmp_path / "nestref.toml"
    config.write_text('[game]\nname = "battle"\nboard = "classic-40"\n', encoding="utf-8")
    for given, size in ((load_config(config), 40), (load_config(None, game="battle"), 36)):  # 36: the seed's
        setups = given.game.setups
        assert setups is not None and setups.setup_size(Side.RED) == size
    with pytest.raises(BoardFileError, match="classic-41: cannot read the board file"):
        load("classic-41")


def test_a_small_field_plays_by_the_same_rules_without_code(tmp_path):
    path = write(tmp_path, SMALL)
    assert load_game("battle", path).board.name == "pond"
    game = load(path)
    assert game.board.name == "pond" and len(game.board.cells) == 19 and game.lineups == ("only",)
    start = game.start("only", Side.RED)
    assert start.to_text() == "1fb1/pssp/1~2/PSSP/BF2 r - -"
    assert moves(start) == {"a2-a3", "c2-c3", "c2-c1", "d2-d3", "d2-d1"}  # b3 a lake, c4 too far to strike
    assert game.board.two_square_turns == 4
    assert "in 4 turns in a row" in game.for_page()["rules"][-1]


BAD_FILES = [
    # (what is changed, into what, the message after the file's name)
    ('name = "classic"', 'name = "Classic!"', "name: a field's name is lower-case letters, digits and dashes"),
    ('name = "classic"', "", "missing key 'name'"),
    ("columns = 10", "columns = 10\nsquares = 100", "unknown key 'squares'"),
    ("columns = 10", "columns = 27", "columns: 27 is out of range (from 2 to 26)"),
    ("rows = 10", 'rows = "ten"', "rows: expected a whole number, got a string"),
    ('lakes = ["c5",', 'lakes = ["k5",', "lakes: 'k5' is not a square of a 10 by 10 field"),
    ('lakes = ["c5",', 'lakes = ["d5",', "lakes: 'd5' is listed twice"),
    ("two_square_turns = 3", "two_square_turns = 1", "rules.two_square_turns: 1 is out of range (from 2 to 99)"),
    ("two_square_turns = 3", "two_square = 3", "rules: unknown key 'two_square'"),
    ("[sides.blue]\nsetup_rows = [7, 8, 9, 10]", "", "sides: missing key 'blue'"),
    ("setup_rows = [7, 8, 9, 10]", "setup_rows = [4, 8, 9, 10]", "sides: row 4 is a set-up row of both sides"),
    ("setup_rows = [7, 8, 9, 10]", "setup_rows = []", "sides.blue.setup_rows: a side needs at least one row"),
    ("setup_rows = [7, 8, 9, 10]", "setup_rows = [7, 8, 9, 11]", "sides.blue.setup_rows: 11 is out of range"),
    (
        "setup_rows = [7, 8, 9, 10]",
        "setup_rows = [8, 9, 10]",
        "sides.blue.setup_rows: 30 squares (lakes aside) cannot hold the army's 36 pieces",
    ),
    ("[army.miner]", "[army.Miner]", "army.Miner: a rank's name is lower-case letters"),
    ('letter = "G"', 'letter = "M"', "army.general.letter: 'M' is marshal's letter too"),
    ('letter = "G"', 'letter = "g"', "army.general.letter: a rank's letter is one capital letter"),
    ('letter = "G"', 'letter = "X"', "army.general.letter: a rank's letter is one capital letter, not X"),
    (
        'letter = "M"\nstrength = 10\nmoves = "step"\ncount = 1',
        'letter = "M"\nstrength = 10\nmoves = "step"\ncount = 0',
        "army.marshal.count: 0 is out of range (from 1 to 99)",
    ),
    ('letter = "M"\nstrength = 10\n', 'letter = "M"\n', "army.marshal: missing key 'strength'"),
    (
        'letter = "M"\nstrength = 10\nmoves = "step"',
        'letter = "M"\nstrength = 10\nmoves = "fly"',
        "army.marshal.moves: 'fly' is not one of: step, run",
    ),
    ('role = "bomb"', 'role = "mine"', "army.bomb.role: 'mine' is not one of: flag, bomb"),
    ('role = "bomb"', 'role = "bomb"\nstrength = 1', "army.bomb: unknown key 'strength'"),
    ('strikes_down = ["marshal"]', 'strikes_down = ["king"]', "army.spy.strikes_down: the army has no 'king'"),
    ('role = "flag"\ncount = 1', 'role = "flag"\ncount = 2', "army: an army has exactly one flag"),
    ('role = "flag"', 'role = "bomb"', "army: an army has exactly one flag"),
    ("[lineups.demo-2]", "[lineups.Demo2]", "lineups.Demo2: a set-up's name is lower-case letters"),
    ('    "SP..SS..PS",  # row 4\n', "", "lineups.demo.red: cannot read red's set-up: it has 3 rows, expected 4"),
    ('    "SP..SS..PS",  # row 4', '    "SP..SS..PM",  # row 4', "lineups.demo.red: red's set-up has 2 marshals"),
    ('    "SP..SS..PS",  # row 4', '    "SP..SS..Ps",  # row 4', "lineups.demo.red: cannot read red's set-up: j4"),
    ('    "SP..SS..PS",  # row 4', '    "SP..SS..PSS",  # row 4', "row 4 describes more than its 10 squares"),
    ("red = [\n", "red = 4\nreds = [\n", "lineups.demo: unknown key 'reds'"),
    ("[lineups.demo]", "[lineups.demo]\nred = 1", "not valid TOML"),  # a key given twice
]


@pytest.mark.parametrize(("old", "new", "message"), BAD_FILES)
def test_a_bad_board_file_is_named_with_its_key_and_what_is_wrong(tmp_path, old, new, message):
    path = write(tmp_path, edited(old, new))
    with pytest.raises(BoardFileError) as raised:
        load_game("battle", path)
    text = str(raised.value)
    assert text.startswith(f"{path}: ") and message in text
    assert "\n" not in text


def test_a_board_file_that_is_not_toml_is_named_with_its_line(tmp_path):
    path = write(tmp_path, edited("rows = 10", "rows = = 10"))
    line = CLASSIC_TEXT.splitlines().index("rows = 10") + 1
    with pytest.raises(BoardFileError, match=rf"^{re.escape(path)}: not valid TOML: .*line {line}\b"):
        Field.load(path)


def test_a_board_file_that_cannot_be_read_is_named(tmp_path):
    missing = str(tmp_path / "nowhere.toml")
    with pytest.raises(BoardFileError, match=rf"^{re.escape(missing)}: cannot read the board file: "):
        load_game("battle", missing)
    (tmp_path / "latin1.toml").write_bytes(CLASSIC_TEXT.encode() + b"\n# caf\xe9\n")
    with pytest.raises(BoardFileError, match="cannot read the board file"):
        Field.load(tmp_path / "latin1.toml")


def test_a_field_needs_a_set_up_and_an_army_that_moves(tmp_path):
    no_lineups = SMALL[: SMALL.index("[lineups.only]")] + "[lineups]\n"
    with pytest.raises(BoardFileError, match="lineups: the field needs at least one set-up"):
        Field.load(write(tmp_path, no_lineups))
    still = re.sub(r'strength = \d\nmoves = "(step|run)"\n', "", SMALL).replace(
        'letter = "P"', 'letter = "P"\nrole = "bomb"'
    )
    still = still.replace('letter = "S"', 'letter = "S"\nrole = "bomb"')
    with pytest.raises(BoardFileError, match="army: an army needs a rank that moves"):
        Field.load(write(tmp_path, still))
    flooded = SMALL.replace(
        'lakes = ["b3"]',
        'lakes = ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5",'
        ' "c1", "c2", "c3", "c4", "c5", "d1", "d2", "d3", "d4"]',
    )
    with pytest.raises(BoardFileError, match="lakes: the lakes leave fewer than two squares"):
        Field.load(write(tmp_path, flooded))
