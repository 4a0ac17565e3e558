"""The battle computer's match benchmark runs and reports its figures in shape (the
figures are not checked: a benchmark is not a timed test)."""

from __future__ import annotations

import re

import pytest

from benchmarks import battle_match
from firmware_host.games.base import Side


def test_the_match_reports_each_pairing_with_its_interval_goal_and_time_per_move(capsys):
    assert battle_match.main(["--games", "2", "--against", "random", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Python ") and "baselines, 2 games a pairing" in lines[0]
    assert re.fullmatch(
        r"level 5 vs random: \d+ won, \d+ drawn, \d+ lost; score [\d.]+ % \(95 % CI [\d.]+-[\d.]+ %\), \d+ plies a "
        r"game; goal >= 95 %: (met|NOT met)",
        lines[1],
    ), lines[1]
    assert re.fullmatch(
        r"level 5 time per move: median \d+ ms, slowest \d+ ms over \d+ moves; reference \(100 move lists of the demo "
        r"start\) [\d.]+ ms: median [\d.]+x, slowest [\d.]+x the reference",
        lines[2],
    ), lines[2]
    assert re.fullmatch(r"level 5 search memory: at most \d+ KiB held at once over 20 moves", lines[3]), lines[3]


def test_the_games_alternate_sides_and_each_has_its_own_seed():
    games = battle_match.schedule([(5, "cautious"), (5, "greedy")], 4, 0)
    assert [game.player_side for game in games[:4]] == [Side.RED, Side.BLUE, Side.RED, Side.BLUE]
    assert len({game.seed for game in games}) == 8


@pytest.mark.parametrize("text", ["1v2", "5v4", "3-4", "", "2v4"])
def test_only_adjacent_searching_levels_make_a_pair(text):
    with pytest.raises(ValueError, match="not a pair of adjacent levels"):
        battle_match.parse_pairs(text)
    assert battle_match.parse_pairs("4v5,2v3") == [(4, 5), (2, 3)]


def test_a_wrong_baseline_is_a_bad_command_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        battle_match.main(["--against", "grandmaster"])
    assert stopped.value.code == 2 and "no baseline 'grandmaster'" in capsys.readouterr().err
