"""The commands of the nest: the daemon (``run``), the simulator (``sim``), and the
builder's ``calibrate`` and ``wiring``. What they need is imported when they run: the
other commands start without the daemon's libraries."""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host.errors import HardwareError, NestrefError
from firmware_host.files import write_text

if TYPE_CHECKING:
    from firmware_host.daemon.config import Config


def _config(args: argparse.Namespace) -> Config:
    """The config of ``--config`` (or the defaults), on the nest of ``--board`` if given."""
    from firmware_host.daemon.config import load_config

    return load_config(args.config, game=args.game, board=args.board)


def run_run(args: argparse.Namespace, out: TextIO) -> None:
    """The composition root of the nest: config, devices, the daemon, and with ``--web``
    the spectators' page beside it (its address then shows on the OLED)."""
    from firmware_host.daemon import Daemon, open_devices, serve
    from firmware_host.logs import setup_logging

    config = _config(args)
    setup_logging(config.log_level)
    if args.mock:
        from sim.mock_devices import open_mock_devices

        devices, _ = open_mock_devices(config)
    else:
        devices = open_devices(config, pin_factory=_real_pin_factory())
    daemon = Daemon(config, devices)
    server = None
    if args.web is not None:
        from firmware_host.web.server import WebServer

        server = WebServer(daemon, host=args.web[0], port=args.web[1])  # read-only: no table to act on
    serve(daemon, server, started=lambda url: logging.getLogger("nestref").info("spectator page at %s", url))


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
    setup_logging("warning")  # the page has the referee's words; the terminal keeps quiet
    run_simulator(config, host=args.host, port=args.port, database=args.db, open_browser=not args.no_browser, out=out)


def run_calibrate(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.calibrate import calibrate

    for option, given in (("--board", args.board), ("--game", args.game)):  # the map is the config's nest's
        if given is not None:
            raise NestrefError(f"calibrate: {option} is not taken here: name it in the config's [game]")

    calibrate(args.config, write=args.write, out=out, pin_factory=None if args.mock else _real_pin_factory())


def run_wiring(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.schematic import schematic_svg
    from firmware_host.wiring import render_wiring

    config = _config(args)
    if args.schematic:
        write_text(args.schematic, schematic_svg(config))
    if args.output:
        write_text(args.output, render_wiring(config))
    elif not args.schematic:  # asked for the drawing alone
        out.write(render_wiring(config))
