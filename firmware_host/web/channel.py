"""One WebSocket channel, written once for the shared page's ``/ws`` (:mod:`.server`), the
players' own ``/ws/player`` (:mod:`.players`) and the live boards' ``/live/ws``
(:mod:`.live`).

A :class:`Channel` takes a page in and keeps it until it goes:

- **The handshake**: the ``Origin`` must be the page's own (:func:`.access.is_same_origin`;
  the ``Host`` was checked by the app's middleware), and no more than ``max_pages`` are
  open at once. A page that leaves during the handshake ends there, quietly (logged at
  DEBUG): aiohttp would otherwise log a traceback for each ("Call .prepare() first"),
  and anyone who reaches the port could fill the journal with them.
- **A hello** first, then what the channel sends on opening (:meth:`Channel.opened`).
- **A bounded send queue** per page (:class:`PageConnection`): sending never waits for
  the network, a slow page never holds up the others, and a page that falls
  ``SEND_QUEUE`` messages behind is closed (1013, "try again later") to come back with a
  fresh hello rather than be sent a growing backlog.
- **A guarded receive**: a text message goes to :meth:`Channel.received`; a binary one is
  answered with the channel's refusal, if it has one; a frame aiohttp refuses (too
  long, not UTF-8, not a WebSocket frame) closes the page with aiohttp's code and a
  reason of ours; a message that breaks the channel's own code closes it with 1011, the
  one case logged with its traceback (it is a bug). A message is read as JSON by
  :func:`json_value`, which refuses nesting deeper than ``MAX_DEPTH`` by name, never with
  a ``RecursionError``.
- **A clean end**: at shutdown every page is closed with 1001 and a reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from firmware_host.errors import NestrefError
from firmware_host.web.access import is_same_origin

logger = logging.getLogger(__name__)

MAX_PAGES = 100  # pages open on one channel at once
SEND_QUEUE = 512  # messages a page may be behind (a late page's hello and 300 signals fit) before it is closed
MAX_DEPTH = 8  # of a message's JSON: no message of ours goes deeper than 2
HEARTBEAT_S = 30.0
FELL_BEHIND = "the page fell behind: connect again"
STOPPING = "the server is stopping"
_FELL_BEHIND: Final = object()  # in a page's queue: close it, it fell behind
# What a page is told when aiohttp closes its socket for a frame it refused (the
# WebSocket's own codes; the reason is ours, aiohttp gives none).
_REASONS = {
    WSCloseCode.MESSAGE_TOO_BIG: "a message is at most {limit} bytes",
    WSCloseCode.INVALID_TEXT: "a text message must be UTF-8",
    WSCloseCode.PROTOCOL_ERROR: "not a WebSocket frame",
    WSCloseCode.UNSUPPORTED_DATA: "not a message of this channel",
}


MAX_ID_CHARS = 40


class NotAMessageError(NestrefError, ValueError):
    """A page's message that is not JSON, or nested deeper than any message is. ``id``
    is its id, when it was an object nested too deeply with a good one (for the page to
    match the error)."""

    def __init__(self, message: str, id: int | str | None = None) -> None:
        super().__init__(message)
        self.id = id


def message_id(message: Any) -> int | str | None:
    """The id of ``message`` (read from JSON) if it has a good one: a whole number or a
    text, of up to ``MAX_ID_CHARS`` characters; None otherwise.

    >>> message_id({"type": "lift", "id": 7}), message_id({"id": True}), message_id(["id"])
    (7, None, None)
    """
    ident = message.get("id") if isinstance(message, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, int | str) or len(str(ident)) > MAX_ID_CHARS:
        return None
    return ident


def json_value(text: str) -> Any:
    """``text`` read as JSON, nested no deeper than ``MAX_DEPTH``. Raises
    :class:`NotAMessageError` ("not JSON", "not a message: nested too deeply").

    >>> json_value('{"type": "lift", "cell": "c3"}')
    {'type': 'lift', 'cell': 'c3'}
    >>> json_value("[" * 2000 + "]" * 2000)
    Traceback (most recent call last):
    ...
    firmware_host.web.channel.NotAMessageError: not a message: nested too deeply
    """
    try:
        value = json.loads(text)
    except RecursionError:  # the decoder's own stack: nesting no message has
        raise NotAMessageError("not a message: nested too deeply") from None
    except ValueError:
        raise NotAMessageError("not JSON") from None
    if _is_deeper_than(value, MAX_DEPTH):
        raise NotAMessageError("not a message: nested too deeply", message_id(value))
    return value


def _is_deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` deep (without
    recursion: a value as deep as the decoder takes would take the stack)."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        container, depth = stack.pop()
        if depth > limit:
            return True
        children = container.values() if isinstance(container, dict) else container
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def encoded(message: Mapping[str, Any]) -> str:
    """A message as it goes on the wire: compact JSON."""
    return json.dumps(message, separators=(",", ":"))


T = TypeVar("T")


class RecentMessages(Generic[T]):
    """News, not state (signals, cues): the messages ``to_message`` makes of the last
    ``kept`` items, encoded once whoever they go to, and how many came. A page is sent
    those after the count it had last; a page slower than ``kept`` between two frames
    misses the oldest."""

    def __init__(self, kept: int, to_message: Callable[[T], Mapping[str, Any]]) -> None:
        self.count = 0
        self._to_message = to_message
        self._recent: deque[str] = deque(maxlen=kept)

    def add(self, item: T) -> None:
        self._recent.append(encoded(self._to_message(item)))
        self.count += 1

    def since(self, count: int) -> list[str]:
        """The messages after the first ``count`` (those kept)."""
        unsent = min(self.count - count, len(self._recent))
        return list(self._recent)[len(self._recent) - unsent :] if unsent > 0 else []


class _Socket(web.WebSocketResponse):
    """aiohttp's socket, closing with a reason of ours where aiohttp gives none (a frame
    it refused: the page is told why, not only a code)."""

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if not message and code in _REASONS:
            message = _REASONS[WSCloseCode(code)].format(limit=self._max_msg_size).encode()
        return await super().close(code=code, message=message, drain=drain)


@dataclass(eq=False)
class PageConnection:
    """One page's end of a channel: its socket, the address it came from, its queue of
    messages to send, and the last message of each kind it was sent (state is sent
    only when it changed)."""

    socket: web.WebSocketResponse
    source: str  # the page's address, as the server saw it
    sent: dict[str, str] = field(default_factory=dict)  # kind → the last message of it sent
    _queue: asyncio.Queue[object] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))

    @property
    def is_closed(self) -> bool:
        return self.socket.closed

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_text(encoded(message))

    def send_text(self, text: str) -> None:
        """Queue ``text`` for the page; never waits. A page ``SEND_QUEUE`` messages behind
        is closed (it comes back with a fresh hello)."""
        if self.socket.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            while not self._queue.empty():
                self._queue.get_nowait()
            self._queue.put_nowait(_FELL_BEHIND)

    def send_changed(self, kind: str, text: str) -> None:
        """``text``, the latest message of ``kind``, unless the page has it already."""
        if self.sent.get(kind) != text:
            self.sent[kind] = text
            self.send_text(text)

    async def close(self, code: int = WSCloseCode.GOING_AWAY, reason: str = STOPPING) -> None:
        await self.socket.close(code=code, message=reason.encode())

    async def send_queued(self) -> None:
        """Send what is queued, in order, until the page goes (the channel runs it)."""
        while True:
            item = await self._queue.get()
            if item is _FELL_BEHIND:
                logger.info("a page at %s fell %d messages behind: closed", self.source, SEND_QUEUE)
                await self.close(WSCloseCode.TRY_AGAIN_LATER, FELL_BEHIND)
                return
            assert isinstance(item, str)
            try:
                await self.socket.send_str(item)
            except (ConnectionError, RuntimeError):  # the page has just gone
                return


P = TypeVar("P", bound=PageConnection)


class Channel(Generic[P]):
    """A WebSocket route's pages, from handshake to goodbye. A channel says what its
    pages are (:meth:`new_page`), what they are sent first (:meth:`hello`,
    :meth:`opened`) and what it does with a message (:meth:`received`)."""

    binary_refusal: ClassVar[Mapping[str, Any] | None] = {"type": "error", "message": "messages are JSON text"}
    """What a binary message is answered (None: it is ignored)."""

    def __init__(self, *, max_message_bytes: int, max_pages: int = MAX_PAGES) -> None:
        self.max_message_bytes = max_message_bytes
        self.max_pages = max_pages
        self.pages: list[P] = []

    # -- what a channel says --

    def new_page(self, socket: web.WebSocketResponse, source: str) -> P:
        raise NotImplementedError

    def hello(self, page: P) -> Mapping[str, Any] | str:
        """The first message a page is sent."""
        raise NotImplementedError

    async def opened(self, page: P) -> None:
        """What a page is sent after its hello (the state as it is now)."""

    async def received(self, page: P, text: str) -> None:
        """A text message from ``page`` (read it with :func:`json_value`)."""

    # -- the route --

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The route's handler: the handshake, then the page's messages until it goes."""
        origin = request.headers.get("Origin")
        if origin is not None and not is_same_origin(origin, request.headers.get("Host", "")):
            # Another site's page in a visitor's browser may not use the nest's socket.
            raise web.HTTPForbidden(text="this page's WebSocket is for this page only\n")
        if len(self.pages) >= self.max_pages:
            raise web.HTTPServiceUnavailable(text="too many pages are open\n")
        socket = _Socket(max_msg_size=self.max_message_bytes, heartbeat=HEARTBEAT_S)
        try:
            await socket.prepare(request)
        except ConnectionError:
            logger.debug("a page left during the WebSocket handshake")
            return web.Response()  # nothing to send it to: aiohttp finds the connection gone, quietly
        page = self.new_page(socket, request.remote or "")
        self.pages.append(page)
        sender = asyncio.create_task(page.send_queued())
        try:
            hello = self.hello(page)
            page.send_text(hello if isinstance(hello, str) else encoded(hello))
            await self.opened(page)
            await self._receive(page)
        finally:
            self.pages.remove(page)
            await _ended(sender)
        return socket

    async def _receive(self, page: P) -> None:
        socket = page.socket
        while True:
            incoming = await socket.receive()
            if incoming.type is WSMsgType.TEXT:
                try:
                    await self.received(page, incoming.data)
                except Exception:  # a bug of ours, not the page's: logged, the page told, the others go on
                    logger.exception("a page's message could not be handled")
                    await page.close(WSCloseCode.INTERNAL_ERROR, "the server could not handle that message")
                    return
            elif incoming.type is WSMsgType.BINARY:
                if self.binary_refusal is not None:
                    page.send(self.binary_refusal)
            elif incoming.type is WSMsgType.ERROR:  # aiohttp closed it, with its code and our reason
                logger.debug("a page's socket closed on a bad frame: %s", incoming.data)
                return
            else:  # CLOSE, CLOSING, CLOSED: the page has gone
                return

    async def close_all(self) -> None:
        """Every page closed: the server is stopping."""
        for page in list(self.pages):
            await page.close()


async def _ended(sender: asyncio.Task[None]) -> None:
    """A page's sender ended (what is still queued is not sent: the page has gone)."""
    sender.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sender
