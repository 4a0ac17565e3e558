"""How long the referee takes per sensor change, and how fast ``nestref referee`` reads
a long log in how much memory.

Per change: whole games are made by the tests' hand model with every behaviour of
``spec/hands.md`` (bounce, wobble, slides, captures in every order, pushed off with and
without an empty reading, hesitation, a second piece, illegal attempts), as a latching
scanner logs them and as a 200 Hz scan reads them, from all three lineups. Each change
is fed to the referee as the daemon would, with the decisions that fall due before the
next change (``tick``); the time of each change is that of its ``sense`` call and of the
ticks after it. Budget, on the development machine: median under 0.2 ms and p99 under
2 ms per change. The time to commit an accepted move to SQLite on disk (WAL,
synchronous=FULL) is measured on its own: it happens once per move, not per change.

Streaming: a log of whole sets of games, the nest set up between games, of about
``--stream-mb`` megabytes, through ``nestref referee --events`` in a process of its
own: lines per second, and the process's peak memory (Linux: read from /proc).

    python -m benchmarks.referee_speed [--games 64] [--stream-mb 10]

Run it from the repository's root (it imports ``tests.hand_model``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.stats import percentile
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import GameSet, Nest, Position, Side
from firmware_host.recorder.store import GameStore
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.sensor_log import SensorEvent
from firmware_host.referee.signals import MoveAccepted
from tests.hand_model import Hand, play_game, poll, random_moves

MEDIAN_BUDGET_MS = 0.2
P99_BUDGET_MS = 2.0
PROFILES = [(polled, flicker, illegal) for polled in (False, True) for flicker in (0.7, 0.0) for illegal in (0.0, 0.3)]


def per_change(games: int, folder: Path) -> tuple[list[float], list[float], int]:
    """The time of every change (ms), of every commit of a move (ms), and the moves."""
    nest = Nest.default()
    times: list[float] = []
    commits: list[float] = []
    moves = 0
    cuckoo = CuckooGame(nest)
    store = GameStore(folder / "bench.sqlite", game=cuckoo, clock=time.time)
    for game in range(games):
        rng = random.Random(game)
        lineup = nest.lineup_names[game % len(nest.lineup_names)]
        start = Position.from_lineup(lineup, turn=rng.choice(list(Side)))
        polled, flicker, illegal = PROFILES[game % len(PROFILES)]
        played = play_game(rng, start, random_moves(rng, start), polled=polled, push_flicker=flicker, illegal=illegal)
        referee = Referee(cuckoo, settings=Settings(), lineup=lineup, occupied=start.occupied(), now=0)
        store.record(referee.begin_game(start.copy(), now=0), positions=referee.recorded_positions(), referee_ms=0)
        events = played.events
        for index, event in enumerate(events):
            began = time.perf_counter_ns()
            signals = referee.sense(event.cell, event.occupied, event.time_ms)
            positions = referee.recorded_positions()
            upto = events[index + 1].time_ms if index + 1 < len(events) else None
            while (due := referee.next_deadline()) is not None and (upto is None or due < upto):
                signals += referee.tick(due)
                positions += referee.recorded_positions()
            times.append((time.perf_counter_ns() - began) / 1e6)
            if signals:
                began = time.perf_counter_ns()
                store.record(signals, positions=positions, referee_ms=event.time_ms)
                if any(isinstance(signal, MoveAccepted) for signal in signals):
                    commits.append((time.perf_counter_ns() - began) / 1e6)
        moves += len(played.moves)
    store.close()
    return times, commits, moves


def sets_of_games(rng: random.Random, megabytes: float) -> str:
    """A sensor log of sets of games from the standard lineup, as many as make about
    ``megabytes``: each game played by the hand model, the nest then cleared of what
    the lineup does not hold and set up, piece by piece, for the next game."""
    nest = Nest.default()
    lineup = Position.from_lineup(nest=nest)
    games = GameSet(first_starter=Side.RED)
    lines = ["# lineup: standard"]
    occupied = set(lineup.occupied())
    clock, size = 0, 0
    while size < megabytes * 1_000_000:
        start = Position.from_lineup(turn=games.next_starter, nest=nest)
        moves = random_moves(rng, start)
        hand = Hand(rng, nest=nest, illegal=0.1, fast=True, time_ms=clock)
        events = poll(hand.game(start, moves), phase=rng.randrange(5))
        end = start.copy()
        for move in moves:
            end.push(move)
        outcome = end.outcome()
        assert outcome is not None
        games = games.record(outcome)
        if games.is_over():
            games = GameSet(first_starter=Side.RED)
        clock = (events[-1].time_ms if events else clock) + 3000
        occupied = set(end.occupied())
        setup: list[SensorEvent] = []
        for cell in sorted(occupied - set(lineup.occupied()), key=nest.index):
            setup.append(SensorEvent(clock, cell, False))
            clock += rng.randint(200, 500)
        for cell in sorted(set(lineup.occupied()) - occupied, key=nest.index):
            setup.append(SensorEvent(clock, cell, True))
            clock += rng.randint(200, 500)
        clock += 3000
        for event in [*events, *setup]:
            line = event.to_text()
            lines.append(line)
            size += len(line) + 1
    return "\n".join(lines) + "\n"


def stream(megabytes: float, folder: Path) -> tuple[int, float, float]:
    """Lines, seconds and peak memory (MB) of ``nestref referee`` over such a log."""
    log = folder / "long.log"
    text = sets_of_games(random.Random(7), megabytes)
    log.write_text(text, encoding="utf-8")
    lines = text.count("\n")
    del text
    nestref = Path(sys.executable).parent / "nestref"
    began = time.perf_counter()
    peak_kb = 0
    with (
        open(os.devnull, "w") as sink,
        subprocess.Popen([str(nestref), "referee", "--events", str(log)], stdout=sink) as child,
    ):
        # The child's own peak (VmHWM), read while it runs: the parent's rusage of its
        # children would count this process's pages, shared with the child until exec.
        status = Path(f"/proc/{child.pid}/status")
        while child.poll() is None:
            with contextlib.suppress(OSError):
                for line in status.read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak_kb = max(peak_kb, int(line.split()[1]))
            time.sleep(0.05)
    assert child.returncode == 0, f"nestref referee failed: exit code {child.returncode}"
    seconds = time.perf_counter() - began
    return lines, seconds, peak_kb / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=64, help="games to replay (default 64)")
    parser.add_argument("--stream-mb", type=float, default=10.0, help="size of the long log, 0: none (default 10)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        times, commits, moves = per_change(args.games, folder)
        median, p99 = statistics.median(times), percentile(times, 0.99)
        print(f"Python {platform.python_version()} on {platform.machine()}")
        print(f"{args.games} games ({len(PROFILES)} kinds of log in turn), {moves} moves, {len(times)} sensor changes")
        print(
            f"per change: median {median:.3f} ms, p99 {p99:.3f} ms, max {max(times):.3f} ms "
            f"(budget: median {MEDIAN_BUDGET_MS} ms, p99 {P99_BUDGET_MS} ms)"
        )
        if commits:
            print(
                f"commit of an accepted move to SQLite on disk: median {statistics.median(commits):.2f} ms, "
                f"p99 {percentile(commits, 0.99):.2f} ms"
            )
        verdict = "within" if median < MEDIAN_BUDGET_MS and p99 < P99_BUDGET_MS else "over"
        print(f"budget: {verdict}")
        if args.stream_mb > 0:
            lines, seconds, peak = stream(args.stream_mb, folder)
            print(
                f"nestref referee over a {args.stream_mb:g} MB log of sets of games: {lines:,} lines in "
                f"{seconds:.1f} s, {lines / seconds:,.0f} lines/s, peak memory {peak:.0f} MB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
