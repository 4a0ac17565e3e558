"""Set-ups made by guided placement (docs/rules-battle.md §2): one rank asked for at a
time on the placing player's own screen, the square that fills next holding it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.base import Side
from firmware_host.games.battle import load
from firmware_host.games.battle.army import Rank
from firmware_host.games.battle.position import Position
from firmware_host.games.battle.setups import GuidedPlacement, Setup, SetupCheck, SetupError
from tests.test_battle_rules import FIELD

GAME = load(None)


def test_each_rank_is_asked_for_as_many_times_as_the_army_has_it_in_an_order_drawn_at_random():
    orders = set()
    for seed in range(20):
        guide = GAME.guided_placement(Side.BLUE, seed=seed)
        asked = []
        cells = sorted(FIELD.setup_cells(Side.BLUE), key=FIELD.index)
        for cell in cells[: FIELD.army.size]:
            asked.append(guide.prompt())
            guide = guide.place(cell)
        assert guide.is_complete() and guide.prompt() == "your army is placed"
        assert Counter(guide.order) == {rank: rank.count for rank in FIELD.army}
        scouts = [prompt for prompt in asked if "scout" in prompt]
        assert scouts == [f"place your scout ({n} of 8)" for n in range(1, 9)]
        setup = guide.setup()
        assert [setup.ranks[cell] for cell in cells[:36]] == list(guide.order) and len(setup.ranks) == 36
        orders.add(guide.order)
    assert len(orders) == 20, "the order is drawn, not the board file's"
    assert GAME.guided_placement(Side.RED, seed=4).order == GAME.guided_placement(Side.RED, seed=4).order


def test_a_square_off_the_rows_filled_twice_or_a_piece_too_many_is_refused():
    guide = GuidedPlacement.begin(FIELD, Side.RED, seed=1).place("a1")
    first, second = guide.order[0].name, guide.order[1].name
    with pytest.raises(SetupError, match=r"a5 is not on red's rows \(1, 2, 3, 4\): place the piece there"):
        guide.place("a5")
    with pytest.raises(SetupError, match="a1 already holds a piece of red's"):
        guide.place("a1")
    with pytest.raises(SetupError, match=f"red's set-up is not finished: place your {second}"):
        guide.setup()
    assert guide.undo().prompt().startswith(f"place your {first} (1 of") and guide.undo().cells == ()
    with pytest.raises(SetupError, match="nothing of red's is placed yet"):
        guide.undo().undo()
    cells = sorted(FIELD.setup_cells(Side.RED), key=FIELD.index)
    full = GuidedPlacement.begin(FIELD, Side.RED, seed=2)
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
        guide = GuidedPlacement.begin(FIELD, side, seed=seed)
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


# -- the check after a set-up ------------------------------------------------------------


def random_setup(side: Side, rng: random.Random) -> Setup:
    cells = rng.sample(sorted(FIELD.setup_cells(side), key=FIELD.index), FIELD.army.size)
    ranks = [rank for rank in FIELD.army for _ in range(rank.count)]
    return Setup(side, dict(zip(cells, ranks, strict=True)))


def lift_as_believed(check: SetupCheck, belief: dict[str, Rank], rng: random.Random) -> SetupCheck:
    """A player lifting, for each piece asked for, one they believe is that piece (any
    other if none is left): raises SetupError at the first the set-up does not have."""
    while not check.is_complete():
        asked = check.next_rank
        left = [cell for cell in belief if cell not in check.checked]
        believed = [cell for cell in left if belief[cell] == asked]
        check = check.lift(rng.choice(believed or left))
    return check


def test_a_check_asks_for_every_piece_but_the_last_in_an_order_drawn_at_random():
    setup = FIELD.lineup("demo").setups[Side.RED]
    check = GAME.setup_check(setup, seed=5)
    assert check.total == 35 and check.prompt().startswith("lift your ")
    left_out = Counter(setup.ranks.values()) - Counter(check.order)
    assert sum(left_out.values()) == 1
    assert GAME.setup_check(setup, seed=6).order != check.order
    done = lift_as_believed(check, dict(setup.ranks), random.Random(0))
    assert done.is_complete() and done.prompt() == "your pieces are checked" and len(set(done.checked)) == 35
    asked = check.next_rank
    assert asked is not None
    wrong = next(cell for cell, rank in setup.ranks.items() if rank != asked)
    with pytest.raises(SetupError, match=f"{wrong} is not where your set-up has a {asked.name}"):
        check.lift(wrong)
    right = next(cell for cell, rank in setup.ranks.items() if rank == asked)
    with pytest.raises(SetupError, match="is not where"):
        check.lift(right).lift(right)  # a square lifted once is not lifted again as another piece


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_check_catches_any_two_pieces_of_different_ranks_put_down_swapped(seed):
    rng = random.Random(seed)
    setup = random_setup(Side.BLUE, rng)
    a, b = rng.sample(sorted(setup.ranks), 2)
    while setup.ranks[a] == setup.ranks[b]:
        a, b = rng.sample(sorted(setup.ranks), 2)
    belief = {**setup.ranks, a: setup.ranks[b], b: setup.ranks[a]}  # the pieces on the nest
    with pytest.raises(SetupError, match="is not where your set-up has a"):
        lift_as_believed(GAME.setup_check(setup, seed=seed), belief, rng)
    assert lift_as_believed(GAME.setup_check(setup, seed=seed), dict(setup.ranks), rng).is_complete()
