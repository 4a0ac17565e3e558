"""The battle game's players' own screens and the computer at the nest, through aiohttp's
test client with the real daemon on the simulated nest: each side's PIN opens that side's
view alone; the shared page (its recordings too) and a page without a session never get a
hidden rank; set-ups
given on the screens start the game; the computer's process is handed its side's view."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import aiohttp
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.daemon.config import load_config
from firmware_host.games.base import Side, public_view
from firmware_host.games.battle import BattleGame, Field, Move, Position, View
from firmware_host.games.battle.army import StrikeResult
from firmware_host.games.battle.pieces import Shown
from firmware_host.web.picture import Picture
from tests.battle_helpers import move_on_the_table
from tests.sim_helpers import PageClient, connect, simulated

FIELD = Field.default()
RED_SETUP = FIELD.lineup("demo").setups[Side.RED].to_text(FIELD)
BLUE_SETUP = FIELD.lineup("demo-2").setups[Side.BLUE].to_text(FIELD)
RANK_WORDS = re.compile(r"\b(" + "|".join(rank.name for rank in FIELD.army) + r")s?\b", re.IGNORECASE)


class PlayerClient(PageClient):
    """A player's own page at the other end of ``/ws/player``: every message kept."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.received: list[dict[str, Any]] = []
        super().__init__(socket)

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            self.received.append(data)
            if data["type"] in ("ack", "error", "session") and "id" in data:
                self.replies[data["id"]] = data
            self.latest[data["type"]] = data


async def player(aiohttp_client: Any, server: Any, side: str | None = None, pin: str | None = None) -> PlayerClient:
    client = await aiohttp_client(server.app)
    page = PlayerClient(await client.ws_connect("/ws/player"))
    await page.until(lambda: "hello" in page.latest)
    if side is not None:
        reply = await page.send({"type": "side_pin", "side": side, "pin": pin or server.players.pins.pins[side]})
        assert reply["type"] == "session", reply
        await page.until(lambda: "private" in page.latest)
    return page


def battle_config() -> Any:
    return load_config(None, game="battle")


async def red_against_the_computer(aiohttp_client: Any, server: Any) -> tuple[PageClient, PlayerClient]:
    """The shared page and red's own screen, blue played by the computer (level 1), red's
    army given from its screen, and the game begun: red to move."""
    shared = await connect(aiohttp_client, server)
    await shared.act({"type": "players", "red": "human", "blue": "computer", "level": 1})
    red = await player(aiohttp_client, server, "red")
    await shared.until(lambda: "blue set-up: ready" in shared.signals)
    await red.act({"type": "setup", "text": RED_SETUP})
    await shared.act({"type": "setup"})
    await shared.until(lambda: shared.latest["game"]["to_move"] == "red")
    return shared, red


async def test_a_sides_pin_opens_that_sides_view_alone(aiohttp_client):
    async with simulated(battle_config()) as running:
        pins = running.server.players.pins.pins
        assert set(pins) == {"red", "blue"} and pins["red"] != pins["blue"]
        stranger = await player(aiohttp_client, running.server)
        reply = await stranger.send({"type": "side_pin", "side": "red", "pin": pins["blue"]})
        assert reply == {"type": "error", "message": "wrong PIN for red", "id": reply["id"]}
        reply = await stranger.send({"type": "setup", "text": RED_SETUP})
        assert reply["message"] == "give your side's PIN first"
        red = await player(aiohttp_client, running.server, "red")
        await red.act({"type": "setup", "text": RED_SETUP})
        await red.until(lambda: red.latest["private"]["setup_state"] == "ready")
        assert red.latest["private"]["cells"]["a1"] == "F"  # red's own ranks, as given
        blue = await player(aiohttp_client, running.server, "blue")
        assert blue.latest["private"]["cells"] == {} and blue.latest["private"]["setup_state"] == "waiting"
        await blue.act({"type": "setup", "text": BLUE_SETUP})
        await running.simulator.act("setup", {})  # the pieces put where the nest asks
        await red.until(lambda: red.latest["private"]["setup_state"] == "")
        seen = red.latest["private"]["cells"]
        assert {seen[cell] for cell in FIELD.setup_cells(Side.BLUE) if cell in seen} == {"x"}
        assert seen["a4"] == "S" and len(seen) == 72
        blue_seen = blue.latest["private"]["cells"]
        assert {blue_seen[cell] for cell in FIELD.setup_cells(Side.RED) if cell in blue_seen} == {"X"}
        # Nothing private ever went to the page that gave no PIN, nor red's ranks to blue.
        assert not [message for message in stranger.received if message["type"] == "private"]
        for message in blue.received:
            if message["type"] == "private":
                assert not set(message["cells"].values()) - {"x", "X", *"mgcjplrnsybf"}, message
        for page in (stranger, red, blue):
            await page.close()


async def test_a_set_up_the_rules_refuse_is_named_and_nothing_changes(aiohttp_client):
    async with simulated(battle_config()) as running:
        red = await player(aiohttp_client, running.server, "red")
        wrong = RED_SETUP.replace("F", "M", 1)
        reply = await red.send({"type": "setup", "text": wrong})
        assert reply["type"] == "error" and "red's set-up has 2 marshals; the army has 1" in reply["message"]
        reply = await red.send({"type": "setup", "text": "nonsense"})
        assert reply["type"] == "error" and "cannot read red's set-up" in reply["message"]
        reply = await red.send({"type": "setup"})
        assert reply["type"] == "error" and reply["message"] == "setup: text is missing"
        assert red.latest["private"]["setup_state"] == "waiting"
        await red.act({"type": "guide"})
        await red.until(
            lambda: re.fullmatch(r"place your [a-z]+ \(1 of \d\)", red.latest["private"]["prompt"] or "") is not None
        )
        await red.close()


async def test_a_check_asked_on_a_players_screen_holds_the_game_until_each_piece_is_lifted_as_asked(aiohttp_client):
    async with simulated(battle_config()) as running:
        shared = await connect(aiohttp_client, running.server)
        red = await player(aiohttp_client, running.server, "red")
        blue = await player(aiohttp_client, running.server, "blue")
        await red.act({"type": "check_setup"})
        await red.act({"type": "setup", "text": RED_SETUP})
        await blue.act({"type": "setup", "text": BLUE_SETUP})
        await shared.act({"type": "setup"})  # the pieces put where the nest asks
        await red.until(lambda: red.latest["private"]["setup_state"] == "checking")
        assert red.latest["private"]["total"] == 35 and blue.latest["private"]["setup_state"] == "ready"
        demo = FIELD.lineup("demo").setups[Side.RED]
        lifted: set[str] = set()
        for number in range(1, 36):
            prompt = red.latest["private"]["prompt"]
            found = re.fullmatch(rf"lift your ([a-z]+) \({number} of 35\)", prompt or "")
            assert found is not None, prompt
            cell = next(c for c, rank in sorted(demo.ranks.items()) if rank.name == found[1] and c not in lifted)
            lifted.add(cell)
            await shared.act({"type": "lift", "cell": cell})

            def seen(number: int = number) -> bool:  # held up long enough to be seen: then put back
                view = red.latest["private"]
                return bool(view["placed"] == number or view["prompt"] == "your pieces are checked")

            await red.until(seen)
            await shared.act({"type": "put", "cell": cell})
        await shared.until(lambda: shared.latest["game"]["to_move"] == "red")
        assert "red set-up: checking, 34 of 35 checked" in shared.signals
        assert not [text for text in shared.signals if RANK_WORDS.search(text)], "the shared page is told no rank"
        assert not [m for m in blue.received if m["type"] == "private" and "lift your" in str(m.get("prompt"))]
        for page in (shared, red, blue):
            await page.close()


async def test_set_up_lineup_puts_the_other_sides_pieces_left_on_a_sides_rows_back_in_the_box(aiohttp_client):
    async with simulated(battle_config()) as running:
        simulator, game = running.simulator, running.daemon.config.game
        red_piece = next(piece for piece in game.lineup_pieces("demo").values() if piece.side is Side.RED)
        for cell in ("a7", "b7"):  # red pieces left on blue's rows by the game before
            if cell in simulator.table.cells:
                simulator.table.knock(cell)
            simulator.table.put_from_box(cell, Side.RED, red_piece)
        shared = await connect(aiohttp_client, running.server)
        red = await player(aiohttp_client, running.server, "red")
        blue = await player(aiohttp_client, running.server, "blue")
        await red.act({"type": "setup", "text": RED_SETUP})
        await blue.act({"type": "setup", "text": BLUE_SETUP})  # a7 and b7 are blue's squares
        await shared.act({"type": "setup"})
        await shared.until(lambda: shared.latest["game"]["to_move"] == "red")
        for cell, piece in simulator.table.cells.items():
            home = FIELD.home_of(cell)
            assert piece.side is home, f"{cell} holds a piece of {piece.side}, on {home}'s rows"
        assert {"a7", "b7"} <= set(simulator.table.cells)
        for page in (shared, red, blue):
            await page.close()


async def test_the_shared_page_never_gets_a_hidden_rank(aiohttp_client):
    async with simulated(battle_config()) as running:
        shared = await connect(aiohttp_client, running.server)
        received: list[str] = []
        original = shared.socket.receive

        async def keep(*args: Any, **kwargs: Any) -> Any:
            message = await original(*args, **kwargs)
            if message.type is aiohttp.WSMsgType.TEXT:
                received.append(message.data)
            return message

        shared.socket.receive = keep  # type: ignore[method-assign]  # every message read, as read
        red = await player(aiohttp_client, running.server, "red")
        blue = await player(aiohttp_client, running.server, "blue")
        await red.act({"type": "setup", "text": RED_SETUP})
        await blue.act({"type": "setup", "text": BLUE_SETUP})
        await shared.act({"type": "setup"})
        await shared.until(lambda: shared.latest["game"]["to_move"] == "red")
        for origin, target in (("a4", "a5"), ("a7", "a6")):
            await shared.act({"type": "lift", "cell": origin})
            await shared.act({"type": "put", "cell": target})
        await shared.until(lambda: shared.moves() == ["a4-a5", "a7-a6"])
        assert received
        for text in received:
            message = json.loads(text)
            if message["type"] == "hello":
                continue  # its legend lists the army, which everybody knows
            assert not RANK_WORDS.search(text), text[:300]  # no strike yet: no rank shown
            assert "private" not in message["type"]
            if message["type"] == "table":
                assert set(message["cells"].values()) <= {"X", "x"}
        assert re.fullmatch(r"[Xx+0-9~/]+", shared.latest["game"]["position"].split()[0])
        # The real nest's spectators' page draws the recorded game as everybody sees it too.
        spectators = Picture(running.daemon, None).table(running.daemon.snapshot())
        assert set(spectators["cells"].values()) == {"X", "x"} and len(spectators["cells"]) == 72
        for page in (shared, red, blue):
            await page.close()


async def test_a_recording_of_a_battle_game_names_no_hidden_rank(aiohttp_client):
    """Record, a move, Stop: the sensor log goes to the shared page that asked, so its
    header says the position as everybody sees it, never the record's notation."""
    async with simulated(battle_config()) as running:
        shared, red = await red_against_the_computer(aiohttp_client, running.server)
        secret = running.daemon.position_now()
        assert secret is not None
        await shared.act({"type": "record_start"})
        await shared.act({"type": "lift", "cell": "a4"})
        await shared.act({"type": "put", "cell": "a5"})
        await shared.act({"type": "record_stop"})
        (text,) = shared.recorded
        header = [line for line in text.splitlines() if line.startswith("# position: ")]
        assert header == [f"# position: {public_view(running.daemon.config.game, secret).text}"]
        assert re.fullmatch(r"# position: [Xx0-9~/]+ r - -", header[0]), header
        assert secret.to_text().split()[0] not in text
        events = [line.split()[1] for line in text.splitlines() if not line.startswith("#")]
        assert events == ["a4-", "a5+"]
        for page in (shared, red):
            await page.close()


async def test_the_computers_side_is_set_up_for_it_and_its_process_gets_its_view_alone(aiohttp_client):
    config = load_config(None, game="battle")
    async with simulated(config) as running:
        daemon = running.daemon
        handed: list[Any] = []
        daemon.computer.start()
        connection = daemon.computer._connection
        assert connection is not None
        send = connection.send

        def spy(request: Any) -> None:  # what goes into the computer's process, as it goes
            handed.append(request)
            send(request)

        connection.send = spy  # type: ignore[method-assign,assignment]
        shared, red = await red_against_the_computer(aiohttp_client, running.server)
        await shared.act({"type": "lift", "cell": "a4"})
        await shared.act({"type": "put", "cell": "a6"})
        await shared.until(lambda: shared.latest["game"]["computer_move"] is not None)
        assert handed
        for _, view, _ in handed:
            assert isinstance(view, View) and view.viewers == frozenset({Side.BLUE})
            for piece in view.pieces().values():
                if piece.side is Side.RED:
                    assert piece.rank is None or piece.shown is Shown.REVEALED
        # The Scout's run showed its rank, to the computer as to everybody.
        assert handed[-1][1].pieces()["a6"].rank.name == "scout"
        await red.close()
        await shared.close()


async def test_the_oled_names_no_rank_the_game_has_not_shown(aiohttp_client):
    """A random game played by hand on the simulated nest: after every move, whatever the
    OLED says names only ranks the public view shows (revealed on the field, or removed
    by a strike)."""
    rng = random.Random(18)
    async with simulated(battle_config()) as running:
        daemon, simulator = running.daemon, running.simulator
        red = await player(aiohttp_client, running.server, "red")
        blue = await player(aiohttp_client, running.server, "blue")
        await red.act({"type": "setup", "text": RED_SETUP})
        await blue.act({"type": "setup", "text": FIELD.lineup("demo").setups[Side.BLUE].to_text(FIELD)})
        await red.until(lambda: daemon.position_now() is not None)
        screens = []
        for ply in range(24):
            position = daemon.position_now()
            assert isinstance(position, Position)
            if position.is_over():
                break
            move = rng.choice(position.legal_moves())
            await move_on_the_table(simulator, red, daemon, position, move, ply)
            after = daemon.position_now()
            assert isinstance(after, Position)
            view = after.view()
            shown = {piece.rank.name for piece in view.pieces().values() if piece.rank is not None}
            shown |= {rank.name for side in Side for rank in view.removed(side).elements()}
            screen = daemon.snapshot().screen
            words = " ".join([screen.headline, *screen.lines, screen.footer])
            screens.append(words)
            for name in RANK_WORDS.findall(words):
                assert name.lower().rstrip("s") in shown or name.lower() in shown, (words, shown)
        assert any("strikes" in words for words in screens), screens  # a strike was announced
        await red.close()
        await blue.close()


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_a_sides_letters_are_its_view_of_the_position(seed, plies):
    game = BattleGame(FIELD)
    position = game.start("demo", Side.RED)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    for side in Side:
        assert game.letters_seen_by(position, side) == {
            cell: piece.letter for cell, piece in position.view(side).pieces().items()
        }


def computers_move(page: PageClient) -> str | None:
    """The move the computer (blue) chose, as the shared page last said, if it did."""
    game = page.latest["game"]
    return game["computer_move"] if game["to_move"] == "blue" else None


async def test_a_sides_screen_shows_the_other_sides_pieces_as_the_nest_holds_them_after_every_strike(aiohttp_client):
    """A game against the computer, red striking whenever it can, else stepping forward
    (the computer striking as it likes): after every move, red's own screen holds
    exactly the pieces the position and the nest hold, each as red may see it; a piece
    a strike took off is gone from it at once, whichever side lost it and whoever
    struck (the page's server pushes the private view on every change it makes)."""
    rng = random.Random(7)
    async with simulated(battle_config()) as running:
        daemon, simulator = running.daemon, running.simulator
        shared, red = await red_against_the_computer(aiohttp_client, running.server)
        game, removals = BattleGame(FIELD), 0
        for ply in range(60):
            position = daemon.position_now()
            assert isinstance(position, Position)
            if position.is_over() or removals == 4:
                break
            if position.turn is Side.RED:
                moves = position.legal_moves()
                row = FIELD.coordinates
                forward = [move for move in moves if row(move.target)[1] > row(move.origin)[1]]
                move = rng.choice([move for move in moves if move.is_strike] or forward or moves)
            else:
                await shared.until(lambda: computers_move(shared) is not None)
                move = Move.from_text(str(computers_move(shared)))
            await simulator.act("lift", {"cell": move.origin})
            if move.is_strike:
                await simulator.act("lift", {"cell": move.target})
                if position.strike(move).result is not StrikeResult.BOTH_LOST:
                    await red.until(lambda: simulator._strike is not None)
                    await simulator.act("put", {"cell": move.target})
                for held in list(simulator.table.hand):  # the pieces struck off, into the box
                    await simulator.act("drop", {"piece": held.id})
                removals += 1
            else:
                await simulator.act("put", {"cell": move.target})
            await shared.until(lambda ply=ply: len(shared.moves()) == ply + 1)  # type: ignore[misc]
            after = daemon.position_now()
            assert isinstance(after, Position)
            wanted = game.letters_seen_by(after, Side.RED)
            await red.until(lambda wanted=wanted: red.latest["private"]["cells"] == wanted)  # type: ignore[misc]
            on_nest = set(simulator.table.cells)
            assert set(red.latest["private"]["cells"]) == on_nest, (move, sorted(on_nest ^ set(wanted)))
        assert removals >= 3, ("too few strikes to show anything", len(shared.moves()))
        for page in (shared, red):
            await page.close()


async def test_a_hint_goes_to_its_sides_own_screen_alone(aiohttp_client, caplog):
    """A hint in the battle game would tell the other side what the piece is (a long run
    is a Scout's): red's own screen shows it; the shared page, the OLED, blue's screen and
    the log say at most that one was given on red's screen."""
    caplog.set_level("DEBUG")
    async with simulated(battle_config()) as running:
        daemon = running.daemon
        shared, red = await red_against_the_computer(aiohttp_client, running.server)
        blue = await player(aiohttp_client, running.server, "blue")
        await shared.act({"type": "hint"})
        await red.until(lambda: bool(red.latest["private"].get("hint")))
        hint = red.latest["private"]["hint"]
        position = daemon.position_now()
        assert isinstance(position, Position)
        assert hint in {str(move) for move in position.legal_moves()}  # red's move, a legal one
        snapshot = daemon.snapshot()
        assert snapshot.game.hint is None and not snapshot.cells
        words = " ".join([snapshot.screen.headline, *snapshot.screen.lines, snapshot.screen.footer])
        assert "hint on red's screen" in words and hint not in words
        public = " ".join([snapshot.public_screen.headline, *snapshot.public_screen.lines])
        assert hint not in public
        await shared.until(lambda: "game" in shared.latest)
        assert "hint" not in shared.latest["game"]
        assert all(hint not in json.dumps(message) for message in blue.received)
        assert all(message.get("hint") is None for message in blue.received if message["type"] == "private")
        assert hint not in json.dumps(shared.latest) and all(hint not in text for text in shared.signals)
        assert all(hint not in record.getMessage() and hint not in str(record.__dict__) for record in caplog.records)
        await red.close()
        await blue.close()
