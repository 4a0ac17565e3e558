"""The one WebSocket channel base (``web/channel.py``), on a small channel of its own
served by aiohttp: its hello, its guarded receive (a bug closes one page with 1011, the
others go on), its bounded send queue (a page that falls behind is closed with 1013),
its limits (pages, origin), its goodbye at shutdown; and the JSON every channel reads,
fuzzed."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import aiohttp
import pytest
from aiohttp import WSCloseCode, web
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.web.channel import (
    FELL_BEHIND,
    MAX_DEPTH,
    SEND_QUEUE,
    STOPPING,
    Channel,
    NotAMessageError,
    PageConnection,
    json_value,
    message_id,
)

WAIT_S = 10.0


class EchoChannel(Channel[PageConnection]):
    """Says hello, echoes a message's ``say``, floods on ``flood``, breaks on ``break``."""

    def __init__(self, *, max_pages: int = 5) -> None:
        super().__init__(max_message_bytes=1024, max_pages=max_pages)

    def new_page(self, socket: web.WebSocketResponse, source: str) -> PageConnection:
        return PageConnection(socket, source)

    def hello(self, page: PageConnection) -> dict[str, Any]:
        return {"type": "hello", "from": page.source}

    async def received(self, page: PageConnection, text: str) -> None:
        message = json_value(text)
        if message == "flood":
            for number in range(SEND_QUEUE + 1):  # at once, before the sender can send any
                page.send({"type": "flood", "n": number})
        elif message == "break":
            raise KeyError("a bug of the channel's")
        else:
            page.send({"type": "echo", "say": message})


def an_app(channel: EchoChannel) -> web.Application:
    app = web.Application()
    app.router.add_get("/ws", channel.handle)

    async def goodbye(_: web.Application) -> None:
        await channel.close_all()

    app.on_shutdown.append(goodbye)
    return app


async def received(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await socket.receive(timeout=WAIT_S)
    assert message.type is aiohttp.WSMsgType.TEXT, (message.type, message.data, message.extra)
    value: dict[str, Any] = json.loads(message.data)
    return value


async def closed(socket: aiohttp.ClientWebSocketResponse) -> tuple[int, str]:
    """The code and reason ``socket`` was closed with (what came before skipped)."""
    while True:
        message = await socket.receive(timeout=WAIT_S)
        if message.type is aiohttp.WSMsgType.CLOSE:
            return message.data, str(message.extra)
        assert message.type is aiohttp.WSMsgType.TEXT, message


async def test_a_page_is_said_hello_and_answered_in_order(aiohttp_client):
    client = await aiohttp_client(an_app(EchoChannel()))
    socket = await client.ws_connect("/ws")
    assert await received(socket) == {"type": "hello", "from": "127.0.0.1"}
    for word in ("one", "two", "three"):
        await socket.send_str(json.dumps(word))
    assert [(await received(socket))["say"] for _ in range(3)] == ["one", "two", "three"]
    await socket.close()


async def test_a_bug_closes_that_page_with_1011_logged_and_the_others_go_on(aiohttp_client, caplog):
    client = await aiohttp_client(an_app(EchoChannel()))
    broken, other = await client.ws_connect("/ws"), await client.ws_connect("/ws")
    await received(broken), await received(other)
    await broken.send_str('"break"')
    assert await closed(broken) == (WSCloseCode.INTERNAL_ERROR, "the server could not handle that message")
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None  # a bug: logged with its traceback
    await other.send_str('"still here"')
    assert (await received(other))["say"] == "still here"
    await other.close()


async def test_a_page_that_falls_behind_is_closed_to_come_back(aiohttp_client):
    client = await aiohttp_client(an_app(EchoChannel()))
    socket = await client.ws_connect("/ws")
    await received(socket)
    await socket.send_str('"flood"')
    assert await closed(socket) == (WSCloseCode.TRY_AGAIN_LATER, FELL_BEHIND)
    again = await client.ws_connect("/ws")  # a fresh start: a hello, not a backlog
    assert (await received(again))["type"] == "hello"
    await again.close()


async def test_too_many_pages_and_another_sites_page_are_refused(aiohttp_client):
    channel = EchoChannel(max_pages=2)
    client = await aiohttp_client(an_app(channel))
    first, second = await client.ws_connect("/ws"), await client.ws_connect("/ws")
    await received(first), await received(second)
    assert (await client.get("/ws", headers={"Upgrade": "websocket", "Connection": "Upgrade"})).status == 503
    await first.close()
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while len(channel.pages) > 1:  # the server has seen it go
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.01)
    third = await client.ws_connect("/ws")
    assert (await received(third))["type"] == "hello"
    await third.close()
    origin = {"Origin": "http://evil.example"}
    response = await client.get("/ws", headers={"Upgrade": "websocket", "Connection": "Upgrade", **origin})
    assert response.status == 403
    await second.close()


async def test_a_frame_over_the_limit_and_a_binary_one_close_or_are_ignored_with_reasons(aiohttp_client):
    client = await aiohttp_client(an_app(EchoChannel()))
    socket = await client.ws_connect("/ws")
    await received(socket)
    await socket.send_bytes(b"\x00")
    assert await received(socket) == {"type": "error", "message": "messages are JSON text"}
    await socket.send_str(json.dumps("x" * 2000))
    assert await closed(socket) == (WSCloseCode.MESSAGE_TOO_BIG, "a message is at most 1024 bytes")


async def test_at_shutdown_every_page_is_told_the_server_stops(aiohttp_client):
    client = await aiohttp_client(an_app(EchoChannel()))
    socket = await client.ws_connect("/ws")
    await received(socket)
    await client.server.close()
    assert await closed(socket) == (WSCloseCode.GOING_AWAY, STOPPING)


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(child) for child in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(child) for child in value), default=0)
    return 0


NESTED = st.integers(1, 5000).flatmap(
    lambda levels: st.sampled_from(["[" * levels + "]" * levels, '{"a":' * levels + "1" + "}" * levels])
)


@given(st.text(max_size=200) | NESTED | st.recursive(st.integers() | st.text(max_size=5), st.lists).map(json.dumps))
def test_any_text_is_read_within_the_depth_or_refused_by_name(text):
    try:
        value, refusal = json_value(text), None
    except NotAMessageError as error:
        value, refusal = None, str(error)
    assert refusal in ("not JSON", "not a message: nested too deeply") if refusal else depth(value) <= MAX_DEPTH


def test_an_id_is_a_whole_number_or_a_short_text():
    assert [message_id({"id": value}) for value in (7, "a7", "x" * 40, "x" * 41, 10**40, 1.5, True, None)] == [
        7, "a7", "x" * 40, None, None, None, None, None
    ]  # fmt: skip
    with pytest.raises(NotAMessageError, match="nested too deeply") as refused:
        json_value('{"id": 3, "a":' + "[" * 20 + "]" * 20 + "}")
    assert refused.value.id == 3  # for the page to match the refusal to what it sent
