"""The web server as an attacker, or a careless user, meets it: the PIN, the hosts it
answers to, its headers, and input that no page of ours sends. Through aiohttp's own
test client, with the real daemon running on the simulated nest (docs/simulator.md,
"Security")."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import logging
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware_host.daemon.config import load_config
from firmware_host.web.access import SECURITY_HEADERS, PinGuard, Sessions
from firmware_host.web.protocol import MAX_ERROR_CHARS, MAX_LOG_BYTES
from firmware_host.web.server import WebServer
from hardware.display import render
from hardware.outputs import Screen
from tests.sim_helpers import WAIT_S, Clock, PageClient, connect, simulated


def assert_security_headers(response: aiohttp.ClientResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (response.status, name)


# -- the PIN ------------------------------------------------------------------------------------


def pin_other_than(pin: str) -> str:
    return "000000" if pin != "000000" else "111111"


async def test_a_page_without_the_pin_sees_the_oled_with_it_starred_out(aiohttp_client, running):
    server = WebServer(running.daemon, running.simulator, host="0.0.0.0")
    assert server.pin is not None
    stranger = await connect(aiohttp_client, server)
    await stranger.until(lambda: "oled" in stranger.latest)
    assert stranger.latest["oled"]["footer"] == "PIN ****"
    assert server.pin not in json.dumps({k: v for k, v in stranger.latest["oled"].items() if k != "png"})
    assert_png_shows(stranger.latest["oled"])
    player = await connect(aiohttp_client, server)
    assert (await player.send({"type": "pin", "pin": server.pin}))["type"] == "session"
    await player.until(lambda: player.latest["oled"]["footer"] == f"PIN {server.pin}")
    await stranger.close()
    await player.close()


def assert_png_shows(oled: dict[str, Any]) -> None:
    """The image a page is sent is of the very text it is sent (so no PIN hides in it)."""
    png = base64.b64decode(oled["png"].removeprefix("data:image/png;base64,"))
    with Image.open(io.BytesIO(png)) as sent:
        screen = Screen(oled["headline"], tuple(oled["lines"]), oled["footer"], oled["alert"])
        drawn = render(screen)
        assert sent.convert("1").tobytes() == drawn.convert("1").tobytes()


# What a page without a session may send: every type of the protocol, with fields right
# or wrong, and what is not a message at all.
CELLS = st.sampled_from(["c3", "c4", "c5", "c7", "c6", "a9", "z9"])
PAGE_MESSAGES = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["lift", "knock"]), "cell": CELLS}),
    st.fixed_dictionaries({"type": st.just("put"), "cell": CELLS}),
    st.fixed_dictionaries({"type": st.just("slide"), "path": st.lists(CELLS, min_size=2, max_size=3)}),
    st.fixed_dictionaries({"type": st.sampled_from(["take", "drop"]), "piece": st.integers(-1, 40)}),
    st.fixed_dictionaries({"type": st.just("button"), "name": st.sampled_from(["confirm", "take_back", "switch"])}),
    st.fixed_dictionaries({"type": st.just("pin"), "pin": st.text(max_size=6)}),
    st.fixed_dictionaries({"type": st.just("resume"), "token": st.text(max_size=40)}),
    st.fixed_dictionaries({"type": st.sampled_from(["new_pin", "clear", "setup", "replay_step", "record_start"])}),
    st.fixed_dictionaries({"type": st.just("log_load"), "text": st.just("0 c3-\n300 c4+\n")}),
    st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=3),
)
# What a player with the PIN does meanwhile, so that the OLED changes under the stranger.
PLAYER_ACTS = st.sampled_from(
    [
        {"type": "slide", "path": ["c3", "c4"]},
        {"type": "slide", "path": ["c7", "c6"]},
        {"type": "lift", "cell": "a3"},
        {"type": "put", "cell": "a5"},
        {"type": "button", "name": "take_back"},
        {"type": "setup"},
    ]
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(PAGE_MESSAGES, st.none() | PLAYER_ACTS), min_size=1, max_size=8))
def test_the_pin_is_in_no_message_to_a_page_without_a_session(steps):
    asyncio.run(pin_hidden_from_a_stranger(steps))


async def pin_hidden_from_a_stranger(steps: list[tuple[dict[str, Any], dict[str, Any] | None]]) -> None:
    async with simulated(load_config(None)) as running, page_clients(running, host="0.0.0.0") as (server, connect_page):
        assert server.pin is not None
        pin = server.pin
        stranger, player = await connect_page(), await connect_page()
        assert (await player.send({"type": "pin", "pin": pin}))["type"] == "session"
        for message, act in steps:
            if message.get("type") == "pin" and message.get("pin") == pin:
                message = {**message, "pin": pin_other_than(pin)}  # a stranger does not know it
            await stranger.send(message)
            if act is not None:
                await player.send(act)
        await stranger.send({"type": "clear"})  # a last round trip: every frame before it is in
        for text in stranger.raw:
            data = json.loads(text)
            if data["type"] == "oled":
                assert_png_shows(data)
                data.pop("png")
            if data["type"] != "session":
                assert not any(pin in text for text in texts_in(data)), data
        assert any(f"PIN {pin}" in text for text in player.raw)  # it was there to be shown
        await stranger.close()
        await player.close()


class RecordingPage(PageClient):
    """A page that also keeps every message it was sent, as sent."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.raw: list[str] = []
        super().__init__(socket)

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.raw.append(message.data)
                data = json.loads(message.data)
                if data["type"] in ("ack", "error", "session") and "id" in data:
                    self.replies[data["id"]] = data
                if data["type"] == "error":
                    self.errors.append(data["message"])
                self.latest[data["type"]] = data
            else:
                break


@contextlib.asynccontextmanager
async def page_clients(running: Any, **server_options: Any) -> AsyncIterator[tuple[WebServer, Any]]:
    """A server for the running daemon behind aiohttp's test client, and a way to open
    pages on it (outside pytest's fixtures, for hypothesis)."""
    from aiohttp.test_utils import TestClient, TestServer

    server = WebServer(running.daemon, running.simulator, **server_options)
    async with TestClient(TestServer(server.app)) as client:

        async def connect_page() -> RecordingPage:
            page = RecordingPage(await client.ws_connect("/ws"))
            await page.until(lambda: "game" in page.latest and "oled" in page.latest)
            return page

        yield server, connect_page


async def test_one_source_guessing_the_pin_does_not_keep_another_out(aiohttp_client, running):
    clock = Clock()
    server = WebServer(running.daemon, running.simulator, host="0.0.0.0", clock=clock)
    assert server.pin is not None
    attacker = await connect(aiohttp_client, server, source="127.0.0.2")
    owner = await connect(aiohttp_client, server, source="127.0.0.3")
    for _ in range(PinGuard.FREE_TRIES):
        assert (await attacker.send({"type": "pin", "pin": pin_other_than(server.pin)}))["message"] == "wrong PIN"
    assert (await attacker.send({"type": "pin", "pin": server.pin}))["message"].startswith("too many wrong PINs")
    # Another page of the same source waits too: a new tab is no new guesser.
    same = await connect(aiohttp_client, server, source="127.0.0.2")
    assert (await same.send({"type": "pin", "pin": server.pin}))["message"].startswith("too many wrong PINs")
    assert (await owner.send({"type": "pin", "pin": server.pin}))["type"] == "session"
    for page in (attacker, same, owner):
        await page.close()


async def test_many_sources_guessing_the_pin_keep_out_only_strangers_and_no_session(aiohttp_client, running):
    clock = Clock()
    server = WebServer(running.daemon, running.simulator, host="0.0.0.0", clock=clock)
    assert server.pin is not None
    owner = await connect(aiohttp_client, server, source="127.0.0.9")
    token = (await owner.send({"type": "pin", "pin": server.pin}))["token"]
    wrong = pin_other_than(server.pin)
    sources = PinGuard.TARGET_TRIES // PinGuard.FREE_TRIES
    for n in range(sources):  # each source until it must wait: then another
        attacker = await connect(aiohttp_client, server, source=f"127.0.1.{n + 1}")
        for _ in range(PinGuard.FREE_TRIES):
            assert (await attacker.send({"type": "pin", "pin": wrong}))["message"] == "wrong PIN"
        await attacker.close()
    newcomer = await connect(aiohttp_client, server, source="127.0.2.1")
    reply = await newcomer.send({"type": "pin", "pin": server.pin})
    assert reply["message"] == (
        "too many wrong PINs for the simulator from elsewhere: try again in 3600 s, or open it at the nest"
    )
    await owner.act({"type": "lift", "cell": "c3"})  # a session open goes on
    again = await connect(aiohttp_client, server, source="127.0.2.2")
    assert (await again.send({"type": "resume", "token": token}))["type"] == "ack"  # and resumes
    known = await connect(aiohttp_client, server, source="127.0.0.9")  # a device that gave it before
    assert (await known.send({"type": "pin", "pin": server.pin}))["type"] == "session"
    clock.now += PinGuard.TARGET_WINDOW_S + 1
    assert (await newcomer.send({"type": "pin", "pin": server.pin}))["type"] == "session"
    for page in (owner, newcomer, again, known):
        await page.close()


async def test_a_session_ends_when_it_expires_and_when_the_pin_changes(aiohttp_client, running):
    clock = Clock()
    server = WebServer(running.daemon, running.simulator, host="0.0.0.0", clock=clock)
    assert server.pin is not None
    page, other = await connect(aiohttp_client, server), await connect(aiohttp_client, server)
    token = (await page.send({"type": "pin", "pin": server.pin}))["token"]
    clock.now += Sessions.SESSION_S + 1
    reply = await page.send({"type": "lift", "cell": "c3"})
    assert reply["message"] == "the session has ended: give the PIN shown on the OLED again"
    await page.until(lambda: page.latest["hello"]["can_act"] is False)
    assert (await page.send({"type": "resume", "token": token}))["message"].startswith("that session has ended")

    old_pin = server.pin
    other_token = (await other.send({"type": "pin", "pin": old_pin}))["token"]
    assert (await page.send({"type": "pin", "pin": old_pin}))["type"] == "session"
    renewed = await page.send({"type": "new_pin"})  # a player at the nest: someone has the PIN who should not
    assert renewed["type"] == "session"
    assert server.pin is not None and running.daemon.snapshot().screen.footer.startswith(f"PIN {server.pin}")
    await other.until(lambda: other.latest["hello"]["can_act"] is False)
    assert (await other.send({"type": "lift", "cell": "c3"}))["message"].startswith("the session has ended")
    assert (await other.send({"type": "resume", "token": other_token}))["message"].startswith("that session")
    await page.act({"type": "lift", "cell": "c3"})  # who asked for the new PIN goes on
    assert (await other.send({"type": "pin", "pin": server.pin}))["type"] == "session"
    await page.close()
    await other.close()


# -- hosts and origins --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "origin", "status"),
    [
        ("evil.example:{port}", "http://evil.example:{port}", 421),  # DNS rebinding: both the attacker's
        ("evil.example:{port}", None, 421),
        ("127.0.0.1:1; script-src *", None, 421),  # a Host that would have gone into the CSP
        ("127.0.0.1:{port}", "http://evil.example", 403),  # another site's page
        ("127.0.0.1:{port}", "null", 403),
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}.evil.example", 403),
        ("127.0.0.1:{port}", "http://localhost:{port}", 403),  # another origin, on this machine too
        ("192.0.2.7:{port}", None, 421),  # an address it was not asked to serve
        ("", None, 421),
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}", 101),
        ("localhost:{port}", "http://localhost:{port}", 101),
        ("[::1]:{port}", "http://[::1]:{port}", 101),
        ("127.0.0.1:{port}", None, 101),  # not a browser: no Origin to check
    ],
)
async def test_only_its_own_host_and_origin_reach_the_page(aiohttp_client, running, host, origin, status):
    client = await aiohttp_client(running.server.app)
    headers = {"Host": host.format(port=client.port)}
    if origin is not None:
        headers["Origin"] = origin.format(port=client.port)
    response = await client.get("/", headers=headers)
    assert response.status == (421 if status == 421 else 200)  # a page's own request has no Origin to check
    assert_security_headers(response)
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
    upgrade["Sec-WebSocket-Key"] = base64.b64encode(b"0123456789abcdef").decode()
    handshake = await client.get("/ws", headers={**headers, **upgrade})
    assert handshake.status == status
    assert_security_headers(handshake)
    handshake.close()


async def test_names_given_in_the_config_and_every_address_on_a_wildcard(aiohttp_client, running, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[web]\nhosts = ["Nest.Local"]\n', encoding="utf-8")
    async with simulated(load_config(config)) as named:
        served = WebServer(named.daemon, named.simulator, host="0.0.0.0")
        assert served.is_allowed_host("nest.local:8080") and served.is_allowed_host("nest.local.")
        assert served.is_allowed_host("192.0.2.7:8080")  # every address: none can be rebound
        assert not served.is_allowed_host("other.local:8080")
        client = await aiohttp_client(served.app)
        response = await client.get("/", headers={"Host": f"nest.local:{client.port}"})
        assert response.status == 200
    local = WebServer(running.daemon, running.simulator)
    assert not local.is_allowed_host("nest.local") and not local.is_allowed_host("192.0.2.7")


def test_a_host_name_in_the_config_is_checked(tmp_path):
    from firmware_host.errors import ConfigError

    config = tmp_path / "config.toml"
    config.write_text('[web]\nhosts = ["nest local"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"web.hosts: 'nest local' is not a host name"):
        load_config(config)


async def test_every_response_carries_the_security_headers(aiohttp_client, running):
    async def broken(_: aiohttp.web.Request) -> aiohttp.web.Response:
        raise RuntimeError("a bug in a handler")

    running.server.app.router.add_get("/a/broken", broken)
    client = await aiohttp_client(running.server.app)
    for path, status in (("/", 200), ("/app.js", 200), ("/missing.js", 404), ("/a/b/c", 404), ("/a/broken", 500)):
        response = await client.get(path)
        assert response.status == status, path
        assert_security_headers(response)
    policy = (await client.get("/", headers={"Host": f"127.0.0.1:{client.port}"})).headers["Content-Security-Policy"]
    assert str(client.port) not in policy  # built, not copied from the request


# -- input no page of ours sends ------------------------------------------------------------------


async def test_a_file_name_of_any_length_is_a_404(aiohttp_client, running):
    client = await aiohttp_client(running.server.app)
    for name in ("a" * 256 + ".js", "x" * 5000, "index.html.", "%00.js", "app.js%2F..", "web", "sim"):
        response = await client.get("/" + name)
        assert response.status == 404, name
        assert_security_headers(response)


async def test_json_nested_too_deeply_is_refused_and_the_page_stays(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    await page.socket.send_str("[" * 5000 + "]" * 5000)
    await page.until(lambda: bool(page.errors))
    assert page.errors == ["not a message: nested too deeply"]
    reply = await page.send(
        {"type": "lift", "cell": {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}
    )
    assert reply["type"] == "error"
    await page.socket.send_str('{"a":' * 990 + "1" + "}" * 990)  # as deep as a probe found the limit
    await page.until(lambda: len(page.errors) == 3)
    await page.act({"type": "lift", "cell": "c3"})  # still connected, still heard
    await page.close()


async def test_an_error_quotes_a_long_value_cut_short(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    for message in (
        {"type": "x" * 10_000},
        {"type": "lift", "cell": "y" * 10_000},
        {"type": "lift", "cell": "c3", "z" * 10_000: 1},
        {"type": "log_load", "text": "0 c3-\n" + "1 " + "w" * 10_000 + "\n"},
    ):
        reply = await page.send(message)
        assert reply["type"] == "error"
        assert len(reply["message"]) <= MAX_ERROR_CHARS and not re.search(r"(.)\1{99}", reply["message"]), reply
    await page.close()


async def test_a_sensor_log_at_the_limit_fits_in_a_message_however_it_is_escaped(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    events = "0 c3-\n300 c4+\n"
    # Control characters in a comment: six bytes each once JSON-escaped.
    filler = "#" + "\x01" * 200 + "\n"
    log = events + filler * ((MAX_LOG_BYTES - len(events)) // len(filler))
    assert MAX_LOG_BYTES - len(filler) < len(log.encode()) <= MAX_LOG_BYTES
    assert len(json.dumps({"type": "log_load", "text": log})) > 5 * MAX_LOG_BYTES
    await page.act({"type": "log_load", "text": log})
    await page.until(lambda: page.latest["replay"]["events"] == 2)
    reply = await page.send({"type": "log_load", "text": log + "#" * (MAX_LOG_BYTES - len(log.encode()) + 1)})
    assert reply["message"] == (
        f"the sensor log is {MAX_LOG_BYTES + 1:,} bytes: the simulator takes logs up to {MAX_LOG_BYTES:,}"
    )
    await page.act({"type": "replay_step"})  # the connection and the log loaded stay
    await page.close()


async def test_a_form_feed_in_a_sensor_log_comment_is_no_line_break(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    await page.act({"type": "log_load", "text": "0 c3-\n# a note\f300 c4+\n"})
    await page.until(lambda: page.latest["replay"]["loaded"])
    assert page.latest["replay"]["events"] == 1
    await page.close()


async def test_pages_that_leave_during_the_handshake_log_no_error(aiohttp_client, running, caplog):
    client = await aiohttp_client(running.server.app)
    handshake = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{client.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    with caplog.at_level(logging.DEBUG):
        for _ in range(20):
            _, writer = await asyncio.open_connection("127.0.0.1", client.port)
            writer.write(handshake)
            writer.transport.abort()  # gone at once, the server mid-handshake

        def handled() -> int:  # each dropped handshake is logged once: quietly, or as an error
            return sum(
                record.levelno >= logging.ERROR or "left during the WebSocket handshake" in record.getMessage()
                for record in caplog.records
            )

        deadline = asyncio.get_running_loop().time() + WAIT_S
        while handled() < 20:
            assert asyncio.get_running_loop().time() < deadline, caplog.text[-2000:]
            await asyncio.sleep(0.01)
        page = await connect(aiohttp_client, running.server)
        await page.act({"type": "lift", "cell": "c3"})
        await page.close()
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []


# -- a fuzzed protocol ------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
TYPES = st.sampled_from(
    "lift put slide knock take drop button setup players clear pin resume new_pin log_load replay_play"
    " replay_pause replay_step record_start record_stop".split()
)
FIELD_NAMES = st.sampled_from(["cell", "piece", "path", "name", "hold", "lineup", "red", "blue", "level", "id"])
FUZZ_MESSAGES = st.one_of(
    JSON_VALUES.map(json.dumps),  # any JSON at all
    st.builds(  # a message of a real type, its fields anything
        lambda kind, fields: json.dumps({"type": kind, **fields}),
        TYPES,
        st.dictionaries(FIELD_NAMES | st.text(max_size=5), JSON_VALUES, max_size=3),
    ),
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),  # nested deep
    st.integers(1, 3000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.text(max_size=200),  # not JSON
    st.integers(0, 200_000).map(lambda size: json.dumps({"type": "lift", "cell": "c" * size})),  # long
)


@settings(max_examples=30, deadline=None)
@given(messages=st.lists(FUZZ_MESSAGES, min_size=1, max_size=12))
def test_the_websocket_answers_any_input_or_closes_cleanly(messages):
    asyncio.run(fuzzed(messages))


class ErrorRecords(logging.Handler):
    """The records at ERROR and above that anything logs while it is installed."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def fuzzed(messages: list[str]) -> None:
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    try:
        async with simulated(load_config(None)) as running, page_clients(running) as (_, connect_page):
            page = await connect_page()
            for text in messages:
                await page.socket.send_str(text)
                # Every message is answered (an ack, a session, or an error), or the
                # socket closes; nothing is left hanging.
                await page.until(is_answered(page, since=len(page.raw)))
                if page.socket.closed:
                    break
            # Still responsive, to this page if it is open, and to a new one anyway.
            fresh = await connect_page()
            await fresh.act({"type": "button", "name": "switch"})  # answered whatever the fuzz did to the table
            await fresh.close()
            if not page.socket.closed:
                await page.act({"type": "clear"})
                await page.close()
    finally:
        logging.getLogger().removeHandler(errors)
    assert [record.getMessage() for record in errors.records] == []


def is_answered(page: RecordingPage, *, since: int) -> Callable[[], bool]:
    """Whether ``page`` has been sent a reply (an ack, an error, a session) since its
    ``since``-th message, or its socket has closed."""
    reply = re.compile(r'\{"type":"(ack|error|session)"')
    return lambda: page.socket.closed or any(reply.match(text) for text in page.raw[since:])


def texts_in(message: Any) -> list[str]:
    """Every string in a message, keys too: where a PIN could be told (its numbers, such
    as a tune's 1760.0 or a cell's centre, may hold any four digits by chance)."""
    if isinstance(message, str):
        return [message]
    if isinstance(message, dict):
        return [text for key, value in message.items() for text in (key, *texts_in(value))]
    if isinstance(message, list | tuple):
        return [text for value in message for text in texts_in(value)]
    return []
