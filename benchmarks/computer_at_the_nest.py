"""The computer opponent at the nest, on this machine: what the players wait, and what
the daemon's loop pays while the engine thinks in its thread.

- the wait: how long each level takes to choose, over positions from random games
  (``Engine.choose`` with the real clock, as the daemon calls it); the strongest
  level's against its budget here (issue 15: ten times these on a Pi Zero 2 W);
- the loop: the daemon (on the libraries' mock devices) turning ``scan_hz`` times a
  second with a game on, while a ``ComputerPlayer`` searches at the strongest level in
  its thread, against the same loop with no search, in one run: how late each turn
  starts and how long it takes (the engine holds the interpreter for up to
  ``sys.getswitchinterval()`` at a time); the ratio of the p99s;
- memory: the growth of the process's peak RSS over the searches.

Run from the repository's root: ``python -m benchmarks.computer_at_the_nest``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.stats import percentile
from firmware_host.daemon import Daemon
from firmware_host.daemon.computer import ComputerPlayer
from firmware_host.daemon.config import load_config
from firmware_host.daemon.loop import SWITCH_INTERVAL_S
from firmware_host.engine import LEVELS, Engine
from firmware_host.games import base
from firmware_host.rules import Position
from sim.mock_devices import open_mock_devices
from tests.hand_model import random_moves


def sample_positions(count: int, seed: int = 1) -> list[Position]:
    """Positions from random games of the three lineups, at random points, not over."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        start = Position.from_lineup(rng.choice(("standard", "advanced-1", "advanced-2")))
        moves = random_moves(rng, start)
        position = start.copy()
        for move in moves[: rng.randrange(max(1, len(moves)))]:
            position.push(move)
        if not position.is_over():
            found.append(position)
    return found


STRONGEST_BUDGET_S = (0.35, 0.5)
"""The strongest level's move here, median and slowest (issue 15's budget: a Raspberry
Pi Zero 2 W runs CPython about ten times slower, so 3.5 s and 5 s there)."""


def choosing_times(positions: list[Position]) -> dict[int, list[float]]:
    """Seconds each level takes to choose, per position."""
    times: dict[int, list[float]] = {}
    for level in LEVELS:
        engine = Engine(seed=0)
        for position in positions:
            began = time.perf_counter()
            engine.choose(position, level, clock=time.monotonic)
            times.setdefault(level.number, []).append(time.perf_counter() - began)
    return times


def peak_rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def loop_turns(daemon: Daemon, seconds: float, hz: int, busy: Callable[[], None]) -> tuple[list[float], list[float]]:
    """Turn the daemon's loop ``hz`` times a second for ``seconds`` of real time, as
    ``Daemon.run`` schedules it, calling ``busy`` each turn (to keep a search going);
    each turn's lateness (its start after the time it was due) and duration, in ms."""
    late, took = [], []
    period = 1 / hz
    due = time.perf_counter()
    end = due + seconds
    while due < end:
        began = time.perf_counter()
        late.append((began - due) * 1000)
        busy()
        daemon.turn()
        took.append((time.perf_counter() - began) * 1000)
        due = max(due + period, time.perf_counter())
        time.sleep(max(0.0, due - time.perf_counter()))
    return late, took


def loop_under_search(seconds: float, positions: list[Position]) -> tuple[tuple[list[float], list[float]], ...]:
    """The loop's lateness and turn times with no search, then with one always running."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(f'[storage]\ndatabase = "{Path(folder) / "games.sqlite"}"\n', encoding="utf-8")
        config = load_config(path)
        devices, switches = open_mock_devices(config)
        switches.set_all(config.matrix[cell] for cell in Position.from_lineup().occupied())
        daemon = Daemon(config, devices)
        daemon.start()
        hz = config.sensors.scan_hz
        quiet = loop_turns(daemon, seconds, hz, lambda: None)
        done = threading.Event()
        queue = list(positions)

        def delivered(history: tuple[base.Move, ...], result: base.ComputerChoice) -> None:
            done.set()

        player = ComputerPlayer(config.game, level_number=len(LEVELS), seed=0, clock=time.monotonic, deliver=delivered)

        started = False

        def keep_searching() -> None:  # as the daemon does: the next search once one is done
            nonlocal started
            if not started or done.is_set():
                started = True
                done.clear()
                queue.append(queue.pop(0))
                player.delivered()
                player.want(queue[0])

        searching = loop_turns(daemon, seconds, hz, keep_searching)
        player.close()
        daemon.close()
    return quiet, searching


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20, help="positions each level chooses in (default 20)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of loop for each measure (default 10)")
    args = parser.parse_args(argv)
    positions = sample_positions(args.positions)
    print(
        f"Python {platform.python_version()} on {platform.machine()},"
        f" the daemon's switch interval {SWITCH_INTERVAL_S * 1000:g} ms"
        f" (Python's {sys.getswitchinterval() * 1000:g} ms)"
    )
    rss_before = peak_rss_mb()
    for number, seconds in choosing_times(positions).items():
        median, slowest = statistics.median(seconds), max(seconds)
        budget = ""
        if number == len(LEVELS):
            most_median, most_slowest = STRONGEST_BUDGET_S
            verdict = "met" if median <= most_median and slowest <= most_slowest else "NOT met"
            budget = f"; budget <= {most_median:g} s / <= {most_slowest:g} s: {verdict}"
        print(
            f"level {number} ({LEVELS[number - 1].name}): chooses in median {median:.3f} s,"
            f" max {slowest:.3f} s over {len(seconds)} positions{budget}"
        )
    print(f"peak RSS grew by {peak_rss_mb() - rss_before:.1f} MB over the searches")
    (quiet_late, quiet_took), (busy_late, busy_took) = loop_under_search(args.seconds, positions)
    for what, late, took in (("no search", quiet_late, quiet_took), ("searching", busy_late, busy_took)):
        print(
            f"loop, {what} ({len(took)} turns): starts late by median {statistics.median(late):.2f} ms,"
            f" p99 {percentile(late, 0.99):.2f} ms; a turn takes median {statistics.median(took):.2f} ms,"
            f" p99 {percentile(took, 0.99):.2f} ms"
        )
    ratio = (percentile(busy_late, 0.99) + percentile(busy_took, 0.99)) / (
        percentile(quiet_late, 0.99) + percentile(quiet_took, 0.99)
    )
    print(f"ratio (p99 lateness + p99 turn, searching / no search): {ratio:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
