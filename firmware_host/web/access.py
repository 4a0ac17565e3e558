"""Who may reach the server, and how every response is headed: the host names it
serves (a page on another name that resolves here, by DNS rebinding, is refused), the
WebSocket's origin, the security headers built here and never copied from a request."""

from __future__ import annotations

import contextlib
import ipaddress
import math
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_host.errors import NestrefError

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


async def add_security_headers(_: web.Request, response: web.StreamResponse) -> None:
    """The same headers on every response: the page, its files, the WebSocket's
    handshake, a 404, a 500."""
    response.headers.update(SECURITY_HEADERS)


def host_name(authority: str) -> str | None:
    """The name or address in a ``Host`` header (``host``, ``host:port``,
    ``[v6]:port``), lowercased; None if it is not one.

    >>> host_name("Nest.Local:8080"), host_name("[::1]:80"), host_name("127.0.0.1:1; script-src *")
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


def address_or_none(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def names_in(host: str) -> set[str]:
    """The name in ``host`` (an address to serve on, or shown), if it is a name."""
    name = host.strip("[]").lower().rstrip(".")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return {name} if name not in WILDCARDS else set()
    return set()


def is_same_origin(origin: str, host: str) -> bool:
    """Whether a WebSocket's ``Origin`` is the page's own: http(s) on the very host and
    port the request was sent to (which is an allowed one)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower() and not parts.path.strip("/")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def address_shown(host: str) -> str:
    """The address to show on the OLED: for a server on every address, this machine's
    address on the network (found without sending anything)."""
    if host not in WILDCARDS:
        return bracketed(host)
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))  # a UDP "connect" only picks the route
        return str(probe.getsockname()[0])
    return socket.gethostname()


class SidePins:
    """Each side's own PIN, for the players' own screens of a game that hides pieces: a
    page that gave red's PIN gets red's session, and with it red's ranks and red's
    set-up; nothing of blue's. A PIN is four digits, drawn here, never another side's (the
    simulator's own PIN avoids them too). A wrong one counts against the page
    (``PIN_TRIES`` in a row, then it waits) and against the whole server (its
    ``SERVER_TRIES`` within ``SERVER_WINDOW_S``, then every page waits)."""

    PIN_TRIES = 5
    PAUSE_S = 30.0
    SERVER_TRIES = 20
    SERVER_WINDOW_S = 60.0
    SESSION_S = 12 * 3600.0
    MAX_SESSIONS = 20

    def __init__(self, sides: Iterable[str]) -> None:
        taken: set[str] = set()
        self.pins: dict[str, str] = {}
        for side in sides:
            pin = f"{secrets.randbelow(10_000):04d}"
            while pin in taken:
                pin = f"{secrets.randbelow(10_000):04d}"
            self.pins[side] = pin
            taken.add(pin)
        self._sessions: dict[str, tuple[str, float]] = {}  # token: its side, when it ends
        self._wrong: deque[float] = deque()  # when each recent wrong PIN came, from any page

    def log_in(self, side: str, pin: str, attempt: PinAttempts, now: float) -> str:
        """A new session of ``side`` for the page whose tries are ``attempt``, if ``pin``
        is that side's. Raises :class:`PinRefusedError` saying why not."""
        if side not in self.pins:
            raise PinRefusedError(f"no side {side[:20]!r}: the sides are {', '.join(self.pins)}")
        if now < attempt.paused_until:
            raise PinRefusedError(f"too many wrong PINs: try again in {math.ceil(attempt.paused_until - now)} s")
        while self._wrong and self._wrong[0] <= now - self.SERVER_WINDOW_S:
            self._wrong.popleft()
        if len(self._wrong) >= self.SERVER_TRIES:
            raise PinRefusedError(
                f"too many wrong PINs here: try again in {math.ceil(self._wrong[0] + self.SERVER_WINDOW_S - now)} s"
            )
        if not secrets.compare_digest(pin.encode(), self.pins[side].encode()):
            self._wrong.append(now)
            attempt.wrong += 1
            if attempt.wrong >= self.PIN_TRIES:
                attempt.wrong, attempt.paused_until = 0, now + self.PAUSE_S
            raise PinRefusedError(f"wrong PIN for {side}")
        attempt.wrong = 0
        for token, (_, ends) in list(self._sessions.items()):
            if ends <= now:
                del self._sessions[token]
        while len(self._sessions) >= self.MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]  # the oldest
        token = secrets.token_urlsafe(24)
        self._sessions[token] = (side, now + self.SESSION_S)
        return token

    def side_of(self, token: str | None, now: float) -> str | None:
        """The side whose session ``token`` is, while it lasts; None otherwise."""
        found = self._sessions.get(token) if token is not None else None
        return found[0] if found is not None and found[1] > now else None


@dataclass
class PinAttempts:
    """One page's wrong PINs in a row, and until when it may give none."""

    wrong: int = 0
    paused_until: float = 0.0


class PinRefusedError(NestrefError, ValueError):
    """A PIN not taken: wrong, or given too often; the message says which."""


def is_allowed_host(host: str, *, serving: str, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names a server on ``serving`` known by ``names``:
    one of the names, a loopback address, the address served, or any address for a
    server on every address (which no page can rebind). The spectator page's
    :meth:`~firmware_host.web.server.WebServer.is_allowed_host` and the live boards'
    page both ask it."""
    name = host_name(host)
    if name is None:
        return False
    if name in names:
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return serving in WILDCARDS or address.is_loopback or address == address_or_none(serving)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def only_allowed_hosts(is_allowed: Callable[[str], bool]) -> Middleware:
    """aiohttp middleware refusing a request whose ``Host`` ``is_allowed`` refuses
    (DNS rebinding: a page on another name that resolves here)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not is_allowed(request.headers.get("Host", "")):
            raise web.HTTPMisdirectedRequest(text="this server does not serve that host name\n")
        return await handler(request)

    return middleware


async def start_site(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on ``host``:``port``: its runner, and the port (the one the system
    chose, for port 0). Nothing is left open if it cannot be served."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner, int(runner.addresses[0][1]) if runner.addresses else port


def page_url(host: str, port: int) -> str:
    """The page's address for a server on ``host`` (127.0.0.1 for every address)."""
    return f"http://{'127.0.0.1' if host in WILDCARDS else bracketed(host)}:{port}/"
