"""The page's files (``page/``), served by name, for the spectator and simulator's app
(:mod:`.server`) and the live boards' (:mod:`.live`): one file server for both.

A request's name is only looked up among the files there are, never used as a path
(no ``..``, no other folder, a name of any length a 404); each file goes with the
content type of its kind, and the app's security headers (:mod:`.access`).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from importlib.abc import Traversable

from aiohttp import web

CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".png": "image/png",
                 ".svg": "image/svg+xml"}  # fmt: skip


class PageFiles:
    """The files of ``page/`` (only the names ``only`` gives, if it gives any), ``index``
    the one served at ``/``."""

    def __init__(self, *, index: str, only: Iterable[str] | None = None) -> None:
        folder = resources.files("firmware_host.web").joinpath("page")
        wanted = frozenset(only) if only is not None else None
        self._files: dict[str, Traversable] = {
            entry.name: entry
            for entry in folder.iterdir()
            if _content_type(entry.name) is not None and (wanted is None or entry.name in wanted)
        }
        missing = sorted((wanted or frozenset()) - self._files.keys())
        if missing or index not in self._files:
            raise FileNotFoundError(f"the page's files lack {', '.join(missing) or index}")
        self.index = index

    def add_routes(self, app: web.Application) -> None:
        """``/`` and ``/{name}`` (after every other route of one segment: it takes them all)."""
        app.router.add_get("/", self._index)
        app.router.add_get("/{name}", self._file)

    def response(self, name: str) -> web.Response:
        """The file ``name``; raises ``HTTPNotFound`` for a name that is not one."""
        entry = self._files.get(name)
        content_type = _content_type(name)
        if entry is None or content_type is None:
            raise web.HTTPNotFound()
        return web.Response(body=entry.read_bytes(), content_type=content_type)

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self.response(self.index)

    async def _file(self, request: web.Request) -> web.StreamResponse:
        return self.response(request.match_info["name"])


def _content_type(name: str) -> str | None:
    return CONTENT_TYPES.get("." + name.rpartition(".")[2]) if "." in name else None
