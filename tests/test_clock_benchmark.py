"""The clock benchmark runs and reports its figures and ratio (they are not checked
here: a benchmark is not a timed test)."""

from __future__ import annotations

from benchmarks import clock_speed


def test_the_clock_benchmark_reports_its_figures_and_the_ratio(capsys):
    assert clock_speed.main(["--rounds", "200", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("clock per tick (flagged + low_time_side + display): median ")
    assert lines[2].startswith("clock per move (move_accepted + snapshot in JSON): median ")
    assert lines[3].startswith("reference, the referee per sensor change: median ")
    assert lines[4].startswith("ratio, clock tick / referee change: ")
    assert lines[-1].startswith(("budget: within", "budget: OVER"))
