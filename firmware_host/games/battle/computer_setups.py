"""The computer's set-ups: sensible and varied, drawn at random among good ones
(``docs/battle-computer.md``).

A set-up starts from where the Flag goes, one of three plans chosen by chance:

- **fortress**: the Flag in a back corner, the Bombs on the squares beside it, so that
  only a Miner gets through;
- **guarded**: the Flag on the back row away from the corners, Bombs on two of its
  three sides, an officer or a Miner on the third;
- **decoy**: the Flag on the back row with no Bomb beside it, and the Bombs around
  another piece in a back corner, where a Flag is expected.

Then the other ranks, each on the rows it suits: Scouts forward (to find out what
stands there), the Marshal and the General in the middle rows, the Spy beside the
General (the Marshal that strikes the General is then struck down), the Miners kept
back (they are needed late, for the Bombs), the rest spread over the rows. The squares
filled are those of the field's first demo set-up (which leaves empty the squares that
face a lake).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from firmware_host.games.base import Side
from firmware_host.games.battle.army import Rank, Role
from firmware_host.games.battle.belief import depth_from_back
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.setups import Setup

PLANS = (("fortress", 0.6), ("guarded", 0.3), ("decoy", 0.1))
"""The Flag's plans and how often each is drawn."""

ROW_LIKING = {
    "scout": (0.3, 1.0, 2.0, 6.0),
    "miner": (4.0, 3.0, 1.0, 0.3),
    "officer": (0.5, 2.0, 3.0, 1.0),
    "other": (1.0, 1.5, 2.0, 2.5),
}
"""How much each kind of rank likes each row, from the back row (0) forward."""


def computer_setup(field: Field, side: Side, seed: int, *, plan: str | None = None) -> Setup:
    """A set-up for the computer's ``side``, drawn with ``seed`` (``plan``: one of
    :data:`PLANS` by name; default drawn by chance). The referee learns it as it learns
    a player's; the computer plays from its view alone, whatever set-up its side has."""
    rng = random.Random(seed)
    squares = sorted(field.lineup(field.lineup_names[0]).setups[side].ranks, key=field.index)
    depth = {square: depth_from_back(field, side, square) for square in squares}
    back = [square for square in squares if depth[square] == 0]
    free = set(squares)
    chosen: dict[str, Rank] = {}
    army = field.army
    flag = army.flag
    bombs = [rank for rank in army for _ in range(rank.count) if rank.role is Role.BOMB]
    if plan is None:
        plan = rng.choices([name for name, _ in PLANS], [weight for _, weight in PLANS])[0]

    def neighbours(square: str) -> list[str]:
        return [ray[0] for ray in field.rays(square) if ray and ray[0] in free]

    corners = [square for square in back if len([ray for ray in field.rays(square) if ray]) == 2]
    middle = [square for square in back if square not in corners]
    if plan == "fortress" and corners:
        place = rng.choice(corners)
    elif plan == "decoy" and len(corners) >= 1 and middle:
        place = rng.choice(middle)
    else:
        place = rng.choice(middle or back or squares)
    chosen[place] = flag
    free.discard(place)
    if plan == "decoy" and corners:
        fake = rng.choice(corners)
        chosen[fake] = _pick_rank(army.ranks, chosen, rng, prefer=("sergeant", "lieutenant", "scout"))
        free.discard(fake)
        around = neighbours(fake)
    else:
        around = neighbours(place)
        rng.shuffle(around)
        # Bombs in front of and beside the Flag first; the back row's sides before the front.
        around.sort(key=lambda square: depth[square] != 0)
    for bomb in bombs:
        spot = around.pop(0) if around else rng.choice(sorted(free))
        chosen[spot] = bomb
        free.discard(spot)
    remaining = _remaining(army.ranks, chosen)
    general = next((rank for rank in army if rank.name == "general"), None)
    # The officers first, the Spy at once after the General (while squares beside it
    # are free), then the Scouts (to the front row before it fills), the Miners, the rest.
    order = {"officer": 0, "scout": 2, "miner": 3, "other": 4}

    def placing(rank: Rank) -> tuple[int, int]:
        kind = 1 if rank.name == "spy" else order[_kind(rank)]
        return kind, -(rank.strength or 0)

    remaining.sort(key=placing)
    for rank in remaining:
        if rank.name == "spy" and general is not None:
            by_general = [
                square for square, placed in chosen.items() if placed is general for square in neighbours(square)
            ]
            if by_general:
                spot = rng.choice(sorted(by_general))
                chosen[spot] = rank
                free.discard(spot)
                continue
        liking = ROW_LIKING[_kind(rank)]
        options = sorted(free, key=field.index)
        weights = [liking[min(depth[square], len(liking) - 1)] for square in options]
        spot = rng.choices(options, weights)[0]
        chosen[spot] = rank
        free.discard(spot)
    setup = Setup(side, chosen)
    setup.check(field)
    return setup


def _kind(rank: Rank) -> str:
    if rank.movement.value == "run":
        return "scout"
    if "bomb" in rank.strikes_down:
        return "miner"
    if (rank.strength or 0) >= 9:
        return "officer"
    return "other"


def _remaining(ranks: Sequence[Rank], chosen: dict[str, Rank]) -> list[Rank]:
    placed = list(chosen.values())
    left = []
    for rank in ranks:
        for _ in range(rank.count - placed.count(rank)):
            left.append(rank)
    return left


def _pick_rank(ranks: Sequence[Rank], chosen: dict[str, Rank], rng: random.Random, *, prefer: Sequence[str]) -> Rank:
    """A rank still to place, for the decoy's corner: one of ``prefer`` if the army has
    it, else any that moves."""
    left = _remaining(ranks, chosen)
    for name in prefer:
        if any(rank.name == name for rank in left):
            return next(rank for rank in left if rank.name == name)
    return rng.choice([rank for rank in left if rank.can_move])
