"""``nestref games``, ``export`` and ``import`` on SQLite files on disk."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import main

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
WON_LOG = CORPUS / "p01-sloppy-standard.log"  # blue wins by capturing the cuckoo


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def played(tmp_path, capsys) -> Path:
    """A record of one game the referee saw played to its end, from a sensor log."""
    path = Path(tmp_path) / "played.sqlite"
    code, out, _ = run(capsys, "referee", "--events", str(WON_LOG), "--db", str(path))
    assert code == 0 and out.endswith("result: blue\n")
    return path


def test_the_games_are_listed_with_date_players_result_and_moves(played, capsys):
    code, out, _ = run(capsys, "games", "--db", str(played))
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split() == ["id", "date", "players", "result", "moves"]
    assert len(rows) == 1
    assert re.fullmatch(r" *1  \d{4}-\d\d-\d\d \d\d:\d\d  \? - \?    blue: cuckoo captured \(2\) +38", rows[0]), rows[0]


def test_a_game_exported_and_imported_elsewhere_exports_the_same(played, tmp_path, capsys):
    code, exported, _ = run(capsys, "export", "--all", "--db", str(played))
    assert code == 0 and exported.count("[Event ") == 1 and '[Termination "2"]' in exported
    record = tmp_path / "games.txt"
    record.write_text(exported, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    assert run(capsys, "import", str(record), "--db", str(other)) == (
        0,
        "1 of 1 games imported (0 there already): -1\n",
        "",
    )
    assert run(capsys, "import", str(record), "--db", str(other))[1] == "0 of 1 games imported (1 there already)\n"
    code, again, _ = run(capsys, "export", "--all", "--db", str(other))
    assert code == 0 and again == exported
    # Into the record it came from, it is there already.
    assert run(capsys, "import", str(record), "--db", str(played))[1] == "0 of 1 games imported (1 there already)\n"
    assert len(run(capsys, "games", "--db", str(played))[1].splitlines()) == 2


def test_export_writes_the_games_named_to_a_file(played, tmp_path, capsys):
    output = tmp_path / "one.txt"
    assert run(capsys, "export", "1", "--db", str(played), "--output", str(output)) == (0, "", "")
    assert output.read_text(encoding="utf-8").startswith('[Event "?"]\n')


def test_the_config_names_the_database_by_default(played, tmp_path, capsys):
    config = tmp_path / "nest.toml"
    config.write_text(f'[storage]\ndatabase = "{played.name}"\n', encoding="utf-8")
    code, out, _ = run(capsys, "games", "--config", str(config))
    assert code == 0 and "blue: cuckoo captured (2)" in out


def _exported(capsys, played: Path) -> str:
    return run(capsys, "export", "--all", "--db", str(played))[1]


def test_a_record_with_an_illegal_move_is_refused_with_its_move_number_and_nothing_is_stored(played, tmp_path, capsys):
    good = _exported(capsys, played)
    bad = tmp_path / "bad.txt"
    bad.write_text(good + good.replace("9. e2-e4", "9. e2-e5"), encoding="utf-8")
    target = tmp_path / "target.sqlite"
    code, out, err = run(capsys, "import", str(bad), "--db", str(target))
    assert code == 2 and out == ""
    assert re.fullmatch(rf"nestref: {re.escape(str(bad))}:\d+: move 9\. e2-e5 is illegal: .+\n", err), err
    assert "(no games yet)" in run(capsys, "games", "--db", str(target))[1]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["games", "--db", "{tmp}/missing.sqlite"], "missing.sqlite: no game record there"),
        (["export", "--db", "{played}"], "name the games to export"),
        (["export", "1", "--all", "--db", "{played}"], "name the games to export"),
        (["export", "9", "--db", "{played}"], "no game 9 in the record"),
        (["export", "one", "--db", "{played}"], "invalid int value: 'one'"),
        (["import", "{tmp}/missing.txt", "--db", "{played}"], "missing.txt: cannot read the game record"),
        (["import", "{tmp}/latin1.txt", "--db", "{played}"], "latin1.txt: cannot read the game record"),
        (["import", "{tmp}/empty.txt", "--db", "{played}"], "empty.txt:1: no game in it"),
        (["games", "--db", "{tmp}/latin1.txt"], "not a nestref game record"),
        (["games", "--db", ""], "expected a file to keep the games in"),
    ],
)
def test_bad_files_and_arguments_exit_2_saying_what_is_wrong(played, tmp_path, capsys, argv, words):
    (tmp_path / "latin1.txt").write_bytes('[Site "Köln"]\n'.encode("latin-1"))
    (tmp_path / "empty.txt").write_text("\n\n", encoding="utf-8")
    code, _, err = run(capsys, *(arg.format(tmp=tmp_path, played=played) for arg in argv))
    assert code == 2
    assert words in err, err


def test_the_commands_run_as_the_installed_nestref_does(played):
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "export", "1", "--db", str(played)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.rstrip().endswith("blue")


def test_export_all_leaves_another_games_games_to_its_own_game(played, capsys):
    with sqlite3.connect(played) as db:
        db.execute(
            "INSERT INTO sets (id, game, board, lineup, first_starter, started_at)"
            " VALUES (7, 'other', 'x', 'y', 'red', 0)"
        )
        db.execute(
            "INSERT INTO games (id, set_id, number, lineup, starter, start_position, started_at)"
            " VALUES (7, 7, 1, 'y', 'red', 'z', 0)"
        )
    code, out, _ = run(capsys, "export", "--all", "--db", str(played))
    assert code == 0 and out.count("[Event ") == 1
    code, _, err = run(capsys, "export", "7", "--db", str(played))
    assert code == 2 and "game 7 is one of other on the board x, not of cuckoo on hexhex-5" in err, err
    assert len(run(capsys, "games", "--db", str(played))[1].splitlines()) == 3  # the list shows every game


def test_an_imported_games_players_are_listed_and_exported_with_it(played, tmp_path, capsys):
    text = _exported(capsys, played).replace('[Red "?"]', '[Red "Ann"]').replace('[Blue "?"]', '[Blue "Bo"]')
    record = tmp_path / "named.txt"
    record.write_text(text.replace('[Site "?"]', '[Site "Leiden"]'), encoding="utf-8")
    other = tmp_path / "other.sqlite"
    assert run(capsys, "import", str(record), "--db", str(other))[0] == 0
    rows = run(capsys, "games", "--db", str(other))[1].splitlines()
    assert rows[1].split("  ")[2:3] == ["Ann - Bo"], rows
    assert run(capsys, "export", "-1", "--db", str(other))[1] == record.read_text(encoding="utf-8")
