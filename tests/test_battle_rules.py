"""The battle game's rules (docs/rules-battle.md), one rule at a time: moves, lakes, the
Scout, the pieces that never move, strikes and their table, the two-square rule, a move
made once the piece is put down, set-ups, how a game ends. Positions are built from the
notation; the other test_battle_* modules import the helpers here."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from firmware_host.errors import NotationError
from firmware_host.games.assets import GameAssets
from firmware_host.games.base import Side
from firmware_host.games.battle.army import Movement, Rank, StrikeResult, resolve_strike
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import IllegalMoveError, Move, Rule, Run
from firmware_host.games.battle.notation import write_rows
from firmware_host.games.battle.outcome import DRAW, Ending, Outcome
from firmware_host.games.battle.pieces import Shown
from firmware_host.games.battle.position import Position, PositionError
from firmware_host.games.battle.setups import Setup, SetupError

FIELD = Field.default()
CLASSIC_TEXT = GameAssets.of("battle").board_text("classic")

ATTACKERS = "MGCJPLRNSY"
DEFENDERS = "MGCJPLRNSYBF"
STRIKE_TABLE = {  # the attacker's row, a defender a column: A attacker wins, D defender wins, = both go
    "M": "=AAAAAAAAADA",
    "G": "D=AAAAAAAADA",
    "C": "DD=AAAAAAADA",
    "J": "DDD=AAAAAADA",
    "P": "DDDD=AAAAADA",
    "L": "DDDDD=AAAADA",
    "R": "DDDDDD=AAADA",
    "N": "DDDDDDD=AAAA",  # the Miner removes a Bomb
    "S": "DDDDDDDD=ADA",
    "Y": "ADDDDDDDD=DA",  # the Spy removes the Marshal when it strikes
}
RESULTS = {"A": StrikeResult.ATTACKER_WINS, "D": StrikeResult.DEFENDER_WINS, "=": StrikeResult.BOTH_LOST}


def table_result(attacker: str, defender: str) -> StrikeResult:
    """The strike table's result for two rank letters (either case)."""
    return RESULTS[STRIKE_TABLE[attacker.upper()][DEFENDERS.index(defender.upper())]]


def field_with(old: str, new: str) -> Field:
    """The classic field with one edit to its board file."""
    assert old in CLASSIC_TEXT, old
    return Field.from_toml(CLASSIC_TEXT.replace(old, new, 1), source="edited.toml")


def position(pieces: Mapping[str, str], turn: str = "r", runs: str = "- -", field: Field = FIELD) -> Position:
    """A position from ``pieces`` (square to a letter and mark, blue's lower case), read
    through the notation; red's Flag goes on a1 and blue's on j10 unless ``pieces`` has
    them."""
    letters = dict(pieces)
    if "F" not in {letter[0] for letter in letters.values()}:
        letters.setdefault("a1", "F")
    if "f" not in {letter[0] for letter in letters.values()}:
        letters.setdefault("j10", "f")
    rows = write_rows(field, range(field.rows, 0, -1), letters)
    return Position.from_text(field, f"{rows} {turn} {runs}")


def moves(position: Position, origin: str | None = None) -> set[str]:
    return {move.to_text() for move in position.legal_moves() if origin is None or move.origin == origin}


def play(position: Position, *texts: str) -> Position:
    for text in texts:
        position.push(Move.from_text(text))
    return position


def refused(position: Position, text: str) -> Rule:
    """The rule ``text`` breaks in ``position`` (which must be one)."""
    illegal = position.check_move(Move.from_text(text))
    assert illegal is not None, text
    assert isinstance(illegal.rule, Rule), illegal.rule
    return illegal.rule


# -- moves ---------------------------------------------------------------------------


def test_a_piece_steps_one_square_forward_backward_or_sideways():
    start = position({"e3": "J"})
    assert moves(start, "e3") == {"e3-e4", "e3-e2", "e3-d3", "e3-f3"}
    assert refused(start, "e3-f4") is Rule.NOT_STRAIGHT
    assert refused(start, "e3-e5") is Rule.OUT_OF_REACH
    assert refused(start, "e3-e3") is Rule.NOT_A_MOVE


def test_the_edge_of_the_field_and_own_pieces_stop_a_piece():
    start = position({"j1": "G", "i1": "R"})
    assert moves(start, "j1") == {"j1-j2"}
    assert refused(start, "j1-i1") is Rule.OWN_PIECE
    assert refused(start, "j1-k1") is Rule.NOT_A_SQUARE


def test_no_piece_enters_a_lake_or_crosses_one():
    start = position({"c4": "S", "d7": "R"})
    east = {f"c4-{column}4" for column in "defghij"}
    assert moves(start, "c4") == {"c4-c3", "c4-c2", "c4-c1", "c4-b4", "c4-a4"} | east
    assert refused(start, "c4-c5") is Rule.LAKE
    assert refused(start, "c4-c7") is Rule.BLOCKED  # over the lake
    assert moves(start, "d7") == {"d7-d8", "d7-c7", "d7-e7"}
    assert refused(start, "d7-d6") is Rule.LAKE


def test_no_piece_moves_through_another():
    start = position({"e2": "S", "e4": "R", "e6": "s"})
    assert moves(start, "e2") == {"e2-e3", "e2-e1", "e2-d2", "e2-c2", "e2-b2", "e2-a2"} | {
        "e2-f2",
        "e2-g2",
        "e2-h2",
        "e2-i2",
        "e2-j2",
    }
    assert refused(start, "e2-e5") is Rule.BLOCKED


def test_the_scout_runs_any_number_of_empty_squares_in_a_straight_line():
    start = position({"a4": "S"})
    north_and_south = {f"a4-a{row}" for row in (2, 3, 5, 6, 7, 8, 9, 10)}  # a1 holds red's Flag
    assert moves(start, "a4") == north_and_south | {f"a4-{column}4" for column in "bcdefghij"}
    assert refused(start, "a4-b5") is Rule.NOT_STRAIGHT


def test_a_scout_that_runs_shows_its_rank_and_one_that_steps_does_not():
    stepped = play(position({"a4": "S", "j4": "S", "a9": "r"}), "a4-a5")
    assert stepped.shown("a5") is Shown.MOVED
    assert stepped.view().pieces()["a5"].rank is None
    ran = play(stepped, "a9-a8", "j4-j8")
    assert ran.shown("j8") is Shown.REVEALED
    assert ran.view().pieces()["j8"].rank == FIELD.army.by_name("scout")
    assert ran.view().pieces()["a8"].rank is None  # blue's piece stepped: still hidden


def test_the_scout_strikes_only_a_neighbour():
    start = position({"a4": "S", "a9": "r"})
    assert refused(start, "a4xa9") is Rule.STRIKE_NEIGHBOURS
    assert "a4xa9" not in moves(start)
    next_to = position({"a8": "S", "a9": "r"})
    assert "a8xa9" in moves(next_to)


def test_bombs_and_the_flag_never_move():
    start = position({"e2": "B", "e3": "F", "e4": "j", "h2": "R"})
    assert moves(start, "e2") == set() and moves(start, "e3") == set()
    assert refused(start, "e2-d2") is Rule.OUT_OF_REACH
    assert refused(start, "e3xe4") is Rule.OUT_OF_REACH
    with pytest.raises(PositionError, match="marked as moved, and it never moves"):
        position({"e2": "B+"})


def test_only_the_side_to_move_moves_and_only_its_own_pieces():
    start = position({"e4": "M", "e7": "m"})
    assert refused(start, "e7-e6") is Rule.NOT_YOUR_TURN
    assert refused(start, "a4-a5") is Rule.NO_PIECE
    before = start.to_text()
    with pytest.raises(IllegalMoveError, match="illegal move e7-e6: e7 holds a blue piece, and it is red's turn"):
        start.push(Move.from_text("e7-e6"))
    assert start.to_text() == before


def test_a_move_is_made_once_the_piece_is_put_down():
    after = play(position({"e4": "M", "e8": "m"}), "e4-e5")
    assert refused(after, "e5-e4") is Rule.PUT_DOWN
    illegal = after.check_move(Move.from_text("e5-e4"))
    assert illegal is not None and "the piece put down on e5 stays" in illegal.reason
    assert refused(after, "e5-e6") is Rule.NOT_YOUR_TURN  # any other move of red's is just not its turn
    read_back = Position.from_text(FIELD, after.to_text())  # no history: it cannot say more
    assert refused(read_back, "e5-e4") is Rule.NOT_YOUR_TURN


def test_strikes_and_moves_are_written_apart():
    start = position({"e4": "M", "e5": "m"})
    assert refused(start, "e4-e5") is Rule.NOTATION
    assert refused(start, "e4xe3") is Rule.NOTATION


# -- strikes ---------------------------------------------------------------------------


def test_the_strike_table_covers_every_pair_of_the_army():
    ranks = {rank.letter: rank for rank in FIELD.army}
    assert set(ATTACKERS) == {letter for letter, rank in ranks.items() if rank.can_move}
    assert set(DEFENDERS) == set(ranks)
    for attacker in ATTACKERS:
        for defender in DEFENDERS:
            assert resolve_strike(ranks[attacker], ranks[defender]) is table_result(attacker, defender), (
                attacker,
                defender,
            )
    with pytest.raises(ValueError, match="never strikes"):
        resolve_strike(ranks["B"], ranks["M"])


@pytest.mark.parametrize("attacker", ATTACKERS)
@pytest.mark.parametrize("defender", DEFENDERS)
def test_a_strike_on_the_field_ends_as_the_table_says(attacker, defender):
    start = position({"e4": attacker, "e5": defender.lower(), "h9": "r"})  # blue has a move after it
    assert "e4xe5" in moves(start)
    strike = start.strike(Move.from_text("e4xe5"))
    result = table_result(attacker, defender)
    assert strike.result is result
    before, text = start.view(), start.to_text()
    after = play(start.copy(), "e4xe5")
    assert after.piece_at("e4") is None
    left = after.piece_at("e5")
    if result is StrikeResult.ATTACKER_WINS:  # the winner moves in
        assert left is not None and left.side is Side.RED and left.rank.letter == attacker
    elif result is StrikeResult.DEFENDER_WINS:
        assert left is not None and left.side is Side.BLUE and left.rank.letter == defender
    else:
        assert left is None
    if left is not None:
        assert after.shown("e5") is Shown.REVEALED
        assert after.view().pieces()["e5"].rank == left.rank
    now = after.view()
    removed = {side: {rank.letter for rank in (now.removed(side) - before.removed(side)).elements()} for side in Side}
    assert removed[Side.RED] == (set() if result is StrikeResult.ATTACKER_WINS else {attacker})
    assert removed[Side.BLUE] == (set() if result is StrikeResult.DEFENDER_WINS else {defender})
    assert after.is_over() == (defender == "F")
    assert after.pop() == Move.from_text("e4xe5") and after.to_text() == text


def test_the_seeds_examples_of_strikes_are_announced_in_words():
    words = {
        ("C", "J"): "colonel strikes major: major removed",
        ("Y", "M"): "spy strikes marshal: marshal removed",
        ("M", "Y"): "marshal strikes spy: spy removed",
        ("G", "M"): "general strikes marshal: general removed",
        ("P", "P"): "captain strikes captain: both removed",
        ("N", "B"): "miner strikes bomb: bomb removed",
        ("S", "B"): "scout strikes bomb: scout removed",
        ("Y", "F"): "spy strikes the flag: flag captured",
    }
    for (attacker, defender), said in words.items():
        start = position({"e4": attacker, "e5": defender.lower()})
        assert start.strike(Move.from_text("e4xe5")).words() == said


def test_striking_is_never_compulsory_and_either_side_may_strike():
    start = position({"e4": "R", "e5": "j", "h2": "R"})
    assert moves(start, "e4") == {"e4xe5", "e4-e3", "e4-d4", "e4-f4"}
    after = play(start, "e4-d4", "e5-e4")  # blue moves next to red's piece: red may strike it, or not
    assert "d4xe4" in moves(after) and "d4-d3" in moves(after)
    after = play(after, "h2-h3")  # and blue, which moved into position, may strike next
    assert "e4xd4" in moves(after) and "e4-e5" in moves(after)


def test_a_strike_is_no_strike_between_the_same_side():
    start = position({"e4": "M", "e5": "R"})
    with pytest.raises(ValueError, match="is not a strike in this position"):
        start.strike(Move("e4", "e5", True))


def test_footprints_lift_the_striker_and_the_struck_piece():
    start = position({"e4": "M", "e5": "j", "f4": "R", "f5": "r", "a4": "S"})
    assert start.footprint(Move.from_text("e4xe5")).empties == {"e4"}
    assert start.footprint(Move.from_text("e4xe5")).proofs == {"e5"}
    assert start.footprint(Move.from_text("f4xf5")).empties == {"f4", "f5"}  # both go
    run = start.footprint(Move.from_text("a4-a8"))
    assert (run.empties, run.fills, run.passes) == ({"a4"}, {"a8"}, {"a5", "a6", "a7"})


# -- the two-square rule ------------------------------------------------------------


def test_no_piece_goes_back_and_forth_between_two_squares_in_three_turns():
    start = position({"e2": "R", "e9": "r", "h2": "J"})
    assert FIELD.two_square_turns == 3
    after = play(start, "e2-e3", "e9-e8", "e3-e2", "e8-e9")
    assert after.run(Side.RED) == Run("e3", "e2", 2) and after.to_text().endswith(" r e3-e2:2 e8-e9:2")
    assert "e2-e3" not in moves(after)
    assert refused(after, "e2-e3") is Rule.TWO_SQUARES
    assert {"e2-d2", "e2-f2", "e2-e1"} <= moves(after, "e2")  # elsewhere it may go
    again = play(after, "h2-h3", "e9-e10")  # another piece's move ends the run
    assert "e2-e3" in moves(again) and again.run(Side.RED) == Run("h2", "h3", 1)


def test_the_two_square_rule_counts_the_fields_turns():
    tournament = field_with("two_square_turns = 3", "two_square_turns = 5")
    start = position({"e2": "R", "e9": "r"}, field=tournament)
    after = play(start, "e2-e3", "e9-e8", "e3-e2", "e8-e9", "e2-e3", "e9-e8", "e3-e2", "e8-e9")
    assert refused(after, "e2-e3") is Rule.TWO_SQUARES
    assert after.run(Side.RED) == Run("e3", "e2", 4)
    after.pop(), after.pop()  # red's fourth move taken back: it may make it
    assert after.run(Side.RED) == Run("e2", "e3", 3) and "e3-e2" in moves(after)


def test_tournament_play_allows_five_moves_between_two_squares_and_refuses_the_sixth():
    # The ISF's game rules, 10.1: "not allowed to move a piece more than 5 times non-stop
    # between the same two squares": two_square_turns = 6 in a board file.
    tournament = field_with("two_square_turns = 3", "two_square_turns = 6")
    after = position({"e2": "R", "e9": "r"}, field=tournament)
    for number in range(1, 6):
        move = "e2-e3" if number % 2 else "e3-e2"
        assert move in moves(after), number  # the first five are allowed
        play(after, move, "e9-e8" if number % 2 else "e8-e9")
    assert after.run(Side.RED) == Run("e2", "e3", 5)
    assert refused(after, "e3-e2") is Rule.TWO_SQUARES  # the sixth is refused
    assert {"e3-e4", "e3-d3", "e3-f3"} <= moves(after, "e3")  # elsewhere it may go


def test_a_strike_ends_the_run_of_the_striker_and_of_the_piece_it_removes():
    start = position({"e2": "R", "f3": "j", "a9": "s"})
    after = play(start, "e2-e3", "a9-a8")
    assert after.run(Side.RED) == Run("e2", "e3", 1)
    struck = play(after.copy(), "e3xf3")
    assert struck.run(Side.RED) is None
    defended = play(position({"e3": "J", "e4": "r", "a9": "s"}, runs="- e5-e4:2", turn="r"), "e3xe4")
    assert defended.run(Side.BLUE) is None  # blue's piece that went back and forth is gone


def test_a_back_and_forth_that_does_not_fit_the_pieces_is_refused():
    with pytest.raises(PositionError, match="red's back and forth e1-e2:1 does not fit the pieces"):
        position({"e4": "R"}, runs="e1-e2:1 -")
    with pytest.raises(PositionError, match="e3-e4:3 does not fit"):
        position({"e4": "R"}, runs="e3-e4:3 -")


# -- how a game ends -----------------------------------------------------------------


def test_striking_the_flag_wins_and_ends_the_game():
    start = position({"e4": "S", "e5": "f", "b2": "B"})
    after = play(start, "e4xe5")
    assert after.outcome() == Outcome(Side.RED, Ending.FLAG_CAPTURED)
    assert after.legal_moves() == [] and after.is_over()
    assert refused(after, "b2-b3") is Rule.GAME_OVER


def test_a_side_that_cannot_move_loses_and_neither_moving_is_a_draw():
    stuck = position({"b1": "B", "e8": "m"})
    assert stuck.legal_moves() == []
    assert stuck.outcome() == Outcome(Side.BLUE, Ending.CANNOT_MOVE)
    assert str(stuck.outcome()) == "blue wins: red cannot move"
    both = position({"b1": "B", "e8": "b"})
    assert both.outcome() == DRAW and both.outcome() == Outcome(None, Ending.NEITHER_CAN_MOVE)
    hemmed = position({"a1": "F", "a2": "B", "b1": "J", "b2": "r", "c1": "s"})  # the Major's ways are taken
    assert moves(hemmed) == {"b1xb2", "b1xc1"}  # it can still strike
    with pytest.raises(ValueError, match="drawn only when neither side can move"):
        Outcome(None, Ending.FLAG_CAPTURED)


# -- set-ups and positions -----------------------------------------------------------


def test_a_set_up_fills_the_sides_own_rows_and_leaves_the_middle_empty():
    start = Position.from_lineup(FIELD, "demo", Side.RED)
    assert set(FIELD.setup_rows(Side.RED)) == {1, 2, 3, 4} and set(FIELD.setup_rows(Side.BLUE)) == {7, 8, 9, 10}
    for cell, piece in start.pieces().items():
        assert cell in FIELD.setup_cells(piece.side)
    assert all(FIELD.coordinates(cell)[1] not in (4, 5) for cell in start.pieces())
    assert len(start.pieces()) == 2 * FIELD.army.size == 72


def test_a_set_up_must_hold_the_army_exactly_on_its_own_rows():
    demo = FIELD.lineup("demo").setups[Side.RED]
    text = demo.to_text(FIELD)
    assert text == "SP..SS..PS/LJSCNNCSJL/BSMRNYGRSP/FBNRJNPLLR"
    assert Setup.from_text(FIELD, Side.RED, text) == demo
    with pytest.raises(SetupError, match="red's set-up has 2 marshals; the army has 1"):
        Setup.from_text(FIELD, Side.RED, text.replace("G", "M"))
    with pytest.raises(SetupError, match="has 0 flags; the army has 1"):
        Setup.from_text(FIELD, Side.RED, text.replace("F", "."))
    with pytest.raises(NotationError, match="it has 3 rows, expected 4"):
        Setup.from_text(FIELD, Side.RED, "SP..SS..PS/LJSCNNCSJL/BSMRNYGRSP")
    with pytest.raises(NotationError, match="a set-up writes a rank's capital letter alone"):
        Setup.from_text(FIELD, Side.RED, text.replace("F", "f"))
    with pytest.raises(NotationError, match="cannot read red's set-up: a1: unknown rank letter 'Q'"):
        Setup.from_text(FIELD, Side.RED, text.replace("F", "Q"))
    off_rows = Setup(Side.RED, {**demo.ranks, "a5": FIELD.army.by_name("scout")})
    with pytest.raises(SetupError, match=r"puts a piece on a5, which is not on red's rows \(1, 2, 3, 4\)"):
        off_rows.check(FIELD)
    on_lake = Setup(Side.RED, {"c5": FIELD.army.by_name("scout")})
    with pytest.raises(SetupError, match="puts a piece on c5, a lake"):
        on_lake.check(FIELD)
    stranger = Setup(Side.RED, {"a1": Rank("knight", "K", 1, strength=5, movement=Movement.STEP)})
    with pytest.raises(SetupError, match="has a knight, which is not in the army"):
        stranger.check(FIELD)
    with pytest.raises(SetupError, match="the blue set-up given is red's"):
        Position.from_setups(FIELD, demo, demo, Side.RED)


def test_a_position_holds_no_more_of_a_rank_than_the_army_has():
    with pytest.raises(PositionError, match="red has 2 marshals; the army has 1"):
        position({"e4": "M", "e3": "M"})
    with pytest.raises(PositionError, match="both flags are gone"):
        Position(FIELD, {}, Side.RED)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10/10 r - -", "it has 2 rows, expected 10"),
        ("F9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/f9 r -", "expected the rows, the side to move"),
        ("F9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/f9 w - -", "the side to move is 'w'"),
        ("F9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/X9 r - -", "a1 has 'X', a hidden piece"),
        ("F9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/Q9 r - -", "a1: unknown rank letter 'Q'"),
        ("F9/10/10/10/10/2~~2~~2/10/10/10/f9 r - -", "row 6: c6 is a lake: write ~ there"),
        ("F9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/f9 r a1-a2 -", "red's back and forth is 'a1-a2'"),
        ("F9/10/10/10/2~~2~~2/2~~2~~2/10/10/10/f10 r - -", "row 1 describes more than its 10 squares"),
    ],
)
def test_a_position_that_cannot_be_read_says_why(text, message):
    with pytest.raises(NotationError, match=message):
        Position.from_text(FIELD, text)


def test_moves_are_read_and_written_alike():
    assert Move.from_text("a4-a8") == Move("a4", "a8") and Move("e4", "e5", True).to_text() == "e4xe5"
    with pytest.raises(NotationError, match="expected <from>-<to> or <from>x<to>"):
        Move.from_text("a4a5")
    assert not Move("a4", "a5").is_pass and Move("a4", "a5", True).is_capture
