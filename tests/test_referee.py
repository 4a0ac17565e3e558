"""The referee, scene by scene: what hands do on the nest, and what it says."""

from __future__ import annotations

import pytest

from firmware_host.games.cuckoo.rules import DRAW, GameSet, Move, Outcome, Position, Rule, Side, WinCondition
from firmware_host.referee.referee import CommandError, Mode, Settings
from firmware_host.referee.sensing import Timing
from firmware_host.referee.signals import (
    Corrected,
    CorrectionCause,
    CorrectionNeeded,
    FixKind,
    GameAbandoned,
    GameOver,
    GameStarted,
    MissedCapture,
    MoveAccepted,
    MoveQuestion,
    MoveRefused,
    QuestionClosed,
    SensorFault,
    SensorProblem,
    SensorRecovered,
    SetupNeeded,
    TakenBack,
    TurnStarted,
)
from tests.helpers import setup
from tests.referee_helpers import Table


def of(kind, signals):
    return [signal for signal in signals if isinstance(signal, kind)]


def texts(signals):
    return [signal.to_text() for signal in signals]


START = Position.from_lineup


# -- moves as hands make them -------------------------------------------------------------


def test_a_step_is_accepted_once_the_nest_is_still():
    table = Table(START())
    assert texts(table.signals) == ["game 1 starts: standard, red to move", "turn red"]
    table.do("c3- c4+")
    assert table.moves() == []  # not yet still
    assert texts(table.settle()) == ["move c3-c4", "turn blue"]
    accepted = of(MoveAccepted, table.signals)[0]
    assert (accepted.side, accepted.ply, accepted.public_view.text) == (
        Side.RED,
        1,
        "ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b",
    )


def test_a_piece_lifted_and_put_back_is_no_move():
    table = Table(START())
    table.do("c3- +2000 c3+")
    table.settle()
    assert table.moves() == []
    assert not of(MoveRefused, table.signals)


def test_a_piece_carried_around_and_put_down_elsewhere():
    table = Table(START())
    table.do("c3- +3000")
    table.do("c4+ c4- d4+", gap=100, pause=0)  # touched down on c4 for a moment, then d4
    table.settle()
    assert table.moves() == ["c3-d4"]


def test_a_slide_across_the_middle_cell_is_a_double_step():
    position = setup("Cc1 Wb1 Ea1 ca9 ee9")
    table = Table(position)
    table.do("b1- b2+ +200 b2- b3+", gap=20)  # rests on b2 on the way, as long as a slide does
    table.settle()
    assert table.moves() == ["b1-b3"]


def test_a_warbler_resting_on_the_middle_cell_is_not_committed_early():
    position = setup("Cc1 Wb1 Ea1 ca9 ee9")
    table = Table(position)
    table.do("b1- b2+", gap=20)
    table.wait(300)  # still for longer than settle_ms: b1-b2 could still become b1-b3
    assert table.moves() == []
    table.wait(200)  # resting longer than any slide: it stopped there
    assert table.moves() == ["b1-b2"]


def test_a_fast_reply_commits_the_move_before_it():
    position = setup("Cc1 Wb1 Ea1 ca9 ee9")
    table = Table(position)
    table.do("b1- b2+ ", gap=20)
    table.do("e9- e8+", pause=60, gap=200)  # blue starts 60 ms later
    table.settle()
    assert table.moves() == ["b1-b2", "e9-e8"]


def test_a_slide_whose_target_closes_first():
    table = Table(START())
    table.do("c4+ c3-", gap=20)
    table.settle()
    assert table.moves() == ["c3-c4"]


@pytest.mark.parametrize(
    ("hands", "name"),
    [
        ("e5- +500 f5- +500 f5+", "capturer first"),
        ("f5- +500 e5- +500 f5+", "captured piece first"),
        ("e5- +500 f5- +5 f5+", "captured piece pushed off, a 5 ms flicker"),
    ],
)
def test_a_capture_in_any_order(hands, name):
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    table.do(hands, gap=0)
    table.settle()
    assert table.moves() == ["e5xf5"], name


def test_a_capturer_lifted_and_held_in_the_air_is_not_a_capture():
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    table.do("e5-")
    table.wait(10_000)
    assert table.moves() == []
    assert not of(MoveRefused, table.signals)
    table.do("f5- +5 f5+", gap=0)  # now the capture, pushing the egg off
    table.settle()
    assert table.moves() == ["e5xf5"]


def test_a_touch_on_the_target_before_the_capturer_left_proves_nothing():
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    table.do("f5- f5+")  # nudged and put back
    table.do("e5-", pause=2000)  # then lifted and held
    table.wait(5000)
    assert table.moves() == []


def test_when_two_captures_look_alike_the_player_is_asked():
    # The warbler could take d6 or e6 (both neighbours); both cells flickered.
    table = Table(setup("Ca1 We5 ed6 ee6 ee9 ca9"))
    table.do("e5- +300 d6- +5 d6+ e6- +5 e6+", gap=0)
    signals = table.settle()
    questions = of(MoveQuestion, signals)
    assert [set(map(str, q.options)) for q in questions] == [{"e5xd6", "e5xe6"}]
    assert table.moves() == []
    with pytest.raises(CommandError):
        table.referee.answer(Move.from_text("e5xf5"), table.time)
    table.signals += table.referee.answer(Move.from_text("e5xe6"), table.time)
    assert table.moves() == ["e5xe6"]


def test_a_compulsory_capture_is_announced_at_the_start_of_the_turn():
    table = Table(setup("Ca1 Ec3 Wb4 ed4 ee9 ca9"))
    turn = of(TurnStarted, table.signals)[0]
    assert turn.side is Side.RED
    assert set(map(str, turn.captures)) == {"c3xd4", "b4xd4"}
    assert texts([turn])[0].startswith("turn red: capture compulsory: ")


def test_a_side_without_a_move_passes_at_once():
    table = Table(setup("Ca1 Ea2 cf6 eh4", "b"))  # blue steps f6-e5 or f6-f5...
    assert table.moves() == []
    table = Table(setup("Ea9 Ce9 ca1 ee5"))  # red is stuck: it passes for itself
    assert table.moves() == ["pass"]
    assert of(TurnStarted, table.signals)[-1].side is Side.BLUE
    table.do("e5- e4+")
    table.settle()
    assert table.moves() == ["pass", "e5-e4", "pass"]


# -- illegal moves and putting the nest right -----------------------------------------------


@pytest.mark.parametrize(
    ("pieces", "hands", "attempt", "rule", "fix"),
    [
        ("Ca1 Ee5 ee9 ca9", "e5- f5+", "e5-f5", Rule.NOT_FORWARD, "move the piece on f5 to e5"),
        ("Ca1 Ee5 ee9 ca9", "e5- e7+", "e5-e7", Rule.TOO_FAR, "move the piece on e7 to e5"),
        ("Ca1 We5 Ed6 ee9 ca9", "e5- c7+", "e5-c7", Rule.BLOCKED, "move the piece on c7 to e5"),
        ("Ca1 We5 eg5 ee9 ca9", "e5- e6+", "e5-e6", Rule.CAPTURE_COMPULSORY, "move the piece on e6 to e5"),
        ("Ca1 Ee3 ee5 ca9", "e5- e4+", "e5-e4", Rule.NOT_YOUR_TURN, "move the piece on e4 to e5"),
        ("Ca1 Ee3 ee5 ca9", "e3- e5- e5+", "e3xe5", Rule.TOO_FAR, "move the piece on e5 to e3"),
    ],
)
def test_an_illegal_move_is_refused_with_its_rule_and_undone_step_by_step(pieces, hands, attempt, rule, fix):
    table = Table(setup(pieces))
    table.do(hands)
    table.settle()
    refused = of(MoveRefused, table.signals)
    assert len(refused) == 1
    assert (str(refused[0].attempt), refused[0].rule) == (attempt, rule)
    correction = of(CorrectionNeeded, table.signals)[0]
    assert correction.cause is CorrectionCause.ILLEGAL_MOVE
    assert correction.steps[0].to_text() == fix
    assert table.referee.mode is Mode.CORRECTING
    # Undo it as asked; the game goes on.
    for step in correction.steps:
        if step.kind is FixKind.MOVE:
            table.do(f"{step.source}- {step.target}+")
        else:
            table.do(f"{step.target}+")
    table.settle()
    assert of(Corrected, table.signals)
    assert table.referee.mode is Mode.PLAYING
    assert table.moves() == []
    assert table.nfn() == setup(pieces).to_nfn()


def test_the_plan_is_made_anew_after_every_change():
    table = Table(setup("Ca1 Ee5 ee9 ca9"))
    table.do("e5- f5+")
    table.settle()
    table.do("f5-")  # the egg is in the hand now
    table.settle()
    plans = [signal.steps for signal in of(CorrectionNeeded, table.signals)]
    assert [step.to_text() for step in plans[-1]] == ["put a red egg on e5"]
    table.do("g5+")  # put down on the wrong cell again
    table.settle()
    assert [step.to_text() for step in of(CorrectionNeeded, table.signals)[-1].steps] == ["move the piece on g5 to e5"]
    assert table.referee.mode is Mode.CORRECTING
    table.do("g5- e5+")
    table.settle()
    assert of(Corrected, table.signals)


def test_strict_refereeing_waits_for_the_nest_to_match_before_a_legal_move():
    table = Table(setup("Ca1 Ee5 ee9 ca9"))
    table.do("e5- f5+")
    table.settle()
    table.do("f5- e6+")  # straight on to a legal cell, without putting it back first
    table.settle()
    assert table.moves() == []
    table.do("e6- e5+")
    table.settle()
    table.do("e5- e6+")
    table.settle()
    assert table.moves() == ["e5-e6"]


def test_a_knocked_over_piece_is_put_back_and_nothing_is_refused():
    table = Table(START())
    table.do("a7-")  # blue's egg knocked off while red is to move: no move was made
    table.wait(Timing().hold_ms - 400)
    assert not of(CorrectionNeeded, table.signals)  # it may be in a hand, being put back
    table.settle()
    assert not of(MoveRefused, table.signals)
    assert [step.to_text() for step in of(CorrectionNeeded, table.signals)[0].steps] == ["put a blue egg on a7"]


def test_an_extra_piece_is_taken_off():
    table = Table(START())
    table.do("e5+")
    table.settle()
    correction = of(CorrectionNeeded, table.signals)[0]
    assert correction.cause is CorrectionCause.DISTURBED
    assert [step.to_text() for step in correction.steps] == ["take the piece off e5"]


def test_two_pieces_moved_at_once():
    table = Table(START())
    table.do("c3- c4+ e3- e4+", gap=50)
    table.settle()
    assert table.moves() == []
    refused = of(MoveRefused, table.signals)[0]
    assert refused.attempt is None
    assert "one move at a time" in refused.reason


def test_lenient_refereeing_warns_about_a_missed_capture():
    position = setup("Ca1 We5 eg5 ee9 ca9")
    strict = Table(position)
    strict.do("e5- e6+")
    strict.settle()
    assert strict.moves() == []
    lenient = Table(position, settings=Settings(lenient=True))
    lenient.do("e5- e6+")
    lenient.settle()
    assert lenient.moves() == ["e5-e6"]
    missed = of(MissedCapture, lenient.signals)[0]
    assert [str(m) for m in missed.captures] == ["e5xg5"]
    lenient.do("e6- d5+")  # a backward move is still refused
    lenient.settle()
    assert of(MoveRefused, lenient.signals)


# -- the end of a game, sets, set-up ----------------------------------------------------------


def test_a_win_the_set_score_and_the_next_games_setup():
    table = Table(setup("Ca1 Ee5 cf5 ea9"))
    table.do("e5- f5- f5+", gap=200)
    table.settle()
    over = of(GameOver, table.signals)[0]
    assert over.outcome == Outcome(Side.RED, WinCondition.CUCKOO_CAPTURED)
    assert (over.score, over.set_winner) == ((1, 0), None)
    setup_signal = of(SetupNeeded, table.signals)[-1]
    assert (setup_signal.lineup, setup_signal.starter) == ("standard", Side.BLUE)
    lineup = set(Position.from_lineup().occupied())
    assert set(setup_signal.fill) == lineup - {"a1", "f5", "a9"}
    assert set(setup_signal.empty) == {"f5"} - lineup
    assert table.referee.mode is Mode.SETUP
    assert table.referee.outcome == over.outcome


def test_the_next_game_starts_when_the_nest_shows_the_lineup():
    table = Table(setup("Ca1 Ee5 cf5 ea9"))
    table.do("e5- f5- f5+", gap=200)
    table.settle()
    setup_signal = of(SetupNeeded, table.signals)[-1]
    table.do(
        " ".join(f"{cell}-" for cell in setup_signal.empty) + " " + " ".join(f"{c}+" for c in setup_signal.fill), gap=40
    )
    table.settle()
    started = of(GameStarted, table.signals)[-1]
    assert (started.number, started.starter) == (2, Side.BLUE)
    assert of(TurnStarted, table.signals)[-1].side is Side.BLUE
    assert table.referee.mode is Mode.PLAYING


def test_two_wins_take_the_set_and_draws_do_not_count():
    games = GameSet(Side.RED, (Outcome(Side.RED, WinCondition.CUCKOO_TOOK_NEST), DRAW))
    table = Table(setup("Ca1 Ee5 cf5 ea9"))
    table.signals += table.referee.begin_game(setup("Ca1 Ee5 cf5 ea9"), now=0, games=games, number=3)
    table.do("e5- f5- f5+", gap=200)
    table.settle()
    over = of(GameOver, table.signals)[0]
    assert (over.score, over.set_winner) == ((2, 0), Side.RED)
    assert texts([over]) == ["game over: red wins: blue's cuckoo was captured (condition 2); set 2-0, red wins the set"]
    assert of(SetupNeeded, table.signals)[-1].starter is Side.RED  # a new set: red starts


def test_resigning_and_starting_a_new_game():
    table = Table(START())
    table.signals += table.referee.resign(Side.BLUE, table.time)
    assert of(GameOver, table.signals)[0].outcome == Outcome(Side.RED, None)
    with pytest.raises(CommandError):
        table.referee.resign(Side.BLUE, table.time)
    table.settle()  # the nest shows the lineup already: game 2 starts, blue first
    assert of(GameStarted, table.signals)[-1].number == 2
    table.signals += table.referee.new_game(table.time)
    assert of(GameAbandoned, table.signals)[-1].number == 2
    table.settle()
    assert of(GameStarted, table.signals)[-1].number == 2  # played again: the abandoned one does not count


# -- taking back ------------------------------------------------------------------------------


def test_taking_back_a_capture_puts_the_captured_piece_back():
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    table.do("e5- f5- f5+", gap=200)
    table.settle()
    assert table.moves() == ["e5xf5"]
    table.signals += table.referee.take_back(table.time)
    assert [str(s.move) for s in of(TakenBack, table.signals)] == ["e5xf5"]
    steps = of(CorrectionNeeded, table.signals)[-1].steps
    assert of(CorrectionNeeded, table.signals)[-1].cause is CorrectionCause.TAKE_BACK
    assert [step.to_text() for step in steps] == ["move the piece on f5 to e5", "put a blue egg on f5"]
    table.do("f5- e5+ f5+")
    table.settle()
    assert of(Corrected, table.signals)
    assert of(TurnStarted, table.signals)[-1].side is Side.RED
    assert table.nfn() == setup("Ca1 Ee5 ef5 ee9 ca9").to_nfn()


def test_taking_back_the_winning_move_reopens_the_game():
    table = Table(setup("Ca1 Ee5 cf5 ea9"))
    table.do("e5- f5- f5+", gap=200)
    table.wait(400)
    assert of(GameOver, table.signals)
    table.signals += table.referee.take_back(table.time)
    assert table.referee.games.score == (0, 0)
    table.do("f5- e5+ f5+")
    table.settle()
    assert table.referee.mode is Mode.PLAYING
    assert table.referee.number == 1


def test_nothing_to_take_back():
    table = Table(START())
    with pytest.raises(CommandError, match="no move to take back"):
        table.referee.take_back(table.time)


# -- faulty sensors ---------------------------------------------------------------------------


def test_a_flickering_cell_is_reported_and_the_game_goes_on_around_it():
    table = Table(START())
    table.do(" ".join(["h5+", "h5-"] * 25), gap=10)  # a loose wire on h5
    faults = of(SensorFault, table.signals)
    assert [(f.cell, f.problem) for f in faults] == [("h5", SensorProblem.FLICKERING)]
    table.do("c3- c4+")
    table.settle()
    assert table.moves() == ["c3-c4"]
    assert not of(MoveRefused, table.signals)
    assert of(SensorRecovered, table.signals)  # quiet for recover_ms: used again


def test_a_stuck_cell_is_reported_after_a_resume_and_the_game_goes_on():
    position = Position.from_lineup()
    occupied = set(position.occupied()) | {"e5"}  # e5's switch is stuck closed
    from firmware_host.games.cuckoo import CuckooGame
    from firmware_host.referee.referee import Referee

    referee = Referee(CuckooGame(position.nest), settings=Settings(), lineup="standard", occupied=occupied, now=0)
    signals = referee.resume_game(position, games=referee.games, number=1, starter=Side.RED, now=0)
    assert of(CorrectionNeeded, signals)[0].cause is CorrectionCause.RESUMED
    assert [s.to_text() for s in of(CorrectionNeeded, signals)[0].steps] == ["take the piece off e5"]
    assert referee.next_deadline() is None  # nobody has tried to fix it yet
    signals = referee.sense("a3", False, 2000) + referee.sense("a3", True, 3000)  # the players try
    signals += referee.tick(20_000)
    assert [(f.cell, f.problem) for f in of(SensorFault, signals)] == [("e5", SensorProblem.STUCK)]
    assert of(Corrected, signals)
    assert referee.mode is Mode.PLAYING


def test_timing_is_checked():
    with pytest.raises(ValueError, match=r"timing\.settle_ms"):
        Timing(settle_ms=-1)
    with pytest.raises(ValueError, match="extend_ms must be at least"):
        Timing(settle_ms=500, extend_ms=100)


# -- hands that fooled an earlier version (found in review) ------------------------------------


def at(table: Table, events: list[tuple[int, str]]):
    """Readings at given times: ``(1000, "c3-")``."""
    for time, token in events:
        table.time = time
        table.signals += table.referee.sense(token[:-1], token[-1] == "+", time)


def test_a_piece_rocking_as_it_is_put_down_is_no_evidence_of_a_capture():
    table = Table(setup("Ca1 Ec3 ed5 ca9 ee9"))
    # Red steps c3-c4 and settles the egg; blue lifts d5 100 ms later and holds it.
    at(table, [(1000, "c3-"), (1300, "c4+"), (1500, "c4-"), (1560, "c4+"), (1650, "d5-")])
    table.wait(5000)
    assert table.moves() == ["c3-c4"]
    assert not of(GameOver, table.signals)
    table = Table(START())  # the same rock, and blue plays on
    at(table, [(1000, "c3-"), (1300, "c4+"), (1500, "c4-"), (1503, "c4+"), (1600, "e7-"), (2200, "e6+")])
    table.settle()
    assert table.moves() == ["c3-c4", "e7-e6"]


def test_an_unanswered_question_is_not_answered_by_a_guess():
    table = Table(setup("Ca1 We5 ed6 ee6 ee9 ca9"))
    table.do("e5- +300 d6- +5 d6+ e6- +5 e6+", gap=0)
    table.settle()
    assert of(MoveQuestion, table.signals)
    table.do("e9- e8+")  # blue moves on without anyone answering: its reply fits both
    table.settle()
    assert table.moves() == []
    assert not of(MoveRefused | QuestionClosed, table.signals)  # still asked, never guessed
    table.signals += table.referee.answer(Move.from_text("e5xd6"), table.time)
    table.settle()
    assert table.moves() == ["e5xd6"]  # and blue's reply is judged after it: e6 must capture d6
    refused = of(MoveRefused, table.signals)[-1]
    assert (str(refused.attempt), refused.rule) == ("e9-e8", Rule.CAPTURE_COMPULSORY)


def test_a_reply_answers_an_open_question_the_same_way():
    # The capturer is lifted, and its target never read empty: after ask_ms the player
    # is asked to confirm; blue's reply then says it was made.
    table = Table(setup("Ca1 We5 ed6 ee9 ca9"))
    table.do("e5-")
    table.wait(Timing().ask_ms)
    questions = of(MoveQuestion, table.signals)
    assert [q.options for q in questions] == [(Move.from_text("e5xd6"),)]
    assert questions[0].to_text() == "question: e5xd6? press confirm"
    table.do("e9- e8+")
    table.settle()
    assert table.moves() == ["e5xd6", "e9-e8"]
    assert not of(MoveRefused, table.signals)


def test_a_capture_the_sensors_missed_is_confirmed_by_the_reply():
    # The captured egg was pushed off and the capturer put down between two scans: all
    # the nest showed was e5 emptying. Blue's reply says red's move was made.
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    table.do("e5-")
    table.do("e9-", pause=600)  # blue lifts its egg: its move under way; nothing refused yet
    table.wait(2000)
    assert table.moves() == []
    assert not of(MoveRefused, table.signals)
    table.do("e8+")
    table.settle()
    assert table.moves() == ["e5xf5", "e9-e8"]
    assert not of(MoveRefused, table.signals)


def test_a_reply_that_could_be_the_capture_itself_is_waited_for():
    # Red's warbler on e5 may take f5 or e6. It is lifted; then f5 is lifted too: blue
    # starting its reply after an unseen e5xe6, or red taking f5, the captured piece last.
    table = Table(setup("Ca1 We5 ef5 ee6 ee9 ca9", "r"))
    table.do("e5-")
    table.do("f5-", pause=400)
    table.wait(1500)
    assert table.moves() == []
    table.do("f5+", pause=0)  # the warbler lands on f5: red's capture, seen
    table.settle()
    assert table.moves() == ["e5xf5"]
    assert not of(MoveRefused | MoveQuestion, table.signals)


def test_a_touch_on_the_other_side_is_no_attempt_when_a_capture_may_have_been_missed():
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    table.do("e5-")
    table.do("a9- a9+", pause=600)  # blue straightens its cuckoo: no illegal capture e5xa9
    table.do("e9- e8+", pause=600)
    table.settle()
    assert not of(MoveRefused, table.signals)
    assert table.moves() == ["e5xf5", "e9-e8"]


def test_a_new_game_while_a_question_is_open_closes_it():
    table = Table(setup("Ca1 We5 ed6 ee6 ee9 ca9"))
    table.do("e5- +300 d6- +5 d6+ e6- +5 e6+", gap=0)
    table.settle()
    assert of(MoveQuestion, table.signals)
    table.signals += table.referee.new_game(table.time)
    assert of(QuestionClosed, table.signals)
    with pytest.raises(CommandError):  # the answer came too late: nothing to answer any more
        table.referee.answer(Move.from_text("e5xe6"), table.time)
    assert table.referee.mode is Mode.SETUP


def test_a_legal_move_made_while_another_own_piece_is_off_its_cell():
    table = Table(START())
    table.do("c3- c4+")
    table.settle()
    table.do("a7-", pause=500)  # blue knocks its own egg off
    table.do("c7- c6+", pause=200)
    table.settle()
    assert table.moves() == ["c3-c4", "c7-c6"]
    correction = of(CorrectionNeeded, table.signals)[-1]
    assert correction.cause is CorrectionCause.DISTURBED
    assert [step.to_text() for step in correction.steps] == ["put a blue egg on a7"]


def test_a_captured_piece_pushed_onto_a_neighbour_and_picked_up_late():
    table = Table(setup("Ca1 Ee5 ef5 ee9 ca9"))
    at(table, [(1000, "e5-"), (1200, "f5-"), (1205, "g5+"), (1210, "f5+"), (1810, "g5-")])
    table.settle()
    assert table.moves() == ["e5xf5"]
    assert not of(MoveRefused, table.signals)


def test_a_short_glitch_repeating_on_one_cell_is_a_fault_not_a_frozen_game():
    table = Table(START())
    events = [(200 * k + 3, "h5+") for k in range(40)] + [(200 * k + 8, "h5-") for k in range(40)]
    at(table, sorted([*events, (1010, "c3-"), (1410, "c4+")]))
    assert [(f.cell, f.problem) for f in of(SensorFault, table.signals)] == [("h5", SensorProblem.FLICKERING)]
    assert table.moves() == ["c3-c4"]


def test_a_missing_piece_is_never_taken_for_a_stuck_sensor():
    table = Table(START())
    table.do("a7-")  # knocked to the floor
    table.settle()
    for _ in range(6):  # the players straighten other pieces while they look for it
        table.do("a3- a3+", pause=2000)
    table.wait(20_000)
    assert not of(SensorFault, table.signals)
    assert table.referee.mode is Mode.CORRECTING


def test_a_capture_out_of_turn_is_named_and_undone_exactly():
    table = Table(setup("Ca1 Ee5 wg5 ee9 ca9 Ea3"))
    table.do("e5- g5- e5+")  # blue's warbler takes red's egg, red to move
    table.settle()
    refused = of(MoveRefused, table.signals)[0]
    assert (str(refused.attempt), refused.rule) == ("g5xe5", Rule.NOT_YOUR_TURN)
    steps = of(CorrectionNeeded, table.signals)[0].steps
    assert [step.to_text() for step in steps] == ["move the piece on e5 to g5", "put a red egg on e5"]


def test_a_control_pressed_while_a_move_is_provisional_acts_on_that_move():
    table = Table(START())
    table.do("c3- c4+")
    table.settle()
    table.do("c7- c6+")
    table.settle()
    table.do("e3- e4+")
    table.time -= 200  # "take back" 100 ms after the egg lands: e3-e4 is still provisional
    table.signals += table.referee.take_back(table.time)
    assert [str(s.move) for s in of(TakenBack, table.signals)] == ["e3-e4"]
    table = Table(START())
    table.do("c3- c4+")
    table.settle()
    table.do("c7- c6+")
    table.time -= 200
    table.signals += table.referee.resign(Side.RED, table.time)
    assert table.moves() == ["c3-c4", "c7-c6"]  # blue's move stands, then red resigns


def test_lenient_a_capture_slid_with_a_pause_on_the_middle_cell():
    table = Table(setup("Ca1 We5 ee7 ee9 ca9"), settings=Settings(lenient=True))
    at(table, [(1000, "e5-"), (1050, "e6+"), (1450, "e6-"), (1500, "e7-"), (1505, "e7+")])
    table.settle()
    assert table.moves() == ["e5xe7"]
    assert not of(MissedCapture, table.signals)


def test_a_game_that_starts_decided_ends_at_once():
    table = Table(Position.from_nfn("E3C/6/7/8/9/8/7/6/e3c r"))
    assert of(GameOver, table.signals)[0].outcome.is_draw
    assert table.referee.mode is Mode.SETUP


def test_a_knocked_piece_is_a_disturbance_not_an_illegal_move():
    table = Table(START())
    table.do("a7-")
    table.settle()
    assert of(CorrectionNeeded, table.signals)[0].cause is CorrectionCause.DISTURBED
