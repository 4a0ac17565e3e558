"""The computer opponent at the nest, on this machine: what the players wait, and what
the daemon's loop pays while the engine thinks in its process; against the budgets of
issue 15 (``benchmarks.daemon_speed.BUDGETS``: a tenth of a Pi Zero 2 W's).

- the wait: how long each level takes to choose, over positions from random games
  (``Engine.choose`` with the real clock, as the daemon's computer calls it);
- the loop: the daemon (on the libraries' mock devices) turning ``scan_hz`` times a
  second with a game on, while a ``ComputerPlayer`` searches at the strongest level in
  its own process, against the same loop with no search, in one run: how late each
  turn starts (the scan period's jitter) and how long it takes; the ratio of the p99s;
- memory: the growth of this process's peak RSS over the searches (the engine's own;
  the daemon's processes at level 5 are measured by ``benchmarks.daemon_speed``).

Run from the repository's root: ``python -m benchmarks.computer_at_the_nest``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.daemon_speed import print_budgets
from benchmarks.stats import percentile
from firmware_host.daemon import Daemon
from firmware_host.daemon.computer import ComputerPlayer
from firmware_host.daemon.config import load_config
from firmware_host.daemon.loop import SWITCH_INTERVAL_S
from firmware_host.games import base
from firmware_host.games.cuckoo.engine import LEVELS, Engine
from firmware_host.games.cuckoo.rules import Position
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


def choosing_times(positions: list[Position]) -> dict[int, tuple[list[float], list[float]]]:
    """Seconds each level takes to choose, per position: by the wall clock (what the
    players wait) and in CPU time of the thread that searched (which other work on a
    shared machine inflates less)."""
    times: dict[int, tuple[list[float], list[float]]] = {}
    for level in LEVELS:
        engine = Engine(seed=0)
        wall, cpu = times.setdefault(level.number, ([], []))
        for position in positions:
            began, began_cpu = time.perf_counter(), time.thread_time()
            engine.choose(position, level, clock=time.monotonic)
            wall.append(time.perf_counter() - began)
            cpu.append(time.thread_time() - began_cpu)
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

        player = ComputerPlayer(config.game, level_number=len(LEVELS), seed=0, deliver=delivered)

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
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores,"
        f" load average {os.getloadavg()[0]:.1f} (other work makes the figures worse),"
        f" the daemon's switch interval {SWITCH_INTERVAL_S * 1000:g} ms"
        f" (Python's {sys.getswitchinterval() * 1000:g} ms)"
    )
    rss_before = peak_rss_mb()
    choosing = choosing_times(positions)
    for number, (seconds, cpu) in choosing.items():
        print(
            f"level {number} ({LEVELS[number - 1].name}): chooses in median {statistics.median(seconds):.3f} s,"
            f" max {max(seconds):.3f} s over {len(seconds)} positions"
            f" (CPU median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s)"
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
    strongest, strongest_cpu = choosing[len(LEVELS)]
    print_budgets(
        {
            "jitter": (percentile(busy_late, 0.99), f"{percentile(quiet_late, 0.99):.2f} ms with no search"),
            "level5-median": (
                statistics.median(strongest),
                f"the engine's; CPU {statistics.median(strongest_cpu):.3f} s",
            ),
            "level5-max": (max(strongest), f"the engine's; CPU {max(strongest_cpu):.3f} s"),
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
