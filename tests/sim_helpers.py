"""The simulator for the web server's tests: the real daemon running on a simulated
nest, and a page at the other end of the WebSocket (aiohttp's own client)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp

from firmware_host.daemon import Daemon
from firmware_host.daemon.config import Config
from firmware_host.web.server import WebServer
from sim.app import build_simulation
from sim.mock_devices import MockNest
from sim.simulator import Simulator

WAIT_S = 30.0  # a wait ends as soon as its condition holds; this long only on a machine under load


@dataclasses.dataclass
class Running:
    daemon: Daemon
    simulator: Simulator
    mock: MockNest
    server: WebServer  # the simulator's, there from the daemon's start


@contextlib.asynccontextmanager
async def simulated(config: Config, *, database: str = ":memory:") -> AsyncIterator[Running]:
    """The daemon running on the simulated nest of ``config``, its games in ``database``."""
    simulation = build_simulation(dataclasses.replace(config, database=database))
    daemon, simulator, mock = simulation.daemon, simulation.simulator, simulation.nest
    server = WebServer(daemon, simulator)
    daemon.start()
    stop = asyncio.Event()
    loop = asyncio.create_task(daemon.run(stop))
    yield Running(daemon, simulator, mock, server)
    simulator.pause()
    stop.set()
    await loop
    daemon.close()
    mock.close()


class PageClient:
    """A page at the other end of the WebSocket: keeps the latest message of each type
    and every signal."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.latest: dict[str, dict[str, Any]] = {}
        self.signals: list[str] = []
        self.replies: dict[Any, dict[str, Any]] = {}
        self.errors: list[str] = []
        self.recorded: list[str] = []  # the sensor logs recorded
        self._next_id = 0
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data["type"] == "signal":
                self.signals.append(data["text"])
            elif data["type"] in ("ack", "error", "session") and "id" in data:
                self.replies[data["id"]] = data
            if data["type"] == "error":
                self.errors.append(data["message"])
            if data["type"] == "recording" and "text" in data:
                self.recorded.append(data["text"])
            self.latest[data["type"]] = data

    async def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send with an id; the reply (``ack``, ``session`` or ``error``)."""
        self._next_id += 1
        ident = self._next_id
        await self.socket.send_str(json.dumps({**message, "id": ident}))
        await self.until(lambda: ident in self.replies)
        return self.replies[ident]

    async def act(self, message: dict[str, Any]) -> None:
        reply = await self.send(message)
        assert reply["type"] == "ack", reply

    async def until(self, condition: Callable[[], bool]) -> None:
        deadline = asyncio.get_running_loop().time() + WAIT_S
        while not condition():
            assert asyncio.get_running_loop().time() < deadline, f"timed out; last signals: {self.signals[-6:]}"
            await asyncio.sleep(0.01)

    async def until_last_move(self, move: str) -> None:
        await self.until(lambda: self.moves()[-1:] == [move])

    def moves(self) -> list[str]:
        return list(self.latest.get("game", {}).get("moves", []))

    async def close(self) -> None:
        await self.socket.close()
        await self._reader


async def connect(aiohttp_client: Any, server: WebServer, *, source: str | None = None, **headers: str) -> PageClient:
    """A page on ``server``'s ``/ws``; from the loopback address ``source`` if given
    (every 127.x.y.z is this machine's: pages of different sources, really)."""
    options = {"connector": aiohttp.TCPConnector(local_addr=(source, 0))} if source is not None else {}
    client = await aiohttp_client(server.app, **options)
    page = PageClient(await client.ws_connect("/ws", headers=headers))
    await page.until(lambda: "game" in page.latest and "table" in page.latest)
    return page


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now
