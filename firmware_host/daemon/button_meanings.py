"""What a button press means: one table, :data:`MEANINGS`, that the daemon performs
(:func:`command_for`, remote play's ``perform``) and the page says (:func:`button_help`
in its hello, :func:`buttons_now` in every ``game`` message). Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware_host.daemon.buttons import ButtonAction, Press
from firmware_host.games.base import Side
from firmware_host.referee.referee import Mode

if TYPE_CHECKING:
    from firmware_host.daemon.presenter import Scene
    from firmware_host.recorder.service import RefereeService
    from firmware_host.referee.referee import Referee


PLAYER_CYCLE: tuple[frozenset[Side], ...] = (frozenset(), frozenset({Side.BLUE}), frozenset({Side.RED}))
"""What the confirm button steps through between games: people on both sides, the
computer playing blue, the computer playing red."""


def next_players(computers: frozenset[Side]) -> frozenset[Side]:
    """The players after ``computers`` in :data:`PLAYER_CYCLE` (both computers: people)."""
    index = PLAYER_CYCLE.index(computers) if computers in PLAYER_CYCLE else -1
    return PLAYER_CYCLE[(index + 1) % len(PLAYER_CYCLE)]


@dataclass(frozen=True)
class Situation:
    """What a press's meaning depends on: what the referee and remote play are doing."""

    mode: Mode | None = None  # the referee's; None before it has started (no press means anything)
    question_open: bool = False  # the OLED asks which move was made
    to_move: Side | None = None
    computers: frozenset[Side] = frozenset()  # the sides the computer (or the other nest) plays
    remote: str = ""  # remote play's stage (a ``RemoteStage`` value); "" without a broker
    their_proposal: bool = False  # the other nest proposes a draw or a take back, to answer


def situation_of(scene: Scene, referee: Referee | None) -> Situation:
    """The situation ``scene`` shows, with the ``referee``'s mode and players (None: not
    started yet)."""
    remote = scene.remote
    return Situation(
        mode=referee.mode if referee is not None else None,
        question_open=scene.answer is not None,
        to_move=scene.side,
        computers=referee.computers if referee is not None else frozenset(),
        remote=remote.stage.value if remote is not None else "",
        their_proposal=remote is not None and remote.their_proposal is not None,
    )


@dataclass(frozen=True)
class Meaning:
    """What a press of ``button`` (``press`` None: any press) means ``when`` the nest is
    in a situation: the action it ``does`` (a name the daemon, or remote play, performs),
    in ``words`` for the page and the docs. A hold the page offers as a control of its
    own shows ``label``; one that cannot be undone ``asks`` first (``{side}`` and
    ``{other}``: the side to move and its opponent), ``ok`` on the button that agrees."""

    button: str
    press: Press | None
    when: Callable[[Situation], bool]
    does: str
    words: str
    moment: str = ""  # when it means this, in words ("" always)
    label: str = ""
    asks: str = ""
    ok: str = ""

    @property
    def is_remote(self) -> bool:
        """Whether remote play performs it (else a part, or the referee's commands)."""
        return self.does.startswith(("remote_", "code_"))

    def question(self, to_move: Side | None) -> tuple[str, str] | None:
        """What the page asks before it, and the agreeing button's words; None: nothing."""
        if not self.asks:
            return None
        side, other = (to_move.label, to_move.opponent.label) if to_move is not None else ("", "")
        return self.asks.format(side=side, other=other), self.ok.format(side=side, other=other)


def _stage(*stages: str) -> Callable[[Situation], bool]:
    return lambda s: s.remote in stages


def _is_remote_game(s: Situation) -> bool:
    return s.remote == "playing"


SHORT, LONG, DOUBLE = Press.SHORT, Press.LONG, Press.DOUBLE
ENTERING = _stage("entering")
AT_A_DISTANCE = "a game at a distance"
MEANINGS: tuple[Meaning, ...] = (
    # Remote play's (with a [broker]): a game's code entered, offered, joined, played.
    Meaning("switch", SHORT, _stage("entering"), "code_next", "the next character", "entering a code"),
    Meaning("switch", LONG, _stage("entering"), "code_back", "the character before", "entering a code"),
    Meaning(
        "confirm", SHORT, _stage("entering"), "code_take", "take the character; the sixth joins", "entering a code"
    ),
    Meaning(
        "take_back",
        SHORT,
        _stage("entering"),
        "code_undo",
        "undo the last character (none: give up)",
        "entering a code",
    ),
    Meaning("confirm", None, _stage("entering"), "nothing", "nothing", "entering a code"),
    Meaning("take_back", None, _stage("entering"), "nothing", "nothing", "entering a code"),
    Meaning("switch", None, _stage("entering"), "nothing", "nothing", "entering a code"),
    Meaning(
        "confirm",
        SHORT,
        lambda s: s.remote in ("unpaired", "set over") and not s.question_open,
        "remote_offer",
        "offer a game: its code on the OLED",
        "no game at a distance",
    ),
    Meaning(
        "switch",
        LONG,
        lambda s: s.remote in ("unpaired", "set over") and not s.question_open,
        "remote_enter",
        "enter a code to join",
        "no game at a distance",
        label="Enter a code",
    ),
    Meaning(
        "take_back",
        LONG,
        _stage("offering", "joining", "desync"),
        "remote_leave",
        "leave the game at a distance",
        "offered, joining or desync",
        label="Leave…",
        asks="Leave the game with the other nest?",
        ok="Leave",
    ),
    Meaning("confirm", None, _stage("desync"), "nothing", "nothing: play stopped", "desync"),
    Meaning("take_back", None, _stage("desync"), "nothing", "nothing: play stopped", "desync"),
    Meaning("switch", None, _stage("desync"), "nothing", "nothing: play stopped", "desync"),
    Meaning(
        "confirm",
        SHORT,
        lambda s: _is_remote_game(s) and s.their_proposal and not s.question_open,
        "remote_accept",
        "their proposal: yes",
        "they propose",
    ),
    Meaning(
        "switch",
        SHORT,
        lambda s: _is_remote_game(s) and s.their_proposal and not s.question_open,
        "remote_decline",
        "their proposal: no",
        "they propose",
    ),
    Meaning(
        "take_back",
        SHORT,
        _is_remote_game,
        "remote_take_back",
        "ask to take back (the other side confirms)",
        AT_A_DISTANCE,
    ),
    Meaning(
        "take_back",
        LONG,
        _is_remote_game,
        "remote_resign",
        "this nest's side resigns",
        AT_A_DISTANCE,
        label="Resign…",
        asks="This nest's side resigns: the other nest wins this game.",
        ok="Resign",
    ),
    Meaning("switch", LONG, _is_remote_game, "remote_draw", "offer a draw", AT_A_DISTANCE, label="Offer a draw"),
    Meaning(
        "confirm",
        LONG,
        _is_remote_game,
        "remote_no_new_game",
        "nothing: a new game alone would part the records",
        AT_A_DISTANCE,
    ),
    Meaning(
        "confirm",
        SHORT,
        lambda s: _is_remote_game(s) and s.mode is Mode.SETUP and not s.question_open,
        "remote_seats_fixed",
        "nothing: the seats are fixed for the set",
        AT_A_DISTANCE,
    ),
    # The referee's, and the parts' beside it.
    Meaning("confirm", SHORT, lambda s: s.question_open, "answer", "confirm the answer the OLED points at"),
    Meaning(
        "confirm",
        DOUBLE,
        lambda s: s.mode is Mode.PLAYING and not s.question_open,
        "material_count",
        "twice quickly: the pieces on the board",
        "in a game",
    ),
    Meaning(
        "confirm",
        SHORT,
        lambda s: s.mode is Mode.SETUP,
        "next_players",
        "who plays (people, the computer blue, the computer red)",
        "between games",
    ),
    Meaning(
        "confirm",
        LONG,
        lambda s: s.mode is not Mode.SETUP,
        "new_game",
        "new game (this one does not count)",
        label="New game…",
        asks="Stop this game and set the nest up for a new one? This game will not count.",
        ok="Stop and set up",
    ),
    Meaning(
        "confirm",
        LONG,
        lambda s: True,
        "new_game",
        "new game",
        "between games",
        label="New game…",
        asks="Set the nest up for a new game?",
        ok="Set up a new game",
    ),
    Meaning("take_back", SHORT, lambda s: True, "take_back", "take back the last move"),
    Meaning(
        "take_back",
        LONG,
        lambda s: s.mode is not Mode.SETUP and s.to_move is not None,
        "resign",
        "the side to move resigns",
        label="Resign…",
        asks="{side} resigns: {other} wins this game.",
        ok="Resign for {side}",
    ),
    Meaning("switch", SHORT, lambda s: s.question_open, "next_answer", "point at the next answer"),
    Meaning(
        "switch",
        DOUBLE,
        lambda s: s.mode is Mode.PLAYING and not s.question_open and s.to_move not in s.computers,
        "hint",
        "twice quickly: a hint",
        "a person's turn",
    ),
    Meaning("switch", SHORT, lambda s: s.mode is Mode.SETUP, "other_starter", "the other side starts", "before a set"),
    Meaning(
        "switch",
        LONG,
        lambda s: s.mode is Mode.SETUP,
        "next_lineup",
        "the next lineup",
        "before a set",
        label="Next lineup",
    ),
)
"""What each press means, the first row that applies winning (none: nothing): remote
play's first, then the referee's (docs/daemon.md, "Buttons"). The daemon performs it
(:func:`command_for`, remote play); the page says it (:func:`buttons_now`,
:func:`button_help`)."""


def meaning_of(action: ButtonAction, situation: Situation) -> Meaning | None:
    """What ``action`` means in ``situation``; None: nothing (or no referee yet)."""
    if situation.mode is None:
        return None
    for meaning in MEANINGS:
        if meaning.button == action.button and meaning.press in (action.press, None) and meaning.when(situation):
            return meaning if meaning.does != "nothing" else None
    return None


def _help(button: str, press: Press) -> str:
    """What ``press`` of ``button`` does, in each situation, for the page's title."""
    words = [
        f"{meaning.moment}: {meaning.words}" if meaning.moment else meaning.words
        for meaning in MEANINGS
        if meaning.button == button and meaning.press is press and not meaning.is_remote
    ]
    return "; ".join(dict.fromkeys(words))


def button_help(button: str) -> dict[str, str]:
    """``button``'s press and hold in words, and its hold's control's label: for the
    page's hello (without remote play's, which the page's own panel offers)."""
    labels = (m.label for m in MEANINGS if m.button == button and m.press is LONG and m.label and not m.is_remote)
    label = next(labels, "")
    return {"name": button, "press": _help(button, SHORT), "hold": _help(button, LONG), "label": label}


def buttons_now(situation: Situation, buttons: Sequence[str]) -> dict[str, dict[str, object]]:
    """What a press and a hold of each of ``buttons`` mean now (None: nothing), the
    label of the hold's control, and what the page asks before the hold: for the page's
    ``game`` message."""
    shown: dict[str, dict[str, object]] = {}
    for button in buttons:
        press = meaning_of(ButtonAction(button, SHORT), situation)
        hold = meaning_of(ButtonAction(button, LONG), situation)
        asked = hold.question(situation.to_move) if hold is not None else None
        shown[button] = {
            "press": press.words if press is not None else None,
            "hold": hold.words if hold is not None else None,
            "label": hold.label if hold is not None and hold.label else button_help(button)["label"],
            "ask": {"text": asked[0], "ok": asked[1]} if asked is not None else None,
        }
    return shown


def command_for(
    meaning: Meaning,
    service: RefereeService,
    presenter: Scene,
    *,
    lineups: Sequence[str],
    set_players: Callable[[frozenset[Side]], None],
    ask_hint: Callable[[], object],
    next_answer: Callable[[], None],
) -> Callable[[int], object]:
    """What the referee's ``meaning`` (not remote play's) asks, given what the nest
    shows (``presenter``): a command to run at a time, in ms. The players' choice is
    told to ``set_players``, a hint asked for to ``ask_hint``, the next answer pointed
    at to ``next_answer``."""
    referee = service.referee
    match meaning.does:
        case "answer" if presenter.answer is not None:
            answer = presenter.answer
            return lambda now: service.answer(answer, now)
        case "next_players":
            players = next_players(referee.computers)
            return lambda now: set_players(players)
        case "new_game":
            return service.new_game
        case "take_back":
            return service.take_back
        case "resign" if presenter.side is not None:
            side = presenter.side
            return lambda now: service.resign(side, now)
        case "next_answer":
            return lambda now: next_answer()
        case "hint":
            return lambda now: ask_hint()
        case "other_starter":
            starter = referee.starter.opponent
            return lambda now: service.choose_setup(starter=starter, now=now)
        case "next_lineup":
            following = lineups[(lineups.index(referee.lineup) + 1) % len(lineups)]
            return lambda now: service.choose_setup(lineup=following, now=now)
    return lambda now: None
