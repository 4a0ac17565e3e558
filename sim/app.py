"""``nestref sim``: the real daemon on simulated hardware, with its web page.

The one place the simulator is put together: config → simulated devices → the daemon
(the same :class:`~firmware_host.daemon.Daemon` as on the Pi) → the simulated table →
the web server; then the daemon's loop and the server share one event loop until
Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import secrets
import socket
import webbrowser
from dataclasses import dataclass
from typing import TextIO

from firmware_host.daemon import Daemon, Service, serve
from firmware_host.daemon.config import Config
from firmware_host.errors import NestrefError
from firmware_host.remote.kept import nest_name
from firmware_host.web.server import WebServer
from sim.mock_devices import MockNest, open_mock_nest
from sim.simulator import Simulator


@dataclass
class Simulation:
    """The simulator put together: the simulated hardware, the daemon on it, and the
    table hands act on."""

    nest: MockNest
    daemon: Daemon
    simulator: Simulator


def build_simulation(config: Config) -> Simulation:
    """The daemon on simulated hardware for ``config``, with the nest set up with the
    config's lineup (so game 1 begins as soon as the daemon starts). With a broker, the
    simulated nest is named after the host and a random suffix (unless the config names
    it), so that two simulators on one machine are two nests."""
    nest = open_mock_nest(config)
    remote_nest = config.remote_nest or nest_name(socket.gethostname())[:24] + secrets.token_hex(4)
    daemon = Daemon(nest.config, nest.devices, remote_nest=remote_nest)
    pieces = config.game.lineup_pieces(config.lineup)
    simulator = Simulator(daemon, nest.switches, pieces=pieces, button_pin=nest.factory.pin)
    return Simulation(nest, daemon, simulator)


def run_simulator(
    config: Config,
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    database: str = ":memory:",
    open_browser: bool = True,
    out: TextIO,
) -> None:
    """Serve the simulator until stopped."""
    simulation = build_simulation(dataclasses.replace(config, database=database))
    server = WebServer(simulation.daemon, simulation.simulator, host=host, port=port)

    def started(url: str) -> None:
        print(f"Simulator: {url}", file=out, flush=True)
        if server.pin is not None:
            print(f"Players on other machines need the PIN {server.pin} (shown on the OLED).", file=out)
        for side, pin in server.players.pins.pins.items():  # a game that hides pieces: each side's own
            print(
                f"{side.capitalize()}'s own screen: {url}player.html?side={side} (PIN {pin}, for {side} alone)",
                file=out,
            )
        print("Ctrl-C stops it.", file=out, flush=True)
        if open_browser:
            with contextlib.suppress(Exception):  # no browser here (a server): the address is printed
                webbrowser.open(url)

    def cannot_serve(_: Service, error: OSError) -> NestrefError:
        where = f"cannot serve on {host}:{port}"
        if isinstance(error, socket.gaierror):  # a name no resolver knows
            return NestrefError(f"{where}: {host} is not an address nor a name this machine knows ({error.strerror})")
        if error.errno == errno.EADDRNOTAVAIL:
            return NestrefError(f"{where}: {host} is not an address of this machine")
        if error.errno == errno.EADDRINUSE:
            return NestrefError(f"{where}: the port is in use (is another nestref sim running? try --port 0)")
        return NestrefError(f"{where}: {error.strerror or error}")

    try:
        serve(
            simulation.daemon, server, cannot_serve=cannot_serve, started=started, stopping=simulation.simulator.pause
        )
    finally:
        simulation.nest.close()
