"""The referee over many games (hypothesis): illegal moves are refused with their rule
and put right by following the plan; whatever the sensors say, it never accepts an
illegal move. (Whole games by every kind of hand: test_referee_hands.py.)"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.cuckoo.rules import Move, Nest, Position
from firmware_host.referee.referee import CommandError
from firmware_host.referee.sensor_log import SensorEvent
from firmware_host.referee.signals import (
    Corrected,
    CorrectionNeeded,
    FixKind,
    GameStarted,
    MoveAccepted,
    MoveQuestion,
    MoveRefused,
    Signal,
    TakenBack,
)
from tests.hand_model import Hand
from tests.referee_helpers import accepted, feed, random_game, referee_for, settle

NEST = Nest.default()
LINEUPS = list(NEST.lineup_names)


SEEDS = st.integers(0, 2**32)  # a seed for the game and the hands: the inputs are large


def in_time(events: list[SensorEvent]) -> list[SensorEvent]:
    """A hand's events, which it may make out of order (two hands at once), in time."""
    return sorted(events, key=lambda event: event.time_ms)


def follow_plan(hand: Hand, referee, signals: list[Signal]) -> list[Signal]:
    """Do what the correction plans say, one step at a time, until the nest matches."""
    for _ in range(20):
        if any(isinstance(s, Corrected) for s in signals):
            return signals
        plan = [s for s in signals if isinstance(s, CorrectionNeeded)][-1].steps
        step = plan[0]
        start = len(hand.events)
        hand.wait(300, 1500)
        if step.kind is not FixKind.PLACE:
            assert step.source is not None
            hand.change(step.source, False)
            hand.wait(200, 800)
        if step.kind is not FixKind.REMOVE:
            assert step.target is not None
            hand.change(step.target, True)
        signals += feed(referee, in_time(hand.events[start:]))
        hand.wait(300, 400)
        signals += referee.tick(hand.time_ms)
    raise AssertionError("the plan never got the nest right")


def illegal_attempt(rng: random.Random, position: Position) -> Move | None:
    """A step onto an empty cell that the rules do not allow, if there is one."""
    pieces = position.pieces()
    own = [cell for cell, piece in pieces.items() if piece.side is position.turn]
    empty = [cell for cell in NEST.cells if cell not in pieces]
    for _ in range(50):
        move = Move(rng.choice(own), rng.choice(empty))
        if position.check_move(move) is not None:
            return move
    return None


@settings(max_examples=40)
@given(SEEDS, st.sampled_from(LINEUPS))
def test_illegal_moves_are_refused_put_right_by_the_plan_and_the_game_goes_on(seed, lineup):
    rng = random.Random(seed)
    start, moves = random_game(rng, lineup, plies=40)
    referee, signals = referee_for(start)
    hand = Hand(rng, push_flicker=1.0)  # every capture seen: this is about refusals
    board = start.copy()
    refusals = 0
    for move in moves:
        attempt = illegal_attempt(rng, board) if not move.is_pass and rng.random() < 0.3 else None
        if attempt is not None:
            assert attempt.origin is not None and attempt.target is not None
            begin = len(hand.events)
            hand.wait(2000, 3000)
            hand.change(attempt.origin, False)
            hand.wait(200, 900)
            hand.change(attempt.target, True)
            new = feed(referee, in_time(hand.events[begin:])) + referee.tick(hand.time_ms + 1500)
            hand.time_ms += 1500
            refused = [s for s in new if isinstance(s, MoveRefused)]
            assert refused, attempt
            assert refused[0].attempt == attempt
            assert refused[0].rule == board.check_move(attempt).rule  # type: ignore[union-attr]
            refusals += 1
            signals += follow_plan(hand, referee, new)
        begin = len(hand.events)
        hand.play(board, move)
        board.push(move)
        signals += feed(referee, in_time(hand.events[begin:]))
    signals += settle(referee)
    assert accepted(signals) == [str(move) for move in moves]
    assert len([s for s in signals if isinstance(s, MoveRefused)]) == refusals


@settings(max_examples=200)
@given(
    st.sampled_from(LINEUPS),
    st.lists(st.tuples(st.integers(0, 600), st.sampled_from(list(NEST.cells)), st.booleans()), max_size=300),
    st.lists(st.tuples(st.integers(0, 300), st.sampled_from(["take back", "new game", "answer"])), max_size=5),
)
def test_whatever_the_sensors_say_only_legal_moves_are_accepted(lineup, noise, commands):
    start = Position.from_lineup(lineup)
    referee, signals = referee_for(start)
    time = 0
    commands_at = dict(commands)
    for step, (pause, cell, occupied) in enumerate(noise):
        time += pause
        signals += referee.sense(cell, occupied, time)
        command = commands_at.get(step)
        try:
            if command == "take back":
                signals += referee.take_back(time)
            elif command == "new game":
                signals += referee.new_game(time)
            elif command == "answer":
                questions = [s for s in signals if isinstance(s, MoveQuestion)]
                if questions:
                    signals += referee.answer(questions[-1].options[0], time)
        except CommandError:
            pass  # a command that does not apply now is refused; that is fine
    signals += settle(referee)
    # Replay the record the referee announced: every move must be legal where it was made.
    board: Position | None = None
    for signal in signals:
        if isinstance(signal, GameStarted):
            board = Position.from_nfn(signal.public_view.text)  # Operation Cuckoo hides nothing
        elif isinstance(signal, MoveAccepted):
            assert board is not None
            board.push(Move.from_text(signal.move.to_text()))  # raises if illegal
            assert board.to_nfn() == signal.public_view.text
        elif isinstance(signal, TakenBack):
            assert board is not None
            assert board.pop() == signal.move
