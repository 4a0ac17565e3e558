"""Perft for the battle game: the number of move sequences from fixed positions, pinned,
and counted again by a reference written here from docs/rules-battle.md alone (the
classic field, on the text of positions, with the strike table of test_battle_rules),
so that the counts are not only the package's word for itself."""

from __future__ import annotations

import pytest

from firmware_host.games import load_game
from firmware_host.games.base import Side, divide, perft
from firmware_host.games.battle.army import StrikeResult
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.position import Position
from tests.test_battle_rules import CLASSIC_TEXT, FIELD, table_result

MIDGAME = (
    "l+1p1jsbfbl/n+2n+ypcn+rp/r+r+p+r+l+s!s+s+1j+/1n+2s+g+l+n+S!s+/1M!~~2~~2/J+1~~1L!~~1m!"
    "/1N+1S!P+S+G+N+1C+/P+1S+S1L+SP+1R+/R+1NCY+1R+P+1L+/LBFBSJN1N+R+ r i2-i7:1 b9-b8:1"
)
"""120 random plies into a game from demo-2: Scouts in the open, four strikes to choose."""

PERFT = {  # the position: its counts at depths 1, 2, 3
    "demo": (20, 396, 8680),
    "demo-2": (20, 400, 8369),
    "midgame": (47, 1406, 63221),
}
DEMO_DEPTH_4 = 189813

COLUMNS = "abcdefghij"
LAKES = {"c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"}
TWO_SQUARE_TURNS = 3
RefRun = tuple[str, str, int] | None
RefState = tuple[dict[str, str], str, dict[str, RefRun]]


def ref_read(text: str) -> RefState:
    """Squares to letters (red capitals), the side to move, each side's back and forth."""
    rows, turn, red_run, blue_run = text.split()
    board: dict[str, str] = {}
    for row_number, row in zip(range(10, 0, -1), rows.split("/"), strict=True):
        column, i = 0, 0
        while i < len(row):
            if row[i].isdigit():
                digits = row[i] + (row[i + 1] if i + 1 < len(row) and row[i + 1].isdigit() else "")
                column, i = column + int(digits), i + len(digits)
            elif row[i] in "+!":
                i += 1
            else:
                if row[i] != "~":
                    board[f"{COLUMNS[column]}{row_number}"] = row[i]
                column, i = column + 1, i + 1
        assert column == 10, row

    def run(text: str) -> RefRun:
        if text == "-":
            return None
        squares, count = text.split(":")
        origin, target = squares.split("-")
        return origin, target, int(count)

    return board, turn, {"r": run(red_run), "b": run(blue_run)}


def ref_moves(state: RefState, two_square_turns: int = TWO_SQUARE_TURNS) -> list[tuple[str, str, bool]]:
    board, turn, runs = state
    if "F" not in board.values() or "f" not in board.values():
        return []
    run = runs[turn]
    refused = (run[1], run[0]) if run is not None and run[2] >= two_square_turns - 1 else None
    found = []
    for square, letter in board.items():
        if letter.isupper() != (turn == "r") or letter.upper() in "BF":
            continue
        x, y = COLUMNS.index(square[0]), int(square[1:])
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            distance = 0
            nx, ny = x + dx, y + dy
            while 0 <= nx < 10 and 1 <= ny <= 10 and f"{COLUMNS[nx]}{ny}" not in LAKES:
                distance += 1
                target = f"{COLUMNS[nx]}{ny}"
                held = board.get(target)
                if held is None:
                    if (square, target) != refused:
                        found.append((square, target, False))
                    if letter.upper() != "S":
                        break
                    nx, ny = nx + dx, ny + dy
                    continue
                if held.isupper() != letter.isupper() and distance == 1:
                    found.append((square, target, True))
                break
    return found


def ref_play(state: RefState, move: tuple[str, str, bool]) -> RefState:
    board, turn, runs = dict(state[0]), state[1], dict(state[2])
    origin, target, strike = move
    other = "b" if turn == "r" else "r"
    piece = board.pop(origin)
    if strike:
        result = table_result(piece, board[target])
        if result is StrikeResult.ATTACKER_WINS:
            board[target] = piece
        elif result is StrikeResult.BOTH_LOST:
            del board[target]
        runs[turn] = None
        other_run = runs[other]
        if other_run is not None and other_run[1] == target and result is not StrikeResult.DEFENDER_WINS:
            runs[other] = None
    else:
        board[target] = piece
        run = runs[turn]
        back = run is not None and (origin, target) == (run[1], run[0])
        runs[turn] = (origin, target, run[2] + 1 if run is not None and back else 1)
    return board, other, runs


def ref_perft(state: RefState, depth: int) -> int:
    if depth == 0:
        return 1
    moves = ref_moves(state)
    if depth == 1:
        return len(moves)
    return sum(ref_perft(ref_play(state, move), depth - 1) for move in moves)


def start(name: str) -> Position:
    if name == "midgame":
        return Position.from_text(FIELD, MIDGAME)
    return Position.from_lineup(FIELD, name, Side.RED)


@pytest.mark.parametrize("name", PERFT)
def test_perft_from_fixed_positions_is_pinned(name):
    position = start(name)
    text = position.to_text()
    assert tuple(perft(position, depth) for depth in (1, 2, 3)) == PERFT[name]
    assert position.to_text() == text  # perft leaves the position as it found it


@pytest.mark.parametrize("name", PERFT)
def test_the_reference_counts_the_same(name):
    state = ref_read(start(name).to_text())
    assert tuple(ref_perft(state, depth) for depth in (1, 2, 3)) == PERFT[name]


def test_perft_at_depth_four_from_the_demo_set_up_by_its_first_moves():
    game = load_game("battle")
    position = game.start("demo", Side.RED)
    counts = divide(game, position, 4)
    assert sum(count for _, count in counts) == DEMO_DEPTH_4
    by_move = {move.to_text(): count for move, count in counts}
    state = ref_read(position.to_text())
    for move in ref_moves(state)[:3]:  # three first moves to depth 4 by the reference too
        text = f"{move[0]}{'x' if move[2] else '-'}{move[1]}"
        assert by_move[text] == ref_perft(ref_play(state, move), 3), text


def test_the_two_square_rule_of_another_field_changes_the_counts():
    tournament = Field.from_toml(
        CLASSIC_TEXT.replace("two_square_turns = 3", "two_square_turns = 2"), source="strict.toml"
    )
    strict = Position.from_text(tournament, MIDGAME.replace("i2-i7:1 b9-b8:1", "- -"))
    usual = Position.from_text(FIELD, MIDGAME.replace("i2-i7:1 b9-b8:1", "- -"))
    assert perft(strict, 3) < perft(usual, 3)  # with 2, no piece ever goes straight back
