"""The computer opponent, on public information only: it is handed a position, looks at
it once to take the view of the side to move (its own ranks, and what everybody knows),
and chooses from that view alone (``docs/rules-battle.md`` §9).

Level 1 plays a random legal move. Level 2, cautious, weighs each move by what it may
win or lose: a strike by the chances of each rank the struck piece may have (the
army's ranks not yet removed or seen, and no Bomb or Flag once it has moved), a move by
the known enemies it steps next to, a little by how far it goes forward. Levels 3 to 5
search over what they believe of the other side's pieces (``belief.py``, ``search.py``;
``docs/battle-computer.md``), each with a larger budget than the one below.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from firmware_host.games.base import ComputerChoice, ComputerLevel, Side
from firmware_host.games.battle.army import Rank, Role, StrikeResult, resolve_strike
from firmware_host.games.battle.belief import CLUB, UNIFORM
from firmware_host.games.battle.computer_setups import computer_setup
from firmware_host.games.battle.moves import Move
from firmware_host.games.battle.pieces import SeenPiece, Shown
from firmware_host.games.battle.position import Position, View
from firmware_host.games.battle.search import Budget, search

__all__ = ["LEVELS", "BattleComputer", "choose_from_view", "computer_setup"]

LEVELS = (
    ComputerLevel(1, "random"),
    ComputerLevel(2, "cautious"),
    ComputerLevel(3, "careful"),
    ComputerLevel(4, "shrewd"),
    ComputerLevel(5, "strongest"),
)
BUDGETS = {
    3: Budget(samples=3, prior=UNIFORM, caution=1.0),
    4: Budget(samples=6, prior=CLUB, recapture=True, caution=0.5),
    5: Budget(samples=16, prior=CLUB, recapture=True, caution=0.5),
}
"""The searching levels' budgets: counted, never timed, so a level plays alike on every
machine (``docs/battle-computer.md``)."""
FLAG_VALUE = 1000.0
BOMB_VALUE = 2.0
SPY_BONUS = 4.0  # a Spy is weak, but it is the one piece that takes the Marshal


def value(rank: Rank) -> float:
    """What a piece of ``rank`` is worth to its side, for the cautious level."""
    if rank.role is Role.FLAG:
        return FLAG_VALUE
    if rank.role is Role.BOMB:
        return BOMB_VALUE
    return float(rank.strength or 0) + (SPY_BONUS if rank.strikes_down else 0.0)


class BattleComputer:
    """The computer opponent every game has; ``seed`` makes its choices repeatable."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(
        self, position: Position | View, level: int, *, clock: Callable[[], float], should_stop: Callable[[], bool]
    ) -> ComputerChoice:
        """The move at ``level``, from the side to move's own view: given a position, it
        takes that view of it first; the daemon hands it the view alone."""
        return choose_from_view(_own_view(position), level, self._random, should_stop=should_stop)

    def analyse(
        self, position: Position | View, *, nodes: int | None, seconds: float | None, clock: Callable[[], float]
    ) -> ComputerChoice:
        return choose_from_view(_own_view(position), LEVELS[-1].number, self._random)


def _own_view(position: Position | View) -> View:
    """The side to move's own view of ``position`` (a view already: itself)."""
    return position.view(position.turn) if isinstance(position, Position) else position


def choose_from_view(
    view: View, level: int, rng: random.Random, *, should_stop: Callable[[], bool] = lambda: False
) -> ComputerChoice:
    """The move for the side to move in ``view`` (its own view) at ``level``. Raises
    ValueError when it has no legal move."""
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"{view.turn.label} has no legal move")
    budget = BUDGETS.get(min(level, LEVELS[-1].number))
    if budget is not None:
        found = search(view, budget, rng, should_stop=should_stop)
        facts = {"level": str(level), "score": f"{found.score:.2f}", "samples": str(found.samples)}
        return ComputerChoice(found.move, {**facts, "nodes": str(found.nodes), "moves": str(len(moves))})
    if level <= 1:
        move = rng.choice(moves)
        return ComputerChoice(move, {"level": str(level), "moves": str(len(moves))})
    scores = {move: score(view, move) for move in moves}
    best = max(scores.values())
    move = rng.choice([move for move in moves if scores[move] >= best - 1e-9])
    return ComputerChoice(move, {"level": str(level), "score": f"{best:.2f}", "moves": str(len(moves))})


def score(view: View, move: Move) -> float:
    """What ``move`` is expected to gain the side to move, from ``view`` alone."""
    pieces = view.pieces()
    mover = pieces[move.origin]
    assert mover.rank is not None  # the side to move sees its own ranks
    rank = mover.rank
    if move.is_strike:
        return sum(
            chance * _gain(rank, struck)
            for struck, chance in _chances(view, pieces[move.target], view.turn.opponent).items()
        )
    field = view.field
    (_, y0), (_, y1) = field.coordinates(move.origin), field.coordinates(move.target)
    gained = 0.1 * (y1 - y0) * field.forward(view.turn)
    if field.distance(move.origin, move.target) > 1 and mover.shown is not Shown.REVEALED:
        gained -= 0.2  # a run shows the Scout for what it is
    for ray in field.rays(move.target):
        neighbour = pieces.get(ray[0]) if ray else None
        if neighbour is None or neighbour.side is view.turn or neighbour.rank is None:
            continue
        if neighbour.rank.can_move and resolve_strike(neighbour.rank, rank) is not StrikeResult.DEFENDER_WINS:
            gained -= value(rank)  # it would be struck down next
    return gained


def _gain(attacker: Rank, defender: Rank) -> float:
    result = resolve_strike(attacker, defender)
    if result is StrikeResult.ATTACKER_WINS:
        return value(defender)
    if result is StrikeResult.DEFENDER_WINS:
        return -value(attacker)
    return value(defender) - value(attacker)


def _chances(view: View, piece: SeenPiece, side: Side) -> dict[Rank, float]:
    """The ranks ``piece`` of ``side`` may have, with their chances, as ``view`` knows."""
    if piece.rank is not None:
        return {piece.rank: 1.0}
    unknown = view.unknown_ranks(side)
    if piece.shown is Shown.MOVED:
        unknown = Counter({rank: count for rank, count in unknown.items() if rank.can_move})
    total = sum(unknown.values())
    if total == 0:  # a hand-made position that no game reaches: count every rank alike
        return {rank: 1.0 / len(view.field.army.ranks) for rank in view.field.army}
    return {rank: count / total for rank, count in unknown.items()}
