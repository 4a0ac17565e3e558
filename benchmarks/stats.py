"""Figures the benchmarks report, and playing a match's games."""

from __future__ import annotations

import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TypeVar

G = TypeVar("G")  # a game to play
R = TypeVar("R")  # its result


def percentile(values: list[float], fraction: float) -> float:
    """The value ``fraction`` of the way up the sorted ``values`` (0.99: the p99)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed_ms(action: Callable[[], object], rounds: int) -> list[float]:
    """Milliseconds per call of ``action``, ``rounds`` times."""
    times = []
    for _ in range(rounds):
        began = time.perf_counter_ns()
        action()
        times.append((time.perf_counter_ns() - began) / 1e6)
    return times


def parse_level_pairs(text: str, allowed: Collection[tuple[int, int]]) -> list[tuple[int, int]]:
    """``"4v5,2v3"`` as ``[(4, 5), (2, 3)]``, each pair one of ``allowed`` (levels, lower
    first): the ``--pairs`` of the level benchmarks. Raises ValueError for anything else."""
    pairs = []
    for part in text.split(","):
        low, sep, high = part.strip().partition("v")
        if not sep or not low.isdigit() or not high.isdigit() or (int(low), int(high)) not in allowed:
            choices = ", ".join(f"{a}v{b}" for a, b in allowed)
            raise ValueError(f"not a pair of adjacent levels: {part.strip()!r} (choose from {choices})")
        pairs.append((int(low), int(high)))
    return pairs


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``score / games`` (a draw may
    count as half a point: the interval is then approximate).

    >>> [round(bound, 3) for bound in wilson(95, 100)]
    [0.888, 0.978]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if games == 0:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_all(play: Callable[[G], R], games: list[G], workers: int, *, progress_every: int) -> tuple[list[R], float]:
    """Every game played (by ``workers`` processes when more than one: ``play`` and the
    games must pickle), in order; and the seconds it took. Progress goes to stderr, so
    that a benchmark's report on stdout stays as it is."""
    started = time.perf_counter()
    played: list[R] = []

    def note(result: R) -> None:
        played.append(result)
        if len(played) % progress_every == 0:
            print(f"{len(played)}/{len(games)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)

    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for result in pool.imap(play, games, chunksize=1):
                note(result)
    else:
        for game in games:
            note(play(game))
    return played, time.perf_counter() - started


@dataclass(frozen=True)
class Tally:
    """One side's results over a set of games: a win is 1 point, a draw a half."""

    wins: int
    draws: int
    losses: int
    score: float  # points
    low: float  # the 95 % Wilson interval of the score rate
    high: float

    @property
    def rate(self) -> float:
        games = self.wins + self.draws + self.losses
        return self.score / games if games else 0.0


def tally(points: list[float]) -> Tally:
    """The :class:`Tally` of the points of some games (1, 0.5 or 0 each)."""
    wins = sum(point == 1 for point in points)
    draws = sum(point == 0.5 for point in points)
    score = sum(points)
    low, high = wilson(score, len(points))
    return Tally(wins, draws, len(points) - wins - draws, score, low, high)
