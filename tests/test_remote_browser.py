"""Two nests at a distance in real Chromium: two ``nestref sim --broker`` processes, each
with its own SQLite file, through a real Mosquitto (tests/broker.py); a tab on each,
driven by its visible controls (the remote panel's buttons and code form, pieces
clicked on the nest). One simulator is killed with SIGKILL mid-game and started again
on the same file: it resumes the set, and the game goes on."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.broker import Broker
from tests.test_sim_browser import Simulator, browser, console_errors, move_by_hand, moves, oled

__all__ = ["browser"]  # the module's browser fixture, shared


class RemoteSimulator(Simulator):
    """``nestref sim --broker URL --db FILE`` in a subprocess, on a free port, its games
    in ``folder``."""

    def __init__(self, folder: Path, broker_url: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder, db=str(folder / "games.sqlite"), options=("--broker", broker_url))

    def kill(self) -> None:
        """Gone at once, as at a power cut: SIGKILL, nothing cleaned up."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self._reader.join(timeout=5)
        assert self.process.stdout is not None
        self.process.stdout.close()
        self.stderr.close()


def open_tab(browser: Browser, url: str) -> tuple[Page, list[str]]:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = console_errors(page)
    page.goto(url)
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#nest [data-piece]")).to_have_count(34)
    expect(page.locator("#remote")).to_be_visible()
    return page, errors


def test_two_tabs_play_through_the_broker_and_a_killed_nest_resumes(browser: Browser, broker: Broker, tmp_path):
    sims = [RemoteSimulator(tmp_path / "red", broker.url), RemoteSimulator(tmp_path / "blue", broker.url)]
    try:
        red, red_errors = open_tab(browser, sims[0].url)
        blue, blue_errors = open_tab(browser, sims[1].url)
        red.locator("#remote-offer").click()
        code = red.locator("#remote-code-shown")
        expect(code).to_have_text(re.compile(r"^[2-9A-Z]{6}$"))
        expect(oled(red)).to_have_attribute("alt", re.compile(rf"^{code.inner_text()} /"))
        blue.locator("#remote-code").fill(code.inner_text())
        blue.locator("#remote-join button[type=submit]").click()
        for page, side in ((red, "red"), (blue, "blue")):
            expect(page.locator("#remote-side")).to_have_text(f"This nest plays {side}.")
            expect(page.locator("#remote-link")).to_have_text("link up")
        move_by_hand(red, "c3", "c4")
        expect(blue.locator("#remote-waiting")).to_have_count(0)
        expect(red.locator("#remote-waiting")).to_have_text("waiting for the copy")
        expect(oled(blue)).to_have_attribute("alt", re.compile(r"^c3-c4 / their move"))
        move_by_hand(blue, "c3", "c4")  # the copy, made by hand on blue's nest
        expect(red.locator("#remote-waiting")).to_have_count(0)
        move_by_hand(blue, "c7", "c6")
        expect(oled(red)).to_have_attribute("alt", re.compile(r"^c7-c6 / their move"))
        move_by_hand(red, "c7", "c6")
        for page in (red, blue):
            expect(moves(page)).to_have_text(["c3-c4", "c7-c6"])

        blue.context.close()
        sims[1].kill()  # blue's nest loses power mid-game
        expect(red.locator("#remote-link")).to_have_text(re.compile(r"^other nest away \d+:\d\d$"))
        move_by_hand(red, "c4", "c5")  # red plays on meanwhile: the broker keeps it for blue
        sims[1] = RemoteSimulator(tmp_path / "blue", broker.url)
        blue, blue_errors = open_tab(browser, sims[1].url)
        expect(blue.locator("#remote-side")).to_have_text("This nest plays blue.")  # the set resumed
        # The nest is set up afresh by the simulator: the players put it as the record has it.
        expect(oled(blue)).to_have_attribute("alt", re.compile(r"FIX NEST|c4-c5"))
        for origin, target in (("c3", "c4"), ("c7", "c6")):
            if blue.locator(f'#nest [data-piece][data-cell="{target}"]').count() == 0:
                move_by_hand(blue, origin, target)
        expect(oled(blue)).to_have_attribute("alt", re.compile(r"^c4-c5 / their move"))
        move_by_hand(blue, "c4", "c5")
        expect(red.locator("#remote-link")).to_have_text("link up")
        expect(red.locator("#remote-waiting")).to_have_count(0)
        for page in (red, blue):
            expect(moves(page)).to_have_text(["c3-c4", "c7-c6", "c4-c5"])
        red.locator("#remote-resign").click()
        expect(oled(blue)).to_have_attribute("alt", re.compile(r"^BLUE WINS"))
        assert red_errors == [] and blue_errors == []
    finally:
        for sim in sims:
            sim.close()
