"""Live boards on a web page: ``nestref live`` (a page of its own, every game on the
broker at once) and the "Live boards" panel of the spectator page (``nestref run
--web`` with ``[broker]`` set).

Both are a WebSocket, ``/live/ws``, that sends a ``live_hello`` (how to draw each game
the page may be shown: its board's cells and its pieces, from the game's own
:meth:`~firmware_host.games.base.Game.for_page`) and then ``live_boards`` each time a
board changed: every board the :class:`~firmware_host.remote.live.LiveBoards` collector
holds, each already read strictly by our own rules. The page takes nothing else in (a
message from it is ignored); its text is put on the page as text, never as markup.
The Host and Origin checks, and the security headers, are the spectator page's
(:mod:`.access`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import Any

from aiohttp import web

from firmware_host.games import game_names, load_game
from firmware_host.remote.live import LiveBoards, board_to_page
from firmware_host.web.access import (
    add_security_headers,
    is_allowed_host,
    names_in,
    only_allowed_hosts,
    page_url,
    start_site,
)
from firmware_host.web.channel import Channel, PageConnection, encoded
from firmware_host.web.static import PageFiles

logger = logging.getLogger(__name__)

LIVE_SOCKET = "/live/ws"
FRAME_S = 0.1  # the boards are sent at most this often to a page
MAX_PAGE_MESSAGE_BYTES = 1024  # the page says nothing; what it sends anyway is read no further
PAGE_FILES = (
    "live.html",
    "style.css",
    "live.js",
    "board.js",
    "dom.js",
    "pieces.js",
    "socket.js",
)  # and the modules it imports


class LiveChannel(Channel[PageConnection]):
    """Every page's WebSocket of live boards, fed by ``boards`` (a collector running in
    its own thread: :meth:`changed` is safe from it). ``exclude``: boards not shown (the
    spectator page's own nest). The page says nothing: what it sends is ignored."""

    binary_refusal = None

    def __init__(self, boards: LiveBoards | None = None, *, exclude: Iterable[str] = ()) -> None:
        super().__init__(max_message_bytes=MAX_PAGE_MESSAGE_BYTES)
        self.boards = boards
        self.exclude = frozenset(exclude)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._sender: asyncio.Task[None] | None = None
        self._hello = encoded({"type": "live_hello", "games": {name: _drawing(name) for name in game_names()}})

    def changed(self) -> None:
        """A board changed (from any thread)."""
        loop, event = self._loop, self._changed
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                loop.call_soon_threadsafe(event.set)

    def message(self) -> str:
        """Every board shown, as the page's ``live_boards`` message."""
        boards = self.boards.boards() if self.boards is not None else ()
        shown = [board_to_page(board) for board in boards if board.board not in self.exclude]
        return encoded({"type": "live_boards", "boards": shown})

    async def start(self, _: web.Application | None = None) -> None:
        """Start sending (in the web server's loop), then reading the broker."""
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._sender = asyncio.create_task(self._send_changes())
        if self.boards is not None:
            self.boards.start()

    async def stop(self, _: web.Application | None = None) -> None:
        if self.boards is not None:
            await asyncio.to_thread(self.boards.close)
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
        await self.close_all()

    def add_to(self, app: web.Application) -> None:
        """Serve ``/live/ws`` on ``app``, started and stopped with it."""
        app.router.add_get(LIVE_SOCKET, self.handle)
        app.on_startup.append(self.start)
        app.on_shutdown.append(self.stop)

    def new_page(self, socket: web.WebSocketResponse, source: str) -> PageConnection:
        return PageConnection(socket, source)

    def hello(self, page: PageConnection) -> str:
        return self._hello

    async def opened(self, page: PageConnection) -> None:
        page.send_text(self.message())

    async def _send_changes(self) -> None:
        assert self._changed is not None
        last = ""
        while True:
            await self._changed.wait()
            self._changed.clear()
            text = self.message()
            if text != last:
                last = text
                for page in list(self.pages):
                    page.send_text(text)
            await asyncio.sleep(FRAME_S)  # a burst of changes from many boards: one message


class LiveServer:
    """``nestref live``: the live boards' own page, and its WebSocket."""

    def __init__(
        self,
        channel: LiveChannel,
        *,
        host: str = "127.0.0.1",
        port: int = 8090,
        host_names: Iterable[str] = (),
    ) -> None:
        self.channel = channel
        self.host, self.port = host, port
        self._host_names = frozenset({"localhost", *host_names, *names_in(host)})
        self._runner: web.AppRunner | None = None
        self.app = web.Application(
            client_max_size=MAX_PAGE_MESSAGE_BYTES, middlewares=[only_allowed_hosts(self._is_allowed_host)]
        )
        channel.add_to(self.app)
        PageFiles(index="live.html", only=PAGE_FILES).add_routes(self.app)
        self.app.on_response_prepare.append(add_security_headers)

    async def start(self) -> str:
        """Serve; the page's address (with the port the system chose, for port 0)."""
        self._runner, self.port = await start_site(self.app, self.host, self.port)
        return page_url(self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _is_allowed_host(self, host: str) -> bool:
        return is_allowed_host(host, serving=self.host, names=self._host_names)


def _drawing(name: str) -> dict[str, Any]:
    """What the page needs to draw a game's boards: the cells and the pieces."""
    page = load_game(name).for_page()
    return {"title": page["title"], "board": page["board"], "pieces": page["pieces"]}
