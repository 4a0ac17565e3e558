"""``nestref run --mock`` and ``nestref calibrate --mock`` as a builder rehearses the
build off the Pi, as an ordinary user: the games kept in the user's data folder, the
calibration walked by a simulated builder on a simulated nest."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.daemon.config import load_config

NESTREF = str(Path(sys.executable).parent / "nestref")
SHIPPED_DATABASE = load_config(None).database  # /var/lib/nestref/games.sqlite: the Pi's


def user_environment(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a user whose home is ``home``, with no XDG folders of their own."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    return {**environment, "HOME": str(home), **extra}


def run_until_started(args: list[str], environment: dict[str, str], cwd: Path) -> str:
    """``nestref run --mock ...`` until the daemon has started, then stopped with
    SIGTERM as systemd stops it; what it logged. It must stop cleanly."""
    with subprocess.Popen(
        [NESTREF, "run", "--mock", *args],
        env=environment,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # what it prints and what it logs, in one stream
        text=True,
    ) as process:
        assert process.stdout is not None
        logged = []
        for line in process.stdout:
            logged.append(line)
            if "daemon started" in line:
                break
        os.kill(process.pid, signal.SIGTERM)
        logged.append(process.stdout.read())
        assert process.wait(timeout=20) == 0, "".join(logged)
    text = "".join(logged)
    assert "daemon started" in text and "Traceback" not in text, text
    return text


def is_a_record(path: Path) -> bool:
    return path.is_file() and path.read_bytes()[:16] == b"SQLite format 3\x00"


@pytest.mark.parametrize(
    ("extra", "args", "where"),
    [
        ({}, [], ".local/share/nestref/games.sqlite"),  # no XDG_DATA_HOME: ~/.local/share
        ({"XDG_DATA_HOME": "{tmp}/data"}, [], "data/nestref/games.sqlite"),
        ({"XDG_DATA_HOME": "relative"}, [], ".local/share/nestref/games.sqlite"),  # not absolute: ignored
        ({"XDG_DATA_HOME": "{tmp}/data"}, ["--db", "{tmp}/mine.sqlite"], "mine.sqlite"),
        ({}, ["--config", "{tmp}/config.toml"], "from-config.sqlite"),  # the config says where
    ],
)
def test_run_mock_keeps_the_games_in_the_users_folder_unless_told(tmp_path, extra, args, where):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "config.toml").write_text('[storage]\ndatabase = "from-config.sqlite"\n', encoding="utf-8")
    fill = {"tmp": str(tmp_path)}
    environment = user_environment(home, **{key: value.format(**fill) for key, value in extra.items()})
    logged = run_until_started([arg.format(**fill) for arg in args], environment, cwd=tmp_path)
    expected = (home if where.startswith(".local") else tmp_path) / where
    assert is_a_record(expected)
    assert f"games kept in {expected}" in logged
    assert SHIPPED_DATABASE not in logged  # /var/lib/nestref: the Pi's, never touched here


def test_run_mock_says_how_to_watch_it(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    logged = run_until_started([], user_environment(home), cwd=tmp_path)
    assert "add --web 127.0.0.1:8080 to see it in a browser" in logged


def test_run_mock_names_a_folder_it_cannot_make(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file where a folder should be", encoding="utf-8")
    done = subprocess.run(
        [NESTREF, "run", "--mock"], env=user_environment(home), capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode != 0
    assert f"{home}/.local/share/nestref/games.sqlite: cannot make the folder" in done.stderr
    assert "Traceback" not in done.stderr


def test_calibrate_mock_rehearses_the_walk(tmp_path):
    done = subprocess.run(
        [NESTREF, "calibrate", "--mock"], capture_output=True, text=True, check=False, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("A rehearsal:")
    # Every cell and matrix button, in the walk's order, each found where the map says.
    matrix = load_config(None).matrix
    for name, (row, column) in matrix.items():
        assert f"{name}: row {row}, column {column}" in lines
    assert lines.index("Put a piece on a1.") < lines.index("Take it off a1.") < lines.index("Put a piece on b1.")
    assert "Press the confirm button." in lines
    assert lines[-2:] == ["Done.", "The config's map matches the nest."]
    assert done.stderr == ""


def test_calibrate_mock_writes_the_map_into_the_config(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[game]\nlenient = true\n", encoding="utf-8")
    done = subprocess.run(
        [NESTREF, "calibrate", "--mock", "--config", str(config), "--write"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"Wrote the map into {config} [matrix]."
    assert load_config(config).matrix == load_config(None).matrix
    assert config.read_text(encoding="utf-8").startswith("[game]\nlenient = true\n")


def test_calibrate_mock_on_a_serial_config_says_why_not(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[sensors]\nbackend = "serial"\n', encoding="utf-8")
    done = subprocess.run(
        [NESTREF, "calibrate", "--mock", "--config", str(config)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert f"{config}: sensors.backend: the rehearsal scans a simulated matrix on GPIO" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("command", "options"),
    [("run", ["--mock", "--db FILE", "XDG_DATA_HOME"]), ("calibrate", ["--mock", "rehearse"])],
)
def test_the_rehearsals_are_in_the_help(command, options):
    done = subprocess.run([NESTREF, command, "--help"], capture_output=True, text=True, check=True)
    text = " ".join(done.stdout.split())
    for option in options:
        assert option in text
    overview = subprocess.run([NESTREF, "--help"], capture_output=True, text=True, check=True).stdout
    assert "--mock" in overview
