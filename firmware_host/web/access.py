"""Who may reach the server, and how every response is headed: the host names it
serves (a page on another name that resolves here, by DNS rebinding, is refused), the
WebSocket's origin, the security headers built here and never copied from a request."""

from __future__ import annotations

import contextlib
import ipaddress
from urllib.parse import urlsplit

from aiohttp import web

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
