"""Buttons: presses in, actions out, and what each action asks of the referee. Pure:
time is passed in, in seconds.

Each button has a short press and a long one (held for ``hold_s``): the long press
fires while the button is still held, so the player feels it happen; the short one on
release. A short press released within ``double_s`` of the one before is a double press
too (it comes after that press's own short one, which a double press does not undo: the
gestures that mean something double mean nothing pressed once, docs/daemon.md). Changes
closer than ``debounce_s`` to the last are contact bounce.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from firmware_host.games.base import Side
from firmware_host.referee.referee import Mode

if TYPE_CHECKING:
    from firmware_host.daemon.presenter import Scene
    from firmware_host.recorder.service import RefereeService


class Press(Enum):
    SHORT = "short"
    LONG = "long"
    DOUBLE = "double"  # a second short press soon after the first (after its SHORT)


@dataclass(frozen=True)
class ButtonAction:
    button: str
    press: Press


@dataclass
class ButtonGestures:
    """Turns button changes into short and long presses.

    A change counts once the button has kept it for ``debounce_s``: contact bounce and
    a glitch of a few milliseconds (a switch in the matrix read once the wrong way) are
    no presses at all. Times are when the change happened, in seconds.
    """

    hold_s: float = 2.0
    debounce_s: float = 0.03
    double_s: float = 0.5
    _raw: dict[str, tuple[bool, float]] = field(default_factory=dict)  # button: (pressed, since)
    _down_since: dict[str, float] = field(default_factory=dict)  # buttons held, counted
    _long_done: set[str] = field(default_factory=set)
    _last_short: dict[str, float] = field(default_factory=dict)  # button: when its last short press ended

    def change(self, button: str, pressed: bool, now: float) -> list[ButtonAction]:
        """``button`` read down (``pressed``) or up at ``now``."""
        actions = self.tick(now)
        if self._raw.get(button, (False, 0.0))[0] != pressed:
            self._raw[button] = (pressed, now)
        return actions

    def tick(self, now: float) -> list[ButtonAction]:
        """The presses that are due by ``now``."""
        actions = []
        for button, (pressed, since) in self._raw.items():
            if now - since < self.debounce_s or pressed == (button in self._down_since):
                continue
            if pressed:
                self._down_since[button] = since
            else:
                del self._down_since[button]
                if button in self._long_done:
                    self._long_done.discard(button)
                    self._last_short.pop(button, None)
                else:
                    actions.append(ButtonAction(button, Press.SHORT))
                    before = self._last_short.pop(button, None)
                    if before is not None and since - before <= self.double_s:
                        actions.append(ButtonAction(button, Press.DOUBLE))
                    else:
                        self._last_short[button] = since
        for button, since in self._down_since.items():
            if button not in self._long_done and now - since >= self.hold_s:
                self._long_done.add(button)
                actions.append(ButtonAction(button, Press.LONG))
        return actions

    def next_deadline(self) -> float | None:
        times = [
            since + self.debounce_s
            for button, (pressed, since) in self._raw.items()
            if pressed != (button in self._down_since)
        ]
        times += [since + self.hold_s for b, since in self._down_since.items() if b not in self._long_done]
        return min(times, default=None)


PLAYER_CYCLE: tuple[frozenset[Side], ...] = (frozenset(), frozenset({Side.BLUE}), frozenset({Side.RED}))
"""What the confirm button steps through between games: people on both sides, the
computer playing blue, the computer playing red."""


def next_players(computers: frozenset[Side]) -> frozenset[Side]:
    """The players after ``computers`` in :data:`PLAYER_CYCLE` (both computers: people)."""
    index = PLAYER_CYCLE.index(computers) if computers in PLAYER_CYCLE else -1
    return PLAYER_CYCLE[(index + 1) % len(PLAYER_CYCLE)]


BUTTON_HELP: dict[str, tuple[str, str]] = {
    "confirm": (
        "Confirm the answer the OLED points at; between games: who the computer plays",
        "Hold: new game (this one does not count)",
    ),
    "take_back": ("Take back the last move", "Hold: the side to move resigns"),
    "switch": (
        "Point at the next answer; before a set: the other side starts; twice quickly in a person's turn: a hint",
        "Hold (before a set): the next lineup",
    ),
}
"""What each button does, pressed and held (:func:`command_for` does it), in words for
the web page."""


def command_for(
    action: ButtonAction,
    service: RefereeService,
    presenter: Scene,
    *,
    lineups: Sequence[str],
    set_players: Callable[[frozenset[Side]], None],
    ask_hint: Callable[[], object],
    next_answer: Callable[[], None],
) -> Callable[[int], object]:
    """What ``action`` asks, given what the nest shows (``presenter``) and what it is
    doing (docs/daemon.md): a command to run at a time, in ms; one that does nothing if
    the press means nothing now. The players' choice (confirm between games) is told to
    ``set_players``, a hint asked for (switch pressed twice quickly in a person's turn)
    to ``ask_hint``, the next answer pointed at to ``next_answer``."""
    referee = service.referee
    mode = referee.mode
    match (action.button, action.press):
        case ("confirm", Press.SHORT) if presenter.answer is not None:
            answer = presenter.answer
            return lambda now: service.answer(answer, now)
        case ("confirm", Press.SHORT) if mode is Mode.SETUP:
            players = next_players(referee.computers)
            return lambda now: set_players(players)
        case ("confirm", Press.LONG):
            return service.new_game
        case ("take_back", Press.SHORT):
            return service.take_back
        case ("take_back", Press.LONG) if mode is not Mode.SETUP and presenter.side is not None:
            side = presenter.side
            return lambda now: service.resign(side, now)
        case ("switch", Press.SHORT) if presenter.question:
            return lambda now: next_answer()
        case ("switch", Press.DOUBLE) if (
            mode is Mode.PLAYING and not presenter.question and presenter.side not in referee.computers
        ):
            return lambda now: ask_hint()
        case ("switch", Press.SHORT) if mode is Mode.SETUP:
            starter = referee.starter.opponent
            return lambda now: service.choose_setup(starter=starter, now=now)
        case ("switch", Press.LONG) if mode is Mode.SETUP:
            following = lineups[(lineups.index(referee.lineup) + 1) % len(lineups)]
            return lambda now: service.choose_setup(lineup=following, now=now)
    return lambda now: None
