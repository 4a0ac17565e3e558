"""The computer opponent's levels against each other: is each one stronger than the
one below it?

Each adjacent pair of levels (1v2, 2v3, 3v4, 4v5, or those given by ``--pairs``)
plays ``--games`` games. The upper levels make no deliberate mistakes and the lower
ones draw theirs from the position, so from a lineup alone the same few games would
repeat: every game starts after a few random legal plies instead (2 to 4, seeded by
the opening's number), and each opening is played twice, the higher level taking red
in one game and blue in the other. The openings go through the three lineups in turn,
red making the first random ply. The levels play by their node budgets without their
time caps (no clock), so the games are the same on every machine.

    nice python -m benchmarks.engine_levels [--pairs 4v5,3v4] [--games 60] [--workers 2] [--seed 0]

(from the repository's root; ``--scale 0.1`` plays with a tenth of the node budgets,
for a quick trial.)

For each pair, the higher level's wins, draws and losses, its score (a win 1, a draw
0.5) with a 95 % Wilson confidence interval, and whether the interval lies above 50 %
(the higher level is shown to be stronger), below it (shown to be weaker) or across
it (not shown either way). ``docs/engine.md`` gives the figures measured.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass, replace

from benchmarks.stats import parse_level_pairs, play_all, tally
from firmware_host.games.cuckoo.engine import LEVELS, Engine, Level, level
from firmware_host.games.cuckoo.rules import Position, Side

LINEUPS = ("standard", "advanced-1", "advanced-2")
PAIRS = tuple((number, number + 1) for number in range(1, len(LEVELS)))
OPENING_PLIES = (2, 4)  # the fewest and the most random plies before the levels play


@dataclass(frozen=True)
class Game:
    """One game to play: the two levels, the opening, the higher level's side."""

    lower: int
    higher: int
    lineup: str
    opening_seed: int
    higher_side: Side
    scale: float = 1.0  # the levels' node budgets are multiplied by this (1: as they are)


@dataclass(frozen=True)
class Played:
    """How a game went, for the higher level: 1 won, 0.5 drawn, 0 lost."""

    game: Game
    points: float
    plies: int
    seconds: tuple[float, float]  # the lower and the higher level's time, all their moves
    moves: tuple[int, int]  # the lower and the higher level's moves


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """``"4v5,1v2"`` as ``[(4, 5), (1, 2)]``: adjacent levels only, lower first.

    Raises :class:`ValueError` for anything else.
    """
    return parse_level_pairs(text, PAIRS)


def schedule(pairs: list[tuple[int, int]], games: int, seed: int, scale: float = 1.0) -> list[Game]:
    """``games`` games for each pair: opening ``n // 2`` of game ``n`` from the lineups
    in turn, the higher level red in the even games and blue in the odd ones. The
    openings are the same for every pair."""
    return [
        Game(
            lower,
            higher,
            LINEUPS[(number // 2) % len(LINEUPS)],
            seed * 1_000_003 + number // 2,
            (Side.RED, Side.BLUE)[number % 2],
            scale,
        )
        for lower, higher in pairs
        for number in range(games)
    ]


def opening(lineup: str, seed: int) -> Position:
    """The position after 2 to 4 random legal plies from ``lineup`` (red first), drawn
    by ``seed``: one where the game goes on, so that the levels have a move to make."""
    rng = random.Random(seed)
    while True:
        position = Position.from_lineup(lineup)
        for _ in range(rng.randint(*OPENING_PLIES)):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        if position.outcome() is None and position.legal_moves():
            return position


def scaled(number: int, scale: float) -> Level:
    """Level ``number`` with its node budget multiplied by ``scale`` (at least 1 node)."""
    chosen = level(number)
    if scale == 1.0 or chosen.limits.nodes is None:
        return chosen
    return replace(chosen, limits=replace(chosen.limits, nodes=max(1, round(chosen.limits.nodes * scale))))


def play(game: Game) -> Played:
    """Play ``game`` to its end."""
    position = opening(game.lineup, game.opening_seed)
    start = len(position.move_stack)
    engine = Engine(seed=game.opening_seed)
    levels = {
        game.higher_side: scaled(game.higher, game.scale),
        game.higher_side.opponent: scaled(game.lower, game.scale),
    }
    seconds = {game.lower: 0.0, game.higher: 0.0}
    moves = {game.lower: 0, game.higher: 0}
    while (outcome := position.outcome()) is None:
        mover = levels[position.turn]
        started = time.perf_counter()
        result = engine.choose(position, mover)
        seconds[mover.number] += time.perf_counter() - started
        moves[mover.number] += 1
        position.push(result.move)
    points = 0.5 if outcome.winner is None else 1.0 if outcome.winner is game.higher_side else 0.0
    return Played(
        game,
        points,
        len(position.move_stack) - start,
        (seconds[game.lower], seconds[game.higher]),
        (moves[game.lower], moves[game.higher]),
    )


def verdict(low: float, high: float) -> str:
    """Whether the interval ``low``..``high`` of the higher level's score lies above 50 %."""
    if low > 0.5:
        return "yes"
    if high < 0.5:
        return "no, below"
    return "not shown"


def report(pair: tuple[int, int], played: list[Played]) -> str:
    """One line: the higher level's results against the lower one."""
    lower, higher = pair
    mine = [result for result in played if (result.game.lower, result.game.higher) == pair]
    results = tally([result.points for result in mine])
    wins, draws, losses, score = results.wins, results.draws, results.losses, results.score
    low, high, rate = results.low, results.high, results.rate
    plies = sum(result.plies for result in mine) / max(1, len(mine))
    red = sum(result.points for result in mine if result.game.higher_side is Side.RED)
    blue = score - red
    per_move = [
        sum(result.seconds[index] for result in mine) / max(1, sum(result.moves[index] for result in mine))
        for index in (0, 1)
    ]
    return (
        f"level {higher} ({LEVELS[higher - 1].name}) vs level {lower} ({LEVELS[lower - 1].name}): "
        f"{wins} won, {draws} drawn, {losses} lost; score {100 * rate:.1f} % "
        f"(95 % CI {100 * low:.1f}-{100 * high:.1f} %); as red {red:g}, as blue {blue:g}; "
        f"{plies:.0f} plies a game; {per_move[1]:.2f} / {per_move[0]:.2f} s a move; "
        f"above 50 %: {verdict(low, high)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_pairs = ",".join(f"{a}v{b}" for a, b in PAIRS)
    parser.add_argument(
        "--pairs", type=parse_pairs, default=list(PAIRS), help=f"the pairs to play (default {default_pairs})"
    )
    parser.add_argument("--games", type=int, default=60, help="games for each pair (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing at once (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the openings (default 0)")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply the node budgets by this, for a quick trial (default 1)"
    )
    args = parser.parse_args(argv)

    pairs: list[tuple[int, int]] = args.pairs
    games = schedule(pairs, args.games, args.seed, args.scale)
    played, elapsed = play_all(play, games, args.workers, progress_every=10)

    print(
        f"Python {platform.python_version()} on {platform.machine()}: levels by their node budgets"
        f"{f' x {args.scale:g}' if args.scale != 1.0 else ''}, "
        f"{args.games} games a pair (openings of {OPENING_PLIES[0]}-{OPENING_PLIES[1]} random plies, each "
        f"played with both colours), seed {args.seed}, {elapsed:.0f} s"
    )
    for pair in pairs:
        print(report(pair, played))
    return 0


if __name__ == "__main__":
    sys.exit(main())
