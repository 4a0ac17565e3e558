"""A hidden rank cannot be put where a shared channel reads: the type check says so.

What the referee broadcasts (its signals, read by the OLED, the lights, the pages, the
record's listeners and the logs) holds a position only as a
:class:`~firmware_host.games.base.PublicView`, which only the game makes, from what its
rules have shown. These tests run mypy, with the project's own configuration (strict),
on small programs: one that hands a battle position's own notation, every rank in it,
to a signal or a public view must fail the check, naming the line; the same program
written correctly must pass.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent

PRELUDE = """\
from firmware_host.games import load_game
from firmware_host.games.base import PublicLetter, PublicText, PublicView, Side, public_text, public_view
from firmware_host.referee.signals import GameStarted, MoveAccepted

game = load_game("battle")
position = game.start("demo", Side.RED)
move = position.legal_moves()[0]
"""

LEAKS = {
    "a signal handed the record's notation": "MoveAccepted(move, Side.RED, 1, position.to_text())",
    "a signal handed the position itself": 'GameStarted(1, "demo", Side.RED, position)',
    "a public view's notation made of the record's": "PublicView(Side.RED, {}, position.to_text())",
    "a public view's letters holding ranks": 'PublicView(Side.RED, {"a1": "M"}, public_text(game, position))',
    "a public notation taken from a plain string": "shared: PublicText = position.to_text()",
}

PUBLIC = """\
after = public_view(game, position)
MoveAccepted(move, Side.RED, 1, after)
GameStarted(1, "demo", Side.RED, after, new_set=True)
PublicView(Side.RED, {"a1": PublicLetter("?")}, public_text(game, position))
"""


def type_check(tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """mypy's report on a program of ``body`` after :data:`PRELUDE`, and its exit status
    (run from the repository's root, as CI runs it)."""
    monkeypatch.chdir(ROOT)
    program = tmp_path / "program.py"
    program.write_text(PRELUDE + textwrap.dedent(body))
    report, errors, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache"), str(program)]
    )
    return report + errors, status


@pytest.mark.parametrize("leak", list(LEAKS), ids=list(LEAKS))
def test_a_hidden_rank_where_a_public_type_is_wanted_fails_the_type_check(tmp_path, monkeypatch, leak):
    report, status = type_check(tmp_path, LEAKS[leak] + "\n", monkeypatch)
    line = PRELUDE.count("\n") + 1
    assert status == 1, report
    assert f"program.py:{line}: error:" in report, report
    assert "incompatible type" in report or "Incompatible types" in report, report


def test_the_same_made_public_by_the_game_passes(tmp_path, monkeypatch):
    report, status = type_check(tmp_path, PUBLIC, monkeypatch)
    assert status == 0, report
    assert "Success" in report
