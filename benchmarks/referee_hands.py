"""How well the referee reads games it has never seen: fresh logs of every kind the
sample corpus holds, made by the tests' hand model (``spec/hands.md``) with other seeds.

Each seed plays one random game from a lineup (in turn) eight ways: a latching scanner's
log or the Pi's 200 Hz scan, pushed-off captures leaving an empty reading or none at
all, sloppy hands or with illegal attempts. Each game is judged as the property test
judges it (``tests/test_referee_hands.py``): every move read (or, where the nest cannot
show the rest, as far as it can and then a question), never a move that was not played,
no refusal or call to put the nest right but while an illegal attempt is on it.

    python -m benchmarks.referee_hands [--seeds 200] [--first 10000] [--show 5]

Prints, for each kind of log, how many games passed, and what went wrong in the others.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections import Counter

from firmware_host.games.cuckoo.rules import Nest
from tests.hand_model import play_game
from tests.referee_helpers import random_game, referee_for, replay
from tests.test_referee_hands import judge

KINDS = [(polled, flicker, illegal) for polled in (False, True) for flicker in (0.7, 0.0) for illegal in (0.0, 0.3)]


def name(kind: tuple[bool, float, float]) -> str:
    polled, flicker, illegal = kind
    return (
        f"{'200 Hz' if polled else 'latching'}, {'push-off flickers' if flicker else 'no push-off flicker'}, "
        f"{'illegal attempts' if illegal else 'sloppy'}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=200, help="games, each played the eight ways (default 200)")
    parser.add_argument("--first", type=int, default=10_000, help="the first seed (default 10000)")
    parser.add_argument("--show", type=int, default=5, help="failures to list (default 5)")
    args = parser.parse_args(argv)

    lineups = Nest.default().lineup_names
    passed: Counter[tuple[bool, float, float]] = Counter()
    failures: list[str] = []
    moves = 0
    began = time.perf_counter()
    for seed in range(args.first, args.first + args.seeds):
        for kind in KINDS:
            polled, flicker, illegal = kind
            rng = random.Random(seed)
            start, played_moves = random_game(rng, lineups[seed % len(lineups)], plies=300)
            played = play_game(rng, start, played_moves, polled=polled, push_flicker=flicker, illegal=illegal)
            referee, signals = referee_for(start)
            moves += len(played.moves)
            try:
                judge(played, [(0, signal) for signal in signals] + replay(referee, played.events))
            except AssertionError as error:
                failures.append(f"seed {seed}, {name(kind)}: {str(error).splitlines()[0]}")
            else:
                passed[kind] += 1
    elapsed = time.perf_counter() - began
    print(
        f"Python {platform.python_version()} on {platform.machine()}: {args.seeds} games x {len(KINDS)} kinds of log, "
        f"{moves:,} moves, seeds from {args.first}, {elapsed:.0f} s"
    )
    for kind in KINDS:
        print(f"{name(kind)}: {passed[kind]} of {args.seeds} read as the nest shows them")
    for failure in failures[: args.show]:
        print(f"FAIL {failure}")
    print(f"all: {sum(passed.values())} of {args.seeds * len(KINDS)} games, {len(failures)} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
