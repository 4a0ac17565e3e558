"""The players' socket (``/ws/player``) and the nest's shared one (the spectators'
``/ws`` of ``nestref run --web``) fed anything (hypothesis, with a fixed budget): random
JSON, real message types with fields of the wrong type, huge values, deep nesting, text
that is not JSON, frames over the limit. Every message is answered with a clear error
(or an ack), or the socket is closed with a code and a reason; nothing is logged at
ERROR, no traceback at all; no session comes of it; the daemon goes on answering."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.daemon.config import load_config
from firmware_host.web.players import MAX_PLAYER_MESSAGE_BYTES
from firmware_host.web.protocol import MAX_ERROR_CHARS, SPECTATOR_MESSAGE_BYTES
from firmware_host.web.server import WebServer, is_for_players
from tests.sim_helpers import WAIT_S, simulated
from tests.test_web_access_nest import STRANGER, from_address

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**30, max_value=10**40)  # huge numbers
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
PLAYER_TYPES = st.sampled_from(["side_pin", "resume", "setup", "guide", "clear_setup", "pin", "lift", "__proto__"])
PLAYER_FIELDS = st.sampled_from(["side", "pin", "token", "text", "id", "type"])
SHARED_TYPES = st.sampled_from(["lift", "put", "button", "pin", "resume", "new_pin", "log_load", "hint", "players"])
SHARED_FIELDS = st.sampled_from(["cell", "piece", "name", "hold", "pin", "token", "text", "red", "level", "id"])


def messages(types: st.SearchStrategy[str], fields: st.SearchStrategy[str], limit: int) -> st.SearchStrategy[str]:
    return st.one_of(
        JSON_VALUES.map(json.dumps),  # any JSON at all
        st.builds(  # a real type, its fields anything: wrong types, missing, extra
            lambda kind, values: json.dumps({"type": kind, **values}),
            types,
            st.dictionaries(fields | st.text(max_size=5), JSON_VALUES, max_size=3),
        ),
        st.builds(  # a real type and field, a value at and over the limits
            lambda kind, name, size: json.dumps({"type": kind, name: "9" * size}),
            types,
            fields,
            st.sampled_from([999, 1000, 1001, limit - 40, limit + 1, 3 * limit]),
        ),
        st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),  # nested deep
        st.integers(1, 3000).map(lambda depth: '{"type":' * depth + '"side_pin"' + "}" * depth),
        st.text(max_size=200),  # not JSON
    )


class LogRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def sent_one_by_one(socket: aiohttp.ClientWebSocketResponse, texts: list[str], limit: int) -> None:
    """Each of ``texts``, waiting for its answer: an ``ack``, ``session`` or ``error``
    with a clear message, or the socket closed with a code and a reason."""
    for text in texts:
        await socket.send_str(text)
        while True:
            message = await socket.receive(timeout=WAIT_S)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                assert len(text.encode()) > limit, text[:80]  # closed for its size alone
                assert socket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
                assert message.extra == f"a message is at most {limit} bytes"
                return
            assert message.type is aiohttp.WSMsgType.TEXT
            reply = json.loads(message.data)
            if reply["type"] == "session":
                raise AssertionError(f"a session from {text[:80]!r}")
            if reply["type"] == "error":
                assert 0 < len(reply["message"]) <= MAX_ERROR_CHARS and "Traceback" not in reply["message"]
                break
            if reply["type"] == "ack":
                break


async def fuzzed(texts: list[str], *, route: str) -> None:
    records = LogRecords()
    logging.getLogger().addHandler(records)
    limit = MAX_PLAYER_MESSAGE_BYTES if route == "/ws/player" else SPECTATOR_MESSAGE_BYTES
    try:
        async with simulated(load_config(None, game="battle")) as running:
            server = WebServer(running.daemon, host="0.0.0.0")  # the nest's: read-only, the players' screens on
            async with TestClient(TestServer(server.app)) as client:
                socket = await client.ws_connect(route)
                assert json.loads((await socket.receive(timeout=WAIT_S)).data)["type"] == "hello"
                await sent_one_by_one(socket, texts, limit)
                await socket.close()
                # The daemon goes on: a new page is greeted, and the rightful player let in.
                player = await client.ws_connect("/ws/player")
                assert json.loads((await player.receive(timeout=WAIT_S)).data)["type"] == "hello"
                pin = server.players.pins.pins["red"]
                await player.send_str(json.dumps({"type": "side_pin", "side": "red", "pin": pin, "id": "last"}))
                while (reply := json.loads((await player.receive(timeout=WAIT_S)).data)).get("id") != "last":
                    pass
                assert reply["type"] == "session", reply
                await player.close()
    finally:
        logging.getLogger().removeHandler(records)
    assert [r.getMessage() for r in records.records if r.levelno >= logging.ERROR] == []
    assert [r.getMessage() for r in records.records if r.exc_info is not None] == []  # no traceback, at any level


@settings(max_examples=15, deadline=None)
@given(texts=st.lists(messages(PLAYER_TYPES, PLAYER_FIELDS, MAX_PLAYER_MESSAGE_BYTES), min_size=1, max_size=12))
def test_the_players_socket_answers_anything_clearly_and_the_daemon_goes_on(texts: list[str]) -> None:
    asyncio.run(fuzzed(texts, route="/ws/player"))


@settings(max_examples=15, deadline=None)
@given(texts=st.lists(messages(SHARED_TYPES, SHARED_FIELDS, SPECTATOR_MESSAGE_BYTES), min_size=1, max_size=12))
def test_the_nests_shared_socket_answers_anything_clearly_and_the_daemon_goes_on(texts: list[str]) -> None:
    asyncio.run(fuzzed(texts, route="/ws"))


def test_the_players_socket_after_a_right_pin_answers_anything_clearly() -> None:
    """With a session, the set-up messages reach the daemon: anything they carry is
    checked by the game, and refused with an error naming what is wrong."""

    async def run() -> None:
        records = LogRecords()
        logging.getLogger().addHandler(records)
        try:
            async with simulated(load_config(None, game="battle")) as running:
                server = WebServer(running.daemon, host="0.0.0.0")
                async with TestClient(TestServer(server.app)) as client:
                    socket = await client.ws_connect("/ws/player")
                    await socket.receive(timeout=WAIT_S)
                    pin = server.players.pins.pins["blue"]
                    await socket.send_str(json.dumps({"type": "side_pin", "side": "blue", "pin": pin, "id": 0}))
                    while json.loads((await socket.receive(timeout=WAIT_S)).data).get("id") != 0:
                        pass
                    texts: list[Any] = [
                        {"type": "setup", "text": "X" * 1000},
                        {"type": "setup", "text": "\x1b[2J\x07\x00"},
                        {"type": "setup", "text": "\n" * 999},
                        {"type": "setup", "text": ".........." * 4},
                        {"type": "setup", "text": 12},
                        {"type": "guide", "extra": True},
                        {"type": "clear_setup", "text": None},
                    ]
                    for n, message in enumerate(texts, start=1):
                        await socket.send_str(json.dumps({**message, "id": n}))
                        while (reply := json.loads((await socket.receive(timeout=WAIT_S)).data)).get("id") != n:
                            pass
                        assert reply["type"] in ("ack", "error"), reply
                        if reply["type"] == "error":
                            assert 0 < len(reply["message"]) <= MAX_ERROR_CHARS
                            assert reply["message"].isprintable()
                    await socket.close()
        finally:
            logging.getLogger().removeHandler(records)
        assert [r.getMessage() for r in records.records if r.levelno >= logging.ERROR or r.exc_info] == []

    asyncio.run(run())


# -- the nest's HTTP routes, from this machine and from another ------------------------------------

NAMED_PATHS = ["/", "/index.html", "/player.html", "/ws", "/ws/player", "/history/games", "/history/games/1"]
NAMED_PATHS += ["/history/games/1/record", "/socket.js", "/live.html", "/style.css", "/player.html/", "/a//player.html"]
PATH_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789-._~/%?=&+;:@!$'()*,"
PATHS = st.one_of(
    st.sampled_from(NAMED_PATHS),
    st.text(alphabet=PATH_CHARACTERS, max_size=300).map(lambda t: "/" + t.lstrip("/")),
    st.builds(
        lambda number, tail: f"/history/games/{number}{tail}",
        st.integers(-(10**15), 10**15),
        st.sampled_from(["", "/record", "/x", "/record/x"]),
    ),
)


async def fuzzed_paths(paths: list[str]) -> None:
    records = LogRecords()
    logging.getLogger().addHandler(records)
    try:
        async with simulated(load_config(None, game="battle")) as running:
            for address in ("127.0.0.1", STRANGER):
                server = WebServer(running.daemon, host="0.0.0.0")
                server.app.middlewares.insert(0, from_address(address))
                async with TestClient(TestServer(server.app)) as client:
                    for path in paths:
                        response = await client.get(path)
                        body = await response.text()
                        assert response.status < 500, (address, path, response.status, body[:200])
                        if address == STRANGER and not is_for_players(response.url.path):
                            assert response.status == 403, (path, response.status)
                        assert "Traceback" not in body
    finally:
        logging.getLogger().removeHandler(records)
    assert [r.getMessage() for r in records.records if r.levelno >= logging.ERROR or r.exc_info] == []


@settings(max_examples=10, deadline=None)
@given(paths=st.lists(PATHS, min_size=1, max_size=25))
def test_the_nests_http_routes_answer_any_path_without_a_server_error(paths: list[str]) -> None:
    asyncio.run(fuzzed_paths(paths))
