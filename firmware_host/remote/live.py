"""Live boards: every nest that opts in (``[live] publish = true``) publishes its game
to the broker, and a live-boards page shows every game on the broker at once.

One retained topic per board, ``nestref/live/<board>`` (``<board>``: the board's id, 8
to 32 of ``a-z0-9``), holding the board's latest :class:`LiveBoard` as a small JSON
message; the publisher's last will replaces it with an :class:`Offline` message when
the nest drops without a word, and so does the publisher itself when it closes. An
empty retained message (a board cleared by hand, ``mosquitto_pub -r -n``) removes it.

- :class:`LiveBoardPublisher` sends a board's states from a thread of its own (the
  daemon's loop only hands the latest over, never waits), at most one message per
  ``throttle_s`` (a burst of changes is one message, the last state always sent);
- :class:`LiveBoards` (the reader side) subscribes ``nestref/live/+``, reads every
  message strictly (:func:`read_live_message`: its size, its keys, its types, every
  cell and piece by the game's own board and pieces, every move by the game's own
  notation) and keeps the latest state of each board; anything else is dropped with a
  logged warning, never shown.

What is published is what any spectator sees: the game's public view of the position
(:meth:`~firmware_host.games.base.Position.pieces`, which shows no hidden rank), never
the record's notation (which writes every rank), and never the broker's credentials.

>>> from firmware_host.games import load_game
>>> board = LiveBoard(board="nest00000001", name="Table 3", game="cuckoo", number=1,
...                   pieces=(("c3", "E"),), to_move=Side.BLUE, last_move="c2-c3", moves=1)
>>> read_live_message(live_topic("nest00000001"), board.to_bytes(), load_game) == board
True
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Side
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.broker_client import BrokerClient, LastWill
from firmware_host.remote.link import TOPIC_ROOT

logger = logging.getLogger(__name__)

LIVE_VERSION = 1
LIVE_ROOT = f"{TOPIC_ROOT}/live"
MAX_LIVE_BYTES = 16 * 1024
"""A board of a few hundred cells is a few kilobytes; anything bigger is not ours."""
MAX_NAME_CHARS = 40
MAX_MOVE_CHARS = 16
MAX_CLOCK_CHARS = 12
MAX_PLIES = 1000
MAX_GAMES = 21
MAX_BOARDS = 200
"""Boards a collector keeps: a club's evening is a few dozen; a flood of forged board
ids stops here."""
THROTTLE_S = 0.25
"""At most one message a board this often: a move's signals come as a burst."""
BOARD_ID_PATTERN = re.compile(r"[a-z0-9]{8,32}")
CLOCK_PATTERN = re.compile(r"[0-9][0-9:.]*")
RESULTS = ("red", "blue", "draw")


class LiveMessageError(NestrefError, ValueError):
    """A live board's message cannot be believed; the message names the key at fault."""


def live_topic(board: str) -> str:
    """``nestref/live/<board>``."""
    return f"{LIVE_ROOT}/{board}"


def check_board_id(board: str) -> str:
    """``board`` if it is a board's id; raises :class:`LiveMessageError` if not."""
    if not isinstance(board, str) or not BOARD_ID_PATTERN.fullmatch(board):
        raise LiveMessageError(f"board: {str(board)[:40]!r} is not a board's id (8 to 32 of a-z and 0-9)")
    return board


@dataclass(frozen=True)
class LiveBoard:
    """One board's game as any spectator may see it."""

    board: str  # the board's id: its topic's last level
    name: str  # what the live page calls it ("Table 3"; the host name unless the config says)
    game: str  # the game's name (``cuckoo``)
    number: int  # the game's number in its set, from 1; 0 before the first
    pieces: tuple[tuple[str, str], ...]  # (cell, the piece's letter in the public view), in the board's order
    to_move: Side | None = None  # whose move it is, while a game is played
    last_move: str | None = None  # in the game's notation
    moves: int = 0  # moves recorded in the game
    score: tuple[int, int] = (0, 0)  # the set's, red's first
    clock: tuple[str, str] | None = None  # red's and blue's time as the nest shows them
    result: str | None = None  # once the game is over: red, blue or draw
    online: bool = True  # False once its last will (or its goodbye) came

    def to_json(self) -> dict[str, Any]:
        return {
            "v": LIVE_VERSION,
            "type": "board",
            "board": self.board,
            "name": self.name,
            "game": self.game,
            "number": self.number,
            "pieces": dict(self.pieces),
            "to_move": self.to_move.label if self.to_move is not None else None,
            "last_move": self.last_move,
            "moves": self.moves,
            "score": list(self.score),
            "clock": list(self.clock) if self.clock is not None else None,
            "result": self.result,
        }

    def to_bytes(self) -> bytes:
        return _encoded(self.to_json())


@dataclass(frozen=True)
class Offline:
    """A board has gone: its last will, or its goodbye."""

    board: str

    def to_bytes(self) -> bytes:
        return _encoded({"v": LIVE_VERSION, "type": "offline", "board": self.board})


def _encoded(value: dict[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")


GameLoader = Callable[[str], Game]
"""The game of a name (:func:`firmware_host.games.load_game`); raises for a name that
is not one."""

_BOARD_KEYS = frozenset("v type board name game number pieces to_move last_move moves score clock result".split())
_OFFLINE_KEYS = frozenset({"v", "type", "board"})


def read_live_message(topic: str, data: bytes, games: GameLoader) -> LiveBoard | Offline:
    """The message ``data`` on ``topic``, checked through and through: its board id
    that of its topic, its game one of ``games``, every cell on that game's board,
    every piece one of its pieces, the last move in its notation on its cells.

    Raises :class:`LiveMessageError` (and nothing else) naming the key at fault."""
    try:
        return _read(topic, data, games)
    except LiveMessageError:
        raise
    except RecursionError:
        raise LiveMessageError("the message is nested too deeply") from None


def _read(topic: str, data: bytes, games: GameLoader) -> LiveBoard | Offline:
    prefix = LIVE_ROOT + "/"
    if not topic.startswith(prefix):
        raise LiveMessageError(f"topic: {topic[:80]!r} is not under {prefix}")
    board = check_board_id(topic[len(prefix) :])
    if len(data) > MAX_LIVE_BYTES:
        raise LiveMessageError(f"the message has {len(data)} bytes; at most {MAX_LIVE_BYTES} are read")
    try:
        value = json.loads(bytes(data).decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as error:
        raise LiveMessageError(f"the message is not UTF-8: {error.reason} at byte {error.start}") from None
    except json.JSONDecodeError as error:
        raise LiveMessageError(f"the message is not JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(value, dict):
        raise LiveMessageError("the message is not a JSON object")
    version = value.get("v")
    if version != LIVE_VERSION or isinstance(version, bool):
        raise LiveMessageError(f"v: {str(version)[:20]!r} is not the live boards' version ({LIVE_VERSION})")
    kind = value.get("type")
    if kind not in ("board", "offline"):
        raise LiveMessageError(f"type: {str(kind)[:20]!r} is not 'board' or 'offline'")
    _keys(value, _BOARD_KEYS if kind == "board" else _OFFLINE_KEYS)
    if value["board"] != board:
        raise LiveMessageError(f"board: {str(value['board'])[:40]!r} is not its topic's ({board!r})")
    if kind == "offline":
        return Offline(board)
    name = _string(value, "name", MAX_NAME_CHARS)
    if not name.isprintable():
        raise LiveMessageError("name: a board's name is printable characters only")
    game_name = _string(value, "game", 32)
    try:
        game = games(game_name)
    except NestrefError:
        raise LiveMessageError(f"game: {game_name!r} is not a game this page knows") from None
    number = _integer(value, "number", 0, MAX_GAMES)
    score = value["score"]
    if not isinstance(score, list) or len(score) != 2:
        raise LiveMessageError("score: a list of two numbers (red's, blue's)")
    wins = tuple(_integer({"score": points}, "score", 0, 2) for points in score)
    clock = value["clock"]
    if clock is not None:
        if not isinstance(clock, list) or len(clock) != 2:
            raise LiveMessageError("clock: null, or a list of two times (red's, blue's)")
        for time_left in clock:
            if not isinstance(time_left, str) or not 0 < len(time_left) <= MAX_CLOCK_CHARS:
                raise LiveMessageError(f"clock: a time is a string of 1 to {MAX_CLOCK_CHARS} characters")
            if not CLOCK_PATTERN.fullmatch(time_left):
                raise LiveMessageError(f"clock: {time_left!r} is not a time such as 4:59")
    result = value["result"]
    if result is not None and result not in RESULTS:
        raise LiveMessageError(f"result: {str(result)[:20]!r} is not null, 'red', 'blue' or 'draw'")
    to_move = value["to_move"]
    if to_move is not None and to_move not in ("red", "blue"):
        raise LiveMessageError(f"to_move: {str(to_move)[:20]!r} is not null, 'red' or 'blue'")
    return LiveBoard(
        board=board,
        name=name,
        game=game.name,
        number=number,
        pieces=_pieces(value["pieces"], game),
        to_move=Side.from_text(to_move) if to_move is not None else None,
        last_move=_last_move(value["last_move"], game),
        moves=_integer(value, "moves", 0, MAX_PLIES),
        score=(wins[0], wins[1]),
        clock=(clock[0], clock[1]) if clock is not None else None,
        result=result,
    )


def _pieces(value: Any, game: Game) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise LiveMessageError("pieces: an object of cell: piece")
    board = game.board
    letters = game.for_page()["pieces"]
    for cell, letter in value.items():
        if cell not in board:
            raise LiveMessageError(f"pieces: {cell[:20]!r} is not a cell of {game.name}'s board")
        if not isinstance(letter, str) or letter not in letters:
            raise LiveMessageError(f"pieces.{cell}: {str(letter)[:20]!r} is not a piece of {game.name}")
    return tuple((cell, value[cell]) for cell in board.cells if cell in value)


def _last_move(value: Any, game: Game) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_MOVE_CHARS:
        raise LiveMessageError(f"last_move: null, or a move of 1 to {MAX_MOVE_CHARS} characters")
    try:
        move = game.read_move(value)
    except NestrefError as error:
        raise LiveMessageError(f"last_move: {value!r} is not a move of {game.name}: {error}") from None
    for cell in (move.origin, move.target):
        if cell is not None and cell not in game.board:
            raise LiveMessageError(f"last_move: {value!r} leaves the board ({cell})")
    return value


def _keys(value: dict[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(str(key)[:20] for key in value.keys() - allowed)
    if unknown:
        raise LiveMessageError(f"{unknown[0]}: not a key of this message")
    missing = sorted(allowed - value.keys())
    if missing:
        raise LiveMessageError(f"{missing[0]}: missing")


def _string(value: dict[str, Any], key: str, longest: int) -> str:
    text = value[key]
    if not isinstance(text, str) or not 0 < len(text) <= longest:
        raise LiveMessageError(f"{key}: a string of 1 to {longest} characters")
    return text


def _integer(value: dict[str, Any], key: str, lowest: int, highest: int) -> int:
    number = value[key]
    if not isinstance(number, int) or isinstance(number, bool) or not lowest <= number <= highest:
        raise LiveMessageError(f"{key}: a whole number from {lowest} to {highest}")
    return number


def _refuse_constant(name: str) -> Any:
    raise LiveMessageError(f"the message holds {name}, which is not JSON")


# -- the MQTT clients --------------------------------------------------------------------------


class LiveBoardPublisher:
    """Publishes one board's states, retained, to ``nestref/live/<board>``.

    :meth:`show` hands the latest state over and returns at once (from any thread):
    it goes to the client at once if nothing was sent in the last ``throttle_s``, else a
    thread of the publisher's own sends it when that time is up, by then perhaps a
    later state (a burst of changes is one message, or two: its first and its last).
    Each (re)connection sends the latest state again, which
    puts right an ``offline`` the broker may have published for us meanwhile."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        board: str,
        throttle_s: float = THROTTLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.board = check_board_id(board)
        self.topic = live_topic(board)
        self.throttle_s = throttle_s
        self._clock = clock
        self._client = BrokerClient(
            settings,
            client_id=f"nestref-live-{board}",
            what=f"the live board {board}",
            will=LastWill(self.topic, Offline(board).to_bytes()),
            on_connected=self._connected,
        )
        self._changed = threading.Condition()
        self._pending: bytes | None = None  # a state that waits for the throttle's time
        self._latest: bytes | None = None  # the last state published
        self._sent_at = -float("inf")
        self._is_started = False
        self._is_closing = False
        self._sender: threading.Thread | None = None
        self.published = 0  # messages handed to the client (the benchmark reads it)

    def __enter__(self) -> LiveBoardPublisher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Connect in the background (reconnecting until :meth:`close`), and start sending."""
        logger.info("publishing the live board %s to %s", self.board, self.settings.to_text())
        self._client.start()
        self._is_started = True
        self._sender = threading.Thread(target=self._send_states, name="live-board", daemon=True)
        self._sender.start()

    def show(self, board: LiveBoard) -> None:
        """The board's state now: handed to the client at once if nothing was sent in
        the last ``throttle_s`` (paho's ``publish`` only queues it and wakes the client's
        thread, which sends it), else kept for the publisher's thread to send when that
        time is up. Never waits for the network."""
        payload = board.to_bytes()
        with self._changed:
            if self._pending is None and payload == self._latest:
                return  # nothing changed: no message, and no wait for the next change
            if self._pending is None and self._clock() - self._sent_at >= self.throttle_s:
                self._publish(payload)
                return
            self._pending = payload
            self._changed.notify()

    def _publish(self, payload: bytes) -> None:
        """Hand ``payload`` to the client (holding ``_changed``, so that the two threads
        that may send keep their order)."""
        self._latest = payload
        self._client.publish(self.topic, payload)
        self.published += 1
        self._sent_at = self._clock()

    def close(self) -> None:
        """Say the board has gone (``offline``, retained), disconnect, stop the threads."""
        if not self._is_started:
            return
        self._is_started = False
        with self._changed:
            self._is_closing = True
            self._changed.notify()
        if self._sender is not None:
            self._sender.join(timeout=5)
        self._client.stop()  # its goodbye: the last will's offline

    def _send_states(self) -> None:
        """The last state of a burst, once the throttle's time is up."""
        with self._changed:
            while not self._is_closing:
                if self._pending is None:
                    self._changed.wait()
                    continue
                wait = self._sent_at + self.throttle_s - self._clock()
                if wait > 0:
                    self._changed.wait(wait)
                    continue
                payload, self._pending = self._pending, None
                if payload != self._latest:
                    self._publish(payload)

    def _connected(self) -> None:
        latest = self._latest
        if latest is not None:
            self._client.publish(self.topic, latest)


BoardsChanged = Callable[[], None]
"""Told that a board changed, from the client's own thread."""


class LiveBoards:
    """Every board on the broker: the latest state of each, read strictly; a message
    that cannot be believed is dropped (logged), and the board keeps its last good one."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        games: GameLoader,
        on_change: BoardsChanged = lambda: None,
        client_id: str = "",
    ) -> None:
        self.settings = settings
        self._load_game = games
        self.connected = threading.Event()  # set once connected and subscribed
        self.refused = threading.Event()  # set when the broker refused the login (it is tried again)
        self._games: dict[str, Game] = {}  # each game loaded once (a few names at most)
        self._on_change = on_change
        self._client = BrokerClient(
            settings,
            client_id=client_id,
            what="the live boards' reader",
            subscriptions=(f"{LIVE_ROOT}/+",),
            on_connected=self.connected.set,
            on_refused=lambda _: self.refused.set(),
            on_message=self.receive,
        )
        self._lock = threading.Lock()
        self._boards: dict[str, LiveBoard] = {}
        self.dropped = 0  # messages refused so far
        self._warned: set[str] = set()  # topics whose refusal was logged at WARNING
        self.version = 0  # counts every change to the boards

    def __enter__(self) -> LiveBoards:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        logger.info("reading the live boards on %s", self.settings.to_text())
        self._client.start()

    def close(self) -> None:
        self._client.stop()

    def boards(self) -> tuple[LiveBoard, ...]:
        """Every board known, by name, then id."""
        with self._lock:
            return tuple(sorted(self._boards.values(), key=lambda board: (board.name.casefold(), board.board)))

    def board(self, board: str) -> LiveBoard | None:
        with self._lock:
            return self._boards.get(board)

    def _game(self, name: str) -> Game:
        game = self._games.get(name)
        if game is None:
            game = self._games[name] = self._load_game(name)
        return game

    def receive(self, topic: str, payload: bytes) -> bool:
        """Take one message in (the client's thread calls it); whether a board changed."""
        if not payload:  # a retained message cleared: the board is gone
            board = topic.removeprefix(LIVE_ROOT + "/")
            with self._lock:
                changed = self._boards.pop(board, None) is not None
        else:
            try:
                read = read_live_message(topic, payload, self._game)
            except LiveMessageError as error:
                self.dropped += 1
                # The first from a topic at WARNING, its repeats at DEBUG: a flood fills no log.
                first = topic not in self._warned and len(self._warned) < MAX_BOARDS
                if first:
                    self._warned.add(topic)
                (logger.warning if first else logger.debug)(
                    "a live board's message on %r dropped: %s", topic[:80], error
                )
                return False
            changed = self._keep(read)
        if changed:
            self.version += 1
            self._on_change()
        return changed

    def _keep(self, read: LiveBoard | Offline) -> bool:
        with self._lock:
            known = self._boards.get(read.board)
            if isinstance(read, Offline):
                if known is None or not known.online:
                    return False  # nothing to show of a board never seen
                self._boards[read.board] = replace(known, online=False)
                return True
            if known is None and len(self._boards) >= MAX_BOARDS:
                logger.warning("more than %d live boards: %s is not shown", MAX_BOARDS, read.board)
                return False
            if known == read:
                return False
            self._boards[read.board] = read
            return True


def board_to_page(board: LiveBoard) -> Mapping[str, Any]:
    """A board as the live page draws it (JSON's types): its message, and whether it is online."""
    return {**board.to_json(), "online": board.online}
