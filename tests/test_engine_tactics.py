"""Positions with one winning move, of each way to win: every level above the
beginner finds it. Each position is checked here to be what it claims, with the rules
engine: the move wins (at once, or on every reply the opponent has), and no other
move of the position does."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from firmware_host.games.cuckoo.engine import LEVELS, Engine, Limits, level
from firmware_host.games.cuckoo.rules import Move, Outcome, Position, WinCondition


@dataclass(frozen=True)
class Tactic:
    nfn: str
    move: str
    condition: WinCondition
    plies: int  # 1: the move wins at once; 2: every reply of the opponent loses at once
    note: str


TACTICS = [
    # Capture the cuckoo (condition 2).
    Tactic(
        "1e3/1EeE2/7/e7/9/4CE1e/7/1E4/c4 r",
        "b2xa1",
        WinCondition.CUCKOO_CAPTURED,
        1,
        "b8xb9 takes an egg too, but lands on a blue homebase and loses",
    ),
    Tactic("5/2We2/3C3/8/eE1E5/7E/3c3/3e2/2E2 b", "d8xd7", WinCondition.CUCKOO_CAPTURED, 1, "d2xc1 loses"),
    Tactic(
        "5/6/ewc3E/E5w1/4W3w/8/4E1C/4e1/3E1 b",
        "i5xg3",
        WinCondition.CUCKOO_CAPTURED,
        1,
        "a warbler takes the cuckoo two cells away; e2xd1 loses",
    ),
    # The cuckoo enters a homebase (condition 3), by a step or a double step.
    Tactic("W4/2C3/5W1/6W1/w8/8/2w4/4c1/e4 b", "e2-d1", WinCondition.CUCKOO_TOOK_NEST, 1, "c3-c1 loses"),
    Tactic("5/2e3/1W2C2/e2E4/9/c7/7/6/1E3 r", "e7-c9", WinCondition.CUCKOO_TOOK_NEST, 1, "b7-b9 loses"),
    Tactic("5/3E2/5E1/6C1/4e4/W7/1e1e1c1/3e2/E3E b", "f3-d1", WinCondition.CUCKOO_TOOK_NEST, 1, "d2-c1 loses"),
    Tactic("5/6/1C3W1/3W1E2/9/6c1/3e3/2w3/E4 r", "b7-b9", WinCondition.CUCKOO_TOOK_NEST, 1, "f7-d9 loses"),
    # Force the opponent onto your homebase (condition 4): after the move, every legal
    # reply puts one of its pieces other than the cuckoo on one of your homebases.
    Tactic("2e2/4c1/2W4/8/2e2C3/8/3E2w/3e2/E2Ee r", "d3xd2", WinCondition.ENTERED_HOMEBASE, 2, "c7xc9 loses"),
    Tactic("1e3/4c1/CW5/7W/6e2/3E4/3eE2/1wW3/5 b", "d3xc2", WinCondition.ENTERED_HOMEBASE, 2, "other captures"),
    Tactic("E4/6/7/8/9/2c2e1E/5Ce/4e1/3E1 r", "f3xg3", WinCondition.ENTERED_HOMEBASE, 2, "other captures"),
    # Run out of pieces (condition 1): after the move, the opponent must capture the
    # last piece besides the cuckoo, and the side that lost it wins.
    Tactic("1c3/6/7/8/6w2/8/C2W3/6/5 b", "g5-e3", WinCondition.ONLY_CUCKOO_LEFT, 2, "the warbler offers itself"),
    Tactic("1ce2/5W/7/8/9/8/7/6/3C1 b", "c9-d8", WinCondition.ONLY_CUCKOO_LEFT, 2, "the egg steps into range"),
    Tactic("5/6/5e1/8/9/4W3/3C3/6/4c r", "e4-f6", WinCondition.ONLY_CUCKOO_LEFT, 2, "next to the egg"),
    Tactic("5/e5/7/8/9/8/4c1E/2C3/5 r", "c2-c4", WinCondition.ONLY_CUCKOO_LEFT, 2, "the cuckoo's neighbour"),
]
IDS = [f"{tactic.condition.name.lower()}-{tactic.move}" for tactic in TACTICS]


def outcome_after(position: Position, *moves: Move) -> Outcome | None:
    after = position.copy()
    for move in moves:
        after.push(move)
    return after.outcome()


def forces(position: Position, move: Move, tactic: Tactic) -> bool:
    """Whether ``move`` wins by the tactic's condition within its plies."""
    expected = Outcome(position.turn, tactic.condition)
    if tactic.plies == 1:
        return outcome_after(position, move) == expected
    after = position.copy()
    after.push(move)
    replies = after.legal_moves()
    return (
        after.outcome() is None and bool(replies) and all(outcome_after(after, reply) == expected for reply in replies)
    )


@pytest.mark.parametrize("tactic", TACTICS, ids=IDS)
def test_the_position_is_what_it_claims(tactic):
    position = Position.from_nfn(tactic.nfn)
    assert position.outcome() is None
    moves = position.legal_moves()
    winning = Move.from_text(tactic.move)
    assert winning in moves
    assert len(moves) >= 3, "a position with decoys"
    assert [move for move in moves if forces(position, move, tactic)] == [winning]
    # Nothing wins sooner: no move of a two-ply tactic wins at once.
    if tactic.plies == 2:
        for move in moves:
            outcome = outcome_after(position, move)
            assert outcome is None or outcome.winner is not position.turn


def test_some_decoys_lose_at_once():
    losing = 0
    for tactic in TACTICS:
        position = Position.from_nfn(tactic.nfn)
        losing += any(
            (outcome := outcome_after(position, move)) is not None and outcome.winner is position.turn.opponent
            for move in position.legal_moves()
        )
    assert losing >= 8


@pytest.mark.parametrize("number", [entry.number for entry in LEVELS[1:]])
@pytest.mark.parametrize("tactic", TACTICS, ids=IDS)
def test_every_level_above_the_beginner_finds_the_win(tactic, number):
    position = Position.from_nfn(tactic.nfn)
    for seed in (0, 1):
        result = Engine(seed=seed).choose(position, level(number))
        assert result.move == Move.from_text(tactic.move)
        assert result.is_win() and result.score_text() == "win in 1"


@pytest.mark.parametrize("tactic", TACTICS, ids=IDS)
def test_the_search_proves_the_win_at_its_depth(tactic):
    result = Engine().search(Position.from_nfn(tactic.nfn), Limits(depth=tactic.plies))
    assert str(result.move) == tactic.move
    assert result.plies_to_end == tactic.plies
