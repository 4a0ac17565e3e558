"""The daemon's costs on this machine, on the libraries' mock devices, against the budgets
of issue 15 (a tenth of a Raspberry Pi Zero 2 W's; see ``FACTOR``).

- one full scan of the 8x8 switch matrix through gpiozero's pin layer, against the
  same scan through one gpiozero device per pin (the reference; MockFactory pins, the
  lineup on the nest);
- the idle daemon: ``nestref run --mock`` in its own process, nobody touching its nest
  (scanning at ``asleep_scan_hz``), its CPU use from /proc, against a bare loop waking
  as often and doing nothing (the reference: what the wake-ups alone cost here), and
  its start, until its first frame on the OLED; and, beside it, a nest still for a
  long think (at ``idle_scan_hz``: no budget row, what a think past 30 s costs);
- the daemon in play: its loop's turns over whole games played by the tests' hand
  model (their CPU time over the game time they cover), plus waking ``scan_hz`` times
  a second (the bare loop again);
- switch to command: from the loop turn that reads a change (or reaches a referee
  deadline) to the command sent to the OLED or the LEDs, split into the commands that
  wait for the record (a move is on disk before any screen shows it: the disk's sync
  comes first, and a bare SQLite commit on the same disk is its reference) and those
  that do not. (The referee's deliberate waits — debounce, settling — come on top;
  docs/referee.md gives them.)
- memory: every process of a daemon whose computer has searched at level 5
  (proportional set sizes, which count a page shared by the processes once; and plain
  RSS, which counts it in each).

Run from the repository's root: ``python -m benchmarks.daemon_speed``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from benchmarks.stats import percentile, timed_ms
from firmware_host.daemon import Daemon, open_devices
from firmware_host.daemon.config import load_config
from firmware_host.games.cuckoo.rules import Position
from hardware.matrix import GpioMatrix
from sim.mock_matrix import MockSwitchMatrix
from tests.hand_model import Hand, random_moves

FACTOR = 10
WHY_FACTOR = (
    "a Pi Zero 2 W (Cortex-A53 cores at 1 GHz) runs CPython about ten times slower than one core of this"
    " machine, so every budget here is a tenth of the Zero's"
)
REPOSITORY = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Budget:
    """One row of issue 15's table: a budget on this machine."""

    what: str
    limit: float
    unit: str
    measured_by: str
    scales: bool = True  # ten times slower on the Zero; memory does not scale so

    def row(self, measured: float | None, note: str = "") -> str:
        """The row as printed: the figure, the budget and whether it is met, the Zero's."""
        if measured is None:
            return f"{self.what}: budget {self.limit:g} {self.unit} (measured by {self.measured_by})"
        verdict = "met" if measured <= self.limit else "NOT met"
        zero = (
            f"on a Zero 2 W x{FACTOR}: {measured * FACTOR:.3g} {self.unit}, budget {self.limit * FACTOR:g}"
            if self.scales
            else "the same on a Zero 2 W (memory does not scale with speed)"
        )
        return (
            f"{self.what}: {measured:.3g} {self.unit} (budget {self.limit:g} {self.unit}: {verdict};"
            f" {zero}){f' — {note}' if note else ''}"
        )


BUDGETS = {
    "idle": Budget("idle daemon CPU (GPIO matrix, no one playing)", 0.3, "% of a core", "daemon_speed"),
    "play": Budget("daemon CPU in play (pieces moving, 200 Hz scanning)", 1.5, "% of a core", "daemon_speed"),
    "latency": Budget("a switch change -> the OLED/LED command, p99", 1.0, "ms", "daemon_speed"),
    "jitter": Budget(
        "scan period jitter while the computer thinks at level 5, p99", 1.0, "ms late", "computer_at_the_nest"
    ),
    "start": Budget("daemon start -> first frame on the OLED", 1.5, "s", "daemon_speed"),
    "memory": Budget("memory (all processes of the daemon) at level 5", 60, "MB", "daemon_speed", scales=False),
    "level5-median": Budget("level 5's move, median", 0.35, "s", "computer_at_the_nest"),
    "level5-max": Budget("level 5's move, max", 0.5, "s", "computer_at_the_nest"),
}


def print_budgets(measured: Mapping[str, tuple[float, str]]) -> None:
    """Every row of the table: those measured here with their figures, the others
    named with the benchmark that measures them."""
    print(f"budgets (x{FACTOR} on a Pi Zero 2 W: {WHY_FACTOR}):")
    for key, budget in BUDGETS.items():
        figure, note = measured.get(key, (None, ""))
        print(f"  {budget.row(figure, note)}")


# -- the scan -----------------------------------------------------------------------------


def lineup_matrix(config: Any) -> tuple[MockFactory, MockSwitchMatrix]:
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    switches.set_all(config.matrix[cell] for cell in Position.from_lineup().occupied())
    return factory, switches


def scan_through_devices(rows: list[Any], columns: list[Any]) -> frozenset[tuple[int, int]]:
    """The reference: the scan as it was, one gpiozero device per pin."""
    closed: set[tuple[int, int]] = set()
    for r, row in enumerate(rows):
        row.off()
        closed.update((r, c) for c, column in enumerate(columns) if column.is_active)
        row.on()
    return frozenset(closed)


def scan_times(config: Any, rounds: int = 2000) -> tuple[list[float], list[float]]:
    """One scan's time in ms, through the pin layer and through devices (same pins)."""
    factory, _ = lineup_matrix(config)
    matrix = GpioMatrix(config.sensors.rows, config.sensors.columns, pin_factory=factory)
    expected = matrix.scan()
    through_pins = timed_ms(matrix.scan, rounds)
    matrix.close()
    rows = [DigitalOutputDevice(pin, initial_value=True, pin_factory=factory) for pin in config.sensors.rows]
    columns = [DigitalInputDevice(pin, pull_up=True, pin_factory=factory) for pin in config.sensors.columns]
    assert scan_through_devices(rows, columns) == expected  # the same reading, or no comparison
    through_devices = timed_ms(lambda: scan_through_devices(rows, columns), rounds)
    for device in (*rows, *columns):
        device.close()
    return through_pins, through_devices


# -- processes ------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """The CPU time of every thread of ``pid`` so far (the scheduler's nanoseconds, finer
    than /proc/PID/stat's ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def family(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                continue  # ended meanwhile
    found, frontier = [pid], [pid]
    while frontier:
        frontier = [child for child, parent in parents.items() if parent in frontier]
        found += frontier
    return found


def memory_mb(pids: list[int]) -> tuple[float, float]:
    """The summed proportional set size and the summed RSS of ``pids``, in MB."""
    pss = rss = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss += int(line.split()[1])
        except OSError:
            continue
    return pss / 1024, rss / 1024


def wait_for(stream: Any, text: str) -> None:
    for line in stream:
        if text in line:
            return
    raise RuntimeError(f"the process ended before saying {text!r}")


def idle_process(config_path: str, seconds: float) -> tuple[float, float]:
    """An idle ``nestref run --mock``: its CPU % of one core, and the seconds from its
    start to its first frame on the OLED (drawn before it logs "daemon started")."""
    nestref = str(Path(sys.executable).parent / "nestref")
    began = time.monotonic()
    with subprocess.Popen(
        [nestref, "run", "--mock", "--config", config_path], stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stderr is not None
        wait_for(process.stderr, "daemon started")
        started = time.monotonic() - began
        time.sleep(1.0)  # let start-up work finish
        began_cpu, began = cpu_seconds(process.pid), time.monotonic()
        time.sleep(seconds)
        cpu = (cpu_seconds(process.pid) - began_cpu) / (time.monotonic() - began) * 100
        process.terminate()
        process.stderr.read()
        process.wait(timeout=20)
    return cpu, started


BARE_LOOP = """
import asyncio, sys, time
def plain(hz, seconds):
    end = time.monotonic() + seconds
    next_at = time.monotonic()
    while time.monotonic() < end:
        next_at = max(next_at + 1 / hz, time.monotonic())
        time.sleep(max(0.0, next_at - time.monotonic()))
async def in_asyncio(hz, seconds):
    end = time.monotonic() + seconds
    next_at = time.monotonic()
    while time.monotonic() < end:
        next_at = max(next_at + 1 / hz, time.monotonic())
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
loop = plain if sys.argv[1] == "plain" else lambda hz, seconds: asyncio.run(in_asyncio(hz, seconds))
loop(float(sys.argv[2]), 1.0)  # warmed up
began, cpu = time.monotonic(), time.process_time()
loop(float(sys.argv[2]), float(sys.argv[3]))
print((time.process_time() - cpu) / (time.monotonic() - began) * 100)
"""


def bare_loop_cpu(kind: str, hz: float, seconds: float) -> float:
    """The reference: CPU % of a bare loop that wakes ``hz`` times a second as the
    daemon's does, and does nothing else: with a plain sleep (``kind`` "plain", as
    ``nestref run`` does), or in asyncio ("asyncio", as with the web page beside it)."""
    output = subprocess.run(
        [sys.executable, "-c", BARE_LOOP, kind, str(hz), str(seconds)], capture_output=True, text=True, check=True
    )
    return float(output.stdout)


def nest_at_level_5(config_path: str) -> None:
    """Run in a process of its own by :func:`level_5_memory`: a daemon on mock devices,
    the lineup on the nest, the computer playing red at level 5; it runs until stdin
    closes."""
    from firmware_host.logs import setup_logging
    from sim.mock_devices import open_mock_devices

    config = load_config(config_path)
    setup_logging(config.log_level)
    devices, switches = open_mock_devices(config)
    switches.set_all(config.matrix[cell] for cell in Position.from_lineup().occupied())
    daemon = Daemon(config, devices)

    async def run() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_reader(sys.stdin.fileno(), stop.set)
        daemon.start()
        await daemon.run(stop)

    try:
        asyncio.run(run())
    finally:
        daemon.close()


def level_5_memory(folder: Path, timeout: float = 120.0) -> tuple[float, float, int]:
    """The daemon's processes' memory (PSS and RSS sums, MB) once its computer has chosen
    a move at level 5, and how many processes there are. The daemon is started with
    ``python -c``, as ``nestref`` starts it, so that the computer's process imports no
    benchmark."""
    config_path = folder / "level5.toml"
    database = folder / "level5.sqlite"
    config_path.write_text(
        f'[storage]\ndatabase = "{database}"\n[players]\nred = "computer"\nlevel = 5\n', encoding="utf-8"
    )
    code = f"from benchmarks.daemon_speed import nest_at_level_5; nest_at_level_5({str(config_path)!r})"
    with subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=REPOSITORY,
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None and process.stdin is not None
        wait_for(process.stderr, "the computer chose")
        pids = family(process.pid)
        pss, rss = memory_mb(pids)
        process.stdin.close()
        process.stderr.read()
        process.wait(timeout=timeout)
    return pss, rss, len(pids)


# -- in play --------------------------------------------------------------------------------


SENT: list[tuple[float, float]] = []  # when the devices below were sent each frame: wall, thread CPU


class TimedDummy(dummy):  # type: ignore[misc]  # luma ships no types
    """luma's dummy device, noting when each frame is sent to it."""

    def display(self, image: Any) -> None:
        SENT.append((time.perf_counter(), time.thread_time()))
        super().display(image)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class PlayFigures:
    unrecorded: list[float]  # ms from the turn's start to a command, turns that wrote nothing to the record
    recorded: list[float]  # the same, turns that wrote to the record first
    unrecorded_cpu: list[float]  # as unrecorded, in the thread's CPU time: the machine's other work left out
    cpu: float  # the turns' CPU, % of the game time
    recorded_less_sync: list[float] = field(default_factory=list)  # recorded, less the turn's COMMITs
    syncs: list[float] = field(default_factory=list)  # ms each turn that recorded spent in its COMMITs


class TimedCommits:
    """The record's connection, with the time its COMMITs take added up: a recorded
    move waits for the disk's sync on purpose (it is on disk before any screen shows
    it), and that wait is the disk's, not the CPU's (an SD card's on the Pi, which the
    factor of ten says nothing of), so it is reported beside the budget, not in it."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.seconds = 0.0

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql != "COMMIT":
            return self._db.execute(sql, *args)
        began = time.perf_counter()
        try:
            return self._db.execute(sql)
        finally:
            self.seconds += time.perf_counter() - began

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def record_versions(database: str) -> Iterator[int]:
    """SQLite's ``data_version`` of the record, seen from a connection of our own: it
    changes when another connection (the daemon's) has committed a write."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        while True:
            yield db.execute("PRAGMA data_version").fetchone()[0]


def switch_to_command(config: Any, games: int) -> PlayFigures:
    """Per loop turn that sent something to the OLED or the LEDs: from the turn's start
    to the command, in ms, split by whether the turn wrote to the record (its
    ``data_version`` changed); and the loop's CPU use in play, in % of one core (its turns'
    CPU time over the game time they cover, turning ``scan_hz`` times a second)."""
    figures = PlayFigures([], [], [], 0.0)
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
        store = daemon.record.store  # the record the daemon writes, its commits timed
        assert store is not None
        commits = TimedCommits(store._db)
        store._db = commits  # type: ignore[assignment]
        events = Hand(rng).game(start, played)
        began, index = clock.now, 0
        end = began + events[-1].time_ms / 1000 + 3
        written = record_versions(config.database)
        while clock.now < end:
            clock.now += 1 / config.sensors.scan_hz
            while index < len(events) and began + events[index].time_ms / 1000 <= clock.now:
                event = events[index]
                switches.set(config.matrix[event.cell], event.occupied)
                index += 1
            SENT.clear()
            before = next(written)
            commits.seconds = 0.0
            turn, cpu, thread_cpu = time.perf_counter(), time.process_time(), time.thread_time()
            daemon.step()
            cpu_seconds += time.process_time() - cpu
            if next(written) != before:
                figures.recorded += [(sent - turn) * 1000 for sent, _ in SENT]
                figures.recorded_less_sync += [(sent - turn - commits.seconds) * 1000 for sent, _ in SENT]
                figures.syncs.append(commits.seconds * 1000)
            else:
                figures.unrecorded += [(sent - turn) * 1000 for sent, _ in SENT]
                figures.unrecorded_cpu += [(sent_cpu - thread_cpu) * 1000 for _, sent_cpu in SENT]
        game_seconds += clock.now - began
        daemon.close()
    figures.cpu = cpu_seconds / game_seconds * 100
    return figures


def commit_times(folder: Path, rounds: int = 200) -> list[float]:
    """The reference for a recorded move: one small SQLite commit, write-ahead log and
    synchronous=FULL as the record is kept, on the same disk, in ms."""
    with sqlite3.connect(folder / "commits.sqlite", isolation_level=None) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, move TEXT)")
        times = []
        for number in range(rounds):
            began = time.perf_counter()
            db.execute("INSERT INTO moves (move) VALUES (?)", (f"move {number}",))
            times.append((time.perf_counter() - began) * 1000)
    return times


def p99(values: list[float]) -> float:
    return percentile(values, 0.99) if values else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle-seconds", type=float, default=30.0)  # its wake-ups vary: a longer look
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        config_path = folder / "config.toml"
        config_path.write_text(f'[storage]\ndatabase = "{folder / "games.sqlite"}"\n', encoding="utf-8")
        config = load_config(config_path)
        through_pins, through_devices = scan_times(config)
        idle_cpu, started = idle_process(str(config_path), args.idle_seconds)
        thinking_path = folder / "thinking.toml"  # never asleep: the rate of a long think throughout
        thinking_path.write_text(
            f'[storage]\ndatabase = "{folder / "thinking.sqlite"}"\n'
            f"[sensors]\nasleep_scan_hz = {config.sensors.idle_scan_hz}\n",
            encoding="utf-8",
        )
        thinking_cpu, _ = idle_process(str(thinking_path), args.idle_seconds)
        wake_seconds = min(args.idle_seconds, 5.0)
        idle_wakes = bare_loop_cpu("plain", config.sensors.asleep_scan_hz, wake_seconds)
        idle_wakes_asyncio = bare_loop_cpu("asyncio", config.sensors.asleep_scan_hz, wake_seconds)
        play_wakes = bare_loop_cpu("plain", config.sensors.scan_hz, wake_seconds)
        play_wakes_asyncio = bare_loop_cpu("asyncio", config.sensors.scan_hz, wake_seconds)
        play = switch_to_command(config, args.games)
        commits = commit_times(folder)
        pss, rss, processes = level_5_memory(folder)
    hz, idle_hz, asleep_hz = config.sensors.scan_hz, config.sensors.idle_scan_hz, config.sensors.asleep_scan_hz
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores,"
        f" load average {os.getloadavg()[0]:.1f} (other work makes the figures worse),"
        f" scan rate {hz} Hz, still {idle_hz} Hz, nobody playing {asleep_hz} Hz"
    )
    pins, devices = statistics.median(through_pins), statistics.median(through_devices)
    print(
        f"one full matrix scan (8x8, mock pins): median {pins:.3f} ms through gpiozero's pin layer,"
        f" {devices:.3f} ms through one device per pin (the reference); ratio {devices / pins:.1f}"
    )
    print(
        f"idle daemon ({asleep_hz} Hz): CPU {idle_cpu:.2f} % of one core; a bare loop waking as often"
        f" (the reference): {idle_wakes:.2f} % with a plain sleep, as the daemon without its web page,"
        f" {idle_wakes_asyncio:.2f} % in asyncio, as with it; ratio to the plain loop {idle_cpu / idle_wakes:.1f};"
        f" a nest still in a long think ({idle_hz} Hz): CPU {thinking_cpu:.2f} %"
    )
    play_cpu = play.cpu + play_wakes
    print(
        f"daemon in play ({hz} Hz): CPU {play_cpu:.2f} % of one core: its turns {play.cpu:.2f} %,"
        f" waking {hz} times a second {play_wakes:.2f} % (the bare plain loop; in asyncio {play_wakes_asyncio:.2f} %)"
    )
    everything = play.unrecorded + play.recorded
    ours = play.unrecorded + play.recorded_less_sync  # what the budget is of: the disk's sync left out
    print(
        f"switch to command ({len(everything)} commands): p99 {p99(ours):.3f} ms without the record's sync"
        f" to disk, {p99(everything):.3f} ms with it; {len(play.unrecorded)} not waiting for the record:"
        f" median {statistics.median(play.unrecorded):.3f} ms, p99 {p99(play.unrecorded):.3f} ms (in the"
        f" loop's CPU time, which leaves out the machine's other work, p99 {p99(play.unrecorded_cpu):.3f} ms);"
        f" {len(play.recorded)} after a move is recorded: p99 {p99(play.recorded_less_sync):.3f} ms without"
        f" the sync, {p99(play.recorded):.3f} ms with it (its COMMITs: median {statistics.median(play.syncs):.3f}"
        f" ms, p99 {p99(play.syncs):.3f} ms; an SQLite commit alone, synchronous=FULL, the reference:"
        f" median {statistics.median(commits):.3f} ms, p99 {p99(commits):.3f} ms)"
    )
    print(f"daemon start -> first frame on the OLED: {started:.2f} s")
    print(
        f"memory at level 5 ({processes} processes: the daemon, the computer, multiprocessing's resource"
        f" tracker): PSS {pss:.1f} MB, RSS {rss:.1f} MB (RSS counts the pages they share once per process)"
    )
    print_budgets(
        {
            "idle": (idle_cpu, f"{idle_wakes:.2f} % of it is waking {asleep_hz} times a second"),
            "play": (play_cpu, f"{play_wakes:.2f} % of it is waking {hz} times a second"),
            "latency": (
                p99(ours),
                f"the record's sync to disk left out (with it {p99(everything):.3f} ms: the disk's wait, not the"
                f" CPU's); {p99(play.unrecorded):.3f} ms for what waits for no record",
            ),
            "start": (started, ""),
            "memory": (pss, f"PSS; RSS {rss:.1f} MB"),
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
