"""The players' own screens of a game that hides pieces (the battle game): ``player.html``
and its WebSocket, ``/ws/player``, beside the shared page's.

A page on it gives one side's own PIN (:class:`~firmware_host.web.access.SidePins`) and
from then on is sent that side's private view (its own ranks, the other side's only where
a strike showed them, its set-up and what a placement asks for next) and may give that
side's set-up. Nothing private goes anywhere else: the shared page's WebSocket never
carries a hidden rank, and a page gets only the side whose PIN it gave. The public
signals (the strikes' announcements among them) and the game as recorded go to every
player's page too, as to the shared page.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from firmware_host.errors import NestrefError
from firmware_host.games.base import HiddenPieces, Side
from firmware_host.web.access import PinAttempts, PinRefusedError, SidePins, is_same_origin

if TYPE_CHECKING:
    from firmware_host.daemon import Daemon
    from firmware_host.web.picture import Picture

logger = logging.getLogger(__name__)

MAX_PLAYER_MESSAGE_BYTES = 4096  # a set-up is a few hundred characters
MAX_TEXT_CHARS = 1000
SIGNALS_KEPT = 300  # signals a page that connects late is sent
_FIELDS: dict[str, dict[str, bool]] = {  # each message's fields: name → required
    "side_pin": {"side": True, "pin": True},
    "resume": {"token": True},
    "setup": {"text": True},
    "guide": {},
    "clear_setup": {},
}
_NO_SESSION_NEEDED = ("side_pin", "resume")


class PlayerMessageError(NestrefError, ValueError):
    """A message from a player's page that the protocol does not have; nothing was done."""


@dataclass
class PlayerPage:
    """One connected player's page."""

    socket: web.WebSocketResponse
    token: str | None = None
    tries: PinAttempts = field(default_factory=PinAttempts)
    sent: dict[str, str] = field(default_factory=dict)  # type → the last message of it sent
    signals_sent: int = 0


class PlayerScreens:
    """The players' own pages of one daemon's game, their PINs and their sessions."""

    def __init__(self, daemon: Daemon, picture: Picture, *, clock: Callable[[], float]) -> None:
        self.daemon = daemon
        self.picture = picture
        self.clock = clock
        game = daemon.config.game
        self.is_open = isinstance(game, HiddenPieces)
        self.pins = SidePins([side.label for side in Side] if self.is_open else [])  # (the server's PIN avoids them)
        self.pages: list[PlayerPage] = []
        self._signals: deque[str] = deque(maxlen=SIGNALS_KEPT)  # the last ones, as sent
        self._signal_count = 0
        self._private: tuple[tuple[str, int], dict[str, str]] | None = None  # made for (game, signals)
        daemon.subscribe(self._on_signal)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/ws/player", self._socket)

    # -- the WebSocket --

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and not is_same_origin(origin, request.headers["Host"]):
            raise web.HTTPForbidden(text="this page's WebSocket is for this page only\n")
        socket = web.WebSocketResponse(max_msg_size=MAX_PLAYER_MESSAGE_BYTES, heartbeat=30)
        try:
            await socket.prepare(request)
        except ConnectionError:
            return socket
        page = PlayerPage(socket)
        self.pages.append(page)
        try:
            await self._send(page, self._hello(page))
            async for incoming in socket:
                if incoming.type is WSMsgType.TEXT:
                    await self._answer(page, incoming.data)
                elif incoming.type is WSMsgType.BINARY:
                    await self._send(page, {"type": "error", "message": "messages are JSON text"})
        finally:
            self.pages.remove(page)
        return socket

    def _hello(self, page: PlayerPage) -> dict[str, Any]:
        game = self.daemon.config.game
        return {
            "type": "hello",
            "open": self.is_open,
            "side": self.side_of(page),
            "game": game.for_page(),
            "geometry": self.picture.geometry(),
        }

    def side_of(self, page: PlayerPage) -> str | None:
        return self.pins.side_of(page.token, self.clock())

    async def _answer(self, page: PlayerPage, text: str) -> None:
        ident = _id_of(text)
        try:
            message = _parse(text)
            kind = message["type"]
            if not self.is_open:
                raise PlayerMessageError(f"{self.daemon.config.game.title} has no players' own screens")
            reply: dict[str, Any] = {"type": "ack"}
            if kind == "side_pin":
                page.token = self.pins.log_in(message["side"], message["pin"], page.tries, self.clock())
                reply = {"type": "session", "token": page.token, "side": message["side"]}
                await self._send(page, self._hello(page))
            elif kind == "resume":
                if self.pins.side_of(message["token"], self.clock()) is None:
                    raise PinRefusedError("that session has ended: give your side's PIN again")
                page.token = message["token"]
                reply = {"type": "session", "token": page.token, "side": self.side_of(page)}
                await self._send(page, self._hello(page))
            else:
                side_label = self.side_of(page)
                if side_label is None:
                    page.token = None
                    raise PinRefusedError("give your side's PIN first")
                side = Side.from_text(side_label)
                if kind == "setup":
                    self.daemon.give_setup(side, message["text"])
                elif kind == "guide":
                    self.daemon.guide_setup(side)
                else:
                    self.daemon.clear_setup(side)
        except NestrefError as error:
            reply = {"type": "error", "message": str(error)[:300]}
        if ident is not None:
            reply["id"] = ident
        await self._send(page, reply)
        await self.send_frame()

    # -- sending --

    def _on_signal(self, signal: Any) -> None:
        self._signals.append(json.dumps({"type": "signal", "kind": type(signal).__name__, "text": signal.to_text()}))
        self._signal_count += 1

    async def send_frame(self) -> None:
        """What changed, to every player's page: its own side's view to a page with a
        session; the public game and signals to all."""
        if not self.pages:
            return
        snapshot = self.daemon.snapshot()
        public = json.dumps(self.picture.game(snapshot), separators=(",", ":"))
        private = self.private_messages(public)
        for page in list(self.pages):
            await self._send_changed(page, "game", public)
            unsent = min(self._signal_count - page.signals_sent, len(self._signals))
            page.signals_sent = self._signal_count
            for text in list(self._signals)[len(self._signals) - unsent :]:
                await self._send_text(page, text)
            label = self.side_of(page)
            if label is not None and label in private:
                await self._send_changed(page, "private", private[label])

    def private_messages(self, public: str) -> dict[str, str]:
        """Each side's ``private`` message, by side: made again only when something was
        recorded or signalled since (``public``, the game as recorded, and the signals
        say so), not on every frame."""
        key = (public, self._signal_count)
        if self._private is None or self._private[0] != key:
            private: dict[str, str] = {}
            for side in Side:
                view = self.daemon.private_view(side)
                if view is not None:
                    fields = {**asdict(view), "side": side.label}
                    private[side.label] = json.dumps({"type": "private", **fields}, separators=(",", ":"))
            self._private = (key, private)
        return self._private[1]

    async def close(self) -> None:
        for page in list(self.pages):
            await page.socket.close()

    async def _send_changed(self, page: PlayerPage, kind: str, text: str) -> None:
        if page.sent.get(kind) != text:
            page.sent[kind] = text
            await self._send_text(page, text)

    async def _send(self, page: PlayerPage, message: Mapping[str, Any]) -> None:
        await self._send_text(page, json.dumps(message, separators=(",", ":")))

    @staticmethod
    async def _send_text(page: PlayerPage, text: str) -> None:
        if not page.socket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await page.socket.send_str(text)


def _id_of(text: str) -> int | str | None:
    """A message's id, if it has a good one, for the reply to name even when the
    message is refused."""
    try:
        message = json.loads(text)
    except ValueError:
        return None
    ident = message.get("id") if isinstance(message, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, int | str) or len(str(ident)) > 40:
        return None
    return ident


def _parse(text: str) -> dict[str, Any]:
    """A player's page's message, checked whole. Raises :class:`PlayerMessageError`."""
    try:
        message = json.loads(text)
    except ValueError:
        raise PlayerMessageError("a message must be JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise PlayerMessageError("a message is a JSON object with a type")
    kind = message["type"]
    if kind not in _FIELDS:
        raise PlayerMessageError(f"unknown message type {kind[:40]!r}: expected one of {', '.join(_FIELDS)}")
    ident = message.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int | str) or len(str(ident)) > 40):
        raise PlayerMessageError("id: a number or a short text")
    wanted = _FIELDS[kind]
    for name in message:
        if name not in ("type", "id") and name not in wanted:
            raise PlayerMessageError(f"{kind}: unknown field {name[:40]!r}")
    for name, required in wanted.items():
        value = message.get(name)
        if value is None:
            if required:
                raise PlayerMessageError(f"{kind}: {name} is missing")
            continue
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
            raise PlayerMessageError(f"{kind}: {name} must be a text of at most {MAX_TEXT_CHARS} characters")
    return message
