"""The battle game's computer against its baselines and each level against the one
below: does it win, and how fast does it choose?

Two kinds of match (``--match``):

- ``baselines``: the strongest level against today's level 2 (``cautious``, kept as the
  baseline), a random player and a greedy one-ply player (the strike it expects most
  of, by the counts alone, else any move);
- ``levels``: each searching level against the one below (2v3, 3v4, 4v5, or those
  given by ``--pairs``).

Every game starts from two computer set-ups drawn with fresh seeds (from ``--seed``
and the game's number), the players take red and blue in turn (red moves first), and a
game still going after ``MAX_PLIES`` plies is a draw. The levels play by their counted
budgets, so the games are the same on every machine.

    nice python -m benchmarks.battle_match [--match baselines] [--games 100] [--workers 2] [--seed 0]

For each pairing: the player's wins, draws and losses, its score (a win 1, a draw
0.5) with a 95 % Wilson interval, and the goal (``baselines``: 95 % against random
and greedy, 80 % against cautious; ``levels``: the interval above 50 %). Then the
strongest level's time per move, median and slowest, in milliseconds and as a ratio
to the reference measured in the same run: the time to list the legal moves of the
demo start 100 times; and the most memory its search holds at once.
``docs/battle-computer.md`` gives the figures measured.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
import tracemalloc
from dataclasses import dataclass

from benchmarks.stats import parse_level_pairs, percentile, play_all, tally, timed_ms
from firmware_host.games.base import Side
from firmware_host.games.battle.computer import LEVELS, _chances, _gain, choose_from_view, computer_setup
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import Move
from firmware_host.games.battle.position import Position, View

MAX_PLIES = 1200
STRONGEST = LEVELS[-1].number
BASELINES = {"random": 0.95, "greedy": 0.95, "cautious": 0.80}
PAIRS = tuple((number, number + 1) for number in range(2, STRONGEST))
REFERENCE_ROUNDS = 100


@dataclass(frozen=True)
class Game:
    """One game: ``player`` (a level's number) against ``opponent`` (a baseline's name or
    a level's number), the player's side, the seed of the set-ups and the choices."""

    player: int
    opponent: str
    player_side: Side
    seed: int


@dataclass(frozen=True)
class Played:
    """How a game went, for the player: 1 won, 0.5 drawn, 0 lost; and its times."""

    game: Game
    points: float
    plies: int
    seconds: tuple[float, ...]  # the player's time on each of its moves


def greedy_move(view: View, rng: random.Random) -> Move:
    """The greedy one-ply player's move: the strike whose expected gain by the counts
    alone is highest when one gains, else any legal move."""
    moves = view.legal_moves()
    pieces = view.pieces()
    best, chosen = 0.0, []
    for move in moves:
        if not move.is_strike:
            continue
        rank = pieces[move.origin].rank
        assert rank is not None
        chances = _chances(view, pieces[move.target], view.turn.opponent)
        gain = sum(chance * _gain(rank, struck) for struck, chance in chances.items())
        if gain > best + 1e-9:
            best, chosen = gain, [move]
        elif gain > 0 and abs(gain - best) <= 1e-9:
            chosen.append(move)
    return rng.choice(chosen or moves)


def _choose(who: str, view: View, rng: random.Random) -> Move:
    if who == "greedy":
        return greedy_move(view, rng)
    level = {"random": 1, "cautious": 2}.get(who) or int(who)
    move = choose_from_view(view, level, rng).move
    assert isinstance(move, Move)
    return move


def play(game: Game) -> Played:
    """Play ``game`` to its end (or to :data:`MAX_PLIES`, a draw)."""
    field = Field.default()
    setups = {side: computer_setup(field, side, game.seed * 2 + number) for number, side in enumerate(Side)}
    position = Position.from_setups(field, setups[Side.RED], setups[Side.BLUE], Side.RED)
    rngs = {side: random.Random(game.seed * 7 + number) for number, side in enumerate(Side)}
    seconds: list[float] = []
    while (outcome := position.outcome()) is None and len(position.move_stack) < MAX_PLIES:
        side = position.turn
        view = position.view(side)  # each player is handed its own view alone
        if side is game.player_side:
            started = time.perf_counter()
            move = _choose(str(game.player), view, rngs[side])
            seconds.append(time.perf_counter() - started)
        else:
            move = _choose(game.opponent, view, rngs[side])
        position.push(move)
    points = 0.5 if outcome is None or outcome.winner is None else float(outcome.winner is game.player_side)
    return Played(game, points, len(position.move_stack), tuple(seconds))


def schedule(pairings: list[tuple[int, str]], games: int, seed: int) -> list[Game]:
    """``games`` games of each pairing, sides in turn, each with its own seed."""
    return [
        Game(player, opponent, (Side.RED, Side.BLUE)[number % 2], seed * 1_000_003 + index * 10_007 + number)
        for index, (player, opponent) in enumerate(pairings)
        for number in range(games)
    ]


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """``"4v5,2v3"`` as ``[(4, 5), (2, 3)]``: adjacent levels from 2 up, lower first.
    Raises ValueError for anything else."""
    return parse_level_pairs(text, PAIRS)


def reference_ms() -> float:
    """The reference time: listing the demo start's legal moves ``REFERENCE_ROUNDS``
    times, in milliseconds (the median of a few tries)."""
    position = Position.from_lineup(Field.default(), "demo", Side.RED)

    def lists() -> None:
        for _ in range(REFERENCE_ROUNDS):
            position.legal_moves()

    return percentile(timed_ms(lists, 9), 0.5)


def search_memory_kib(searches: int = 20) -> float:
    """The most memory the strongest level's search holds at once (Python's own
    allocations, by ``tracemalloc``) over ``searches`` moves of a game, in KiB."""
    field = Field.default()
    position = Position.from_setups(
        field, computer_setup(field, Side.RED, 1), computer_setup(field, Side.BLUE, 2), Side.RED
    )
    rng = random.Random(0)
    tracemalloc.start()
    try:
        peak = 0
        for _ in range(searches):
            if position.is_over():
                break
            tracemalloc.reset_peak()
            move = _choose(str(STRONGEST), position.view(position.turn), rng)
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            position.push(move)
    finally:
        tracemalloc.stop()
    return peak / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", choices=("baselines", "levels"), default="baselines", help="which match to play")
    parser.add_argument("--games", type=int, default=100, help="games of each pairing (default 100)")
    parser.add_argument("--pairs", default=None, help="for --match levels: such as 4v5,3v4 (default: all)")
    parser.add_argument("--against", default=None, help="for --match baselines: such as cautious,greedy (default all)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing at once (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the whole match (default 0)")
    args = parser.parse_args(argv)
    try:
        if args.match == "levels":
            pairings = [(high, str(low)) for low, high in (parse_pairs(args.pairs) if args.pairs else PAIRS)]
        else:
            names = args.against.split(",") if args.against else list(BASELINES)
            unknown = [name for name in names if name not in BASELINES]
            if unknown:
                raise ValueError(f"no baseline {unknown[0]!r} (choose from {', '.join(BASELINES)})")
            pairings = [(STRONGEST, name) for name in names]
    except ValueError as error:
        parser.error(str(error))  # exits with status 2

    reference = reference_ms()
    games = schedule(pairings, args.games, args.seed)
    played, elapsed = play_all(play, games, args.workers, progress_every=20)
    print(
        f"Python {platform.python_version()} on {platform.machine()}: {args.match}, {args.games} games a pairing, "
        f"seed {args.seed}, {elapsed:.0f} s"
    )
    for player, opponent in pairings:
        mine = [result for result in played if (result.game.player, result.game.opponent) == (player, opponent)]
        results = tally([result.points for result in mine])
        plies = sum(result.plies for result in mine) / max(1, len(mine))
        if args.match == "levels":
            verdict = "shown stronger" if results.low > 0.5 else "shown weaker" if results.high < 0.5 else "not shown"
            goal = f"interval above 50 %: {verdict}"
        else:
            wanted = BASELINES[opponent]
            goal = f"goal >= {100 * wanted:.0f} %: {'met' if results.rate >= wanted else 'NOT met'}"
        print(
            f"level {player} vs {opponent}: {results.wins} won, {results.draws} drawn, {results.losses} lost; "
            f"score {100 * results.rate:.1f} % (95 % CI {100 * results.low:.1f}-{100 * results.high:.1f} %), "
            f"{plies:.0f} plies a game; {goal}"
        )
    strongest = [1000 * s for result in played if result.game.player == STRONGEST for s in result.seconds]
    if strongest:
        median, slowest = percentile(strongest, 0.5), max(strongest)
        print(
            f"level {STRONGEST} time per move: median {median:.0f} ms, slowest {slowest:.0f} ms over "
            f"{len(strongest)} moves; reference ({REFERENCE_ROUNDS} move lists of the demo start) {reference:.1f} ms: "
            f"median {median / reference:.2f}x, slowest {slowest / reference:.2f}x the reference"
        )
        print(f"level {STRONGEST} search memory: at most {search_memory_kib():.0f} KiB held at once over 20 moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
