"""The battle game at the referee: a strike announced once its gesture is seen (the
striker lifted, then the struck piece lifted or touched), accepted when the nest shows
it; two own pieces lifted together refused; illegal moves refused with their rule
(docs/referee.md, "Strikes"; docs/rules-battle.md §8)."""

from __future__ import annotations

from typing import TypeVar

import pytest

from firmware_host.games.base import Side
from firmware_host.games.battle import Move, Position
from firmware_host.games.battle.moves import Rule
from firmware_host.referee.referee import Mode
from firmware_host.referee.signals import (
    Corrected,
    CorrectionNeeded,
    GameOver,
    MoveAccepted,
    MoveRefused,
    Signal,
    StrikeAnnounced,
)
from tests.battle_helpers import BattleNest, position_of

T = TypeVar("T")


def of(kind: type[T], signals: list[Signal]) -> list[T]:
    return [signal for signal in signals if isinstance(signal, kind)]


STRIKES = [
    # attacker, defender, the words, the squares to take off, the winner's square
    ("colonel", "major", "colonel strikes major: major removed", ("e5",), "e5"),
    ("major", "colonel", "major strikes colonel: major removed", ("e4",), "e5"),
    ("captain", "captain", "captain strikes captain: both removed", ("e4", "e5"), None),
    ("spy", "marshal", "spy strikes marshal: marshal removed", ("e5",), "e5"),
    ("marshal", "spy", "marshal strikes spy: spy removed", ("e5",), "e5"),
    ("miner", "bomb", "miner strikes bomb: bomb removed", ("e5",), "e5"),
    ("captain", "bomb", "captain strikes bomb: captain removed", ("e4",), "e5"),
]


def strike_nest(attacker: str, defender: str) -> BattleNest:
    return BattleNest.playing(position_of({"e4": f"red {attacker}", "e5": f"blue {defender}", "b7": "blue sergeant"}))


@pytest.mark.parametrize(("attacker", "defender", "words", "removed", "winner_on"), STRIKES)
@pytest.mark.parametrize("gesture", ["lift", "touch"])
def test_a_strike_is_announced_when_its_gesture_is_seen_and_accepted_when_the_nest_shows_it(
    attacker, defender, words, removed, winner_on, gesture
):
    nest = strike_nest(attacker, defender)
    nest.lift("e4")
    assert not of(StrikeAnnounced, nest.signals), "a piece lifted is no strike yet"
    told = nest.lift("e5") if gesture == "lift" else nest.touch("e5")
    (announced,) = of(StrikeAnnounced, told)
    assert announced == StrikeAnnounced(Move("e4", "e5", True), Side.RED, words, removed, winner_on)
    # Both lifted and both lost, or touched and the striker lost: the nest shows it made.
    done = (gesture == "lift" and winner_on is None) or (gesture == "touch" and "e5" not in removed)
    assert bool(of(MoveAccepted, nest.signals)) == done, "announced before the nest shows it made"
    if gesture == "lift" and winner_on is not None:
        nest.put("e5")  # the winner stands on the struck square
    elif gesture == "touch" and "e5" in removed:
        nest.lift("e5")
        if winner_on is not None:
            nest.put("e5")
    nest.settle()
    (accepted,) = of(MoveAccepted, nest.signals)
    assert str(accepted.move) == "e4xe5" and nest.referee.mode is Mode.PLAYING
    assert nest.signals.index(announced) < nest.signals.index(accepted)
    position = nest.referee.position
    assert isinstance(position, Position) and position.turn is Side.BLUE
    left = position.pieces().get("e5")
    assert (left.rank.name if left is not None else None) == (
        None if winner_on is None else (defender if "e4" in removed else attacker)
    )
    assert "e4" not in position.pieces() and not of(MoveRefused, nest.signals)


def test_striking_the_flag_wins_the_game():
    nest = BattleNest.playing(position_of({"e4": "red scout", "e5": "blue flag", "j10": "blue bomb"}))
    nest.lift("e4")
    (announced,) = of(StrikeAnnounced, nest.lift("e5"))
    assert announced.words == "scout strikes the flag: flag captured" and announced.winner_on == "e5"
    nest.put("e5")
    nest.settle()
    (over,) = of(GameOver, nest.signals)
    assert over.outcome.winner is Side.RED and "captured blue's flag" in over.to_text()


def test_once_announced_the_strike_stands():
    nest = strike_nest("colonel", "major")
    nest.lift("e4")
    nest.lift("e5")
    nest.put("e5", "e4", gap=100)  # both put back: the colonel moves elsewhere instead
    nest.settle()
    assert not of(MoveAccepted, nest.signals) and not of(MoveRefused, nest.signals)
    nest.lift("e4")
    nest.put("f4")
    nest.settle()
    (refused,) = of(MoveRefused, nest.signals)
    assert refused.reason == "the strike e4xe5 is announced: it stands"
    assert not of(MoveAccepted, nest.signals)


@pytest.mark.parametrize("second", ["f4", "d4"])
def test_two_own_pieces_lifted_together_are_refused_and_asked_back(second):
    nest = BattleNest.playing(position_of({"e4": "red colonel", second: "red major", "e7": "blue major"}))
    nest.lift("e4")
    told = nest.lift(second)
    (refused,) = of(MoveRefused, told)
    first, other = sorted(["e4", second])
    assert refused.reason == (
        f"{first} and {other} were lifted together: the switches cannot tell one piece from the other;"
        " put each back on its own square"
    )
    (fix,) = of(CorrectionNeeded, told)
    assert [step.to_text() for step in fix.steps] == [f"put a red piece on {first}", f"put a red piece on {other}"]
    nest.put(second, "e4")  # perhaps swapped: nobody can tell, so nothing is read from it
    nest.settle()
    assert of(Corrected, nest.signals) and not of(MoveAccepted, nest.signals)
    nest.lift("e4")
    nest.put("e5")
    nest.settle()
    assert [str(signal.move) for signal in of(MoveAccepted, nest.signals)] == ["e4-e5"]


def test_a_move_made_with_a_second_own_piece_in_the_air_is_refused_too():
    nest = BattleNest.playing(position_of({"e4": "red colonel", "b2": "red major", "e7": "blue major"}))
    nest.lift("e4")
    nest.lift("b2")
    nest.put("e5")
    nest.put("b2")
    nest.settle()
    assert of(MoveRefused, nest.signals) and not of(MoveAccepted, nest.signals)


ILLEGAL = [
    # the pieces, the move made, the rule
    ({"e4": "red bomb"}, "e4-e5", Rule.OUT_OF_REACH),
    ({"a1": "red flag"}, "a1-a2", Rule.OUT_OF_REACH),
    ({"a4": "red scout", "a5": "red major"}, "a4-a6", Rule.BLOCKED),
    ({"e4": "red colonel"}, "e4-f5", Rule.NOT_STRAIGHT),
    ({"e4": "red colonel"}, "e4-e6", Rule.OUT_OF_REACH),
]


@pytest.mark.parametrize(("pieces", "made", "rule"), ILLEGAL)
def test_an_illegal_move_is_refused_with_its_rule_and_undone(pieces, made, rule):
    nest = BattleNest.playing(position_of(pieces))
    move = Move.from_text(made)
    nest.lift(move.origin)
    nest.put(move.target)
    nest.settle()
    (refused,) = of(MoveRefused, nest.signals)
    assert refused.rule is rule and str(refused.attempt) == made
    nest.lift(move.target)
    nest.put(move.origin)
    nest.settle()
    assert of(Corrected, nest.signals) and not of(MoveAccepted, nest.signals)
    assert nest.referee.mode is Mode.PLAYING


def test_the_two_square_rule_is_refused_on_the_nest():
    nest = BattleNest.playing(position_of({"e4": "red colonel", "e8": "blue colonel"}))
    for made in ("e4-e5", "e8-e7", "e5-e4", "e7-e8"):
        move = Move.from_text(made)
        nest.lift(move.origin)
        nest.put(move.target)
        nest.settle()
    assert len(of(MoveAccepted, nest.signals)) == 4
    nest.lift("e4")
    nest.put("e5")  # a third time between e4 and e5
    nest.settle()
    (refused,) = of(MoveRefused, nest.signals)
    assert refused.rule is Rule.TWO_SQUARES
    assert refused.reason == "the piece on e4 has moved between e4 and e5 2 times in a row"
