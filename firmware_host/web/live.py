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
import json
import logging
from collections.abc import Iterable
from importlib import resources
from typing import Any

from aiohttp import web

from firmware_host.games import game_names, load_game
from firmware_host.remote.live import LiveBoards, board_to_page
from firmware_host.web.access import (
    add_security_headers,
    is_allowed_host,
    is_same_origin,
    names_in,
    only_allowed_hosts,
    page_url,
    start_site,
)

logger = logging.getLogger(__name__)

LIVE_SOCKET = "/live/ws"
FRAME_S = 0.1  # the boards are sent at most this often to a page
MAX_PAGE_MESSAGE_BYTES = 1024  # the page says nothing; what it sends anyway is read no further
MAX_PAGES = 100
PAGE_FILES = {
    "live.html": "text/html",
    "style.css": "text/css",
    # live.js and the shared modules it imports
    **dict.fromkeys(("live.js", "board.js", "dom.js", "pieces.js", "socket.js"), "text/javascript"),
}


class LiveChannel:
    """Every page's WebSocket of live boards, fed by ``boards`` (a collector running in
    its own thread: :meth:`changed` is safe from it). ``exclude``: boards not shown (the
    spectator page's own nest)."""

    def __init__(self, boards: LiveBoards | None = None, *, exclude: Iterable[str] = ()) -> None:
        self.boards = boards
        self.exclude = frozenset(exclude)
        self.pages: list[web.WebSocketResponse] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._sender: asyncio.Task[None] | None = None
        self._hello = _encoded({"type": "live_hello", "games": {name: _drawing(name) for name in game_names()}})

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
        return _encoded({"type": "live_boards", "boards": shown})

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
        for page in list(self.pages):
            await page.close()

    def add_to(self, app: web.Application) -> None:
        """Serve ``/live/ws`` on ``app``, started and stopped with it."""
        app.router.add_get(LIVE_SOCKET, self.socket)
        app.on_startup.append(self.start)
        app.on_shutdown.append(self.stop)

    async def socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and not is_same_origin(origin, request.headers.get("Host", "")):
            raise web.HTTPForbidden(text="this page's WebSocket is for this page only\n")
        if len(self.pages) >= MAX_PAGES:
            raise web.HTTPServiceUnavailable(text="too many pages are open\n")
        socket = web.WebSocketResponse(max_msg_size=MAX_PAGE_MESSAGE_BYTES, heartbeat=30)
        try:
            await socket.prepare(request)
        except ConnectionError:
            return socket
        self.pages.append(socket)
        try:
            await _send(socket, self._hello)
            await _send(socket, self.message())
            async for _ in socket:  # the page says nothing we act on
                pass
        finally:
            self.pages.remove(socket)
        return socket

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
                    await _send(page, text)
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
        folder = resources.files("firmware_host.web").joinpath("page")
        self._files = {name: folder.joinpath(name).read_bytes() for name in PAGE_FILES}
        self._runner: web.AppRunner | None = None
        self.app = web.Application(
            client_max_size=MAX_PAGE_MESSAGE_BYTES, middlewares=[only_allowed_hosts(self._is_allowed_host)]
        )
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/{name}", self._file)
        channel.add_to(self.app)
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

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve("live.html")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        return self._serve(request.match_info["name"])

    def _serve(self, name: str) -> web.StreamResponse:
        """One of the page's files; the name only looked up, never used as a path."""
        body = self._files.get(name)
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(body=body, content_type=PAGE_FILES[name])


def _drawing(name: str) -> dict[str, Any]:
    """What the page needs to draw a game's boards: the cells and the pieces."""
    page = load_game(name).for_page()
    return {"title": page["title"], "board": page["board"], "pieces": page["pieces"]}


def _encoded(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


async def _send(socket: web.WebSocketResponse, text: str) -> None:
    if not socket.closed:
        with contextlib.suppress(ConnectionError, RuntimeError):  # the page has just gone
            await socket.send_str(text)
