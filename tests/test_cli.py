"""The command line, whose output other tools read."""

from __future__ import annotations

import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.games.cuckoo.rules import Position

START = "ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r"
START_MOVES = ("c2-d3 d2-d3 a3-a4 a3-b4 b3-b4 b3-c4 c3-c4 c3-d4 e3-e4 e3-f4 f3-f4 f3-g4 g3-g4 g3-h4").split()


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:
    """Exit code, stdout lines and stderr lines of ``nestref argv``."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def test_moves_lists_the_legal_moves_of_the_start_one_per_line(capsys):
    assert run(capsys, "moves") == (0, START_MOVES, [])


def test_moves_of_a_given_position_quoted_or_not(capsys):
    nfn = "ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b"
    code, lines, _ = run(capsys, "moves", nfn)
    assert code == 0
    assert sorted(lines) == sorted(map(str, Position.from_nfn(nfn).legal_moves()))
    assert run(capsys, "moves", *nfn.split(" "))[1] == lines


def test_moves_of_a_finished_game_is_empty(capsys):
    assert run(capsys, "moves", "5/6/7/8/4C4/8/7/6/E4 b") == (0, [], [])


def test_perft_prints_the_total(capsys):
    assert run(capsys, "perft", "3") == (0, ["2968"], [])
    assert run(capsys, "perft", "0") == (0, ["1"], [])
    assert run(capsys, "perft", "2", "--lineup", "advanced-1") == (0, ["226"], [])
    assert run(capsys, "perft", "1", "--position", START.replace(" r", " b")) == (0, ["14"], [])


def test_perft_divide_gives_move_count_lines_then_the_total(capsys):
    code, lines, _ = run(capsys, "perft", "2", "--divide")
    assert code == 0
    assert lines[-1] == "196"
    assert [line.split(": ")[0] for line in lines[:-1]] == START_MOVES
    assert all(line.endswith(": 14") for line in lines[:-1])
    assert run(capsys, "perft", "0", "--divide")[1] == ["1"]


def test_position_prints_the_nfn_and_the_result(capsys):
    assert run(capsys, "position") == (0, [START, "result: ongoing"], [])
    assert run(capsys, "position", "c3-c4") == (
        0,
        ["ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b", "result: ongoing"],
        [],
    )
    assert run(capsys, "position", "--lineup", "advanced-2")[1][0] == Position.from_lineup("advanced-2").to_nfn()


@pytest.mark.parametrize(
    ("nfn", "result"),
    [
        ("5/6/7/8/4C4/8/7/6/E4 b", "red"),  # blue has no cuckoo
        ("c4/6/7/8/9/8/7/6/E4 b", "blue"),  # red has no cuckoo
        ("C3E/6/7/8/9/8/7/6/c3e r", "draw"),  # nobody can move
    ],
)
def test_position_reports_every_result(capsys, nfn, result):
    assert run(capsys, "position", "--position", nfn)[1] == [nfn, f"result: {result}"]


def test_a_whole_random_game_through_the_command_line(capsys):
    chooser = random.Random(7)
    position = Position.from_lineup()
    while moves := position.legal_moves():
        position.push(chooser.choice(moves))
    played = [str(move) for move in position.move_stack]
    outcome = position.outcome()
    assert outcome is not None
    assert run(capsys, "position", *played) == (0, [position.to_nfn(), f"result: {outcome.to_text()}"], [])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["position", "c3-c4", "e7-e5"],
            "nestref: illegal move e7-e5: e5 is out of reach: an egg moves and captures only onto a neighbouring cell"
            " (move 2 of 2)",
        ),
        (["position", "c3-c5"], "nestref: illegal move c3-c5: "),
        (["position", "c3c4"], "nestref: cannot read the move 'c3c4'"),
        (["position", "c3-c4", "c4-c5"], "nestref: illegal move c4-c5: c4 holds a red egg, and it is blue's turn"),
        (["position", "--position", "ewcwe r"], "nestref: cannot read the NFN 'ewcwe r': it has 1 rows"),
        (["position", "--position", "nonsense"], "nestref: cannot read the NFN 'nonsense'"),
        (["position", "--lineup", "expert"], "nestref: the nest hexhex-5 has no lineup 'expert'"),
        (["moves", "5/6/7/8/4C4/8/7/6/5 x"], "nestref: cannot read the NFN"),
        (["moves", "5/6/7/8/4CC4/8/7/6/5 r"], "nestref: cannot read the NFN"),
        (["perft", "1", "--position", "5/6/7/8/4C3C/8/7/6/5 r"], "nestref: red has two cuckoos"),
        (["--board", "no-such-nest.toml", "moves"], "nestref: no-such-nest.toml: cannot read the board file"),
        (["--board", "", "moves"], "nestref: : cannot read the board file"),
        (["position", "--lineup", ""], "nestref: the nest hexhex-5 has no lineup ''"),
        (["moves", "1" * 5000 + "/6/7/8/9/8/7/6/5 r"], "nestref: cannot read the NFN '1111"),
        (["moves", "ewc\nwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r"], "nestref: cannot read the NFN 'ewc\\nwe"),
    ],
)
def test_bad_input_gets_one_line_and_exit_code_2(capsys, argv, message):
    code, lines, errors = run(capsys, *argv)
    assert code == 2
    assert lines == []
    assert len(errors) == 1
    assert errors[0].startswith(message)
    assert len(errors[0]) < 300


@pytest.mark.parametrize(
    "argv",
    [
        ["perft"],
        ["perft", "x"],
        ["perft", "-1"],
        ["perft", "2", "--position", START, "--lineup", "standard"],
        ["board"],
        ["dance"],
    ],
)
def test_a_bad_command_line_exits_with_code_2(capsys, argv):
    code, _, errors = run(capsys, *argv)
    assert code == 2
    assert errors[-1].startswith("nestref")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sim", "--db", ""], "argument --db: expected a file to keep the games in, got nothing"),
        (["sim", "--db", "  "], "argument --db: expected a file to keep the games in, got nothing"),
        (["referee", "--events", "x.log", "--db", ""], "argument --db: expected a file"),
        (["sim", "--host", "256.1.1.1"], "argument --host: '256.1.1.1' is not an address"),
        (["sim", "--host", "1.2.3"], "argument --host: '1.2.3' is not an address"),
        (["sim", "--host", ""], "argument --host: '' is not an address"),
        (["run", "--web", "256.1.1.1:80"], "argument --web: '256.1.1.1' is not an address"),
        (["run", "--web", "[::1]:x"], "argument --web: expected a port number, got 'x'"),
        (["calibrate", "--board", "docs/examples/hexhex-3.toml"], "unrecognized arguments: --board"),
        (["calibrate", "--game", "battle"], "unrecognized arguments: --game battle"),
        (["--game", "battle", "calibrate"], "nestref: calibrate: --game is not taken here"),
    ],
)
def test_options_that_cannot_be_honoured_are_refused_clearly(capsys, argv, message):
    code, _, errors = run(capsys, *argv)
    assert code == 2
    assert message in errors[-1]


def test_wiring_is_for_the_board_given(capsys):
    small = "docs/examples/hexhex-3.toml"
    for argv in (["wiring", "--board", small], ["--board", small, "wiring"]):
        code, lines, _ = run(capsys, *argv)
        assert code == 0
        assert any(line.startswith("| reed switch | 19 | Littelfuse MDSR-7-15-20") for line in lines)
        assert any(line.startswith("| magnet | 14 | neodymium disc 8 x 3 mm") for line in lines)
        assert not any("hexhex-5.svg" in line or "schematic.svg)" in line for line in lines)


def test_board_draws_every_cell_and_marks_the_homebases(capsys, tmp_path):
    target = tmp_path / "nest.svg"
    code, lines, _ = run(capsys, "board", "--svg", str(target))
    assert code == 0
    assert lines == [f"wrote {target}: the board hexhex-5, 61 cells"]
    svg = ET.parse(target).getroot()
    ns = {"svg": "http://www.w3.org/2000/svg"}
    cells = {p.get("data-cell"): p.get("class") for p in svg.iterfind(".//svg:polygon", ns)}
    assert len(cells) == 61
    assert {cell for cell, kind in cells.items() if kind == "homebase red"} == {"b1", "c1", "d1"}
    assert {cell for cell, kind in cells.items() if kind == "homebase blue"} == {"b9", "c9", "d9"}
    texts = {t.text for t in svg.iterfind(".//svg:text", ns)}
    assert set(cells) <= texts


def test_board_draws_the_pieces_of_a_lineup(capsys, tmp_path):
    target = tmp_path / "lineup.svg"
    assert run(capsys, "board", "--lineup", "advanced-1", "--svg", str(target))[0] == 0
    svg = ET.parse(target).getroot()
    assert len(svg.findall(".//{http://www.w3.org/2000/svg}circle")) == 34


def test_board_cannot_write_the_file(capsys, tmp_path):
    code, _, errors = run(capsys, "board", "--svg", str(tmp_path / "missing" / "nest.svg"))
    assert code == 2
    assert errors[0].startswith("nestref: cannot write")


def test_a_custom_nest_from_a_board_file(capsys):
    small = "docs/examples/hexhex-3.toml"
    assert run(capsys, "--board", small, "position") == (0, ["ecw/eeee/5/EEEE/WCE r", "result: ongoing"], [])
    assert run(capsys, "perft", "4", "--board", small) == (0, ["46"], [])


def test_the_overview_shows_the_nest_and_whose_turn(capsys):
    code, lines, _ = run(capsys)
    assert code == 0
    assert f"Position: {START}" in lines
    assert "  a1     E W C W E     e1" in lines
    assert any(line.startswith("red to move: c2-d3 d2-d3") for line in lines)
    assert "Try: nestref sim                 (the simulator: play on a nest in your browser)" in lines
    suggested = next(line for line in lines if line.startswith("     nestref show "))
    assert run(capsys, *suggested.split("(")[0].split()[1:])[0] == 0
    code, lines, _ = run(capsys, "show", "c3-c4", "c7-d6", "c4-c5", "d6-d5")
    assert any(line.startswith("red to move (capturing is compulsory): c5xd5") for line in lines)
    code, lines, _ = run(capsys, "show", "--position", "5/6/7/8/4C4/8/7/6/E4 b")
    assert "Game over: red wins: blue's cuckoo was captured (condition 2)" in lines


def test_the_installed_console_script(tmp_path):
    script = Path(sys.executable).parent / "nestref"
    done = subprocess.run([script, "perft", "2"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "196\n")
    done = subprocess.run([script, "position", "x"], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
