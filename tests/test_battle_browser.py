"""The battle game in the simulator's page, in real Chromium: the square field drawn from
the board file (its lakes too), the pieces as the shared screens may show them, moves and
strikes made by hand on the simulated nest. ``nestref sim --game battle``, as a user
starts it; the page driven with Playwright (tests/test_sim_browser.py says how)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, WebSocket, expect

from firmware_host.games.battle import Field
from tests.test_sim_browser import (
    ROOT,
    Simulator,
    browser,
    cell,
    console_errors,
    lift,
    moves,
    oled,
    piece,
    put,
)

__all__ = ["browser"]  # the shared browser fixture, used here

FIELD = Field.default()
RANK_NAMES = [rank.name for rank in FIELD.army]


class BattleSimulator(Simulator):
    """``nestref sim --game battle``, and each side's own PIN it printed."""

    def __init__(self, cwd: Path) -> None:
        self.side_pins: dict[str, str] = {}
        super().__init__(cwd, options=("--game", "battle"))

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if found := re.match(r"(Red|Blue)'s own screen: \S+ \(PIN (\d{6}), ", line):
                self.side_pins[found.group(1).lower()] = found.group(2)
            self._lines.put(line)
        self._lines.put(None)


@pytest.fixture
def simulator(tmp_path: Path) -> Iterator[BattleSimulator]:
    simulator = BattleSimulator(tmp_path)
    yield simulator
    simulator.close()


@pytest.fixture
def page(browser: Browser, simulator: Simulator) -> Iterator[Page]:
    """The public page of the battle game's simulator, the demo set-up standing."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = console_errors(page)
    received = public_messages(page)
    page.goto(simulator.url)
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#nest [data-piece]")).to_have_count(72)
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^SET UP / game 1"))
    expect(page.locator("#next-step")).to_contain_text("Each player gives a set-up on their own screen")
    yield page
    context.close()
    assert errors == [], f"the page logged errors: {errors}"
    assert_no_hidden_rank(received)


def public_messages(page: Page) -> list[str]:
    """Every message the page receives on its WebSockets from now on, as sent."""
    received: list[str] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: received.append(str(payload)))

    page.on("websocket", on_socket)
    return received


def assert_no_hidden_rank(received: list[str]) -> None:
    """Nothing the shared page received says a rank nobody was shown: the table's pieces
    (on the nest, in the hand, in the box) show their side alone; the position shows a
    rank only where a strike or a Scout's run revealed it (its ``!``); no words name a
    rank but those a strike's announcement showed to everybody (and the hello's legend
    of the army)."""
    assert received, "the page received nothing"
    shown: set[str] = set()
    revealed = {
        letter
        for text in received
        if (message := json.loads(text))["type"] == "game" and message["position"]
        for letter in re.findall(r"([A-Za-z])!", message["position"].split()[0])
    }
    for text in received:
        message = json.loads(text)
        kind = message["type"]
        if kind == "hello":
            continue
        if kind == "signal" and message["kind"] == "StrikeAnnounced":
            shown |= {name for name in RANK_NAMES if re.search(rf"\b{name}\b", message["text"])}
        for name in set(RANK_NAMES) - shown:
            assert not re.search(rf"\b{name}s?\b", text, re.IGNORECASE), (name, text[:300])
        if kind == "table":
            held = {piece["piece"] for piece in message["hand"] + message["box"]}
            assert held <= {"X", "x", "?"}, held
            assert set(message["cells"].values()) <= {"X", "x", "?"} | revealed, message["cells"]
        if kind == "game" and message["position"]:
            rows = message["position"].split()[0]
            assert re.fullmatch(r"(?:[Xx][+!]?|[A-WYZa-wyz]!|[0-9]|~|/)+", rows), rows


def player_screen(browser: Browser, simulator: BattleSimulator, side: str, errors: list[str]) -> Page:
    """``side``'s own screen in a browser context of its own, its PIN given."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    screen = context.new_page()
    errors += console_errors(screen)
    screen.goto(f"{simulator.url}player.html?side={side}")
    expect(screen.locator("#side-form")).to_be_visible()
    screen.locator("#side-pin").fill(simulator.side_pins[side])
    screen.locator("#side-form button").click()
    expect(screen.locator("#side-title")).to_have_text(f"{side}'s own screen")
    expect(screen.locator("#setup-panel")).to_be_visible()
    return screen


def own_piece(screen: Page, cell: str) -> Locator:
    return screen.locator(f'#field [data-piece][data-cell="{cell}"]')


def swap(screen: Page, first: str, second: str) -> None:
    """Swap what two squares of the draft set-up hold, by clicking one, then the other."""
    for name in (first, second):
        screen.locator(f'#field .cell[data-cell="{name}"] rect').click()


def test_the_square_field_is_drawn_from_the_board_file_with_its_lakes(page: Page) -> None:
    field = FIELD
    expect(page.locator("#nest .cell[data-cell]")).to_have_count(len(field.cells))
    expect(page.locator("#nest .lake")).to_have_count(len(field.lakes))
    expect(page.locator("#nest .cell.rows-red")).to_have_count(40)
    # The squares stand in their rows and columns: a1 at the bottom left, j10 top right.
    a1, j10 = (cell(page, name).locator("rect.square").bounding_box() for name in ("a1", "j10"))
    c5 = page.locator('#nest .lake[data-lake="c5"]').bounding_box()
    assert a1 is not None and j10 is not None and c5 is not None
    assert a1["x"] < c5["x"] < j10["x"] and j10["y"] < c5["y"] < a1["y"]
    assert abs(a1["width"] - a1["height"]) < 1
    # Every piece drawn without its rank: the shared page shows sides only.
    for letter in ("X", "x"):
        expect(page.locator(f'#nest [data-piece="{letter}"]')).to_have_count(36)


def test_a_whole_game_set_up_on_the_players_own_screens(
    browser: Browser, simulator: BattleSimulator, page: Page
) -> None:
    errors: list[str] = []
    red, blue = (player_screen(browser, simulator, side, errors) for side in ("red", "blue"))
    # The first draft: the Flag in the back row beside the Bombs, the Scouts in front;
    # a key to the letters beside it.
    expect(own_piece(red, "a1")).to_have_attribute("data-piece", "F")
    expect(own_piece(red, "b1")).to_have_attribute("data-piece", "B")
    expect(red.locator("#rank-key li")).to_have_count(len(FIELD.army.ranks))
    expect(red.locator('#rank-key li[data-letter="J"]')).to_contain_text("J major")
    expect(red.locator('#rank-key li[data-letter="Y"]')).to_contain_text("Y spy")
    # Red arranges its army: the Marshal to the front, where the Scout was.
    expect(own_piece(red, "d1")).to_have_attribute("data-piece", "M")
    expect(own_piece(red, "a4")).to_have_attribute("data-piece", "S")
    swap(red, "d1", "a4")
    expect(own_piece(red, "a4")).to_have_attribute("data-piece", "M")
    expect(own_piece(red, "d1")).to_have_attribute("data-piece", "S")
    expect(red.locator("#field [data-piece]")).to_have_count(36)
    red.locator("#give").click()
    expect(red.locator("#setup-state")).to_contain_text("Given")
    # A draft changed after giving is not what the referee holds, and the screen says so.
    swap(red, "b1", "e1")
    expect(red.locator("#setup-state")).to_contain_text("not the set-up you gave")
    swap(red, "b1", "e1")
    expect(red.locator("#setup-state")).to_contain_text("Given")
    # Blue gives its army as first drafted; neither screen ever shows the other's ranks.
    blue.locator("#give").click()
    expect(blue.locator("#setup-state")).to_contain_text("Given")
    expect(blue.locator("#field [data-piece]")).to_have_count(36)
    # The nest asks for the pieces where the two set-ups put them: the simulator puts them.
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^SET UP / game 1: red starts / fill"))
    page.locator("#setup").click()
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^RED / to move"))
    expect(page.locator("#position-text")).to_have_text(re.compile(r"^[Xx0-9~/]+ r - -$"))
    for screen, own, other in ((red, "M", "x"), (blue, "m", "X")):
        expect(screen.locator("#setup-panel")).to_be_hidden()
        expect(screen.locator("#field [data-piece]")).to_have_count(72)
        expect(screen.locator(f'#field [data-piece="{other}"]')).to_have_count(36)
        expect(screen.locator(f'#field [data-piece="{own}"]')).to_have_count(1)

    # The Marshal steps up; blue's Scout steps next to it; the Marshal strikes it.
    for origin, target in (("a4", "a5"), ("a7", "a6")):
        lift(page, origin)
        put(page, target)
    expect(moves(page)).to_have_text(["a4-a5", "a7-a6"])
    lift(page, "a5")
    lift(page, "a6")
    put(page, "a6")  # the striker's own piece, the one a player puts down
    expect(moves(page)).to_have_text(["a4-a5", "a7-a6", "a5xa6"])
    expect(piece(page, "a6")).to_have_attribute("data-piece", "M")  # the strike showed it to everybody
    page.locator("#drop").click()  # the struck Scout, into the box
    # Both screens see the strike, and the Marshal's rank is shown to blue from now on.
    for screen in (red, blue):
        expect(screen.locator("#signals")).to_contain_text("strike a5xa6: marshal strikes scout: scout removed")
        expect(screen.locator("#signals")).to_contain_text("move a5xa6")
    expect(own_piece(blue, "a6")).to_have_attribute("data-piece", "M")
    expect(own_piece(blue, "a7")).to_have_count(0)

    # Blue's second Scout strikes the Marshal and is lost: the Marshal is put back.
    lift(page, "b7")
    put(page, "b6")
    lift(page, "j3")
    put(page, "j4")
    lift(page, "b6")
    lift(page, "a6")
    page.locator("#hand [data-piece-id] .glyph.red").click()  # the Marshal, not the Scout
    put(page, "a6")
    expect(moves(page)).to_have_text(["a4-a5", "a7-a6", "a5xa6", "b7-b6", "j3-j4", "b6xa6"])
    expect(piece(page, "a6")).to_have_attribute("data-piece", "M")
    expect(own_piece(red, "a6")).to_have_attribute("data-piece", "M")
    expect(own_piece(red, "b6")).to_have_count(0)
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^STRIKE / scout strikes / marshal / scout removed"))
    for screen in (red, blue):
        expect(screen.locator("#signals")).to_contain_text("strike b6xa6: scout strikes marshal: scout removed")
    expect(page.locator("#signals")).to_contain_text("strike b6xa6: scout strikes marshal: scout removed")
    if os.environ.get("NESTREF_UPDATE_SCREENS") == "1":
        page.screenshot(path=str(ROOT / "docs" / "battle-public.png"))
        red.screenshot(path=str(ROOT / "docs" / "battle-private.png"))
    for screen in (red, blue):
        screen.context.close()
    assert errors == [], f"the players' screens logged errors: {errors}"


def make_computers_move(page: Page) -> str:
    """Make the move the computer chose on the nest, as its opponent's hands would: a
    strike's pieces lifted, the winner put down where the announcement says."""
    state = page.locator("#computer-state")
    expect(state).to_have_text(re.compile(r"^plays \S+: make it on the nest$"))
    move = (state.text_content() or "").split()[1].rstrip(":")
    origin, strike, target = re.fullmatch(r"([a-j][0-9]+)([-x])([a-j][0-9]+)", move).groups()  # type: ignore[union-attr]
    lift(page, origin)
    if strike == "-":
        put(page, target)
    else:
        lift(page, target)
        announced = page.locator("#signals li", has_text=f"strike {move}:")
        expect(announced).to_have_count(1)
        winner = re.search(r"winner on ([a-j][0-9]+)", announced.text_content() or "")
        if winner is not None:
            put(page, winner.group(1))
    expect(moves(page).last).to_have_text(move)
    return move


def test_a_game_against_the_computer(browser: Browser, simulator: BattleSimulator, page: Page) -> None:
    errors: list[str] = []
    page.locator("#player-blue").select_option("computer")
    page.locator("#computer-level").select_option("1")
    expect(page.locator("#signals")).to_contain_text("blue set-up: ready")  # the computer's, given for it
    red = player_screen(browser, simulator, "red", errors)
    red.locator("#give").click()  # the army as first drafted: Scouts in front on a4 and b4
    page.locator("#setup").click()
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^RED / to move"))
    # Red sees its own ranks and none of the computer's.
    expect(red.locator('#field [data-piece="x"]')).to_have_count(36)
    played = []
    for _ in range(3):
        expect(page.locator("#to-move")).to_have_text("red")
        red_move = next(
            move
            for move in ("a4-a5", "b4-b5", "a3-a4", "b3-b4", "j3-j4", "i3-i4")
            if piece(page, move[:2]).count() and piece(page, move[:2]).get_attribute("data-piece") == "X"
            if piece(page, move[3:]).count() == 0
        )
        lift(page, red_move[:2])
        put(page, red_move[3:])
        played.append(make_computers_move(page))
    assert len(played) == 3
    # Red sees every blue piece on the nest, and the rank of those revealed alone (a
    # strike, a Scout's run: marked ! in the shared page's position).
    expect(page.locator("#computer-state")).not_to_contain_text("plays")
    expect(page.locator("#to-move")).to_have_text("red")  # the computer's last move made and accepted
    rows = (page.locator("#position-text").text_content() or "").split()[0]
    blue_pieces = len(re.findall(r"[a-z]", rows))
    revealed = len(re.findall(r"[a-wyz]!", rows))
    # The shared page draws a revealed piece by its rank ("s"), not as "x": count by side.
    expect(page.locator("#nest [data-piece].blue")).to_have_count(blue_pieces)
    expect(red.locator("#field [data-piece].blue")).to_have_count(blue_pieces)
    expect(red.locator('#field [data-piece="x"]')).to_have_count(blue_pieces - revealed)
    red.context.close()
    assert errors == [], f"red's screen logged errors: {errors}"


def test_a_set_up_placed_one_piece_at_a_time_as_the_players_screen_asks(
    browser: Browser, simulator: BattleSimulator, page: Page
) -> None:
    errors: list[str] = []
    blue = player_screen(browser, simulator, "blue", errors)
    page.locator("#clear").click()  # the pieces on blue's rows are to be lifted first
    expect(page.locator("#nest [data-piece]")).to_have_count(0)
    blue.locator("#guide").click()
    prompt = blue.locator("#prompt")
    asked = re.compile(r"^Place your [a-z]+ \(\d of \d\)$")  # in an order drawn at random
    expect(prompt).to_have_text(asked)
    for square, placed in (("e7", "1 of 36 placed"), ("f7", "2 of 36 placed")):
        before = prompt.text_content()
        page.locator('#box [data-letter="x"]').first.click()  # a blue piece from the box, into the hand
        expect(page.locator("#hand [data-piece-id]")).to_have_count(1)
        put(page, square)
        expect(blue.locator("#setup-state")).to_contain_text(placed)
        expect(prompt).to_have_text(asked)
    # The last piece placed, lifted again, is asked for again.
    lift(page, "f7")
    expect(prompt).to_have_text(before or "")
    # The shared page and the OLED say where to place, never what.
    expect(oled(page)).not_to_have_attribute("alt", re.compile("|".join(RANK_NAMES), re.IGNORECASE))
    expect(page.locator("#signals")).to_contain_text("blue set-up: placing, 1 of 36 placed")
    blue.context.close()
    assert errors == [], f"blue's screen logged errors: {errors}"


def test_pieces_put_down_first_then_a_set_up_given_and_fitted_to_them(
    browser: Browser, simulator: BattleSimulator, page: Page
) -> None:
    errors: list[str] = []
    blue = player_screen(browser, simulator, "blue", errors)
    # The nest holds pieces already (the demo's: blue's on a7 b7 e7 f7 i7 j7 of row 7);
    # the draft has row 7's on a7 to f7. Given, the nest asks for the squares that differ.
    blue.locator("#give").click()
    expect(page.locator("#signals")).to_contain_text("fill c7 d7; empty i7 j7")
    blue.locator("#fit").click()  # the draft moved onto the squares the pieces stand on
    for square in ("i7", "j7"):
        expect(own_piece(blue, square)).to_have_count(1)
    for square in ("c7", "d7"):
        expect(own_piece(blue, square)).to_have_count(0)
    expect(blue.locator("#setup-state")).to_contain_text("not the set-up you gave")
    blue.locator("#give").click()
    expect(blue.locator("#setup-state")).to_contain_text("Given")
    needed = blue.locator('#signals li[data-kind="SetupNeeded"]')
    expect(needed.last).to_contain_text("fill -; empty -")  # the nest shows blue's set-up as given
    expect(needed.nth(-2)).to_contain_text("fill c7 d7; empty i7 j7")
    # A set-up saved on this device comes back as it was, after a shuffle, to be given again.
    blue.locator("#save").click()
    saved = {square: own_piece(blue, square).get_attribute("data-piece") for square in ("a10", "d10", "i7")}
    blue.locator("#shuffle").click()
    blue.locator("#saved").click()
    for square, letter in saved.items():
        expect(own_piece(blue, square)).to_have_attribute("data-piece", letter or "")
    expect(blue.locator("#setup-state")).to_contain_text("Given")  # the saved one is the one given
    blue.context.close()
    assert errors == [], f"blue's screen logged errors: {errors}"
