"""Game records: the writer and the reader, round trips over random games, and every
kind of malformed record refused with its line."""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.games import load_game
from firmware_host.games.base import Side
from firmware_host.records import (
    MAX_LINE,
    MAX_TAG_VALUE,
    Comment,
    GameRecord,
    Played,
    RecordError,
    TakeBack,
    check_record,
    read_records,
    write_record,
    write_records,
)
from firmware_host.records.reader import BYTE_ORDER_MARK
from tests.records_helpers import GAMES, records

GAME = load_game("cuckoo")
START = GAME.start("standard", Side.RED).to_text()

# A game blue won by capturing red's cuckoo (condition 2), one move taken back on the way.
WON = """\
[Event "Club night"]
[Site "Leiden"]
[Date "2026.12.01"]
[Round "2"]
[Red "Ann"]
[Blue "Bo \\"the Bird\\""]
[Result "blue"]
[Game "cuckoo"]
[Board "hexhex-5"]
[Lineup "standard"]
[Starter "red"]
[UTCTime "11:40:07"]
[Termination "2"]

1. c3-d4 g7-h6 2. f3-g4 {taken back} 2. f3-g4 f7-f6 3. g3-h4 d8-d7 4. e3-f4 f6-f5
5. f4xf5 d9-d8 6. e2-f3 b7-c6 7. d1-e2 e7-f6 8. f5xf6 d8xf6 9. e2-e4 f6xg4
10. e4xg4 h6-i5 11. h4xi5 a8-b7 12. g4-f6 d7-e6 13. f6xf8 e9xf8 14. d2-e3 c7-d6
15. c1-d2 a9-a8 16. d2-d3 c6-d5 17. d4xd5 d6xd5 18. d3xd5 c9-e7 19. d5xb7 a8xb7
blue
"""


def test_a_won_game_is_read_with_its_tags_take_back_and_outcome():
    (record,) = read_records(WON, game=GAME, source="won.txt")
    assert record.result == "blue" and record.termination == "2"
    assert record.number == 2
    assert record.tag("Blue") == 'Bo "the Bird"' and record.tag("Red") == "Ann"
    assert record.date.isoformat() == "2026-12-01T11:40:07+00:00"
    assert record.events[2:5] == (Played("f3-g4"), TakeBack(), Played("f3-g4"))
    assert len(record.moves) == 38
    assert check_record(record, GAME).outcome() == GAME.outcome_from_record("blue", "2")


def test_the_writer_writes_the_seven_tags_first_and_wraps_the_moves():
    (record,) = read_records(WON, game=GAME)
    text = write_record(record, game=GAME)
    assert [line[1:].split()[0] for line in text.splitlines()[:7]] == [
        "Event",
        "Site",
        "Date",
        "Round",
        "Red",
        "Blue",
        "Result",
    ]
    assert "Position" not in text  # it starts from its lineup
    assert max(len(line) for line in text.splitlines()) <= 79
    assert re.search(r"\n2\. f3-g4 \{taken back\} 2\. f3-g4|2\. f3-g4 \{taken back\}\n?\s*2\. f3-g4", text)
    assert read_records(text, game=GAME) == [record]


def test_a_take_back_of_the_second_players_move_is_numbered_with_dots():
    record = GameRecord(
        "cuckoo",
        "hexhex-5",
        "standard",
        START,
        0,
        "*",
        "unterminated",
        (Played("c3-c4"), Played("c7-c6"), TakeBack(), Comment("blue thinks again"), Played("d8-d7")),
    )
    movetext = write_record(record, game=GAME).split("\n\n")[1]
    assert movetext == "1. c3-c4 c7-c6 {taken back} {blue thinks again} 1... d8-d7 *"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(records(), min_size=1, max_size=3))
def test_random_games_of_every_game_and_lineup_are_read_back_as_written(games):
    by_game: dict[str, list[GameRecord]] = {}
    for record in games:
        by_game.setdefault(record.game, []).append(record)
    for name, written in by_game.items():
        text = write_records(written, game=GAMES[name])
        assert read_records(text, game=GAMES[name], source="random.txt") == written
        assert max(len(line) for line in text.splitlines() if not line.startswith("[")) <= 79 or any(
            isinstance(event, Comment) for record in written for event in record.events
        )


def test_every_lineup_is_covered_by_the_random_games():
    found: set[str] = set()

    @settings(max_examples=60, deadline=None, database=None)
    @given(records(GAME))
    def collect(record):
        found.add(record.lineup)

    collect()
    assert found == set(GAME.lineups)


# -- malformed records: each kind of error, with its line ------------------------------------


def _with(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "no game in it"),
        ("1. c3-c4 *\n", 1, "a game begins with tag pairs"),
        (_with(WON, '[Site "Leiden"]', "[Site Leiden]"), 2, 'a tag pair is [Name "value"] alone on its line'),
        (_with(WON, '[Site "Leiden"]', '[Site "Lei\\nden"]'), 2, 'only \\" and \\\\ may follow'),
        (_with(WON, '[Site "Leiden"]', '[Site "Lei\rden"]'), 2, "no carriage return"),
        (_with(WON, '[Site "Leiden"]', '[Site "Leiden"] [Event "x"]'), 2, "alone on its line"),
        (_with(WON, '[Site "Leiden"]', '[Red "Leiden"]'), 5, "the tag Red twice (first on line 2)"),
        (_with(WON, '[Game "cuckoo"]\n', ""), 1, "the game has no Game tag"),
        (_with(WON, '[Date "2026.12.01"]\n', ""), 1, "the game has no Date tag"),
        (_with(WON, '[Game "cuckoo"]', '[Game "chess"]'), 8, "a record of the game 'chess'"),
        (_with(WON, '[Board "hexhex-5"]', '[Board "hexhex-3"]'), 9, "not on 'hexhex-5'"),
        (_with(WON, '[Lineup "standard"]', '[Lineup "wild"]'), 10, "wild"),
        (_with(WON, '[Starter "red"]', '[Starter "green"]'), 11, "the Starter is red or blue"),
        (_with(WON, '[Starter "red"]', '[Starter "red"]\n[Position "nonsense"]'), 12, "the Position cannot be read"),
        (_with(WON, '[Starter "red"]', '[Starter "blue"]\n[Position "' + START + '"]'), 12, "red to move"),
        (_with(WON, '[Date "2026.12.01"]', '[Date "2026-12-01"]'), 3, "the Date is YYYY.MM.DD"),
        (_with(WON, '[Date "2026.12.01"]', '[Date "2026.02.30"]'), 3, "no such date"),
        (_with(WON, '[Date "2026.12.01"]', '[Date "1969.12.31"]'), 3, "starts in 1970 or later"),
        (_with(WON, '[UTCTime "11:40:07"]', '[UTCTime "11h40"]'), 12, "the UTCTime is HH:MM:SS"),
        (_with(WON, '[Round "2"]', '[Round "0"]'), 4, "the Round is the game's number in its set"),
        (_with(WON, '[Result "blue"]', '[Result "1-0"]'), 7, "the Result is red, blue, draw or *"),
        (_with(WON, '[Termination "2"]\n', ""), 7, "no Termination tag"),
        (_with(WON, '[Termination "2"]', '[Termination "2"]\n[Rules "strict"]'), 14, "the Rules are 'lenient'"),
        (_with(WON, "\nblue\n", "\nred\n"), 19, "the moves end in red, but the Result tag says blue"),
        (_with(WON, "\nblue\n", "\n"), 19, "do not end with its result"),
        (_with(WON, "\nblue\n", "\n[Event"), 19, "a tag pair among the moves"),
        (_with(WON, "7. d1-e2", "7. d1-e2 } "), 16, "a } with nothing open"),
        (_with(WON, "7. d1-e2", "7. d1-e2 {about"), 16, "a comment's { is never closed"),
        (_with(WON, "5. f4xf5", "6. f4xf5"), 16, "the move number 6. where 5. is due"),
        (_with(WON, "f4xf5 d9-d8", "f4xf5 5. d9-d8"), 16, "the move number 5. where 5... is due"),
        (_with(WON, "e2-f3 b7-c6", "e2-f3 b7-zz"), 16, "move 6... 'b7-zz' is not a move"),
        (_with(WON, "e2-f3 b7-c6", "e2-f3 b7-b5"), 16, "move 6... b7-b5 is illegal"),
        (_with(WON, "1. c3-d4", "{taken back} 1. c3-d4"), 15, "a take back with no move to take back"),
        (_with(WON, "1. c3-d4", "{hint} 1. c3-d4"), 15, "a {hint} marks the move just before it"),
        (_with(WON, "7. d1-e2", "7. d1-e2 {hint} {hint}"), 16, "a {hint} marks the move just before it"),
        (_with(WON, "{taken back}", "{taken back} {hint}"), 15, "a {hint} marks the move just before it"),
        (_with(WON, "a8xb7\nblue", "a8xb7 20. c2-c3\nblue"), 18, "move 20. c2-c3 is illegal: the game is over"),
        (_with(WON, '[Termination "2"]', '[Termination "resignation"]'), 19, "the game is over (blue: cuckoo captured"),
        (_with(_with(WON, "a8xb7\nblue", "\n*"), '"blue"]', '"*"]'), 19, "ends abandoned or unterminated, not '2'"),
        (
            _with(_with(_with(WON, "a8xb7\nblue", "\ndraw"), '"blue"]', '"draw"]'), 'n "2"]', 'n "draw"]'),
            19,
            "the game is not over by the rules",
        ),
    ],
)
def test_a_malformed_record_is_refused_with_its_line_and_what_is_wrong(text, line, words):
    with pytest.raises(RecordError) as refused:
        read_records(text, game=GAME, source="bad.txt")
    message = str(refused.value)
    assert message.startswith(f"bad.txt:{line}: "), message
    assert words in message, message


def test_a_lenient_move_is_read_only_from_a_record_that_says_lenient():
    # A step that misses a compulsory capture: only lenient rules allow it.
    position = GAME.start("standard", Side.RED)
    while not set(position.lenient_moves()) - set(position.legal_moves()):
        position.push(position.legal_moves()[0])
    start = position.to_text()
    missed = next(move for move in position.lenient_moves() if move not in position.legal_moves()).to_text()
    strict = GameRecord("cuckoo", "hexhex-5", "standard", start, 0, "*", "unterminated", (Played(missed),))
    with pytest.raises(RecordError, match=r"move \d+\.+ \S+ is illegal"):
        check_record(strict, GAME)
    lenient = GameRecord(
        "cuckoo", "hexhex-5", "standard", start, 0, "*", "unterminated", (Played(missed),), lenient=True
    )
    text = write_record(lenient, game=GAME)
    assert '[Rules "lenient"]' in text
    assert read_records(text, game=GAME) == [lenient]


_GRAMMAR_PIECES = st.sampled_from(
    [
        "[",
        "]",
        "{",
        "}",
        '"',
        "\\",
        "\n",
        "\r",
        " ",
        "1.",
        "1...",
        "*",
        "red",
        "blue",
        "draw",
        "c3-c4",
        "pass",
        "x",
        "?",
    ]
    + [
        f'[{name} "{value}"]\n'
        for name in ("Game", "Lineup", "Starter", "Date", "Result", "Position", "Round")
        for value in ("cuckoo", "standard", "red", "2026.12.01", "1969.12.31", "*", START, "1", "", "x", "\r")
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.lists(_GRAMMAR_PIECES, max_size=40).map("".join)))
def test_arbitrary_text_is_read_or_refused_with_a_record_error_never_anything_else(text):
    try:
        games = read_records(text, game=GAME, source="fuzz.txt")
    except RecordError as error:
        games, message = [], str(error)
    if games:
        assert read_records(write_records(games, game=GAME), game=GAME) == games
    else:
        assert re.match(r"fuzz\.txt:\d+: \S", message), message


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records(GAME), st.data())
def test_a_random_record_with_one_character_changed_is_read_or_refused_with_a_record_error(record, data):
    text = write_record(record, game=GAME)
    where = data.draw(st.integers(0, len(text) - 1))
    changed = text[:where] + data.draw(st.sampled_from(list('[]{}"\\ \n.*x0'))) + text[where + 1 :]
    try:
        read_records(changed, game=GAME, source="changed.txt")
    except RecordError as error:
        message: str | None = str(error)
    else:
        message = None
    assert message is None or re.match(r"changed\.txt:\d+: \S", message), message  # refused: the line, what is wrong


def test_a_record_value_refuses_what_no_record_file_could_hold():
    with pytest.raises(ValueError, match="a result is one of"):
        GameRecord("cuckoo", "hexhex-5", "standard", START, 0, "1-0", "2")
    with pytest.raises(ValueError, match="from 1970 to 9999"):
        GameRecord("cuckoo", "hexhex-5", "standard", START, -1, "*", "unterminated")
    with pytest.raises(ValueError, match="line break"):
        GameRecord("cuckoo", "hexhex-5", "standard", START, 0, "*", "unterminated", tags=(("Site", "a\nb"),))
    with pytest.raises(ValueError, match="cannot be one of the other tags"):
        GameRecord("cuckoo", "hexhex-5", "standard", START, 0, "*", "unterminated", tags=(("Date", "x"),))
    with pytest.raises(ValueError, match="single-spaced"):
        Comment("two  spaces")
    with pytest.raises(ValueError, match="stands for a take back"):
        Comment("taken back")


def test_the_example_in_the_docs_is_read_and_written_back_as_it_stands():
    doc = (Path(__file__).parent.parent / "docs" / "game-records.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- example -->\n```text\n(.*?)```", doc, re.DOTALL)
    assert match is not None
    example = match.group(1)
    (record,) = read_records(example, game=GAME, source="docs/game-records.md")
    assert write_record(record, game=GAME) == example + "\n"
    assert record.tag("TimeControl") == "-" and any(isinstance(event, Comment) for event in record.events)
    with pytest.raises(RecordError) as refused:
        read_records(example.replace("9. e2-e4", "9. e2-e5"), game=GAME, source="club.txt")
    assert f"nestref: {refused.value}" in doc


@settings(max_examples=300, deadline=None)
@given(
    st.text(st.characters(exclude_characters='"\\\n\r'), max_size=60),
    st.lists(st.text(st.characters(exclude_categories=("Zs", "Cc")), min_size=1, max_size=8), max_size=4),
)
def test_any_position_or_move_in_a_record_is_read_or_refused_with_a_record_error(position, moves):
    text = _with(WON, '[Starter "red"]', f'[Starter "red"]\n[Position "{position}"]')
    text = _with(text, "1. c3-d4 g7-h6", " ".join(moves) + " 1. c3-d4 g7-h6")
    try:
        read_records(text, game=GAME, source="fuzz.txt")
    except RecordError as error:
        message: str | None = str(error)
    else:
        message = None
    assert message is None or re.match(r"fuzz\.txt:\d+: \S", message), message  # refused: the line, what is wrong


def test_the_grammars_corner_cases_are_read_as_the_docs_say():
    (plain,) = read_records(WON, game=GAME)
    # No move numbers at all, numbers stuck to their moves, CRLF line ends, extra blanks
    # in the tag pairs, a comment over two lines, an empty comment, an unknown tag.
    bare = re.sub(r"\b\d+\. ", "", WON)
    stuck = WON.replace("5. f4xf5", "5.f4xf5").replace("10. e4xg4", "10.e4xg4")
    crlf = WON.replace("\n", "\r\n")
    blanks = WON.replace('[Site "Leiden"]', '[ Site\t "Leiden" ]  ')
    for text in (bare, stuck, crlf, blanks):
        assert read_records(text, game=GAME) == [plain]
    commented = WON.replace("7. d1-e2", "{a comment\nover   two lines} {} 7. d1-e2")
    (record,) = read_records(commented.replace('[Termination "2"]', '[Termination "2"]\n[Annotator "Cy"]'), game=GAME)
    assert Comment("a comment over two lines") in record.events
    assert record.tag("Annotator") == "Cy" and len(record.events) == len(plain.events) + 1
    # Two games with no blank line between them, and none at the end.
    two = read_records(WON + WON.replace('[Round "2"]', '[Round "3"]').rstrip("\n"), game=GAME)
    assert [each.number for each in two] == [2, 3]
    # A game started by blue: its first move is "1.", blue's.
    blue_first = GAME.start("standard", Side.BLUE)
    move = blue_first.legal_moves()[0].to_text()
    text = _with(_with(WON, '[Starter "red"]', '[Starter "blue"]'), WON[WON.index("1. c3") : -1], f"1. {move} *")
    text = _with(_with(text, '[Result "blue"]', '[Result "*"]'), '[Termination "2"]', '[Termination "unterminated"]')
    (record,) = read_records(text, game=GAME)
    assert record.moves == (move,) and record.start_position == blue_first.to_text()
    with pytest.raises(RecordError, match=r"the move number 1\.\.\. where 1\. is due"):
        read_records(text.replace(f"1. {move}", f"1... {move}"), game=GAME)


def test_a_move_played_after_a_hint_is_marked_and_read_back():
    (plain,) = read_records(WON, game=GAME)
    text = WON.replace("5. f4xf5 d9-d8", "5. f4xf5 {hint} d9-d8 {hint}")
    (hinted,) = read_records(text, game=GAME)
    marked = [event.move for event in hinted.events if isinstance(event, Played) and event.hinted]
    assert marked == ["f4xf5", "d9-d8"]
    assert hinted.moves == plain.moves  # the same game: only the marks differ
    written = write_records([hinted], game=GAME)
    assert "5. f4xf5 {hint} 5... d9-d8 {hint} 6. e2-f3" in " ".join(written.split())
    assert read_records(written, game=GAME) == [hinted]
    with pytest.raises(ValueError, match="marks a move played after a hint"):
        Comment("hint")


# -- records from strangers: sizes and characters (issue 30) ---------------------------------


def _peak_bytes(read: Callable[[], object]) -> int:
    """The most memory Python held while ``read`` ran, above what it held before."""
    tracemalloc.start()
    try:
        read()
    except RecordError:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_a_tag_value_left_open_is_refused_in_one_pass_over_its_line():
    # The tag pair's pattern once backtracked: some 165 bytes of memory per character.
    text = '[Event "' + "a" * (MAX_LINE - 20) + "\n" + WON
    with pytest.raises(RecordError, match=r'^bad\.txt:1: a tag pair is \[Name "value"\] alone on its line$'):
        read_records(text, game=GAME, source="bad.txt")
    assert _peak_bytes(lambda: read_records(text, game=GAME)) < 4 * len(text)


def test_a_line_longer_than_a_record_may_have_is_refused_with_its_line_before_it_is_read():
    text = _with(WON, '[Site "Leiden"]', '[Site "' + "a" * 20_000_000 + '"]')
    with pytest.raises(RecordError) as refused:
        read_records(text, game=GAME, source="big.txt")
    assert (
        str(refused.value)
        == "big.txt:2: a line of 20,000,009 characters: a record's lines are 16,384 characters at most"
    )
    assert _peak_bytes(lambda: read_records(text, game=GAME)) < 2 * len(text)  # a copy at most, never 165 times it
    moves = _with(WON, "\nblue\n", "\n" + "{" + "a" * MAX_LINE + "} blue\n")
    with pytest.raises(RecordError, match=r"^big\.txt:19: a line of 16,391 characters"):
        read_records(moves, game=GAME, source="big.txt")


def test_a_tag_value_longer_than_a_record_may_have_is_refused_and_one_as_long_is_read():
    longest = "a" * MAX_TAG_VALUE
    (record,) = read_records(_with(WON, '[Site "Leiden"]', f'[Site "{longest}"]'), game=GAME)
    assert record.tag("Site") == longest
    with pytest.raises(RecordError) as refused:
        read_records(_with(WON, '[Site "Leiden"]', f'[Site "{longest}a"]'), game=GAME, source="long.txt")
    assert str(refused.value) == "long.txt:2: the tag Site: a value of 1,001 characters: a tag's value is 1,000 at most"


@pytest.mark.parametrize(
    ("char", "kind"),
    [
        ("\x1b", "U+001B (a control character)"),  # ESC: a terminal's escape sequences begin with it
        ("\x07", "U+0007 (a control character)"),  # BEL
        ("\x00", "U+0000 (a control character)"),  # NUL
        ("\x08", "U+0008 (a control character)"),  # backspace
        ("\x7f", "U+007F (a control character)"),  # delete
        ("\x9b", "U+009B (a control character)"),  # the one-character CSI
        ("\u202e", "U+202E (an invisible format character)"),  # right-to-left override
        ("\u200b", "U+200B (an invisible format character)"),  # zero-width space
        ("\ufeff", "U+FEFF (an invisible format character)"),  # a byte-order mark not at the start
        ("\ue000", "U+E000 (a private-use character)"),
    ],
)
def test_a_character_that_is_not_printable_is_refused_wherever_it_is_with_its_line_and_column(char, kind):
    red = _with(WON, '[Red "Ann"]', f'[Red "A{char}nn"]')
    comment = _with(WON, "7. d1-e2", f"{{a note{char}}} 7. d1-e2")
    move = _with(WON, "7. d1-e2", f"7. d1-e2{char}")
    for text, line in ((red, 5), (comment, 16), (move, 16)):
        column = text.split("\n")[line - 1].index(char) + 1
        with pytest.raises(RecordError) as refused:
            read_records(text, game=GAME, source="bad.txt")
        message = str(refused.value)
        assert message == f"bad.txt:{line}: {kind} in column {column}: a record is printable text"
        assert message.isprintable()


@pytest.mark.parametrize(
    ("char", "kind"), [("\t", "U+0009 (a tab)"), ("\xa0", "U+00A0 (a space other than the plain one)")]
)
def test_white_space_other_than_a_plain_space_is_refused_in_a_tag_value_and_read_between_words(char, kind):
    with pytest.raises(RecordError) as refused:
        read_records(_with(WON, '[Red "Ann"]', f'[Red "A{char}nn"]'), game=GAME, source="bad.txt")
    assert (
        str(refused.value)
        == f"bad.txt:5: the tag Red: {kind} in its value: a value is printable text, its spaces plain"
    )
    (plain,) = read_records(WON, game=GAME)
    assert read_records(WON.replace(" d9-d8", f"{char}d9-d8"), game=GAME) == [plain]


def test_a_record_that_begins_with_a_byte_order_mark_is_read():
    (plain,) = read_records(WON, game=GAME)
    assert read_records(BYTE_ORDER_MARK + WON, game=GAME) == [plain]
    with pytest.raises(RecordError, match=r"^bad\.txt:2: a line of"):  # its lines counted as before
        read_records(BYTE_ORDER_MARK + _with(WON, '"Leiden"', '"' + "a" * MAX_LINE + '"'), game=GAME, source="bad.txt")


def test_the_writer_writes_a_character_that_is_not_printable_as_its_escape_which_reads_back():
    record = GameRecord(
        "cuckoo", "hexhex-5", "standard", START, 0, "*", "unterminated", tags=(("Red", "Ann\x1b]0;owned\x07"),)
    )
    text = write_record(record, game=GAME)  # a record kept by an older nestref, which read such values
    assert '[Red "Ann\\\\x1b]0;owned\\\\x07"]' in text and all(line.isprintable() for line in text.splitlines())
    (read,) = read_records(text, game=GAME)
    assert read.tag("Red") == "Ann\\x1b]0;owned\\x07"
