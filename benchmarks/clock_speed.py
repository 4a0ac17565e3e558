"""What a game clock costs the daemon's loop, against what the referee already costs it.

Per tick (the loop runs up to 200 times a second while pieces move): the clock asked
whether a flag fell, whether a side is to be warned of low time, and what the screens
show (``flagged``, ``low_time_side`` and ``display``). Per
move: ``move_accepted`` and the snapshot put in JSON for the record. The reference,
in the same run: the referee taking one sensor change, over whole games as
``benchmarks/referee_speed.py`` feeds them (run it from the repository's root: it
imports ``tests.hand_model``). Budget, on the development machine (a
tenth of a Pi Zero 2 W's): the clock's tick under 0.02 ms (0.4 % of a 200 Hz tick), its
move under 0.1 ms, and a tick costing less than one sensor change costs the referee
(the ratio, which does not depend on the machine's speed).

    python -m benchmarks.clock_speed [--rounds 20000] [--games 8]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import referee_speed
from firmware_host.clocks import GameClock, TimeControl
from firmware_host.games.base import Side

TICK_BUDGET_MS = 0.02
MOVE_BUDGET_MS = 0.1
RATIO_BUDGET = 1.0  # the clock adds to a tick less than one sensor change costs the referee


def per_tick(rounds: int) -> list[float]:
    """ms per tick of a running clock: the flag, the low-time warning, and both faces."""
    clock = GameClock.new(TimeControl.from_text("600+5"), first=Side.RED).move_accepted(Side.RED, 0)
    times = []
    for now in range(rounds):
        began = time.perf_counter_ns()
        clock.flagged(now)
        clock.low_time_side(now)
        clock.display(now)
        times.append((time.perf_counter_ns() - began) / 1e6)
    return times


def per_move(rounds: int) -> list[float]:
    """ms per accepted move: the switch, and the snapshot in JSON."""
    clock = GameClock.new(TimeControl.from_text("600 bronstein 5"), first=Side.RED)
    times = []
    for move in range(rounds):
        now = move * 1_000
        began = time.perf_counter_ns()
        clock = clock.move_accepted(clock.to_move, now)
        json.dumps(clock.snapshot(now))
        times.append((time.perf_counter_ns() - began) / 1e6)
        if move % 1_000 == 999:  # a long game of 1 s moves would flag at last: a new one
            clock = GameClock.new(TimeControl.from_text("600 bronstein 5"), first=Side.RED)
    return times


def referee_change(games: int) -> list[float]:
    """ms per sensor change the referee takes, over whole games made by the hand model
    (``benchmarks.referee_speed``'s own measurement)."""
    with tempfile.TemporaryDirectory() as folder:
        times, _, _ = referee_speed.per_change(games, Path(folder))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="ticks and moves each (default 20000)")
    parser.add_argument("--games", type=int, default=8, help="games the referee is fed, the reference (default 8)")
    args = parser.parse_args(argv)
    tick = statistics.median(per_tick(args.rounds))
    move = statistics.median(per_move(args.rounds))
    change = statistics.median(referee_change(args.games))
    ratio = tick / change
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(f"clock per tick (flagged + low_time_side + display): median {tick * 1000:.2f} us")
    print(f"clock per move (move_accepted + snapshot in JSON): median {move * 1000:.2f} us")
    print(f"reference, the referee per sensor change: median {change * 1000:.2f} us")
    print(f"ratio, clock tick / referee change: {ratio:.3f}")
    within = tick < TICK_BUDGET_MS and move < MOVE_BUDGET_MS and ratio < RATIO_BUDGET
    verdict = "within" if within else "OVER"
    print(
        f"budget: {verdict} (tick under {TICK_BUDGET_MS} ms, move under {MOVE_BUDGET_MS} ms,"
        f" tick under {RATIO_BUDGET:g} referee change)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
