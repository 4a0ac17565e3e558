"""The referee on the computer's turns: only the computer's move is accepted, made by
hand exactly as the computer chose it."""

from __future__ import annotations

import pytest

from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.referee.referee import CommandError, Mode, Settings
from firmware_host.referee.signals import (
    ComputerMove,
    Corrected,
    CorrectionCause,
    CorrectionNeeded,
    MoveAccepted,
    MoveRefused,
    TakenBack,
    TurnStarted,
)
from tests.helpers import setup
from tests.referee_helpers import Table


def of(kind, signals):
    return [signal for signal in signals if isinstance(signal, kind)]


def computer_table(start: Position | None = None, sides=frozenset({Side.BLUE})) -> Table:
    return Table(start or Position.from_lineup(), settings=Settings(computers=frozenset(sides)))


def after_red_opens(table: Table) -> None:
    table.do("c3- c4+")
    table.settle()
    assert table.moves() == ["c3-c4"]


def test_the_computers_turn_is_announced_and_waits_for_its_move():
    table = computer_table()
    assert not table.referee.wants_computer_move  # red, a player, moves first
    after_red_opens(table)
    turn = of(TurnStarted, table.signals)[-1]
    assert (turn.side, turn.by_computer) == (Side.BLUE, True)
    assert turn.to_text() == "turn blue (computer)"
    assert table.referee.wants_computer_move
    shown = table.referee.play_computer_move(Move.from_text("c7-c6"), table.time)
    assert shown == [ComputerMove(Move("c7", "c6"), Side.BLUE, 1)]
    assert not table.referee.wants_computer_move
    assert table.referee.computer_move == Move("c7", "c6")


def after_the_computer_replies(table: Table) -> None:
    """Red opens; the computer chooses c7-c6 for blue; a hand makes it."""
    after_red_opens(table)
    table.referee.play_computer_move(Move.from_text("c7-c6"), table.time)
    table.do("c7- c6+")
    table.settle()


def test_the_computers_move_made_by_hand_is_accepted():
    table = computer_table()
    after_the_computer_replies(table)
    assert table.moves() == ["c3-c4", "c7-c6"]
    turn = of(TurnStarted, table.signals)[-1]
    assert (turn.side, turn.by_computer) == (Side.RED, False)
    assert table.referee.computer_move is None


def test_another_legal_move_is_refused_and_the_computers_move_shown_again():
    table = computer_table()
    after_red_opens(table)
    table.referee.play_computer_move(Move.from_text("c7-c6"), table.time)
    table.do("e7- e6+")  # legal, but not the computer's move
    table.settle()
    refused = of(MoveRefused, table.signals)[-1]
    assert (str(refused.attempt), refused.rule) == ("e7-e6", None)
    assert refused.reason == "the computer plays c7-c6"
    correction = of(CorrectionNeeded, table.signals)[-1]
    assert correction.cause is CorrectionCause.ILLEGAL_MOVE
    assert correction.steps[0].to_text() == "move the piece on e6 to e7"
    table.do("e6- e7+")
    signals = table.settle()
    assert [type(signal) for signal in signals] == [Corrected, TurnStarted, ComputerMove]
    table.do("c7- c6+")
    table.settle()
    assert table.moves() == ["c3-c4", "c7-c6"]


def test_a_move_made_while_the_computer_chooses_is_refused():
    table = computer_table()
    after_red_opens(table)
    table.do("c7- c6+")  # the very move the computer will choose, but too early
    table.settle()
    refused = of(MoveRefused, table.signals)[-1]
    assert refused.reason == "the computer is choosing its move: wait for it"
    assert table.referee.mode is Mode.CORRECTING
    # The computer's choice comes while the nest is put right; it is shown once it is.
    assert table.referee.play_computer_move(Move.from_text("c7-c6"), table.time) == [
        ComputerMove(Move("c7", "c6"), Side.BLUE, 1)
    ]
    table.do("c6- c7+")
    signals = table.settle()
    assert of(ComputerMove, signals) == [ComputerMove(Move("c7", "c6"), Side.BLUE, 1)]
    assert table.moves() == ["c3-c4"]


def test_the_computers_capture_is_made_by_hand():
    # Red's eggs on d4 and e4 may both capture blue's egg on e5; the computer plays red.
    start = setup("Ca1 Ed4 Ee4 ee5 ca9")
    table = computer_table(start, {Side.RED})
    assert table.referee.wants_computer_move
    table.referee.play_computer_move(Move.from_text("d4xe5"), table.time)
    table.do("e4- e5- e5+")  # the other egg captures: refused
    table.settle()
    refused = of(MoveRefused, table.signals)[-1]
    assert (str(refused.attempt), refused.reason) == ("e4xe5", "the computer plays d4xe5")
    correction = of(CorrectionNeeded, table.signals)[-1]
    assert [step.to_text() for step in correction.steps] == [
        "move the piece on e5 to e4",
        "put a blue egg on e5",
    ]
    table.do("e5- e4+ e5+")
    table.settle()
    table.do("d4- e5- e5+")
    table.settle()
    assert table.moves() == ["d4xe5"]


def test_the_computer_chooses_only_legal_moves_and_only_on_its_turn():
    table = computer_table()
    with pytest.raises(CommandError, match="no move to choose"):
        table.referee.play_computer_move(Move.from_text("c3-c4"), table.time)  # red is a player
    after_red_opens(table)
    with pytest.raises(CommandError, match="not a legal move"):
        table.referee.play_computer_move(Move.from_text("c7-c5"), table.time)
    table.referee.play_computer_move(Move.from_text("c7-c6"), table.time)
    with pytest.raises(CommandError, match="no move to choose"):
        table.referee.play_computer_move(Move.from_text("d7-d6"), table.time)


def test_take_back_against_the_computer_takes_back_the_players_move_too():
    table = computer_table()
    after_the_computer_replies(table)
    signals = table.referee.take_back(table.time)
    assert [str(signal.move) for signal in of(TakenBack, signals)] == ["c7-c6", "c3-c4"]
    correction = of(CorrectionNeeded, signals)[-1]
    assert {step.to_text() for step in correction.steps} == {
        "move the piece on c6 to c7",
        "move the piece on c4 to c3",
    }
    table.do("c6- c7+ c4- c3+")
    signals = table.settle()
    turn = of(TurnStarted, signals)[-1]
    assert (turn.side, turn.by_computer, turn.ply) == (Side.RED, False, 0)


def test_take_back_while_the_computer_chooses_takes_back_the_players_move():
    table = computer_table()
    after_red_opens(table)
    signals = table.referee.take_back(table.time)
    assert [str(signal.move) for signal in of(TakenBack, signals)] == ["c3-c4"]
    assert not table.referee.wants_computer_move


def test_between_two_computers_take_back_takes_back_one_move():
    table = computer_table(sides={Side.RED, Side.BLUE})
    table.referee.play_computer_move(Move.from_text("c3-c4"), table.time)
    table.do("c3- c4+")
    table.settle()
    signals = table.referee.take_back(table.time)
    assert [str(signal.move) for signal in of(TakenBack, signals)] == ["c3-c4"]
    assert table.referee.wants_computer_move  # red's turn again, the computer's


def test_handing_the_side_to_move_to_the_computer_announces_the_turn_again():
    table = Table(Position.from_lineup())
    signals = table.referee.set_computers({Side.RED}, table.time)
    assert [(signal.side, signal.by_computer) for signal in of(TurnStarted, signals)] == [(Side.RED, True)]
    assert table.referee.wants_computer_move
    table.referee.play_computer_move(Move.from_text("c3-c4"), table.time)
    signals = table.referee.set_computers(set(), table.time)  # a person takes over: any move again
    assert [(signal.side, signal.by_computer) for signal in of(TurnStarted, signals)] == [(Side.RED, False)]
    assert table.referee.computer_move is None
    table.do("b3- b4+")  # not the move the computer had chosen: accepted all the same
    table.settle()
    assert table.moves() == ["b3-b4"]
    assert table.referee.set_computers(set(), table.time) == []  # no change, nothing said


def test_a_computer_side_passes_like_any_other():
    table = computer_table(setup("Ea9 Ce9 ca1 ee5"), {Side.RED})  # red is stuck
    assert table.moves() == ["pass"]
    assert not table.referee.wants_computer_move
    turn = of(TurnStarted, table.signals)[-1]
    assert (turn.side, turn.by_computer) == (Side.BLUE, False)
    assert of(MoveAccepted, table.signals)[0].side is Side.RED
