"""The calibration walk and ``nestref calibrate``: a mis-soldered matrix is fixed in the
config."""

from __future__ import annotations

import io
import re
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from firmware_host.calibrate import calibrate
from firmware_host.daemon.config import load_config
from firmware_host.daemon.diagnostics import Calibration, Stage, boot_checks, write_matrix
from hardware.matrix import GpioMatrix
from hardware.sensors import ScanUpdate
from sim.mock_matrix import MockSwitchMatrix


def test_the_walk_finds_each_switch():
    walk = Calibration(["a1", "b1", "confirm"], buttons=frozenset({"confirm"}))
    lines = walk.feed(frozenset(), 0.0) + walk.feed(frozenset(), 0.2)
    assert lines == ["Take every piece off the nest.", "Put a piece on a1."]
    lines = walk.feed(frozenset({(0, 1)}), 1.0) + walk.feed(frozenset({(0, 1)}), 1.2)
    assert lines == ["a1: row 0, column 1", "Take it off a1."]
    assert walk.feed(frozenset(), 1.5) + walk.feed(frozenset(), 1.7) == ["Put a piece on b1."]
    walk.feed(frozenset({(0, 1)}), 2.0)
    assert walk.feed(frozenset({(0, 1)}), 2.2)[0].endswith("the same switch as a1! (two cells wired together?)")
    walk.feed(frozenset(), 2.5)
    assert walk.feed(frozenset(), 2.7) == ["Press the confirm button."]
    assert walk.skip() == ["Done."]
    assert walk.stage is Stage.DONE
    assert walk.differences({"a1": (0, 0), "b1": (0, 1), "confirm": (7, 7)}) == [
        "a1: the switch is at row 0, column 1, the config says (0, 0)",
        "confirm: skipped (a dead switch, or a broken wire?)",
    ]


def test_a_stuck_switch_is_noted_and_the_walk_goes_on():
    walk = Calibration(["a1"], clear_timeout_s=1.0)
    walk.feed(frozenset({(3, 3)}), 0.0)
    lines = walk.feed(frozenset({(3, 3)}), 1.5)
    assert lines[0] == "These switches stay closed (stuck?): r3c3; going on without them."
    assert walk.stuck == {(3, 3)}
    walk.feed(frozenset({(3, 3), (0, 0)}), 2.0)
    assert walk.feed(frozenset({(3, 3), (0, 0)}), 2.2) == ["a1: row 0, column 0", "Take it off a1."]


def test_boot_checks():
    matrix = {"a1": (0, 0), "b1": (0, 1)}
    scans = [frozenset({(0, 0), (5, 5)}), frozenset({(5, 5)}), frozenset({(0, 0), (5, 5)})]
    assert [f.to_text() for f in boot_checks(scans, matrix)] == [
        "flickering while nobody touches the nest: a1",
        "closed, where the map puts no cell or button: r5c5",
    ]


def test_writing_the_map_keeps_the_rest_of_the_config():
    text = "[game]\nlenient = true\n\n[matrix]\na1 = [0, 0]\n\n[display]\nrotate = 2\n"
    written = write_matrix(text, {"a1": (1, 2), "b1": (3, 4)})
    assert written == (
        "[game]\nlenient = true\n\n[display]\nrotate = 2\n\n[matrix]  # written by nestref calibrate\n"
        "a1 = [1, 2]\nb1 = [3, 4]\n"
    )


class Builder:
    """Does what ``nestref calibrate`` prints, on a matrix soldered as ``wiring`` says;
    the switches of the ``dead`` cells never close: on those, after a second, the
    builder presses Enter."""

    def __init__(
        self,
        out: io.StringIO,
        switches: MockSwitchMatrix,
        wiring: dict[str, tuple[int, int]],
        dead: frozenset[str] = frozenset(),
    ) -> None:
        self.out, self.switches, self.wiring, self.dead, self.time = out, switches, wiring, dead, 0.0
        self.waiting_since: float | None = None  # on a dead cell's prompt

    def last_line(self) -> str:
        lines = self.out.getvalue().splitlines()
        return lines[-1] if lines else ""

    def clock(self) -> float:
        return self.time

    def sleep(self, seconds: float) -> None:
        self.time += 0.05
        assert self.time < 900, "the walk never ended"
        if match := re.fullmatch(r"(?:Put a piece on|Press the) (\w+)(?: button)?\.", self.last_line()):
            if match.group(1) not in self.dead:
                self.switches.set(self.wiring[match.group(1)], True)
        elif match := re.fullmatch(r"(?:Take it off|Let go of) (\w+)\.", self.last_line()):
            self.switches.set(self.wiring[match.group(1)], False)

    def presses_enter(self) -> bool:
        match = re.fullmatch(r"Put a piece on (\w+)\.", self.last_line())
        if not (match and match.group(1) in self.dead):
            return False
        if self.waiting_since is None:
            self.waiting_since = self.time
        if self.time - self.waiting_since <= 1.0:
            return False
        self.waiting_since = None
        return True


def walk_the_nest(
    config_path: Path, wiring: dict[str, tuple[int, int]], dead: frozenset[str] = frozenset()
) -> tuple[Calibration, str]:
    """``nestref calibrate --write`` with a builder doing what it says: the walk, and what it printed."""
    config = load_config(config_path)
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    out = io.StringIO()
    builder = Builder(out, switches, wiring, dead)
    walk = calibrate(
        str(config_path),
        write=True,
        out=out,
        pin_factory=factory,
        switches=GpioMatrix(config.sensors.rows, config.sensors.columns, pin_factory=factory),
        clock=builder.clock,
        sleep=builder.sleep,
        skip_requested=builder.presses_enter,
    )
    return walk, out.getvalue()


def test_calibrate_writes_the_map_the_walk_found(tmp_path):
    config_path = tmp_path / "config.toml"
    config_path.write_text("[game]\nlenient = true\n", encoding="utf-8")
    wiring = dict(load_config(config_path).matrix)
    wiring["a1"], wiring["b1"] = wiring["b1"], wiring["a1"]  # soldered the wrong way round
    walk, report = walk_the_nest(config_path, wiring)
    assert walk.stage is Stage.DONE
    assert "a1: the switch is at row 0, column 1, the config says (0, 0)" in report
    assert "b1: the switch is at row 0, column 0, the config says (0, 1)" in report
    assert f"Wrote the map into {config_path} [matrix]." in report
    fixed = load_config(config_path)
    assert (fixed.matrix["a1"], fixed.matrix["b1"]) == ((0, 1), (0, 0))
    assert fixed.referee.lenient  # the rest of the config is kept


class ReportsChangesOnly:
    """The serial backend's way: a report when the switches change, none in between."""

    connected = True

    def __init__(self, matrix: GpioMatrix) -> None:
        self.matrix = matrix
        self.last: frozenset[tuple[int, int]] | None = None

    def poll(self) -> list[ScanUpdate]:
        closed = self.matrix.scan()
        if closed == self.last:
            return []
        self.last = closed
        return [ScanUpdate(closed)]

    def close(self) -> None:
        self.matrix.close()


def test_calibrate_on_a_scanner_that_reports_only_changes(tmp_path):
    config_path = tmp_path / "config.toml"
    config_path.write_text("", encoding="utf-8")
    config = load_config(config_path)
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    out = io.StringIO()
    builder = Builder(out, switches, dict(config.matrix))
    walk = calibrate(
        str(config_path),
        write=False,
        out=out,
        pin_factory=factory,
        switches=ReportsChangesOnly(GpioMatrix(config.sensors.rows, config.sensors.columns, pin_factory=factory)),
        clock=builder.clock,
        sleep=builder.sleep,
        skip_requested=lambda: False,
    )
    assert walk.stage is Stage.DONE
    assert walk.found == dict(config.matrix)
