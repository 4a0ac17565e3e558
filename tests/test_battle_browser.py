"""The battle game in the simulator's page, in real Chromium: the square field drawn from
the board file (its lakes too), the pieces as the shared screens may show them, moves and
strikes made by hand on the simulated nest. ``nestref sim --game battle``, as a user
starts it; the page driven with Playwright (tests/test_sim_browser.py says how)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from firmware_host.games.battle import Field
from tests.test_sim_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Simulator,
    cell,
    console_errors,
    lift,
    moves,
    oled,
    piece,
    put,
)

FIELD = Field.default()
RANK_NAMES = [rank.name for rank in FIELD.army]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), f"the page's tests need Debian's chromium at {CHROMIUM}: run sh .ci/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class BattleSimulator(Simulator):
    """``nestref sim --game battle``, and each side's own PIN it printed."""

    def __init__(self, cwd: Path) -> None:
        self.side_pins: dict[str, str] = {}
        super().__init__(cwd, options=("--game", "battle"))

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if found := re.match(r"(Red|Blue)'s own screen: \S+ \(PIN (\d{4}), ", line):
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
    """No message but the hello (whose legend lists the army) names a rank: the demo
    games here end before any strike shows one."""
    assert received, "the page received nothing"
    for text in received:
        if '"type":"hello"' in text:
            continue
        for name in RANK_NAMES:
            assert not re.search(rf"\b{name}\b", text, re.IGNORECASE), (name, text[:300])
        for letters in re.findall(r'"cells":\{[^}]*\}', text):
            assert set(re.findall(r':"(.)"', letters)) <= {"X", "x", "?"}, letters[:300]


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
    expect(page.locator("#position-text")).to_have_text(re.compile(r"^[Xx0-9~/]+ r - -$"))


def test_moves_and_a_strike_made_by_hand_on_the_square_field(page: Page) -> None:
    # A Scout runs two squares; a Captain steps; the Captain strikes the Scout and wins.
    for origin, target in (("a4", "a6"), ("b7", "b6")):
        lift(page, origin)
        put(page, target)
    expect(moves(page)).to_have_text(["a4-a6", "b7-b6"])
    lift(page, "j4")
    put(page, "j5")
    expect(moves(page)).to_have_count(3)
    # Blue strikes: lifts its Captain, then the struck Scout, and puts its own down.
    lift(page, "b6")
    lift(page, "a6")
    put(page, "a6")
    expect(moves(page)).to_have_text(["a4-a6", "b7-b6", "j4-j5", "b6xa6"])
    expect(piece(page, "a6")).to_have_attribute("data-piece", "x")
    expect(page.locator("#hand [data-piece-id]")).to_have_count(1)  # the red Scout, struck
    page.locator("#drop").click()
    expect(page.locator("#box [data-piece-id]")).to_have_count(1)
