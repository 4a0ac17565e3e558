"""State first, then screens: what the page, the OLED, the lights and the spectators are
shown as played is on disk. While the record cannot be written (another program holds
the SQLite file), a move the referee took is shown as waiting, nowhere as played."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st

from firmware_host.daemon.config import load_config
from firmware_host.daemon.snapshot import Snapshot
from firmware_host.games.cuckoo.rules import Move, Position
from firmware_host.referee.signals import MoveAccepted, Signal
from firmware_host.web.picture import Picture
from tests.hand_model import Hand, random_moves
from tests.sim_helpers import connect, simulated
from tests.test_daemon import Rig


def recorded_moves(database: str | Path | sqlite3.Connection) -> list[str]:
    """The moves of the last game that stand, read by a connection of the test's own."""
    db = database if isinstance(database, sqlite3.Connection) else sqlite3.connect(database)
    try:
        query = (
            "SELECT move FROM moves WHERE game_id = (SELECT max(id) FROM games) AND taken_back_at IS NULL ORDER BY id"
        )
        return [move for (move,) in db.execute(query)]
    finally:
        if db is not database:
            db.close()


async def test_a_move_the_record_cannot_take_is_shown_waiting_not_played(aiohttp_client, tmp_path):
    database = str(tmp_path / "games.sqlite")
    async with simulated(load_config(None), database=database) as running:
        page = await connect(aiohttp_client, running.server)
        spectator = await connect(aiohttp_client, type(running.server)(running.daemon))
        other = sqlite3.connect(database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program holds the file for writing
        try:
            await page.act({"type": "slide", "path": ["c3", "c4"]})
            await page.until(lambda: page.latest["game"]["waiting"] == ["c3-c4"])
            game = page.latest["game"]
            assert game["moves"] == [] and game["saved"] is False
            assert game["position"] == Position.from_lineup().to_nfn()
            await page.until(lambda: page.latest["oled"]["footer"] == "cannot save games: locked")
            assert page.latest["oled"]["headline"] == "RED"  # still red's turn, as far as anyone is told
            assert "move c3-c4" not in page.signals
            assert spectator.latest["table"]["cells"].get("c3") == "E"  # the spectators see the record too
            assert recorded_moves(database) == []
        finally:
            other.execute("ROLLBACK")
            other.close()
        await page.until(lambda: page.latest["game"]["moves"] == ["c3-c4"])
        assert page.latest["game"]["waiting"] == [] and page.latest["game"]["saved"] is True
        assert recorded_moves(database) == ["c3-c4"]
        await page.until(lambda: "move c3-c4" in page.signals and page.latest["oled"]["headline"] == "BLUE")
        await spectator.until(lambda: spectator.latest["table"]["cells"].get("c4") == "E")
        await page.close()
        await spectator.close()


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), lock_changes=st.lists(st.floats(0, 1), min_size=2, max_size=8))
def test_at_every_moment_every_move_shown_is_on_disk(seed, lock_changes):
    """A random game by hands, while another program takes and lets go of the record at
    random moments; after every turn of the daemon, every move any view shows is in the
    database, and every move announced was on disk when it was announced.
    ``lock_changes``: when the other program takes or lets go of the record, as parts of
    the game's length."""
    with tempfile.TemporaryDirectory() as folder:
        rig = Rig(Path(folder))
        database = rig.config.database
        picture = Picture(rig.daemon, None)  # what the spectator page is shown
        announced_before_recorded: list[Signal] = []
        waited: list[int] = []  # moves waiting for the disk, after each turn

        announced: list[Signal] = []

        def on_signal(signal: Signal) -> None:
            announced.append(signal)
            if isinstance(signal, MoveAccepted) and str(signal.move) not in recorded_moves(database):
                announced_before_recorded.append(signal)

        rig.daemon.subscribe(on_signal)
        rng = random.Random(seed)
        start = Position.from_lineup()
        played = random_moves(rng, start)[:12]
        changes = Hand(rng).game(start, played)
        rig.show(start)
        rig.start()
        other = sqlite3.connect(database, isolation_level=None)  # another program, holding the file now and then
        reader = sqlite3.connect(database)  # what is on disk, read as any program would
        began = rig.clock.now
        length = changes[-1].time_ms / 1000
        toggles = iter(sorted(began + part * length for part in lock_changes))
        next_toggle = next(toggles, None)
        locked = False

        checked: list[object] = [None]  # the views last checked

        def check() -> None:
            snapshot = rig.daemon.snapshot()
            game = picture.game(snapshot)
            last = last_shown(snapshot)
            shown = (game, last, len(announced))
            waited.append(len(game["waiting"]))
            if shown == checked[0]:
                return  # nothing shown has changed, and the record only changes before an announcement
            checked[0] = shown
            on_disk = recorded_moves(reader)
            assert game["moves"] == on_disk[: len(game["moves"])], (game, on_disk)
            pieces = Position.from_nfn(game["position"]).pieces() if game["position"] else {}
            assert picture.table(snapshot)["cells"] == {cell: piece.letter for cell, piece in pieces.items()}
            assert last is None or last in on_disk

        try:
            for change in changes:
                target = began + change.time_ms / 1000
                while rig.clock.now < target:
                    if next_toggle is not None and rig.clock.now >= next_toggle:
                        other.execute("ROLLBACK" if locked else "BEGIN IMMEDIATE")
                        locked, next_toggle = not locked, next(toggles, None)
                    rig.clock.now += rig.daemon.period()
                    rig.daemon.turn()
                    check()
                answer(rig, played)
                rig.change(change.cell, change.occupied)
            if locked:
                other.execute("ROLLBACK")
            for _ in range(600):  # let the record take what waits, and the last question be asked
                rig.clock.now += rig.daemon.period()
                rig.daemon.turn()
                check()
                answer(rig, played)
        finally:
            other.close()
            reader.close()
            rig.close()
        event(f"moves waited for the disk: {'yes' if any(waited) else 'no'}")
        assert announced_before_recorded == []
        assert recorded_moves(database) == [str(move) for move in played[: len(recorded_moves(database))]]


def last_shown(snapshot: Snapshot) -> str | None:
    """The last move the OLED says was made ("last: c3-c4"), if it says one."""
    return next((line.removeprefix("last: ") for line in snapshot.screen.lines if line.startswith("last: ")), None)


def answer(rig: Rig, played: list[Move]) -> None:
    """A question about the last move is answered as a player would: point at the move
    made, confirm (the moves the referee took, recorded or waiting, tell which)."""
    taken = len(recorded_moves(rig.config.database)) + len(rig.daemon.waiting_moves())
    if taken < len(played) and played[taken] in rig.daemon.snapshot().question:
        while rig.daemon.snapshot().answer != played[taken]:
            rig.press("switch")
        rig.press("confirm")
