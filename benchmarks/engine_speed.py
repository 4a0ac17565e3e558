"""The computer opponent's speed: nodes per second, and the depth it completes in one
second from the standard start.

The positions are the three lineups' starts and positions after 10 and 20 random
moves from each (seeded); each is searched for the same number of nodes, and the
best of the rounds counts. The reference, in the same run and rounds alternating with
the search's (so that a busy machine slows both alike): python-chess's perft from the
chess start (``benchmarks/perft_speed.py``'s), a pure-Python program of the same kind
of work; the ratio of the two speeds stays put from one machine and one load to the
next where nodes per second alone do not.

    python -m benchmarks.engine_speed [--nodes 50000] [--seconds 1] [--rounds 2]

The fourth line gives the strongest level's time for a move here and, ten times slower,
on a Raspberry Pi Zero 2 W, against its cap; the last, the reference's speed and the
search's as a ratio of it. ``docs/engine.md`` gives the figures measured.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

import chess

from benchmarks.perft_speed import chess_perft
from firmware_host.games.cuckoo.engine import LEVELS, Engine, Limits
from firmware_host.games.cuckoo.rules import Position

LINEUPS = ("standard", "advanced-1", "advanced-2")
PI_SLOWER = 10  # a Raspberry Pi Zero 2 W runs CPython about ten times slower than a core here (issue 15's factor)
REFERENCE_DEPTH = 4  # python-chess perft from the chess start: 197,281 nodes


def positions(seed: int = 0) -> list[Position]:
    """The benchmark's positions: starts and positions after random moves."""
    found = []
    for lineup in LINEUPS:
        for plies in (0, 10, 20):
            rng = random.Random(seed * 100 + plies)
            position = Position.from_lineup(lineup)
            for _ in range(plies):
                moves = position.legal_moves()
                if not moves:
                    break
                position.push(rng.choice(moves))
            while position.is_over():
                position.pop()
            found.append(position)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=50_000, help="nodes per position (default 50000)")
    parser.add_argument("--seconds", type=float, default=1.0, help="the time for the depth figure (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds; the best counts (default 2)")
    args = parser.parse_args(argv)

    engine = Engine()
    chosen = positions()
    best = reference = 0.0
    total = 0
    board = chess.Board()
    for _ in range(args.rounds):
        nodes, started = 0, time.perf_counter()
        for position in chosen:
            nodes += engine.search(position, Limits(nodes=args.nodes)).nodes
        best = max(best, nodes / (time.perf_counter() - started))
        total = nodes
        started = time.perf_counter()
        counted = chess_perft(board, REFERENCE_DEPTH)
        reference = max(reference, counted / (time.perf_counter() - started))
    print(f"Python {platform.python_version()} on {platform.machine()}, best of {args.rounds} rounds")
    print(f"search: {best:,.0f} nodes/s over {len(chosen)} positions ({total:,} nodes a round)")
    timed = engine.search(Position.from_lineup("standard"), Limits(seconds=args.seconds), clock=time.perf_counter)
    print(
        f"in {args.seconds:g} s from the standard start: depth {timed.depth} completed, {timed.nodes:,} nodes, "
        f"best move {timed.move} ({timed.score_text()})"
    )
    strongest = LEVELS[-1]
    budget = strongest.limits.nodes or 0
    here = budget / best
    print(
        f"strongest level ({budget:,} nodes a move): about {here:.2f} s here, about {here * PI_SLOWER:.1f} s on a "
        f"Pi Zero 2 W ({PI_SLOWER}x slower); its cap: {strongest.limits.seconds:g} s"
    )
    print(
        f"reference: python-chess perft {REFERENCE_DEPTH} from the chess start at {reference:,.0f} nodes/s "
        f"(python-chess {chess.__version__}); the search's speed is {best / reference:.3f}x that"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
