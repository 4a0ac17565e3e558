"""Remote play's costs on this machine, through a local Mosquitto (Debian's, as the
tests start it).

- move to display: from a move accepted on one nest (``RemotePlayer.local_move``) to
  the other nest told to show it (its ``ShowMove`` event), over moves played both ways;
- the reference, in the same run: a bare paho client's message of the same size to
  another through the same broker (publish to on_message), so the ratio is what the
  schema, the replay of the record and the session add to MQTT itself;
- idle CPU: two paired nests with the link up, doing nothing, measured from this
  process's CPU time (per nest);
- through two whole daemons (``--daemon-plies``): each on simulated hardware, its loop
  in a thread of its own on the real clock, a move made on one nest's switches and
  accepted by its referee (its ``MoveAccepted`` signal, recorded) to the other nest
  showing it (its ``ComputerMove`` signal, the OLED drawn in the same loop turn); and
  a daemon's idle CPU with the link up, against the same two daemons idle before
  they paired (the reference, in the same run).

Budgets here (a tenth of a Pi Zero 2 W's): move to display p99 under 20 ms; idle CPU
under 0.1 % of a core per nest for the link alone, under 0.3 % for a whole daemon with
the link up. Run from the repository's root:
``python -m benchmarks.remote_latency``.
"""

from __future__ import annotations

import argparse
import platform
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from benchmarks.stats import percentile
from firmware_host.daemon.config import load_config
from firmware_host.games import load_game
from firmware_host.games.base import Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.broker_client import close_sockets
from firmware_host.remote.player import RemotePlayer
from firmware_host.remote.session import Event, ShowMove
from tests.broker import Broker

LATENCY_BUDGET_MS = 20.0
IDLE_CPU_BUDGET = 0.1  # percent of one core, per nest
DAEMON_IDLE_CPU_BUDGET = 0.3  # percent of one core, a whole daemon idle with the link up
TIMEOUT_S = 10.0


class Watched:
    """A remote player whose ShowMove events are timed."""

    def __init__(self, settings: BrokerSettings, nest: str) -> None:
        self.shown = threading.Condition()
        self.last_shown: tuple[str, float] | None = None
        self.player = RemotePlayer(load_game(), settings, nest=nest, clock=time.monotonic, on_event=self._event)

    def _event(self, event: Event) -> None:
        if isinstance(event, ShowMove):
            with self.shown:
                self.last_shown = (event.move, time.perf_counter())
                self.shown.notify_all()

    def wait_shown(self, move: str) -> float:
        with self.shown:
            if not self.shown.wait_for(lambda: self.last_shown is not None and self.last_shown[0] == move, TIMEOUT_S):
                raise RuntimeError(f"{move} was not shown within {TIMEOUT_S} s")
            assert self.last_shown is not None
            return self.last_shown[1]


def move_to_display(settings: BrokerSettings, plies: int) -> tuple[list[float], int]:
    """Milliseconds from each move made to its display there, and the size of the last message."""
    red, blue = Watched(settings, "benchred001"), Watched(settings, "benchblue01")
    red.player.offer(side=Side.RED, lineup="standard", first_starter=Side.RED, random=random.Random(0), code="BENCH2")
    blue.player.join("BENCH2")
    deadline = time.monotonic() + TIMEOUT_S
    while red.player.session is None or blue.player.session is None:  # pairing: before any timing
        if time.monotonic() > deadline:
            raise RuntimeError("the nests did not pair")
        time.sleep(0.01)
    timings, size = [], 0
    chooser = random.Random(1)
    try:
        for _ in range(plies):
            mover, copier = (red, blue) if red.player.session.is_our_turn() else (blue, red)
            session = mover.player.session
            assert session is not None
            if session.set_record.is_set_over():
                break
            move = chooser.choice(session.position.legal_moves()).to_text()
            started = time.perf_counter()
            mover.player.local_move(move)
            timings.append((copier.wait_shown(move) - started) * 1000)
            size = len(session.hello(0.0).messages[0].to_bytes())
            copier.player.local_move(move)  # a game won goes on to the next of the set
    finally:
        red.player.close()
        blue.player.close()
    return timings, size


def bare_mqtt(broker: Broker, size: int, count: int) -> list[float]:
    """Milliseconds from a bare publish to its delivery, ``size`` bytes at QoS 1."""
    received = threading.Condition()
    arrivals: list[float] = []

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        with received:
            arrivals.append(time.perf_counter())
            received.notify_all()

    subscribed = threading.Event()
    listener = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-listener")
    listener.on_message = on_message
    listener.on_subscribe = lambda *args: subscribed.set()
    listener.connect("127.0.0.1", broker.port)
    listener.loop_start()
    listener.subscribe("bench/raw", qos=1)
    subscribed.wait(TIMEOUT_S)
    talker = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-talker")
    talker.connect("127.0.0.1", broker.port)
    talker.loop_start()
    payload = b"x" * size
    timings = []
    for client in (talker, listener):  # as the link sets it
        connection = client.socket()
        assert isinstance(connection, socket.socket)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for number in range(count):
        started = time.perf_counter()
        talker.publish("bench/raw", payload, qos=1)
        with received:
            if not received.wait_for(lambda number=number: len(arrivals) > number, TIMEOUT_S):  # type: ignore[misc]
                raise RuntimeError("a bare message was lost")
            timings.append((arrivals[number] - started) * 1000)
    for client in (talker, listener):
        client.disconnect()
        client.loop_stop()
        close_sockets(client)
    return timings


def idle_cpu(settings: BrokerSettings, seconds: float) -> float:
    """Percent of one core used per nest by two paired nests idling."""
    red, blue = Watched(settings, "idlered0001"), Watched(settings, "idleblue001")
    red.player.offer(side=Side.RED, lineup="standard", first_starter=Side.RED, random=random.Random(0), code="2DXE22")
    blue.player.join("2DXE22")
    deadline = time.monotonic() + TIMEOUT_S
    while red.player.session is None or blue.player.session is None:
        if time.monotonic() > deadline:
            raise RuntimeError("the nests did not pair")
        time.sleep(0.01)
    cpu, wall = time.process_time(), time.monotonic()
    while time.monotonic() - wall < seconds:
        red.player.tick()
        blue.player.tick()
        time.sleep(0.1)  # the daemon ticks it from its loop; ten times a second here
    used = (time.process_time() - cpu) / (time.monotonic() - wall) * 100 / 2
    red.player.close()
    blue.player.close()
    return used


class RunningNest:
    """A whole daemon on simulated hardware, its loop on a thread of its own (real clock)."""

    def __init__(self, folder: Path, broker_url: str, nest: str) -> None:
        from firmware_host.daemon import Daemon
        from firmware_host.daemon.config import load_config
        from firmware_host.games.cuckoo.rules import Position
        from sim.mock_devices import open_mock_devices

        folder.mkdir()
        config_path = folder / "config.toml"
        config_path.write_text(
            f'[storage]\ndatabase = "{folder / "games.sqlite"}"\n[broker]\nurl = "{broker_url}"\n'
            f'[remote]\nnest = "{nest}"\n',
            encoding="utf-8",
        )
        self.config = load_config(config_path)
        self.devices, self.switches = open_mock_devices(self.config)
        self.switches.set_all(self.config.matrix[cell] for cell in Position.from_lineup().occupied())
        self.daemon = Daemon(self.config, self.devices)
        self.times: dict[str, list[float]] = {"accepted": [], "shown": []}
        self.daemon.subscribe(self._signal)
        self.stop, started = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,))
        self.thread.start()
        started.wait(TIMEOUT_S)

    def _run(self, started: threading.Event) -> None:
        """Started, run and closed in one thread, as the record's SQLite connection wants."""
        self.daemon.start()
        started.set()
        try:
            self.daemon.run_alone(self.stop)
        finally:
            self.daemon.close()

    def _signal(self, signal: object) -> None:
        from firmware_host.referee.signals import ComputerMove, MoveAccepted

        if isinstance(signal, MoveAccepted):
            self.times["accepted"].append(time.perf_counter())
        elif isinstance(signal, ComputerMove):
            self.times["shown"].append(time.perf_counter())

    def act(self, kind: str, fields: dict[str, object]) -> None:
        self.daemon.post(lambda: self.daemon.remote_action(kind, fields))

    def make(self, origin: str, target: str) -> None:
        """The piece on ``origin`` lifted, and put down on ``target`` 0.3 s later."""
        self.switches.set(self.config.matrix[origin], False)
        time.sleep(0.3)
        self.switches.set(self.config.matrix[target], True)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


def wait(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.005)


def daemons(broker: Broker, plies: int, idle_s: float) -> tuple[list[float], float | None, float, float]:
    """Through two whole daemons: milliseconds from a move accepted on one to its display
    on the other (the last one to a nest gone idle); a daemon's idle CPU (% of a core)
    before pairing and with the link up."""
    from firmware_host.daemon.remote_shown import RemoteStage
    from firmware_host.games.cuckoo.rules import Position

    with tempfile.TemporaryDirectory() as folder:
        red = RunningNest(Path(folder) / "red", broker.url, "benchdaemonred")
        blue = RunningNest(Path(folder) / "blue", broker.url, "benchdaemonblue")
        nests = {Side.RED: red, Side.BLUE: blue}
        try:
            time.sleep(1.0)  # started: the boot's work done
            unpaired = _process_cpu(idle_s) / 2
            red.act("remote_offer", {})
            wait(lambda: bool(red.daemon.remote and red.daemon.remote.code), "the offer")
            assert red.daemon.remote is not None and blue.daemon.remote is not None
            blue.act("remote_join", {"code": red.daemon.remote.code})
            remotes = (red.daemon.remote, blue.daemon.remote)
            wait(lambda: all(remote.stage is RemoteStage.PLAYING for remote in remotes), "the pairing")
            time.sleep(1.0)
            board, chooser, timings = Position.from_lineup(), random.Random(2), []
            for _ in range(plies):
                move = _quiet_step(board, chooser)
                if move is None:
                    break
                timings.append(_ply(nests[board.turn], nests[board.turn.opponent], move))
                board.push(move)
            time.sleep(31.0 if idle_s >= 10 else 0.5)  # the fast scanning after a move ends (ACTIVE_S)
            paired = _process_cpu(idle_s) / 2
            move = _quiet_step(board, chooser)  # one more, to a nest gone idle (scanning at its idle rate)
            from_idle = _ply(nests[board.turn], nests[board.turn.opponent], move) if move is not None else None
        finally:
            red.close()
            blue.close()
    return timings, from_idle, unpaired, paired


def _ply(mover: RunningNest, copier: RunningNest, move: Any) -> float:
    """``move`` made on ``mover``, copied on ``copier``: milliseconds from its acceptance
    on ``mover`` to its display on ``copier``."""
    accepted, shown = len(mover.times["accepted"]), len(copier.times["shown"])
    mover.make(move.origin, move.target)
    wait(lambda: len(mover.times["accepted"]) > accepted, f"{move} accepted")
    accepted_at = mover.times["accepted"][accepted]
    # The move shown there after it was accepted here (a turn announced again there,
    # before, says nothing of this move).
    wait(lambda: any(t >= accepted_at for t in copier.times["shown"][shown:]), f"{move} shown")
    elapsed = (next(t for t in copier.times["shown"][shown:] if t >= accepted_at) - accepted_at) * 1000
    copied = len(copier.times["accepted"])
    copier.make(move.origin, move.target)
    wait(lambda: len(copier.times["accepted"]) > copied, f"{move} copied")
    remote = mover.daemon.remote
    assert remote is not None
    wait(lambda: not remote.shown().is_waiting_for_copy, "the ack")
    return elapsed


def _quiet_step(board: Any, chooser: random.Random) -> Any:
    """A step (no capture) after which the other side has no capture either, if there is
    one, else any step: the hands lift a piece and put it down, and the line goes on long."""
    steps = [move for move in board.legal_moves() if move.origin and not move.is_capture]
    chooser.shuffle(steps)
    for move in steps:
        board.push(move)
        is_quiet = not any(reply.is_capture for reply in board.legal_moves())
        board.pop()
        if is_quiet:
            return move
    return steps[0] if steps else None


def _process_cpu(seconds: float) -> float:
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(seconds)
    return (time.process_time() - cpu) / (time.monotonic() - wall) * 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--daemon-plies", type=int, default=30, help="plies through two whole daemons (0: none)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(Path(folder))
        broker.start()
        try:
            settings = BrokerSettings.from_url(broker.url)
            timings, size = move_to_display(settings, args.plies)
            reference = bare_mqtt(broker, size, len(timings))
            cpu = idle_cpu(settings, args.idle_seconds)
            if args.daemon_plies:
                daemon_timings, from_idle, unpaired, paired = daemons(broker, args.daemon_plies, args.idle_seconds)
        finally:
            broker.stop()
    median, p99 = statistics.median(timings), percentile(timings, 0.99)
    bare_median, bare_p99 = statistics.median(reference), percentile(reference, 0.99)
    print(f"remote play through a local mosquitto ({platform.machine()}, Python {platform.python_version()})")
    print(f"move to display: median {median:.2f} ms, p99 {p99:.2f} ms over {len(timings)} moves ({size} bytes)")
    print(f"bare MQTT message of {size} bytes: median {bare_median:.2f} ms, p99 {bare_p99:.2f} ms")
    print(f"ratio (median move to display / median bare message): {median / bare_median:.1f}x")
    print(f"idle, link up: CPU {cpu:.3f} % of a core per nest over {args.idle_seconds:g} s")
    within = p99 <= LATENCY_BUDGET_MS and cpu <= IDLE_CPU_BUDGET
    if args.daemon_plies:
        d_median, d_p99 = statistics.median(daemon_timings), percentile(daemon_timings, 0.99)
        idle_shown = f"{from_idle:.2f} ms" if from_idle is not None else "none (the line ended)"
        print(
            f"through two daemons: move accepted to display median {d_median:.2f} ms, p99 {d_p99:.2f} ms"
            f" over {len(daemon_timings)} moves; {idle_shown} to a nest idle"
            f" ({load_config(None).sensors.idle_scan_hz} Hz)"
        )
        print(
            f"a daemon idle: {unpaired:.3f} % of a core unpaired (the reference), {paired:.3f} % with the link up"
            f" ({paired / unpaired if unpaired else float('inf'):.2f}x: the link adds {paired - unpaired:.3f} %)"
        )
        within = within and d_p99 <= LATENCY_BUDGET_MS and paired <= DAEMON_IDLE_CPU_BUDGET
    print(
        f"budget: move to display p99 under {LATENCY_BUDGET_MS:g} ms, idle CPU under {IDLE_CPU_BUDGET:g} %"
        f" (a whole daemon with the link up: {DAEMON_IDLE_CPU_BUDGET:g} %): {'met' if within else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
