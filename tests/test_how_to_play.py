"""Operation Cuckoo's How to play, as the page shows it: the words agree with the rules,
and every move pictured is a legal move of the position it is drawn from."""

from __future__ import annotations

import re

import pytest

from firmware_host.games.cuckoo import HOW_TO_PLAY, HOW_TO_WIN, RULE_PICTURES, CuckooGame, rule_pictures
from firmware_host.games.cuckoo.rules import Move, Nest, Outcome, Position, Side, WinCondition

GAME = CuckooGame(Nest.default())


def test_the_ways_to_win_are_numbered_as_the_nest_shows_them():
    ways = next(paragraph for paragraph in HOW_TO_PLAY if paragraph.startswith("You win in four ways"))
    numbers = [int(number) for number in re.findall(r"\((\d)\) ", ways)]
    assert numbers == sorted(numbers) == [int(condition) for condition in WinCondition]
    for condition in WinCondition:
        # The OLED's words for a win end in the same number.
        words = GAME.outcome_words(Outcome(winner=Side.RED, condition=condition))
        assert words.endswith(f"({int(condition)})")
        assert f"({int(condition)}) {HOW_TO_WIN[condition]}" in ways


def test_forward_is_said_for_both_sides():
    forward = next(paragraph for paragraph in HOW_TO_PLAY if paragraph.startswith("Forward is"))
    assert "for red (who plays up the page) up-left and up-right" in forward
    assert "for blue down-left and down-right" in forward


@pytest.mark.parametrize(
    ("paragraph", "nfn", "moves"),
    [(paragraph, nfn, moves) for paragraph, examples in RULE_PICTURES.items() for nfn, moves, _ in examples],
)
def test_every_move_pictured_is_legal_where_it_is_drawn(paragraph, nfn, moves):
    position = Position.from_nfn(nfn)
    legal = position.legal_moves()
    for move in moves:
        assert Move.from_text(move) in legal, f"paragraph {paragraph}: {move} is not legal in {nfn}"
    # The picture is beside the words it shows.
    words = HOW_TO_PLAY[paragraph].lower()
    assert ("capture" in words) == all("x" in move for move in moves)


def test_each_picture_draws_its_pieces_and_one_arrow_a_move():
    pictures = rule_pictures(Nest.default())
    assert len(pictures) == len(HOW_TO_PLAY)
    for paragraph, examples in RULE_PICTURES.items():
        for (nfn, moves, caption), drawn in zip(examples, pictures[paragraph], strict=True):
            assert drawn["caption"] == caption
            svg = drawn["svg"]
            assert svg.startswith("<svg ") and svg.rstrip().endswith("</svg>")
            assert svg.count("<line ") == len(moves)
            assert f"<title>{', '.join(moves)}</title>" in svg
            origin = Position.from_nfn(nfn).pieces()[moves[0][:2]]
            assert f">{origin.letter}</text>" in svg


def test_a_nest_of_ones_own_has_the_words_without_the_pictures():
    small = Nest.load("docs/examples/hexhex-3.toml")
    assert rule_pictures(small) == [[] for _ in HOW_TO_PLAY]
