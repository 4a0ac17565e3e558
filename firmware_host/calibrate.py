"""``nestref calibrate``: the builder's walk over the nest, in the terminal.

The walk itself is :class:`firmware_host.daemon.diagnostics.Calibration` (pure); this runs it
against the real switch matrix: it reads the matrix, prints what to do next, lets the
builder skip a cell with Enter, and at the end compares the map it found with the
config's and, with ``--write``, writes it into the config.
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from firmware_host.daemon.config import load_config
from firmware_host.daemon.diagnostics import Calibration, Stage, place_name, write_matrix
from firmware_host.errors import ConfigError
from firmware_host.files import read_text, write_text
from hardware.sensors import Crossing, SwitchMatrix


def _enter_pressed() -> bool:
    """Whether the builder pressed Enter (only when the terminal is a terminal)."""
    if not sys.stdin.isatty():
        return False
    ready, _, _ = select.select([sys.stdin], [], [], 0)
    if ready:
        sys.stdin.readline()
        return True
    return False


def calibrate(
    config_path: str | None,
    *,
    write: bool,
    out: TextIO,
    pin_factory: Any,
    switches: SwitchMatrix | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    skip_requested: Callable[[], bool] = _enter_pressed,
) -> Calibration:
    """Walk the builder over every cell and matrix button; report and maybe write the
    map. Raises :class:`ConfigError` for a config that cannot be written."""
    config = load_config(config_path)
    if write and config_path is None:
        raise ConfigError("calibrate --write needs --config FILE: the file to write the map into")
    if switches is None:
        from firmware_host.daemon import open_switches

        switches = open_switches(config, pin_factory=pin_factory)
    buttons = [name for name, pin in config.buttons.items() if pin is None]
    walk = Calibration([*config.game.board.cells, *buttons], buttons=frozenset(buttons))
    print("Calibration: press Enter to skip a cell whose switch never closes; Ctrl-C to stop.", file=out)
    closed: frozenset[Crossing] | None = None  # the last reading
    try:
        while walk.stage is not Stage.DONE:
            lines: list[str] = walk.skip() if skip_requested() else []
            for update in switches.poll():
                closed = update.closed
                lines += walk.feed(closed, clock())
            if closed is not None:  # a serial scanner reports changes only: time passes too
                lines += walk.feed(closed, clock())
            for line in lines:
                print(line, file=out, flush=True)
            sleep(0.005)
    except KeyboardInterrupt:
        print("Stopped.", file=out)
    finally:
        switches.close()
    differences = walk.differences(config.matrix)
    if walk.stuck:
        stuck = " ".join(place_name(p, {}) for p in sorted(walk.stuck))
        print(f"Stuck closed: {stuck}", file=out)
    if not differences:
        print("The config's map matches the nest." if walk.stage is Stage.DONE else "No differences so far.", file=out)
    for line in differences:
        print(line, file=out)
    if write and config_path is not None:
        if walk.stage is not Stage.DONE or walk.skipped:
            print("Not written: the walk did not place every cell.", file=out)
        else:
            path = Path(config_path)
            write_text(path, write_matrix(read_text(path, "config"), walk.found))
            load_config(path)  # it must still be a valid config
            print(f"Wrote the map into {path} [matrix].", file=out)
    return walk
