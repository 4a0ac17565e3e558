"""What the nest shows at one moment, as one value: for the web page and the simulator,
which read it instead of the daemon's insides.

A snapshot goes to every shared channel (the shared page, recordings, live boards, the
logs), so it cannot hold a hidden rank: its position is a
:class:`~firmware_host.games.base.PublicView`, never the record's text (which holds
every rank of a game that hides pieces). A side's own view of the pieces is a
:class:`PrivateView`, which only :meth:`~firmware_host.daemon.Daemon.private_view` makes,
for that side's screen alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from firmware_host.daemon.presenter import View
from firmware_host.daemon.remote_shown import RemoteShown
from firmware_host.games.base import Game, Move, PublicView, Side, public_view
from hardware.outputs import Blink, Screen


@dataclass(frozen=True)
class GameShown:
    """The game as the nest's screens show it: its moves as the record on disk has them
    (a move waiting to be recorded is among ``waiting``, never among ``moves``)."""

    number: int
    to_move: Side | None  # while a move is being made (or put right, or asked about)
    moves: tuple[str, ...]
    waiting: tuple[str, ...]
    saved: bool  # False while the record cannot be written
    score: tuple[int, int]  # the set's, red's first
    position: PublicView | None  # the position the record holds, as everybody may see it; None between games
    lineup: str
    computers: frozenset[Side]
    level: int
    thinking: bool  # the computer is choosing the move of the side to move
    computer_move: Move | None  # its move, for the players to make
    clock: tuple[str, str] | None = None  # red's and blue's time, when the game has a clock
    hint: Move | None = None  # the engine's suggestion for the side to move, shown on the nest
    is_hint_wanted: bool = False  # a hint asked for, the engine choosing it
    result: str | None = None  # the recorded game's outcome (``Outcome.to_text``), once it is over


@dataclass(frozen=True)
class Snapshot:
    """What the nest shows now, for the web page and the simulator: the OLED, the lights
    and the game, never ahead of the record."""

    view: View
    screen: Screen  # what the OLED says
    public_screen: Screen  # the same with the PIN starred out, for a page without it
    oled_frames: int  # frames sent to the OLED so far (a new one: a new image)
    oled_image: Image.Image | None  # the last frame sent, if an OLED is fitted
    status_lights: dict[str, bool]  # each light fitted, and whether it is lit now
    cell_lights: frozenset[str]  # the cells lit now
    game: GameShown
    findings: tuple[str, ...]  # what the boot self-test found
    remote: RemoteShown | None = None  # remote play, with a [broker]
    lights: dict[str, Blink] = field(default_factory=dict)  # what the status lights do, fitted or not
    cells: dict[str, Blink] = field(default_factory=dict)  # what the cell lights do, fitted or not
    question: tuple[Move, ...] = ()  # the answers of an open question (the OLED lists them)
    answer: Move | None = None  # the one the buttons point at
    buttons: dict[str, dict[str, object]] = field(default_factory=dict)  # what each press and hold means now

    @property
    def is_playing(self) -> bool:
        """Whether a move is being made (or put right, or asked about)."""
        return self.view in (View.PLAYING, View.QUESTION, View.CORRECTING)


class PublicPositions:
    """The record's positions as everybody may see them (:func:`public_view`), and their
    outcomes: the last one kept, read again only when the record's text changes (a
    snapshot is taken many times a second while pages watch)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._last: tuple[str, PublicView | None, str | None] = ("", None, None)

    def of(self, text: str) -> tuple[PublicView | None, str | None]:
        """The position of the record's ``text`` as everybody may see it, and its
        outcome's text if it is over; (None, None) for no position ("")."""
        if not text:
            return None, None
        if text != self._last[0]:
            position = self.game.read_position(text)
            outcome = position.outcome()
            self._last = (text, public_view(self.game, position), outcome.to_text() if outcome is not None else None)
        return self._last[1], self._last[2]


@dataclass(frozen=True)
class PrivateView:
    """What one player's own screen shows of a game that hides pieces (the battle game):
    never a shared screen's (it holds no :class:`~firmware_host.games.base.PublicView`,
    and no shared channel takes it). The pieces by cell as ``side`` sees them (its own
    ranks, the other side's only where shown); while the players set up, where its own
    set-up stands and, placing one piece at a time, what it is asked for next."""

    side: Side
    cells: dict[str, str]  # cell: the letter the page draws (the game's for_page pieces)
    setup_state: str  # "waiting", "placing" or "ready" while setting up; "" while a game is on
    placed: int  # pieces placed so far, placing one at a time
    total: int  # pieces a set-up has
    prompt: str | None  # what the screen asks for next, placing one at a time
    hint: str | None = None  # a hint for this side, given here alone: the move would say what the piece is
