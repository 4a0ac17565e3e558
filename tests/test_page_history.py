"""The page's history in real Chromium: the games of the record listed, one replayed
move by move on the nest (the buttons and the arrow keys) to the right positions, and
its record downloaded, which is what ``nestref export`` writes of it. ``nestref sim``
keeps its games in a file here, so that ``nestref export`` reads the same record.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from firmware_host.games import load_game
from firmware_host.games.base import Side
from firmware_host.records import GameRecord, Played, write_record
from tests.test_sim_browser import NESTREF, ROOT, Simulator, browser, console_errors, move_by_hand, moves, piece

__all__ = ["browser"]  # the Chromium of the page's tests, a fixture used here

HISTORY_SCREENSHOT = ROOT / "docs" / "history.png"
MARKUP = '<img src=x onerror="document.title=1">'  # a player's name as a record might hold it


def nestref(*args: str) -> str:
    done = subprocess.run([NESTREF, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A record holding one game imported from a file, its Red player named in markup."""
    game = load_game("cuckoo")
    start = game.start("standard", Side.RED).to_text()
    imported = GameRecord(
        "cuckoo", "hexhex-5", "standard", start, 1_700_000_000, "*", "unterminated",
        (Played("c3-c4"), Played("c7-c6")), tags=(("Red", MARKUP), ("Blue", "Bea")),
    )  # fmt: skip
    (tmp_path / "club.txt").write_text(write_record(imported, game=game), encoding="utf-8")
    path = str(tmp_path / "games.sqlite")
    nestref("import", str(tmp_path / "club.txt"), "--db", path)
    return path


@pytest.fixture
def simulator(tmp_path: Path, database: str) -> Iterator[Simulator]:
    simulator = Simulator(tmp_path, db=database)
    yield simulator
    simulator.close()


@pytest.fixture
def page(browser: Browser, simulator: Simulator) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(simulator.url)
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#nest [data-piece]")).to_have_count(34)
    yield page
    context.close()
    # A refused id is answered with a 4xx, which the browser logs as a failed load.
    assert [error for error in errors if "status of 4" not in error] == [], errors


def rows(page: Page) -> Locator:
    return page.locator("#history-list tbody tr")


def test_the_games_listed_and_one_replayed_forwards_and_back(page: Page, database: str) -> None:
    for origin, target in (("c3", "c4"), ("c7", "c6"), ("c4", "c5")):
        move_by_hand(page, origin, target)
    expect(moves(page)).to_have_text(["c3-c4", "c7-c6", "c4-c5"])
    page.locator("#history-refresh").click()
    # Newest first: the game being played, then the one imported.
    expect(rows(page)).to_have_count(2)
    expect(rows(page).nth(0).locator("td")).to_have_text([re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d$"),
                                                          "? - ?", "playing", "3", "Replay"])  # fmt: skip
    expect(rows(page).nth(1).locator("td")).to_have_text(["2023-11-14 22:13", f"{MARKUP} - Bea", "playing",
                                                          "2", "Replay"])  # fmt: skip
    assert page.locator("#history-list img").count() == 0  # the name shown as text, not markup
    assert page.title() != "1"

    rows(page).nth(0).get_by_role("button", name="Replay").click()
    ply = page.locator("#history-ply")
    expect(ply).to_have_text("move 3 of 3: c4-c5")
    expect(page).to_have_url(re.compile(r"#game=\d+$"))
    expect(piece(page, "c5")).to_have_attribute("data-piece", "E")
    page.keyboard.press("Home")
    expect(ply).to_have_text("move 0 of 3: the start")
    expect(piece(page, "c3")).to_have_attribute("data-piece", "E")
    expect(piece(page, "c4")).to_have_count(0)
    expect(page.locator("#history-prev")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    expect(ply).to_have_text("move 1 of 3: c3-c4")
    expect(piece(page, "c3")).to_have_count(0)
    expect(piece(page, "c4")).to_have_attribute("data-piece", "E")
    page.locator("#history-next").click()
    expect(ply).to_have_text("move 2 of 3: c7-c6")
    expect(piece(page, "c7")).to_have_count(0)
    expect(piece(page, "c6")).to_have_attribute("data-piece", "e")
    page.keyboard.press("ArrowLeft")
    expect(ply).to_have_text("move 1 of 3: c3-c4")
    expect(piece(page, "c6")).to_have_count(0)
    expect(piece(page, "c7")).to_have_attribute("data-piece", "e")
    page.keyboard.press("End")
    expect(ply).to_have_text("move 3 of 3: c4-c5")
    expect(page.locator("#history-next")).to_be_disabled()

    # The imported game: its own moves, from its own start.
    rows(page).nth(1).get_by_role("button", name="Replay").click()
    expect(ply).to_have_text("move 2 of 2: c7-c6")
    expect(page.locator("#history-title")).to_contain_text(f"{MARKUP} - Bea")
    expect(piece(page, "c4")).to_have_attribute("data-piece", "E")
    expect(piece(page, "c5")).to_have_count(0)

    # Back to the live nest: the game being played, as the table holds it.
    page.locator("#history-close").click()
    expect(page.locator("#history-replay")).to_be_hidden()
    expect(piece(page, "c5")).to_have_attribute("data-piece", "E")
    expect(page).not_to_have_url(re.compile(r"#game="))


def test_the_record_downloaded_is_what_nestref_export_writes(page: Page, database: str) -> None:
    move_by_hand(page, "c3", "c4")
    expect(moves(page)).to_have_text(["c3-c4"])
    page.locator("#history-refresh").click()
    expect(rows(page)).to_have_count(2)
    for row in (0, 1):
        rows(page).nth(row).get_by_role("button", name="Replay").click()
        game_id = str(rows(page).nth(row).get_attribute("data-game"))
        expect(page.locator("#history-ply")).to_have_text(re.compile(r"^move \d+ of \d+"))
        with page.expect_download() as download:
            page.locator("#history-download").click()
        assert download.value.suggested_filename == f"nestref-game-{game_id}.txt"
        text = Path(download.value.path()).read_text(encoding="utf-8")
        assert text == nestref("export", game_id, "--db", database)
        assert "[Game " in text or "[Lineup" in text


def test_a_game_id_in_the_address_is_checked(page: Page, simulator: Simulator) -> None:
    url = simulator.url
    page.goto(url + "#game=1%20OR%201")
    expect(page.locator("#history-status")).to_have_text('"1 OR 1" is not a game\'s id: the list below has them.')
    expect(page.locator("#history-replay")).to_be_hidden()
    page.goto(url + "#game=4242")
    expect(page.locator("#history-status")).to_have_text(
        "Game 4242 cannot be replayed: no game 4242 in the record (the ids are in /history/games)"
    )
    # The server checks it too, and only reads.
    refused = page.request.get(url + "history/games/x%3Cb%3E")
    assert refused.status == 400 and "'x<b>' is not a whole number" in refused.text()
    assert refused.headers["content-type"].startswith("text/plain")
    assert page.request.get(url + "history/games/99999999999999").status == 400  # too many digits
    assert page.request.post(url + "history/games").status == 405
    listed = page.request.get(url + "history/games")
    assert listed.ok and listed.headers["content-security-policy"].startswith("default-src 'self'")
    page.goto(url + "#game=-1")  # the imported game: ids below zero
    expect(page.locator("#history-ply")).to_have_text("move 2 of 2: c7-c6")


def test_screenshot_of_a_game_replayed(page: Page) -> None:
    """The docs' picture of the history (docs/history.png), written when
    NESTREF_UPDATE_SCREENS=1: the list, and the game being played shown at its first move."""
    for origin, target in (("c3", "c4"), ("c7", "c6"), ("c4", "c5")):
        move_by_hand(page, origin, target)
    expect(moves(page)).to_have_count(3)
    page.locator("#history-refresh").click()
    rows(page).nth(0).get_by_role("button", name="Replay").click()
    expect(page.locator("#history-ply")).to_have_text("move 3 of 3: c4-c5")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#history-ply")).to_have_text("move 1 of 3: c3-c4")
    expect(page.locator("#nest .cell.lit .hex").first).to_have_css("stroke-width", "1.5px")  # the live lights hidden
    page.set_viewport_size({"width": 1280, "height": 1100})  # the nest and the past games at once
    page.evaluate("window.scrollTo(0, 0)")
    png = page.screenshot()
    if os.environ.get("NESTREF_UPDATE_SCREENS") == "1":
        HISTORY_SCREENSHOT.write_bytes(png)
    with Image.open(io.BytesIO(png)) as taken, Image.open(HISTORY_SCREENSHOT) as shown:
        assert taken.size == shown.size == (1280, 1100)
