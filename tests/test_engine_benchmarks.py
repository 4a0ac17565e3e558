"""The engine's benchmarks run and report their figures in shape (the figures are not
checked: a benchmark is not a timed test)."""

from __future__ import annotations

import re

from benchmarks import engine_match, engine_speed


def test_the_match_reports_each_opponent_with_its_score_interval_and_goal(capsys):
    assert engine_match.main(["--games", "2", "--nodes", "150", "--workers", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Python ") and "engine at 150 nodes a move" in lines[0]
    for line, opponent, goal in ((lines[1], "random", 95), (lines[2], "greedy", 80)):
        assert re.fullmatch(
            rf"vs {opponent}: \d+ won, \d+ drawn, \d+ lost; score [\d.]+ % \(95 % CI [\d.]+-[\d.]+ %\), \d+ plies a "
            rf"game; goal >= {goal} %: (met|NOT met)",
            line,
        ), line
        won, drawn, lost = map(int, re.findall(r"(\d+) (?:won|drawn|lost)", line))
        assert won + drawn + lost == 2
    assert lines[3].startswith("engine speed: ") and lines[3].endswith(" nodes")


def test_the_match_alternates_lineups_and_sides():
    games = engine_match.schedule(6, 100, 0)
    random_games = [game for game in games if game.opponent == "random"]
    assert {(game.lineup, game.engine_side) for game in random_games} == {
        (lineup, side) for lineup in engine_match.LINEUPS for side in {game.engine_side for game in games}
    }
    assert len({game.seed for game in random_games}) == 6


def test_the_wilson_interval():
    low, high = engine_match.wilson(95, 100)
    assert 0.88 < low < 0.89 and 0.97 < high < 0.98
    assert engine_match.wilson(0, 0) == (0.0, 1.0)
    assert engine_match.wilson(10, 10)[1] == 1.0


def test_the_speed_benchmark_reports_nodes_per_second_and_the_depth_in_a_second(capsys):
    assert engine_speed.main(["--nodes", "200", "--seconds", "0.05", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"search: [\d,]+ nodes/s over 9 positions \([\d,]+ nodes a round\)", lines[1])
    assert re.match(r"in 0.05 s from the standard start: depth \d+ completed, ", lines[2])
    assert lines[3].startswith("strongest level (")
