"""The simulated table: pieces on cells, in the hand and in the box, and the switches
they close."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.cuckoo.rules import Nest, Position, Side
from sim.table import PUSH_OFF_GAP_S, Table, TableError

NEST = Nest.default()
LINEUP = Position.from_lineup().pieces()


class Switches:
    """What the reed switches feel: the closed ones, and every change in order."""

    def __init__(self) -> None:
        self.closed: set[str] = set()
        self.changes: list[str] = []

    def __call__(self, cell: str, closed: bool) -> None:
        (self.closed.add if closed else self.closed.discard)(cell)
        self.changes.append(f"{cell}{'+' if closed else '-'}")


def table_with_lineup() -> tuple[Table, Switches]:
    switches = Switches()
    table = Table(NEST, switches, LINEUP)
    switches.changes.clear()
    return table, switches


def test_lifting_and_putting_down_move_one_switch_each():
    table, switches = table_with_lineup()
    held = table.lift("c3")
    assert (held.piece.letter, "c3" in table.cells) == ("E", False)
    table.put("c4")
    assert switches.changes == ["c3-", "c4+"]
    assert table.cells["c4"].letter == "E" and not table.hand


def test_a_piece_chosen_from_the_hand():
    table, _ = table_with_lineup()
    egg = table.lift("c3")
    cuckoo = table.lift("c1")
    table.put("d4", egg.id)  # not the one lifted last
    assert table.cells["d4"].letter == "E" and [held.id for held in table.hand] == [cuckoo.id]


def test_a_capturer_lifted_before_its_prey_is_the_piece_put_down():
    # Blue takes on c5: its egg lifted first, then the red egg; the hand puts down blue's.
    table, switches = table_with_lineup()
    capturer = table.lift("c7")
    table.lift("c3")
    assert table.next_to_put(Side.BLUE) == capturer
    table.put("c5", side_to_move=Side.BLUE)
    assert table.cells["c5"].letter == "e" and [held.piece.letter for held in table.hand] == ["E"]
    assert switches.changes == ["c7-", "c3-", "c5+"]


def test_different_pieces_of_the_side_to_move_in_the_hand_are_the_players_choice():
    table, switches = table_with_lineup()
    table.lift("c3")
    cuckoo = table.lift("c1")
    table.lift("c7")
    assert table.next_to_put(Side.RED) is None
    with pytest.raises(TableError, match="click the one to put down"):
        table.put("d4", side_to_move=Side.RED)
    assert "d4" not in table.cells and len(table.hand) == 3 and "d4+" not in switches.changes
    table.put("d4", cuckoo.id, side_to_move=Side.RED)
    assert table.cells["d4"].letter == "C"


def test_with_no_game_on_alike_pieces_go_down_last_lifted_first():
    table, _ = table_with_lineup()
    first, second = table.lift("a3"), table.lift("b3")
    assert table.next_to_put(None) == second
    table.put("d4")
    assert table.next_to_put(None) == first
    table.lift("c1")
    assert table.next_to_put(None) is None  # an egg and a cuckoo: which one?


@given(st.lists(st.sampled_from(sorted(LINEUP)), min_size=1, max_size=8, unique=True), st.sampled_from(list(Side)))
def test_the_piece_put_down_unasked_is_of_the_side_to_move_whenever_the_hand_holds_one(cells, side):
    table, _ = table_with_lineup()
    for cell in cells:
        table.lift(cell)
    chosen = table.next_to_put(side)
    own = {held.piece for held in table.hand if held.piece.side is side}
    if own:
        assert (chosen is not None) == (len(own) == 1)
        assert chosen is None or chosen.piece.side is side
    else:
        assert (chosen is not None) == (len({held.piece for held in table.hand}) == 1)
    if chosen is not None:  # the one lifted last of its kind
        assert chosen == [held for held in table.hand if held.piece == chosen.piece][-1]


def test_a_slide_closes_each_cell_before_opening_the_one_behind():
    table, switches = table_with_lineup()
    steps = table.slide_steps(["c3", "c4", "c5"])
    assert switches.changes == []  # nothing happens before the steps are played
    for step in steps:
        step.act()
    assert switches.changes == ["c4+", "c3-", "c5+", "c4-"]
    assert table.cells["c5"].letter == "E"


def test_a_slide_onto_an_opponent_pushes_it_off_into_the_box():
    table, switches = table_with_lineup()
    table.lift("c7")
    table.put("c5")  # a blue egg on c5
    table.lift("c3")
    table.put("c4")  # a red egg next to it
    switches.changes.clear()
    steps = table.slide_steps(["c4", "c5"])
    assert steps[-1].pause_s == PUSH_OFF_GAP_S  # the captured piece's cell reads empty so long
    for step in steps:
        step.act()
    assert switches.changes == ["c4-", "c5-", "c5+"]
    assert table.cells["c5"].letter == "E" and [held.piece.letter for held in table.box] == ["e"]


@pytest.mark.parametrize(
    ("path", "error"),
    [
        (["c3"], "a slide needs at least two cells"),
        (["c5", "c6"], "c5 is empty: nothing to slide"),
        (["c3", "c5"], "c5 is not next to c3"),
        (["b2", "c3"], "c3 holds a piece of the same side"),
        (["z9", "c3"], "z9"),
    ],
)
def test_a_slide_the_table_cannot_make_changes_nothing(path, error):
    table, switches = table_with_lineup()
    with pytest.raises((TableError, ValueError), match=error):
        table.slide_steps(path)
    assert switches.changes == []


def test_acts_the_table_cannot_do():
    table, switches = table_with_lineup()
    with pytest.raises(TableError, match="c5 is empty"):
        table.lift("c5")
    with pytest.raises(TableError, match="the hand is empty"):
        table.put("c5")
    with pytest.raises(TableError, match="c3 holds a piece already"):
        table.put("c3")
    with pytest.raises(TableError, match="no piece 7 in the box"):
        table.take(7)
    assert switches.changes == []


def test_a_sensor_log_slide_is_shown_with_the_piece_that_made_it():
    table, _ = table_with_lineup()
    table.sense("c4", True)  # the next cell closes first...
    assert table.letters()["c4"] == "?"
    table.sense("c3", False)  # ...then the slider's own cell opens
    assert table.letters()["c4"] == "E" and "c3" not in table.cells and not table.hand


def test_set_up_clears_the_nest_then_places_the_lineup_piece_by_piece():
    table, switches = table_with_lineup()
    table.knock("a1")
    table.lift("c3")
    switches.changes.clear()
    steps = 0
    for _ in table.set_up(LINEUP):
        steps += 1
    assert steps == len(LINEUP)
    assert {cell: piece.letter for cell, piece in table.cells.items()} == {c: p.letter for c, p in LINEUP.items()}
    assert not table.hand and not table.box
    assert switches.closed == set(LINEUP)


ACTS = st.lists(
    st.tuples(st.sampled_from(["lift", "put", "knock", "take", "drop", "slide", "clear"]), st.integers(0, 10_000)),
    max_size=60,
)


@settings(max_examples=150)
@given(ACTS)
def test_no_act_loses_or_makes_a_piece_and_the_switches_match_the_cells(acts):
    table, switches = table_with_lineup()
    every = Counter(piece.letter for piece in LINEUP.values())
    for act, pick in acts:
        cells = sorted(table.cells, key=NEST.index)
        empty = [cell for cell in NEST.cells if cell not in table.cells]
        try:
            if act == "lift" and cells:
                table.lift(cells[pick % len(cells)])
            elif act == "put" and empty:
                table.put(empty[pick % len(empty)])
            elif act == "knock" and cells:
                table.knock(cells[pick % len(cells)])
            elif act == "take" and table.box:
                table.take(table.box[pick % len(table.box)].id)
            elif act == "drop" and table.hand:
                table.drop(table.hand[pick % len(table.hand)].id)
            elif act == "slide" and cells:
                origin = cells[pick % len(cells)]
                target = NEST.cells[pick % len(NEST.cells)]
                for step in table.slide_steps([origin, target]):
                    step.act()
            elif act == "clear":
                table.clear()
        except TableError:
            pass  # refused: and then nothing may have changed, which the checks below see
        pieces = [*table.cells.values(), *(h.piece for h in table.hand), *(h.piece for h in table.box)]
        assert Counter(piece.letter for piece in pieces) == every
        assert switches.closed == set(table.cells)
