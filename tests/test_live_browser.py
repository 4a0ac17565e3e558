"""Live boards in a real browser: ``nestref live`` started as a user starts it, against a
real Mosquitto, showing every board published there as a move is made; and the
spectator page of ``nestref run --mock --web`` (publishing its own game) with its
"Live boards" panel listing the other games. Chromium as in test_sim_browser.py."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from firmware_host.games import load_game
from firmware_host.games.base import Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.live import LiveBoard, LiveBoardPublisher
from tests.broker import free_port
from tests.test_live_boards import Collector
from tests.test_sim_browser import browser, console_errors

__all__ = ["browser"]  # the shared browser fixture, used here

NESTREF = str(Path(sys.executable).parent / "nestref")
START_S = 30
WAIT_MS = 10_000

expect.set_options(timeout=WAIT_MS)


class Command:
    """A ``nestref`` command in a subprocess; its output lines read on a thread."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [NESTREF, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, pattern: str) -> re.Match[str]:
        while True:
            try:
                line = self.lines.get(timeout=START_S)
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"no line like {pattern!r}; it printed: {''.join(self.seen)}")
            self.seen.append(line)
            if match := re.search(pattern, line):
                return match

    def stop(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=5)
        assert self.process.stdout is not None
        self.process.stdout.close()


def opening(board: str, name: str, *moves: str) -> LiveBoard:
    """The board ``board`` after ``moves`` from the standard lineup, as a nest publishes it."""
    game = load_game("cuckoo")
    position = game.start("standard", Side.RED)
    for move in moves:
        position.push(game.read_move(move))
    pieces = position.pieces()
    return LiveBoard(
        board=board,
        name=name,
        game="cuckoo",
        number=1,
        pieces=tuple((cell, pieces[cell].letter) for cell in game.board.cells if cell in pieces),
        to_move=position.turn,
        last_move=moves[-1] if moves else None,
        moves=len(moves),
    )


def board_card(page: Page, board: str) -> Locator:
    return page.locator(f'.live-board[data-board="{board}"]')


def test_nestref_live_shows_every_board_and_a_move_as_it_is_made(tmp_path, broker, browser):
    settings = BrokerSettings.from_url(broker.url)
    sneaky = '<img src=x onerror="alert(1)">'
    battle = load_game("battle")
    battle_pieces = battle.start("demo", Side.RED).pieces()  # the public view: every piece an X or an x
    with (
        LiveBoardPublisher(settings, board="tableone0001") as one,
        LiveBoardPublisher(settings, board="tabletwo0001") as two,
        LiveBoardPublisher(settings, board="battle000001") as three,
    ):
        one.show(opening("tableone0001", "Table 1"))
        two.show(opening("tabletwo0001", sneaky, "c3-c4"))
        three.show(
            LiveBoard(
                board="battle000001",
                name="Battle",
                game="battle",
                number=1,
                pieces=tuple((cell, piece.letter) for cell, piece in battle_pieces.items()),
                to_move=Side.RED,
            )
        )
        live = Command(["live", "--broker", broker.url, "--port", "0"], tmp_path)
        try:
            url = live.wait_for(r"Live boards of mqtt://127\.0\.0\.1:\d+: (http://\S+/)").group(1)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            errors = console_errors(page)
            page.goto(url)
            expect(page.locator(".live-board")).to_have_count(3)
            squares = board_card(page, "battle000001")  # a square field, drawn from the cells the server sent
            expect(squares.locator("rect.hex")).to_have_count(len(battle.board.cells))
            expect(squares.locator('[data-piece="X"]')).to_have_count(
                sum(piece.letter == "X" for piece in battle_pieces.values())
            )
            expect(board_card(page, "tableone0001").locator(".live-turn")).to_have_text("red to move")
            expect(board_card(page, "tableone0001").locator("[data-piece]")).to_have_count(34)
            expect(board_card(page, "tabletwo0001").locator(".live-name")).to_have_text(sneaky)  # as text
            assert page.locator(".live-board img").count() == 0
            one.show(opening("tableone0001", "Table 1", "c3-c4"))
            expect(board_card(page, "tableone0001").locator(".live-last-move")).to_have_text("move 1: c3-c4")
            expect(board_card(page, "tableone0001").locator(".live-turn")).to_have_text("blue to move")
            expect(board_card(page, "tableone0001").locator('[data-cell="c4"] [data-piece="E"]')).to_have_count(1)
            expect(board_card(page, "tableone0001").locator('[data-cell="c3"] [data-piece]')).to_have_count(0)
            two.close()  # its goodbye: offline
            expect(board_card(page, "tabletwo0001").locator(".live-offline")).to_have_text("offline")
            context.close()
            assert errors == [], f"the page logged errors: {errors}"
        finally:
            live.stop()
    assert live.process.returncode == 0


def test_the_spectator_page_lists_the_other_games_and_the_nest_publishes_its_own(tmp_path, broker, browser):
    settings = BrokerSettings.from_url(broker.url)
    config = tmp_path / "config.toml"
    config.write_text(f'[broker]\nurl = "{broker.url}"\n[live]\npublish = true\nname = "Home nest"\n')
    port = free_port()
    watcher = Collector(settings)
    watcher.boards.start()

    def home() -> LiveBoard | None:
        return next((board for board in watcher.boards.boards() if board.name == "Home nest"), None)

    nest = Command(["run", "--mock", "--config", str(config), "--db", str(tmp_path / "games.sqlite"),
                    "--web", f"127.0.0.1:{port}"], tmp_path)  # fmt: skip
    try:
        with LiveBoardPublisher(settings, board="clubtable001") as club:
            club.show(opening("clubtable001", "Club table", "c3-c4"))
            url = nest.wait_for(r"spectator page at (http://\S+/)").group(1)
            watcher.wait_for(lambda: home() is not None, "the nest's own board")  # its own game, published
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            errors = console_errors(page)
            page.goto(url)
            panel = page.locator("#live-panel")
            expect(panel).to_be_visible()
            expect(panel.locator(".live-board")).to_have_count(1)  # the club's; not the nest's own
            expect(board_card(page, "clubtable001").locator(".live-name")).to_have_text("Club table")
            expect(board_card(page, "clubtable001").locator(".live-last-move")).to_have_text("move 1: c3-c4")
            context.close()
            assert errors == [], f"the page logged errors: {errors}"
        shown = home()
        assert shown is not None and (shown.number, shown.pieces, shown.to_move) == (1, (), None)  # an empty nest
    finally:
        nest.stop()
    try:
        watcher.wait_for(lambda: not getattr(home(), "online", True), "the nest's goodbye")  # stopped by SIGTERM
    finally:
        watcher.boards.close()
