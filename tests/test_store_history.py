"""The record's history, on SQLite on disk: games listed, read back as game records with
their take backs, and game records imported beside the referee's own games."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from firmware_host.games import load_game
from firmware_host.games.base import Side, public_view
from firmware_host.recorder.store import (
    SCHEMA_VERSION,
    GameStore,
    StorageTrouble,
    StorageUnavailableError,
    StoreError,
    UnknownGameError,
)
from firmware_host.records import (
    TIME,
    Comment,
    GameRecord,
    Played,
    RecordError,
    TakeBack,
    is_lenient,
    read_records,
    write_record,
)
from firmware_host.referee.signals import GameAbandoned, GameOver, GameStarted, MoveAccepted, TakenBack
from tests.records_helpers import records

GAME = load_game("cuckoo")
START = GAME.start("standard", Side.RED).to_text()


class Clock:
    """The wall clock the store reads, moved on by the test."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self) -> float:
        return self.seconds


def play_live(store: GameStore, clock: Clock, record: GameRecord, *, new_set: bool = True) -> None:
    """Write ``record`` as the referee would have as it was played: one batch of
    signals per event, a millisecond or more apart."""
    clock.seconds = record.started_at
    position = GAME.read_position(record.start_position)
    started = GameStarted(record.number, record.lineup, position.turn, public_view(GAME, position), new_set=new_set)
    store.record([started], positions=[position.to_text()], referee_ms=0)
    for event in record.events:
        clock.seconds += 0.002
        if isinstance(event, Played):
            move = position.push(GAME.read_move(event.move), lenient=record.lenient)
            view = public_view(GAME, position)
            signal = MoveAccepted(move, position.turn.opponent, len(position.move_stack), view, hinted=event.hinted)
            store.record([signal], positions=[position.to_text()], referee_ms=0)
        elif isinstance(event, TakeBack):
            ply = len(position.move_stack)
            store.record([TakenBack(position.pop(), ply)], positions=(), referee_ms=0)
    clock.seconds += 0.002
    outcome = position.outcome()
    if outcome is not None:
        store.record([GameOver(outcome, (0, 0), None)], positions=(), referee_ms=0)
    elif record.result in ("red", "blue"):
        resigned = GameOver(GAME.resignation(Side.from_text(record.result).opponent), (0, 0), None)
        store.record([resigned], positions=(), referee_ms=0)
    elif record.termination == "abandoned":
        store.record([GameAbandoned(record.number)], positions=(), referee_ms=0)


def as_stored(record: GameRecord, *, imported: bool) -> GameRecord:
    """What the store keeps of ``record``: its moves and take backs but not its
    comments, "lenient" only if a move needs it, and its other tags if it was imported
    (the referee has none of its own)."""
    events = tuple(event for event in record.events if not isinstance(event, Comment))
    lenient = is_lenient(GAME, record.start_position, events)
    return dataclasses.replace(record, events=events, tags=record.tags if imported else (), lenient=lenient)


live_records = records(GAME).filter(lambda record: record.termination != TIME)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(live_records)
def test_a_game_the_referee_recorded_reads_back_as_its_record_take_backs_and_hints_in_place(tmp_path_factory, record):
    path = tmp_path_factory.mktemp("live") / "games.sqlite"
    clock = Clock(0)
    with GameStore(path, game=GAME, clock=clock) as store:
        play_live(store, clock, record)
        (summary,) = store.games()
        assert store.game_record(summary.id) == as_stored(record, imported=False)
        assert (summary.red, summary.blue) == (None, None)
        assert summary.moves == len(record.moves) and summary.id >= 0
        assert summary.result == (None if record.result == "*" else record.result)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records(GAME))
def test_an_imported_record_reads_back_as_it_was_and_is_imported_once(tmp_path_factory, record):
    path = tmp_path_factory.mktemp("import") / "games.sqlite"
    with GameStore(path, game=GAME, clock=Clock(0)) as store:
        game_id = store.import_record(record)
        assert game_id is not None and game_id < 0
        assert store.game_record(game_id) == as_stored(record, imported=True)
        assert store.import_record(record) is None
        (summary,) = store.games()
        assert summary.id == game_id
        assert (summary.red, summary.blue) == (dict(record.tags).get("Red"), dict(record.tags).get("Blue"))
        assert store.load() is None and store.last_game() is None  # nothing of the referee's own to resume


def test_imported_games_stay_out_of_the_way_of_the_game_being_played(tmp_path):
    path = tmp_path / "games.sqlite"
    clock = Clock(1_800_000_000)
    live = GameRecord("cuckoo", "hexhex-5", "standard", START, 1_800_000_000, "*", "unterminated", (Played("c3-c4"),))
    old = GameRecord("cuckoo", "hexhex-5", "standard", START, 1_700_000_000, "blue", "resignation", (Played("d2-d3"),))
    with GameStore(path, game=GAME, clock=clock) as store:
        play_live(store, clock, live)
        first = store.import_record(old)
        second = store.import_record(dataclasses.replace(old, started_at=1_700_000_100))
        # The referee goes on with its own game: the next move is written to it.
        position = GAME.read_position(START)
        position.push(GAME.read_move("c3-c4"))
        move = position.push(GAME.read_move("c7-c6"))
        accepted = MoveAccepted(move, Side.BLUE, 2, public_view(GAME, position))
        store.record([accepted], positions=[position.to_text()], referee_ms=0)
        saved = store.load()
        assert saved is not None and saved.position is not None
        assert [each.to_text() for each in saved.position.move_stack] == ["c3-c4", "c7-c6"]
        last = store.last_game()
        assert last is not None and last.moves == ("c3-c4", "c7-c6")
        listed = store.games()
        assert [summary.id for summary in listed] == [first, second, 1]  # by date
        assert second is not None and first is not None and second < first < 0
        assert store.game_record(first).moves == ("d2-d3",)


def test_a_record_that_breaks_the_rules_is_not_imported(tmp_path):
    path = tmp_path / "games.sqlite"
    bad = GameRecord("cuckoo", "hexhex-5", "standard", START, 0, "*", "unterminated", (Played("c3-c6"),))
    with GameStore(path, game=GAME, clock=Clock(0)) as store:
        with pytest.raises(RecordError, match=r"move 1\. c3-c6 is illegal"):
            store.import_record(bad)
        assert store.games() == []
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone() == (0,)


def test_a_loss_on_time_is_kept_as_how_time(tmp_path):
    record = GameRecord("cuckoo", "hexhex-5", "standard", START, 0, "red", "time", (Played("c3-c4"),))
    with GameStore(tmp_path / "games.sqlite", game=GAME, clock=Clock(0)) as store:
        game_id = store.import_record(record)
        assert game_id is not None
        (summary,) = store.games()
        assert (summary.result, summary.how) == ("red", "time")
        assert store.game_record(game_id) == record


def test_an_unknown_game_or_one_edited_into_nonsense_is_named(tmp_path):
    path = tmp_path / "games.sqlite"
    clock = Clock(0)
    with GameStore(path, game=GAME, clock=clock) as store:
        with pytest.raises(UnknownGameError, match="no game 7 in the record"):
            store.game_record(7)
        play_live(store, clock, GameRecord("cuckoo", "hexhex-5", "standard", START, 0, "*", "unterminated"))
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO moves (game_id, ply, move, position, at, referee_ms) VALUES (1, 1, 'c3-c6', '', 0, 0)")
    with GameStore(path, game=GAME, clock=clock) as store, pytest.raises(StoreError, match="game 1 cannot be read"):
        store.game_record(1)


def test_a_record_read_from_text_imports_as_the_text_says(tmp_path):
    start = GAME.start("advanced-1", Side.BLUE)
    first, second = (move.to_text() for move in start.legal_moves()[:2])
    text = write_record(
        GameRecord(
            "cuckoo",
            "hexhex-5",
            "advanced-1",
            start.to_text(),
            1_800_000_000,
            "*",
            "abandoned",
            (Played(first), TakeBack(), Played(second)),
            number=2,
            tags=(("Red", "Ann"),),
        ),
        game=GAME,
    )
    (record,) = read_records(text, game=GAME)
    with GameStore(tmp_path / "games.sqlite", game=GAME, clock=Clock(0)) as store:
        game_id = store.import_record(record)
        assert game_id is not None
        (summary,) = store.games()
        assert (summary.number, summary.lineup, summary.is_abandoned, summary.moves) == (2, "advanced-1", True, 1)
        assert write_record(store.game_record(game_id), game=GAME) == text


FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("fixture", ["games-v2.sqlite", "games-v1.sqlite", "games-unversioned.sqlite"])
def test_an_older_record_gets_the_tags_of_imported_games_and_keeps_its_own(tmp_path, fixture):
    # games-v2.sqlite: written by the nestref of record version 2, one game blue won by
    # capturing the cuckoo (tests/fixtures/corpus/p01-sloppy-standard.log).
    path = tmp_path / "games.sqlite"
    shutil.copy(FIXTURES / fixture, path)
    with GameStore(path, game=GAME, clock=Clock(1_800_000_000)) as store:
        assert store._db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (5,)
        before = store.games()
        assert before and all((each.red, each.blue) == (None, None) for each in before)
        saved = store.load()
        imported = GameRecord(
            "cuckoo", "hexhex-5", "standard", START, 0, "*", "unterminated", tags=(("Red", "Ann"), ("Blue", "Bo"))
        )
        game_id = store.import_record(imported)
        assert game_id is not None and store.game_record(game_id) == imported
        assert (store.games()[0].red, store.games()[0].blue) == ("Ann", "Bo")  # 1970 comes first
        assert store.load() == saved
    if fixture == "games-v2.sqlite":
        assert [(each.result, each.how, each.moves) for each in before] == [("blue", "2", 38)]


def test_records_imported_together_are_stored_all_or_none(tmp_path):
    """SQLite's own limit on the file's size makes the disk full part-way through: not
    one game of the file is kept, and the error says so."""
    path = tmp_path / "games.sqlite"
    games = [
        GameRecord("cuckoo", "hexhex-5", "standard", START, 1_700_000_000 + n, "red", "resignation", (Played("c3-c4"),))
        for n in range(200)
    ]
    with GameStore(path, game=GAME, clock=Clock(0)) as store:
        assert store.import_records(games[:1]) == [-1]
        (pages,) = store._db.execute("PRAGMA page_count").fetchone()
        store._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # room for a few games, not 200
        with pytest.raises(StorageUnavailableError) as failed:
            store.import_records(games[1:])
        assert str(failed.value) == (
            f"{path}: nothing imported, the record is as it was: the 199 games cannot be written:"
            " the disk is full (database or disk is full)"
        )
        assert failed.value.trouble is StorageTrouble.FULL
        assert [summary.id for summary in store.games()] == [-1]
        store._db.execute(f"PRAGMA max_page_count = {pages * 100}")
        ids = store.import_records(games)  # once there is room: the first is there already
        assert ids == [None, *range(-2, -201, -1)]
        assert len(store.games()) == 200
