"""``nestref games``, ``export`` and ``import`` on SQLite files on disk."""

from __future__ import annotations

import re
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.records import MAX_FILE_BYTES

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
    assert not target.exists()  # not even an empty record is made of a file refused
    before = played.read_bytes()
    assert run(capsys, "import", str(bad), "--db", str(played))[0] == 2
    assert played.read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["games", "--db", "{tmp}/missing.sqlite"], "missing.sqlite: no game record there"),
        (["export", "--db", "{played}"], "name the games to export"),
        (["export", "1", "--all", "--db", "{played}"], "name the games to export"),
        (["export", "9", "--db", "{played}"], "no game 9 in the record"),
        (["export", "one", "--db", "{played}"], "invalid int value: 'one'"),
        (["import", "{tmp}/missing.txt", "--db", "{played}"], "missing.txt: cannot read the game record"),
        (
            ["import", "{tmp}/latin1.txt", "--db", "{played}"],
            "latin1.txt:1: cannot read the game record: it is not UTF-8",
        ),
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


# -- records from strangers (issue 30) ------------------------------------------------------


def _games(played: Path) -> list[tuple[int, ...]]:
    with sqlite3.connect(played) as db:
        return db.execute("SELECT id FROM games ORDER BY id").fetchall()


def test_a_file_larger_than_a_record_may_be_is_refused_with_the_line_it_goes_past_and_nothing_written(
    played, tmp_path, capsys
):
    good = _exported(capsys, played)
    big = tmp_path / "big.txt"
    big.write_text(good * (MAX_FILE_BYTES // len(good.encode()) + 1), encoding="utf-8")
    target = tmp_path / "target.sqlite"
    code, out, err = run(capsys, "import", str(big), "--db", str(target))
    lines = big.read_bytes()[:MAX_FILE_BYTES].count(b"\n") + 1
    assert (code, out) == (2, "")
    assert err == (
        f"nestref: {big}:{lines}: the file goes on past 4 MiB, the most a record file may hold:"
        " split it into smaller files\n"
    )
    assert not target.exists()


def test_an_import_the_disk_cannot_take_stores_none_of_its_games_and_says_so(played, tmp_path, capsys):
    """The disk fills part-way through (the file may grow no more: RLIMIT_FSIZE, so that
    SQLite's writes fail as on a full card): nothing of the file is kept."""
    good = _exported(capsys, played)
    many = tmp_path / "many.txt"
    many.write_text(
        "".join(re.sub(r'UTCTime "[0-9:]+"', f'UTCTime "00:{n // 60:02}:{n % 60:02}"', good) for n in range(300)),
        encoding="utf-8",
    )
    before = _games(played)
    limit = played.stat().st_size + 64 * 1024

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "import", str(many), "--db", str(played)],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=small_disk,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(
        f"nestref: {played}: nothing imported, the record is as it was: the 300 games cannot be written: "
    ), done.stderr
    assert _games(played) == before


def test_an_import_while_another_program_holds_the_record_stores_nothing_and_says_it_is_locked(
    played, tmp_path, capsys
):
    record = tmp_path / "record.txt"
    record.write_text(_exported(capsys, played).replace('[Round "1"]', '[Round "2"]'), encoding="utf-8")
    other = sqlite3.connect(played, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the file for writing
    try:
        code, out, err = run(capsys, "import", str(record), "--db", str(played))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (code, out) == (1, "")
    assert err == (
        f"nestref: {played}: nothing imported, the record is as it was: the game cannot be written:"
        " it is locked by another program (database is locked)\n"
    )
    assert len(_games(played)) == 1


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x08", "\x9b", "\u202e"])
def test_a_record_with_a_terminal_escape_in_a_tag_is_refused_and_its_error_is_printable(played, tmp_path, capsys, char):
    text = _exported(capsys, played).replace('[Red "?"]', f'[Red "Ann{char}]0;owned{char}"]')
    record = tmp_path / "escape.txt"
    record.write_text(text, encoding="utf-8")
    target = tmp_path / "target.sqlite"
    code, out, err = run(capsys, "import", str(record), "--db", str(target))
    assert (code, out) == (2, "")
    assert err == f"nestref: {record}:5: U+{ord(char):04X} ({_KIND[char]}) in column 10: a record is printable text\n"
    assert not target.exists()


_KIND = {char: "a control character" for char in "\x1b\x07\x00\x08\x9b"} | {"\u202e": "an invisible format character"}


def test_tags_an_older_nestref_stored_with_terminal_escapes_are_never_printed_raw(played, tmp_path, capsys):
    with sqlite3.connect(played) as db:  # as today's main imported them
        db.executemany(
            "INSERT INTO tags (game_id, name, value) VALUES (1, ?, ?)",
            [("Red", "Ann\x1b]0;owned\x07\x1b[2J"), ("Site", "\u202eLeiden\x00")],
        )
    code, listed, _ = run(capsys, "games", "--db", str(played))
    assert code == 0 and all(line.isprintable() for line in listed.splitlines())
    assert "Ann\\x1b]0;owned\\x07\\x1b[2J - ?" in listed
    code, exported, _ = run(capsys, "export", "1", "--db", str(played))
    assert code == 0 and all(line.isprintable() for line in exported.splitlines())
    assert '[Site "\\\\u202eLeiden\\\\x00"]' in exported  # the escape, as text (its \\ written \\\\)
    again = tmp_path / "again.txt"
    again.write_text(exported, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    assert run(capsys, "import", str(again), "--db", str(other))[0] == 0  # what export writes, import reads


def test_an_error_quoting_a_file_name_with_escapes_prints_them_as_escapes(tmp_path, capsys):
    name = str(tmp_path / "\x1b[2J\x1b]0;owned\x07.txt")
    code, out, err = run(capsys, "import", name, "--db", str(tmp_path / "games.sqlite"))
    assert (code, out) == (2, "")
    assert err.endswith("\\x1b[2J\\x1b]0;owned\\x07.txt: cannot read the game record: No such file or directory\n")
    assert err[:-1].isprintable()


def test_a_record_file_that_begins_with_a_byte_order_mark_is_imported(played, tmp_path, capsys):
    record = tmp_path / "bom.txt"
    record.write_text(_exported(capsys, played), encoding="utf-8-sig")  # as Windows' Notepad saves UTF-8
    assert record.read_bytes().startswith(b"\xef\xbb\xbf")
    assert run(capsys, "import", str(record), "--db", str(tmp_path / "other.sqlite")) == (
        0,
        "1 of 1 games imported (0 there already): -1\n",
        "",
    )
