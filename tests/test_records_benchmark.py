"""The game records benchmark runs and reports its figures (not checked here: a
benchmark is not a timed test)."""

from __future__ import annotations

from benchmarks import records_speed


def test_the_records_benchmark_reports_both_readers_the_budget_and_the_ratio(capsys):
    assert records_speed.main(["--games", "3", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("3 games, best of 1")
    assert lines[1].startswith("nestref records: ") and lines[1].endswith(" plies/s")
    assert lines[2].startswith("python-chess PGN: ") and lines[2].endswith(" plies/s")
    assert lines[3].startswith("budget: 1000 games of ")
    assert lines[4].startswith("ratio: ")
