"""Does a lineup hand the starter the game? The strongest level against itself.

For each lineup (and, for comparison, the two earlier reconstructions of ``advanced-2``,
its cuckoo on ``a3`` and then on ``b3``, each of which handed the starter a forced win),
two figures in one run:

- the search from the start, to ``--depth`` plies, for the side to move: a proved win
  or loss is printed as such (``win in 4``), anything else as the score;
- ``--games`` games of the strongest level against itself. The strongest level makes
  no deliberate mistakes, so from a lineup alone every game would be the same one:
  each game plays the lineup's first game as it is, then games after two random plies
  (one of each side, seeded by the game's number, so the starter still moves first
  when the levels take over). The split is the starter's wins, draws and losses.

    python -m benchmarks.lineup_balance [--games 36] [--depth 7] [--workers 2] [--seed 0] [LINEUP ...]
    python -m benchmarks.lineup_balance --prove 13 [LINEUP ...]

``--prove PLIES`` instead searches every line exhaustively (no engine, no evaluation:
the rules alone) for a forced win of the starter within that many plies, from each
lineup, deepening two plies at a time. ``docs/engine.md`` gives the figures measured.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass

from benchmarks.stats import play_all, tally
from firmware_host.games.cuckoo.engine import LEVELS, Engine, Limits
from firmware_host.games.cuckoo.rules import Move, Position, Side

ADVANCED_2_ON_A3 = "ew1we/eeeeee/eeeeeec/8/9/8/CEEEEEE/EEEEEE/EW1WE r"  # cuckoos on a3 and g7
ADVANCED_2_ON_B3 = "ew1we/eeeeee/eeeeece/8/9/8/ECEEEEE/EEEEEE/EW1WE r"  # cuckoos on b3 and f7
STARTS = {
    "standard": Position.from_lineup("standard").to_nfn(),
    "advanced-1": Position.from_lineup("advanced-1").to_nfn(),
    "advanced-2": Position.from_lineup("advanced-2").to_nfn(),
    "advanced-2 as it was (cuckoo on b3)": ADVANCED_2_ON_B3,
    "advanced-2 as it first was (cuckoo on a3)": ADVANCED_2_ON_A3,
}
RANDOM_PLIES = 2


@dataclass(frozen=True)
class Game:
    """One self-play game: the start, and the seed of its random plies (None: none)."""

    start: str
    seed: int | None


def play(game: Game) -> float:
    """The starter's points in ``game``: 1 won, 0.5 drawn, 0 lost."""
    position = Position.from_nfn(game.start)
    starter = position.turn
    if game.seed is not None:
        rng = random.Random(game.seed)
        while True:  # two random plies that leave the game going on
            trial = position.copy()
            for _ in range(RANDOM_PLIES):
                trial.push(rng.choice(trial.legal_moves()))
            if trial.outcome() is None:
                position = trial
                break
    engine = Engine(seed=0)
    strongest = LEVELS[-1]
    while (outcome := position.outcome()) is None:
        position.push(engine.choose(position, strongest).move)
    return 0.5 if outcome.winner is None else 1.0 if outcome.winner is starter else 0.0


def forced_win(position: Position, plies: int, winner: Side, seen: dict[tuple[str, int], bool]) -> bool:
    """Whether ``winner`` wins by force within ``plies`` from ``position``: some move of
    its own, every move of the other side. Exhaustive; ``seen`` remembers positions."""
    outcome = position.outcome()
    if outcome is not None:
        return outcome.winner is winner
    if plies == 0:
        return False
    key = (position.to_nfn(), plies)
    if key not in seen:
        results = (_after(position, move, plies - 1, winner, seen) for move in position.legal_moves())
        seen[key] = any(results) if position.turn is winner else all(results)
    return seen[key]


def _after(position: Position, move: Move, plies: int, winner: Side, seen: dict[tuple[str, int], bool]) -> bool:
    position.push_unchecked(move)  # a move the position generated
    try:
        return forced_win(position, plies, winner, seen)
    finally:
        position.pop()


def prove(plies: int, names: list[str] | None = None) -> None:
    """Print, for each lineup (or only those ``names`` names), the first depth (odd, up
    to ``plies``) with a forced win."""
    for name, start in STARTS.items():
        if names and name not in names:
            continue
        position = Position.from_nfn(start)
        seen: dict[tuple[str, int], bool] = {}
        started = time.perf_counter()
        found = next(
            (depth for depth in range(1, plies + 1, 2) if forced_win(position, depth, position.turn, seen)), None
        )
        verdict = f"the starter wins by force within {found} plies" if found else f"no forced win within {plies} plies"
        print(f"{name}: {verdict} ({len(seen):,} positions, {time.perf_counter() - started:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=36, help="self-play games from each lineup (default 36)")
    parser.add_argument("--depth", type=int, default=7, help="plies searched from each start (default 7)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing at once (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the random plies (default 0)")
    parser.add_argument("--prove", type=int, metavar="PLIES", help="search for a forced win exhaustively instead")
    parser.add_argument("lineups", nargs="*", help="only these lineups, quoted whole (default: all)")
    args = parser.parse_args(argv)
    if args.prove is not None:
        prove(args.prove, args.lineups)
        return 0

    starts = {name: start for name, start in STARTS.items() if not args.lineups or name in args.lineups}
    games = [
        Game(start, None if number == 0 else args.seed * 1_000_003 + number)
        for start in starts.values()
        for number in range(args.games)
    ]
    points, elapsed = play_all(play, games, args.workers, progress_every=12)
    strongest = LEVELS[-1]
    print(
        f"Python {platform.python_version()} on {platform.machine()}: level {strongest.number} "
        f"({strongest.name}) against itself by its node budget, {args.games} games a lineup (the first from "
        f"the lineup, the others after {RANDOM_PLIES} random plies), seed {args.seed}, {elapsed:.0f} s"
    )
    for index, (name, start) in enumerate(starts.items()):
        searched = Engine().search(Position.from_nfn(start), Limits(depth=args.depth))
        mine = points[index * args.games : (index + 1) * args.games]
        results = tally(mine)
        first = {1.0: "the starter won", 0.5: "drawn", 0.0: "the starter lost"}[mine[0]]
        print(
            f"{name}: search to depth {args.depth}: {searched.score_text()} for the starter "
            f"({searched.nodes:,} nodes); self-play: the starter won {results.wins}, drew {results.draws}, "
            f"lost {results.losses} (score {100 * results.rate:.0f} %, 95 % CI {100 * results.low:.0f}-"
            f"{100 * results.high:.0f} %); the game from the lineup itself: {first}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
