"""What the players' own screens of the battle game cost the web server: both sides'
private messages (``PlayerScreens.private_messages``: each side's view of the position,
in JSON), made again only when something was recorded or signalled (about once a move),
and looked up on every other frame (every 50 ms while pages are connected).

Timed against the named reference in the same run: the shared page's own frame for the
same position (``WebServer._common_messages``: the table, the lights and the game,
encoded), which is made on every frame. Budget: a change's private messages cost less
than the shared page's frames of one second (ratio of the medians under 20), a frame
that finds them made costs less than a tenth of the shared frame, and a change's median
is under 0.5 ms here (the daemon's 5 ms switch-to-command budget on a Pi Zero 2 W,
divided by ten). The p99 is printed too; on a busy machine it measures the machine.

    python -m benchmarks.player_screens_speed [--rounds 500]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import random
import statistics

from benchmarks.stats import percentile, timed_ms
from firmware_host.daemon.config import load_config
from firmware_host.games.base import Side
from firmware_host.web.server import WebServer
from sim.app import build_simulation

RATIO_BUDGET = 20.0  # frames a second
CACHED_RATIO_BUDGET = 0.1
CHANGE_BUDGET_MS = 0.5
PLIES = 30  # into a game: pieces moved, some struck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500, help="frames timed (default 500)")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    config = dataclasses.replace(load_config(None, game="battle"), database=":memory:")
    simulation = build_simulation(config)
    daemon = simulation.daemon
    server = WebServer(daemon, simulation.simulator)
    daemon.start()
    try:
        game = config.game
        position = game.start(game.lineups[0], Side.RED)
        rng = random.Random(18)
        for _ in range(PLIES):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        daemon.begin_game_from(position)
        snapshot = daemon.snapshot()

        players = server.players
        public = json.dumps(server.picture.game(snapshot), separators=(",", ":"))
        made = iter(range(10**9))

        def change() -> None:  # as after a move: the messages made again
            players.private_messages(public + str(next(made)))

        def frame() -> None:  # as on every other frame: found made
            players.private_messages(public)

        def shared_frame() -> None:
            server._common_messages(daemon.snapshot())

        assert len(players.private_messages(public)) == 2
        changes = timed_ms(change, args.rounds)
        frames = timed_ms(frame, args.rounds)
        shared = timed_ms(shared_frame, args.rounds)
    finally:
        daemon.close()
        simulation.nest.close()
    for name, times in (("private messages, a change", changes), ("private messages, a frame", frames),
                        ("shared page's frame", shared)):  # fmt: skip
        print(f"{name}: median {statistics.median(times):.3f} ms, p99 {percentile(times, 0.99):.3f} ms")
    ratio = statistics.median(changes) / statistics.median(shared)
    cached = statistics.median(frames) / statistics.median(shared)
    print(f"ratio: a change / shared frame = {ratio:.2f} (budget {RATIO_BUDGET:g})")
    print(f"ratio: a frame / shared frame = {cached:.3f} (budget {CACHED_RATIO_BUDGET:g})")
    met = ratio < RATIO_BUDGET and cached < CACHED_RATIO_BUDGET and statistics.median(changes) < CHANGE_BUDGET_MS
    print(f"budget: {'met' if met else 'over'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
