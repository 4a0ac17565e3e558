"""The battle game's computer: what it believes of the other side's pieces, that it
chooses from its own side's view alone, its levels and its set-ups."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.base import Side
from firmware_host.games.battle.army import Role
from firmware_host.games.battle.belief import CLUB, UNIFORM, Belief
from firmware_host.games.battle.computer import BUDGETS, LEVELS, BattleComputer, choose_from_view
from firmware_host.games.battle.computer_setups import PLANS, computer_setup
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import Move
from firmware_host.games.battle.pieces import Piece, Shown
from firmware_host.games.battle.position import Position
from tests.test_battle_properties import random_start, twin_with_hidden_ranks_shuffled

FIELD = Field.default()
SEEDS = st.integers(0, 2**32 - 1)
FLAG = FIELD.army.flag
BOMB = FIELD.army.by_name("bomb")


def played(seed: int, plies: int) -> Position:
    """A game from random set-ups after up to ``plies`` random legal moves."""
    rng = random.Random(seed)
    position = random_start(rng)
    for _ in range(plies):
        if position.is_over():
            break
        position.push(rng.choice(position.legal_moves()))
    return position


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, plies=st.integers(0, 250), prior=st.sampled_from([UNIFORM, CLUB]))
def test_the_belief_sums_to_the_unseen_counts_and_never_gives_a_moved_piece_a_bomb(seed, plies, prior):
    position = played(seed, plies)
    for viewer in Side:
        view = position.view(viewer)
        belief = Belief.of(view, prior=prior, side=viewer.opponent)
        pieces = position.pieces()
        unknown = {
            cell for cell, piece in view.pieces().items() if piece.side is viewer.opponent and piece.rank is None
        }
        assert set(belief.unknown) == unknown  # every piece not shown, and only those
        assert belief.counts == {rank: n for rank, n in view.unknown_ranks(viewer.opponent).items() if n}
        for cell in unknown:
            chances = belief.chances(cell)
            assert sum(chances.values()) == pytest.approx(1.0)
            assert all(chance >= 0 for chance in chances.values())
            assert pieces[cell].rank in chances  # the truth is never ruled out
            if position.shown(cell) is Shown.MOVED:
                assert not any(not rank.can_move for rank in chances)  # never a Bomb or the Flag once moved
        for rank, count in belief.counts.items():
            assert belief.expected_count(rank) == pytest.approx(count, abs=1e-6)
        drawn = belief.draw(random.Random(seed))
        assert Counter(drawn.values()) == Counter(belief.counts) and set(drawn) == unknown
        assert all(rank.can_move for cell, rank in drawn.items() if position.shown(cell) is Shown.MOVED)


def test_the_belief_updates_exactly_on_a_reveal():
    position = Position.from_text(FIELD, "9f/8b1/4s5/10/2~~2~~2/2~~2~~2/4N5/10/10/F9 r - -")
    assert Belief.of(position.view(Side.RED), prior=UNIFORM).chances("e8") == {
        FLAG: pytest.approx(1 / 3),
        BOMB: pytest.approx(1 / 3),
        _scout(): pytest.approx(1 / 3),
    }
    position.push(Move.from_text("e4-e5"))
    position.push(Move.from_text("e8-e7"))  # it moved: neither the Bomb nor the Flag
    moved = Belief.of(position.view(Side.RED), prior=UNIFORM)
    assert moved.chances("e7") == {_scout(): pytest.approx(1.0)}
    assert moved.chances("i9") == {FLAG: pytest.approx(0.5), BOMB: pytest.approx(0.5)}
    position.push(Move.from_text("e5-e6"))
    position.push(Move.from_text("e7xe6"))  # a strike shows both ranks: nothing left to believe of it
    struck = Belief.of(position.view(Side.RED), prior=UNIFORM)
    assert "e6" not in struck.unknown and struck.counts == {FLAG: 1, BOMB: 1}


def _scout():
    return FIELD.army.by_name("scout")


def test_the_club_prior_puts_the_flag_on_the_back_row_more_often():
    view = Position.from_lineup(FIELD, "demo", Side.RED).view(Side.RED)
    club = Belief.of(view, prior=CLUB)
    uniform = Belief.of(view, prior=UNIFORM)
    assert club.chances("a10")[FLAG] > 3 * club.chances("a7")[FLAG]
    assert uniform.chances("a10")[FLAG] == pytest.approx(uniform.chances("a7")[FLAG])
    assert club.expected_count(FLAG) == pytest.approx(1.0) and club.expected_count(BOMB) == pytest.approx(2.0)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, plies=st.integers(0, 200))
def test_the_computer_never_uses_a_rank_it_was_not_shown(seed, plies):
    """Two positions that differ only in the other side's hidden ranks: the same choice
    for the same seed, at every level."""
    position = played(seed, plies)
    if position.is_over():
        return
    hidden = position.turn.opponent
    twin = twin_with_hidden_ranks_shuffled(position, hidden, random.Random(seed))
    for level in (3, 4, 5):
        here = BattleComputer(seed).choose(position, level, clock=lambda: 0.0, should_stop=lambda: False)
        there = BattleComputer(seed).choose(twin, level, clock=lambda: 0.0, should_stop=lambda: False)
        assert here == there and here.move in position.legal_moves()


def test_two_positions_differing_only_in_hidden_ranks_give_the_same_move():
    """By hand: the blue piece beside the red Marshal is a Bomb in one, a Scout in the
    other; everything else is alike."""
    texts = [
        "4b4f/4s5/4M+5/10/2~~2~~2/2~~2~~2/10/10/10/F8S r - -",
        "4s4f/4b5/4M+5/10/2~~2~~2/2~~2~~2/10/10/10/F8S r - -",
    ]
    bomb, scout = (Position.from_text(FIELD, text) for text in texts)
    assert bomb.view(Side.RED) == scout.view(Side.RED)
    for level in range(1, len(LEVELS) + 1):
        for seed in range(3):
            choices = [
                BattleComputer(seed).choose(p.view(Side.RED), level, clock=lambda: 0.0, should_stop=lambda: False)
                for p in (bomb, scout)
            ]
            assert choices[0] == choices[1]


def test_the_computer_takes_a_known_weaker_piece_and_shuns_a_known_stronger_one():
    weaker = Position.from_text(FIELD, "9f/9b/10/10/2~~p!1~~2/2~~C1~~2/10/10/10/FB7S r - -")
    stronger = Position.from_text(FIELD, "9f/9b/10/10/2~~g!1~~2/2~~2~~2/4P5/10/10/FB7S r - -")
    for level in BUDGETS:
        choice = choose_from_view(weaker.view(Side.RED), level, random.Random(level))
        assert choice.move == Move.from_text("e5xe6") and choice.facts["level"] == str(level)
        assert choose_from_view(stronger.view(Side.RED), level, random.Random(level)).move != Move.from_text("e4-e5")


def test_the_levels_are_from_random_to_the_strongest_each_with_a_larger_budget():
    assert [(level.number, level.name) for level in LEVELS] == [
        (1, "random"),
        (2, "cautious"),
        (3, "careful"),
        (4, "shrewd"),
        (5, "strongest"),
    ]
    samples = [BUDGETS[number].samples for number in (3, 4, 5)]
    assert samples == sorted(samples) and len(set(samples)) == 3


def test_the_search_stops_when_asked_and_still_gives_a_legal_move():
    position = Position.from_lineup(FIELD, "demo", Side.RED)
    asked = []

    def stop() -> bool:
        asked.append(True)
        return True

    choice = BattleComputer(0).choose(position.view(Side.RED), 5, clock=lambda: 0.0, should_stop=stop)
    assert asked and choice.move in position.legal_moves() and choice.facts["samples"] == "1"
    stuck = Position(
        FIELD, {"b1": Piece(Side.RED, BOMB), "a1": Piece(Side.RED, FLAG), "j10": Piece(Side.BLUE, FLAG)}, Side.RED
    )
    with pytest.raises(ValueError, match="red has no legal move"):
        BattleComputer(0).choose(stuck, 5, clock=lambda: 0.0, should_stop=lambda: False)


@pytest.mark.parametrize("side", list(Side))
def test_the_computers_set_ups_are_sensible(side):
    back = max(FIELD.setup_rows(side)) if FIELD.forward(side) < 0 else min(FIELD.setup_rows(side))
    front = min(FIELD.setup_rows(side)) if FIELD.forward(side) < 0 else max(FIELD.setup_rows(side))
    plans: dict[str, str] = {}
    bomb_by_flag = scouts_forward = spy_by_general = miners_back = 0
    texts = set()
    for seed in range(200):
        setup = computer_setup(FIELD, side, seed)
        setup.check(FIELD)
        texts.add(setup.to_text(FIELD))
        where = {rank.name: [cell for cell, placed in setup.ranks.items() if placed is rank] for rank in FIELD.army}
        flag = where["flag"][0]
        assert int(flag[1:]) == back  # never in front, where it is struck at once
        near = {ray[0] for ray in FIELD.rays(flag) if ray}
        bomb_by_flag += any(cell in near for cell in where["bomb"])
        general = where["general"][0]
        spy_by_general += where["spy"][0] in {ray[0] for ray in FIELD.rays(general) if ray}
        scouts_forward += sum(int(cell[1:]) == front for cell in where["scout"])
        miners_back += sum(abs(int(cell[1:]) - back) <= 1 for cell in where["miner"])
    for plan, _ in PLANS:
        plans[plan] = computer_setup(FIELD, side, 0, plan=plan).to_text(FIELD)
    assert len(texts) == 200  # varied: no two alike
    assert bomb_by_flag >= 150  # the fortress and the guarded plans; the decoy leaves the Flag bare
    assert spy_by_general >= 190
    assert scouts_forward / 200 >= 3  # of the 8, on the front row most (it has 6 squares)
    assert miners_back / 200 >= 3  # of the 5, on the back two rows most
    assert len(set(plans.values())) == len(PLANS)


def test_a_fortress_walls_the_flag_in_with_bombs():
    for seed in range(20):
        setup = computer_setup(FIELD, Side.RED, seed, plan="fortress")
        flag = next(cell for cell, rank in setup.ranks.items() if rank.role is Role.FLAG)
        around = [ray[0] for ray in FIELD.rays(flag) if ray]
        assert flag in ("a1", "j1") and all(setup.ranks[cell].role is Role.BOMB for cell in around)
