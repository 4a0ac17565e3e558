"""The perft benchmark runs and reports its ratio (its figures are not checked here:
a benchmark is not a timed test)."""

from __future__ import annotations

import re

from benchmarks import perft_speed
from firmware_host.daemon.config import load_config


def test_the_benchmark_reports_both_engines_and_the_ratio(capsys):
    assert perft_speed.main(["--depth", "2", "--chess-depth", "2", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split(":")[0].strip() == "nestref"
    assert "perft 2 = 196 nodes" in lines[1]
    assert "perft 2 = 400 nodes" in lines[2]
    assert lines[-1].startswith("ratio: ")


def test_the_chess_perft_is_counted_like_ours():
    import chess

    assert [perft_speed.chess_perft(chess.Board(), depth) for depth in range(4)] == [1, 20, 400, 8902]


def test_the_referee_benchmark_reports_the_time_per_change(capsys):
    from benchmarks import referee_speed

    assert referee_speed.main(["--games", "2", "--stream-mb", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("2 games (8 kinds of log in turn), ")
    assert lines[2].startswith("per change: median ")
    assert lines[-2].startswith("budget: ")
    assert lines[-1].startswith("nestref referee over a 0.05 MB log of sets of games: ") and "lines/s" in lines[-1]


def budget_rows(lines: list[str]) -> dict[str, str]:
    """The budget table's rows, by the row's name."""
    from benchmarks.daemon_speed import BUDGETS

    start = next(index for index, line in enumerate(lines) if line.startswith("budgets (x10 on a Pi Zero 2 W: "))
    rows = [line.strip() for line in lines[start + 1 :]]
    assert len(rows) == len(BUDGETS)
    return {key: row for (key, budget), row in zip(BUDGETS.items(), rows, strict=True) if row.startswith(budget.what)}


def test_the_daemon_benchmark_reports_its_figures_and_every_budget(capsys):
    from benchmarks import daemon_speed

    assert daemon_speed.main(["--idle-seconds", "0.5", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("one full matrix scan") and "(the reference); ratio " in lines[1]
    sensors = load_config(None).sensors
    assert lines[2].startswith(f"idle daemon ({sensors.asleep_scan_hz} Hz): CPU ")
    assert "ratio to the plain loop " in lines[2]
    assert f"a nest still in a long think ({sensors.idle_scan_hz} Hz): CPU " in lines[2]
    assert lines[3].startswith("daemon in play (200 Hz): CPU ")
    assert lines[4].startswith("switch to command") and "after a move is recorded" in lines[4]
    assert lines[5].startswith("daemon start -> first frame on the OLED: ")
    assert lines[6].startswith("memory at level 5 (3 processes: ")
    assert "ten times slower" in lines[7]
    rows = budget_rows(lines)
    assert len(rows) == len(daemon_speed.BUDGETS)
    for key in ("idle", "play", "latency", "start", "memory"):  # measured here: a figure and a verdict
        assert ": met;" in rows[key] or ": NOT met;" in rows[key], rows[key]
    for key in ("idle", "play", "latency", "start"):  # and what it means on a Zero 2 W
        assert "on a Zero 2 W x10: " in rows[key]
    assert "the same on a Zero 2 W" in rows["memory"]
    for key in ("jitter", "level5-median", "level5-max"):
        assert rows[key].endswith("(measured by computer_at_the_nest)")


def test_a_budget_row_says_whether_it_is_met_and_what_the_zero_2_w_would_take():
    from benchmarks.daemon_speed import Budget

    budget = Budget("a thing", 2.0, "ms", "here")
    assert budget.row(1.5) == "a thing: 1.5 ms (budget 2 ms: met; on a Zero 2 W x10: 15 ms, budget 20)"
    assert budget.row(2.5, "why").startswith("a thing: 2.5 ms (budget 2 ms: NOT met;")
    assert budget.row(2.5, "why").endswith(" — why")
    assert budget.row(None) == "a thing: budget 2 ms (measured by here)"


def test_the_computer_at_the_nest_benchmark_reports_its_figures(capsys):
    from benchmarks import computer_at_the_nest

    assert computer_at_the_nest.main(["--positions", "1", "--seconds", "0.3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines[1:6]] == [f"level {n}" for n in range(1, 6)]
    assert all("(CPU median " in line for line in lines[1:6])  # the searching thread's time beside the wall's
    assert lines[6].startswith("peak RSS grew by ")
    assert lines[7].startswith("loop, no search (")
    assert lines[8].startswith("loop, searching (")
    assert lines[9].startswith("ratio (p99 lateness + p99 turn, searching / no search): ")
    rows = budget_rows(lines)
    for key in ("jitter", "level5-median", "level5-max"):
        assert ": met;" in rows[key] or ": NOT met;" in rows[key], rows[key]
    assert rows["idle"].endswith("(measured by daemon_speed)")


def test_the_referee_hands_benchmark_reports_each_kind_of_log(capsys):
    from benchmarks import referee_hands

    assert referee_hands.main(["--seeds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len([line for line in lines if " of 1 read as the nest shows them" in line]) == 8
    assert lines[-1].startswith("all: ")


def test_the_serial_flood_benchmark_reports_each_kind_of_traffic(capsys):
    from benchmarks import serial_flood

    assert serial_flood.main(["--polls", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[1:4]] == ["zero bytes", "garbage 00 01", "valid frames"]
    assert lines[-1].startswith("budget: ")


def test_the_remote_play_benchmark_reports_its_figures(capsys):
    from benchmarks import remote_latency

    assert remote_latency.main(["--plies", "6", "--idle-seconds", "0.3", "--daemon-plies", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("move to display: median ") and "over 6 moves" in lines[1]
    assert lines[2].startswith("bare MQTT message of ")
    assert lines[3].startswith("ratio (median move to display / median bare message): ")
    assert lines[5].startswith("through two daemons: move accepted to display median ") and "over 2 moves" in lines[5]
    assert lines[5].endswith(f"ms to a nest idle ({load_config(None).sensors.idle_scan_hz} Hz)")
    assert lines[6].startswith("a daemon idle: ") and "with the link up" in lines[6]
    assert lines[4].startswith("idle, link up: CPU ")
    assert lines[-1].startswith("budget: ")


def test_the_live_boards_benchmark_reports_its_figures(capsys):
    from benchmarks import live_boards

    assert live_boards.main(["--games", "1", "--idle-seconds", "0.3", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("move to update: median ") and re.search(r"over \d+ moves", lines[1])
    assert lines[2].startswith("bare MQTT message of ")
    assert lines[3].startswith("ratio (median move to update / median bare message): ")
    assert lines[4].startswith("idle daemon, median of 1 x 0.3 s: CPU ") and "publishing adds" in lines[4]
    assert lines[5].startswith("an idle publisher alone, connected: CPU ")
    assert lines[-1].startswith("budget: ")


def test_the_presenter_benchmark_reports_each_screen_and_the_ratio(capsys):
    from benchmarks import presenter_speed
    from tests.test_display import scenes

    assert presenter_speed.main(["--rounds", "2"]) in (0, 1)  # its figures are not checked here
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:-3]] == list(scenes())
    assert lines[-2].startswith("ratio: wording / drawing = ")
    assert lines[-1] in ("budget: met", "budget: over")


def test_the_player_screens_benchmark_reports_its_figures(capsys):
    from benchmarks import player_screens_speed

    assert player_screens_speed.main(["--rounds", "3"]) in (0, 1)  # its figures are not checked here
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("private messages, a change: median ")
    assert lines[-3].startswith("ratio: a change / shared frame = ")
    assert lines[-1] in ("budget: met", "budget: over")
