"""Plans to put the nest right: which piece to move where, one at a time."""

from __future__ import annotations

from collections.abc import Mapping, Set

from firmware_host.referee.signals import FixKind, FixStep
from firmware_host.rules import Nest, Piece


def plan_correction(nest: Nest, occupied: Set[str], wanted: Mapping[str, Piece]) -> tuple[FixStep, ...]:
    """Steps that turn the nest's ``occupied`` cells into the position ``wanted``.

    Each cell that should be empty is paired with the nearest cell that should be full
    (the closest pairs first): "move the piece on X to Y". Cells left over are emptied
    or filled on their own. Empty when the nest already matches.
    """
    extra = sorted(set(occupied) - set(wanted), key=nest.index)
    missing = sorted(set(wanted) - set(occupied), key=nest.index)
    pairs = sorted(
        ((nest.distance(source, target), nest.index(source), nest.index(target), source, target))
        for source in extra
        for target in missing
    )
    steps: list[FixStep] = []
    for _, _, _, source, target in pairs:
        if source in extra and target in missing:
            steps.append(FixStep(FixKind.MOVE, source, target, wanted[target]))
            extra.remove(source)
            missing.remove(target)
    steps += [FixStep(FixKind.REMOVE, source, None, None) for source in extra]
    steps += [FixStep(FixKind.PLACE, None, target, wanted[target]) for target in missing]
    return tuple(steps)
