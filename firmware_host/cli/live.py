"""``nestref live``: every game on an MQTT broker at once, on a web page; and the live
boards' part of ``nestref run`` (publishing this nest's game, the spectator page's
"Live boards" panel). What they need is imported when they run."""

from __future__ import annotations

import argparse
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from firmware_host.errors import ConfigError, HardwareError

if TYPE_CHECKING:
    from firmware_host.daemon import Daemon
    from firmware_host.daemon.config import Config
    from firmware_host.remote.broker import BrokerSettings
    from firmware_host.web.live import LiveChannel
    from firmware_host.web.server import WebServer

logger = logging.getLogger(__name__)


def broker_url(text: str) -> BrokerSettings:
    """``--broker``: an ``mqtt://`` or ``mqtts://`` address (a bad one: argparse's error, exit 2)."""
    from firmware_host.remote.broker import BrokerSettings, LinkError

    try:
        return BrokerSettings.from_url(text)
    except LinkError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_live(args: argparse.Namespace, out: TextIO) -> None:
    """The live boards' page until Ctrl-C or SIGTERM."""
    import asyncio  # here: the other commands (nestref run without --web) load no asyncio
    import signal

    from firmware_host.daemon.config import load_config
    from firmware_host.logs import setup_logging
    from firmware_host.web.live import LiveServer

    config = load_config(args.config)
    settings = args.broker or config.broker
    if settings is None:
        raise ConfigError("live: no broker: give --broker mqtt://HOST, or set [broker] url in the --config")
    setup_logging(config.log_level)
    channel = _channel(settings, exclude=())
    server = LiveServer(channel, host=args.host, port=args.port, host_names=config.web_hosts)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            url = await server.start()
        except OSError as error:
            raise HardwareError(f"live: cannot serve on {args.host}:{args.port}: {error.strerror}") from None
        print(f"Live boards of {settings.to_text()}: {url}", file=out, flush=True)
        try:
            await stop.wait()
        finally:
            await server.stop()

    asyncio.run(main())


def _channel(settings: BrokerSettings, *, exclude: tuple[str, ...]) -> LiveChannel:
    from firmware_host.games import load_game
    from firmware_host.remote.live import LiveBoards
    from firmware_host.web.live import LiveChannel

    channel = LiveChannel(exclude=exclude)
    channel.boards = LiveBoards(  # told the changes by the channel it feeds: made after it
        settings, games=load_game, on_change=channel.changed, client_id=f"nestref-live-page-{secrets.token_hex(4)}"
    )
    return channel


def start_publishing(daemon: Daemon, config: Config) -> tuple[Callable[[], None], str | None]:
    """With ``[live] publish``, this nest's game published to the broker: what stops it
    (on the way out) and the board's id; without, nothing to stop and no id."""
    if not config.live.publish or config.broker is None:
        return lambda: None, None
    from firmware_host.daemon.live_feed import LiveFeed, board_id, board_name
    from firmware_host.remote.live import LiveBoardPublisher

    board = board_id(config)
    publisher = LiveBoardPublisher(config.broker, board=board)
    publisher.start()
    feed = LiveFeed(daemon, publisher, name=board_name(config))
    feed.start()

    return publisher.close, board  # (closing says the board is offline)


def add_live_panel(server: WebServer, config: Config, *, own_board: str | None) -> None:
    """The spectator page's "Live boards" panel, when the config names a broker."""
    if config.broker is None:
        return
    channel = _channel(config.broker, exclude=(own_board,) if own_board else ())
    channel.add_to(server.app)
    server.live_boards = True
