"""Live boards' costs on this machine, through a local Mosquitto (Debian's, as the tests
start it).

- move to update: a publishing daemon on mock hardware (gpiozero's MockFactory under
  the real matrix driver), whole games played by hands on its switches
  (tests.hand_model); from each move accepted by its referee (the ``MoveAccepted``
  signal) to the live page's collector (:class:`~firmware_host.remote.live.LiveBoards`)
  holding the board with that move. The daemon turns on a clock of the benchmark's,
  at once; the feed takes its snapshot at the end of the turn that accepted a move.
  Each move is let wait the publisher's throttle after the one before, as moves made
  by hand are far apart: it is the first change of a burst that is timed, the one a
  spectator waits for;
- the reference, in the same run: a bare paho message of the same size from one client
  to another through the same broker (benchmarks.remote_latency's), so the ratio is
  what the snapshot, the public view, the schema and the strict reading add to MQTT;
- idle CPU: ``nestref run --mock`` left alone, publishing its game and not, each in
  its own process, from /proc (benchmarks.daemon_speed's); and a publisher alone,
  connected and idle, in this process (what publishing adds, without the daemon's
  own spread between runs).

Budgets here (a tenth of a Pi Zero 2 W's): move to update p99 under 20 ms (remote
play's move to display); the publishing daemon idle under 0.3 % of a core. Run from the
repository's root: ``python -m benchmarks.live_boards``.
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
from pathlib import Path

from benchmarks.daemon_speed import idle_process
from benchmarks.remote_latency import bare_mqtt
from benchmarks.stats import percentile
from firmware_host.daemon.live_feed import LiveFeed
from firmware_host.games import load_game
from firmware_host.games.cuckoo.rules import Position
from firmware_host.referee.signals import MoveAccepted, Signal
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.live import LiveBoard, LiveBoardPublisher, LiveBoards
from tests.broker import Broker
from tests.hand_model import Hand, random_moves
from tests.test_daemon import Rig, answer_questions

LATENCY_BUDGET_MS = 20.0
IDLE_CPU_BUDGET = 0.3  # percent of one core: the idle daemon's, publishing
TIMEOUT_S = 10.0


class Arrivals:
    """When the collector first held the board with each number of moves."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.at: dict[int, float] = {}
        self.boards: LiveBoards | None = None
        self.board = ""  # the board timed now (each game's its own)

    def changed_now(self) -> None:
        assert self.boards is not None
        board = self.boards.board(self.board)
        now = time.perf_counter()
        with self.changed:
            if board is not None and board.moves not in self.at:
                self.at[board.moves] = now
            self.changed.notify_all()

    def wait_for(self, moves: int) -> float:
        """When the board first held ``moves`` moves or more (two moves accepted in one
        turn of the loop, as after a question answered, arrive as one board)."""
        with self.changed:
            if not self.changed.wait_for(lambda: any(count >= moves for count in self.at), TIMEOUT_S):
                raise RuntimeError(f"the board with {moves} moves did not arrive within {TIMEOUT_S} s")
            return min(at for count, at in self.at.items() if count >= moves)


def move_to_update(folder: Path, settings: BrokerSettings, seeds: list[int]) -> tuple[list[float], int]:
    """Milliseconds from each move accepted to the collector holding it, over whole games;
    the size of the last board message."""
    arrivals = Arrivals()
    arrivals.boards = LiveBoards(settings, games=load_game, on_change=arrivals.changed_now, client_id="bench-collector")
    arrivals.boards.start()
    timings: list[float] = []
    size = 0
    try:
        for seed in seeds:
            with arrivals.changed:
                arrivals.at.clear()
                arrivals.board = f"benchboard{seed:04d}"
            (folder / f"game{seed}").mkdir()
            timings += TimedGame(folder / f"game{seed}", settings, arrivals).play(seed)
            board = arrivals.boards.board(arrivals.board)
            assert board is not None
            size = len(board.to_bytes())
    finally:
        arrivals.boards.close()
    return timings, size


class TimedGame:
    """One whole game on a publishing daemon, each move timed from its acceptance to
    the collector holding it."""

    def __init__(self, folder: Path, settings: BrokerSettings, arrivals: Arrivals) -> None:
        url = f"mqtt://{settings.host}:{settings.port}"
        self.rig = Rig(folder, f'[broker]\nurl = "{url}"\n[live]\npublish = true\n')
        self.arrivals = arrivals
        self.accepted: list[float] = []
        self.timings: list[float] = []
        self.publisher = LiveBoardPublisher(settings, board=arrivals.board)
        self.feed = LiveFeed(self.rig.daemon, self.publisher, name="bench")
        self.rig.daemon.subscribe(self._heard)

    def _heard(self, signal: Signal) -> None:
        if isinstance(signal, MoveAccepted):
            self.accepted.append(time.perf_counter())

    def run_for(self, seconds: float) -> None:
        """The daemon's turns for ``seconds`` of its clock, at once; a move accepted in a
        turn is timed to its arrival before the next turn."""
        rig = self.rig
        end = rig.clock.now + seconds
        while rig.clock.now < end:
            rig.clock.now += rig.daemon.period()
            rig.daemon.turn()
            self._time_arrivals()

    def _time_arrivals(self) -> None:
        if len(self.timings) == len(self.accepted):
            return
        while len(self.timings) < len(self.accepted):
            moves = len(self.timings) + 1
            self.timings.append((self.arrivals.wait_for(moves) - self.accepted[moves - 1]) * 1000)
        time.sleep(self.publisher.throttle_s)  # moves made by hand are seconds apart

    def play(self, seed: int) -> list[float]:
        rng = random.Random(seed)
        start = Position.from_lineup("standard")
        played = random_moves(rng, start)
        events = Hand(rng).game(start, played)
        rig = self.rig
        self.publisher.start()
        try:
            rig.show(start)
            rig.start()
            self.feed.start()
            rig.run_for(0.01)  # the feed's first snapshot: the board before any move
            self.arrivals.wait_for(0)
            time.sleep(self.publisher.throttle_s)  # the players sit down
            began = rig.clock.now
            for event in events:
                target = began + event.time_ms / 1000
                if target > rig.clock.now:
                    self.run_for(target - rig.clock.now)
                answer_questions(rig, played)  # (its presses turn the loop too: timed after)
                self._time_arrivals()
                rig.change(event.cell, event.occupied)
            self.run_for(4)
            answer_questions(rig, played)
            self._time_arrivals()
        finally:
            self.publisher.close()
            rig.close()
        return self.timings


def idle_publisher(settings: BrokerSettings, seconds: float) -> float:
    """Percent of one core a publisher alone uses, connected, its board sent, idle (this
    process's CPU time: nothing else runs in it meanwhile)."""
    board = LiveBoard(board="idleboard001", name="idle", game="cuckoo", number=1, pieces=())
    with LiveBoardPublisher(settings, board=board.board) as publisher:
        publisher.show(board)
        time.sleep(1.0)  # connected, the board sent
        cpu, wall = time.process_time(), time.monotonic()
        time.sleep(seconds)
        return (time.process_time() - cpu) / (time.monotonic() - wall) * 100


def _runs(figures: list[float]) -> str:
    return ", ".join(f"{figure:.2f}" for figure in figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="whole games played (each a few dozen moves)")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3, help="idle daemons measured, each way")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        broker = Broker(folder)
        broker.start()
        try:
            settings = BrokerSettings.from_url(broker.url)
            timings, size = move_to_update(folder, settings, [4, 12, 13, 29, 31, 37][: max(1, args.games)])
            reference = bare_mqtt(broker, size, len(timings))
            alone, publishing = folder / "alone.toml", folder / "publishing.toml"
            alone.write_text(f'[storage]\ndatabase = "{folder / "alone.sqlite"}"\n')
            publishing.write_text(
                f'[storage]\ndatabase = "{folder / "idle" / "games.sqlite"}"\n'
                f'[broker]\nurl = "{broker.url}"\n[live]\npublish = true\n'
            )
            idles: dict[Path, list[float]] = {alone: [], publishing: []}
            for _ in range(args.rounds):  # alternated: the machine's own load drifts more than publishing costs
                for config, figures in idles.items():
                    figures.append(idle_process(str(config), args.idle_seconds)[0])
            idle_alone, idle_publishing = statistics.median(idles[alone]), statistics.median(idles[publishing])
            publisher_alone = idle_publisher(settings, args.idle_seconds)
        finally:
            broker.stop()
    median, p99 = statistics.median(timings), percentile(timings, 0.99)
    bare_median, bare_p99 = statistics.median(reference), percentile(reference, 0.99)
    print(f"live boards through a local mosquitto ({platform.machine()}, Python {platform.python_version()})")
    print(f"move to update: median {median:.2f} ms, p99 {p99:.2f} ms over {len(timings)} moves ({size} bytes)")
    print(f"bare MQTT message of {size} bytes: median {bare_median:.2f} ms, p99 {bare_p99:.2f} ms")
    print(f"ratio (median move to update / median bare message): {median / bare_median:.1f}x")
    print(
        f"idle daemon, median of {args.rounds} x {args.idle_seconds:g} s: CPU {idle_publishing:.2f} % of a core"
        f" publishing its board, {idle_alone:.2f} % not (the reference): publishing adds"
        f" {idle_publishing - idle_alone:+.2f} % (runs: {_runs(idles[publishing])} and {_runs(idles[alone])})"
    )
    print(f"an idle publisher alone, connected: CPU {publisher_alone:.3f} % of a core over {args.idle_seconds:g} s")
    latency_met, idle_met = p99 <= LATENCY_BUDGET_MS, idle_publishing <= IDLE_CPU_BUDGET
    print(
        f"budget: move to update p99 under {LATENCY_BUDGET_MS:g} ms: {'met' if latency_met else 'NOT met'};"
        f" the publishing daemon idle under {IDLE_CPU_BUDGET:g} %: {'met' if idle_met else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
