"""Who may reach the server, and how every response is headed: the host names it
serves (a page on another name that resolves here, by DNS rebinding, is refused), the
WebSocket's origin, the security headers built here and never copied from a request."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
import os
import secrets
import tomllib
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_host.errors import ConfigError, NestrefError
from firmware_host.files import reason

logger = logging.getLogger(__name__)

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


PIN_DIGITS = 6  # a million PINs: see docs/simulator.md, "Guessing a PIN", for what that costs a guesser


def new_pin(avoid: Iterable[str] = ()) -> str:
    """A PIN of :data:`PIN_DIGITS` digits, drawn by :mod:`secrets`, none of ``avoid``."""
    taken = set(avoid)
    while True:
        pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        if pin not in taken:
            return pin


def source_of(address: str) -> str:
    """Whom a wrong PIN counts against: an IPv4 address, or an IPv6 address's /64 (one
    machine may take any address of its /64 at will, so that is one guesser).

    >>> source_of("192.168.1.7"), source_of("::ffff:192.168.1.7"), source_of("2001:db8::1:2")
    ('192.168.1.7', '192.168.1.7', '2001:db8::/64')
    """
    parsed = address_or_none(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed) if parsed is not None else address[:64]


@dataclass
class _Guesses:
    """One source's wrong PINs in a row for one target, and until when it must wait."""

    wrong: int = 0
    paused_until: float = 0.0


class PinGuard:
    """Who may give a PIN now, and whether it is the right one: what stands between a
    guesser and a PIN (OWASP's authentication throttling: by source, never locking out
    whoever gives the right PIN from a device of its own).

    Wrong PINs count per *source* (:func:`source_of`) and per *target* (a side, or the
    simulator's PIN): one source's guesses at blue's PIN slow that source down at blue's
    PIN alone, never red's player nor another machine. A source may give
    :attr:`FREE_TRIES` wrong PINs in a row; each further wrong one makes it wait twice as
    long as the one before, from :attr:`FIRST_PAUSE_S` up to :attr:`MAX_PAUSE_S`; a right
    PIN starts it afresh. Beyond that, a target takes at most :attr:`TARGET_TRIES` wrong
    PINs an hour from all sources together (a guesser with many addresses); past them
    only a source that once gave the target's PIN is heard, or any while the target is
    opened at the nest (:meth:`open_at_nest`: the player is there), so the rightful player
    is never kept out. Time is passed in, in seconds."""

    FREE_TRIES = 5
    FIRST_PAUSE_S = 30.0
    MAX_PAUSE_S = 3600.0
    TARGET_TRIES = 30
    TARGET_WINDOW_S = 3600.0
    OPEN_S = 120.0  # how long a target stays open to every source after it was shown at the nest
    MAX_SOURCES = 4096  # sources remembered (the oldest forgotten first): memory stays bounded

    def __init__(self) -> None:
        self._guesses: OrderedDict[tuple[str, str], _Guesses] = OrderedDict()  # (target, source)
        self._wrong: dict[str, deque[float]] = {}  # target: when each of its recent wrong PINs came
        self._trusted: dict[str, OrderedDict[str, None]] = {}  # target: the sources that gave its PIN
        self._open_until: dict[str, float] = {}

    def check(self, target: str, given: str, right: str, source: str, now: float) -> None:
        """Nothing if ``given`` is ``right``, the PIN of ``target``, and ``source`` may
        give one now. Raises :class:`PinRefusedError` saying why not (a wrong PIN, or
        how long to wait); a refused PIN is not even compared."""
        key = (target, source)
        record = self._guesses.get(key)
        if record is not None and now < record.paused_until:
            raise PinRefusedError(f"too many wrong PINs: try again in {math.ceil(record.paused_until - now)} s")
        window = self._wrong.setdefault(target, deque())
        while window and window[0] <= now - self.TARGET_WINDOW_S:
            window.popleft()
        trusted = self._trusted.setdefault(target, OrderedDict())
        if len(window) >= self.TARGET_TRIES and source not in trusted and now >= self._open_until.get(target, 0.0):
            wait = math.ceil(window[0] + self.TARGET_WINDOW_S - now)
            raise PinRefusedError(
                f"too many wrong PINs for {target} from elsewhere: try again in {wait} s, or open it at the nest"
            )
        if secrets.compare_digest(given.encode(), right.encode()):
            self._guesses.pop(key, None)
            trusted[source] = None
            while len(trusted) > self.MAX_SOURCES:
                trusted.popitem(last=False)
            return
        window.append(now)
        if len(window) == self.TARGET_TRIES:
            logger.warning("%d wrong PINs for %s within an hour: only known devices are heard", len(window), target)
        record = self._guesses.pop(key, None) or _Guesses()
        record.wrong += 1
        if record.wrong >= self.FREE_TRIES:
            pause = self.FIRST_PAUSE_S * 2.0 ** min(record.wrong - self.FREE_TRIES, 32)
            record.paused_until = now + min(pause, self.MAX_PAUSE_S)
        self._guesses[key] = record  # the newest last
        while len(self._guesses) > self.MAX_SOURCES:
            self._guesses.popitem(last=False)
        raise PinRefusedError(f"wrong PIN for {target}")

    def open_at_nest(self, target: str, now: float) -> None:
        """``target``'s PIN was just shown at the nest (its player is there): for
        :attr:`OPEN_S` every source is heard, whatever others have guessed, and no
        source waits any longer at it (a player behind the guesser's own address, a NAT,
        is let in too; the guesser gains a few guesses each time a player holds the
        buttons, no more)."""
        self._open_until[target] = now + self.OPEN_S
        for key in [key for key in self._guesses if key[0] == target]:
            del self._guesses[key]

    def forget(self, target: str) -> None:
        """``target``'s PIN changed: what was counted against it, and who knew it, no longer matter."""
        for key in [key for key in self._guesses if key[0] == target]:
            del self._guesses[key]
        self._wrong.pop(target, None)
        self._trusted.pop(target, None)


class Sessions:
    """The sessions of each target (a side, or the simulator), each ending
    :attr:`SESSION_S` after it began, at most :attr:`PER_TARGET` of a target open at once
    (the target's oldest ends first: red logging in again and again never ends blue's)."""

    SESSION_S = 12 * 3600.0
    PER_TARGET = 10

    def __init__(self) -> None:
        self._open: dict[str, dict[str, float]] = {}  # target: {token: when it ends}, the oldest first

    def begin(self, target: str, now: float) -> str:
        """A new session of ``target``: its token."""
        sessions = self._open.setdefault(target, {})
        for token, ends in list(sessions.items()):
            if ends <= now:
                del sessions[token]
        while len(sessions) >= self.PER_TARGET:
            del sessions[next(iter(sessions))]
        token = secrets.token_urlsafe(24)
        sessions[token] = now + self.SESSION_S
        return token

    def target_of(self, token: str | None, now: float) -> str | None:
        """The target whose session ``token`` is, while it lasts; None otherwise."""
        if token is None:
            return None
        for target, sessions in self._open.items():
            if sessions.get(token, -math.inf) > now:
                return target
        return None

    def end_all(self, target: str) -> None:
        self._open.pop(target, None)


PINS_FILE_HEADER = (
    "# Each side's own PIN for its player's screen (nestref run --web), kept here so that\n"
    "# they survive a restart; the nest's OLED shows each side's alone (docs/simulator.md,\n"
    '# "Reaching your own screen"). Delete this file for new PINs.\n'
)


class SidePins:
    """Each side's own PIN, for the players' own screens of a game that hides pieces: a
    page that gave red's PIN gets red's session, and with it red's ranks and red's
    set-up; nothing of blue's. A PIN is :data:`PIN_DIGITS` digits, never another side's
    (the simulator's own PIN avoids them too), kept in ``pins_file`` when there is one
    (drawn there once, read at every start after, never printed nor logged), and given
    through a :class:`PinGuard`."""

    def __init__(self, sides: Iterable[str], *, pins_file: Path | None = None) -> None:
        wanted = list(sides)
        self.pins: dict[str, str] = read_pins(pins_file, wanted) if pins_file is not None and wanted else {}
        if not self.pins:
            for side in wanted:
                self.pins[side] = new_pin(avoid=self.pins.values())
            if pins_file is not None and wanted:
                write_pins(pins_file, self.pins)
        self.guard = PinGuard()
        self._sessions = Sessions()

    def log_in(self, side: str, pin: str, source: str, now: float) -> str:
        """A new session of ``side`` for a page at ``source``, if ``pin`` is that
        side's. Raises :class:`PinRefusedError` saying why not."""
        if side not in self.pins:
            raise PinRefusedError(f"no side {side[:20]!r}: the sides are {', '.join(self.pins)}")
        self.guard.check(side, pin, self.pins[side], source_of(source), now)
        return self._sessions.begin(side, now)

    def side_of(self, token: str | None, now: float) -> str | None:
        """The side whose session ``token`` is, while it lasts; None otherwise."""
        return self._sessions.target_of(token, now)

    def shown_at_nest(self, side: str, now: float) -> None:
        """``side``'s PIN is on the nest's OLED (its player is there): its player is heard
        from any device, whatever others have guessed (:meth:`PinGuard.open_at_nest`)."""
        if side in self.pins:
            self.guard.open_at_nest(side, now)


def read_pins(path: Path, sides: list[str]) -> dict[str, str]:
    """The PINs kept in ``path`` (empty if there is no such file yet). Raises
    :class:`~firmware_host.errors.ConfigError` naming the file and what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the players' PINs: {reason(error)}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: the players' PINs: {error}; delete the file for new PINs") from None
    pins: dict[str, str] = {}
    for side in sides:
        pin = data.get(side)
        if not (isinstance(pin, str) and len(pin) == PIN_DIGITS and pin.isascii() and pin.isdigit()):
            raise ConfigError(f"{path}: {side}: a PIN of {PIN_DIGITS} digits is wanted; delete the file for new PINs")
        if pin in pins.values():
            raise ConfigError(f"{path}: {side}: the same PIN as another side's; delete the file for new PINs")
        pins[side] = pin
    return pins


def write_pins(path: Path, pins: dict[str, str]) -> None:
    """``pins`` into ``path``, readable by this user alone (mode 0600 from the start:
    the file is never, even for a moment, readable by others). Raises
    :class:`~firmware_host.errors.NestrefError` if it cannot be written."""
    text = PINS_FILE_HEADER + "".join(f'{side} = "{pin}"\n' for side, pin in pins.items())
    part = path.with_name(path.name + ".part")
    try:
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
        descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
    except OSError as error:
        raise NestrefError(f"cannot write the players' PINs to {path}: {reason(error)}") from None


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
