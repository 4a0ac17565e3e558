"""Running the daemon until SIGTERM or SIGINT, with whatever serves beside it in its
event loop (the spectators' web page), then stopping everything cleanly."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from typing import Protocol

from firmware_host.daemon.root import Daemon
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
    on the way out. Without a page the loop runs on its own, without asyncio, whose
    wake-ups cost more than the turns they wake for."""
    if server is None:
        _serve_alone(daemon, stopping)
        return
    import asyncio  # only beside a web page: a large import the loop alone does without

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            daemon.start()
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
            await server.stop()
            daemon.close()

    asyncio.run(main())


def _serve_alone(daemon: Daemon, stopping: Callable[[], None]) -> None:
    """The daemon's loop alone, until SIGTERM or SIGINT."""
    stop = threading.Event()
    previous = {signum: signal.signal(signum, lambda *_: stop.set()) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        daemon.start()
        daemon.run_alone(stop)
    except NestrefError:
        raise
    except Exception:
        logger.exception("the daemon failed")
        raise
    finally:
        stopping()
        daemon.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
