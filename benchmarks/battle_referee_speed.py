"""How long the referee takes per sensor change in the battle game, against Operation
Cuckoo's in the same run (the reference: ``benchmarks.referee_speed``'s games).

Battle games are made by ``tests.battle_hands`` (random set-ups, then random legal moves
played with bounces, wobbles, slides, strikes in three gestures, hesitation, illegal
attempts undone and swapped pairs), as a latching scanner logs them. The set-up's pieces
are put down too, so the players' set-up phase is timed with the game. Each change is fed
to the referee as the daemon would, with the decisions that fall due before the next
change; the time of each change is that of its ``sense`` call and of those ticks.

Budget, on the development machine (a tenth of a Pi Zero 2 W's): median under 0.2 ms and
p99 under 2 ms per change, as for Operation Cuckoo; the ratio of the medians and of the
p99s is printed, so that the figures do not depend on the machine.

    python -m benchmarks.battle_referee_speed [--games 24] [--plies 150]

Run it from the repository's root (it imports ``tests.battle_hands``).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.referee_speed import MEDIAN_BUDGET_MS, P99_BUDGET_MS, per_change
from benchmarks.stats import percentile
from firmware_host.games.base import Side
from firmware_host.referee.referee import Referee, Settings
from tests.battle_hands import play_battle_game
from tests.battle_helpers import GAME


def battle_per_change(games: int, plies: int) -> tuple[list[float], int]:
    """The time of every change (ms), and the moves played."""
    times: list[float] = []
    moves = 0
    for game in range(games):
        played = play_battle_game(random.Random(game), plies, illegal=0.2, swap=0.1)
        referee = Referee(GAME, settings=Settings(), lineup="demo", occupied=(), now=0)
        referee.await_setup(now=0)
        for side in Side:
            referee.give_setup(played.setups[side], 0)
        events = played.events
        for index, event in enumerate(events):
            began = time.perf_counter_ns()
            referee.sense(event.cell, event.occupied, event.time_ms)
            upto = events[index + 1].time_ms if index + 1 < len(events) else None
            while (due := referee.next_deadline()) is not None and (upto is None or due < upto):
                referee.tick(due)
            times.append((time.perf_counter_ns() - began) / 1e6)
        moves += len(played.moves)
    return times, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="battle games to replay (default 24)")
    parser.add_argument("--plies", type=int, default=150, help="moves at most in each (default 150)")
    parser.add_argument("--reference-games", type=int, default=16, help="Operation Cuckoo games (default 16)")
    args = parser.parse_args(argv)
    battle, moves = battle_per_change(args.games, args.plies)
    with tempfile.TemporaryDirectory() as folder:
        cuckoo, _, cuckoo_moves = per_change(args.reference_games, Path(folder))
    median, p99 = statistics.median(battle), percentile(battle, 0.99)
    ref_median, ref_p99 = statistics.median(cuckoo), percentile(cuckoo, 0.99)
    print(f"battle: {len(battle):,} changes, {moves:,} moves, {args.games} games")
    print(f"per change: median {median:.3f} ms, p99 {p99:.3f} ms, max {max(battle):.3f} ms")
    print(f"reference, Operation Cuckoo: {len(cuckoo):,} changes, {cuckoo_moves:,} moves:"
          f" median {ref_median:.3f} ms, p99 {ref_p99:.3f} ms")  # fmt: skip
    print(f"ratio, battle / cuckoo: median {median / ref_median:.2f}, p99 {p99 / ref_p99:.2f}")
    print(f"budget: median {MEDIAN_BUDGET_MS} ms, p99 {P99_BUDGET_MS} ms")
    print(f"({platform.machine()}, CPython {platform.python_version()})")
    return 0 if median < MEDIAN_BUDGET_MS and p99 < P99_BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
