"""``nestref sim``: the real daemon on simulated hardware, with its web page.

The one place the simulator is put together: config → simulated devices → the daemon
(the same :class:`~firmware_host.daemon.Daemon` as on the Pi) → the simulated table →
the web server; then the daemon's loop and the server share one event loop until
Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import signal
import webbrowser
from typing import TextIO

from firmware_host.config import Config
from firmware_host.daemon import Daemon
from firmware_host.errors import NestrefError
from firmware_host.rules import Position
from sim.mock_devices import open_mock_nest
from sim.server import WebServer
from sim.simulator import Simulator


def run_simulator(
    config: Config,
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    database: str = ":memory:",
    open_browser: bool = True,
    out: TextIO,
) -> None:
    """Serve the simulator until stopped. The nest starts set up with the config's
    lineup, so game 1 begins at once."""
    config = dataclasses.replace(config, database=database)
    nest = open_mock_nest(config)
    daemon = Daemon(nest.config, nest.devices)
    lineup = Position.from_lineup(config.lineup, nest=config.nest)
    simulator = Simulator(daemon, nest.switches, pieces=lineup.pieces(), button_pin=nest.factory.pin)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        server = WebServer(daemon, simulator, host=host, port=port)
        try:
            daemon.start()
            try:
                url = await server.start()
            except OSError as error:
                raise NestrefError(
                    f"cannot serve on {host}:{port}: {error.strerror or error}"
                    " (is another nestref sim running? try --port 0 for any free port)"
                ) from None
            print(f"Simulator: {url}", file=out, flush=True)
            if server.pin is not None:
                print(f"Players on other machines need the PIN {server.pin} (shown on the OLED).", file=out)
            print("Ctrl-C stops it.", file=out, flush=True)
            if open_browser:
                with contextlib.suppress(Exception):  # no browser here (a server): the address is printed
                    webbrowser.open(url)
            await daemon.run(stop)
        finally:
            simulator.pause()
            await server.stop()
            daemon.close()
            nest.close()

    asyncio.run(main())
