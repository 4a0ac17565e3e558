"""The computer opponent against the two baseline players: does it win?

The engine plays at the strongest level's node budget (no time cap: the games are the
same on every machine) against the random player and against the greedy one-ply
player (``firmware_host/games/cuckoo/engine/baselines.py``), from all three lineups in turn, taking
red and blue in turn (red starts every game), every game seeded by its number.

    python -m benchmarks.engine_match [--games 100] [--nodes N] [--workers 2] [--seed 0]

For each opponent: wins, draws and losses of the engine, its score (a win 1, a draw
0.5) with a 95 % Wilson confidence interval, and whether the goal is met (a score of
at least 95 % against random, 80 % against greedy). Then the engine's speed over all
its moves. ``docs/engine.md`` gives the figures measured.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass

from benchmarks.stats import play_all, tally
from firmware_host.games.cuckoo.engine import LEVELS, Engine, Limits, greedy_move, random_move
from firmware_host.games.cuckoo.engine.board import BoardTables
from firmware_host.games.cuckoo.engine.evaluation import Evaluator
from firmware_host.games.cuckoo.rules import Nest, Position, Side

LINEUPS = ("standard", "advanced-1", "advanced-2")
GOALS = {"random": 0.95, "greedy": 0.80}


@dataclass(frozen=True)
class Game:
    """One game to play: the opponent, the lineup, the engine's side, the seed."""

    opponent: str
    lineup: str
    engine_side: Side
    seed: int
    nodes: int


@dataclass(frozen=True)
class Played:
    """How a game went, for the engine: 1 won, 0.5 drawn, 0 lost."""

    game: Game
    points: float
    plies: int
    engine_nodes: int
    engine_seconds: float


def schedule(games: int, nodes: int, seed: int) -> list[Game]:
    """``games`` games against each opponent: lineups in turn, sides in turn."""
    return [
        Game(opponent, LINEUPS[number % 3], (Side.RED, Side.BLUE)[number % 2], seed * 1_000_003 + number, nodes)
        for opponent in GOALS
        for number in range(games)
    ]


def play(game: Game) -> Played:
    """Play ``game`` to its end."""
    position = Position.from_lineup(game.lineup)
    engine = Engine(seed=game.seed)
    rng = random.Random(game.seed)
    evaluator = Evaluator(BoardTables(Nest.default()))
    limits = Limits(nodes=game.nodes)
    nodes, seconds = 0, 0.0
    while (outcome := position.outcome()) is None:
        if position.turn is game.engine_side:
            started = time.perf_counter()
            result = engine.search(position, limits)
            seconds += time.perf_counter() - started
            nodes += result.nodes
            move = result.move
        elif game.opponent == "random":
            move = random_move(position, rng)
        else:
            move = greedy_move(position, rng, evaluator=evaluator)
        position.push(move)
    points = 0.5 if outcome.winner is None else 1.0 if outcome.winner is game.engine_side else 0.0
    return Played(game, points, len(position.move_stack), nodes, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    strongest = LEVELS[-1]
    budget = strongest.limits.nodes
    parser.add_argument("--games", type=int, default=100, help="games against each opponent (default 100)")
    parser.add_argument("--nodes", type=int, default=budget, help=f"the engine's nodes per move (default {budget})")
    parser.add_argument("--workers", type=int, default=2, help="processes playing at once (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the whole match (default 0)")
    args = parser.parse_args(argv)

    games = schedule(args.games, args.nodes, args.seed)
    played, elapsed = play_all(play, games, args.workers, progress_every=20)

    print(
        f"Python {platform.python_version()} on {platform.machine()}: engine at {args.nodes} nodes a move "
        f"(level {strongest.number}, {strongest.name}), {args.games} games per opponent, seed {args.seed}, "
        f"{elapsed:.0f} s"
    )
    for opponent, goal in GOALS.items():
        mine = [result for result in played if result.game.opponent == opponent]
        results = tally([result.points for result in mine])
        wins, draws, losses = results.wins, results.draws, results.losses
        low, high, rate = results.low, results.high, results.rate
        verdict = "met" if rate >= goal else "NOT met"
        plies = sum(result.plies for result in mine) / max(1, len(mine))
        print(
            f"vs {opponent}: {wins} won, {draws} drawn, {losses} lost; score {100 * rate:.1f} % "
            f"(95 % CI {100 * low:.1f}-{100 * high:.1f} %), {plies:.0f} plies a game; "
            f"goal >= {100 * goal:.0f} %: {verdict}"
        )
    nodes = sum(result.engine_nodes for result in played)
    seconds = sum(result.engine_seconds for result in played)
    print(f"engine speed: {nodes / seconds if seconds else 0:,.0f} nodes/s over {nodes:,} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
