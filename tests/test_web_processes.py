"""Every WebSocket route against a real server process (``nestref sim``, ``nestref
live``), not aiohttp's test client in the test's own loop: handshakes dropped mid-way,
JSON nested 2,000 deep, a frame over the limit. Each is answered or closed with a code
and a reason, and the process logs nothing at ERROR and no traceback, read from its own
stderr."""

from __future__ import annotations

import asyncio
import queue
import re
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

import aiohttp

from tests.broker import Broker

NESTREF = str(Path(sys.executable).parent / "nestref")
START_S = 30.0  # a process's start, on a slow machine
WAIT_S = 10.0
DROPS = 30
DEEP = "[" * 2000 + "]" * 2000


class ServerProcess:
    """``nestref <arguments>`` in a subprocess, serving on a free port: its address (the
    first ``http://`` it prints), and everything it wrote to stderr once stopped."""

    def __init__(self, cwd: Path, *arguments: str) -> None:
        self._stderr_path = cwd / "server.stderr"
        self._stderr = self._stderr_path.open("w+", encoding="utf-8")
        self.process = subprocess.Popen(
            [NESTREF, *arguments], cwd=cwd, stdout=subprocess.PIPE, stderr=self._stderr, text=True
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:  # all along: a pipe nobody reads would stop the server once full
            assert self.process.stdout is not None
            for line in self.process.stdout:
                lines.put(line)
            lines.put(None)

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        while True:
            try:
                line = lines.get(timeout=START_S)
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"nestref {arguments[0]} printed no address: {self.stop()}")
            if found := re.search(r"(http://\S+/)", line):
                self.url = found.group(1)
                self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
                return

    def stop(self) -> str:
        """Stop it as systemd would (SIGTERM); what it wrote to stderr."""
        self.process.terminate()
        self.process.wait(timeout=WAIT_S * 3)
        self._reader.join(timeout=WAIT_S)  # stdout read to its end
        assert self.process.stdout is not None
        self.process.stdout.close()
        self._stderr.seek(0)
        text = self._stderr.read()
        self._stderr.close()
        return text


def drop_handshakes(port: int, path: str, times: int = DROPS) -> None:
    """Begin ``times`` WebSocket handshakes and reset each connection at once."""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    for _ in range(times):
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(request)
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, no FIN


async def reply_to(socket_: aiohttp.ClientWebSocketResponse, text: str) -> str:
    """The first reply (ack, error, session) to ``text``, skipping what else is sent."""
    await socket_.send_str(text)
    return await next_reply(socket_)


async def next_reply(socket_: aiohttp.ClientWebSocketResponse) -> str:
    """The next reply (ack, error, session) the page is sent, skipping what else is sent."""
    while True:
        message = await socket_.receive(timeout=WAIT_S)
        assert message.type is aiohttp.WSMsgType.TEXT, (message.type, message.data, message.extra)
        if re.match(r'\{"type":"(ack|error|session)"', message.data):
            return str(message.data)


async def closing_of(socket_: aiohttp.ClientWebSocketResponse) -> tuple[int | None, str]:
    """The close code and reason of ``socket_``, read to its end."""
    while True:
        message = await socket_.receive(timeout=WAIT_S)
        if message.type is aiohttp.WSMsgType.CLOSE:
            return message.data, str(message.extra)
        assert message.type is aiohttp.WSMsgType.TEXT, message


async def deep_json_binary_and_too_big(url: str, path: str, *, limit: int | None = None) -> None:
    """On ``path``: deep JSON and a binary frame answered with an error, the page kept;
    then (given the ``limit``) a frame over it closes the page with 1009 and a reason."""
    async with aiohttp.ClientSession() as session, session.ws_connect(url + path.lstrip("/")) as page:
        assert await reply_to(page, DEEP) == '{"type":"error","message":"not a message: nested too deeply"}'
        deep_with_id = '{"id": 7, "a":' + "[" * 50 + "]" * 50 + "}"  # past our limit, within the decoder's
        assert (
            await reply_to(page, deep_with_id) == '{"type":"error","message":"not a message: nested too deeply","id":7}'
        )
        await page.send_bytes(b"\x00\xff")
        assert await next_reply(page) == '{"type":"error","message":"messages are JSON text"}'
        assert '"id":8' in await reply_to(page, '{"type": "nothing", "id": 8}')  # still heard
        if limit is not None:
            await page.send_bytes(b"x" * (limit + 1))
            assert await closing_of(page) == (1009, f"a message is at most {limit} bytes")


def assert_nothing_logged_as_an_error(stderr: str) -> None:
    assert "Traceback" not in stderr and "level=error" not in stderr, stderr[-3000:]


def test_the_simulators_sockets_take_dropped_handshakes_and_deep_json_logging_nothing(tmp_path):
    server = ServerProcess(tmp_path, "sim", "--port", "0", "--no-browser", "--game", "battle")
    try:
        for path in ("/ws", "/ws/player"):
            drop_handshakes(server.port, path)
        asyncio.run(deep_json_binary_and_too_big(server.url, "/ws/player", limit=4096))
        asyncio.run(deep_json_binary_and_too_big(server.url, "/ws"))
    finally:
        stderr = server.stop()
    assert_nothing_logged_as_an_error(stderr)


async def live_page_takes_deep_json(url: str) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(url + "live/ws") as page:
        hello = await page.receive(timeout=WAIT_S)
        assert hello.type is aiohttp.WSMsgType.TEXT and hello.data.startswith('{"type":"live_hello"')
        await page.send_str("[" * 500 + "]" * 500)  # within its 1 KiB; read no further: the live page says nothing
        await page.send_bytes(b"\x00" * 16)
        await page.send_bytes(b"x" * 2000)
        assert await closing_of(page) == (1009, "a message is at most 1024 bytes")


def test_the_live_boards_socket_takes_dropped_handshakes_and_deep_json_logging_nothing(tmp_path, broker: Broker):
    server = ServerProcess(tmp_path, "live", "--broker", broker.url, "--port", "0")
    try:
        drop_handshakes(server.port, "/live/ws")
        asyncio.run(live_page_takes_deep_json(server.url))
    finally:
        stderr = server.stop()
    assert_nothing_logged_as_an_error(stderr)
