"""A listener on every channel that leaves the nest during a battle game (the shared
page's WebSocket frames, the OLED's screens, the log lines) finds no hidden rank: a
rank's letter at a square whose piece the public view does not show, or a rank's name no
strike announced. A mutation that makes one channel carry the whole position proves the
listener can fail."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import aiohttp
import pytest

from firmware_host.games.battle import BattleGame, Position
from tests.battle_helpers import RANK_NAMES, move_on_the_table
from tests.sim_helpers import PageClient, simulated
from tests.test_battle_screens import BLUE_SETUP, RED_SETUP, battle_config, player


class ListeningPage(PageClient):
    """The shared page, every frame it receives kept as sent."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.frames: list[str] = []
        super().__init__(socket)

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            self.frames.append(message.data)
            data = json.loads(message.data)
            if data["type"] == "signal":
                self.signals.append(data["text"])
            elif data["type"] in ("ack", "error") and "id" in data:
                self.replies[data["id"]] = data
            self.latest[data["type"]] = data


def leaks(channel: str, texts: list[str], announced: set[str]) -> list[str]:
    """What in ``texts`` names a rank nobody was shown: a rank's name no strike announced,
    or a position whose squares carry a letter not marked shown (``!``)."""
    found = []
    for text in texts:
        for name in RANK_NAMES - announced:
            if re.search(rf"\b{name}s?\b", text, re.IGNORECASE):
                found.append(f"{channel}: {name} in {text[:120]}")
    return found


def position_leaks(channel: str, positions: list[str]) -> list[str]:
    """The positions (in the record's notation) whose squares carry a rank not marked shown."""
    pattern = r"(?:[Xx][+!]?|[A-WYZa-wyz]!|[0-9]|~|/)+"
    return [f"{channel}: position {text}" for text in positions if text and not re.fullmatch(pattern, text.split()[0])]


async def listened_game(aiohttp_client: Any, caplog: Any) -> dict[str, list[str]]:
    """A whole-ish game by two people with a hint: everything each channel carried."""
    caplog.set_level("DEBUG")
    rng = random.Random(26)
    heard: dict[str, list[str]] = {"page": [], "oled": [], "log": [], "record": []}
    announced: set[str] = set()
    async with simulated(battle_config()) as running:
        daemon, simulator = running.daemon, running.simulator
        client = await aiohttp_client(running.server.app)
        shared = ListeningPage(await client.ws_connect("/ws"))
        red = await player(aiohttp_client, running.server, "red")
        blue = await player(aiohttp_client, running.server, "blue")
        await red.act({"type": "setup", "text": RED_SETUP})
        await blue.act({"type": "setup", "text": BLUE_SETUP})
        await red.until(lambda: daemon.position_now() is not None)
        for ply in range(16):
            position = daemon.position_now()
            assert isinstance(position, Position)
            if position.is_over():
                break
            if ply == 2:
                await shared.act({"type": "hint"})
                await red.until(
                    lambda: bool(red.latest["private"].get("hint")) or bool(blue.latest["private"].get("hint"))
                )
            move = rng.choice(position.legal_moves())
            await move_on_the_table(simulator, red, daemon, position, move, ply)
            snapshot = daemon.snapshot()
            for screen in (snapshot.screen, snapshot.public_screen):
                heard["oled"].append(" ".join([screen.headline, *screen.lines, screen.footer]))
            shown = snapshot.game.position
            heard["record"].append(str(shown.text) if shown is not None else "")
        heard["page"] = list(shared.frames)
        heard["log"] = [
            record.getMessage() + " " + json.dumps(getattr(record, "fields", {}), default=str)
            for record in caplog.records
        ]
        for text in shared.signals:
            if "strike" in text.lower():
                announced |= {name for name in RANK_NAMES if re.search(rf"\b{name}\b", text, re.IGNORECASE)}
        heard["announced"] = sorted(announced)
        await red.close()
        await blue.close()
    return heard


def all_leaks(heard: dict[str, list[str]]) -> list[str]:
    announced = set(heard["announced"])
    messages = [json.loads(frame) for frame in heard["page"]]
    page = [json.dumps({k: v for k, v in m.items() if k != "png"}) for m in messages if m["type"] != "hello"]
    positions = [m["position"] for m in messages if m["type"] == "game"] + heard["record"]
    return (
        leaks("page", page, announced)
        + leaks("oled", heard["oled"], announced)
        + leaks("log", heard["log"], announced)
        + position_leaks("page and snapshot", positions)
    )


async def test_no_channel_carries_a_hidden_rank(aiohttp_client, caplog):
    heard = await listened_game(aiohttp_client, caplog)
    assert heard["page"] and heard["oled"] and heard["log"]
    assert all_leaks(heard) == []


@pytest.mark.parametrize("channel", ["public letters"])
async def test_the_listener_catches_a_channel_carrying_the_whole_position(aiohttp_client, caplog, monkeypatch, channel):
    """The public view made of the full letters: the page carries every rank."""
    monkeypatch.setattr(
        BattleGame,
        "public_letters",
        lambda self, position: {cell: piece.rank_letter for cell, piece in position.pieces().items()},
    )
    monkeypatch.setattr(BattleGame, "public_text", lambda self, position: position.to_text())
    heard = await listened_game(aiohttp_client, caplog)
    assert all_leaks(heard), "the listener heard nothing of a full position"
