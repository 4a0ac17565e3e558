"""The web page's server: the simulator's (``nestref sim``) and, read-only, the real
nest's spectator page (``nestref run --web``).

One aiohttp application serves the page (``sim/web/``) and a WebSocket, ``/ws``, that
speaks the protocol of docs/simulator.md. What the page shows is read from the running
daemon — the OLED's image from its device, the lights as their pins are driven, the
game as the record on disk has it — and sent when it changes; what the page asks is
checked whole, then done by the :class:`~sim.simulator.Simulator` on the simulated
table. The server runs in the daemon's own event loop, so nothing here needs a lock
against it.

Nothing from the network is trusted (docs/simulator.md, "Security"): every request must
name an allowed host (no DNS rebinding), a WebSocket must come from the page's own
origin, every response carries the same security headers, built here and never copied
from a request; the PIN is shown only to pages that gave it, and guessing it is rate
limited per page and for the whole server.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import ipaddress
import json
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from PIL import Image

from firmware_host.daemon import Daemon
from firmware_host.engine import LEVELS
from firmware_host.presenter import View
from firmware_host.referee.signals import Signal
from firmware_host.referee.store import RecordedGame
from firmware_host.rules import Position, Side
from hardware.display import render
from hardware.outputs import Screen
from sim.simulator import MAX_LOG_BYTES, Simulator, SimulatorError

logger = logging.getLogger(__name__)

# JSON escapes a control character as \u00XX, six bytes for one: a message carrying any
# log the simulator takes fits in MAX_MESSAGE_BYTES, however it is escaped.
MAX_MESSAGE_BYTES = 6 * MAX_LOG_BYTES + 4096
SPECTATOR_MESSAGE_BYTES = 4096  # a read-only page has nothing long to say
MAX_SHOWN_CHARS = 40  # of a page's value quoted back in an error
MAX_ERROR_CHARS = 300  # of an error's message
FRAME_S = 0.05  # what changed is sent at most this often
PIN_TRIES = 5  # wrong PINs in a row from one page before that page waits
PIN_PAUSE_S = 30.0
SERVER_PIN_TRIES = 20  # wrong PINs from all pages together within SERVER_PIN_WINDOW_S before every page waits
SERVER_PIN_WINDOW_S = 60.0
SESSION_S = 12 * 3600.0  # a session lasts this long (or until the PIN changes)
MAX_SESSIONS = 100  # the oldest session ends when more are open
SIGNALS_KEPT = 300  # signals a page that connects late is sent
_CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".png": "image/png",
                  ".svg": "image/svg+xml"}  # fmt: skip
WILDCARDS = ("", "0.0.0.0", "::")  # serve on every address
SECURITY_HEADERS = {
    # connect-src 'self' covers the page's own ws:// and wss:// (CSP level 3).
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; connect-src 'self';"
    " frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


class BadMessageError(ValueError):
    """A message from a page that is not one the protocol has; nothing was done.
    ``id`` is the message's, when it had a good one (for the page to match the error)."""

    def __init__(self, message: str, id: int | str | None = None) -> None:
        super().__init__(message)
        self.id = id


# -- what the page sends ----------------------------------------------------------------------

# Each type's fields: name → (kind, required). Kinds: "cell", "cells", "int", "bool",
# "number", "text", "lineup", "button", "player", "level".
_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "lift": {"cell": ("cell", True)},
    "put": {"cell": ("cell", True), "piece": ("int", False)},
    "slide": {"path": ("cells", True)},
    "knock": {"cell": ("cell", True)},
    "take": {"piece": ("int", True)},
    "drop": {"piece": ("int", True)},
    "button": {"name": ("button", True), "hold": ("bool", False)},
    "setup": {"lineup": ("lineup", False)},
    "players": {"red": ("player", True), "blue": ("player", True), "level": ("level", False)},
    "clear": {},
    "pin": {"pin": ("text", True)},
    "resume": {"token": ("text", True)},
    "new_pin": {},
    "log_load": {"text": ("text", True)},
    "replay_play": {"speed": ("number", False)},
    "replay_pause": {},
    "replay_step": {},
    "record_start": {},
    "record_stop": {},
}
_NOT_ACTIONS = {"pin", "resume"}  # asked before the page may act


@dataclass(frozen=True)
class Request:
    """A message from a page, checked."""

    type: str
    fields: dict[str, Any]
    id: int | str | None = None


def parse_message(text: str, *, cells: frozenset[str], lineups: tuple[str, ...], buttons: tuple[str, ...]) -> Request:
    """Check one message whole. Raises :class:`BadMessageError` naming what is wrong."""
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessageError("not JSON") from None
    except RecursionError:  # the decoder's stack: nesting no message of the protocol has
        raise BadMessageError("not a message: nested too deeply") from None
    if not isinstance(data, dict):
        raise BadMessageError("a message is a JSON object")
    ident = data.get("id")
    good_id = (isinstance(ident, int) and not isinstance(ident, bool)) or (isinstance(ident, str) and len(ident) <= 40)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        message = f"unknown type {shown(kind)}" if isinstance(kind, str) else "no type"
        raise BadMessageError(message, ident if good_id else None)
    if ident is not None and not good_id:
        raise BadMessageError("id: a number, or a text of up to 40 characters")
    spec = _FIELDS[kind]
    extra = sorted(set(data) - set(spec) - {"type", "id"})
    if extra:
        raise BadMessageError(f"{kind}: unknown field {shown(extra[0])}", ident)
    fields: dict[str, Any] = {}
    for name, (check, required) in spec.items():
        if name not in data:
            if required:
                raise BadMessageError(f"{kind}: missing {name}", ident)
            continue
        try:
            fields[name] = _checked(kind, name, check, data[name], cells, lineups, buttons)
        except BadMessageError as error:
            raise BadMessageError(str(error), ident) from None
    return Request(kind, fields, ident)


def _checked(
    kind: str,
    name: str,
    check: str,
    value: Any,
    cells: frozenset[str],
    lineups: tuple[str, ...],
    buttons: tuple[str, ...],
) -> Any:
    where = f"{kind}: {name}"
    if check == "cell":
        if not isinstance(value, str) or value not in cells:
            raise BadMessageError(f"{where}: {shown(value)} is not a cell of the nest")
    elif check == "cells":
        if not isinstance(value, list) or not 2 <= len(value) <= 20:
            raise BadMessageError(f"{where}: a list of 2 to 20 cells")
        for cell in value:
            _checked(kind, name, "cell", cell, cells, lineups, buttons)
    elif check == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadMessageError(f"{where}: a whole number")
    elif check == "bool":
        if not isinstance(value, bool):
            raise BadMessageError(f"{where}: true or false")
    elif check == "number":
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise BadMessageError(f"{where}: a number")
    elif check == "text":
        if not isinstance(value, str):
            raise BadMessageError(f"{where}: a text")
    elif check == "lineup":
        if value not in lineups:
            raise BadMessageError(f"{where}: {shown(value)} is not one of: {', '.join(lineups)}")
    elif check == "button" and value not in buttons:
        raise BadMessageError(f"{where}: {shown(value)} is not one of: {', '.join(buttons)}")
    elif check == "player" and value not in ("human", "computer"):
        raise BadMessageError(f"{where}: {shown(value)} is not one of: human, computer")
    elif check == "level" and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= len(LEVELS)):
        raise BadMessageError(f"{where}: a level from 1 to {len(LEVELS)}")
    return value


def shown(value: Any) -> str:
    """A page's value, quoted back in an error: its ``repr``, cut short (a page that
    sent 10,000 characters is not sent them back).

    >>> shown("c3")
    "'c3'"
    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 1] + "..."


# -- what the page is sent --------------------------------------------------------------------


class Picture:
    """What the page shows, read from the running daemon, as protocol messages."""

    def __init__(self, daemon: Daemon, simulator: Simulator | None) -> None:
        self.daemon = daemon
        self.simulator = simulator
        self._oled: tuple[object, dict[str, Any]] | None = None  # what was drawn, and its message
        self._public_oled: tuple[Screen, dict[str, Any]] | None = None  # the same without the PIN

    def nest(self) -> dict[str, Any]:
        nest = self.daemon.config.nest
        home = {cell: side.label for side in Side for cell in nest.homebases(side)}
        cells = [
            {"name": cell, "q": nest.coordinates(cell)[0], "r": nest.coordinates(cell)[1], "home": home.get(cell)}
            for cell in nest.cells
        ]
        return {"name": nest.name, "cells": cells}

    def table(self) -> dict[str, Any]:
        if self.simulator is not None:
            table = self.simulator.table
            return {
                "type": "table",
                "cells": table.letters(),
                "hand": [{"id": held.id, "piece": held.piece.letter} for held in table.hand],
                "box": [{"id": held.id, "piece": held.piece.letter} for held in table.box],
            }
        # The real nest: the pieces of the game as recorded.
        nfn = self._recorded_nfn()
        pieces = Position.from_nfn(nfn, nest=self.daemon.config.nest).pieces() if nfn else {}
        return {"type": "table", "cells": {cell: piece.letter for cell, piece in pieces.items()}, "hand": [], "box": []}

    def oled(self, *, show_pin: bool = True) -> dict[str, Any]:
        """The OLED; without ``show_pin``, as it would be with the PIN starred out (for a
        page that has not given it)."""
        if not show_pin:
            hidden = self.daemon.presenter.screen(show_pin=False)
            if self._public_oled is None or self._public_oled[0] != hidden:
                self._public_oled = (hidden, _oled_message(render(hidden), hidden))
            return self._public_oled[1]
        display = self.daemon.devices.display
        presenter_screen = self.daemon.presenter.screen()
        drawn: object = display.frames if display is not None else presenter_screen
        if self._oled is not None and self._oled[0] == drawn:
            return self._oled[1]  # not redrawn since: no new image to encode
        if display is None:  # no OLED fitted: the page shows what it would say
            image, screen = render(presenter_screen), presenter_screen
        else:
            # luma's dummy device keeps the frame it was sent; a real one does not.
            sent = getattr(display.device, "image", None)
            image = display.image if sent is None else sent
            screen = display.screen or presenter_screen
        message = _oled_message(image, screen)
        self._oled = (drawn, message)
        return message

    def lights(self) -> dict[str, Any]:
        devices = self.daemon.devices
        status = devices.status_lights.lit() if devices.status_lights is not None else {}
        cells: list[str] = []
        if devices.cell_lights is not None:
            image = getattr(devices.cell_lights.device, "image", None)
            if image is not None:  # the dummy MAX7219: read its LEDs
                leds = image.convert("1")
                cells = [cell for cell, place in devices.cell_lights.mapping.items() if leds.getpixel(place)]
            else:
                cells = list(devices.cell_lights.lit())
        return {"type": "lights", "status": status, "cells": dict.fromkeys(sorted(cells), True)}

    def _recorded_game(self) -> RecordedGame | None:
        """The game being played (or just over) as the record on disk has it; None while
        the nest waits to be set up."""
        if self.daemon.presenter.view in (View.STARTING, View.SETUP):
            return None
        return self.daemon.recorded_game()

    def _recorded_nfn(self) -> str:
        recorded = self._recorded_game()
        return recorded.nfn if recorded is not None else ""

    def game(self) -> dict[str, Any]:
        """The game as recorded: a move the record has not taken yet (the disk is full,
        the file locked) is among the ``waiting``, never among the ``moves``."""
        presenter = self.daemon.presenter
        recorded = self._recorded_game()
        playing = presenter.view.value in ("playing", "question", "correcting")
        return {
            "type": "game",
            "number": presenter.game,
            "to_move": presenter.side.label if presenter.side is not None and playing else None,
            "moves": list(recorded.moves) if recorded is not None else [],
            "waiting": [str(move) for move in self.daemon.waiting_moves()],
            "saved": presenter.storage_ok,
            "score": list(presenter.score),
            "nfn": recorded.nfn if recorded is not None else "",
            "view": presenter.view.value,
            "players": {side.label: "computer" if side in presenter.computers else "human" for side in Side},
            "level": presenter.computer_level,
            "thinking": presenter.thinking and playing,
            "computer_move": str(presenter.computer_move) if presenter.computer_move and playing else None,
        }


def _oled_message(image: Image.Image, screen: Screen) -> dict[str, Any]:
    buffer = io.BytesIO()
    image.convert("1").save(buffer, format="PNG")
    return {
        "type": "oled",
        "png": "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"),
        "headline": screen.headline,
        "lines": list(screen.lines),
        "footer": screen.footer,
        "alert": screen.alert,
    }


# -- the server --------------------------------------------------------------------------------


@dataclass
class Page:
    """One connected page."""

    socket: web.WebSocketResponse
    token: str | None = None  # its session, once it gave the PIN (or resumed a session)
    wrong_pins: int = 0  # in a row
    pins_paused_until: float = 0.0  # no PIN is taken from this page before
    sent: dict[str, str] = field(default_factory=dict)  # type → the last message of it sent
    signals_sent: int = 0  # how many of the server's signals this page has been sent


class WebServer:
    """The page and its WebSocket, for one daemon; ``simulator`` is None on the real
    nest (the spectator page: read-only)."""

    def __init__(
        self,
        daemon: Daemon,
        simulator: Simulator | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.daemon = daemon
        self.simulator = simulator
        self.host, self.port = host, port
        self.clock = clock
        self.picture = Picture(daemon, simulator)
        self.pin: str | None = None
        self.pages: list[Page] = []
        self._sessions: dict[str, float] = {}  # token: when it ends
        self._wrong_pins: deque[float] = deque()  # when each recent wrong PIN came, from any page
        if not _is_loopback(host) and simulator is not None:
            self.change_pin()
        self._signals: deque[str] = deque(maxlen=SIGNALS_KEPT)  # the last ones, as sent
        self._signal_count = 0  # every signal so far
        self._acting = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self._frames: asyncio.Task[None] | None = None
        nest = daemon.config.nest
        self._cells = frozenset(nest.cells)
        self._lineups = nest.lineup_names
        self._buttons = tuple(daemon.config.buttons)
        self._host_names = frozenset({"localhost", *daemon.config.web_hosts, *_names_in(host)})
        web_files = resources.files("sim").joinpath("web")
        self._files = {entry.name: entry for entry in web_files.iterdir() if entry.name.endswith(tuple(_CONTENT_TYPES))}
        daemon.listeners.append(self._on_signal)
        # Over HTTP the page sends requests, never a body: the WebSocket has its own limit.
        self.app = web.Application(client_max_size=SPECTATOR_MESSAGE_BYTES, middlewares=[self._only_allowed_hosts])
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/ws", self._socket)
        self.app.router.add_get("/{name}", self._file)
        self.app.on_response_prepare.append(_add_security_headers)
        self.app.on_startup.append(self._begin)
        self.app.on_shutdown.append(self._end)

    # -- lifecycle --

    async def start(self) -> str:
        """Serve; the page's address (with the port the system chose, for port 0)."""
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        addresses = self._runner.addresses  # with the port the system chose, for port 0
        if addresses:
            self.port = int(addresses[0][1])
        if not _is_loopback(self.host):  # players at other machines find the page, and the PIN, on the OLED
            shown = _address_shown(self.host)
            self._host_names |= _names_in(shown)
            self.daemon.presenter.address = f"{shown}:{self.port}"
            self.daemon.redraw()
        return f"http://{'127.0.0.1' if self.host in WILDCARDS else _bracketed(self.host)}:{self.port}/"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _begin(self, _: web.Application) -> None:
        self._frames = asyncio.create_task(self._send_frames())

    async def _end(self, _: web.Application) -> None:
        if self._frames is not None:
            self._frames.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._frames
        for page in list(self.pages):
            await page.socket.close()

    # -- HTTP --

    def is_allowed_host(self, host: str) -> bool:
        """Whether a request's ``Host`` names this server: an address it serves (on
        every address: any address, which no page can rebind), ``localhost``, or a name
        given in the config (``[web] hosts``). A page on another name that resolves here
        (DNS rebinding) is refused."""
        name = _host_name(host)
        if name is None:
            return False
        if name in self._host_names:
            return True
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return False
        return self.host in WILDCARDS or address.is_loopback or address == _address_or_none(self.host)

    @web.middleware
    async def _only_allowed_hosts(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.is_allowed_host(request.headers.get("Host", "")):
            raise web.HTTPMisdirectedRequest(text="this server does not serve that host name\n")
        return await handler(request)

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve("index.html")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        return self._serve(request.match_info["name"])

    def _serve(self, name: str) -> web.StreamResponse:
        """One of the page's files; the name only looked up, never used as a path."""
        entry = self._files.get(name)
        if entry is None:
            raise web.HTTPNotFound()
        return web.Response(body=entry.read_bytes(), content_type=_CONTENT_TYPES["." + name.rpartition(".")[2]])

    # -- the WebSocket --

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and not _is_same_origin(origin, request.headers["Host"]):
            # Another site's page in a visitor's browser may not drive the nest.
            raise web.HTTPForbidden(text="this page's WebSocket is for this page only\n")
        limit = MAX_MESSAGE_BYTES if self.simulator is not None else SPECTATOR_MESSAGE_BYTES
        socket = web.WebSocketResponse(max_msg_size=limit, heartbeat=30)
        try:
            await socket.prepare(request)
        except ConnectionError:  # the page went away during the handshake
            logger.debug("a page left during the WebSocket handshake")
            return socket
        page = Page(socket)
        self.pages.append(page)
        try:
            await self._send(page, self._hello(page))
            for kind, text in self._snapshot(page):
                await self._send_changed(page, kind, text)
            await self._send_signals(page)
            async for incoming in socket:
                if incoming.type is WSMsgType.TEXT:
                    await self._answer(page, incoming.data)
                elif incoming.type is WSMsgType.BINARY:
                    await self._send(page, {"type": "error", "message": "messages are JSON text"})
        finally:
            self.pages.remove(page)
        return socket

    def _hello(self, page: Page) -> dict[str, Any]:
        return {
            "type": "hello",
            "mode": "sim" if self.simulator is not None else "spectator",
            "can_act": self.may_act(page),
            "pin_required": self.pin is not None,
            "nest": self.picture.nest(),
            "buttons": list(self._buttons),
            "lineups": list(self._lineups),
            "levels": [{"number": level.number, "name": level.name} for level in LEVELS],
        }

    def may_act(self, page: Page) -> bool:
        """Whether ``page`` may act now: in the simulator, with the PIN given (a session
        not yet ended) if one is needed."""
        if self.simulator is None:
            return False
        if self.pin is None:
            return True
        return page.token is not None and self._sessions.get(page.token, -math.inf) > self.clock()

    def _sees_pin(self, page: Page) -> bool:
        return self.pin is None or self.may_act(page)

    async def _answer(self, page: Page, text: str) -> None:
        try:
            request = parse_message(text, cells=self._cells, lineups=self._lineups, buttons=self._buttons)
        except BadMessageError as error:
            refusal: dict[str, Any] = {"type": "error", "message": _cut(str(error))}
            if error.id is not None:
                refusal["id"] = error.id
            await self._send(page, refusal)
            return
        reply: dict[str, Any] = {"type": "ack", "id": request.id}
        try:
            if self.simulator is None:
                raise SimulatorError("this page is read-only: the game is played on the nest")
            if request.type in _NOT_ACTIONS:
                await self._authenticate(page, request)
                if request.type == "pin":
                    reply = {"type": "session", "token": page.token, "id": request.id}
            elif not self.may_act(page):
                had_session, page.token = page.token is not None, None
                if had_session:  # it ended (it expired, or the PIN changed): the page is told
                    await self._send(page, self._hello(page))
                    raise SimulatorError("the session has ended: give the PIN shown on the OLED again")
                raise SimulatorError("give the PIN shown on the OLED first")
            elif request.type == "new_pin":
                if self.pin is None:
                    raise SimulatorError("no PIN here: the simulator serves this machine only")
                await self._renew_pin(page)
                reply = {"type": "session", "token": page.token, "id": request.id}
            else:
                async with self._acting:
                    extra = await self.simulator.act(request.type, request.fields)
                if extra is not None:  # for this page alone (a recording to save)
                    await self._send(page, extra)
        except SimulatorError as error:
            reply = {"type": "error", "message": _cut(str(error)), "id": request.id}
        if reply.get("id") is None:
            reply.pop("id", None)
        await self._send(page, reply)
        await self._send_frame()  # what the act changed, at once

    async def _authenticate(self, page: Page, request: Request) -> None:
        """A ``pin`` or ``resume``: the page may act from now on. Raises
        :class:`SimulatorError` for a wrong PIN, an ended session, or a page (or a
        server) that must wait after too many wrong PINs."""
        now = self.clock()
        if request.type == "resume":
            token = request.fields["token"]
            if self._sessions.get(token, -math.inf) <= now:
                raise SimulatorError("that session has ended: give the PIN again")
            page.token = token
        else:
            if now < page.pins_paused_until:
                raise SimulatorError(f"too many wrong PINs: try again in {math.ceil(page.pins_paused_until - now)} s")
            while self._wrong_pins and self._wrong_pins[0] <= now - SERVER_PIN_WINDOW_S:
                self._wrong_pins.popleft()
            if len(self._wrong_pins) >= SERVER_PIN_TRIES:  # guessed at from many pages: every page waits
                wait = math.ceil(self._wrong_pins[0] + SERVER_PIN_WINDOW_S - now)
                raise SimulatorError(f"too many wrong PINs on this simulator: try again in {wait} s")
            if self.pin is not None and not secrets.compare_digest(request.fields["pin"].encode(), self.pin.encode()):
                self._wrong_pins.append(now)
                if len(self._wrong_pins) == SERVER_PIN_TRIES:
                    logger.warning("%d wrong PINs within a minute: no page may give one for a while", SERVER_PIN_TRIES)
                page.wrong_pins += 1
                if page.wrong_pins >= PIN_TRIES:
                    page.wrong_pins, page.pins_paused_until = 0, now + PIN_PAUSE_S
                raise SimulatorError("wrong PIN")
            page.wrong_pins = 0
            page.token = self._new_session(now)
        await self._send(page, self._hello(page))

    def _new_session(self, now: float) -> str:
        for token, ends in list(self._sessions.items()):
            if ends <= now:
                del self._sessions[token]
        while len(self._sessions) >= MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]  # the oldest
        token = secrets.token_urlsafe(24)
        self._sessions[token] = now + SESSION_S
        return token

    def change_pin(self) -> str:
        """A new PIN, shown on the nest's OLED; every session ends, every pause too."""
        pin = f"{secrets.randbelow(10_000):04d}"
        while pin == self.pin:  # a new one: the old one may be known to someone who should not
            pin = f"{secrets.randbelow(10_000):04d}"
        self.pin = pin
        self._sessions.clear()
        self._wrong_pins.clear()
        for page in self.pages:  # their tokens are no session now
            page.wrong_pins, page.pins_paused_until = 0, 0.0
        self.daemon.presenter.pin = pin  # on the OLED, for the players at the nest to tell
        self.daemon.redraw()
        return pin

    async def _renew_pin(self, page: Page) -> None:
        """``new_pin``: every other page must give the new PIN; ``page`` keeps acting."""
        self.change_pin()
        page.token = self._new_session(self.clock())
        for other in list(self.pages):
            await self._send(other, self._hello(other))

    # -- sending --

    def _on_signal(self, signal: Signal) -> None:
        message = {"type": "signal", "kind": type(signal).__name__, "text": signal.to_text()}
        self._signals.append(json.dumps(message, separators=(",", ":")))
        self._signal_count += 1

    async def _send_signals(self, page: Page) -> None:
        unsent = min(self._signal_count - page.signals_sent, len(self._signals))
        page.signals_sent = self._signal_count
        for text in list(self._signals)[len(self._signals) - unsent :]:
            await self._send_text(page, text)

    def _snapshot(self, page: Page | None = None) -> list[tuple[str, str]]:
        """What ``page`` is to be shown now, as (type, text) messages; without a page,
        what every page is shown but the OLED."""
        if page is not None:
            return [*self._common_messages(), self._oled_message(self._sees_pin(page))]
        return self._common_messages()

    def _common_messages(self) -> list[tuple[str, str]]:
        messages = [self.picture.table(), self.picture.lights(), self.picture.game()]
        if self.simulator is not None:
            messages += [self.simulator.replay_message(), self.simulator.recording_message()]
        return [(message["type"], _encoded(message)) for message in messages]

    def _oled_message(self, show_pin: bool) -> tuple[str, str]:
        return "oled", _encoded(self.picture.oled(show_pin=show_pin))

    async def _send_frames(self) -> None:
        while True:
            await asyncio.sleep(FRAME_S)
            try:
                await self._send_frame()
            except Exception:  # a page's broken socket must not end the updates for the others
                logger.exception("sending to the pages failed")

    async def _send_frame(self) -> None:
        """What changed, to every page: each message encoded once, whoever it goes to."""
        if not self.pages:
            return
        common = self._common_messages()
        oleds: dict[bool, tuple[str, str]] = {}
        for page in list(self.pages):
            sees_pin = self._sees_pin(page)
            if sees_pin not in oleds:
                oleds[sees_pin] = self._oled_message(sees_pin)
            await self._send_signals(page)
            for kind, text in [*common, oleds[sees_pin]]:
                await self._send_changed(page, kind, text)

    async def _send_changed(self, page: Page, kind: str, text: str) -> None:
        if page.sent.get(kind) != text:
            page.sent[kind] = text
            await self._send_text(page, text)

    async def _send(self, page: Page, message: Mapping[str, Any]) -> None:
        await self._send_text(page, _encoded(message))

    @staticmethod
    async def _send_text(page: Page, text: str) -> None:
        if not page.socket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):  # the page has just gone
                await page.socket.send_str(text)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def _add_security_headers(_: web.Request, response: web.StreamResponse) -> None:
    """The same headers on every response: the page, its files, the WebSocket's
    handshake, a 404, a 500."""
    response.headers.update(SECURITY_HEADERS)


def _encoded(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _cut(message: str) -> str:
    return message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - 3] + "..."


def _host_name(authority: str) -> str | None:
    """The name or address in a ``Host`` header (``host``, ``host:port``,
    ``[v6]:port``), lowercased; None if it is not one.

    >>> _host_name("Nest.Local:8080"), _host_name("[::1]:80"), _host_name("127.0.0.1:1; script-src *")
    ('nest.local', '::1', None)
    """
    try:
        parts = urlsplit("//" + authority)
        _ = parts.port  # raises ValueError for a port that is not a number
    except ValueError:
        return None
    if not parts.hostname or parts.netloc != authority or "@" in authority or parts.path or parts.query:
        return None
    if any(c.isspace() or c in "/\\,;" for c in authority):
        return None
    return parts.hostname.rstrip(".")


def _address_or_none(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _names_in(host: str) -> set[str]:
    """The name in ``host`` (an address to serve on, or shown), if it is a name."""
    name = host.strip("[]").lower().rstrip(".")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return {name} if name not in WILDCARDS else set()
    return set()


def _is_same_origin(origin: str, host: str) -> bool:
    """Whether a WebSocket's ``Origin`` is the page's own: http(s) on the very host and
    port the request was sent to (which is an allowed one)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower() and not parts.path.strip("/")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _address_shown(host: str) -> str:
    """The address to show on the OLED: for a server on every address, this machine's
    address on the network (found without sending anything)."""
    if host not in WILDCARDS:
        return _bracketed(host)
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))  # a UDP "connect" only picks the route
        return str(probe.getsockname()[0])
    return socket.gethostname()
