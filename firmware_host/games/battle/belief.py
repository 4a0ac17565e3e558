"""What the computer believes of the other side's pieces: for every enemy piece whose
rank it was not shown, a distribution over that rank, from its own side's view alone.

What a view tells (``docs/battle-computer.md``): the ranks the other side still has
and has not shown (the army, less what the strikes removed, less what was revealed);
which pieces have moved (never a Bomb or the Flag); a Scout's run and every strike show
the ranks involved, so those pieces are known exactly. On top of those facts, the
stronger levels hold a prior of how people set up: the Flag on the back row more often
than not, the Bombs near the back. The distribution is the one table of chances that
keeps every fact, comes closest to that prior, and adds up to the counts: each piece's
row sums to one, each rank's column to the number of that rank not yet seen (found by
iterative proportional fitting, Sinkhorn's method, for the ranks that never move; the
others are shared alike, nothing in a view telling them apart).

>>> from firmware_host.games.base import Side
>>> from firmware_host.games.battle.field import Field
>>> from firmware_host.games.battle.position import Position
>>> field = Field.default()
>>> view = Position.from_lineup(field, "demo", Side.RED).view(Side.RED)
>>> belief = Belief.of(view, prior=UNIFORM)
>>> round(sum(belief.chances("a10").values()), 6), round(belief.expected_count(field.army.flag), 6)
(1.0, 1.0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.games.base import Side
from firmware_host.games.battle.army import Rank, Role
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.pieces import Shown
from firmware_host.games.battle.position import View

FITTING_ROUNDS = 60  # Sinkhorn's rounds: the sums are then within about 1e-9 of the counts
FITTED = 1e-9


@dataclass(frozen=True)
class SetupPrior:
    """How likely a set-up puts the pieces that never move on each of its rows, counted
    from the side's back row (0) forward: ``flag[depth]`` and ``bomb[depth]`` weigh the
    Flag and a Bomb there against a piece that moves (weight 1); ``bomb_by_flag`` is how
    much likelier a Bomb is beside the Flag than elsewhere (for drawing positions)."""

    name: str
    flag: tuple[float, ...]
    bomb: tuple[float, ...]
    bomb_by_flag: float

    def weight(self, weights: tuple[float, ...], depth: int) -> float:
        return weights[min(depth, len(weights) - 1)]


UNIFORM = SetupPrior("uniform", (1.0,), (1.0,), 1.0)
"""No idea of how people set up: every arrangement of the unseen ranks alike."""
CLUB = SetupPrior("club", (8.0, 2.0, 0.5, 0.1), (3.0, 3.0, 1.0, 0.4), 5.0)
"""A club player's set-up: the Flag mostly on the back row, the Bombs mostly on the back
two rows and beside the Flag."""


class Belief:
    """The chances of each rank for every enemy piece whose rank is not shown, as one
    side's view allows. Build it with :meth:`of`."""

    def __init__(
        self,
        field: Field,
        side: Side,
        unknown: Mapping[str, Shown],
        counts: Mapping[Rank, int],
        table: Mapping[str, dict[Rank, float]],
        prior: SetupPrior,
    ) -> None:
        self.field = field
        self.side = side
        """The side whose pieces this is about (the viewer's opponent)."""
        self.unknown = dict(unknown)
        """The pieces of :attr:`side` whose rank is not shown, and what is known of each."""
        self.counts = dict(counts)
        """The ranks of :attr:`side` not yet seen, with how many of each."""
        self._table = {cell: dict(row) for cell, row in table.items()}
        self.prior = prior

    @classmethod
    def of(cls, view: View, *, prior: SetupPrior, side: Side | None = None) -> Belief:
        """The belief about ``side``'s pieces (default: the opponent of the side to move)
        from ``view``. For ``side`` a viewer of ``view``, its pieces count as unknown
        unless everybody was shown them: what the other side believes of them."""
        side = side if side is not None else view.turn.opponent
        field = view.field
        unknown: dict[str, Shown] = {}
        for cell, piece in view.pieces().items():
            if piece.side is side and piece.shown is not Shown.REVEALED:
                unknown[cell] = piece.shown
        left = {rank: rank.count - view.removed(side)[rank] for rank in field.army}
        for piece in view.pieces().values():
            if piece.side is side and piece.shown is Shown.REVEALED and piece.rank is not None:
                left[piece.rank] -= 1
        counts = {rank: count for rank, count in left.items() if count > 0}
        return cls(field, side, unknown, counts, _fit(field, side, unknown, counts, prior), prior)

    def chances(self, cell: str) -> dict[Rank, float]:
        """The rank of the piece on ``cell`` (one whose rank is not shown), by chance.
        Raises KeyError for another square."""
        return dict(self._table[cell])

    def expected_count(self, rank: Rank) -> float:
        """How many of the unknown pieces are expected to be of ``rank``: the number not
        yet seen, whatever the prior (the table's column sum)."""
        return sum(row.get(rank, 0.0) for row in self._table.values())

    def chance_movable(self, cell: str) -> float:
        """The chance that the piece on ``cell`` can move (neither a Bomb nor the Flag)."""
        return sum(chance for rank, chance in self._table[cell].items() if rank.can_move)

    def draw(self, rng: random.Random) -> dict[str, Rank]:
        """One arrangement of the unseen ranks over the unknown pieces, drawn by these
        chances (a determinization): the Flag first, then the Bombs (likelier beside the
        Flag), then the pieces that move, shuffled. Every fact of the view holds in it."""
        cells = list(self.unknown)
        left = dict(self.counts)
        drawn: dict[str, Rank] = {}
        still = [cell for cell in cells if self.unknown[cell] is Shown.HIDDEN]
        flag_cell: str | None = None
        for rank in sorted((rank for rank in left if not rank.can_move), key=lambda rank: rank.role is not Role.FLAG):
            for _ in range(left.pop(rank)):
                weights = [self._table[cell].get(rank, 0.0) for cell in still]
                if flag_cell is not None and rank.role is Role.BOMB:
                    near = set(_neighbours(self.field, flag_cell))
                    weights = [
                        w * (self.prior.bomb_by_flag if cell in near else 1.0)
                        for w, cell in zip(weights, still, strict=True)
                    ]
                if sum(weights) <= 0:
                    weights = [1.0] * len(still)
                cell = rng.choices(still, weights)[0]
                still.remove(cell)
                drawn[cell] = rank
                if rank.role is Role.FLAG:
                    flag_cell = cell
        movers = [rank for rank, count in left.items() for _ in range(count)]
        rng.shuffle(movers)
        rest = [cell for cell in cells if cell not in drawn]
        drawn.update(zip(rest, movers, strict=False))
        return drawn


def _neighbours(field: Field, cell: str) -> tuple[str, ...]:
    return tuple(ray[0] for ray in field.rays(cell) if ray)


def depth_from_back(field: Field, side: Side, cell: str) -> int:
    """How many rows ``cell`` is in front of ``side``'s back row (0 on it)."""
    _, y = field.coordinates(cell)
    rows = field.setup_rows(side)
    back = (min(rows) if field.forward(side) > 0 else max(rows)) - 1
    return abs(y - back)


def _fit(
    field: Field, side: Side, unknown: Mapping[str, Shown], counts: Mapping[Rank, int], prior: SetupPrior
) -> dict[str, dict[Rank, float]]:
    """The table of chances (see the module's docstring). The ranks that move are shared
    alike among the pieces that may hold one (nothing in a view tells a Captain from a
    Major before it strikes), so each such rank's chance is its count over all the
    unseen movable ranks, times the chance that the piece moves at all. That chance, for
    a piece that never moved, comes from a table of the never-moved pieces against the
    ranks that never move and "one that moves": the prior's weights, scaled by rows and
    columns in turn until each row sums to one and each column to its count."""
    movers = {rank: count for rank, count in counts.items() if rank.can_move}
    fixed = [rank for rank, count in counts.items() if not rank.can_move]
    moving_total = sum(movers.values())
    still = [cell for cell, shown in unknown.items() if shown is Shown.HIDDEN]
    fixed_total = sum(counts[rank] for rank in fixed)
    if (
        moving_total + fixed_total != len(unknown)
        or fixed_total > len(still)
        or (not moving_total and fixed_total < len(still))
    ):
        # Pieces no game leaves (a hand-made position): every unseen rank alike for each.
        total = sum(counts.values()) or 1
        return {
            cell: {rank: count / total for rank, count in counts.items() if shown is Shown.HIDDEN or rank.can_move}
            for cell, shown in unknown.items()
        }
    share = {rank: count / moving_total for rank, count in movers.items()} if moving_total else {}
    chance_fixed = _fit_still(field, side, still, fixed, counts, len(still) - fixed_total, prior)
    table: dict[str, dict[Rank, float]] = {}
    for cell, shown in unknown.items():
        fixed_here = chance_fixed.get(cell, {}) if shown is Shown.HIDDEN else {}
        moves = 1.0 - sum(fixed_here.values())
        row = {rank: chance for rank, chance in fixed_here.items() if chance > 0}
        row.update({rank: moves * part for rank, part in share.items() if moves * part > 0})
        table[cell] = row
    return table


def _fit_still(
    field: Field,
    side: Side,
    still: list[str],
    fixed: list[Rank],
    counts: Mapping[Rank, int],
    moving: int,
    prior: SetupPrior,
) -> dict[str, dict[Rank, float]]:
    """For each never-moved piece, the chance of each rank that never moves (Sinkhorn's
    scaling of the prior's weights; the last column is "one that moves", ``moving`` of
    them)."""
    if not fixed:
        return {}
    rows = []
    for cell in still:
        depth = depth_from_back(field, side, cell)
        row = [prior.weight(prior.flag if rank.role is Role.FLAG else prior.bomb, depth) for rank in fixed]
        rows.append([*row, 1.0])
    targets = [float(counts[rank]) for rank in fixed] + [float(moving)]
    for _ in range(FITTING_ROUNDS):
        worst = 0.0
        for k, target in enumerate(targets):
            total = sum(row[k] for row in rows)
            if total > 0:
                scale = target / total
                for row in rows:
                    row[k] *= scale
        for row in rows:
            total = sum(row)
            worst = max(worst, abs(total - 1.0))
            for k in range(len(row)):
                row[k] /= total
        if worst < FITTED:
            break
    return {cell: dict(zip(fixed, row[:-1], strict=True)) for cell, row in zip(still, rows, strict=True)}
