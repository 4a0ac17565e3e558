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
"""The strongest level's move here, median and slowest (issue 15's budget table)."""
PI_SLOWER = 10
"""How many times slower a Raspberry Pi Zero 2 W runs CPython than a core here (issue 15's
factor): the budget there is ten times the budget here."""


def choosing_times(positions: list[Position]) -> dict[int, tuple[list[float], list[float]]]:
    """Seconds each level takes to choose, per position: by the wall clock (what the
    players wait) and in CPU time of the thread that searched (what a machine busy with
    other work does not inflate)."""
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


def budget_row(wall: list[float], cpu: list[float]) -> str:
    """The strongest level's row of issue 15's table: its times, its budget here,
    whether it is met, and the factor to a Pi Zero 2 W beside it.

    >>> row = budget_row([0.3, 0.2, 0.4], [0.25, 0.2, 0.3])
    >>> row.split("; x")[0]
    'budget here: median <= 0.35 s, max <= 0.5 s: met (0.300 / 0.400 s; CPU 0.250 / 0.300 s)'
    >>> row.split("; ")[-1]
    'x10 on a Pi Zero 2 W (CPython about ten times slower there): 3.5 s / 5 s'
    >>> budget_row([0.3, 0.6], [0.3, 0.3]).split(":")[1]
    ' median <= 0.35 s, max <= 0.5 s'
    >>> budget_row([0.3, 0.6], [0.3, 0.3]).split(": ")[2].split(" (")[0]
    'NOT met'
    """
    most_median, most_slowest = STRONGEST_BUDGET_S
    median, slowest = statistics.median(wall), max(wall)
    verdict = "met" if median <= most_median and slowest <= most_slowest else "NOT met"
    return (
        f"budget here: median <= {most_median:g} s, max <= {most_slowest:g} s: {verdict}"
        f" ({median:.3f} / {slowest:.3f} s; CPU {statistics.median(cpu):.3f} / {max(cpu):.3f} s);"
        f" x{PI_SLOWER} on a Pi Zero 2 W (CPython about ten times slower there):"
        f" {most_median * PI_SLOWER:g} s / {most_slowest * PI_SLOWER:g} s"
    )


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
    for number, (wall, cpu) in choosing_times(positions).items():
        print(
            f"level {number} ({LEVELS[number - 1].name}): chooses in median {statistics.median(wall):.3f} s,"
            f" max {max(wall):.3f} s over {len(wall)} positions"
            f" (CPU median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s)"
        )
        if number == len(LEVELS):
            print(f"level {number}: {budget_row(wall, cpu)}")
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
