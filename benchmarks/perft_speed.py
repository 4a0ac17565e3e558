"""Perft speed of the rules engine against python-chess, in one run.

Both engines count perft by the same method: generate the legal moves, then make and
take back every one of them, the last ply included (no bulk counting of the last
ply's moves without making them). Nodes are the perft count: the move paths of full
length. nestref runs from the standard start, python-chess from the chess start. The
rounds alternate between the two so that a busy machine slows both alike; each
engine's best round counts.

    python benchmarks/perft_speed.py [--depth 5] [--chess-depth 4] [--rounds 3]

The last line is the ratio of nestref's nodes per second to python-chess's. The goal
is at least 1.5; the README gives the figures measured.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable

import chess

from firmware_host.games.cuckoo.rules import Position, perft

GOAL = 1.5


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft, shaped exactly like :func:`firmware_host.games.cuckoo.rules.perft`."""
    if depth == 0:
        return 1
    moves = list(board.legal_moves)
    if depth == 1:
        for move in moves:
            board.push(move)
            board.pop()
        return len(moves)
    count = 0
    for move in moves:
        board.push(move)
        count += chess_perft(board, depth - 1)
        board.pop()
    return count


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """The nodes ``run`` counted and the seconds it took."""
    start = time.perf_counter()
    nodes = run()
    return nodes, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5, help="nestref perft depth (default 5)")
    parser.add_argument("--chess-depth", type=int, default=4, help="python-chess perft depth (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine; the best counts (default 3)")
    args = parser.parse_args(argv)

    position = Position.from_lineup("standard")
    board = chess.Board()
    best: dict[str, tuple[int, float]] = {}
    for _ in range(args.rounds):
        for name, run in (
            ("nestref", lambda: perft(position, args.depth)),
            ("python-chess", lambda: chess_perft(board, args.chess_depth)),
        ):
            nodes, seconds = timed(run)
            if name not in best or seconds < best[name][1]:
                best[name] = (nodes, seconds)

    print(f"Python {platform.python_version()} on {platform.machine()}, best of {args.rounds} rounds")
    rates = {}
    for name, depth, start in (
        ("nestref", args.depth, "Operation Cuckoo standard start"),
        ("python-chess", args.chess_depth, f"chess start (python-chess {chess.__version__})"),
    ):
        nodes, seconds = best[name]
        rates[name] = nodes / seconds
        print(f"{name:>12}: perft {depth} = {nodes} nodes in {seconds:.3f} s: {rates[name]:,.0f} nodes/s ({start})")
    ratio = rates["nestref"] / rates["python-chess"]
    verdict = "meets" if ratio >= GOAL else "misses"
    print(f"ratio: {ratio:.2f}x python-chess ({verdict} the goal of {GOAL}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
