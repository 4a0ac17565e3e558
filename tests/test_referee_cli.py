"""``nestref referee --events``: replaying sensor logs, and surviving ``kill -9``."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.games.cuckoo.rules import Position
from firmware_host.referee.sensor_log import write_sensor_log
from tests.hand_model import Hand
from tests.helpers import play
from tests.referee_helpers import random_game

NESTREF = str(Path(sys.executable).parent / "nestref")


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def write(tmp_path, text: str, name: str = "game.log") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_example_log(capsys, tmp_path):
    log = write(tmp_path, "# lineup: standard\n0 c3-\n180 c3+\n950 c3-\n1010 c4+     # the red egg stepped c3-c4\n")
    code, lines, errors = run(capsys, "referee", "--events", log)
    assert (code, errors) == (0, [])
    assert [line for line in lines if line.startswith("move ")] == ["move c3-c4"]
    assert lines[-2:] == ["ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b", "result: ongoing"]


def test_a_whole_game_played_by_hands_replays_exactly(capsys, tmp_path):
    rng = random.Random(2026)
    start, moves = random_game(rng, "advanced-1", plies=400)
    events = Hand(rng).game(start, moves)
    log = write(tmp_path, write_sensor_log(events, header=f"position: {start.to_nfn()}"))
    code, lines, _ = run(capsys, "referee", "--events", log)
    assert code == 0
    assert [line[5:] for line in lines if line.startswith("move ")] == [str(m) for m in moves]
    final = start.copy()
    for move in moves:
        final.push(move)
    outcome = final.outcome()
    assert outcome is not None
    assert lines[-2:] == [final.to_nfn(), f"result: {outcome.to_text()}"]


def test_the_command_line_overrides_the_header(capsys, tmp_path):
    log = write(tmp_path, "# lineup: advanced-2\n0 a3-\n300 a4+\n")
    for argv, lineup in (([], "advanced-2"), (["--lineup", "standard"], "standard")):
        code, lines, _ = run(capsys, "referee", "--events", log, *argv)
        assert code == 0
        assert [line for line in lines if line.startswith("move ")] == ["move a3-a4"]
        assert lines[-2] == play(Position.from_lineup(lineup), "a3-a4").to_nfn()
    nfn = "ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE b"
    _, lines, _ = run(capsys, "referee", "--events", log, "--position", nfn)
    assert [line for line in lines if line.startswith("move ")] == []  # blue's turn: refused
    assert any(line.startswith("refused:") for line in lines)
    assert lines[-2:] == [nfn, "result: ongoing"]


def test_lenient_refereeing_from_the_command_line(capsys, tmp_path):
    # Red's warbler on e5 steps although it must capture g5.
    nfn = "4c/6/7/8/4W1e2/8/7/6/C4 r"
    log = write(tmp_path, f"# position: {nfn}\n0 e5-\n300 e6+\n")
    strict = run(capsys, "referee", "--events", log)[1]
    assert not [line for line in strict if line.startswith("move ")]
    lenient = run(capsys, "referee", "--events", log, "--lenient")[1]
    assert [line for line in lenient if line.startswith("move ")] == ["move e5-e6"]
    assert any(line.startswith("warning: e5-e6 missed a compulsory capture: e5xg5") for line in lenient)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0 c3-\n10 q7+\n", "game.log:2: 'q7' is not a cell of the nest hexhex-5"),
        ("500 c3-\n10 c4+\n", "game.log:2: time goes backwards: 10 after 500"),
        ("0 c3-\nnonsense\n", "game.log:2: expected '<time_ms> <cell><sign>'"),
    ],
)
def test_a_bad_log_gets_its_line_and_exit_code_2(capsys, tmp_path, text, message):
    log = write(tmp_path, text)
    code, lines, errors = run(capsys, "referee", "--events", log)
    assert (code, lines) == (2, [])
    assert len(errors) == 1
    assert errors[0].startswith(f"nestref: {tmp_path / message}")


def test_an_unreadable_log(capsys, tmp_path):
    code, _, errors = run(capsys, "referee", "--events", str(tmp_path / "none.log"))
    assert code == 2
    assert errors[0].startswith("nestref: ") and "cannot read the sensor log" in errors[0]
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"\xff\xfe\x00")
    assert run(capsys, "referee", "--events", str(binary))[0] == 2


def test_a_recorded_game_resumes_from_the_database(capsys, tmp_path):
    db = str(tmp_path / "games.sqlite")
    first = write(tmp_path, "# lineup: standard\n0 c3-\n300 c4+\n", "first.log")
    assert run(capsys, "referee", "--events", first, "--db", db)[0] == 0
    after = "ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b"
    second = write(tmp_path, f"# position: {after}\n0 c7-\n300 d6+\n", "second.log")
    code, lines, _ = run(capsys, "referee", "--events", second, "--db", db)
    assert code == 0
    assert [line for line in lines if line.startswith("move ")] == ["move c7-d6"]
    with sqlite3.connect(db) as record:
        assert record.execute("SELECT move FROM moves ORDER BY id").fetchall() == [("c3-c4",), ("c7-d6",)]


def test_a_killed_referee_loses_no_acknowledged_move(tmp_path):
    """kill -9 the replaying referee at random moments, resume it from the database with
    the rest of the game, again and again: every move it had announced is kept, and the
    game it ends with is exactly the game played."""
    rng = random.Random(9)
    start, moves = random_game(rng, "standard", plies=400)
    played = [str(move) for move in moves]
    db = tmp_path / "games.sqlite"
    kills = 0
    recorded: list[str] = []
    for attempt in range(12):
        # The nest shows the position the record holds; the hands play the rest.
        position = play(start.copy(), *recorded)
        rest = moves[len(recorded) :]
        hand = Hand(random.Random(attempt), hesitate=0.0)
        log = tmp_path / f"part{attempt}.log"
        log.write_text(write_sensor_log(hand.game(position, rest), header=f"position: {position.to_nfn()}"))
        acknowledged: list[str] = []
        with subprocess.Popen(
            [NESTREF, "referee", "--events", str(log), "--db", str(db), "--speed", "40"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        ) as process:
            assert process.stdout is not None
            last_attempt = attempt == 11
            deadline = time.monotonic() + rng.uniform(0.2, 1.2)
            for line in process.stdout:
                if line.startswith("move "):
                    acknowledged.append(line.split()[1])
                if not last_attempt and time.monotonic() > deadline:
                    os.kill(process.pid, signal.SIGKILL)
                    kills += 1
                    break
            acknowledged += [line.split()[1] for line in process.stdout if line.startswith("move ")]
            process.wait(timeout=60)
        with sqlite3.connect(db) as record:
            assert record.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            stored = [m for (m,) in record.execute("SELECT move FROM moves WHERE taken_back_at IS NULL ORDER BY id")]
        assert stored[: len(recorded)] == recorded
        new = stored[len(recorded) :]
        assert new[: len(acknowledged)] == acknowledged, "an announced move is missing from the record"
        assert len(new) <= len(acknowledged) + 2  # at most the batch being announced when killed
        recorded = stored
        assert recorded == played[: len(recorded)]
        if recorded == played:
            break
    assert recorded == played
    assert kills >= 2
