"""The commands of the nest: the daemon (``run``), the simulator (``sim``), and the
builder's ``calibrate`` and ``wiring``. What they need is imported when they run: the
other commands start without the daemon's libraries."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host.errors import ConfigError, HardwareError, NestrefError
from firmware_host.files import read_text, write_text

if TYPE_CHECKING:
    from firmware_host.daemon.config import Config


def _config(args: argparse.Namespace) -> Config:
    """The config of ``--config`` (or the defaults), on the nest of ``--board`` if given."""
    from firmware_host.daemon.config import load_config

    return load_config(args.config, game=args.game, board=args.board)


def run_run(args: argparse.Namespace, out: TextIO) -> None:
    """The composition root of the nest: config, devices, the daemon, and with ``--web``
    the spectators' page beside it (its address then shows on the OLED)."""
    from firmware_host.cli.live import add_live_panel, start_publishing
    from firmware_host.daemon import Daemon, open_devices, serve
    from firmware_host.logs import setup_logging

    config = _config(args)
    if args.broker is not None:  # --broker: instead of the config's [broker]
        config = dataclasses.replace(config, broker=args.broker)
    database = args.db or (user_database() if args.mock and not _names_database(args.config) else None)
    if database is not None:
        config = dataclasses.replace(config, database=database)
    setup_logging(config.log_level)
    logging.getLogger("nestref").info("games kept in %s", config.database)
    if args.mock:
        from sim.mock_devices import open_mock_devices

        devices, _ = open_mock_devices(config)
        if args.web is None:  # a mock nest has no OLED to look at: say where to watch it
            print(
                "A mock nest with nothing to watch: add --web 127.0.0.1:8080 to see it in a browser,"
                " or play it with `nestref sim`.",
                file=out,
            )
    else:
        devices = open_devices(config, pin_factory=_real_pin_factory())
    daemon = Daemon(config, devices)
    stop_publishing, own_board = start_publishing(daemon, config)
    server = None
    if args.web is not None:
        from firmware_host.web.server import WebServer

        # Read-only: no table to act on. A game that hides pieces: each side's own PIN,
        # kept beside the games (they survive a restart), never printed nor logged.
        server = WebServer(daemon, host=args.web[0], port=args.web[1], pins_file=pins_file_for(config.database))
        add_live_panel(server, config, own_board=own_board)

    def started(url: str) -> None:
        logging.getLogger("nestref").info("spectator page at %s", url)
        if server is not None and server.players.is_open:
            print(f"The players' own screens: {url}player.html (each side's PIN on the nest's OLED alone)", file=out)

    serve(daemon, server, started=started, stopping=stop_publishing)


def pins_file_for(database: str) -> Path | None:
    """Where the nest keeps its players' own PINs: beside its games (None for games kept
    in memory: the PINs are then new at every start, as the games).

    >>> pins_file_for("/var/lib/nestref/games.sqlite"), pins_file_for(":memory:")
    (PosixPath('/var/lib/nestref/player-pins.toml'), None)
    """
    return None if database == ":memory:" else Path(database).with_name("player-pins.toml")


def user_database(environ: Mapping[str, str] = os.environ) -> str:
    """Where a user's own nest keeps its games: in the XDG data folder,
    ``$XDG_DATA_HOME/nestref`` (``~/.local/share/nestref`` when it is unset or, as the
    XDG spec says, not an absolute path).

    >>> user_database({"XDG_DATA_HOME": "/data", "HOME": "/home/ada"})
    '/data/nestref/games.sqlite'
    >>> user_database({"XDG_DATA_HOME": "data", "HOME": "/home/ada"})
    '/home/ada/.local/share/nestref/games.sqlite'
    """
    data = environ.get("XDG_DATA_HOME", "")
    if not Path(data).is_absolute():
        home = environ.get("HOME") or str(Path.home())
        data = str(Path(home) / ".local" / "share")
    return str(Path(data) / "nestref" / "games.sqlite")


def _names_database(config_path: str | None) -> bool:
    """Whether the config file (already read and checked) says where the games go."""
    if config_path is None:
        return False
    storage = tomllib.loads(read_text(Path(config_path), "config")).get("storage", {})
    return isinstance(storage, dict) and "database" in storage


def _real_pin_factory() -> Any:
    """The Pi's GPIO through lgpio, the library Raspberry Pi OS Bookworm uses."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as error:  # ImportError off the Pi; lgpio.error without /dev/gpiochip0
        raise HardwareError(f"no GPIO here ({error}): run on a Raspberry Pi, or try it all with --mock") from None


def run_sim(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.logs import setup_logging
    from sim.app import run_simulator

    config = _config(args)
    if args.broker is not None:
        config = dataclasses.replace(config, broker=args.broker)
    setup_logging("warning")  # the page has the referee's words; the terminal keeps quiet
    run_simulator(config, host=args.host, port=args.port, database=args.db, open_browser=not args.no_browser, out=out)


def run_calibrate(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.calibrate import calibrate

    for option, given in (("--board", args.board), ("--game", args.game)):  # the map is the config's nest's
        if given is not None:
            raise NestrefError(f"calibrate: {option} is not taken here: name it in the config's [game]")

    if args.mock:
        _rehearse_calibration(args, out)
    else:
        calibrate(args.config, write=args.write, out=out, pin_factory=_real_pin_factory())


def _rehearse_calibration(args: argparse.Namespace, out: TextIO) -> None:
    """The walk on simulated switches, soldered as the config's map says, with a
    simulated builder doing what each line says, in simulated time."""
    from gpiozero.pins.mock import MockFactory

    from firmware_host.calibrate import calibrate
    from firmware_host.daemon import open_switches
    from sim.mock_builder import MockBuilder
    from sim.mock_matrix import MockSwitchMatrix

    config = _config(args)
    if config.sensors.backend != "gpio":
        raise ConfigError(
            f"{config.source}: sensors.backend: the rehearsal scans a simulated matrix on GPIO:"
            ' set sensors.backend = "gpio"'
        )
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, config.sensors.rows, config.sensors.columns)
    print("A rehearsal: a simulated builder does what each line says, on a simulated nest.", file=out)
    builder = MockBuilder(out, switches, config.matrix)
    calibrate(
        args.config,
        write=args.write,
        out=builder,
        pin_factory=factory,
        switches=open_switches(config, pin_factory=factory),
        clock=builder.clock,
        sleep=builder.sleep,
        skip_requested=builder.presses_enter,
    )


def run_wiring(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.daemon.config import load_config
    from firmware_host.schematic import schematic_svg
    from firmware_host.wiring import build_config, render_wiring

    # Without --config, a game whose board the default matrix does not fit (--game
    # battle) has its guide written from its shipped build.
    build = build_config(args.game) if args.config is None and args.game is not None else None
    config = load_config(build, game=args.game, board=args.board) if build is not None else _config(args)
    if args.schematic:
        write_text(args.schematic, schematic_svg(config))
    if args.output:
        write_text(args.output, render_wiring(config))
    elif not args.schematic:  # asked for the drawing alone
        out.write(render_wiring(config))
