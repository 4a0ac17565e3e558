"""How long the referee takes per sensor change, replaying long logs.

Logs of whole games are made by the tests' hand model (slides, bounces, captures in
every order, hesitation, fast replies) from all three lineups; each change is fed to the
referee as the daemon would, and the time of each call is taken. Budget, on the
development machine: median under 0.2 ms and p99 under 2 ms per change. The time to
commit an accepted move to SQLite on disk (WAL, synchronous=FULL) is measured too, on
its own: it happens once per move, not per change.

    python -m benchmarks.referee_speed [--games 60]

Run it from the repository's root (it imports ``tests.hand_model``).
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

from benchmarks.stats import percentile
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.signals import MoveAccepted
from firmware_host.referee.store import GameStore
from firmware_host.rules import Nest, Position, Side
from tests.hand_model import Hand, random_moves

MEDIAN_BUDGET_MS = 0.2
P99_BUDGET_MS = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games to replay (default 60)")
    args = parser.parse_args(argv)

    nest = Nest.default()
    per_change: list[float] = []
    moves = 0
    commit_times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder) / "bench.sqlite", nest=nest, clock=time.time)
        for game in range(args.games):
            rng = random.Random(game)
            lineup = nest.lineup_names[game % len(nest.lineup_names)]
            start = Position.from_lineup(lineup, turn=rng.choice(list(Side)))
            played = random_moves(rng, start)
            events = Hand(rng).game(start, played)
            referee = Referee(nest, settings=Settings(), lineup=lineup, occupied=start.occupied(), now=0)
            store.record(referee.begin_game(start.copy(), now=0), referee_ms=0)
            for event in events:
                began = time.perf_counter_ns()
                signals = referee.sense(event.cell, event.occupied, event.time_ms)
                per_change.append((time.perf_counter_ns() - began) / 1e6)
                if signals:
                    began = time.perf_counter_ns()
                    store.record(signals, referee_ms=event.time_ms)
                    if any(isinstance(signal, MoveAccepted) for signal in signals):
                        commit_times.append((time.perf_counter_ns() - began) / 1e6)
            while (due := referee.next_deadline()) is not None:
                store.record(referee.tick(due), referee_ms=due)
            moves += len(played)
        store.close()

    median, p99 = statistics.median(per_change), percentile(per_change, 0.99)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{args.games} games, {moves} moves, {len(per_change)} sensor changes")
    print(
        f"per change: median {median:.3f} ms, p99 {p99:.3f} ms, max {max(per_change):.3f} ms "
        f"(budget: median {MEDIAN_BUDGET_MS} ms, p99 {P99_BUDGET_MS} ms)"
    )
    if commit_times:
        print(
            f"commit of an accepted move to SQLite on disk: median {statistics.median(commit_times):.2f} ms, "
            f"p99 {percentile(commit_times, 0.99):.2f} ms"
        )
    verdict = "within" if median < MEDIAN_BUDGET_MS and p99 < P99_BUDGET_MS else "over"
    print(f"budget: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
