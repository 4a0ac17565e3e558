"""What wording the OLED's screens costs: the presenter measures every line with the
driver's fonts so that nothing is cut (a sentence takes two lines, a list says how many
it leaves out), and that is done on every signal, before the screen is drawn.

For each screen the tests draw (``tests/test_display.py``: whose turn, a capture, an
illegal move, a question, a result, the set-up...), this times ``screens.screen()``
against the named reference in the same run: drawing that same screen into an image
(``hardware.display.render``, what the OLED driver does with it next, luma's own text
drawing). Budget: the wording costs less than the drawing (ratio of the medians under 1),
and the dearest screen's median is under 0.5 ms here (a tenth of the daemon's 5 ms
switch-to-command budget). The p99 is printed too; on a busy machine it measures the
machine.

    python -m benchmarks.presenter_speed [--rounds 200]

Run it from the repository's root (it imports ``tests.test_display``).
"""

from __future__ import annotations

import argparse
import functools
import platform
import statistics
import sys

from benchmarks.stats import percentile, timed_ms
from firmware_host.daemon.presenter import Scene
from firmware_host.daemon.screens import screen as screen_of
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Nest
from hardware.display import render
from tests.test_display import scenes

RATIO_BUDGET = 1.0
SCREEN_BUDGET_MS = 0.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="calls per screen (default 200)")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    wording: list[float] = []
    drawing: list[float] = []
    dearest = 0.0  # the highest median of a screen's wording
    for name, signals in scenes().items():
        scene = Scene(CuckooGame(Nest.default()))
        for signal in signals:
            scene = scene.following(signal)
        screen = screen_of(scene)
        words = timed_ms(functools.partial(screen_of, scene), args.rounds)
        drawn = timed_ms(functools.partial(render, screen), args.rounds)
        wording += words
        drawing += drawn
        dearest = max(dearest, statistics.median(words))
        print(f"{name:14} wording {statistics.median(words):.3f} ms, drawing {statistics.median(drawn):.3f} ms")
    ratio = statistics.median(wording) / statistics.median(drawing)
    p99 = percentile(wording, 0.99)
    print(
        f"all screens: wording median {statistics.median(wording):.3f} ms, p99 {p99:.3f} ms; "
        f"the dearest screen's median {dearest:.3f} ms (budget {SCREEN_BUDGET_MS} ms); "
        f"drawing median {statistics.median(drawing):.3f} ms"
    )
    print(f"ratio: wording / drawing = {ratio:.2f} (budget under {RATIO_BUDGET:.0f})")
    within = ratio < RATIO_BUDGET and dearest < SCREEN_BUDGET_MS
    print("budget: met" if within else "budget: over")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
