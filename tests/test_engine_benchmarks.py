"""The engine's benchmarks run and report their figures in shape (the figures are not
checked: a benchmark is not a timed test)."""

from __future__ import annotations

import re

import pytest

from benchmarks import engine_levels, engine_match, engine_speed, stats
from firmware_host.games.cuckoo.engine import level
from firmware_host.games.cuckoo.rules import Side


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
    low, high = stats.wilson(95, 100)
    assert 0.88 < low < 0.89 and 0.97 < high < 0.98
    assert stats.wilson(0, 0) == (0.0, 1.0)
    assert stats.wilson(10, 10)[1] == 1.0


def test_the_speed_benchmark_reports_nodes_per_second_and_the_depth_in_a_second(capsys):
    assert engine_speed.main(["--nodes", "200", "--seconds", "0.05", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"search: [\d,]+ nodes/s over 9 positions \([\d,]+ nodes a round\)", lines[1])
    assert re.match(r"in 0.05 s from the standard start: depth \d+ completed, ", lines[2])
    assert lines[3].startswith("strongest level (")
    assert re.fullmatch(
        r"reference: python-chess perft 4 from the chess start at [\d,]+ nodes/s \(python-chess [\d.]+\); "
        r"the search's speed is [\d.]+x that",
        lines[4],
    ), lines[4]


def test_the_levels_report_each_pair_with_the_higher_levels_score_interval_and_verdict(capsys):
    assert engine_levels.main(["--pairs", "4v5,1v2", "--games", "2", "--workers", "2", "--scale", "0.002"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Python ") and "node budgets x 0.002, 2 games a pair" in lines[0]
    assert len(lines) == 3
    for line, (lower, higher) in zip(lines[1:], ((4, 5), (1, 2)), strict=True):
        assert re.fullmatch(
            rf"level {higher} \(\w+\) vs level {lower} \(\w+\): \d+ won, \d+ drawn, \d+ lost; "
            rf"score [\d.]+ % \(95 % CI [\d.]+-[\d.]+ %\); as red [\d.]+, as blue [\d.]+; \d+ plies a game; "
            rf"[\d.]+ / [\d.]+ s a move; above 50 %: (yes|not shown|no, below)",
            line,
        ), line
        won, drawn, lost = map(int, re.findall(r"(\d+) (?:won|drawn|lost)", line))
        assert won + drawn + lost == 2


def test_the_levels_play_each_opening_with_both_colours_from_every_lineup():
    games = engine_levels.schedule([(4, 5)], 6, 0)
    assert {(game.lineup, game.higher_side) for game in games} == {
        (lineup, side) for lineup in engine_levels.LINEUPS for side in Side
    }
    openings = [engine_levels.opening(game.lineup, game.opening_seed) for game in games]
    assert [position.to_nfn() for position in openings[::2]] == [position.to_nfn() for position in openings[1::2]]
    assert len({position.to_nfn() for position in openings}) == 3
    assert all(2 <= len(position.move_stack) <= 4 and not position.is_over() for position in openings)


@pytest.mark.parametrize("text", ["1v3", "5v4", "4-5", "", "0v1"])
def test_the_levels_accept_only_adjacent_pairs(text):
    with pytest.raises(ValueError, match="adjacent levels"):
        engine_levels.parse_pairs(text)


def test_the_levels_budgets_may_be_scaled_for_a_quick_trial():
    assert engine_levels.scaled(5, 0.01).limits.nodes == 600
    assert engine_levels.scaled(5, 0.01).noise == engine_levels.scaled(5, 1.0).noise
    assert engine_levels.scaled(3, 1.0) is level(3)
