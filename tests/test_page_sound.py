"""The page's sound in real Chromium: the nest's cues played with Web Audio from the
daemon's tunes, on the events the piezo sounds, and the mute button, remembered.

The page's AudioContext is instrumented before any of its scripts run (an init script
wraps ``createOscillator``): each oscillator started is recorded with its frequency and
its start and stop times, and logged to the console, which the test waits on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from firmware_host.daemon.tunes import Cue, tune
from tests.test_sim_browser import CHROMIUM, CHROMIUM_ARGS, Simulator, console_errors, move_by_hand, oled

# Web Audio plays without a click first: the cues come from the nest, not from the page.
SOUND_ARGS = [*CHROMIUM_ARGS, "--autoplay-policy=no-user-gesture-required"]

INSTRUMENT = """
window.__oscillators = [];
const created = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const oscillator = created.call(this);
  const entry = { hz: null, start: null, stop: null };
  window.__oscillators.push(entry);
  const start = oscillator.start.bind(oscillator);
  const stop = oscillator.stop.bind(oscillator);
  oscillator.start = (at) => { entry.hz = oscillator.frequency.value; entry.start = at; start(at); };
  oscillator.stop = (at) => {
    if (entry.stop === null) { entry.stop = at; console.debug("oscillator " + JSON.stringify(entry)); }
    stop(at);
  };
  return oscillator;
};
document.addEventListener("nestref:cue", (event) => console.debug("cue " + event.detail.cue));
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), f"the page's tests need Debian's chromium at {CHROMIUM}: run sh .ci/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=SOUND_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def simulator(tmp_path: Path) -> Iterator[Simulator]:
    simulator = Simulator(tmp_path)
    yield simulator
    simulator.close()


def open_page(browser: Browser, simulator: Simulator) -> tuple[Any, Page, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(INSTRUMENT)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(simulator.url)
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#nest [data-piece]")).to_have_count(34)
    return context, page, errors


def oscillators(page: Page) -> list[dict[str, float]]:
    return list(page.evaluate("window.__oscillators"))


def illegal_move(page: Page) -> None:
    move_by_hand(page, "a3", "a5")
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^ILLEGAL"))


def test_an_illegal_move_sounds_its_tune_from_the_daemons_tunes(browser: Browser, simulator: Simulator) -> None:
    context, page, errors = open_page(browser, simulator)
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "false")
    cue_heard = page.expect_console_message(lambda message: message.text == "cue illegal move")
    sounded = page.expect_console_message(lambda message: message.text.startswith("oscillator"))
    with cue_heard, sounded:
        illegal_move(page)
    expected = tune(Cue.ILLEGAL_MOVE)  # two low beeps with a rest between: A4 150 ms, rest 60, A4 250
    notes = [(hz, ms) for hz, ms in expected if hz is not None]
    # The second beep is logged when its stop is scheduled, right after the first's.
    played = oscillators(page)
    assert [entry["hz"] for entry in played] == [pytest.approx(hz, rel=1e-4) for hz, _ in notes]
    for entry, (_, ms) in zip(played, notes, strict=True):
        assert entry["stop"] - entry["start"] == pytest.approx(ms / 1000, abs=1e-6)
    # The rest: the second beep starts 60 ms after the first stops.
    assert played[1]["start"] - played[0]["stop"] == pytest.approx(0.060, abs=1e-6)
    context.close()
    assert errors == []


def test_muted_the_page_sounds_nothing_and_remembers_it(browser: Browser, simulator: Simulator) -> None:
    context, page, errors = open_page(browser, simulator)
    page.locator("#mute").click()
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    with page.expect_console_message(lambda message: message.text == "cue illegal move"):
        illegal_move(page)
    assert oscillators(page) == []  # the cue came, and nothing sounded
    page.reload()  # the choice is remembered
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#mute")).to_have_text("Sound off")
    page.locator("#mute").click()  # sound on again: the next cue is heard
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "false")
    move_by_hand(page, "a5", "a3")  # the nest put right
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^RED / to move"))
    with page.expect_console_message(lambda message: message.text.startswith("oscillator")):
        illegal_move(page)
    assert oscillators(page)[0]["hz"] == pytest.approx(440.0)
    assert json.loads(str(page.evaluate("localStorage.getItem('nestref.muted')"))) == 0
    context.close()
    assert errors == []
