"""The web page's server: the simulator's (``nestref sim``) and, read-only, the real
nest's spectator page (``nestref run --web``).

One aiohttp application serves the page (``page/``) and a WebSocket, ``/ws``, that
speaks the protocol of docs/simulator.md. What the page shows is read from the running
daemon's snapshot — the OLED's image as drawn, the lights as their pins are driven, the
game as the record on disk has it — and sent when it changes; what the page asks is
checked whole (:mod:`.protocol`), then done by the table's actions the simulator plugs
in (none on the real nest: the spectators' page is read-only). The server runs in the
daemon's own event loop, so nothing here needs a lock against it.

Nothing from the network is trusted (docs/simulator.md, "Security"): every request must
name an allowed host (no DNS rebinding), a WebSocket must come from the page's own
origin, every response carries the same security headers, built here and never copied
from a request; the PIN is shown only to pages that gave it, and guessing it is limited
per source (:class:`~firmware_host.web.access.PinGuard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from firmware_host.daemon import Daemon, Snapshot
from firmware_host.daemon.button_meanings import button_help
from firmware_host.daemon.tunes import tunes_as_json
from firmware_host.games.base import Side
from firmware_host.web.access import (
    Handler,
    PinGuard,
    PinRefusedError,
    Sessions,
    add_security_headers,
    address_shown,
    is_allowed_host,
    is_loopback,
    names_in,
    new_pin,
    only_allowed_hosts,
    page_url,
    source_of,
    start_site,
)
from firmware_host.web.channel import Channel, PageConnection, encoded
from firmware_host.web.cues import CueFeed, SignalFeed
from firmware_host.web.history import add_history_routes
from firmware_host.web.picture import Picture
from firmware_host.web.players import PlayerScreens
from firmware_host.web.protocol import (
    MAX_ERROR_CHARS,
    MAX_MESSAGE_BYTES,
    NOT_ACTIONS,
    SPECTATOR_MESSAGE_BYTES,
    ActionError,
    BadMessageError,
    Choices,
    Request,
    TableActions,
    parse_message,
)
from firmware_host.web.static import PageFiles

logger = logging.getLogger(__name__)

FRAME_S = 0.05  # what changed is sent at most this often
SIMULATOR = "the simulator"  # what the simulator's PIN opens (PinGuard's and Sessions' target)
PIN_FROM_THE_NEST = (
    "Your side's PIN is on the nest's OLED while you hold two buttons together:"
    " confirm and take back for red, confirm and switch for blue."
)
PIN_FROM_THE_SIMULATOR = "Your side's PIN was printed by nestref sim, in the terminal that started it."


@dataclass(eq=False)
class Page(PageConnection):
    """One connected page."""

    token: str | None = None  # its session, once it gave the PIN (or resumed a session)
    signals_sent: int = 0  # how many of the server's signals this page has been sent
    cues_sent: int = 0  # how many of the daemon's cues (none from before it connected)


class WebServer(Channel[Page]):
    """The page and its WebSocket (the channel ``/ws``), for one daemon; ``table`` is
    None on the real nest (the spectator page: read-only)."""

    def __init__(
        self,
        daemon: Daemon,
        table: TableActions | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        clock: Callable[[], float] = time.monotonic,
        pins_file: Path | None = None,
    ) -> None:
        super().__init__(max_message_bytes=MAX_MESSAGE_BYTES if table is not None else SPECTATOR_MESSAGE_BYTES)
        self.daemon = daemon
        self.table = table
        self.host, self.port = host, port
        self.clock = clock
        self.picture = Picture(daemon, table)
        self.pin: str | None = None
        self._signals = SignalFeed()  # the public signals, for the shared pages and the players' own
        daemon.subscribe(self._signals.add)
        # The players' pages and PINs (kept in pins_file: the nest's survive a restart).
        self.players = PlayerScreens(
            daemon,
            self.picture,
            self._signals,
            clock=clock,
            pins_file=pins_file,
            pin_from=PIN_FROM_THE_NEST if table is None else PIN_FROM_THE_SIMULATOR,
        )
        self._sessions = Sessions()
        self._guard = PinGuard()
        if table is None and self.players.is_open:  # the nest: each side's PIN on its OLED alone
            pins = {Side.from_text(side): pin for side, pin in self.players.pins.pins.items()}
            daemon.show_own_screens(pins, shown=lambda side: self.players.pins.shown_at_nest(side.label, self.clock()))
        if not is_loopback(host) and table is not None:
            self.change_pin()
        self._acting = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self._frames: asyncio.Task[None] | None = None
        self.live_boards = False  # a "Live boards" panel (web/live.py serves it, when [broker] is set)
        game = daemon.config.game
        self._choices = Choices(
            frozenset(game.board.cells), game.lineups, tuple(daemon.config.buttons), len(game.computer_levels)
        )
        self._host_names = frozenset({"localhost", *daemon.config.web_hosts, *names_in(host)})
        self._cues = CueFeed()
        daemon.subscribe_cues(self._cues.add)
        # Over HTTP the page sends requests, never a body: the WebSocket has its own limit.
        self.is_shared_with_network = table is not None or daemon.config.spectators_on_network
        self.app = web.Application(
            client_max_size=SPECTATOR_MESSAGE_BYTES,
            middlewares=[only_allowed_hosts(self.is_allowed_host), self._only_players_from_elsewhere],
        )
        self.app.router.add_get("/ws", self.handle)
        add_history_routes(self.app, daemon)  # before "/{name}", which takes one segment only
        self.players.add_routes(self.app)
        PageFiles(index="index.html").add_routes(self.app)
        self.app.on_response_prepare.append(add_security_headers)
        self.app.on_startup.append(self._begin)
        self.app.on_shutdown.append(self._end)

    # -- lifecycle --

    async def start(self) -> str:
        """Serve; the page's address (with the port the system chose, for port 0)."""
        self._runner, self.port = await start_site(self.app, self.host, self.port)
        if not is_loopback(self.host):  # players at other machines find the page, and the PIN, on the OLED
            shown = address_shown(self.host)
            self._host_names |= names_in(shown)
            self.daemon.show_address(f"{shown}:{self.port}")
        return page_url(self.host, self.port)

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
        await self.close_all()
        await self.players.close_all()

    # -- HTTP --

    def is_allowed_host(self, host: str) -> bool:
        """Whether a request's ``Host`` names this server: an address it serves (on
        every address: any address, which no page can rebind), ``localhost``, or a name
        given in the config (``[web] hosts``). A page on another name that resolves here
        (DNS rebinding) is refused."""
        return is_allowed_host(host, serving=self.host, names=self._host_names)

    @web.middleware
    async def _only_players_from_elsewhere(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """On the nest (``nestref run --web``), unless ``[web] spectators_on_network``:
        the shared page, its socket and the history for this machine alone; the
        players' own screens (``player.html``, ``/ws/player`` and the page's code) for
        every machine that reaches the port."""
        from_elsewhere = not is_loopback(source_of(request.remote or ""))
        if from_elsewhere and not self.is_shared_with_network and not is_for_players(request.path):
            raise web.HTTPForbidden(
                text="the shared page is for this machine only ([web] spectators_on_network = true opens it);"
                " the players' own screens are at /player.html\n"
            )
        return await handler(request)

    # -- the WebSocket --

    def new_page(self, socket: web.WebSocketResponse, source: str) -> Page:
        return Page(socket, source, cues_sent=self._cues.count)

    async def opened(self, page: Page) -> None:
        for kind, text in self._snapshot(page):
            page.send_changed(kind, text)
        self._send_signals(page)

    def hello(self, page: Page) -> dict[str, Any]:
        return {
            "type": "hello",
            "mode": "sim" if self.table is not None else "spectator",
            "live_boards": self.live_boards,
            "can_act": self.may_act(page),
            "pin_required": self.pin is not None,
            "game": self.daemon.config.game.for_page(),
            "geometry": self.picture.geometry(),
            "own_screens": self.players.is_open,  # a game that hides pieces: each side's own screen (player.html)
            "buttons": [button_help(name) for name in self._choices.buttons],  # what each means now: "game"
            "lineups": list(self._choices.lineups),
            "levels": [
                {"number": level.number, "name": level.name} for level in self.daemon.config.game.computer_levels
            ],
            "tunes": tunes_as_json(),
        }

    def may_act(self, page: Page) -> bool:
        """Whether ``page`` may act now: in the simulator, with the PIN given (a session
        not yet ended) if one is needed."""
        if self.table is None:
            return False
        if self.pin is None:
            return True
        return self._sessions.target_of(page.token, self.clock()) == SIMULATOR

    def _sees_pin(self, page: Page) -> bool:
        """Whether ``page`` is sent the OLED as drawn, a PIN on it included: on the nest
        never (a side's own PIN may be on it: the spectators get the public screen)."""
        return self.table is not None and (self.pin is None or self.may_act(page))

    async def received(self, page: Page, text: str) -> None:
        try:
            request = parse_message(text, choices=self._choices)
        except BadMessageError as error:
            refusal: dict[str, Any] = {"type": "error", "message": _cut(str(error))}
            if error.id is not None:
                refusal["id"] = error.id
            page.send(refusal)
            return
        reply: dict[str, Any] = {"type": "ack", "id": request.id}
        try:
            if self.table is None:
                raise ActionError("this page is read-only: the game is played on the nest")
            if request.type in NOT_ACTIONS:
                self._authenticate(page, request)
                if request.type == "pin":
                    reply = {"type": "session", "token": page.token, "id": request.id}
            elif not self.may_act(page):
                had_session, page.token = page.token is not None, None
                if had_session:  # it ended (it expired, or the PIN changed): the page is told
                    page.send(self.hello(page))
                    raise ActionError("the session has ended: give the PIN shown on the OLED again")
                raise ActionError("give the PIN shown on the OLED first")
            elif request.type == "new_pin":
                if self.pin is None:
                    raise ActionError("no PIN here: the simulator serves this machine only")
                self._renew_pin(page)
                reply = {"type": "session", "token": page.token, "id": request.id}
            else:
                async with self._acting:
                    extra = await self.table.act(request.type, request.fields)
                if extra is not None:  # for this page alone (a recording to save)
                    page.send(extra)
        except ActionError as error:
            reply = {"type": "error", "message": _cut(str(error)), "id": request.id}
        if reply.get("id") is None:
            reply.pop("id", None)
        page.send(reply)
        self._send_frame()  # what the act changed, at once

    def _authenticate(self, page: Page, request: Request) -> None:
        """A ``pin`` or ``resume``: the page may act from now on. Raises
        :class:`ActionError` for a wrong PIN, an ended session, or a source that must
        wait after too many wrong PINs (:class:`~firmware_host.web.access.PinGuard`)."""
        now = self.clock()
        if request.type == "resume":
            token = request.fields["token"]
            if self._sessions.target_of(token, now) != SIMULATOR:
                raise ActionError("that session has ended: give the PIN again")
            page.token = token
        else:
            if self.pin is not None:
                try:
                    self._guard.check(SIMULATOR, request.fields["pin"], self.pin, source_of(page.source), now)
                except PinRefusedError as error:
                    message = str(error)
                    raise ActionError("wrong PIN" if message.startswith("wrong PIN") else message) from None
            page.token = self._sessions.begin(SIMULATOR, now)
        page.send(self.hello(page))

    def change_pin(self) -> str:
        """A new PIN, shown on the nest's OLED; every session ends, every pause too."""
        # A new one (the old one may be known to someone who should not), and no side's own.
        pin = new_pin(avoid=[*([self.pin] if self.pin else []), *self.players.pins.pins.values()])
        self.pin = pin
        self._sessions.end_all(SIMULATOR)
        self._guard.forget(SIMULATOR)
        self.daemon.show_pin(pin)  # on the OLED, for the players at the nest to tell
        return pin

    def _renew_pin(self, page: Page) -> None:
        """``new_pin``: every other page must give the new PIN; ``page`` keeps acting."""
        self.change_pin()
        page.token = self._sessions.begin(SIMULATOR, self.clock())
        for other in list(self.pages):
            other.send(self.hello(other))

    # -- sending --

    def _send_signals(self, page: Page) -> None:
        for text in self._signals.since(page.signals_sent):
            page.send_text(text)
        page.signals_sent = self._signals.count

    def _snapshot(self, page: Page | None = None) -> list[tuple[str, str]]:
        """What ``page`` is to be shown now, as (type, text) messages; without a page,
        what every page is shown but the OLED."""
        snapshot = self.daemon.snapshot()
        if page is not None:
            return [*self._common_messages(snapshot), self._oled_message(snapshot, self._sees_pin(page))]
        return self._common_messages(snapshot)

    def _common_messages(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        picture = self.picture
        messages = [picture.table(snapshot), picture.lights(snapshot), picture.game(snapshot)]
        if snapshot.remote is not None:  # remote play (page/remote.js)
            messages.append(snapshot.remote.to_json())
        if self.table is not None:
            messages += [self.table.replay_message(), self.table.recording_message()]
        return [(message["type"], encoded(message)) for message in messages]

    def _oled_message(self, snapshot: Snapshot, show_pin: bool) -> tuple[str, str]:
        return "oled", encoded(self.picture.oled(snapshot, show_pin=show_pin))

    async def _send_frames(self) -> None:
        while True:
            await asyncio.sleep(FRAME_S)
            try:
                self._send_frame()
                self.players.send_frame()
            except Exception:  # a bug of ours: logged, and the next frame sent all the same
                logger.exception("sending to the pages failed")

    def _send_frame(self) -> None:
        """What changed, to every page: each message encoded once, whoever it goes to."""
        if not self.pages:
            return
        snapshot = self.daemon.snapshot()
        common = self._common_messages(snapshot)
        oleds: dict[bool, tuple[str, str]] = {}
        for page in list(self.pages):
            sees_pin = self._sees_pin(page)
            if sees_pin not in oleds:
                oleds[sees_pin] = self._oled_message(snapshot, sees_pin)
            self._send_signals(page)
            for text in self._cues.since(page.cues_sent):
                page.send_text(text)
            page.cues_sent = self._cues.count
            for kind, text in [*common, oleds[sees_pin]]:
                page.send_changed(kind, text)


def is_for_players(path: str) -> bool:
    """Whether ``path`` is one of what a player's own screen needs: ``player.html``, its
    socket, and the page's code and pictures (no page, no data).

    >>> [is_for_players(p) for p in ("/player.html", "/ws/player", "/socket.js", "/", "/ws", "/index.html")]
    [True, True, True, False, False, False]
    """
    if path in ("/player.html", "/ws/player"):
        return True
    name = path[1:]
    return "/" not in name and name.rpartition(".")[2] in ("js", "css", "png", "svg")


def _cut(message: str) -> str:
    return message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - 3] + "..."
