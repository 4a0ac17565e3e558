"""The live boards' web server (``nestref live``) through aiohttp's own client: only its
own host and origin, its own files, the security headers; what the page is sent (how
to draw each game, every board read, the spectator's own board left out)."""

from __future__ import annotations

import base64
import json

import pytest

from firmware_host.games import game_names, load_game
from firmware_host.games.base import Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.live import LiveBoard, LiveBoards, live_topic
from firmware_host.web.access import SECURITY_HEADERS
from firmware_host.web.live import LIVE_SOCKET, LiveChannel, LiveServer
from tests.broker import free_port

UPGRADE = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": base64.b64encode(b"0123456789abcdef").decode(),
}


def boards_read(*boards: LiveBoard) -> LiveBoards:
    """A collector (never connected) that has taken ``boards`` in, as from the broker."""
    collector = LiveBoards(BrokerSettings("127.0.0.1", port=free_port()), games=load_game)  # nothing listens there
    for board in boards:
        assert collector.receive(live_topic(board.board), board.to_bytes())
    return collector


def board(board_id: str, name: str) -> LiveBoard:
    return LiveBoard(board=board_id, name=name, game="cuckoo", number=1, pieces=(("c3", "E"),), to_move=Side.RED)


@pytest.mark.parametrize(
    ("host", "origin", "status"),
    [
        ("evil.example:{port}", "http://evil.example:{port}", 421),  # DNS rebinding
        ("127.0.0.1:1; script-src *", None, 421),
        ("192.0.2.7:{port}", None, 421),
        ("127.0.0.1:{port}", "http://evil.example", 403),  # another site's page
        ("127.0.0.1:{port}", "null", 403),
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}", 101),
        ("localhost:{port}", None, 101),
    ],
)
async def test_only_its_own_host_and_origin_reach_the_live_page(aiohttp_client, host, origin, status):
    client = await aiohttp_client(LiveServer(LiveChannel()).app)
    headers = {"Host": host.format(port=client.port)}
    if origin is not None:
        headers["Origin"] = origin.format(port=client.port)
    response = await client.get("/", headers=headers)
    assert response.status == (421 if status == 421 else 200)
    assert all(response.headers.get(name) == value for name, value in SECURITY_HEADERS.items())
    handshake = await client.get(LIVE_SOCKET, headers={**headers, **UPGRADE})
    assert handshake.status == status
    assert all(handshake.headers.get(name) == value for name, value in SECURITY_HEADERS.items())
    handshake.close()


async def test_the_live_page_serves_its_own_files_only(aiohttp_client):
    client = await aiohttp_client(LiveServer(LiveChannel()).app)
    for path, status in (("/", 200), ("/live.js", 200), ("/style.css", 200), ("/app.js", 404), ("/../x", 404)):
        response = await client.get(path)
        assert response.status == status, path
    assert 'src="live.js"' in await (await client.get("/")).text()


async def test_a_page_is_sent_how_to_draw_each_game_then_every_board_but_the_excluded(aiohttp_client):
    channel = LiveChannel(boards_read(board("tableone0001", "Table 1"), board("ownboard0001", "Home")))
    channel.exclude = frozenset({"ownboard0001"})
    client = await aiohttp_client(LiveServer(channel).app)
    socket = await client.ws_connect(LIVE_SOCKET)
    hello = json.loads((await socket.receive(timeout=10)).data)
    assert hello["type"] == "live_hello" and set(hello["games"]) == set(game_names())  # every game shipped
    assert len(hello["games"]["cuckoo"]["board"]["cells"]) == 61 and "rules" not in hello["games"]["cuckoo"]
    boards = json.loads((await socket.receive(timeout=10)).data)
    assert boards["type"] == "live_boards"
    assert [(shown["board"], shown["name"], shown["online"]) for shown in boards["boards"]] == [
        ("tableone0001", "Table 1", True)
    ]
    await socket.send_str("anything")  # the page says nothing we act on: ignored, the socket stays
    channel.boards.receive(live_topic("tabletwo0001"), board("tabletwo0001", "Table 2").to_bytes())  # type: ignore[union-attr]
    channel.changed()
    update = json.loads((await socket.receive(timeout=10)).data)
    assert [shown["name"] for shown in update["boards"]] == ["Table 1", "Table 2"]
    await socket.close()


async def test_the_spectator_page_says_whether_it_has_live_boards_and_serves_them_only_then(aiohttp_client, tmp_path):
    from firmware_host.cli.live import add_live_panel
    from firmware_host.daemon.config import load_config
    from firmware_host.web.server import WebServer
    from tests.sim_helpers import simulated

    config = tmp_path / "config.toml"
    config.write_text(f'[broker]\nurl = "mqtt://127.0.0.1:{free_port()}"\n')  # nothing listens there
    async with simulated(load_config(config)) as running:
        plain = WebServer(running.daemon)  # read-only: the spectator page
        with_panel = WebServer(running.daemon)
        add_live_panel(with_panel, running.daemon.config, own_board="ownboard0001")
        for server, has_panel in ((plain, False), (with_panel, True)):
            client = await aiohttp_client(server.app)
            socket = await client.ws_connect("/ws")
            hello = json.loads((await socket.receive(timeout=10)).data)
            assert (hello["mode"], hello["live_boards"]) == ("spectator", has_panel)
            await socket.close()
            handshake = await client.get(LIVE_SOCKET, headers=UPGRADE)
            assert handshake.status == (101 if has_panel else 404)
            handshake.close()
