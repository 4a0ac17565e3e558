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

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from firmware_host.errors import NestrefError
from firmware_host.games.base import Side
from firmware_host.web.access import PinRefusedError, SidePins
from firmware_host.web.channel import (
    MAX_ID_CHARS,
    Channel,
    NotAMessageError,
    PageConnection,
    encoded,
    json_value,
    message_id,
)

if TYPE_CHECKING:
    from firmware_host.daemon import Daemon
    from firmware_host.web.cues import SignalFeed
    from firmware_host.web.picture import Picture

logger = logging.getLogger(__name__)

MAX_PLAYER_MESSAGE_BYTES = 4096  # a set-up is a few hundred characters
MAX_TEXT_CHARS = 1000
_FIELDS: dict[str, dict[str, bool]] = {  # each message's fields: name → required
    "side_pin": {"side": True, "pin": True},
    "resume": {"token": True},
    "setup": {"text": True},
    "guide": {},
    "check_setup": {},
    "clear_setup": {},
}
_NO_SESSION_NEEDED = ("side_pin", "resume")


class PlayerMessageError(NestrefError, ValueError):
    """A message from a player's page that the protocol does not have; nothing was done."""


@dataclass(eq=False)
class PlayerPage(PageConnection):
    """One connected player's page."""

    token: str | None = None
    signals_sent: int = 0


class PlayerScreens(Channel[PlayerPage]):
    """The players' own pages of one daemon's game (the channel ``/ws/player``), their
    PINs and their sessions; ``signals``, the public signals the shared page is sent too."""

    def __init__(
        self,
        daemon: Daemon,
        picture: Picture,
        signals: SignalFeed,
        *,
        clock: Callable[[], float],
        pins_file: Path | None = None,
        pin_from: str = "",
    ) -> None:
        super().__init__(max_message_bytes=MAX_PLAYER_MESSAGE_BYTES)
        self.daemon = daemon
        self.picture = picture
        self.clock = clock
        game = daemon.config.game
        self.is_open = game.hidden is not None
        # Kept in pins_file, if given (the nest: they survive a restart); the server's PIN avoids them.
        self.pins = SidePins([side.label for side in Side] if self.is_open else [], pins_file=pins_file)
        self.pin_from = pin_from  # where a player finds their side's PIN, in words, for the screen to say
        self._signals = signals
        # made for (game, signals, hints): a hint changes no public message
        self._private: tuple[tuple[str, int, tuple[str, ...]], dict[str, str]] | None = None

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/ws/player", self.handle)

    # -- the WebSocket --

    def new_page(self, socket: web.WebSocketResponse, source: str) -> PlayerPage:
        return PlayerPage(socket, source)

    def hello(self, page: PlayerPage) -> dict[str, Any]:
        game = self.daemon.config.game
        return {
            "type": "hello",
            "open": self.is_open,
            "side": self.side_of(page),
            "pin_from": self.pin_from,
            "game": game.for_page(),
            "geometry": self.picture.geometry(),
        }

    def side_of(self, page: PlayerPage) -> str | None:
        return self.pins.side_of(page.token, self.clock())

    async def received(self, page: PlayerPage, text: str) -> None:
        ident: int | str | None = None
        try:
            value = json_value(text)
            ident = message_id(value)
            message = _checked(value)
            kind = message["type"]
            if not self.is_open:
                raise PlayerMessageError(f"{self.daemon.config.game.title} has no players' own screens")
            reply: dict[str, Any] = {"type": "ack"}
            if kind == "side_pin":
                page.token = self.pins.log_in(message["side"], message["pin"], page.source, self.clock())
                reply = {"type": "session", "token": page.token, "side": message["side"]}
                page.send(self.hello(page))
            elif kind == "resume":
                if self.pins.side_of(message["token"], self.clock()) is None:
                    raise PinRefusedError("that session has ended: give your side's PIN again")
                page.token = message["token"]
                reply = {"type": "session", "token": page.token, "side": self.side_of(page)}
                page.send(self.hello(page))
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
                elif kind == "check_setup":
                    self.daemon.check_setup(side)
                else:
                    self.daemon.clear_setup(side)
        except NotAMessageError as error:
            ident = error.id
            reply = {"type": "error", "message": str(error)}
        except NestrefError as error:
            reply = {"type": "error", "message": str(error)[:300]}
        if ident is not None:
            reply["id"] = ident
        page.send(reply)
        self.send_frame()

    # -- sending --

    def send_frame(self) -> None:
        """What changed, to every player's page: its own side's view to a page with a
        session; the public game and signals to all."""
        if not self.pages:
            return
        snapshot = self.daemon.snapshot()
        public = encoded(self.picture.game(snapshot))
        private = self.private_messages(public)
        for page in list(self.pages):
            page.send_changed("game", public)
            for text in self._signals.since(page.signals_sent):
                page.send_text(text)
            page.signals_sent = self._signals.count
            label = self.side_of(page)
            if label is not None and label in private:
                page.send_changed("private", private[label])

    def private_messages(self, public: str) -> dict[str, str]:
        """Each side's ``private`` message, by side: made again only when something was
        recorded or signalled since (``public``, the game as recorded, and the signals
        say so) or a hint was given, not on every frame."""
        key = (public, self._signals.count, tuple(str(self.daemon.hints.private_hint(side)) for side in Side))
        if self._private is None or self._private[0] != key:
            private: dict[str, str] = {}
            for side in Side:
                view = self.daemon.private_view(side)
                if view is not None:
                    fields = {**asdict(view), "side": side.label}
                    private[side.label] = encoded({"type": "private", **fields})
            self._private = (key, private)
        return self._private[1]


def _checked(message: Any) -> dict[str, Any]:
    """A player's page's message (read from JSON), checked whole. Raises
    :class:`PlayerMessageError`."""
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise PlayerMessageError("a message is a JSON object with a type")
    kind = message["type"]
    if kind not in _FIELDS:
        raise PlayerMessageError(f"unknown message type {kind[:40]!r}: expected one of {', '.join(_FIELDS)}")
    if message.get("id") is not None and message_id(message) is None:
        raise PlayerMessageError(f"id: a number or a text of up to {MAX_ID_CHARS} characters")
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
