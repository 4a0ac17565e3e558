"""The daemon, whole: the real composition root on gpiozero's MockFactory and luma's
dummy devices, a game played by hands closing and opening the simulated switches."""

from __future__ import annotations

import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from PIL import Image

from firmware_host.cli import main
from firmware_host.daemon import Daemon, Devices, open_devices
from firmware_host.daemon.config import Config, load_config
from firmware_host.daemon.presenter import View
from firmware_host.daemon.tunes import Cue
from firmware_host.errors import HardwareError
from firmware_host.games.base import public_view
from firmware_host.games.cuckoo.rules import Move, Nest, Position, Side
from firmware_host.recorder.store import GameStore
from firmware_host.referee.signals import GameStarted, MoveAccepted, Signal
from hardware.display import open_oled
from hardware.errors import DeviceError
from hardware.lights import CellLights
from hardware.outputs import Blink
from sim.mock_devices import open_mock_devices
from sim.pico import SimulatedPico
from tests.hand_model import Hand, random_moves
from tests.helpers import setup

NESTREF = str(Path(sys.executable).parent / "nestref")


class Clock:
    """The daemon's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def write_config(tmp_path, extra: str = "") -> str:
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\ndatabase = "{tmp_path / "games.sqlite"}"\n{extra}', encoding="utf-8")
    return str(path)


class Rig:
    """A daemon on mock hardware, and hands on its switches."""

    def __init__(self, tmp_path, extra: str = "", *, config: Config | None = None, devices: Devices | None = None):
        self.config = config or load_config(write_config(tmp_path, extra))
        if devices is None:
            devices, self.switches = open_mock_devices(self.config)
        self.devices = devices
        self.clock = Clock()
        self.daemon = Daemon(self.config, devices, clock=self.clock, wall_clock=lambda: 1_800_000_000.0)
        self.cells = dict(self.config.matrix)

    def show(self, position: Position) -> None:
        """The nest holds exactly ``position``'s pieces."""
        self.switches.set_all(self.cells[cell] for cell in position.occupied())

    def start(self, position: Position | None = None) -> None:
        """Start the daemon (the nest showing ``position`` first, if given)."""
        if position is not None:
            self.show(position)
        self.daemon.start()
        self.run_for(0.1)

    def run_for(self, seconds: float) -> None:
        """Let the daemon run: a turn every ``period()``, as its loop does."""
        end = self.clock.now + seconds
        while self.clock.now < end:
            self.clock.now += self.daemon.period()
            self.daemon.turn()

    def change(self, name: str, closed: bool) -> None:
        self.switches.set(self.config.matrix[name], closed)

    def press(self, button: str, seconds: float = 0.2) -> None:
        self.change(button, True)
        self.run_for(seconds)
        self.change(button, False)
        self.run_for(0.1)

    def moves(self) -> list[str]:
        with sqlite3.connect(self.config.database) as db:
            return [m for (m,) in db.execute("SELECT move FROM moves WHERE taken_back_at IS NULL ORDER BY id")]

    def close(self) -> None:
        self.daemon.close()


def play_c3_c4(rig: Rig) -> None:
    """Red's first move, lifted and put down."""
    rig.change("c3", False)
    rig.run_for(0.3)
    rig.change("c4", True)
    rig.run_for(0.5)


def answer_questions(rig: Rig, played: list[Move]) -> None:
    """What a player does when the OLED asks which move was made: point at the move
    made with "switch", then press "confirm"."""
    while rig.daemon.snapshot().question and len(rig.moves()) < len(played):
        made = played[len(rig.moves())]
        if made not in rig.daemon.snapshot().question:
            return
        while rig.daemon.snapshot().answer != made:
            rig.press("switch")
        rig.press("confirm")


def play_a_whole_game(tmp_path, seed: int) -> tuple[Rig, Position]:
    """A random game played by hands (tests.hand_model) on the daemon's mock switches,
    the daemon turning at its own pace (fast, or at the idle rate)."""
    rng = random.Random(seed)
    start = Position.from_lineup("standard")  # the daemon starts a set with red
    played = random_moves(rng, start)
    board = start.copy()
    for move in played:
        board.push(move)
    events = Hand(rng).game(start, played)
    rig = Rig(tmp_path)
    rig.show(start)
    rig.start()
    assert rig.daemon.view is View.PLAYING  # the nest showed the lineup: game 1 began
    began = rig.clock.now
    for event in events:
        target = began + event.time_ms / 1000
        if target > rig.clock.now:
            rig.run_for(target - rig.clock.now)
        answer_questions(rig, played)
        rig.change(event.cell, event.occupied)
    rig.run_for(4)  # long enough for a question about the last move
    answer_questions(rig, played)
    rig.run_for(1)
    assert rig.moves() == [str(move) for move in played]
    return rig, board


# Seeds whose games hold captures pushed off too fast for any scan to see.
@pytest.mark.parametrize("seed", [4, 12, 13, 29])
def test_a_whole_game_through_the_daemon(tmp_path, seed):
    rig, board = play_a_whole_game(tmp_path, seed)
    assert rig.daemon.view is View.OVER
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is not None
    screen = rig.daemon.snapshot().screen
    assert screen.headline == f"{outcome.winner.label.upper()} WINS"
    assert rig.devices.display is not None
    image: Image.Image = rig.devices.display.device.image
    assert image.getbbox() is not None  # something is drawn on the OLED
    lights = rig.daemon.snapshot().lights
    assert lights[f"{outcome.winner.label}_turn"] is Blink.SLOW
    rig.close()


def test_the_daemon_shows_whose_turn_an_illegal_move_and_the_fix(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    factory = rig.devices.pin_factory
    pins = rig.config.status_lights
    assert factory.pin(pins["red_turn"]).state is True
    assert factory.pin(pins["blue_turn"]).state is False
    rig.change("c3", False)
    rig.run_for(0.3)
    rig.change("c5", True)  # an egg two cells on: illegal
    rig.run_for(0.5)
    assert rig.daemon.snapshot().screen.headline == "ILLEGAL"
    assert rig.daemon.snapshot().lights["error"] is Blink.FAST
    cells = rig.daemon.snapshot().cells
    assert (cells["c5"], cells["c3"]) == (Blink.FAST, Blink.ON)
    led_matrix = rig.devices.cell_lights
    assert isinstance(led_matrix, CellLights)  # the MAX7219's (not a WS2812 chain)
    x, y = rig.config.cell_lights.map["c3"]
    assert led_matrix.device.image.getpixel((x, y)) == 255  # the cell to fill is lit
    rig.change("c5", False)
    rig.run_for(0.3)
    rig.change("c3", True)
    rig.run_for(0.5)
    assert rig.daemon.snapshot().screen.headline == "RED"
    play_c3_c4(rig)
    assert rig.moves() == ["c3-c4"]
    assert factory.pin(pins["blue_turn"]).state is True
    rig.close()


def test_buttons_take_back_and_start_a_new_game(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)
    assert rig.moves() == ["c3-c4"]
    rig.press("take_back")
    assert rig.moves() == []
    assert rig.daemon.snapshot().screen.headline == "UNDO"
    rig.change("c4", False)
    rig.run_for(0.3)
    rig.change("c3", True)
    rig.run_for(0.5)
    assert rig.daemon.snapshot().screen.headline == "RED"
    rig.press("take_back", seconds=2.5)  # held: red resigns
    rig.run_for(1)  # the nest still shows the lineup: game 2 starts, blue first
    with sqlite3.connect(rig.config.database) as db:
        assert db.execute("SELECT number, result, how FROM games ORDER BY id").fetchall() == [
            (1, "blue", None),
            (2, None, None),
        ]
    assert rig.daemon.snapshot().game.number == 2
    assert rig.daemon.snapshot().game.to_move is Side.BLUE
    rig.close()


def test_a_question_is_answered_with_the_buttons(tmp_path):
    position = setup("Ca1 We5 ed6 ee6 ee9 ca9")  # the warbler may take d6 or e6
    path = write_config(tmp_path)
    config = load_config(path)
    with GameStore(config.database, game=config.game, clock=lambda: 0.0) as store:
        started = GameStarted(1, "standard", Side.RED, public_view(config.game, position), new_set=True)
        store.record([started], positions=[position.to_nfn()], referee_ms=0)
    rig = Rig(tmp_path)
    rig.show(position)
    rig.start()
    assert rig.daemon.snapshot().game.to_move is Side.RED  # the game was resumed from the record
    rig.change("e5", False)
    rig.run_for(0.3)
    for cell in ("d6", "e6"):  # both flicker: the sensors cannot tell which was taken
        rig.change(cell, False)
        rig.run_for(0.005)
        rig.change(cell, True)
        rig.run_for(0.005)
    rig.run_for(0.5)
    _, second = rig.daemon.snapshot().question
    rig.press("switch")  # point at the second answer
    assert rig.daemon.snapshot().answer == second
    rig.press("confirm")
    assert rig.moves() == [str(second)]
    rig.close()


def test_the_boot_self_test_names_what_is_wrong(tmp_path):
    rig = Rig(
        tmp_path,
        "[matrix]\n"
        + "".join(
            f"{name} = [{row}, {column}]\n"
            for name, (row, column) in load_config(None).matrix.items()
            if name != "switch"
        )
        + '[status_lights]\ncapture = "none"\n[buttons]\nswitch = 15\n',
    )
    rig.switches.set_all({(7, 5)})  # closed where nothing is mapped any more
    rig.start()
    assert "closed, where the map puts no cell or button: r7c5" in rig.daemon.findings
    rig.close()


def test_pin_buttons(tmp_path):
    rig = Rig(tmp_path, '[status_lights]\ncapture = "none"\n[buttons]\ntake_back = 15\n')
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)
    pin = rig.devices.pin_factory.pin(15)
    pin.drive_low()
    rig.run_for(0.2)
    pin.drive_high()
    rig.run_for(0.2)
    assert rig.moves() == []
    rig.close()


def test_shutdown_leaves_the_lights_and_the_oled_dark(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    rig.close()
    assert rig.devices.display is not None
    assert rig.devices.display.device.image.getbbox() is None
    assert not any(rig.devices.pin_factory.pin(pin).state for pin in rig.config.status_lights.values())


def test_nestref_run_stops_cleanly_on_sigterm(tmp_path):
    config = write_config(tmp_path)
    with subprocess.Popen(
        [NESTREF, "run", "--config", config, "--mock"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    ) as process:
        assert process.stderr is not None
        started = False
        for line in process.stderr:
            if "daemon started" in line:
                started = True
                break
        assert started
        os.kill(process.pid, signal.SIGTERM)
        rest = process.stderr.read()
        assert process.wait(timeout=20) == 0
    assert "daemon stopped" in rest
    assert "level=error" not in rest


STARTS_A_GPIO_NEST = """
import sys
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from firmware_host.daemon import Daemon, open_devices
from firmware_host.daemon.config import load_config
config = load_config(sys.argv[1])
devices = open_devices(config, pin_factory=MockFactory(), display_device=dummy(width=128, height=64, mode="1"),
                       cell_device=dummy(width=8, height=8, mode="1"))
daemon = Daemon(config, devices)
daemon.start()
daemon.turn()
daemon.close()
print(" ".join(sorted(name for name in sys.modules if name.split(".")[0] in ("asyncio", "serial", "aiohttp", "sim"))))
# Nor the web's client libraries (megabytes of memory on a Zero, for nothing).
print(" ".join(sorted(name for name in sys.modules if name in ("ssl", "http.client", "urllib.request", "paho"))))
print(" ".join(sorted(name for name in sys.modules if name.startswith("hardware.serial"))))
"""


def test_a_gpio_nest_without_its_web_page_starts_without_asyncio_or_pyserial(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", STARTS_A_GPIO_NEST, write_config(tmp_path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == ["", "", ""], done.stdout


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("[gmae]\n", "unknown key"),
        ("[status_lights]\nerror = 4\n", "GPIO4 is already used by sensors.gpio.rows"),
        ('[sensors]\nbackend = "serial"\n', "sensors.backend: the simulated nest is scanned on GPIO"),
    ],
)
def test_a_bad_config_stops_with_a_clear_message_and_exit_code_2(tmp_path, config, message):
    path = write_config(tmp_path, config)
    done = subprocess.run([NESTREF, "run", "--config", path, "--mock"], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_no_gpio_here_is_a_clear_message_and_exit_code_1_so_systemd_tries_again(tmp_path):
    done = subprocess.run(
        [NESTREF, "run", "--config", write_config(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "run on a Raspberry Pi, or try it all with --mock" in done.stderr


def wait_until(rig: Rig, condition, seconds: float = 10.0) -> None:
    """Run the daemon in real time until ``condition()`` holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        rig.daemon.step()
        time.sleep(0.002)


def test_the_daemon_on_the_serial_scanner_survives_a_pulled_cable(tmp_path):
    link = tmp_path / "ttyACM0"
    pico = SimulatedPico(link)
    pico.plug()
    pico.boot()
    config = load_config(write_config(tmp_path, f'[sensors]\nbackend = "serial"\n[sensors.serial]\nport = "{link}"\n'))
    devices = open_devices(
        config,
        pin_factory=MockFactory(),
        display_device=dummy(width=128, height=64, mode="1"),
        cell_device=dummy(width=8, height=8, mode="1"),
    )
    rig = Rig(tmp_path, config=config, devices=devices)
    rig.daemon = Daemon(config, devices)  # on the real clock: the Pico runs in real time
    try:
        pico.matrix.set_closed(config.matrix[cell] for cell in Position.from_lineup().occupied())
        rig.daemon.start()
        wait_until(rig, lambda: rig.daemon.view is View.PLAYING)  # the lineup is seen: game 1
        lineup = set(Position.from_lineup().occupied())
        pico.matrix.set_closed(config.matrix[cell] for cell in (lineup - {"c3"}) | {"c4"})
        wait_until(rig, lambda: rig.moves() == ["c3-c4"])
        pico.unplug()
        wait_until(rig, lambda: rig.daemon.snapshot().screen.footer == "sensors not connected")
        assert rig.daemon.snapshot().screen.footer == "sensors not connected"
        assert rig.daemon.snapshot().lights["error"] is Blink.FAST
        pico.matrix.set_closed(config.matrix[cell] for cell in (lineup - {"c3", "c7"}) | {"c4", "c6"})
        pico.plug()  # plugged back, blue has moved c7-c6 meanwhile
        pico.boot()
        wait_until(rig, lambda: rig.daemon.snapshot().screen.footer != "sensors not connected")
        wait_until(rig, lambda: rig.moves() == ["c3-c4", "c7-c6"])
    finally:
        pico.unplug()
        rig.daemon.close()


def test_the_raw_sensor_log_is_recorded_and_replays_to_the_same_moves(tmp_path, capsys):
    logs = tmp_path / "sensor-logs"
    config_path = write_config(tmp_path, "")
    text = Path(config_path).read_text(encoding="utf-8").replace("[storage]\n", f'[storage]\nsensor_log = "{logs}"\n')
    Path(config_path).write_text(text, encoding="utf-8")
    rig = Rig(tmp_path, config=load_config(config_path))
    rig.show(Position.from_lineup())
    rig.start()
    for cell, closed in (("c3", False), ("c4", True), ("c7", False), ("c6", True)):
        rig.change(cell, closed)
        rig.run_for(0.4)
    assert rig.moves() == ["c3-c4", "c7-c6"]
    rig.close()
    (log,) = logs.iterdir()
    assert log.read_text(encoding="utf-8").startswith(f"# position: {Position.from_lineup().to_nfn()}\n")
    assert main(["referee", "--events", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("move ")] == ["move c3-c4", "move c7-c6"]


def test_a_sensor_log_of_a_nest_not_showing_a_position_says_which_cells_hold_pieces(tmp_path, capsys):
    logs = tmp_path / "sensor-logs"
    config_path = write_config(tmp_path, "")
    text = Path(config_path).read_text(encoding="utf-8").replace("[storage]\n", f'[storage]\nsensor_log = "{logs}"\n')
    Path(config_path).write_text(text, encoding="utf-8")
    rig = Rig(tmp_path, config=load_config(config_path))
    lineup = Position.from_lineup()
    rig.show(lineup)
    rig.change("e5", True)  # a piece left in the middle of the nest: no game's position
    rig.start()
    for cell, closed in (("e5", False), ("c3", False), ("c4", True)):
        rig.change(cell, closed)
        rig.run_for(0.4)
    assert rig.moves() == ["c3-c4"]
    rig.close()
    (log,) = logs.iterdir()
    header = log.read_text(encoding="utf-8").splitlines()[0]
    held = sorted({*lineup.occupied(), "e5"}, key=Nest.default().index)
    assert header == f"# occupied: {' '.join(held)}"  # no made-up pieces: only what the switches felt
    assert main(["referee", "--events", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("move ")] == ["move c3-c4"]


def test_a_display_that_is_not_there_is_a_clear_error():
    with pytest.raises(DeviceError, match=r"display: no ssd1306 on I2C bus 99 at address 0x3C .*raspi-config"):
        open_oled("ssd1306", bus=99, address=0x3C, rotate=0)


def test_moves_made_while_the_record_cannot_be_written_are_kept_and_shown(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    other = sqlite3.connect(rig.config.database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the file for writing
    play_c3_c4(rig)
    rig.run_for(1.5)
    shown = rig.daemon.snapshot()
    assert shown.screen.footer == "cannot save games: locked"  # another program holds it
    assert shown.lights["error"] is Blink.FAST and not shown.game.saved
    assert shown.screen.headline == "RED" and shown.game.moves == ()  # not shown before it is on disk
    other.execute("ROLLBACK")
    other.close()
    rig.run_for(1.5)
    assert rig.moves() == ["c3-c4"]
    shown = rig.daemon.snapshot()
    assert "last: c3-c4" in shown.screen.lines
    assert shown.game.saved and shown.lights["error"] is Blink.OFF
    rig.close()


def test_a_bug_in_the_loop_restarts_the_referee_from_the_record(tmp_path, caplog):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    failed: list[Signal] = []

    def buggy(signal: Signal) -> None:
        if isinstance(signal, MoveAccepted) and not failed:
            failed.append(signal)
            raise RuntimeError("a bug")

    rig.daemon.subscribe(buggy)
    play_c3_c4(rig)
    assert failed and "the loop failed" in caplog.text
    rig.change("c7", False)  # the game goes on
    rig.run_for(0.3)
    rig.change("c6", True)
    rig.run_for(0.5)
    assert rig.moves() == ["c3-c4", "c7-c6"]
    rig.close()


def test_a_sensor_log_that_cannot_be_written_is_given_up_not_the_game(tmp_path, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    config_path = write_config(tmp_path)
    text = Path(config_path).read_text(encoding="utf-8")
    text = text.replace("[storage]\n", f'[storage]\nsensor_log = "{blocker}"\n')
    Path(config_path).write_text(text, encoding="utf-8")
    rig = Rig(tmp_path, config=load_config(config_path))
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)
    assert rig.moves() == ["c3-c4"]
    assert "no more readings are recorded" in caplog.text
    rig.close()


def test_sensor_logs_get_new_names_and_only_the_newest_are_kept(tmp_path):
    logs = tmp_path / "sensor-logs"
    logs.mkdir()
    for n in range(12):
        old = logs / f"sensors-20260101-0000{n:02d}.log"
        old.write_text("# position: 9/8/7/6/5/6/7/8/9 r\n", encoding="utf-8")
        os.utime(old, (n, n))
    config_path = write_config(tmp_path)
    text = Path(config_path).read_text(encoding="utf-8")
    Path(config_path).write_text(text.replace("[storage]\n", f'[storage]\nsensor_log = "{logs}"\n'), encoding="utf-8")
    for _ in range(2):  # two starts in the same second: two files
        rig = Rig(tmp_path, config=load_config(config_path))
        rig.show(Position.from_lineup())
        rig.start()
        rig.close()
    names = sorted(path.name for path in logs.iterdir())
    assert len(names) == 10
    stamp = datetime.fromtimestamp(1_800_000_000.0).strftime("sensors-%Y%m%d-%H%M%S")  # the rig's wall clock
    assert {f"{stamp}.log", f"{stamp}-1.log"} <= set(names)
    assert "sensors-20260101-000000.log" not in names  # the oldest went


def test_pieces_on_an_empty_nest_at_start_are_reported_on_the_oled(tmp_path):
    rig = Rig(tmp_path)
    rig.switches.set_all({rig.cells["d4"], rig.cells["f6"]})
    rig.start()
    assert rig.daemon.snapshot().screen.footer == "check d4 f6"
    assert any("closed on an empty nest" in finding for finding in rig.daemon.findings)
    assert rig.daemon.snapshot().lights["error"] is Blink.ON


def test_the_nest_is_scanned_fast_in_play_and_slowly_when_left_alone(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    sensors = rig.config.sensors
    assert rig.daemon.period() == 1 / sensors.asleep_scan_hz  # nobody has touched it yet
    rig.change("c3", False)
    rig.run_for(0.1)
    assert rig.daemon.period() == 1 / sensors.scan_hz
    rig.run_for(60)  # a piece in a hand, a long think: still fast
    assert rig.daemon.period() == 1 / sensors.scan_hz
    rig.change("c4", True)
    rig.run_for(1)
    assert rig.daemon.period() == 1 / sensors.scan_hz
    rig.run_for(31)
    assert rig.daemon.period() == 1 / sensors.idle_scan_hz  # a long think
    rig.run_for(240)
    assert rig.daemon.period() == 1 / sensors.idle_scan_hz
    rig.run_for(30)  # five minutes without a change: nobody is playing
    assert rig.daemon.period() == 1 / sensors.asleep_scan_hz
    rig.change("c4", False)
    rig.run_for(0.1)
    assert rig.daemon.period() == 1 / sensors.scan_hz


def test_a_glitch_on_a_button_pin_is_no_press(tmp_path):
    rig = Rig(tmp_path, '[status_lights]\ncapture = "none"\n[buttons]\ntake_back = 15\n')
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)
    pin = rig.devices.pin_factory.pin(15)
    pin.drive_low()  # 10 ms of noise on the wire
    rig.clock.now += 0.01
    pin.drive_high()
    rig.run_for(0.5)
    assert rig.moves() == ["c3-c4"]
    rig.close()


def test_pins_already_in_use_are_a_clear_hardware_error(tmp_path):
    config = load_config(write_config(tmp_path))
    factory = MockFactory()
    factory.pin(config.sensors.rows[0]).function = "output"
    from gpiozero import LED

    holder = LED(config.sensors.rows[0], pin_factory=factory)  # another program has it
    with pytest.raises(HardwareError, match=r"GPIO: .*is another program using the pins\?"):
        open_devices(
            config,
            pin_factory=factory,
            display_device=dummy(width=128, height=64, mode="1"),
            cell_device=dummy(width=8, height=8, mode="1"),
        )
    holder.close()


def test_a_game_with_a_clock_shows_the_times_and_a_flag_fall_ends_it(tmp_path):
    rig = Rig(tmp_path, '[clock]\ncontrol = "1"\n')  # a minute each, sudden death
    rig.show(Position.from_lineup())
    rig.start()
    assert rig.daemon.snapshot().screen.footer == "red 1:00  blue 1:00"  # waiting for the first move
    play_c3_c4(rig)  # red's first move: blue's clock runs
    rig.run_for(10)
    footer = rig.daemon.snapshot().screen.footer
    assert footer in ("red 1:00  blue 0:49", "red 1:00  blue 0:50"), footer  # ten seconds on blue's clock
    assert rig.daemon.snapshot().game.clock == ("1:00", footer.split()[-1])
    rig.run_for(51)
    screen = rig.daemon.snapshot().screen
    assert "out of time" in " ".join(screen.lines), screen
    with sqlite3.connect(rig.config.database) as db:
        assert db.execute("SELECT result, how FROM games").fetchall() == [("red", "time")]
    rig.close()


def test_the_piezo_sounds_an_illegal_move(tmp_path):
    # Without cell lights, their SPI pins are free: the piezo on GPIO10.
    rig = Rig(tmp_path, '[cell_lights]\ndriver = "none"\n[sound]\nenabled = true\npin = 10\n')
    piezo = rig.devices.pin_factory.pin(10)
    heard: list[tuple[str, float | None]] = []
    rig.daemon.subscribe(lambda signal: heard.append((type(signal).__name__, piezo.frequency)))
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)  # a move accepted: no sound (move_accepted is off)
    assert ("MoveAccepted", None) in heard
    rig.change("c7", False)
    rig.run_for(0.3)
    rig.change("c5", True)  # blue's egg two cells on: illegal
    rig.run_for(1.5)
    assert ("MoveRefused", pytest.approx(440, rel=0.01)) in heard  # A4, the illegal move's low note
    rig.run_for(1.0)
    assert piezo.frequency is None  # the tune is over
    rig.close()


def test_no_piezo_without_sound_in_the_config(tmp_path):
    rig = Rig(tmp_path)
    assert rig.devices.sounder is None
    rig.close()


def test_an_idle_nest_skips_the_rest_of_a_turn_that_reads_no_change(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    rig.run_for(1)
    service = rig.daemon.service
    assert service is not None
    ticks: list[int] = []
    tick = service.tick

    def counted_tick(now: int) -> list[Signal]:
        ticks.append(now)
        return tick(now)

    service.tick = counted_tick  # type: ignore[method-assign]
    rig.run_for(10)  # a still nest at the idle rate: nothing blinks, nothing is due
    assert len(ticks) <= 2
    rig.change("c3", False)  # the first change is read at the very next turn
    rig.clock.now += rig.daemon.period()
    rig.daemon.turn()
    assert ticks and rig.daemon.service is service
    rig.run_for(0.3)
    rig.change("c4", True)
    rig.run_for(0.5)
    assert rig.moves() == ["c3-c4"]
    rig.close()


def test_lights_blink_in_time_and_deadlines_come_on_time_through_quiet_turns(tmp_path):
    rig = Rig(tmp_path)
    rig.show(Position.from_lineup())
    rig.start()
    rig.change("c3", False)
    rig.run_for(0.3)
    rig.change("c5", True)  # illegal: the error light blinks fast, 4 Hz
    rig.run_for(0.5)
    assert rig.daemon.snapshot().lights["error"] is Blink.FAST
    error_pin = rig.devices.pin_factory.pin(rig.config.status_lights["error"])
    rig.run_for(40)  # long enough to scan at the idle rate
    period = rig.daemon.period()
    assert period == 1 / rig.config.sensors.idle_scan_hz
    seen = []
    for _ in range(round(2 / period)):
        rig.clock.now += period
        rig.daemon.turn()
        seen.append((rig.clock.now, error_pin.state))
    toggles = [at for (at, state), (_, before) in zip(seen[1:], seen, strict=False) if state != before]
    edges = math.floor(seen[-1][0] / 0.125) - math.floor(seen[0][0] / 0.125)  # at 4 Hz: on and off each 1/8 s
    assert len(toggles) == edges >= 15
    assert all(at % 0.125 < period + 1e-9 for at in toggles)  # each at the first turn after its edge
    # A button held (the side to move resigns) is acted on at its time, though the
    # turns before are quiet: while it is still held.
    rig.change("c5", False)
    rig.run_for(0.3)
    rig.change("c3", True)
    rig.run_for(40)
    rig.change("take_back", True)
    rig.run_for(2.1)
    with sqlite3.connect(rig.config.database) as db:
        assert db.execute("SELECT result FROM games WHERE number = 1").fetchall() == [("blue",)]
    rig.close()


def test_the_piezo_sounds_low_time_once_as_the_clock_falls_under_its_mark(tmp_path):
    # A minute each: the mark is 10 s (a tenth of a minute is less; 10 s at least).
    extra = '[clock]\ncontrol = "1"\n[cell_lights]\ndriver = "none"\n[sound]\nenabled = true\npin = 10\n'
    rig = Rig(tmp_path, extra)
    piezo = rig.devices.pin_factory.pin(10)
    cues: list[Cue] = []
    rig.daemon.subscribe_cues(cues.append)
    rig.show(Position.from_lineup())
    rig.start()
    play_c3_c4(rig)  # blue's clock runs
    tones: list[tuple[float, float | None]] = []  # (seconds on blue's clock, the pin's tone)
    began = rig.clock.now
    while rig.clock.now - began < 52.0:
        rig.run_for(0.01)
        tones.append((rig.clock.now - began, piezo.frequency))
    sounded = [at for at, hz in tones if hz is not None]
    assert cues == [Cue.LOW_TIME]  # once, though blue stays under the mark
    assert sounded and 49.5 < sounded[0] < 50.6  # 10 s before blue's flag (a minute, less the first move's 0.5 s)
    assert {round(hz) for hz in filter(None, (hz for _, hz in tones))} == {1760}  # A6: two clicks
    clicks = [at for (at, hz), (_, before) in zip(tones[1:], tones, strict=False) if hz and not before]
    assert len(clicks) == 2 and 0.1 < clicks[1] - clicks[0] < 0.2  # 30 ms on, 120 ms rest, 30 ms on
    assert sounded[-1] - sounded[0] < 0.25  # and nothing more
    rig.close()
