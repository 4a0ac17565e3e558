"""The writer of game records: :class:`~firmware_host.records.record.GameRecord` to
text, in the format of ``docs/game-records.md`` (what :mod:`.reader` reads back)."""

from __future__ import annotations

from collections.abc import Iterable

from firmware_host.files import printable
from firmware_host.games.base import OWN_SETUPS, Game, public_text
from firmware_host.records.record import HINT, SEALED, SEVEN_TAGS, TAKEN_BACK, GameRecord, Played, TakeBack

LINE_LENGTH = 79
"""The moves are wrapped to lines this long at most (a longer comment is broken at its
spaces, which a reader takes as one)."""


def write_records(records: Iterable[GameRecord], *, game: Game) -> str:
    """The records, one after the other, each ending in a blank line."""
    return "".join(write_record(record, game=game) for record in records)


def write_record(record: GameRecord, *, game: Game) -> str:
    """One game's record: its tags, a blank line, its moves and result, a blank line.

    ``game`` gives the start position of the record's lineup: a record that starts
    there has no ``Position`` tag. A game from the players' own set-ups always has one:
    its start, both set-ups in it, once the game is over; while it is not (Result
    ``*``), the record is *sealed*: its Position is the public view, no hidden rank in
    it, and a ``Sealed`` tag says so. Raises the game's
    :class:`~firmware_host.errors.NestrefError` if the record's start position cannot
    be read.
    """
    start = game.read_position(record.start_position)
    starter = start.turn
    # A demo lineup hides nothing (it is in the board file); the players' own set-ups do.
    sealed = game.setups is not None and record.lineup == OWN_SETUPS and record.result == "*"
    date = record.date
    known = {
        "Date": date.strftime("%Y.%m.%d"),
        "Round": str(record.number),
        "Result": record.result,
    }
    others = dict(record.tags)
    tags = [(name, known[name] if name in known else others.pop(name, "?")) for name in SEVEN_TAGS]
    tags += [("Game", record.game), ("Board", record.board), ("Lineup", record.lineup), ("Starter", starter.label)]
    if sealed:
        tags.append(("Position", public_text(game, start)))
        others[SEALED] = "ranks hidden until the game ends"
    elif record.lineup == OWN_SETUPS or record.start_position != game.start(record.lineup, starter).to_text():
        tags.append(("Position", record.start_position))
    tags += [("UTCTime", date.strftime("%H:%M:%S")), ("Termination", record.termination)]
    if record.lenient:
        others["Rules"] = "lenient"
    tags += others.items()
    head = "".join(f'[{printable(name)} "{_quoted(value)}"]\n' for name, value in tags)
    return f"{head}\n{_wrapped(_movetext(record))}\n\n"


def _quoted(value: str) -> str:
    """A tag's value between its quotes. A character that is not printable (which the
    reader refuses: a record kept by an older nestref may hold one) is written as its
    escape, ``\\x1b``, as text."""
    return printable(value).replace("\\", "\\\\").replace('"', '\\"')


def _movetext(record: GameRecord) -> list[str]:
    """The words of the moves: numbers, moves, comments (``{taken back}`` for a take
    back) and the result."""
    words: list[str] = []
    ply = 0  # of the moves that stand so far
    numbered = False  # whether the move due next follows its number directly
    for event in record.events:
        if isinstance(event, Played):
            # A number and its move stay on one line.
            if ply % 2 == 0:
                words.append(f"{ply // 2 + 1}. {event.move}")
            elif not numbered:
                words.append(f"{ply // 2 + 1}... {event.move}")
            else:
                words.append(event.move)
            ply += 1
            numbered = not event.hinted
            if event.hinted:
                words.append("{" + HINT + "}")
        else:
            if isinstance(event, TakeBack):
                ply = max(ply - 1, 0)
            words.append("{" + (TAKEN_BACK if isinstance(event, TakeBack) else printable(event.text)) + "}")
            numbered = False
    words.append(record.result)
    return words


def _wrapped(words: list[str]) -> str:
    """The words on lines of :data:`LINE_LENGTH` at most, where they allow."""
    lines: list[str] = []
    line = ""
    for piece in (piece for word in words for piece in _pieces(word)):
        if line and len(line) + 1 + len(piece) > LINE_LENGTH:
            lines.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return "\n".join(lines)


def _pieces(word: str) -> list[str]:
    """A comment is broken at its spaces (a reader joins them again); any other word is
    one piece."""
    if word.startswith("{") and len(word) > LINE_LENGTH:
        return word.split(" ")
    return [word]
