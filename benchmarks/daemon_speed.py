"""The daemon's costs on this machine, on the libraries' mock devices.

- one full scan of the 8x8 switch matrix (gpiozero MockFactory pins, lineup on the nest);
- the daemon's CPU use while idle at the default scan rate, and its resident memory
  (``nestref run --mock`` in its own process, measured from /proc);
- switch to command: from the loop turn that reads a change (or reaches a referee
  deadline) to the command sent to the OLED or the LEDs, over whole games played by the
  tests' hand model. (The referee's deliberate waits — debounce, settling — come on top;
  docs/referee.md gives them.)

Budgets: idle CPU under 3 % of one core, RSS under 60 MB, switch-to-command p99 under
5 ms. Run from the repository's root: ``python -m benchmarks.daemon_speed``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from benchmarks.stats import percentile
from firmware_host.daemon import Daemon, open_devices
from firmware_host.daemon.config import load_config
from firmware_host.rules import Position
from hardware.matrix import GpioMatrix
from sim.mock_matrix import MockSwitchMatrix
from tests.hand_model import Hand, random_moves

CPU_BUDGET = 3.0
RSS_BUDGET_MB = 60
LATENCY_BUDGET_MS = 5.0


def scan_time(config: Any) -> list[float]:
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    switches.set_all(config.matrix[cell] for cell in Position.from_lineup().occupied())
    matrix = GpioMatrix(config.sensors.rows, config.sensors.columns, pin_factory=factory)
    times = []
    for _ in range(2000):
        began = time.perf_counter_ns()
        matrix.scan()
        times.append((time.perf_counter_ns() - began) / 1e6)
    matrix.close()
    return times


def idle_process(config_path: str, seconds: float) -> tuple[float, float]:
    """CPU % of one core and RSS in MB of an idle ``nestref run --mock``."""
    nestref = str(Path(sys.executable).parent / "nestref")
    with subprocess.Popen(
        [nestref, "run", "--mock", "--config", config_path], stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "daemon started" in line:
                break
        time.sleep(1.0)  # let start-up work finish
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu_seconds() -> float:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime

        began_cpu, began = cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        cpu = (cpu_seconds() - began_cpu) / (time.monotonic() - began) * 100
        status = Path(f"/proc/{process.pid}/status").read_text()
        rss_kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        process.terminate()
        process.stderr.read()
        process.wait(timeout=20)
    return cpu, rss_kb / 1024


SENT: list[float] = []  # when the devices below were sent each frame


class TimedDummy(dummy):  # type: ignore[misc]  # luma ships no types
    """luma's dummy device, noting when each frame is sent to it."""

    def display(self, image: Any) -> None:
        SENT.append(time.perf_counter())
        super().display(image)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def switch_to_command(config: Any, games: int) -> tuple[list[float], float]:
    """Per loop turn that sent something to the OLED or the LEDs: from the turn's start
    to the command, in ms; and the loop's CPU use in play, in % of one core (its turns'
    CPU time over the game time they cover, turning ``scan_hz`` times a second)."""
    latencies: list[float] = []
    cpu_seconds = game_seconds = 0.0
    for game in range(games):
        factory = MockFactory()
        switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
        devices = open_devices(
            config,
            pin_factory=factory,
            display_device=TimedDummy(width=128, height=64, mode="1"),
            cell_device=TimedDummy(width=8, height=8, mode="1"),
        )
        clock = Clock()
        daemon = Daemon(config, devices, clock=clock)
        rng = random.Random(game)
        start = Position.from_lineup()
        played = random_moves(rng, start)
        switches.set_all(config.matrix[cell] for cell in start.occupied())
        daemon.start()
        events = Hand(rng).game(start, played)
        began, index = clock.now, 0
        end = began + events[-1].time_ms / 1000 + 3
        while clock.now < end:
            clock.now += 1 / config.sensors.scan_hz
            while index < len(events) and began + events[index].time_ms / 1000 <= clock.now:
                event = events[index]
                switches.set(config.matrix[event.cell], event.occupied)
                index += 1
            SENT.clear()
            turn, cpu = time.perf_counter(), time.process_time()
            daemon.step()
            cpu_seconds += time.process_time() - cpu
            latencies += [(sent - turn) * 1000 for sent in SENT]
        game_seconds += clock.now - began
        daemon.close()
    return latencies, cpu_seconds / game_seconds * 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        config_path = Path(folder) / "config.toml"
        config_path.write_text(f'[storage]\ndatabase = "{Path(folder) / "games.sqlite"}"\n', encoding="utf-8")
        config = load_config(config_path)
        scans = scan_time(config)
        cpu, rss = idle_process(str(config_path), args.idle_seconds)
        latencies, play_cpu = switch_to_command(config, args.games)
    print(f"Python {platform.python_version()} on {platform.machine()}, scan rate {config.sensors.scan_hz} Hz")
    scan_median, scan_p99 = statistics.median(scans), percentile(scans, 0.99)
    print(f"one full matrix scan (8x8, mock pins): median {scan_median:.3f} ms, p99 {scan_p99:.3f} ms")
    idle = f"idle daemon: CPU {cpu:.2f} % of one core (budget {CPU_BUDGET} %)"
    print(f"{idle}, RSS {rss:.1f} MB (budget {RSS_BUDGET_MB} MB)")
    play = f"daemon in play ({config.sensors.scan_hz} Hz): CPU {play_cpu:.1f} % of one core"
    print(f"{play} (the loop's turns; no budget)")
    print(
        f"switch to command ({len(latencies)} commands): median {statistics.median(latencies):.3f} ms,"
        f" p99 {percentile(latencies, 0.99):.3f} ms (budget p99 {LATENCY_BUDGET_MS} ms)"
    )
    within = cpu < CPU_BUDGET and rss < RSS_BUDGET_MB and percentile(latencies, 0.99) < LATENCY_BUDGET_MS
    print(f"budget: {'within' if within else 'over'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
