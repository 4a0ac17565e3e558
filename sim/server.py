"""The web page's server: the simulator's (``nestref sim``) and, read-only, the real
nest's spectator page (``nestref run --web``).

One aiohttp application serves the page (``sim/web/``) and a WebSocket, ``/ws``, that
speaks the protocol of docs/simulator.md. What the page shows is read from the running
daemon — the OLED's image from its device, the lights as their pins are driven, the
game as the referee has it — and sent when it changes; what the page asks is checked
whole, then done by the :class:`~sim.simulator.Simulator` on the simulated table. The
server runs in the daemon's own event loop, so nothing here needs a lock against it.
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
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from firmware_host.daemon import Daemon
from firmware_host.engine import LEVELS
from firmware_host.referee.signals import Signal
from firmware_host.rules import Side
from hardware.display import render
from sim.simulator import Simulator, SimulatorError

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 1024 * 1024 + 4096  # a sensor log of 1 MB, and the message around it
FRAME_S = 0.05  # what changed is sent at most this often
PIN_TRIES = 5  # wrong PINs in a row before a pause
PIN_PAUSE_S = 30.0
SIGNALS_KEPT = 300  # signals a page that connects late is sent
_FILE = re.compile(r"[a-z0-9_-]+\.(html|js|css|png|svg)")
_CONTENT_TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css", "png": "image/png",
                  "svg": "image/svg+xml"}  # fmt: skip


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
    if not isinstance(data, dict):
        raise BadMessageError("a message is a JSON object")
    ident = data.get("id")
    good_id = (isinstance(ident, int) and not isinstance(ident, bool)) or (isinstance(ident, str) and len(ident) <= 40)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        message = f"unknown type {kind!r}" if isinstance(kind, str) else "no type"
        raise BadMessageError(message, ident if good_id else None)
    if ident is not None and not good_id:
        raise BadMessageError("id: a number, or a text of up to 40 characters")
    spec = _FIELDS[kind]
    extra = sorted(set(data) - set(spec) - {"type", "id"})
    if extra:
        raise BadMessageError(f"{kind}: unknown field {extra[0]!r}", ident)
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
            raise BadMessageError(f"{where}: {value!r} is not a cell of the nest")
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
            raise BadMessageError(f"{where}: {value!r} is not one of: {', '.join(lineups)}")
    elif check == "button" and value not in buttons:
        raise BadMessageError(f"{where}: {value!r} is not one of: {', '.join(buttons)}")
    elif check == "player" and value not in ("human", "computer"):
        raise BadMessageError(f"{where}: {value!r} is not one of: human, computer")
    elif check == "level" and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= len(LEVELS)):
        raise BadMessageError(f"{where}: a level from 1 to {len(LEVELS)}")
    return value


# -- what the page is sent --------------------------------------------------------------------


class Picture:
    """What the page shows, read from the running daemon, as protocol messages."""

    def __init__(self, daemon: Daemon, simulator: Simulator | None) -> None:
        self.daemon = daemon
        self.simulator = simulator
        self._oled: tuple[object, dict[str, Any]] | None = None  # what was drawn, and its message

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
        service = self.daemon.service  # the real nest: the pieces as the referee has them
        position = service.referee.position if service is not None else None
        pieces = position.pieces() if position is not None else {}
        return {"type": "table", "cells": {cell: piece.letter for cell, piece in pieces.items()}, "hand": [], "box": []}

    def oled(self) -> dict[str, Any]:
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
        buffer = io.BytesIO()
        image.convert("1").save(buffer, format="PNG")
        message = {
            "type": "oled",
            "png": "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"),
            "headline": screen.headline,
            "lines": list(screen.lines),
            "footer": screen.footer,
            "alert": screen.alert,
        }
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

    def game(self) -> dict[str, Any]:
        presenter, service = self.daemon.presenter, self.daemon.service
        position = service.referee.position if service is not None else None
        playing = presenter.view.value in ("playing", "question", "correcting")
        return {
            "type": "game",
            "number": presenter.game,
            "to_move": presenter.side.label if presenter.side is not None and playing else None,
            "moves": [str(move) for move in position.move_stack] if position is not None else [],
            "score": list(presenter.score),
            "nfn": position.to_nfn() if position is not None else "",
            "view": presenter.view.value,
            "players": {side.label: "computer" if side in presenter.computers else "human" for side in Side},
            "level": presenter.computer_level,
            "thinking": presenter.thinking and playing,
            "computer_move": str(presenter.computer_move) if presenter.computer_move and playing else None,
        }


# -- the server --------------------------------------------------------------------------------


@dataclass
class Page:
    """One connected page."""

    socket: web.WebSocketResponse
    may_act: bool
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
        self.pin = None if _is_loopback(host) or simulator is None else f"{secrets.randbelow(10_000):04d}"
        daemon.presenter.pin = self.pin or ""  # on the OLED, for the players at the nest to tell
        self.pages: list[Page] = []
        self._tokens: set[str] = set()
        self._wrong_pins = 0
        self._pins_paused_until = 0.0
        self._signals: deque[str] = deque(maxlen=SIGNALS_KEPT)  # the last ones, as sent
        self._signal_count = 0  # every signal so far
        self._acting = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self._frames: asyncio.Task[None] | None = None
        nest = daemon.config.nest
        self._cells = frozenset(nest.cells)
        self._lineups = nest.lineup_names
        self._buttons = tuple(daemon.config.buttons)
        daemon.listeners.append(self._on_signal)
        self.app = web.Application(client_max_size=MAX_MESSAGE_BYTES)
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/ws", self._socket)
        self.app.router.add_get("/{name}", self._file)
        self.app.on_startup.append(self._begin)
        self.app.on_shutdown.append(self._end)

    # -- lifecycle --

    async def start(self) -> str:
        """Serve; the page's address (with the port the system chose, for port 0)."""
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addresses = self._runner.addresses  # with the port the system chose, for port 0
        if addresses:
            self.port = int(addresses[0][1])
        if not _is_loopback(self.host):  # players at other machines find the page, and the PIN, on the OLED
            shown = _address_shown(self.host)
            self.daemon.presenter.address = f"{shown}:{self.port}"
            self.daemon.redraw()
        return f"http://{'127.0.0.1' if self.host in ('', '0.0.0.0') else _bracketed(self.host)}:{self.port}/"

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

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve("index.html", request)

    async def _file(self, request: web.Request) -> web.StreamResponse:
        return self._serve(request.match_info["name"], request)

    def _serve(self, name: str, request: web.Request) -> web.StreamResponse:
        match = _FILE.fullmatch(name)
        if match is None:
            raise web.HTTPNotFound()
        try:
            body = resources.files("sim").joinpath("web", name).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            raise web.HTTPNotFound() from None
        response = web.Response(body=body, content_type=_CONTENT_TYPES[match.group(1)])
        host = request.host
        response.headers["Content-Security-Policy"] = (
            f"default-src 'self'; img-src 'self' data: blob:; connect-src 'self' ws://{host} wss://{host};"
            " frame-ancestors 'none'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-cache"
        return response

    # -- the WebSocket --

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            # Another site's page in a visitor's browser may not drive the nest.
            raise web.HTTPForbidden(text="this page's WebSocket is for this page only")
        socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=30)
        await socket.prepare(request)
        page = Page(socket, may_act=self.simulator is not None and self.pin is None)
        self.pages.append(page)
        try:
            await self._send(page, self._hello(page))
            for kind, text in self._snapshot():
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
            "can_act": page.may_act,
            "pin_required": self.pin is not None,
            "nest": self.picture.nest(),
            "buttons": list(self._buttons),
            "lineups": list(self._lineups),
            "levels": [{"number": level.number, "name": level.name} for level in LEVELS],
        }

    async def _answer(self, page: Page, text: str) -> None:
        try:
            request = parse_message(text, cells=self._cells, lineups=self._lineups, buttons=self._buttons)
        except BadMessageError as error:
            refusal: dict[str, Any] = {"type": "error", "message": str(error)}
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
                    reply = {"type": "session", "token": self._new_token(), "id": request.id}
            elif not page.may_act:
                raise SimulatorError("give the PIN shown on the OLED first")
            else:
                async with self._acting:
                    extra = await self.simulator.act(request.type, request.fields)
                if extra is not None:  # for this page alone (a recording to save)
                    await self._send(page, extra)
        except SimulatorError as error:
            reply = {"type": "error", "message": str(error), "id": request.id}
        if reply.get("id") is None:
            reply.pop("id", None)
        await self._send(page, reply)
        await self._send_frame()  # what the act changed, at once

    async def _authenticate(self, page: Page, request: Request) -> None:
        if request.type == "resume":
            if request.fields["token"] not in self._tokens:
                raise SimulatorError("that session has ended: give the PIN again")
        else:
            now = self.clock()
            if now < self._pins_paused_until:
                raise SimulatorError(f"too many wrong PINs: try again in {math.ceil(self._pins_paused_until - now)} s")
            if self.pin is not None and not secrets.compare_digest(request.fields["pin"], self.pin):
                self._wrong_pins += 1
                if self._wrong_pins >= PIN_TRIES:
                    self._wrong_pins, self._pins_paused_until = 0, now + PIN_PAUSE_S
                raise SimulatorError("wrong PIN")
            self._wrong_pins = 0
        page.may_act = True
        await self._send(page, self._hello(page))

    def _new_token(self) -> str:
        token = secrets.token_urlsafe(24)
        self._tokens.add(token)
        return token

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

    def _snapshot(self) -> list[tuple[str, str]]:
        """What the page shows now, as (type, text) messages, each encoded once."""
        messages = [self.picture.table(), self.picture.oled(), self.picture.lights(), self.picture.game()]
        if self.simulator is not None:
            messages += [self.simulator.replay_message(), self.simulator.recording_message()]
        return [(message["type"], json.dumps(message, separators=(",", ":"))) for message in messages]

    async def _send_frames(self) -> None:
        while True:
            await asyncio.sleep(FRAME_S)
            try:
                await self._send_frame()
            except Exception:  # a page's broken socket must not end the updates for the others
                logger.exception("sending to the pages failed")

    async def _send_frame(self) -> None:
        messages = self._snapshot() if self.pages else []
        for page in list(self.pages):
            await self._send_signals(page)
            for kind, text in messages:
                await self._send_changed(page, kind, text)

    async def _send_changed(self, page: Page, kind: str, text: str) -> None:
        if page.sent.get(kind) != text:
            page.sent[kind] = text
            await self._send_text(page, text)

    async def _send(self, page: Page, message: Mapping[str, Any]) -> None:
        await self._send_text(page, json.dumps(message, separators=(",", ":")))

    @staticmethod
    async def _send_text(page: Page, text: str) -> None:
        if not page.socket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):  # the page has just gone
                await page.socket.send_str(text)


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
    if host not in ("", "0.0.0.0", "::"):
        return _bracketed(host)
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))  # a UDP "connect" only picks the route
        return str(probe.getsockname()[0])
    return socket.gethostname()
