"""The referee's set-up phase for a game whose players set up privately (the battle game):
each side's set-up from its player's screen, whole or one piece at a time driven by the
switches; the game starts from both once the nest shows them; no shared signal and no
public position ever says a hidden rank (docs/referee.md, "Set-ups made by the players")."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games import load_game
from firmware_host.games.base import OWN_SETUPS, PlayersSetUp, Side, public_text
from firmware_host.games.battle import Position, Setup
from firmware_host.games.battle.pieces import Shown
from firmware_host.referee.referee import CommandError, Mode, Referee, Settings
from firmware_host.referee.signals import (
    GameOver,
    GameStarted,
    MissedCapture,
    MoveAccepted,
    SetupNeeded,
    SetupProgress,
    SetupState,
    Signal,
    StrikeAnnounced,
)
from tests.battle_helpers import FIELD, GAME, RANK_NAMES, BattleNest, random_setup

SEEDS = st.integers(0, 2**32 - 1)


def started(signals: list[Signal]) -> list[GameStarted]:
    return [signal for signal in signals if isinstance(signal, GameStarted)]


def last_needed(signals: list[Signal]) -> SetupNeeded:
    return [signal for signal in signals if isinstance(signal, SetupNeeded)][-1]


def test_only_a_game_whose_players_set_up_has_the_capability_and_cuckoo_is_unchanged():
    cuckoo = load_game("cuckoo")
    assert cuckoo.setups is None
    assert isinstance(GAME, PlayersSetUp) and GAME.setups is GAME
    position = cuckoo.start("standard", Side.RED)
    assert public_text(cuckoo, position) == position.to_text()
    referee = Referee(cuckoo, settings=Settings(), lineup="standard", occupied=(), now=0)
    referee.await_setup(now=0)
    with pytest.raises(CommandError, match="Operation Cuckoo starts from a lineup on the nest"):
        referee.guide_setup(Side.RED, 10)


def test_two_set_ups_from_the_screens_start_the_game_once_the_nest_shows_them():
    rng = random.Random(1)
    red, blue = random_setup(Side.RED, rng), random_setup(Side.BLUE, rng)
    nest = BattleNest()
    assert last_needed(nest.signals).lineup == OWN_SETUPS
    nest.give(red)
    assert last_needed(nest.signals).fill == tuple(sorted(red.cells, key=FIELD.index))
    nest.put(*sorted(red.cells))
    nest.give(blue)
    blue_cells = sorted(blue.cells)
    nest.put(*blue_cells[:-1])
    nest.settle()
    assert not started(nest.signals), "a square of blue's set-up is still empty"
    assert last_needed(nest.signals).fill == (blue_cells[-1],)
    nest.put("e5")  # a square of neither side's rows: to be emptied first
    nest.put(blue_cells[-1])
    nest.settle()
    assert not started(nest.signals) and last_needed(nest.signals).empty == ("e5",)
    nest.lift("e5")
    nest.settle()
    (game,) = started(nest.signals)
    expected = GAME.start_from_setups(red, blue, Side.RED)
    assert game.lineup == OWN_SETUPS and nest.referee.recorded_positions() == (expected.to_text(),)
    assert game.public_view.text == expected.view().to_text() and "M" not in game.public_view.text
    assert "M" not in game.public_view.letters.values()
    assert nest.referee.mode is Mode.PLAYING and nest.referee.position is not None
    assert nest.referee.position.to_text() == expected.to_text()


def test_a_set_up_given_again_replaces_the_first_and_a_withdrawn_one_is_waited_for_again():
    rng = random.Random(2)
    first, second, blue = random_setup(Side.RED, rng), random_setup(Side.RED, rng), random_setup(Side.BLUE, rng)
    nest = BattleNest()
    nest.give(first)
    nest.give(second)
    nest.give(blue)
    nest.put(*sorted(second.cells | blue.cells), gap=50)
    nest.signals += nest.referee.clear_setup(Side.BLUE, nest.time + 10)
    nest.settle()
    assert not started(nest.signals)
    assert [s for s in nest.signals if isinstance(s, SetupProgress)][-1] == SetupProgress(
        Side.BLUE, SetupState.WAITING, 0, 36
    )
    nest.give(blue)
    nest.settle()
    started(nest.signals)
    assert nest.referee.position is not None
    assert nest.referee.position.to_text() == GAME.start_from_setups(second, blue, Side.RED).to_text()


def test_a_guided_placement_gives_each_cell_that_fills_the_rank_asked_for():
    rng = random.Random(3)
    blue = random_setup(Side.BLUE, rng)
    nest = BattleNest()
    nest.give(blue)
    nest.put(*sorted(blue.cells), gap=50)
    nest.guide(Side.RED)
    assert nest.referee.placement_prompt(Side.BLUE) is None
    cells = rng.sample(sorted(FIELD.setup_cells(Side.RED)), 36)
    expected = {cells[0]: nest.asked(Side.RED)}
    nest.put(cells[0])
    second = nest.referee.placement_prompt(Side.RED)
    nest.put(cells[1])
    nest.lift(cells[1])  # taken back: the same piece is asked for again, and goes elsewhere
    assert nest.referee.placement_prompt(Side.RED) == second
    for cell in cells[2:]:
        expected[cell] = nest.asked(Side.RED)
        nest.put(cell, gap=100)
    nest.settle()
    assert not started(nest.signals), "one piece is still to place"
    progress = [s for s in nest.signals if isinstance(s, SetupProgress) and s.side is Side.RED][-1]
    assert progress == SetupProgress(Side.RED, SetupState.PLACING, 35, 36)
    assert not ranks_named(progress.to_text())
    expected[cells[1]] = nest.asked(Side.RED)
    nest.put(cells[1])
    nest.settle()
    started(nest.signals)
    position = nest.referee.position
    assert isinstance(position, Position)
    pieces = position.pieces()
    assert {cell: pieces[cell].rank.name for cell in cells} == expected
    assert sorted(map(str, expected.values())) == sorted(rank.name for rank in FIELD.army for _ in range(rank.count))


def test_the_order_a_guided_placement_asks_for_is_drawn_anew_and_the_shared_signals_do_not_show_it():
    orders, shared = set(), set()
    cells = sorted(FIELD.setup_cells(Side.RED), key=FIELD.index)[:36]
    for _ in range(4):
        nest = BattleNest()
        nest.guide(Side.RED)
        asked = []
        for cell in cells:
            asked.append(nest.asked(Side.RED))
            nest.put(cell, gap=40)
        orders.add(tuple(asked))
        shared.add(tuple(signal.to_text() for signal in nest.signals))
    assert len(orders) == 4, "the order is drawn at random each time"
    assert len(shared) == 1, "what everybody is told is the same whatever the order: it says nothing of it"


def test_a_placed_piece_moved_elsewhere_is_not_guessed_it_is_asked_back():
    nest = BattleNest()
    nest.guide(Side.RED)
    nest.put("a1", "b1", "c1")
    third = nest.referee.placement_prompt(Side.RED)
    nest.lift("a1")
    nest.put("d1")  # the first piece moved to d1, or the fourth put down? The switches cannot tell
    nest.settle()
    needed = last_needed(nest.signals)
    assert needed.fill == ("a1",) and needed.empty == ("d1",)
    assert nest.referee.placement_prompt(Side.RED) == third
    nest.put("a1")
    nest.settle()
    assert last_needed(nest.signals).empty == ("d1",), "d1 must be lifted again before it counts"
    nest.lift("d1")
    nest.put("d1")
    assert [s for s in nest.signals if isinstance(s, SetupProgress)][-1].placed == 4


def test_pieces_on_the_rows_before_a_guided_placement_are_lifted_first():
    nest = BattleNest(occupied=("a1", "b2"))
    nest.guide(Side.RED)
    assert last_needed(nest.signals).empty == ("a1", "b2")
    nest.put("c1")
    nest.lift("a1", "b2")
    assert last_needed(nest.signals).empty == ()
    assert [s for s in nest.signals if isinstance(s, SetupProgress)][-1].placed == 1


# -- the check after a set-up ------------------------------------------------------------


def checked_nest(seed: int) -> tuple[BattleNest, dict[Side, Setup]]:
    """A nest whose sides gave random set-ups, both asked to be checked."""
    rng = random.Random(seed)
    setups = {side: random_setup(side, rng) for side in Side}
    nest = BattleNest()
    for side in Side:
        nest.ask_check(side)
        nest.give(setups[side])
    return nest, setups


def test_a_check_asks_each_side_to_lift_its_pieces_and_the_game_starts_once_both_pass():
    nest, setups = checked_nest(11)
    assert nest.asked(Side.RED) is None, "the check begins once the nest shows the set-up"
    nest.put(*sorted(setups[Side.RED].cells | setups[Side.BLUE].cells), gap=30)
    nest.settle()
    assert not started(nest.signals)
    progress = [s for s in nest.signals if isinstance(s, SetupProgress)][-2:]
    assert {p.side: (p.state, p.placed, p.total) for p in progress} == {
        side: (SetupState.CHECKING, 0, 35) for side in Side
    }
    assert "red set-up: checking, 0 of 35 checked" in [p.to_text() for p in progress]
    assert nest.lift_as_asked(Side.RED, setups[Side.RED]) == []
    assert nest.referee.placement_prompt(Side.RED) == "your pieces are checked"
    nest.settle()
    assert not started(nest.signals), "blue is still to check"
    assert nest.lift_as_asked(Side.BLUE, setups[Side.BLUE]) == []
    nest.settle()
    assert started(nest.signals)
    assert (
        nest.referee.position is not None
        and nest.referee.position.to_text()
        == GAME.start_from_setups(setups[Side.RED], setups[Side.BLUE], Side.RED).to_text()
    )
    for signal in nest.signals:
        assert not ranks_named(signal.to_text()), signal


def test_two_pieces_put_down_swapped_are_caught_by_the_check_and_the_game_waits():
    nest, setups = checked_nest(12)
    red = setups[Side.RED]
    a, b = next((a, b) for a in sorted(red.ranks) for b in sorted(red.ranks) if red.ranks[a] != red.ranks[b])
    on_the_nest = Setup(Side.RED, {**red.ranks, a: red.ranks[b], b: red.ranks[a]})
    nest.put(*sorted(red.cells | setups[Side.BLUE].cells), gap=30)
    nest.lift_as_asked(Side.BLUE, setups[Side.BLUE])
    refused = nest.lift_as_asked(Side.RED, on_the_nest)
    assert set(refused) & {a, b}, "a swapped piece is refused"
    assert str(nest.referee.placement_prompt(Side.RED)).startswith("lift your"), "the check is not passed"
    nest.settle()
    assert not started(nest.signals), "the ranks and the pieces differ: the game does not start"
    # The player swaps them back (two pieces up at once: the check starts again), and passes.
    nest.lift(a, b)
    assert "the check starts again" in str(nest.referee.placement_prompt(Side.RED))
    nest.put(a, b)
    assert [s for s in nest.signals if isinstance(s, SetupProgress)][-1].placed == 0
    assert nest.lift_as_asked(Side.RED, red) == []
    nest.settle()
    assert started(nest.signals)


def test_a_set_up_given_that_differs_from_the_pieces_is_caught_and_given_again_is_checked_again():
    nest, setups = checked_nest(13)
    placed = random_setup(Side.RED, random.Random(99))  # what red put down: other ranks on the squares
    given = Setup(
        Side.RED, dict(zip(sorted(placed.cells), [placed.ranks[c] for c in sorted(placed.cells)][::-1], strict=True))
    )
    nest.give(given)
    nest.put(*sorted(placed.cells | setups[Side.BLUE].cells), gap=30)
    nest.lift_as_asked(Side.BLUE, setups[Side.BLUE])
    assert nest.lift_as_asked(Side.RED, placed), "the screen's set-up is not what stands on the nest"
    nest.settle()
    assert not started(nest.signals)
    nest.give(placed)  # given again as the pieces stand: checked again from the start
    nest.settle()
    assert [s for s in nest.signals if isinstance(s, SetupProgress) and s.side is Side.RED][-1].placed == 0
    assert nest.lift_as_asked(Side.RED, placed) == []
    nest.settle()
    assert started(nest.signals)
    assert (
        nest.referee.position is not None
        and nest.referee.position.to_text() == GAME.start_from_setups(placed, setups[Side.BLUE], Side.RED).to_text()
    )


def test_a_set_up_given_stays_given_when_who_starts_is_changed():
    rng = random.Random(5)
    red, blue = random_setup(Side.RED, rng), random_setup(Side.BLUE, rng)
    nest = BattleNest()
    nest.give(red)
    nest.signals += nest.referee.choose_setup(now=nest.time + 10, starter=Side.BLUE)
    assert last_needed(nest.signals).starter is Side.BLUE
    nest.give(blue)
    nest.put(*sorted(red.cells | blue.cells), gap=40)
    nest.settle()
    (game,) = started(nest.signals)
    assert game.starter is Side.BLUE and nest.referee.position is not None
    assert nest.referee.position.to_text() == GAME.start_from_setups(red, blue, Side.BLUE).to_text()


def test_set_ups_are_given_only_between_games():
    rng = random.Random(4)
    red, blue = random_setup(Side.RED, rng), random_setup(Side.BLUE, rng)
    nest = BattleNest()
    nest.give(red)
    nest.give(blue)
    nest.put(*sorted(red.cells | blue.cells), gap=50)
    nest.settle()
    assert nest.referee.mode is Mode.PLAYING
    with pytest.raises(CommandError, match="set-ups are given between games"):
        nest.give(red)


def ranks_named(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z]+", text) if word in RANK_NAMES}


def check_public(signal: Signal, known: set[str], position: Position) -> None:
    """No shared words name a rank nobody was shown, and no public view of ``position``
    (the game's, as the test made it) writes one."""
    assert ranks_named(signal.to_text()) <= known, signal
    if isinstance(signal, GameStarted | MoveAccepted):
        public = signal.public_view
        assert public.text == position.view().to_text() and public.turn is position.turn
        for cell, piece in position.pieces().items():
            revealed = position.shown(cell) is Shown.REVEALED
            assert public.letters[cell] == (piece.rank_letter if revealed else piece.letter), cell
        for cell, seen in position.view().pieces().items():
            assert (seen.rank is not None) == (position.shown(cell) is Shown.REVEALED)


def play(nest: BattleNest, rng: random.Random, plies: int) -> list[str]:
    """Random legal moves made by clean hands: a move lifted and put down; a strike by
    lifting the striker and then the struck piece, the winner put down on the struck
    square as the lights ask."""
    referee, made = nest.referee, []
    for _ in range(plies):
        position = referee.position
        if position is None or referee.mode is not Mode.PLAYING:
            break
        assert isinstance(position, Position)
        move = rng.choice(position.legal_moves())
        made.append(move.to_text())
        if move.is_strike:
            strike = position.strike(move)
            nest.lift(move.origin, move.target)
            if strike.winner is not None:
                nest.put(move.target)
        else:
            nest.lift(move.origin)
            nest.put(move.target)
        nest.settle()
    return made


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, guided=st.sampled_from([*Side, None]), plies=st.integers(0, 120))
def test_no_shared_signal_says_a_rank_nobody_was_shown(seed, guided, plies):
    rng = random.Random(seed)
    setups = {side: random_setup(side, rng) for side in Side}
    nest = BattleNest()
    for side in Side:
        if side is guided:
            nest.guide(side)
            nest.place_as_asked(side, setups[side])
        else:
            nest.give(setups[side])
            nest.put(*sorted(setups[side].cells), gap=40)
    nest.settle()
    started(nest.signals)
    start = GAME.start_from_setups(setups[Side.RED], setups[Side.BLUE], Side.RED)
    assert nest.referee.position is not None and nest.referee.position.to_text() == start.to_text()
    made = len(nest.signals)
    played = play(nest, rng, plies)
    known: set[str] = set()
    for signal in nest.signals[:made]:
        check_public(signal, known, start)
    assert [str(signal.move) for signal in nest.signals if isinstance(signal, MoveAccepted)] == played
    assert not [signal for signal in nest.signals if isinstance(signal, MissedCapture)], "no strike is compulsory"
    position = GAME.start_from_setups(setups[Side.RED], setups[Side.BLUE], Side.RED)
    strike = None
    for signal in nest.signals[made:]:
        if isinstance(signal, StrikeAnnounced):  # the strike shows both ranks to everybody
            strike = position.strike(GAME.read_move(str(signal.move)))
            known |= {strike.attacker.rank.name, strike.defender.rank.name}
        if isinstance(signal, MoveAccepted):
            move = GAME.read_move(str(signal.move))
            assert not move.is_strike or (strike is not None and strike.move == move), (
                "every strike is announced before it is made"
            )
            position.push(move)
        if isinstance(signal, GameOver):
            known.add("flag")  # a flag captured is said
        check_public(signal, known, position)
