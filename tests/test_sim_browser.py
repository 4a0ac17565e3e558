"""The simulator's page in a real browser: ``nestref sim`` started as a user starts it,
its page driven in headless Chromium with Playwright, clicking and dragging pieces as a
player would. What the tests read is what the page shows, and the page shows only what
the daemon's simulated devices and the referee say.

They need Debian's Chromium (``/usr/bin/chromium``; Playwright downloads no browser
here), which ``.ci/chromium`` installs; without it they fail, saying so. The server's Content-Security-Policy forbids
``eval``, which Playwright's ``wait_for_function`` needs: the tests wait with ``expect``
on what the page shows instead, and so also check the page keeps to that policy.
"""

from __future__ import annotations

import io
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, WebSocket, expect, sync_playwright

from firmware_host.games.cuckoo.rules import Kind, Move, Nest, Position, Side

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NESTREF = str(Path(sys.executable).parent / "nestref")
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = ROOT / "docs" / "simulator.png"
START_S = 30  # the simulator's start, on a slow machine
WAIT_MS = 10_000  # for what the daemon shows: it settles moves for 250 ms, scans at 200 Hz

expect.set_options(timeout=WAIT_MS)

# The opening of a game as the nest felt it: three steps, then blue takes by hand.
OPENING_LOG = """\
# lineup: standard
0 c3-
300 c4+
1000 c7-
1300 c6+
2000 c4-
2300 c5+
3000 c5-     # the red egg taken off first,
3300 c6-     # then the blue egg lifted
3600 c5+     # and put down in its place
"""
OPENING_MOVES = ["c3-c4", "c7-c6", "c4-c5", "c6xc5"]


# -- the simulator and the browser --------------------------------------------------------


class Simulator:
    """``nestref sim`` in a subprocess, on ``port`` (0: a free one), with its games in
    memory (or in the file ``db``)."""

    def __init__(
        self, cwd: Path, port: int = 0, host: str = "127.0.0.1", db: str = ":memory:", options: tuple[str, ...] = ()
    ) -> None:
        self.stderr = (cwd / "sim.stderr").open("a+", encoding="utf-8")
        self.process = subprocess.Popen(
            [NESTREF, "sim", "--host", host, "--port", str(port), "--no-browser", "--db", db, *options],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.pin = ""  # the PIN it printed, when it serves the network
        # Read on a thread, all along: a pipe nobody reads would stop the simulator
        # once full, and the first line must be waited for with a timeout.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.url = self._wait_for_url()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _wait_for_url(self) -> str:
        url = ""
        while True:
            try:
                line = self._lines.get(timeout=START_S)
            except queue.Empty:
                line = None
            if line is None:
                self.close()
                raise AssertionError(f"nestref sim printed no address; its stderr:\n{self.log()}")
            if pin := re.match(r"Players on other machines need the PIN (\d{6})", line):
                self.pin = pin.group(1)
            match = re.match(r"Simulator: (http://\S+/)", line)
            if match:
                url = match.group(1)
            if line.startswith("Ctrl-C stops it."):  # the last line it prints at start
                return url

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()[-3000:]

    def close(self) -> None:
        if self.process.returncode is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=5)
        assert self.process.stdout is not None
        self.process.stdout.close()
        self.stderr.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), f"the page's tests need Debian's chromium at {CHROMIUM}: run sh .ci/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def simulator(tmp_path: Path) -> Iterator[Simulator]:
    simulator = Simulator(tmp_path)
    yield simulator
    simulator.close()


@pytest.fixture
def page(browser: Browser, simulator: Simulator) -> Iterator[Page]:
    """The simulator's page, connected; closed before the simulator stops (a page left
    open would log its reconnection attempts). Fails the test on any console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = console_errors(page)
    page.goto(simulator.url)
    expect(page.locator("#connection")).to_have_text("connected")
    # The socket opens before the first messages come: a key pressed before the page
    # has the table would do nothing. The lineup drawn, the page is ready.
    expect(page.locator("#nest [data-piece]")).to_have_count(34)
    expect(page.locator("#oled")).to_have_attribute("alt", re.compile(r"^RED / to move"))
    yield page
    context.close()
    assert errors == [], f"the page logged errors: {errors}"


def console_errors(page: Page) -> list[str]:
    """The errors the page logs from now on, as they come."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    return errors


def sent_messages(page: Page) -> list[dict[str, object]]:
    """The messages the page sends on its WebSockets opened from now on."""
    sent: list[dict[str, object]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return sent


# -- what a player does -------------------------------------------------------------------


def piece(page: Page, cell: str) -> Locator:
    return page.locator(f'#nest [data-piece][data-cell="{cell}"]')


def cell(page: Page, name: str) -> Locator:
    return page.locator(f'#nest .cell[data-cell="{name}"]')


def oled(page: Page) -> Locator:
    return page.locator("#oled")


def moves(page: Page) -> Locator:
    """The moves of the game, one per ply (the page numbers them by moves)."""
    return page.locator("#moves .ply")


def lift(page: Page, origin: str) -> None:
    piece(page, origin).click()
    expect(piece(page, origin)).to_have_count(0)


def put(page: Page, target: str) -> None:
    cell(page, target).click()
    expect(piece(page, target)).to_have_count(1)


def move_by_hand(page: Page, origin: str, target: str) -> None:
    """Lift the piece on ``origin`` and put it down on ``target``, as two clicks."""
    lift(page, origin)
    put(page, target)


def slide(page: Page, origin: str, target: str, *, steps: int = 12) -> None:
    """Drag the piece on ``origin`` to ``target`` with the mouse, in ``steps`` moves."""
    start = piece(page, origin).bounding_box()
    end = cell(page, target).bounding_box()
    assert start is not None and end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=steps)
    page.mouse.up()


def expect_turn(page: Page, side: str) -> None:
    expect(oled(page)).to_have_attribute("alt", re.compile(rf"^{side.upper()} / to move"))


def play_to_a_compulsory_capture(page: Page) -> None:
    for origin, target in (("c3", "c4"), ("c7", "c6"), ("c4", "c5")):
        move_by_hand(page, origin, target)
    expect(moves(page)).to_have_text(OPENING_MOVES[:3])
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^CAPTURE / blue must take: / c6xc5"))


# -- the tests -------------------------------------------------------------------------------


def test_the_page_draws_the_nest_and_a_lineup_set_up(page: Page) -> None:
    expect(page.locator("#nest .cell[data-cell]")).to_have_count(61)
    expect(page.locator("#nest .cell.home-red")).to_have_count(3)
    expect(page.locator("#nest .cell.home-blue")).to_have_count(3)

    page.locator("#clear").click()
    expect(page.locator("#nest [data-piece]")).to_have_count(0)
    expect(page.locator("#box [data-piece-id]")).to_have_count(34)

    page.locator("#setup").click()
    expect(page.locator("#nest [data-piece]")).to_have_count(34)
    expect(page.locator("#box [data-piece-id]")).to_have_count(0)
    for where, letter in {"c1": "C", "b1": "W", "d1": "W", "a3": "E", "c9": "c", "b9": "w", "g7": "e"}.items():
        expect(piece(page, where)).to_have_attribute("data-piece", letter)
    expect(piece(page, "d3")).to_have_count(0)
    expect_turn(page, "red")
    expect(page.locator("#light-red_turn")).to_have_class(re.compile(r"\bon\b"))
    expect(page.locator("#light-blue_turn")).not_to_have_class(re.compile(r"\bon\b"))
    expect(page.locator("#to-move")).to_have_text("red")
    expect(oled(page)).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))


def test_moves_made_by_clicking_and_by_dragging(page: Page) -> None:
    lift(page, "c3")
    expect(page.locator("#hand [data-piece-id]")).to_have_count(1)
    put(page, "c4")
    expect(page.locator("#hand [data-piece-id]")).to_have_count(0)
    expect(moves(page)).to_have_text(["c3-c4"])
    expect_turn(page, "blue")

    move_by_hand(page, "c7", "c6")
    expect(moves(page)).to_have_text(["c3-c4", "c7-c6"])
    expect_turn(page, "red")

    slide(page, "c4", "c5")
    expect(piece(page, "c5")).to_have_attribute("data-piece", "E")
    expect(moves(page)).to_have_text(["c3-c4", "c7-c6", "c4-c5"])
    # Numbered as players count moves: a move is the starter's and the reply.
    numbered = page.locator("#moves li")
    expect(numbered).to_have_count(2)
    expect(numbered.nth(0).locator(".ply")).to_have_text(["c3-c4", "c7-c6"])
    expect(numbered.nth(1).locator(".ply")).to_have_text(["c4-c5"])
    expect(page.locator("#signals li").filter(has_text="move c4-c5")).to_have_count(1)


def test_an_illegal_move_is_shown_until_it_is_put_right(page: Page) -> None:
    move_by_hand(page, "a3", "a5")
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^ILLEGAL / a3-a5: too far / move a5 to a3"))
    # Where the piece must go back to is lit steadily (its own cell blinks).
    expect(cell(page, "a3")).to_have_class(re.compile(r"\blit\b"))
    expect(page.locator("#bezel")).to_have_class(re.compile(r"\balert\b"))
    expect(moves(page)).to_have_count(0)

    move_by_hand(page, "a5", "a3")
    expect_turn(page, "red")
    expect(page.locator("#nest .cell.lit")).to_have_count(0)
    move_by_hand(page, "c3", "c4")
    expect(moves(page)).to_have_text(["c3-c4"])


def test_the_computer_plays_blue_once_chosen_on_the_page(page: Page) -> None:
    page.select_option("#computer-level", "1")
    page.select_option("#player-blue", "computer")
    expect(page.locator("#computer-state")).to_have_text("level 1, waiting")
    move_by_hand(page, "c3", "c4")
    # The computer's move, in big letters on the OLED; its cells lit on the nest.
    expect(page.locator("#computer-state")).to_have_text(re.compile(r"^plays [a-i]\d-[a-i]\d: make it on the nest$"))
    chosen = str(page.evaluate("window.nestref.game.computer_move"))
    origin, target = chosen.split("-")
    expect(oled(page)).to_have_attribute("alt", re.compile(rf"^{chosen} / computer's move / make it"))
    expect(cell(page, target)).to_have_class(re.compile(r"\blit\b"))
    move_by_hand(page, origin, target)
    expect(moves(page)).to_have_text(["c3-c4", chosen])
    expect_turn(page, "red")
    expect(page.locator("#player-blue")).to_have_value("computer")


def test_a_fast_drag_slides_over_the_cells_it_jumped(page: Page) -> None:
    # One mouse move from c3 to c5: the page fills in c4, as the piece crosses it.
    slide(page, "c3", "c5", steps=1)
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^ILLEGAL / c3-c5: too far"))
    assert page.evaluate("window.nestref.lastError") is None
    slide(page, "c5", "c3", steps=1)
    expect_turn(page, "red")


def test_a_capture_made_by_hand(page: Page) -> None:
    play_to_a_compulsory_capture(page)
    expect(page.locator("#light-capture")).to_have_class(re.compile(r"\bon\b"))
    expect(cell(page, "c5")).to_have_class(re.compile(r"\blit\b"))  # the target: steady

    page.locator("#knock-mode").click()
    piece(page, "c5").click()
    expect(page.locator('#box [data-letter="E"]')).to_have_count(1)
    page.locator("#knock-mode").click()
    move_by_hand(page, "c6", "c5")

    expect(moves(page)).to_have_text(OPENING_MOVES)
    expect(piece(page, "c5")).to_have_attribute("data-piece", "e")
    expect_turn(page, "red")
    expect(page.locator("#light-capture")).not_to_have_class(re.compile(r"\bon\b"))


def test_a_capture_by_hand_in_either_order_puts_down_the_capturer(page: Page) -> None:
    # The capturer lifted first, then the piece it takes: the hand puts down the
    # capturer, the piece of the side to move, not the one lifted last.
    play_to_a_compulsory_capture(page)
    lift(page, "c6")
    lift(page, "c5")
    expect(page.locator('#hand [data-letter="e"]')).to_have_class(re.compile(r"\bnext\b"))
    put(page, "c5")
    expect(piece(page, "c5")).to_have_attribute("data-piece", "e")
    expect(moves(page)).to_have_text(OPENING_MOVES)
    expect(page.locator('#hand [data-letter="E"]')).to_have_count(1)  # the red egg, to put in the box
    expect_turn(page, "red")


def test_different_pieces_in_the_hand_are_the_players_choice(page: Page) -> None:
    lift(page, "c3")
    lift(page, "c1")
    expect(page.locator("#hand-choose")).to_be_visible()
    expect(page.locator("#hand .next")).to_have_count(0)
    cell(page, "d4").click()  # which one? the page says so, and nothing is put down
    expect(page.locator("#status")).to_contain_text("click the one to put down")
    expect(piece(page, "d4")).to_have_count(0)
    page.locator('#hand [data-letter="E"]').click()
    expect(page.locator('#hand [data-letter="E"]')).to_have_class(re.compile(r"\bnext\b"))
    put(page, "c4")
    expect(piece(page, "c4")).to_have_attribute("data-piece", "E")
    expect(page.locator("#hand-choose")).to_be_hidden()
    put(page, "c1")  # the one piece left goes down unasked
    expect(moves(page)).to_have_text(["c3-c4"])


def test_pieces_moved_with_the_keyboard(page: Page) -> None:
    cell(page, "c3").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hand [data-piece-id]")).to_have_count(1)
    cell(page, "c4").focus()
    page.keyboard.press("Enter")
    expect(moves(page)).to_have_text(["c3-c4"])
    cell(page, "a7").focus()
    page.keyboard.press("k")
    expect(page.locator('#box [data-letter="e"]')).to_have_count(1)


def test_a_capture_by_sliding_onto_the_piece_recorded_and_replayed(page: Page, tmp_path: Path) -> None:
    page.locator("#record-start").click()
    expect(page.locator("#record-stop")).to_be_enabled()
    play_to_a_compulsory_capture(page)
    slide(page, "c6", "c5")  # pushes the red egg off into the box
    expect(moves(page)).to_have_text(OPENING_MOVES)
    expect(piece(page, "c5")).to_have_attribute("data-piece", "e")
    expect(page.locator('#box [data-letter="E"]')).to_have_count(1)
    page.locator("#record-stop").click()
    expect(page.locator("#record-download")).to_be_visible()

    log = tmp_path / "capture.log"
    log.write_text(page.evaluate("window.nestref.lastRecording"), encoding="utf-8")
    page.locator("#log-file").set_input_files(log)
    expect(moves(page)).to_have_count(0)
    page.locator("#replay-speed").select_option("10")
    page.locator("#replay-play").click()
    expect(moves(page)).to_have_text(OPENING_MOVES)


def test_a_piece_knocked_off_goes_to_the_box_and_comes_back(page: Page) -> None:
    piece(page, "a3").click(button="right")
    expect(piece(page, "a3")).to_have_count(0)
    expect(page.locator('#box [data-letter="E"]')).to_have_count(1)
    page.locator('#box [data-letter="E"]').click()
    expect(page.locator('#hand [data-letter="E"]')).to_have_count(1)
    page.locator("#drop").click()
    expect(page.locator('#box [data-letter="E"]')).to_have_count(1)
    page.locator('#box [data-letter="E"]').click()
    put(page, "a3")
    expect(page.locator("#box [data-piece-id]")).to_have_count(0)
    move_by_hand(page, "a3", "a4")
    expect(moves(page)).to_have_text(["a3-a4"])


def test_the_take_back_view_is_true_while_the_nest_is_put_right(page: Page) -> None:
    move_by_hand(page, "c3", "c4")
    move_by_hand(page, "c7", "c6")
    move_by_hand(page, "c4", "c5")
    expect(moves(page)).to_have_count(3)
    page.locator("#button-take_back").click()
    # Red's move is taken back: while the nest is put right, red is to move again, on
    # the page and the turn lights, and blue's move is the last.
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^UNDO / move c5 to c4"))
    expect(page.locator("#to-move")).to_have_text("red")
    expect(page.locator("#light-red_turn")).to_have_class(re.compile(r"\bon\b"))
    expect(page.locator("#light-blue_turn")).not_to_have_class(re.compile(r"\bon\b"))
    expect(moves(page)).to_have_text(["c3-c4", "c7-c6"])
    move_by_hand(page, "c5", "c4")
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^RED / to move / last: c7-c6"))


def test_the_nest_buttons_take_back_and_resign_once_confirmed(page: Page) -> None:
    move_by_hand(page, "c3", "c4")
    expect(moves(page)).to_have_text(["c3-c4"])
    page.locator("#button-take_back").click()
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^UNDO / move c4 to c3"))
    expect(moves(page)).to_have_count(0)
    move_by_hand(page, "c4", "c3")
    expect_turn(page, "red")

    # What a held button does is a named control, never a bare "hold"; resigning asks first.
    expect(page.get_by_role("button", name=re.compile(r"^hold", re.IGNORECASE))).to_have_count(0)
    resign = page.get_by_role("button", name="Resign…")
    dialog = page.locator("#confirm-dialog")
    move_by_hand(page, "c3", "c4")
    move_by_hand(page, "c7", "c6")
    expect_turn(page, "red")
    resign.click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("red resigns: blue wins this game.")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    expect_turn(page, "red")  # nothing happened
    expect(page.locator("#signals li").filter(has_text="resigned")).to_have_count(0)

    resign.click()
    dialog.get_by_role("button", name="Resign for red").click()
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^BLUE WINS / red resigned / set up for game 2"))
    expect(page.locator("#score")).to_have_text("red 0 \N{EN DASH} 1 blue")
    expect(page.locator("#game-view")).to_have_text("game over")
    expect(resign).to_be_disabled()  # no game on: nobody to resign

    # A long press on the button itself, as a finger holds it on the nest, asks too.
    sent = sent_messages(page)
    page.reload()
    page.locator("#setup").click()
    expect_turn(page, "blue")  # the starting side alternates
    move_by_hand(page, "c7", "c6")
    move_by_hand(page, "c3", "c4")
    expect_turn(page, "blue")
    page.locator("#button-take_back").hover()
    page.mouse.down()
    expect(dialog).to_be_visible()
    page.mouse.up()
    expect(dialog).to_contain_text("blue resigns: red wins this game.")
    dialog.get_by_role("button", name="Resign for blue").click()
    expect(page.locator("#signals li").filter(has_text="red wins: blue resigned")).to_have_count(1)
    expect(page.locator("#score")).to_have_text("red 1 \N{EN DASH} 1 blue")
    buttons = [{key: message[key] for key in message if key != "id"} for message in sent if message["type"] == "button"]
    assert buttons == [{"type": "button", "name": "take_back", "hold": True}]


def test_a_new_game_only_once_confirmed(page: Page) -> None:
    move_by_hand(page, "c3", "c4")
    new_game = page.get_by_role("button", name="New game…")
    dialog = page.locator("#confirm-dialog")
    new_game.click()
    expect(dialog).to_contain_text("This game will not count")
    page.keyboard.press("Escape")  # as good as Cancel
    expect(dialog).to_be_hidden()
    expect_turn(page, "blue")
    new_game.click()
    dialog.get_by_role("button", name="Stop and set up").click()
    expect(page.locator("#game-view")).to_have_text("setting up")
    expect(moves(page)).to_have_count(0)


def test_a_sensor_log_replayed(page: Page, tmp_path: Path) -> None:
    log = tmp_path / "opening.log"
    log.write_text(OPENING_LOG, encoding="utf-8")
    move_by_hand(page, "a3", "a4")  # a game under way: loading a log starts again
    expect(moves(page)).to_have_count(1)

    page.locator("#log-file").set_input_files(log)
    expect(page.locator("#replay-status")).to_have_text("0 / 9 events, paused")
    expect(moves(page)).to_have_count(0)
    expect(piece(page, "a3")).to_have_count(1)

    page.locator("#replay-step").click()
    expect(page.locator("#replay-status")).to_have_text("1 / 9 events, paused")
    expect(piece(page, "c3")).to_have_count(0)

    page.locator("#replay-speed").select_option("10")
    page.locator("#replay-play").click()
    expect(moves(page)).to_have_text(OPENING_MOVES)
    expect(page.locator("#replay-status")).to_have_text("9 / 9 events, all played")
    expect(piece(page, "c5")).to_have_attribute("data-piece", "e")
    expect(page.locator("#replay-play")).to_be_disabled()


def test_a_game_recorded_replays_to_the_same_moves(page: Page, tmp_path: Path) -> None:
    page.locator("#record-start").click()
    expect(page.locator("#record-stop")).to_be_enabled()
    move_by_hand(page, "c3", "c4")
    slide(page, "c7", "c6")
    expect(moves(page)).to_have_text(["c3-c4", "c7-c6"])
    page.locator("#record-stop").click()

    download = page.locator("#record-download")
    expect(download).to_be_visible()
    expect(download).to_have_attribute("download", "nestref-sensors.log")
    recording = page.evaluate("window.nestref.lastRecording")
    assert recording.startswith("# recorded by nestref sim\n# position: ewcwe/")
    assert re.search(r"^\d+ c3-$", recording, re.MULTILINE) and re.search(r"^\d+ c6\+$", recording, re.MULTILINE)

    log = tmp_path / "recorded.log"
    log.write_text(recording, encoding="utf-8")
    page.locator("#log-file").set_input_files(log)
    expect(moves(page)).to_have_count(0)
    page.locator("#replay-play").click()
    expect(moves(page)).to_have_text(["c3-c4", "c7-c6"])


def test_the_page_reconnects_when_the_simulator_comes_back(browser: Browser, tmp_path: Path) -> None:
    first = Simulator(tmp_path)
    port = int(first.url.rsplit(":", 1)[1].strip("/"))
    page = browser.new_page()
    errors = console_errors(page)
    try:
        page.goto(first.url)
        move_by_hand(page, "c3", "c4")
        expect(moves(page)).to_have_text(["c3-c4"])
        first.close()
        expect(page.locator("#connection")).to_contain_text("disconnected")
        expect(page.locator("#setup")).to_be_disabled()

        second = Simulator(tmp_path, port=port)
        try:
            expect(page.locator("#connection")).to_have_text("connected")
            expect(page.locator("#setup")).to_be_enabled()
            expect(moves(page)).to_have_count(0)  # a new simulator: a new game
            move_by_hand(page, "c3", "c4")
            expect(moves(page)).to_have_text(["c3-c4"])
        finally:
            page.close()
            second.close()
    finally:
        first.close()
    # While the simulator was away, the browser logged the failed connections; nothing else.
    assert [error for error in errors if "WebSocket connection to" not in error] == []


def test_on_the_network_the_page_acts_only_with_the_pin(browser: Browser, tmp_path: Path) -> None:
    simulator = Simulator(tmp_path, host="0.0.0.0")  # on the network: the PIN is needed
    page = browser.new_page()
    errors = console_errors(page)
    try:
        page.goto(simulator.url)
        expect(page.locator("#pin-form")).to_be_visible()
        expect(page.locator("#setup")).to_be_disabled()
        # The PIN is on the nest's own screen (and the terminal), not on a page without it.
        expect(oled(page)).to_have_attribute("alt", re.compile(r"PIN \*\*\*\* "))
        assert re.fullmatch(r"\d{6}", simulator.pin)
        page.locator("#pin").fill("0000" if simulator.pin != "0000" else "1111")
        page.keyboard.press("Enter")
        expect(page.locator("#status")).to_have_text("wrong PIN")
        expect(page.locator("#setup")).to_be_disabled()

        page.locator("#pin").fill(simulator.pin)
        page.keyboard.press("Enter")
        expect(page.locator("#pin-form")).to_be_hidden()
        expect(oled(page)).to_have_attribute("alt", re.compile(rf"PIN {simulator.pin} "))
        move_by_hand(page, "c3", "c4")
        expect(moves(page)).to_have_text(["c3-c4"])

        page.reload()  # the session is kept: no PIN again
        expect(page.locator("#setup")).to_be_enabled()
        expect(page.locator("#pin-form")).to_be_hidden()

        # A second player, in a browser of their own, with the PIN; then the first asks
        # for a new one: the second must give it, the first plays on.
        other = browser.new_context().new_page()
        other_errors = console_errors(other)
        other.goto(simulator.url)
        other.locator("#pin").fill(simulator.pin)
        other.keyboard.press("Enter")
        expect(other.locator("#setup")).to_be_enabled()
        page.locator("#new-pin").click()
        expect(other.locator("#pin-form")).to_be_visible()
        expect(other.locator("#setup")).to_be_disabled()
        expect(other.locator("#oled")).to_have_attribute("alt", re.compile(r"PIN \*\*\*\* "))
        expect(oled(page)).not_to_have_attribute("alt", re.compile(rf"PIN {simulator.pin} "))
        new_pin = re.search(r"PIN (\d{6}) ", oled(page).get_attribute("alt") or "")
        assert new_pin is not None
        expect(page.locator("#setup")).to_be_enabled()
        other.locator("#pin").fill(new_pin.group(1))
        other.keyboard.press("Enter")
        expect(other.locator("#setup")).to_be_enabled()
        other.context.close()
        assert [error for error in other_errors if "session has ended" not in error] == []
    finally:
        page.close()
        simulator.close()
    assert errors == []


def make_on_the_page(page: Page, move: Move) -> None:
    """``move`` made with the page's visible controls, as a player makes it: a capture
    by lifting the capturer and the piece it takes, putting the capturer down on the
    target (the hand puts down the side to move's piece) and the other into the box."""
    assert move.origin is not None and move.target is not None
    lift(page, move.origin)
    if move.is_capture:
        lift(page, move.target)
        cell(page, move.target).click()
        expect(page.locator("#hand [data-piece-id]")).to_have_count(1)
        page.locator("#drop").click()
        expect(page.locator("#hand [data-piece-id]")).to_have_count(0)
    else:
        put(page, move.target)


def hurried_move(position: Position, rng: random.Random) -> Move:
    """A player who knows the rules and one way to win: the cuckoo onto a homebase of
    the other side. A cuckoo's move that brings it closer to one, if there is one (the
    closest), else any legal move at random."""
    nest = Nest.default()
    homes = nest.homebases(position.turn.opponent)
    pieces = position.pieces()

    def distance(cell: str) -> int:
        return min(nest.distance(cell, home) for home in homes)

    legal = [move for move in position.legal_moves() if not move.is_pass]
    if not legal:
        return position.legal_moves()[0]  # a pass
    nearer = [
        move
        for move in legal
        if move.origin is not None
        and move.target is not None
        and pieces[move.origin].kind is Kind.CUCKOO
        and distance(move.target) < distance(move.origin)
    ]
    if nearer:
        return min(nearer, key=lambda move: distance(move.target or ""))
    return rng.choice(legal)


def test_a_whole_game_against_level_1_with_the_visible_controls(page: Page) -> None:
    """The first hour's game: the computer chosen on the page, then every move made by
    clicking, the human's by a player who knows only the rules, the computer's as the
    page shows it; to the end, and the page says how the next game starts."""
    page.select_option("#computer-level", "1")
    page.select_option("#player-blue", "computer")
    next_step = page.locator("#next-step")
    position_text = page.locator("#position-text")
    rng = random.Random(14)
    captures = 0
    for _ in range(300):
        expect(next_step).to_have_text(re.compile(r"^(Red to move|The computer plays \S+: make|Game over)"))
        words = next_step.inner_text()
        if words.startswith("Game over"):
            break
        shown = position_text.inner_text()
        position = Position.from_nfn(shown)
        if words.startswith("Red to move"):
            assert position.turn is Side.RED
            move = hurried_move(position, rng)
        else:
            move = Move.from_text(words.split()[3].rstrip(":"))
            assert move in position.legal_moves()
        if not move.is_pass:  # a side without a move passes by itself
            make_on_the_page(page, move)
        captures += move.is_capture
        expect(position_text).not_to_have_text(shown)  # the move is on record
    else:
        raise AssertionError("the game did not end in 300 moves")
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^(RED WINS|BLUE WINS|DRAW) / "))
    expect(next_step).to_contain_text("For the next game: “Set up lineup”")
    assert moves(page).count() >= 4 and captures >= 1, (moves(page).count(), captures)


def test_how_to_play_and_what_to_do_next(page: Page) -> None:
    panel = page.locator("#how-to-play")
    expect(panel).to_have_attribute("open", "")
    pieces = page.locator("#how-to-play-pieces li")
    expect(pieces).to_have_count(6)
    expect(page.locator("#how-to-play-pieces .glyph")).to_have_count(6)  # drawn as on the nest
    expect(pieces.first.locator("span")).to_have_text("red cuckoo")
    rules = page.locator("#how-to-play-rules")
    for words in (
        "An egg steps one cell forward",  # how the pieces move
        "If you can capture, you must",
        "for red (who plays up the page) up-left and up-right",  # what forward is on a hex
        "(1) all you have left is your cuckoo",  # the four ways to win, numbered as the OLED says them
        "(2) you capture the other cuckoo",
        "(3) your cuckoo reaches one of the other side's homebases",
        "(4) an enemy piece other than its cuckoo enters one of your homebases",
        "A set is the best of three games",
    ):
        expect(rules).to_contain_text(words)
    # A picture of each kind of move, beside the words: drawn (the SVG loads), named for a screen reader.
    pictures = rules.locator(".how-pictures img")
    expect(pictures).to_have_count(4)
    expect(pictures.nth(0)).to_have_attribute("alt", "an egg's two steps forward")
    expect(rules.locator("li").nth(3).locator("img")).to_have_count(2)  # the captures, beside the capture rule
    for k in range(4):
        assert pictures.nth(k).evaluate("image => image.complete && image.naturalWidth > 0"), k
    expect(page.locator("#how-to-play-homes")).to_contain_text("red's b1 c1 d1; blue's b9 c9 d9")

    # The first game's first move: whose turn, and how to move, on the page and the OLED.
    next_step = page.locator("#next-step")
    expect(next_step).to_have_text("Red to move: lift a piece to move it.")
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^RED / to move / lift a piece / to move it"))
    move_by_hand(page, "c3", "c4")
    expect(next_step).to_have_text("Blue to move.")

    panel.locator("summary").click()
    expect(rules).to_be_hidden()
    page.locator("#how-to-play-link").click()
    expect(rules).to_be_visible()

    # After a result: how the next game starts.
    page.get_by_role("button", name="Resign…").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Resign for blue").click()
    expect(next_step).to_contain_text("Game over. For the next game: “Set up lineup”")
    expect(oled(page)).to_have_attribute("alt", re.compile(r"^RED WINS / blue resigned / set up for game 2"))
    page.locator("#setup").click()
    expect(next_step).to_have_text("Blue to move: lift a piece to move it.")


def test_the_page_fits_a_phone(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    if os.environ.get("NESTREF_UPDATE_SCREENS") == "1":
        page.screenshot(path=str(ROOT / "docs" / "simulator-phone.png"))
    nest = page.locator("#nest").bounding_box()
    assert nest is not None and nest["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The OLED comes right after the nest, before the hand and the box; it and whose
    # turn it is are on the first screen, without scrolling.
    device = page.locator("#oled").bounding_box()
    hand = page.locator("#hand-heading").bounding_box()
    assert device is not None and hand is not None and device["y"] < hand["y"]
    assert page.evaluate("window.scrollY") == 0
    for shown in ("#nest", "#oled", "#next-step", "#light-red_turn"):
        box = page.locator(shown).bounding_box()
        assert box is not None and box["height"] > 0, shown
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (shown, box)
    expect(page.locator("#next-step")).to_have_text("Red to move: lift a piece to move it.")
    expect(page.locator(".hint")).to_contain_text("tap")


def test_screenshot_of_a_game(page: Page) -> None:
    """The README's picture of the simulator, written when NESTREF_UPDATE_SCREENS=1."""
    play_to_a_compulsory_capture(page)
    lift(page, "c6")
    expect(page.locator("#hand [data-piece-id]")).to_have_count(1)
    png = page.screenshot()
    if os.environ.get("NESTREF_UPDATE_SCREENS") == "1":
        SCREENSHOT.write_bytes(png)
    # The README shows the picture: it is there, and of the page as the tests see it.
    with Image.open(io.BytesIO(png)) as taken, Image.open(SCREENSHOT) as shown:
        assert taken.size == shown.size == (1280, 800)
