"""Figures the benchmarks report."""

from __future__ import annotations

import math


def percentile(values: list[float], fraction: float) -> float:
    """The value ``fraction`` of the way up the sorted ``values`` (0.99: the p99)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


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
