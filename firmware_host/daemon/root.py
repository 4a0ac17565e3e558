"""Running the daemon until SIGTERM or SIGINT, with whatever serves beside it in its
event loop (the spectators' web page), then stopping everything cleanly."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import Protocol

from firmware_host.daemon.loop import Daemon
from firmware_host.errors import HardwareError, NestrefError

logger = logging.getLogger(__name__)


class Service(Protocol):
    """Something served beside the daemon, in its event loop (the web page)."""

    host: str
    port: int

    async def start(self) -> str:
        """Start serving; the address served. Raises :class:`OSError` if it cannot."""
        ...

    async def stop(self) -> None: ...


def serve(
    daemon: Daemon,
    server: Service | None = None,
    *,
    cannot_serve: Callable[[Service, OSError], NestrefError] | None = None,
    started: Callable[[str], None] = lambda url: None,
    stopping: Callable[[], None] = lambda: None,
) -> None:
    """The daemon's loop, and its web page if there is one, until SIGTERM or SIGINT;
    then everything stopped cleanly. ``cannot_serve`` words the error when the page's
    port cannot be had; ``started`` is told the page's address; ``stopping`` runs first
    on the way out."""

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            daemon.start()
            if server is not None:
                try:
                    url = await server.start()
                except OSError as error:
                    if cannot_serve is not None:
                        raise cannot_serve(server, error) from None
                    where = f"{server.host}:{server.port}"
                    raise HardwareError(f"web page: cannot serve on {where}: {error.strerror}") from None
                started(url)
            await daemon.run(stop)
        except NestrefError:
            raise
        except Exception:
            logger.exception("the daemon failed")
            raise
        finally:
            stopping()
            if server is not None:
                await server.stop()
            daemon.close()

    asyncio.run(main())
