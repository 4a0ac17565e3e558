"""The perft benchmark runs and reports its ratio (its figures are not checked here:
a benchmark is not a timed test)."""

from __future__ import annotations

import re

from benchmarks import perft_speed


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


def test_the_daemon_benchmark_reports_its_figures(capsys):
    from benchmarks import daemon_speed

    assert daemon_speed.main(["--idle-seconds", "0.5", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("one full matrix scan")
    assert lines[2].startswith("idle daemon: CPU ")
    assert lines[3].startswith("daemon in play (200 Hz): CPU ")
    assert lines[4].startswith("switch to command")
    assert lines[-1].startswith("budget: ")


def test_the_computer_at_the_nest_benchmark_reports_its_figures(capsys):
    from benchmarks import computer_at_the_nest

    assert computer_at_the_nest.main(["--positions", "1", "--seconds", "0.3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines[1:6]] == [f"level {n}" for n in range(1, 6)]
    assert re.fullmatch(
        r"level 5: budget here: median <= 0.35 s, max <= 0.5 s: (met|NOT met) \([\d.]+ / [\d.]+ s; "
        r"CPU [\d.]+ / [\d.]+ s\); x10 on a Pi Zero 2 W \(CPython about ten times slower there\): 3.5 s / 5 s",
        lines[6],
    ), lines[6]
    assert lines[7].startswith("peak RSS grew by ")
    assert lines[8].startswith("loop, no search (")
    assert lines[9].startswith("loop, searching (")
    assert lines[-1].startswith("ratio (p99 lateness + p99 turn, searching / no search): ")


def test_the_strongest_levels_row_is_met_only_within_both_budgets():
    from benchmarks.computer_at_the_nest import budget_row

    assert ": met (" in budget_row([0.2, 0.35, 0.5], [0.2, 0.3, 0.4])
    assert ": NOT met (" in budget_row([0.2, 0.3, 0.51], [0.2, 0.3, 0.4])  # the slowest over
    assert ": NOT met (" in budget_row([0.36, 0.36, 0.4], [0.2, 0.3, 0.4])  # the median over
    assert budget_row([0.2], [0.1]).endswith("x10 on a Pi Zero 2 W (CPython about ten times slower there): 3.5 s / 5 s")


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
