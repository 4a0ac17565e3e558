"""Sets: best of three, draws replayed, the starting side alternating (rules.md §5)."""

from __future__ import annotations

import pytest

from firmware_host.errors import GameSetError
from firmware_host.games.cuckoo.rules import DRAW, GameSet, Outcome, Side, WinCondition

RED_WINS = Outcome(Side.RED, WinCondition.CUCKOO_CAPTURED)
BLUE_WINS = Outcome(Side.BLUE, WinCondition.CUCKOO_TOOK_NEST)


def play_set(*outcomes: Outcome, first: Side = Side.RED) -> GameSet:
    games = GameSet(first_starter=first)
    for outcome in outcomes:
        games = games.record(outcome)
    return games


def test_a_new_set_starts_with_red_by_default():
    games = GameSet()
    assert games.next_starter is Side.RED
    assert games.score == (0, 0)
    assert games.winner is None
    assert not games.is_over()


def test_the_first_to_win_two_games_wins_the_set():
    games = play_set(RED_WINS, BLUE_WINS)
    assert games.score == (1, 1)
    assert games.winner is None
    games = games.record(RED_WINS)
    assert games.score == (2, 1)
    assert games.winner is Side.RED
    assert games.is_over()
    assert play_set(BLUE_WINS, BLUE_WINS).winner is Side.BLUE


def test_a_drawn_game_is_replayed_and_does_not_count():
    games = play_set(DRAW, RED_WINS, DRAW, DRAW, RED_WINS)
    assert games.score == (2, 0)
    assert games.winner is Side.RED
    assert len(games.outcomes) == 5
    assert play_set(DRAW, DRAW, DRAW).score == (0, 0)


@pytest.mark.parametrize("first", [Side.RED, Side.BLUE])
def test_the_starting_side_alternates_every_game_drawn_ones_included(first):
    games = GameSet(first_starter=first)
    starters = []
    for outcome in (RED_WINS, DRAW, BLUE_WINS):
        starters.append(games.next_starter)
        games = games.record(outcome)
    starters.append(games.next_starter)
    assert starters == [first, first.opponent, first, first.opponent]


def test_no_game_is_recorded_after_the_set_is_decided():
    games = play_set(RED_WINS, RED_WINS)
    with pytest.raises(GameSetError, match="the set is over: red has won it"):
        games.record(BLUE_WINS)


def test_a_set_is_an_immutable_value():
    games = GameSet()
    after = games.record(RED_WINS)
    assert games.outcomes == ()
    assert after.outcomes == (RED_WINS,)
    assert after == GameSet(Side.RED, (RED_WINS,))
