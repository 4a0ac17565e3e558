"""The players' own screens on the nest (``nestref run --web``), as a stranger on the
network and the players meet them: the players' screens served to every machine, the
shared page to this one alone unless the config opens it, each side's PIN kept across a
restart in a file of its own and never printed nor logged (docs/simulator.md, "Reaching
your own screen")."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import queue
import re
import stat
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from firmware_host.daemon.config import load_config
from firmware_host.web.access import Handler, PinGuard, PinRefusedError
from firmware_host.web.server import PIN_FROM_THE_NEST, WebServer
from tests.sim_helpers import WAIT_S, Clock, simulated

NESTREF = str(Path(sys.executable).parent / "nestref")
START_S = 30.0
STRANGER = "192.0.2.7"  # an address of the documentation's range: another machine on the network


def from_address(address: str) -> Any:
    """Middleware making every request come from ``address``, as if from another
    machine (aiohttp's test client connects from this one)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        return await handler(request.clone(remote=address))

    return middleware


def nest_server(daemon: Any, address: str) -> WebServer:
    server = WebServer(daemon, host="0.0.0.0")  # the nest's: read-only, on every address
    server.app.middlewares.insert(0, from_address(address))
    return server


@pytest.mark.parametrize("open_to_network", [False, True])
async def test_the_players_screens_go_to_the_network_and_the_shared_page_to_this_machine_alone(
    aiohttp_client, open_to_network
):
    config = dataclasses.replace(load_config(None, game="battle"), spectators_on_network=open_to_network)
    async with simulated(config) as running:
        client = await aiohttp_client(nest_server(running.daemon, STRANGER).app)
        for path in ("/player.html", "/player.js", "/socket.js", "/style.css"):
            assert (await client.get(path)).status == 200, path
        for path in ("/", "/index.html", "/history/games", "/app.html"):
            response = await client.get(path)
            if open_to_network:
                assert response.status in (200, 404), path
            else:
                assert response.status == 403, path
                assert "for this machine only ([web] spectators_on_network = true opens it)" in await response.text()
        if open_to_network:
            socket = await client.ws_connect("/ws")
            assert json.loads((await socket.receive()).data)["mode"] == "spectator"
            await socket.close()
        else:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect("/ws")
            assert refused.value.status == 403
        player = await client.ws_connect("/ws/player")
        hello = json.loads((await player.receive()).data)
        assert (hello["type"], hello["open"], hello["pin_from"]) == ("hello", True, PIN_FROM_THE_NEST)
        await player.send_json({"type": "side_pin", "side": "red", "pin": "1234567", "id": 1})
        assert (await reply_to(player, 1))["message"] == "wrong PIN for red"
        await player.close()
        home = await aiohttp_client(nest_server(running.daemon, "127.0.0.1").app)
        assert (await home.get("/")).status == 200  # this machine: the shared page
        assert (await home.get("/history/games")).status == 200


async def reply_to(socket: aiohttp.ClientWebSocketResponse, ident: int) -> dict[str, Any]:
    """The ``ack``, ``session`` or ``error`` answering the message ``ident``."""
    while True:
        message: dict[str, Any] = json.loads((await socket.receive(timeout=START_S)).data)
        if message.get("id") == ident:
            return message


class NestProcess:
    """``nestref run --mock --web`` of the battle game in a subprocess, as systemd starts
    it: every line it prints, and its journal (stderr)."""

    def __init__(self, cwd: Path) -> None:
        self.stderr_path = cwd / "nest.stderr"
        self._stderr = self.stderr_path.open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            [NESTREF, "run", "--mock", "--game", "battle", "--db", str(cwd / "games.sqlite"), "--web", "127.0.0.1:0"],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
        )
        self.lines: list[str] = []
        found: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line)
                found.put(line)
            found.put(None)

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        while (line := found.get(timeout=START_S)) is not None:
            if match := re.search(r"(http://\S+/)player\.html", line):
                self.url = match.group(1)
                return
        raise AssertionError(f"no players' screens' address: {self.stop()}")

    def stop(self) -> str:
        self.process.terminate()
        self.process.wait(timeout=START_S)
        self._reader.join(timeout=START_S)
        assert self.process.stdout is not None
        self.process.stdout.close()
        self._stderr.close()
        return "".join(self.lines) + self.stderr_path.read_text(encoding="utf-8")


async def test_each_sides_pin_survives_a_restart_and_is_never_printed_nor_logged(tmp_path):
    nest = NestProcess(tmp_path)
    pins_file = tmp_path / "player-pins.toml"
    try:
        assert stat.S_IMODE(pins_file.stat().st_mode) == 0o600  # for the nest's own user alone
        pins = tomllib.loads(pins_file.read_text(encoding="utf-8"))
        async with aiohttp.ClientSession() as session, session.ws_connect(nest.url + "ws/player") as player:
            assert json.loads((await player.receive()).data)["pin_from"] == PIN_FROM_THE_NEST
            await player.send_json({"type": "side_pin", "side": "blue", "pin": pins["blue"], "id": 1})
            assert (await reply_to(player, 1))["side"] == "blue"
    finally:
        printed = nest.stop()
    assert "player.html (each side's PIN on the nest's OLED alone)" in printed
    restarted = NestProcess(tmp_path)
    printed += restarted.stop()
    assert tomllib.loads(pins_file.read_text(encoding="utf-8")) == pins  # the same PINs after a restart
    for side in ("red", "blue"):
        assert pins[side] not in printed, side  # neither in what it printed nor in its journal


async def hold(running: Any, buttons: tuple[str, ...], pressed: bool) -> None:
    """Buttons of the simulated nest's matrix down (or up), one after another, as hands do."""
    for button in buttons:
        running.mock.switches.set(running.daemon.config.matrix[button], pressed)
        await asyncio.sleep(0.1)


async def test_a_sides_pin_shows_on_the_oled_alone_while_its_two_buttons_are_held(aiohttp_client, caplog):
    caplog.set_level(logging.DEBUG)
    async with simulated(load_config(None, game="battle")) as running:
        clock = Clock()
        server = nest_server(running.daemon, "127.0.0.1")
        server.clock = server.players.clock = clock
        pins = server.players.pins
        client = await aiohttp_client(server.app)
        spectator = await client.ws_connect("/ws")
        seen: list[str] = []

        async def read() -> None:
            async for message in spectator:
                seen.append(message.data)

        reader = asyncio.create_task(read())
        computers, number = running.daemon.scene.computers, running.daemon.scene.number
        wrong = next(f"{n:06d}" for n in range(10**6) if f"{n:06d}" not in pins.pins.values())
        for n in range(PinGuard.TARGET_TRIES):  # someone guesses red's PIN from many machines
            with pytest.raises(PinRefusedError):
                pins.log_in("red", wrong, f"192.0.2.{n + 10}", clock())
        with pytest.raises(PinRefusedError, match="from elsewhere"):
            pins.log_in("red", pins.pins["red"], STRANGER, clock())  # red's player, on a new phone

        await hold(running, ("confirm", "take_back"), True)
        await until(lambda: running.daemon.snapshot().screen.headline == f"PIN {pins.pins['red']}")
        screen = running.daemon.snapshot().screen
        assert screen.lines[0] == "red's own screen:" and screen.lines[-1] == "/player.html"
        assert running.daemon.snapshot().public_screen.headline == "PIN ******"
        await asyncio.sleep(2.5)  # longer than a hold: still no press of either
        assert pins.log_in("red", pins.pins["red"], STRANGER, clock())  # at the nest: heard
        await hold(running, ("take_back", "confirm"), False)
        await until(lambda: not running.daemon.snapshot().screen.headline.startswith("PIN"))

        await hold(running, ("switch", "confirm"), True)  # blue's, in the other order
        await until(lambda: running.daemon.snapshot().screen.headline == f"PIN {pins.pins['blue']}")
        await hold(running, ("confirm",), False)  # one let go: nothing more shown, nothing pressed
        await until(lambda: not running.daemon.snapshot().screen.headline.startswith("PIN"))
        await hold(running, ("switch",), False)
        await asyncio.sleep(0.5)
        assert (running.daemon.scene.computers, running.daemon.scene.number) == (computers, number)

        await spectator.close()
        await reader
    assert any('"PIN ******"' in text for text in seen)  # the spectators were shown that a PIN was up
    for side, pin in pins.pins.items():
        assert not any(pin in text for text in seen), side  # never the PIN itself
        assert pin not in caplog.text, side  # nor in the journal


async def until(condition: Any) -> None:
    for _ in range(int(WAIT_S / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")
