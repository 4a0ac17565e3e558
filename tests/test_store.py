"""The game record in SQLite, on disk."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware_host.games.base import public_view
from firmware_host.games.cuckoo import CuckooGame
from firmware_host.games.cuckoo.rules import Move, Nest, Outcome, Position, Side, WinCondition
from firmware_host.recorder.service import RefereeService
from firmware_host.recorder.store import SCHEMA_VERSION, GameStore, StorageTrouble, StorageUnavailableError, StoreError
from firmware_host.referee.referee import Settings
from firmware_host.referee.signals import (
    CorrectionNeeded,
    GameStarted,
    MoveAccepted,
    SetupNeeded,
    Signal,
    TurnStarted,
)
from tests.helpers import play as play_moves
from tests.helpers import setup

NEST = Nest.default()
GAME = CuckooGame(NEST)


def clock() -> float:
    return 1_800_000_000.0


def service(path, start: Position | None = None, occupied=None, heard=None):
    store = GameStore(path, game=GAME, clock=clock)
    heard = heard if heard is not None else []
    start = start or Position.from_lineup()
    return RefereeService.start(
        GAME,
        settings=Settings(),
        store=store,
        announce=heard.append,
        lineup="standard",
        occupied=start.occupied() if occupied is None else occupied,
        now=0,
        position=start,
    )


def play(svc: RefereeService, script: str, time: int) -> int:
    for token in script.split():
        svc.sense(token[:-1], token[-1] == "+", time)
        time += 300
    while (due := svc.referee.next_deadline()) is not None:
        svc.tick(due)
        time = max(time, due)
    return time + 1000


def test_the_database_is_durable_and_in_wal_mode(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    assert svc.store._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert svc.store._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    svc.store.close()


def test_every_accepted_move_is_on_disk_before_it_is_announced(tmp_path):
    path = tmp_path / "games.sqlite"
    seen_on_disk: list[list[str]] = []

    def announce(signal: Signal) -> None:
        # Another connection reads the file the moment a signal is announced.
        with sqlite3.connect(path) as other:
            rows = other.execute("SELECT move FROM moves WHERE taken_back_at IS NULL ORDER BY id").fetchall()
        seen_on_disk.append([move for (move,) in rows])

    store = GameStore(path, game=GAME, clock=clock)
    svc = RefereeService.start(
        GAME,
        settings=Settings(),
        store=store,
        announce=announce,
        lineup="standard",
        occupied=Position.from_lineup().occupied(),
        now=0,
    )
    play(svc, "c3- c4+", 1000)
    assert seen_on_disk[-1] == ["c3-c4"]
    store.close()


def test_a_game_is_resumed_from_the_database(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    time = play(svc, "c3- c4+", 1000)
    time = play(svc, "c7- d6+", time)
    svc.store.close()
    assert GameStore(path, game=GAME, clock=clock).moves() == ["c3-c4", "c7-d6"]
    # The process restarts; the nest still shows the game.
    position = play_moves(Position.from_lineup(), "c3-c4", "c7-d6")
    heard: list[Signal] = []
    again = service(path, occupied=position.occupied(), heard=heard)
    assert again.referee.position is not None
    assert [str(m) for m in again.referee.position.move_stack] == ["c3-c4", "c7-d6"]
    assert next(s for s in heard if isinstance(s, TurnStarted)).side is Side.RED
    play(again, "c4- c5+", 1000)
    assert again.store.moves() == ["c3-c4", "c7-d6", "c4-c5"]


def test_a_resumed_game_whose_nest_no_longer_matches_is_put_right_first(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    play(svc, "c3- c4+", 1000)
    svc.store.close()
    heard: list[Signal] = []
    service(path, occupied=Position.from_lineup().occupied(), heard=heard)  # c4 was put back on c3
    correction = [s for s in heard if isinstance(s, CorrectionNeeded)]
    assert correction[0].cause.name == "RESUMED"
    assert [step.to_text() for step in correction[0].steps] == ["move the piece on c3 to c4"]


def test_finished_games_sets_and_take_backs_are_kept(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path, start=setup("Ca1 Ee5 cf5 ea9"))
    time = play(svc, "e5- f5- f5+", 1000)
    svc.take_back(time)
    time = play(svc, "f5- e5+ f5+", time)
    time = play(svc, "e5- f5- f5+", time)
    db = svc.store._db
    assert db.execute("SELECT move, taken_back_at IS NOT NULL FROM moves ORDER BY id").fetchall() == [
        ("e5xf5", 1),
        ("e5xf5", 0),
    ]
    assert db.execute("SELECT number, result, how, ended_at IS NOT NULL FROM games").fetchall() == [(1, "red", "2", 1)]
    saved = svc.store.load()
    assert saved is not None
    assert saved.games is not None
    assert saved.games.outcomes == (Outcome(Side.RED, WinCondition.CUCKOO_CAPTURED),)
    assert (saved.number, saved.starter, saved.position) == (2, Side.BLUE, None)


def test_not_a_database_or_another_nests(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a nestref game record"):
        GameStore(junk, game=GAME, clock=clock)
    path = tmp_path / "games.sqlite"
    service(path).store.close()
    small = Nest.load("docs/examples/hexhex-3.toml")
    with pytest.raises(StoreError, match="played on the board hexhex-5, not hexhex-3"):
        GameStore(path, game=CuckooGame(small), clock=clock).load()


def test_a_game_abandoned_and_started_again_stays_in_its_set(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    time = play(svc, "c3- c4+", 1000)
    svc.new_game(time)  # abandoned: the nest must show the lineup again
    time = play(svc, "c4- c3+", time)
    svc.new_game(time)
    play(svc, "e3- e4+", time + 1000)
    db = svc.store._db
    assert db.execute("SELECT count(*) FROM sets").fetchone() == (1,)
    assert db.execute("SELECT number, abandoned FROM games ORDER BY id").fetchall() == [(1, 1), (1, 1), (1, 0)]
    assert svc.store.moves() == ["e3-e4"]


def fill_the_disk(store: GameStore) -> None:
    """SQLite's own limit on the file's size: writes then fail as on a full disk."""
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_is_a_storage_error_and_nothing_half_written(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    play(svc, "c3- c4+", 1000)
    fill_the_disk(svc.store)
    position = svc.referee.position
    move = position.legal_moves()[0]
    accepted = MoveAccepted(move, position.turn, 2, public_view(GAME, position))  # one row per signal
    with pytest.raises(StorageUnavailableError, match=r"games\.sqlite: cannot write the game record: .*full"):
        svc.store.record([accepted] * 50, positions=["x" * 500] * 50, referee_ms=0)  # more than one page holds
    assert svc.store.moves() == ["c3-c4"]  # the transaction was rolled back whole
    svc.store.close()


def test_moves_wait_while_the_record_is_locked_and_are_recorded_then_announced_in_order(tmp_path):
    path = tmp_path / "games.sqlite"
    heard: list[Signal] = []
    svc = service(path, heard=heard)
    time = play(svc, "c3- c4+", 1000)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the file for writing
    script = "c7- c6+ b3- b4+ b7- b6+ e3- e4+ e7- e6+ f3- f4+ f7- f6+"
    moves_played = ["c7-c6", "b3-b4", "b7-b6", "e3-e4", "e7-e6", "f3-f4", "f7-f6"]
    for token in script.split():
        svc.sense(token[:-1], token[-1] == "+", time)
        for _ in range(6):  # the daemon lets time pass at every scan
            time += 100
            svc.tick(time)
    assert str(svc.referee.position.move_stack[-1]) == "f7-f6"  # the referee played on
    assert not svc.storage_ok
    assert [str(s.move) for s in heard if isinstance(s, MoveAccepted)] == ["c3-c4"]  # only what is on disk
    assert svc.store.moves() == ["c3-c4"]
    other.execute("ROLLBACK")  # the file is free again
    other.close()
    svc.tick(time + 1000)  # the next try
    assert svc.storage_ok
    assert svc.store.moves() == ["c3-c4", *moves_played]
    assert [str(s.move) for s in heard if isinstance(s, MoveAccepted)] == ["c3-c4", *moves_played]
    svc.store.close()


@pytest.mark.parametrize(
    "old_start",
    [
        "ew1we/eeeeee/eeeeeec/8/9/8/CEEEEEE/EEEEEE/EW1WE r",  # its cuckoo on a3, the first reconstruction
        "ew1we/eeeeee/eeeeece/8/9/8/ECEEEEE/EEEEEE/EW1WE r",  # on b3, until the contract moved it to c3
    ],
    ids=["a3", "b3"],
)
def test_a_game_from_an_old_advanced_2_lineup_goes_on_as_recorded_and_the_next_uses_the_new_one(tmp_path, old_start):
    # Written before the contract moved advanced-2's cuckoo (a3, then b3, now c3): the
    # record holds the game's start, so the game goes on from it; the next game is set up anew.
    path = tmp_path / "games.sqlite"
    with GameStore(path, game=GAME, clock=clock) as store:
        after = play_moves(Position.from_nfn(old_start), "g3-h4")
        store.record(
            [
                GameStarted(1, "advanced-2", Side.RED, public_view(GAME, Position.from_nfn(old_start)), new_set=True),
                MoveAccepted(Move.from_text("g3-h4"), Side.RED, 1, public_view(GAME, after)),
            ],
            positions=[old_start, after.to_nfn()],
            referee_ms=0,
        )
    heard: list[Signal] = []
    store = GameStore(path, game=GAME, clock=clock)
    svc = RefereeService.start(
        GAME, settings=Settings(), store=store, announce=heard.append, lineup="standard",
        occupied=after.occupied(), now=0,
    )  # fmt: skip
    assert svc.referee.position is not None
    assert svc.referee.position.to_text() == after.to_nfn()
    assert [s for s in heard if isinstance(s, TurnStarted)][-1].side is Side.BLUE
    svc.resign(Side.BLUE, 1000)
    setup_needed = [s for s in heard if isinstance(s, SetupNeeded)][-1]
    assert (setup_needed.lineup, setup_needed.fill, setup_needed.empty) == ("advanced-2", ("g3",), ("h4",))
    play(svc, "h4- g3+", 2000)  # the same cells as before: the lineups differ in which piece is where
    started = [s for s in heard if isinstance(s, GameStarted)][-1]
    assert started.number == 2 and store.last_game() is not None
    assert started.public_view.text == Position.from_lineup("advanced-2", turn=Side.BLUE).to_nfn()
    assert started.public_view.text.split()[0].split("/")[6] == "EECEEEE"  # red's row 3 now holds its cuckoo on c3
    store.close()


FIXTURES = Path(__file__).parent / "fixtures"
RECORDS = {
    # Written by nestref before records had versions: a set whose game 1 red won (its
    # winning capture taken back and made again), and game 2 under way, blue to move
    # after c7-c6 c3-c4.
    "unversioned": FIXTURES / "games-unversioned.sqlite",
    # Written by the nestref of record version 1 (positions in NFN, condition 1-4): the
    # same set, game 1 won without a take back.
    "version 1": FIXTURES / "games-v1.sqlite",
}


@pytest.mark.parametrize("record", RECORDS, ids=str)
def test_an_older_record_is_brought_up_to_date_and_goes_on(tmp_path, record):
    path = tmp_path / "games.sqlite"
    shutil.copy(RECORDS[record], path)
    with GameStore(path, game=GAME, clock=clock) as store:
        assert store._db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        saved = store.load()
        assert saved is not None and saved.games is not None and saved.position is not None
        assert saved.games.outcomes == (Outcome(Side.RED, WinCondition.CUCKOO_CAPTURED),)
        assert (saved.number, saved.starter) == (2, Side.BLUE)
        assert [str(move) for move in saved.position.move_stack] == ["c7-c6", "c3-c4"]
        assert store.moves() == ["c7-c6", "c3-c4"]
        columns = {row[1] for row in store._db.execute("PRAGMA table_info(games)")}
        assert {"start_position", "how"} <= columns and not {"start_nfn", "condition"} & columns
    with GameStore(path, game=GAME, clock=clock) as again:  # and opened once more, unchanged
        assert again.load() == saved


def test_a_record_is_brought_up_to_date_whole_or_not_at_all(tmp_path):
    path = tmp_path / "games.sqlite"
    shutil.copy(RECORDS["version 1"], path)
    with sqlite3.connect(path) as db:  # a half-done change by hand: the last step cannot be made
        db.execute("ALTER TABLE moves RENAME COLUMN nfn TO position")
    with pytest.raises(StoreError, match='cannot bring the record up to date: no such column: "nfn"'):
        GameStore(path, game=GAME, clock=clock)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
        assert "nest" in {row[1] for row in db.execute("PRAGMA table_info(sets)")}  # step 1 undone


def test_a_record_of_another_game_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    service(path).store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sets SET game = 'battle'")
    with pytest.raises(StoreError, match="holds a set of battle, not cuckoo"):
        GameStore(path, game=GAME, clock=clock).load()


def test_a_record_edited_into_nonsense_is_named_not_raised(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    play(svc, "c3- c4+", 1000)
    svc.store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE moves SET move = 'c3c4'")
    with pytest.raises(StoreError, match="the last set cannot be read: cannot read the move 'c3c4'"):
        GameStore(path, game=GAME, clock=clock).load()


def test_a_record_a_newer_nestref_wrote_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=r"written by a newer nestref .* update nestref"):
        GameStore(path, game=GAME, clock=clock)


def test_a_record_that_cannot_be_written_says_whether_it_is_locked_read_only_or_full(tmp_path):
    path = tmp_path / "games.sqlite"
    svc = service(path)
    play(svc, "c3- c4+", 1000)
    position = svc.referee.position
    accepted = MoveAccepted(position.legal_moves()[0], position.turn, 2, public_view(GAME, position))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the file for writing
    with pytest.raises(StorageUnavailableError) as locked:
        svc.store.record([accepted], positions=["x" * 500], referee_ms=0)
    other.execute("ROLLBACK")
    other.close()
    assert locked.value.trouble is StorageTrouble.LOCKED
    assert (
        str(locked.value)
        == f"{path}: cannot write the game record: it is locked by another program (database is locked)"
    )
    svc.store._db.execute("PRAGMA query_only = 1")  # as a file, folder or card that cannot be written
    with pytest.raises(
        StorageUnavailableError, match=r": it is read-only \(the file, its folder or its disk\) \("
    ) as read_only:
        svc.store.record([accepted], positions=["x" * 500], referee_ms=0)
    assert read_only.value.trouble is StorageTrouble.READ_ONLY
    svc.store._db.execute("PRAGMA query_only = 0")
    fill_the_disk(svc.store)
    with pytest.raises(StorageUnavailableError, match=r": the disk is full \(database or disk is full\)$") as full:
        svc.store.record([accepted] * 50, positions=["x" * 500] * 50, referee_ms=0)
    assert full.value.trouble is StorageTrouble.FULL
    assert svc.store.moves() == ["c3-c4"]
    svc.store.close()


def test_a_record_up_to_date_opens_while_another_program_writes_to_it(tmp_path):
    path = tmp_path / "games.sqlite"
    GameStore(path, game=GAME, clock=clock).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with GameStore(path, game=GAME, clock=clock) as store:  # nestref games while the daemon writes
            assert store.games() == []
    finally:
        other.execute("ROLLBACK")
        other.close()
