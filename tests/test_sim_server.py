"""The simulator's server and its WebSocket protocol (docs/simulator.md), through
aiohttp's own test client, with the real daemon running on the simulated nest."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from firmware_host.cli import main
from firmware_host.daemon.config import load_config
from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.web.access import PIN_DIGITS, PinGuard
from firmware_host.web.protocol import MAX_MESSAGE_BYTES
from firmware_host.web.server import WebServer
from sim.simulator import replay_pause_s
from tests.sim_helpers import WAIT_S, Clock, connect, simulated


async def test_a_page_is_sent_the_whole_picture_when_it_connects(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    hello = page.latest["hello"]
    assert (hello["mode"], hello["can_act"], hello["pin_required"]) == ("sim", True, False)
    assert len(hello["game"]["board"]["cells"]) == 61
    nest = running.daemon.config.game.board
    q, r = nest.coordinates("a1")
    assert hello["game"]["board"]["cells"][0] == {"name": "a1", "q": q, "r": r, "home": None}
    homes = {cell["name"] for cell in hello["game"]["board"]["cells"] if cell["home"] == "red"}
    assert homes == nest.homebases(Side.RED) and homes
    assert page.latest["table"]["cells"] == {c: p.letter for c, p in Position.from_lineup().pieces().items()}
    assert page.latest["oled"]["png"].startswith("data:image/png;base64,")
    assert page.latest["oled"]["headline"] == "RED"
    lit = {"red_turn": True, "blue_turn": False, "error": False, "capture": False}
    await page.until(lambda: page.latest["lights"]["status"] == lit)
    assert page.latest["game"]["to_move"] == "red"
    assert page.latest["replay"]["loaded"] is False
    await page.until(lambda: "game 1 starts: standard, red to move" in page.signals)
    await page.close()


async def test_hands_move_pieces_and_the_referee_judges(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    await page.act({"type": "lift", "cell": "c3"})
    await page.until(lambda: [held["piece"] for held in page.latest["table"]["hand"]] == ["E"])
    await page.act({"type": "put", "cell": "c4"})
    await page.until(lambda: page.moves() == ["c3-c4"])
    await page.act({"type": "slide", "path": ["c7", "c6"]})
    await page.until(lambda: page.moves() == ["c3-c4", "c7-c6"])
    await page.until(lambda: page.latest["oled"]["headline"] == "RED")
    await page.until(lambda: page.latest["lights"]["status"]["red_turn"])
    await page.act({"type": "lift", "cell": "a3"})  # too far: an illegal move
    await page.act({"type": "put", "cell": "a5"})
    await page.until(lambda: page.latest["oled"]["headline"] == "ILLEGAL")
    await page.until(lambda: "a3" in page.latest["lights"]["cells"])  # where it goes back: lit steadily
    await page.act({"type": "lift", "cell": "a5"})  # put right
    await page.act({"type": "put", "cell": "a3"})
    await page.until(lambda: page.latest["oled"]["headline"] == "RED")
    assert page.moves() == ["c3-c4", "c7-c6"]
    await page.close()


async def test_a_capture_by_pushing_the_captured_piece_off(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    for origin, target in (("c3", "c4"), ("c7", "c6"), ("c4", "c5")):
        await page.act({"type": "slide", "path": [origin, target]})
        await page.until_last_move(f"{origin}-{target}")
    await page.act({"type": "slide", "path": ["c6", "c5"]})  # blue's egg takes red's
    await page.until(lambda: page.moves()[-1:] == ["c6xc5"])
    assert [held["piece"] for held in page.latest["table"]["box"]] == ["E"]
    await page.close()


async def test_the_computer_plays_blue_when_the_page_says_so(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    assert [level["number"] for level in page.latest["hello"]["levels"]] == [1, 2, 3, 4, 5]
    assert page.latest["game"]["players"] == {"red": "human", "blue": "human"}
    await page.act({"type": "players", "red": "human", "blue": "computer", "level": 1})
    await page.until(lambda: page.latest["game"]["players"] == {"red": "human", "blue": "computer"})
    assert page.latest["game"]["level"] == 1
    await page.act({"type": "slide", "path": ["c3", "c4"]})
    await page.until(lambda: page.latest["game"]["computer_move"] is not None)
    move = Move.from_text(page.latest["game"]["computer_move"])
    await page.until(lambda: page.latest["oled"]["headline"] == str(move))
    assert move.origin is not None and move.target is not None
    middle = running.daemon.config.game.board.between(move.origin, move.target)
    path = [move.origin, *([middle] if middle else []), move.target]
    await page.act({"type": "slide", "path": path})
    await page.until(lambda: page.moves() == ["c3-c4", str(move)])
    assert page.latest["game"]["computer_move"] is None
    await page.until(lambda: "turn red" in page.signals)
    assert any(text.startswith("computer plays ") for text in page.signals)
    await page.close()


async def test_knock_take_drop_clear_and_set_up(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    await page.act({"type": "knock", "cell": "a9"})
    await page.until(lambda: [h["piece"] for h in page.latest["table"]["box"]] == ["e"])
    piece = page.latest["table"]["box"][0]["id"]
    await page.act({"type": "take", "piece": piece})
    await page.until(lambda: [h["id"] for h in page.latest["table"]["hand"]] == [piece])
    await page.act({"type": "drop", "piece": piece})
    await page.until(lambda: not page.latest["table"]["hand"])
    await page.act({"type": "clear"})
    await page.until(lambda: not page.latest["table"]["cells"])
    assert len(page.latest["table"]["box"]) == 34
    await page.act({"type": "setup"})
    lineup = {c: p.letter for c, p in Position.from_lineup().pieces().items()}
    await page.until(lambda: page.latest["table"]["cells"] == lineup and not page.latest["table"]["box"])
    await page.close()


async def test_buttons_take_back_a_move(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    await page.act({"type": "slide", "path": ["c3", "c4"]})
    await page.until(lambda: page.moves() == ["c3-c4"])
    await page.act({"type": "button", "name": "take_back"})
    await page.until(lambda: page.moves() == [])
    await page.until(lambda: page.latest["oled"]["headline"] == "UNDO")
    await page.close()


async def test_a_sensor_log_is_replayed_step_by_step_and_at_speed(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    log = "# position: ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r\n0 c3-\n300 c4+\n1300 c7-\n1600 c6+\n"
    await page.act({"type": "log_load", "text": log})
    await page.until(lambda: page.latest["replay"]["loaded"] and page.latest["replay"]["events"] == 4)
    await page.act({"type": "replay_step"})
    await page.act({"type": "replay_step"})
    await page.until(lambda: page.moves() == ["c3-c4"])
    await page.act({"type": "replay_play", "speed": 2})
    await page.until(lambda: page.moves() == ["c3-c4", "c7-c6"])
    await page.until(lambda: page.latest["replay"]["done"] == 4 and not page.latest["replay"]["playing"])
    reply = await page.send({"type": "replay_step"})
    assert reply["type"] == "error" and "end" in reply["message"]
    reply = await page.send({"type": "log_load", "text": "0 c3-\n10 z9+\n"})
    assert reply["type"] == "error" and reply["message"].startswith("the sensor log:2: ")
    assert page.latest["replay"]["events"] == 4  # the loaded log stays
    await page.close()


def test_replays_at_speed_keep_the_hands_own_timing():
    assert replay_pause_s(300, 10) == 0.3  # a hand's movement: as it was
    assert replay_pause_s(3000, 10) == 1.0  # a pause: shortened, to a second at least
    assert replay_pause_s(20_000, 10) == 2.0
    assert replay_pause_s(300, 0.5) == 0.6  # slowed down: everything slower


async def test_what_is_recorded_replays_to_the_same_moves(aiohttp_client, running, tmp_path, capsys):
    page = await connect(aiohttp_client, running.server)
    await page.act({"type": "record_start"})
    await page.until(lambda: page.latest["recording"]["on"])
    await page.act({"type": "lift", "cell": "c3"})
    await asyncio.sleep(0.3)
    await page.act({"type": "put", "cell": "c4"})
    await page.until(lambda: page.moves() == ["c3-c4"])
    await page.act({"type": "slide", "path": ["c7", "c6"]})
    await page.until(lambda: page.moves() == ["c3-c4", "c7-c6"])
    await asyncio.sleep(0.5)
    reply = await page.send({"type": "record_stop"})
    assert reply["type"] == "ack"
    (text,) = page.recorded
    await page.until(lambda: not page.latest["recording"]["on"])
    assert text.startswith("# recorded by nestref sim\n# position: ewcwe/")
    log = tmp_path / "recorded.log"
    log.write_text(text, encoding="utf-8")
    assert main(["referee", "--events", str(log)]) == 0
    moves = [line for line in capsys.readouterr().out.splitlines() if line.startswith("move ")]
    assert moves == ["move c3-c4", "move c7-c6"]
    await page.close()


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"cell": "c3"}', "no type"),
        ('{"type": "teleport"}', "unknown type 'teleport'"),
        ('{"type": "lift"}', "lift: missing cell"),
        ('{"type": "lift", "cell": "z9"}', "lift: cell: 'z9' is not a cell of the nest"),
        ('{"type": "lift", "cell": 3}', "lift: cell: 3 is not a cell of the nest"),
        ('{"type": "lift", "cell": "c3", "force": true}', "lift: unknown field 'force'"),
        ('{"type": "lift", "cell": "c5"}', "c5 is empty"),
        ('{"type": "put", "cell": "c3"}', "c3 holds a piece already"),
        ('{"type": "put", "cell": "c5"}', "the hand is empty: lift a piece first"),
        ('{"type": "put", "cell": "c5", "piece": true}', "put: piece: a whole number"),
        ('{"type": "take", "piece": 99}', "no piece 99 in the box"),
        ('{"type": "slide", "path": ["c3"]}', "slide: path: a list of 2 to 20 cells"),
        ('{"type": "slide", "path": ["c3", "c5"]}', "c5 is not next to c3: a slide goes from cell to cell"),
        ('{"type": "slide", "path": ["c5", "c6"]}', "c5 is empty: nothing to slide"),
        ('{"type": "slide", "path": ["b2", "c3"]}', "c3 holds a piece of the same side"),
        ('{"type": "button", "name": "reset"}', "button: name: 'reset' is not one of: confirm, take_back, switch"),
        ('{"type": "button", "name": "confirm", "hold": "yes"}', "button: hold: true or false"),
        ('{"type": "setup", "lineup": "chaos"}', "setup: lineup: 'chaos' is not one of"),
        (
            '{"type": "players", "red": "robot", "blue": "human"}',
            "players: red: 'robot' is not one of: human, computer",
        ),
        ('{"type": "players", "red": "human"}', "players: missing blue"),
        ('{"type": "players", "red": "human", "blue": "computer", "level": 0}', "players: level: a level from 1 to 5"),
        ('{"type": "replay_play", "speed": 1000}', "load a sensor log first"),
        ('{"type": "replay_step"}', "load a sensor log first"),
        ('{"type": "record_stop"}', "not recording"),
        ('{"type": "clear", "id": {"a": 1}}', "id: a number, or a text of up to 40 characters"),
    ],
)
async def test_a_bad_message_gets_an_error_and_changes_nothing(aiohttp_client, running, message, error):
    page = await connect(aiohttp_client, running.server)
    table = json.dumps(page.latest["table"])
    await page.socket.send_str(message)
    await page.until(lambda: bool(page.errors))
    assert error in page.errors[0]
    await asyncio.sleep(0.1)
    assert json.dumps(page.latest["table"]) == table
    await page.close()


async def test_a_refused_message_is_answered_with_its_id(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    reply = await page.send({"type": "lift", "cell": "z9"})
    assert reply == {"type": "error", "message": "lift: cell: 'z9' is not a cell of the nest", "id": reply["id"]}
    await page.close()


async def test_a_message_too_large_closes_the_connection(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    with contextlib.suppress(ConnectionError):  # the server may close before it is all sent
        await page.socket.send_str(json.dumps({"type": "log_load", "text": "x" * MAX_MESSAGE_BYTES}))
    await asyncio.wait_for(page._reader, WAIT_S)
    assert page.socket.closed
    assert page.socket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_away_from_this_machine_acting_needs_the_pin(aiohttp_client, running):
    clock = Clock()
    server = WebServer(running.daemon, running.simulator, host="0.0.0.0", clock=clock)
    assert server.pin is not None and len(server.pin) == PIN_DIGITS
    await asyncio.sleep(0.1)
    assert running.daemon.snapshot().screen.footer == f"PIN {server.pin}"  # the address comes once it serves
    page = await connect(aiohttp_client, server)
    assert (page.latest["hello"]["can_act"], page.latest["hello"]["pin_required"]) == (False, True)
    reply = await page.send({"type": "lift", "cell": "c3"})
    assert reply["message"] == "give the PIN shown on the OLED first"
    wrong = "0000" if server.pin != "0000" else "1111"
    for _ in range(PinGuard.FREE_TRIES):
        assert (await page.send({"type": "pin", "pin": wrong}))["message"] == "wrong PIN"
    reply = await page.send({"type": "pin", "pin": server.pin})  # even the right one, for a while
    assert reply["message"].startswith("too many wrong PINs: try again in 30 s")
    clock.now += 31
    reply = await page.send({"type": "pin", "pin": server.pin})
    assert reply["type"] == "session"
    await page.until(lambda: page.latest["hello"]["can_act"])
    await page.act({"type": "lift", "cell": "c3"})
    await page.close()
    again = await connect(aiohttp_client, server)  # a reloaded page
    assert (await again.send({"type": "lift", "cell": "c4"}))["type"] == "error"
    assert (await again.send({"type": "resume", "token": reply["token"]}))["type"] == "ack"
    await again.act({"type": "put", "cell": "c4"})
    await again.until(lambda: again.moves() == ["c3-c4"])
    assert (await again.send({"type": "resume", "token": "forged"}))["message"].startswith("that session has ended")
    await again.close()


async def test_a_websocket_from_another_sites_page_is_refused(aiohttp_client, running):
    client = await aiohttp_client(running.server.app)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/ws", headers={"Origin": "http://evil.example"})
    assert refused.value.status == 403
    socket = await client.ws_connect("/ws", headers={"Origin": f"http://{client.host}:{client.port}"})
    await socket.close()


async def test_the_spectator_page_is_read_only(aiohttp_client, running):
    page = await connect(aiohttp_client, WebServer(running.daemon))
    assert (page.latest["hello"]["mode"], page.latest["hello"]["can_act"]) == ("spectator", False)
    assert page.latest["table"]["cells"] == {c: p.letter for c, p in Position.from_lineup().pieces().items()}
    asks = ({"type": "lift", "cell": "c3"}, {"type": "pin", "pin": "0000"}, {"type": "button", "name": "confirm"})
    for message in asks:
        reply = await page.send(message)
        assert reply["message"] == "this page is read-only: the game is played on the nest"
    # The nest itself is played on; the page follows the referee.
    for step in running.simulator.table.slide_steps(["c3", "c4"]):
        await asyncio.sleep(step.pause_s)
        step.act()
    await page.until(lambda: page.moves() == ["c3-c4"] and "c4" in page.latest["table"]["cells"])
    await page.close()


async def test_the_page_and_its_files_are_served_with_a_content_policy(aiohttp_client, running):
    client = await aiohttp_client(running.server.app)
    response = await client.get("/")
    assert response.status == 200 and response.content_type == "text/html"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert (await client.get("/app.js")).content_type == "text/javascript"
    for name in ("/missing.js", "/..%2Fserver.py", "/server.py", "/web"):
        assert (await client.get(name)).status == 404, name


async def test_nestref_run_web_serves_the_spectator_page(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndatabase = "{tmp_path / "games.sqlite"}"\n', encoding="utf-8")
    nestref = str(Path(sys.executable).parent / "nestref")
    process = await asyncio.create_subprocess_exec(
        nestref, "run", "--mock", "--config", str(config), "--web", "127.0.0.1:0", stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    try:
        url = ""
        while not url:
            line = (await asyncio.wait_for(process.stderr.readline(), WAIT_S)).decode()
            assert line, "nestref run stopped"
            if match := re.search(r"spectator page at (http://[^\s\"]+)", line):
                url = match.group(1)
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as response:
                assert response.status == 200 and "<html" in (await response.text()).lower()
            async with session.ws_connect(url + "ws") as socket:
                hello = json.loads((await socket.receive(timeout=WAIT_S)).data)
                assert (hello["type"], hello["mode"], hello["can_act"]) == ("hello", "spectator", False)
    finally:
        process.terminate()
        assert await asyncio.wait_for(process.wait(), WAIT_S) == 0


async def test_the_simulator_on_the_serial_backend(aiohttp_client, tmp_path):
    # The Pico's own scanner code behind a pty; the daemon reads it with pyserial.
    path = tmp_path / "config.toml"
    path.write_text('[sensors]\nbackend = "serial"\n', encoding="utf-8")
    async with simulated(load_config(path)) as running:
        assert running.mock.pico is not None
        page = await connect(aiohttp_client, running.server)
        await page.until(lambda: page.latest["game"]["to_move"] == "red")
        await page.act({"type": "slide", "path": ["c3", "c4"]})
        await page.until(lambda: page.moves() == ["c3-c4"])
        await page.act({"type": "button", "name": "take_back"})  # a matrix button, scanned by the Pico
        await page.until(lambda: page.moves() == [])
        await page.close()


def test_a_port_in_use_is_a_clear_error():
    import socket

    nestref = str(Path(sys.executable).parent / "nestref")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [nestref, "sim", "--port", str(port), "--no-browser"], capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 2
    assert f"nestref: cannot serve on 127.0.0.1:{port}: " in done.stderr and "try --port 0" in done.stderr


def test_an_address_not_of_this_machine_is_a_clear_error():
    nestref = str(Path(sys.executable).parent / "nestref")
    # A documentation address (RFC 5737): binding to it fails here, and sends nothing.
    done = subprocess.run(
        [nestref, "sim", "--host", "192.0.2.99", "--port", "0", "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "nestref: cannot serve on 192.0.2.99:0: 192.0.2.99 is not an address of this machine" in done.stderr
    assert "another nestref sim" not in done.stderr


async def test_nestref_sim_serves_the_board_given(tmp_path):
    nestref = str(Path(sys.executable).parent / "nestref")
    board = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hexhex-3.toml"
    process = await asyncio.create_subprocess_exec(
        nestref, "sim", "--board", str(board), "--port", "0", "--no-browser", cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), WAIT_S)).decode()
        match = re.match(r"Simulator: (http://\S+/)", line)
        assert match, line
        async with aiohttp.ClientSession() as session, session.ws_connect(match.group(1) + "ws") as socket:
            hello = json.loads((await socket.receive(timeout=WAIT_S)).data)
            board = hello["game"]["board"]
            assert (hello["type"], board["name"], len(board["cells"])) == ("hello", "hexhex-3", 19)
            assert hello["lineups"] == ["small"]
    finally:
        process.terminate()
        assert await asyncio.wait_for(process.wait(), WAIT_S) == 0


async def test_a_recording_stops_growing_where_the_page_could_not_load_it_again(aiohttp_client, running):
    from firmware_host.web.protocol import MAX_LOG_BYTES
    from sim.simulator import RECORDING_FULL

    page = await connect(aiohttp_client, running.server)
    await page.act({"type": "record_start"})
    recording = running.simulator.recording
    assert recording is not None
    for number in range(MAX_LOG_BYTES // 8):  # as a hand flickering over c5 for hours would
        recording.writer.reading(number, "c5", number % 2 == 0)
    await page.act({"type": "record_stop"})
    (text,) = page.recorded
    assert MAX_LOG_BYTES - 1024 < len(text.encode()) <= MAX_LOG_BYTES
    assert text.endswith(f"# {RECORDING_FULL}\n")
    await page.act({"type": "log_load", "text": text})  # it loads again
    await page.close()


def test_the_modules_examples_hold():
    import doctest

    import firmware_host.web.server
    import sim.simulator

    for module in (firmware_host.web.server, sim.simulator):
        assert doctest.testmod(module).failed == 0, module.__name__
