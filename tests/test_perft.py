"""Perft (rules.md §7): pinned counts, checked against the independent reference."""

from __future__ import annotations

import pytest

from firmware_host.games.cuckoo.rules import DRAW, Position, divide, perft
from tests import reference_rules
from tests.helpers import setup

# Computed by this engine and, up to depth 4, by tests/reference_rules.py alike.
PERFT = {
    "standard": [1, 14, 196, 2968, 43912, 673562],
    "advanced-1": [1, 16, 226, 3212, 42566, 559792],
    "advanced-2": [1, 16, 241, 3382, 44188, 571113],
}


@pytest.mark.parametrize("lineup", PERFT)
def test_perft_from_each_lineup(lineup):
    position = Position.from_lineup(lineup)
    for depth, expected in enumerate(PERFT[lineup]):
        assert perft(position, depth) == expected, depth
    assert position == Position.from_lineup(lineup)
    assert position.move_stack == ()


def test_the_contracts_reference_move_counts():
    assert perft(Position.from_lineup("standard"), 1) == 14
    assert perft(Position.from_lineup("advanced-1"), 1) == 16
    assert perft(Position.from_lineup("advanced-2"), 1) == 16


@pytest.mark.parametrize("lineup", PERFT)
def test_the_reference_implementation_agrees(lineup):
    board, side = reference_rules.from_nfn(Position.from_lineup(lineup).to_nfn())
    assert [reference_rules.perft(board, side, depth) for depth in range(4)] == PERFT[lineup][:4]


def test_divide_splits_the_count_by_first_move():
    position = Position.from_lineup("standard")
    counts = divide(position, 3)
    assert len(counts) == 14
    assert sum(count for _, count in counts) == 2968
    assert dict((str(move), count) for move, count in counts)["c3-c4"] == perft(
        Position.from_nfn("ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b"), 2
    )
    with pytest.raises(ValueError, match="depth of at least 1"):
        divide(position, 0)


def test_a_pass_counts_as_one_move_and_a_finished_game_has_none():
    stuck = setup("Ea9 Ce9 ca1 ee5")  # red has nowhere forward to go; blue's egg has
    assert [str(move) for move in stuck.legal_moves()] == ["pass"]
    assert perft(stuck, 1) == 1
    assert perft(stuck, 2) == 2  # then e5-d4 or e5-e4
    drawn = setup("Ea9 Ce9 ca1 ee1")
    assert drawn.outcome() == DRAW
    assert perft(drawn, 0) == 1
    assert perft(drawn, 1) == 0
    won = setup("Ca1 Ea2 ea9")  # blue has no cuckoo: red has won
    assert won.outcome() is not None
    assert perft(won, 3) == 0
