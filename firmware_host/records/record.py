"""A game record as a value, and its check against the game's rules.

A :class:`GameRecord` is what a record file holds of one game: its tags (who, where,
when, which game, board and lineup, how it ended) and what happened on the board, in
order: moves played, moves taken back, and comments. :func:`check_record` replays it
through the :class:`~firmware_host.games.base.Game` interface, so that any game nestref
referees can be recorded, and says where a record breaks the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from firmware_host.errors import NestrefError
from firmware_host.games.base import AGREED_DRAW, OWN_SETUPS, TIME_LOSS, Game, Position

RESULTS = ("red", "blue", "draw", "*")
"""A game's result: the side that won, a draw, or ``*`` for a game not finished."""

RESIGNATION = "resignation"
TIME = TIME_LOSS
DRAW = "draw"
AGREED = AGREED_DRAW
ABANDONED = "abandoned"
UNTERMINATED = "unterminated"
TERMINATIONS = (RESIGNATION, TIME, DRAW, AGREED, ABANDONED, UNTERMINATED)
"""The ways a game ends that are not one of the game's own (which are written in the
game's words, such as ``2`` for Operation Cuckoo's condition 2)."""

LAST_SECOND = 253_402_300_799
"""9999-12-31 23:59:59 UTC: the last moment a record's Date can say."""

SEALED = "Sealed"
"""The tag of a record whose hidden pieces are not shown: a game whose players set up
privately (the battle game), exported before it ended. Its ``Position`` is the public
view; it is for reading, not for replaying (the moves cannot be checked without the
ranks)."""

TAKEN_BACK = "taken back"
"""The comment that stands for a take back of the last move that stands."""

HINT = "hint"
"""The comment that marks the move before it as played after a hint: the players asked
the engine for its suggestion before making it."""

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class RecordError(NestrefError, ValueError):
    """A game record cannot be read or breaks the game's rules; the message starts with
    ``FILE:LINE:`` and says what is wrong."""


@dataclass(frozen=True, slots=True)
class Played:
    """A move played, in the game's notation; ``hinted``: after a hint (the record's
    ``{hint}`` after it)."""

    move: str
    hinted: bool = False


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The last move that stands was taken back."""


@dataclass(frozen=True, slots=True)
class Comment:
    """Words about the game at this point (a correction of the nest, say): on one line,
    no ``}``, spaces single."""

    text: str

    def __post_init__(self) -> None:
        if "}" in self.text or self.text != " ".join(self.text.split()) or not self.text:
            raise ValueError(f"a comment is words on one line, single-spaced, without '}}': {self.text!r}")
        if self.text == TAKEN_BACK:
            raise ValueError(f"{TAKEN_BACK!r} stands for a take back (TakeBack), not a comment")
        if self.text == HINT:
            raise ValueError(f"{HINT!r} marks a move played after a hint (Played.hinted), not a comment")


Event = Played | TakeBack | Comment


@dataclass(frozen=True)
class GameRecord:
    """One game as a record file holds it.

    ``started_at`` is in whole seconds since the epoch (UTC); ``number`` the game's
    number in its set, from 1; ``start_position`` in the game's notation (its side to
    move the starter); ``termination`` the game's own word for how it was won (from
    :meth:`~firmware_host.games.base.Game.outcome_record`) or one of
    :data:`TERMINATIONS`; ``lenient`` says a move only a lenient referee lets stand may
    be in it; ``tags`` are the tags nestref does not read itself (Event, Site, Red,
    Blue, TimeControl and any other), kept in order.
    """

    game: str
    board: str
    lineup: str
    start_position: str
    started_at: int
    result: str
    termination: str
    events: tuple[Event, ...] = ()
    number: int = 1
    lenient: bool = False
    tags: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"a result is one of {', '.join(RESULTS)}, not {self.result!r}")
        if not 0 <= self.started_at <= LAST_SECOND:
            raise ValueError(f"a game starts from 1970 to 9999, not at {self.started_at} s since the epoch")
        if self.number < 1:
            raise ValueError(f"a game's number in its set is 1 or more, not {self.number}")
        # The seven tags come first, in their order, as they are written.
        ordered = sorted(self.tags, key=lambda tag: SEVEN_TAGS.index(tag[0]) if tag[0] in SEVEN_TAGS else 7)
        object.__setattr__(self, "tags", tuple(ordered))
        for name, value in self.tags:
            if not _TAG_NAME.fullmatch(name) or name in READ_TAGS:
                raise ValueError(f"{name!r} cannot be one of the other tags")
            if "\n" in value or "\r" in value:
                raise ValueError(f"the tag {name} holds a line break")
            if name in SEVEN_TAGS and value == "?":
                raise ValueError(f"an unknown {name} is left out of the tags, not written '?'")

    def tag(self, name: str, default: str = "?") -> str:
        """The value of one of the other tags (``Red``, say), or ``default``."""
        return next((value for key, value in self.tags if key == name), default)

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves that stand at the end, in order: those played and not taken back."""
        standing: list[str] = []
        for event in self.events:
            if isinstance(event, Played):
                standing.append(event.move)
            elif isinstance(event, TakeBack) and standing:
                standing.pop()
        return tuple(standing)

    @property
    def date(self) -> datetime:
        """When the game started, in UTC."""
        return datetime.fromtimestamp(self.started_at, UTC)


READ_TAGS = (
    *("Date", "UTCTime", "Round", "Result", "Game", "Board", "Lineup", "Starter", "Position", "Termination", "Rules"),
)
"""The tags nestref reads into a :class:`GameRecord`'s fields; every other tag is kept
as it is in :attr:`GameRecord.tags`."""

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "Red", "Blue", "Result")
"""The tags every record written has, first and in this order (PGN's seven, with Red
and Blue for White and Black); an unknown value is ``?``."""


def check_record(
    record: GameRecord,
    game: Game,
    *,
    where: Callable[[int | None], str] = lambda _: "record",
    start: Position | None = None,
) -> Position:
    """Replay ``record`` through ``game``'s rules and return the position at its end.

    Checks that the record is of ``game`` on its board, its lineup and start position,
    every move (legal where it is played, or only lenient if the record says so), every
    take back (a move to take back), and that the result and termination are what the
    rules say. ``where(index)`` names the place of the event ``index`` (None: of the
    tags) for the message, such as ``games.txt:12``. ``start``, if given, is the record's
    start position already read (a copy the check may play on).

    Raises :class:`RecordError`.
    """

    def fail(index: int | None, message: str) -> RecordError:
        return RecordError(f"{where(index)}: {message}")

    if record.game != game.name:
        raise fail(None, f"a record of the game {record.game!r}, not of {game.name!r}")
    if record.tag(SEALED, ""):
        raise fail(None, sealed_message())
    if record.board != game.board.name:
        raise fail(None, f"a record of a game on the board {record.board!r}, not on {game.board.name!r}")
    try:
        check_lineup(game, record.lineup)
        position = game.read_position(record.start_position) if start is None else start
    except NestrefError as error:
        raise fail(None, str(error)) from None
    ply = 0  # the moves that stand
    for index, event in enumerate(record.events):
        if isinstance(event, Played):
            number = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"
            try:
                move = game.read_move(event.move)
            except NestrefError as error:
                raise fail(index, f"move {number} {event.move!r} is not a move: {error}") from None
            try:  # making a move checks it: asked why only when it is refused
                position.push(move, lenient=record.lenient)
            except NestrefError as error:
                illegal = position.check_move(move, lenient=record.lenient)
                raise fail(
                    index, f"move {number} {event.move} is illegal: {illegal.reason if illegal else error}"
                ) from None
            ply += 1
        elif isinstance(event, TakeBack):
            if ply == 0:
                raise fail(index, "a take back with no move to take back")
            position.pop()
            ply -= 1
    _check_end(record, game, position, lambda message: fail(len(record.events), message))
    return position


def check_lineup(game: Game, lineup: str) -> str:
    """``lineup``, if ``game`` can start from it: one of its lineups, or the players' own
    set-ups (:data:`~firmware_host.games.base.OWN_SETUPS`) for a game that has them.
    Raises the game's :class:`~firmware_host.errors.NestrefError`."""
    if lineup == OWN_SETUPS and game.setups is not None:
        return lineup
    return game.check_lineup(lineup)


def sealed_message() -> str:
    return (
        "a sealed record (Sealed tag): its hidden ranks are left out until the game ends, so its moves cannot be"
        " checked; export the game again once it is over"
    )


def _check_end(record: GameRecord, game: Game, position: Position, fail: Callable[[str], RecordError]) -> None:
    """The result and termination agree with each other and with the rules."""
    outcome = position.outcome()
    result, termination = record.result, record.termination
    if outcome is not None:
        over = game.outcome_record(outcome)
        said = (result, None if termination in (RESIGNATION, DRAW) else termination)
        if said != over:
            words = game.outcome_words(outcome)
            raise fail(
                f"the game is over ({outcome.to_text()}: {words}), but the record says {result}, {termination}:"
                f" expected Result {over[0]!r} and Termination {(over[1] or DRAW)!r}"
            )
        return
    if result == "*":
        if termination not in (ABANDONED, UNTERMINATED):
            raise fail(f"a game not finished (Result *) ends {ABANDONED} or {UNTERMINATED}, not {termination!r}")
    elif (result, termination) == ("draw", AGREED):
        return  # agreed by the players (at a distance), whatever the position
    elif result == "draw" or termination not in (RESIGNATION, TIME):
        raise fail(
            f"the game is not over by the rules, so Result {result} must come of {RESIGNATION} or {TIME}"
            f" (or a draw, of {AGREED})"
        )


def is_lenient(game: Game, start_position: str, events: Sequence[Event]) -> bool:
    """Whether ``events`` from ``start_position`` hold a move only a lenient referee
    lets stand (so that their record must say ``Rules "lenient"``). Moves that cannot
    be played even leniently are left for :func:`check_record` to refuse."""
    position = game.read_position(start_position)
    for event in events:
        if isinstance(event, Played):
            move = game.read_move(event.move)
            if position.check_move(move) is not None:
                return position.check_move(move, lenient=True) is None
            position.push(move)
        elif isinstance(event, TakeBack) and position.move_stack:
            position.pop()
    return False


def other_tags(tags: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The tags of ``tags`` that are not read into fields, in order; an unknown one of
    the seven (``?``) is left out."""
    return tuple(
        (name, value)
        for name, value in tags.items()
        if name not in READ_TAGS and not (name in SEVEN_TAGS and value == "?")
    )
