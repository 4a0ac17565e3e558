"""Game records to keep and share: a text format after PGN (``docs/game-records.md``).

Pure: text in, values out, and back; every move is checked with the game's rules
through the :class:`~firmware_host.games.base.Game` interface, so any game nestref
referees can be recorded. :mod:`.record` holds the values and the check,
:mod:`.reader` and :mod:`.writer` the two directions.

>>> from firmware_host.games import load_game
>>> from firmware_host.games.base import Side
>>> game = load_game()
>>> start = game.start("standard", Side.RED).to_text()
>>> record = GameRecord("cuckoo", "hexhex-5", "standard", start, 1_800_000_000, "blue", "resignation",
...                     (Played("c3-c4"), TakeBack(), Played("d2-d3")))
>>> text = write_record(record, game=game)
>>> print(text.split("\\n\\n")[1])
1. c3-c4 {taken back} 1. d2-d3 blue
>>> read_records(text, game=game) == [record]
True
"""

from firmware_host.records.reader import MAX_FILE_BYTES, MAX_LINE, MAX_TAG_VALUE, read_records
from firmware_host.records.record import (
    ABANDONED,
    AGREED,
    DRAW,
    HINT,
    RESIGNATION,
    TERMINATIONS,
    TIME,
    UNTERMINATED,
    Comment,
    Event,
    GameRecord,
    Played,
    RecordError,
    TakeBack,
    check_record,
    is_lenient,
)
from firmware_host.records.writer import write_record, write_records

__all__ = [
    "ABANDONED",
    "AGREED",
    "DRAW",
    "HINT",
    "MAX_FILE_BYTES",
    "MAX_LINE",
    "MAX_TAG_VALUE",
    "RESIGNATION",
    "TERMINATIONS",
    "TIME",
    "UNTERMINATED",
    "Comment",
    "Event",
    "GameRecord",
    "Played",
    "RecordError",
    "TakeBack",
    "check_record",
    "is_lenient",
    "read_records",
    "write_record",
    "write_records",
]
