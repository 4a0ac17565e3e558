"""The pages' one WebSocket client (``page/socket.js``) in real Chromium: what the server
never sends but a broken or hostile one might — text that is not JSON, JSON that is no
message, a message of a type the page has no handler of its own for, such as one every
object inherits (``__proto__``, ``toString``) — is left out, warned of on the console and
kept in the page's ``ignored``; nothing is thrown, no such event is dispatched, and the
page goes on: the next real message is handled, a move is still made. The messages are
put into the page's own socket by Playwright's WebSocket route, between the page and
the real simulator."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.test_sim_browser import Simulator, browser, console_errors, move_by_hand, moves, simulator

__all__ = ["browser", "simulator"]  # the fixtures of the page's tests, used here

# What each left out message is, and why the client says it left it out.
UNREADABLE = [
    ("{not json", "not JSON"),
    ("[1, 2]", "not an object"),
    ("null", "not an object"),
    ('"hello"', "not an object"),
    ('{"kind": "MoveAccepted", "text": "move a3-a4"}', "no type"),
    ('{"type": 7}', "no type"),
    ('{"type": "__proto__", "polluted": true}', 'no handler for the type "__proto__"'),
    ('{"type": "toString", "text": "x"}', 'no handler for the type "toString"'),
    ('{"type": "constructor"}', 'no handler for the type "constructor"'),
    ('{"type": "hasOwnProperty"}', 'no handler for the type "hasOwnProperty"'),
    ('{"type": "no_such_type"}', 'no handler for the type "no_such_type"'),
]
STILL_HERE = {"type": "signal", "kind": "Test", "text": "still here"}

# Every event the shared client could dispatch for the messages left out, counted.
COUNT_EVENTS = """
window.__events = [];
for (const type of ["__proto__", "toString", "constructor", "hasOwnProperty", "no_such_type"]) {
  document.addEventListener("nestref:" + type, () => window.__events.push(type));
}
"""


class Between:
    """The page's socket to its server, routed through Playwright: what the server sends
    goes on to the page, and the test may put messages of its own in."""

    def __init__(self, page: Page, path: str) -> None:
        self.routes: list[WebSocketRoute] = []
        page.route_web_socket(re.compile(rf"^ws://[^/]+{re.escape(path)}$"), self._route)

    def _route(self, socket: WebSocketRoute) -> None:
        socket.connect_to_server()  # everything else passes both ways unchanged
        self.routes.append(socket)

    def send(self, text: str) -> None:
        assert self.routes, "the page opened no socket"
        self.routes[-1].send(text)


@pytest.fixture
def watched(browser: Browser) -> Iterator[tuple[Page, list[str], list[str]]]:
    """A fresh page, with its console's errors and warnings as they come."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(COUNT_EVENTS)
    page = context.new_page()
    errors = console_errors(page)
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    yield page, errors, warnings
    context.close()


def put_in_the_unreadable(page: Page, between: Between, warnings: list[str], shared: str) -> None:
    for text, _ in UNREADABLE:
        between.send(text)
    between.send(json.dumps(STILL_HERE))  # the next real message is handled
    expect(page.locator("#signals li", has_text="still here")).to_have_count(1)
    assert page.evaluate(f"window.{shared}.ignored") == [reason for _, reason in UNREADABLE]
    assert page.evaluate("window.__events") == []  # no event for what was left out
    assert page.evaluate("({}).polluted") is None  # no prototype was touched
    for _, reason in UNREADABLE:
        assert any(warning.endswith(f"left out: {reason}") for warning in warnings), (reason, warnings)


def test_the_simulators_page_leaves_out_what_it_cannot_read_and_plays_on(
    simulator: Simulator, watched: tuple[Page, list[str], list[str]]
) -> None:
    page, errors, warnings = watched
    between = Between(page, "/ws")
    page.goto(simulator.url)
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#nest [data-piece]")).to_have_count(34)
    put_in_the_unreadable(page, between, warnings, "nestref")
    # The page says so, and acts as before: a move is made, the record has it.
    expect(page.locator("#status")).to_contain_text("The server sent a message the page does not read")
    move_by_hand(page, "c3", "c4")
    expect(moves(page)).to_have_text(["c3-c4"])
    assert errors == [], f"the page logged errors: {errors}"


def test_a_players_own_screen_leaves_out_what_it_cannot_read(
    simulator: Simulator, watched: tuple[Page, list[str], list[str]]
) -> None:
    page, errors, warnings = watched
    between = Between(page, "/ws/player")
    page.goto(f"{simulator.url}player.html")
    expect(page.locator("#connection")).to_have_text("connected")
    expect(page.locator("#side-title")).to_have_text("no private screens")  # Operation Cuckoo hides nothing
    put_in_the_unreadable(page, between, warnings, "nestrefPlayer")
    assert errors == [], f"the page logged errors: {errors}"
