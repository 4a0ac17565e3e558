"""What the nest shows at one moment, as one value: for the web page and the simulator,
which read it instead of the daemon's insides."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from firmware_host.daemon.presenter import View
from firmware_host.daemon.remote_shown import RemoteShown
from firmware_host.games.base import Move, Side
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
    position: str  # the position the record holds, in the game's notation; "" between games
    lineup: str
    computers: frozenset[Side]
    level: int
    thinking: bool  # the computer is choosing the move of the side to move
    computer_move: Move | None  # its move, for the players to make
    clock: tuple[str, str] | None = None  # red's and blue's time, when the game has a clock
    hint: Move | None = None  # the engine's suggestion for the side to move, shown on the nest
    is_hint_wanted: bool = False  # a hint asked for, the engine choosing it


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

    @property
    def is_playing(self) -> bool:
        """Whether a move is being made (or put right, or asked about)."""
        return self.view in (View.PLAYING, View.QUESTION, View.CORRECTING)


@dataclass(frozen=True)
class PrivateView:
    """What one player's own screen shows of a game that hides pieces (the battle game):
    never a shared screen's. The pieces by cell as ``side`` sees them (its own ranks, the
    other side's only where shown); while the players set up, where its own set-up
    stands and, placing one piece at a time, what it is asked for next."""

    side: Side
    cells: dict[str, str]  # cell: the letter the page draws (the game's for_page pieces)
    setup_state: str  # "waiting", "placing" or "ready" while setting up; "" while a game is on
    placed: int  # pieces placed so far, placing one at a time
    total: int  # pieces a set-up has
    prompt: str | None  # what the screen asks for next, placing one at a time
