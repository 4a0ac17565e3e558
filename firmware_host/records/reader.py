"""The reader of game records: text in the format of ``docs/game-records.md`` to
:class:`~firmware_host.records.record.GameRecord` values, every move checked with the
game's rules. Whatever the text, it returns the games or raises
:class:`~firmware_host.records.record.RecordError` naming the line and what is wrong.
"""

from __future__ import annotations

import bisect
import operator
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from firmware_host.errors import NestrefError
from firmware_host.games.base import OWN_SETUPS, Game, Position, Side
from firmware_host.records.record import (
    HINT,
    RESULTS,
    SEALED,
    TAKEN_BACK,
    UNTERMINATED,
    Comment,
    Event,
    GameRecord,
    Played,
    RecordError,
    TakeBack,
    check_lineup,
    check_record,
    other_tags,
    sealed_message,
)

MAX_FILE_BYTES = 4 * 1024 * 1024
"""The most a record file may hold, in bytes: 4 MiB, some four thousand games (a game
of 80 moves with its tags is about a kilobyte), read in about 200 MB. ``nestref import``
refuses a longer file; the reader itself is given text already read."""

MAX_LINE = 16_384
"""The most characters a line of a record may have: a game of a thousand moves, written
on one line, fits (nestref writes lines of 79)."""

MAX_TAG_VALUE = 1_000
"""The most characters a tag's value may have between its quotes: a name, a place, a
start position."""

BYTE_ORDER_MARK = "\ufeff"
"""What some editors write at the start of a UTF-8 file (a byte-order mark): not part of
the record, and skipped."""

# Possessive (*+, ++): a value that is not closed is refused in one pass over its line,
# without the backtracking that needed some 165 bytes of memory per character.
_TAG_PAIR = re.compile(r'\[[ \t]*+([A-Za-z][A-Za-z0-9_]*+)[ \t]++"((?:[^"\\]++|\\.)*+)"[ \t]*+\][ \t\r]*+')
_ESCAPE = re.compile(r"\\(.)")
_SPACE = re.compile(r"\s*")
_ONE_SPACE = re.compile(r"\s")
_WORD = re.compile(r"[^\s{}\[\]]+")
_MOVE_NUMBER = re.compile(r"([0-9]+)\.(\.\.)?")
_DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})")
_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})")
_ROUND = re.compile(r"[1-9][0-9]{0,5}")
_REQUIRED = ("Game", "Lineup", "Starter", "Date", "Result")


def read_records(text: str, *, game: Game, source: str = "record") -> list[GameRecord]:
    """Every game in ``text``, in order, each checked with ``game``'s rules
    (:func:`~firmware_host.records.record.check_record`). ``source`` names the text in
    messages (its file's path).

    Raises :class:`RecordError` (``SOURCE:LINE: what is wrong``), also for a text with
    no game in it.

    >>> from firmware_host.games import load_game
    >>> text = '''[Game "cuckoo"] [Lineup "standard"]'''
    >>> read_records(text, game=load_game(), source="a.txt")
    Traceback (most recent call last):
    ...
    firmware_host.records.record.RecordError: a.txt:1: a tag pair is [Name "value"] alone on its line
    """
    scanner = _Scanner(text, source)
    records = []
    starts: dict[tuple[str, Side], Position] = {}  # the lineups' start positions, made once
    while (parsed := scanner.game()) is not None:
        records.append(_record(parsed, game, scanner, starts))
    if not records:
        raise RecordError(f'{source}:1: no game in it: a record begins with tag pairs such as [Game "cuckoo"]')
    return records


@dataclass
class _ParsedGame:
    """A game's tags and events as written, with the line of each."""

    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    event_lines: list[int] = field(default_factory=list)
    result: str = "*"
    result_line: int = 0


class _Scanner:
    """The text, read from start to end: tag pairs line by line, then the words of the
    moves up to the result."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.pos = 1 if text.startswith(BYTE_ORDER_MARK) else 0
        self._line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
        self._check_line_lengths()
        self._check_printable()

    def _check_line_lengths(self) -> None:
        """Raises :class:`RecordError` for the first line longer than :data:`MAX_LINE`."""
        ends = [*self._line_starts[1:], len(self.text) + 1]  # each past its line's "\n"
        lengths = list(map(operator.sub, ends, self._line_starts))
        if max(lengths) - 1 <= MAX_LINE:
            return
        index = next(index for index, length in enumerate(lengths) if length - 1 > MAX_LINE)
        raise self.fail(
            f"a line of {lengths[index] - 1:,} characters: a record's lines are {MAX_LINE:,} characters at most",
            index + 1,
        )

    def _check_printable(self) -> None:
        """Raises :class:`RecordError` for the first character that is neither printable
        nor white space: a record is text to read, and what it holds reaches terminals
        (``nestref games``) and pages. The usual text is checked in two passes in C."""
        text = self.text[self.pos :] if self.pos else self.text
        if text.replace("\n", " ").isprintable():
            return
        blanked = _ONE_SPACE.sub(" ", text)  # every white space, one for one: the columns stay
        if blanked.isprintable():
            return
        index = self.pos + next(index for index, char in enumerate(blanked) if not char.isprintable())
        line = self.line(index)
        column = index - self._line_starts[line - 1] + 1
        raise self.fail(f"{_character(self.text[index])} in column {column}: a record is printable text", line)

    def line(self, pos: int | None = None) -> int:
        return bisect.bisect_right(self._line_starts, self.pos if pos is None else pos)

    def fail(self, message: str, line: int | None = None) -> RecordError:
        return RecordError(f"{self.source}:{self.line() if line is None else line}: {message}")

    def _skip_space(self) -> None:
        match = _SPACE.match(self.text, self.pos)
        assert match is not None  # \s* matches anywhere
        self.pos = match.end()

    def game(self) -> _ParsedGame | None:
        """The next game, or None at the end of the text."""
        parsed = _ParsedGame()
        self._skip_space()
        while self.pos < len(self.text) and self.text[self.pos] == "[":
            self._tag_pair(parsed)
            self._skip_space()
        if not parsed.tags:
            if self.pos >= len(self.text):
                return None
            raise self.fail(f'a game begins with tag pairs such as [Game "cuckoo"], not {self._word_here()!r}')
        self._movetext(parsed)
        return parsed

    def _word_here(self) -> str:
        return self.text[self.pos : self.pos + 20].split("\n")[0]

    def _tag_pair(self, parsed: _ParsedGame) -> None:
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end
        match = _TAG_PAIR.fullmatch(self.text, self.pos, end)
        if match is None:
            raise self.fail('a tag pair is [Name "value"] alone on its line')
        name, quoted = match.groups()
        if len(quoted) > MAX_TAG_VALUE:
            raise self.fail(
                f"the tag {name}: a value of {len(quoted):,} characters: a tag's value is {MAX_TAG_VALUE:,} at most"
            )
        if any(escaped not in '"\\' for escaped in _ESCAPE.findall(quoted)):
            raise self.fail(f'the tag {name}: only \\" and \\\\ may follow a \\ in a value')
        if "\r" in quoted:
            raise self.fail(f"the tag {name}: a value is on one line, with no carriage return in it")
        if not quoted.isprintable():
            char = next(char for char in quoted if not char.isprintable())
            raise self.fail(
                f"the tag {name}: {_character(char)} in its value: a value is printable text, its spaces plain"
            )
        if name in parsed.tags:
            raise self.fail(f"the tag {name} twice (first on line {parsed.tag_lines[name]})")
        parsed.tags[name] = _ESCAPE.sub(r"\1", quoted)
        parsed.tag_lines[name] = self.line()
        self.pos = end

    def _movetext(self, parsed: _ParsedGame) -> None:
        ply = 0  # of the moves that stand, to check the move numbers against
        first = self.line()
        while True:
            self._skip_space()
            line = self.line()
            if self.pos >= len(self.text):
                raise self.fail(
                    f"the moves of the game from line {first} do not end with its result: red, blue, draw or *"
                )
            char = self.text[self.pos]
            if char == "{":
                close = self.text.find("}", self.pos)
                if close < 0:
                    raise self.fail("a comment's { is never closed by a }")
                words = " ".join(self.text[self.pos + 1 : close].split())
                self.pos = close + 1
                if words == TAKEN_BACK:
                    parsed.events.append(TakeBack())
                    ply = max(ply - 1, 0)
                elif words == HINT:
                    last = parsed.events[-1] if parsed.events else None
                    if not isinstance(last, Played) or last.hinted:
                        raise self.fail("a {hint} marks the move just before it, and no move is: it follows a move")
                    parsed.events[-1] = Played(last.move, hinted=True)
                    continue
                elif words:
                    parsed.events.append(Comment(words))
                else:
                    continue
                parsed.event_lines.append(line)
                continue
            if char == "[":
                raise self.fail("a tag pair among the moves: a game's moves end with its result (red, blue, draw or *)")
            if char in "}]":
                raise self.fail(f"a {char} with nothing open before it")
            match = _WORD.match(self.text, self.pos)
            assert match is not None  # not a space nor one of {}[]
            word = match.group()
            self.pos = match.end()
            if word in RESULTS:
                parsed.result, parsed.result_line = word, line
                return
            number = _MOVE_NUMBER.match(word)
            if number is not None:
                self._check_number(number, ply)
                word = word[number.end() :]
                if not word:
                    continue
            parsed.events.append(Played(sys.intern(word)))  # a move is written again and again: kept once
            parsed.event_lines.append(line)
            ply += 1

    def _check_number(self, number: re.Match[str], ply: int) -> None:
        due = f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"
        if int(number.group(1)) != ply // 2 + 1 or bool(number.group(2)) != (ply % 2 == 1):
            raise self.fail(f"the move number {number.group()} where {due} is due")


def _record(parsed: _ParsedGame, game: Game, scanner: _Scanner, starts: dict[tuple[str, Side], Position]) -> GameRecord:
    """The record of ``parsed``, its tags read and its moves checked."""
    tags, lines = parsed.tags, parsed.tag_lines
    first_line = min(lines.values())

    def fail(name: str, message: str) -> RecordError:
        return scanner.fail(message, lines.get(name, first_line))

    for name in _REQUIRED:
        if name not in tags:
            raise fail(name, f"the game has no {name} tag")
    if tags["Game"] != game.name:
        raise fail("Game", f"a record of the game {tags['Game']!r}: this nestref reads {game.name!r} here (--game)")
    board = tags.get("Board", game.board.name)
    if board != game.board.name:
        raise fail("Board", f"a game on the board {board!r}, not on {game.board.name!r} (--board)")
    if SEALED in tags:
        raise fail(SEALED, sealed_message())
    try:
        lineup = check_lineup(game, tags["Lineup"])
    except NestrefError as error:
        raise fail("Lineup", str(error)) from None
    if lineup == OWN_SETUPS and "Position" not in tags:
        raise fail("Lineup", "a game from the players' own set-ups needs its Position tag: the set-ups")
    if tags["Starter"] not in ("red", "blue"):
        raise fail("Starter", f"the Starter is red or blue, not {tags['Starter']!r}")
    starter = Side.from_text(tags["Starter"])
    if "Position" in tags:
        try:
            start = game.read_position(tags["Position"])
        except NestrefError as error:
            raise fail("Position", f"the Position cannot be read: {error}") from None
        if start.turn is not starter:
            raise fail("Position", f"the Position has {start.turn.label} to move, but the Starter is {starter.label}")
    else:
        if (lineup, starter) not in starts:
            starts[lineup, starter] = game.start(lineup, starter)
        start = starts[lineup, starter].copy()
    start_position = start.to_text()
    started_at = _started_at(tags, fail)
    if tags["Result"] not in RESULTS:
        raise fail("Result", f"the Result is red, blue, draw or *, not {tags['Result']!r}")
    if parsed.result != tags["Result"]:
        raise scanner.fail(
            f"the moves end in {parsed.result}, but the Result tag says {tags['Result']}", parsed.result_line
        )
    if "Termination" not in tags and tags["Result"] != "*":
        raise fail("Result", "the game has no Termination tag: how was it won?")
    number = tags.get("Round", "1")
    if not _ROUND.fullmatch(number):
        raise fail("Round", f"the Round is the game's number in its set, 1 or more, not {number!r}")
    lenient = tags.get("Rules", "")
    if lenient not in ("", "lenient"):
        raise fail("Rules", f"the Rules are 'lenient' or left out, not {lenient!r}")
    record = GameRecord(
        game=game.name,
        board=board,
        lineup=lineup,
        start_position=start_position,
        started_at=started_at,
        result=tags["Result"],
        termination=tags.get("Termination", UNTERMINATED),
        events=tuple(parsed.events),
        number=int(number),
        lenient=bool(lenient),
        tags=other_tags(tags),
    )

    def where(index: int | None) -> str:
        if index is None:
            line = first_line
        elif index < len(parsed.event_lines):
            line = parsed.event_lines[index]
        else:  # the end: the result and how the game ended
            line = parsed.result_line
        return f"{scanner.source}:{line}"

    check_record(record, game, where=where, start=start)
    return record


def _started_at(tags: dict[str, str], fail: Callable[[str, str], RecordError]) -> int:
    """When the game started, from its Date and UTCTime, in seconds since the epoch."""
    date = _DATE.fullmatch(tags["Date"])
    if date is None:
        raise fail("Date", f"the Date is YYYY.MM.DD, not {tags['Date']!r}")
    time = _TIME.fullmatch(tags.get("UTCTime", "00:00:00"))
    if time is None:
        raise fail("UTCTime", f"the UTCTime is HH:MM:SS, not {tags['UTCTime']!r}")
    year, month, day, hour, minute, second = (int(part) for part in date.groups() + time.groups())
    try:
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError as error:
        raise fail("Date", f"no such date and time: {tags['Date']} {tags.get('UTCTime', '')}: {error}") from None
    seconds = int(moment.timestamp())
    if seconds < 0:
        raise fail("Date", f"a game recorded starts in 1970 or later, not on {tags['Date']}")
    return seconds


_KINDS = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Co": "a private-use character",
    "Cn": "a character Unicode does not assign",
    "Cs": "a surrogate",
}


def _character(char: str) -> str:
    """A character that is not printable, named so that a message can quote it:
    ``U+001B (a control character)``."""
    kind = "a tab" if char == "\t" else "a space other than the plain one" if char.isspace() else None
    if kind is None:
        kind = _KINDS.get(unicodedata.category(char), "a character that is not printable")
    return f"U+{ord(char):04X} ({kind})"
