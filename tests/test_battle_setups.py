"""Set-ups made by guided placement (docs/rules-battle.md §2): one rank asked for at a
time on the placing player's own screen, the square that fills next holding it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.base import Side
from firmware_host.games.battle import load
from firmware_host.games.battle.position import Position
from firmware_host.games.battle.setups import GuidedPlacement, SetupError
from tests.test_battle_rules import FIELD

GAME = load(None)


def test_each_rank_is_asked_for_as_many_times_as_the_army_has_it_in_the_board_files_order():
    guide = GAME.guided_placement(Side.BLUE)
    asked = []
    cells = sorted(FIELD.setup_cells(Side.BLUE), key=FIELD.index)
    for cell in cells[: FIELD.army.size]:
        asked.append(guide.prompt())
        guide = guide.place(cell)
    assert asked[:3] == ["place your marshal (1 of 1)", "place your general (1 of 1)", "place your colonel (1 of 2)"]
    last = ["spy (1 of 1)", "bomb (1 of 2)", "bomb (2 of 2)", "flag (1 of 1)"]
    assert asked[-4:] == [f"place your {words}" for words in last]
    assert guide.is_complete() and guide.prompt() == "your army is placed"
    setup = guide.setup()
    assert setup.ranks["a7"].name == "marshal" and setup.ranks[cells[35]].name == "flag"
    assert len(setup.ranks) == 36


def test_a_square_off_the_rows_filled_twice_or_a_piece_too_many_is_refused():
    guide = GuidedPlacement.begin(FIELD, Side.RED).place("a1")
    with pytest.raises(SetupError, match=r"a5 is not on red's rows \(1, 2, 3, 4\): place the piece there"):
        guide.place("a5")
    with pytest.raises(SetupError, match="a1 already holds a piece of red's"):
        guide.place("a1")
    with pytest.raises(SetupError, match="red's set-up is not finished: place your general"):
        guide.setup()
    assert guide.undo().prompt() == "place your marshal (1 of 1)" and guide.undo().cells == ()
    with pytest.raises(SetupError, match="nothing of red's is placed yet"):
        guide.undo().undo()
    cells = sorted(FIELD.setup_cells(Side.RED), key=FIELD.index)
    full = GuidedPlacement.begin(FIELD, Side.RED)
    for cell in cells[:36]:
        full = full.place(cell)
    with pytest.raises(SetupError, match="red's army is placed: j4 is a piece too many"):
        full.place(cells[-1])


@settings(max_examples=50)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_order_of_squares_makes_the_set_up_it_says(seed):
    rng = random.Random(seed)
    setups = {}
    for side in Side:
        cells = rng.sample(sorted(FIELD.setup_cells(side), key=FIELD.index), FIELD.army.size)
        guide = GuidedPlacement.begin(FIELD, side)
        for cell in cells:
            rank = guide.next_rank
            guide = guide.place(cell)
            if rng.random() < 0.1:  # lifted again and put back: the same rank is asked for again
                guide = guide.undo()
                assert guide.next_rank == rank
                guide = guide.place(cell)
        setup = guide.setup()
        assert [setup.ranks[cell] for cell in cells] == list(guide.order)
        assert dict(guide.placed) == {cell: rank.name for cell, rank in setup.ranks.items()}
        setups[side] = setup
    start = Position.from_setups(FIELD, setups[Side.RED], setups[Side.BLUE], Side.RED)
    assert len(start.pieces()) == 72 and start.view().to_text().count("x") == 36
