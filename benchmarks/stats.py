"""Figures the benchmarks report."""

from __future__ import annotations


def percentile(values: list[float], fraction: float) -> float:
    """The value ``fraction`` of the way up the sorted ``values`` (0.99: the p99)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
