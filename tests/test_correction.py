"""Plans to put the nest right."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.cuckoo.rules import Nest, Piece, Position
from firmware_host.referee.correction import plan_correction
from firmware_host.referee.signals import FixKind

NEST = Nest.default()
START = Position.from_lineup().pieces()


def test_a_matching_nest_needs_nothing():
    assert plan_correction(NEST, set(START), START) == ()


def test_each_extra_piece_goes_to_the_nearest_missing_cell():
    occupied = (set(START) - {"c3", "g3"}) | {"c5", "h4"}
    steps = plan_correction(NEST, occupied, START)
    assert [step.to_text() for step in steps] == ["move the piece on h4 to g3", "move the piece on c5 to c3"]
    assert steps[0].piece == Piece.from_letter("E")


def test_left_over_cells_are_emptied_or_filled():
    steps = plan_correction(NEST, (set(START) - {"c1"}) | {"e5", "e6"}, START)
    kinds = [step.kind for step in steps]
    assert kinds == [FixKind.MOVE, FixKind.REMOVE]
    assert steps[1].to_text() in ("take the piece off e5", "take the piece off e6")
    steps = plan_correction(NEST, set(START) - {"c1", "b1"}, START)
    assert [step.to_text() for step in steps] == ["put a red warbler on b1", "put a red cuckoo on c1"]


@given(st.sets(st.sampled_from(list(NEST.cells))))
def test_doing_the_plan_makes_the_nest_match(occupied):
    steps = plan_correction(NEST, occupied, START)
    cells = set(occupied)
    for step in steps:
        if step.source is not None:
            assert step.source in cells
            cells.remove(step.source)
        if step.target is not None:
            assert step.target not in cells
            cells.add(step.target)
    assert cells == set(START)
    assert len(steps) == max(len(set(occupied) - set(START)), len(set(START) - set(occupied)))
