"""Reconnecting to a link that can drop, written once for every such link.

A failed attempt is logged and retried after a delay that doubles up to a cap; the
first failure in a row is logged at WARNING, the repeats at DEBUG, and a success after
failures at INFO. Time is passed in, so the logic is tested without sleeping.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field


@dataclass
class Backoff:
    """When to try a dropped link again."""

    name: str
    """What the link is, for the log: ``serial scanner /dev/ttyACM0``."""
    logger: logging.Logger
    initial_s: float = 0.5
    maximum_s: float = 10.0
    _delay: float = field(default=0.0, init=False)
    _next_try: float = field(default=0.0, init=False)
    _failures: int = field(default=0, init=False)

    def is_due(self, now: float) -> bool:
        """Whether a new attempt may be made at ``now`` (seconds, monotonic)."""
        return now >= self._next_try

    def wait_s(self, now: float) -> float:
        """Seconds from ``now`` until the next attempt may be made (0: at once), for a
        link's own thread to sleep that long rather than poll :meth:`is_due`."""
        return max(0.0, self._next_try - now)

    def failed(self, now: float, error: BaseException) -> None:
        """An attempt at ``now`` failed with ``error``: wait longer before the next."""
        self._failures += 1
        self._delay = min(self.maximum_s, self._delay * 2 if self._delay else self.initial_s)
        self._next_try = now + self._delay
        level = logging.WARNING if self._failures == 1 else logging.DEBUG
        self.logger.log(level, "%s unavailable (%s); retrying in %.1f s", self.name, error, self._delay, exc_info=False)

    def succeeded(self) -> None:
        """The link works again: the next failure starts from the shortest delay."""
        if self._failures:
            self.logger.info("%s connected again after %d failed attempts", self.name, self._failures)
        self._delay, self._next_try, self._failures = 0.0, 0.0, 0
