"""The page's Hint button in real Chromium: the computer's suggestion lit on the nest and
said on the OLED, and the move made next marked ``{hint}`` in the record the page
downloads."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.test_sim_browser import browser, cell, move_by_hand, moves, oled, page, simulator

__all__ = ["browser", "page", "simulator"]  # the fixtures of the page's tests, used here


def test_the_hint_button_lights_the_computers_suggestion_and_marks_the_move(page: Page) -> None:
    page.locator("#hint").click()
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^[a-i]\d[-x][a-i]\d / hint for red"))
    hint = str(page.evaluate("document.getElementById('oled').alt")).split(" / ")[0]
    origin, target = re.split(r"[-x]", hint)
    expect(cell(page, origin)).to_have_class(re.compile(r"\blit\b"))
    expect(cell(page, target)).to_have_class(re.compile(r"\blit\b"))
    expect(page.locator("#nest .cell.lit")).to_have_count(2)
    move_by_hand(page, origin, target)
    expect(moves(page)).to_have_text([hint])
    expect(page.locator("#nest .cell.lit")).to_have_count(0)
    expect(page.locator("#signals li[data-kind=MoveAccepted]")).to_have_text([f"move {hint} after a hint"])

    page.locator("#history-refresh").click()
    page.locator("#history-list tbody tr").first.get_by_role("button", name="Replay").click()
    expect(page.locator("#history-ply")).to_have_text(f"move 1 of 1: {hint}")
    with page.expect_download() as download:
        page.locator("#history-download").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert f"1. {hint} {{hint}} *" in text


def test_the_hint_button_is_refused_in_the_computers_turn(page: Page) -> None:
    page.select_option("#computer-level", "1")
    page.select_option("#player-red", "computer")
    expect(page.locator("#computer-state")).to_have_text(re.compile(r"^plays "))
    page.locator("#hint").click()
    expect(page.locator("#status")).to_have_text("it is the computer's turn: it needs no hint")
