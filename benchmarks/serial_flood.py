"""The serial scanner under a flood: how long one ``SerialScanner.poll()`` takes while
the port is kept full of what no Pico sends — zero bytes, or a short garbage pattern that
makes a packet of every other byte — and, for comparison, while it carries the Pico's
frames (a backlog of them).

The daemon polls once per scan period (5 ms at 200 Hz): a poll must not take a good
part of one, whatever comes down the wire. The port is a real pty read by pyserial,
another process keeping it full. Budget: the p99 of a flooded poll under 5 ms (one scan
period). Measured here: 23 ms a poll for zero bytes before the decoder made a run of
zeros one zero and the poll got a time budget; 0.2 ms after.
Run from the repository's root: ``python -m benchmarks.serial_flood``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import time
import tty
from collections.abc import Sequence

from benchmarks.stats import percentile
from hardware.scanner_protocol import Snapshot
from hardware.serial_scanner import SerialScanner

BUDGET_MS = 5.0
CHUNK = 4096


def frames_at_full_rate() -> bytes:
    """A second's worth of SNAPSHOTs, as the Pico sends them when every frame changes."""
    frames = []
    for seq in range(250):
        closed = bytes([seq & 0xFF] + [0] * 7)
        frames.append(Snapshot(seq & 0xFF, 8, 8, closed, bytes(8)).to_bytes())
    return b"".join(frames)


def flood(master: int, chunk: bytes) -> None:
    """Keep the pty full (a write blocks while it is), until it is closed."""
    while True:
        try:
            os.write(master, chunk)
        except OSError:
            return


def poll_times_ms(pattern: bytes, polls: int) -> list[float]:
    """The time of each of ``polls`` polls of a scanner on a pty kept full of ``pattern``
    by another process (a thread would share the interpreter with the poll, and make it
    wait for its turn)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    chunk = (pattern * (CHUNK // len(pattern) + 1))[:CHUNK]
    writer = multiprocessing.get_context("fork").Process(target=flood, args=(master, chunk), daemon=True)
    scanner = SerialScanner(os.ttyname(slave), size=(8, 8))
    times: list[float] = []
    try:
        scanner.poll()  # opens the port
        writer.start()
        for _ in range(polls):
            time.sleep(0.005)  # a scan period: the writer fills the port again meanwhile
            began = time.perf_counter_ns()
            scanner.poll()
            times.append((time.perf_counter_ns() - began) / 1e6)
    finally:
        writer.terminate()
        writer.join(timeout=5)
        scanner.close()
        os.close(master)
        os.close(slave)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polls", type=int, default=400, help="polls per kind of traffic (default 400)")
    args = parser.parse_args(argv)
    print(f"serial scanner under a flood, on {platform.python_implementation()} {platform.python_version()}")
    worst = 0.0
    for name, pattern in (
        ("zero bytes", b"\x00"),
        ("garbage 00 01", b"\x00\x01"),
        ("valid frames", frames_at_full_rate()),
    ):
        times = poll_times_ms(pattern, args.polls)
        p99 = percentile(times, 0.99)
        if name != "valid frames":
            worst = max(worst, p99)
        print(
            f"{name}: per poll median {percentile(times, 0.5):.3f} ms, p99 {p99:.3f} ms, max {max(times):.3f} ms"
            f" ({args.polls} polls)"
        )
    print(f"budget: flooded poll p99 under {BUDGET_MS:g} ms: {'met' if worst < BUDGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
