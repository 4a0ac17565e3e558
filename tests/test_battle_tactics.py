"""Tactics the battle game's computer must never miss (issue 27), as positions handed
to it as its own side's view: each with the moves that are right or the moves that are
wrong, and why. Every position is played at every searching level (3 to 5: level 1
plays at random, level 2 is the old cautious computer, kept as the benchmarks'
baseline), with a few seeds, and four ways round: as written, mirrored east to west,
with the colours swapped (the field turned), and both."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from firmware_host.games.base import Side
from firmware_host.games.battle.computer import BattleComputer
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import Move
from firmware_host.games.battle.pieces import Piece, Shown
from firmware_host.games.battle.position import Position

FIELD = Field.default()
SEARCHING_LEVELS = (3, 4, 5)
SEEDS = (0, 1)


@dataclass(frozen=True)
class Tactic:
    """A position (red to move), by square: a rank's letter, red's in capitals, blue's in
    lower case, ``+`` once it moved, ``!`` once its rank was shown; the moves that are
    right (one of them must be chosen) or wrong (none of them may be), and why."""

    name: str
    pieces: dict[str, str]
    why: str
    right: frozenset[str] = frozenset()
    wrong: frozenset[str] = frozenset()


# Blue's back rows, never moved: its Flag, both Bombs and nine pieces that move, so
# that one of them struck is a Bomb one time in six.
BLUE_CAMP = {
    "a10": "f",
    "b10": "b",
    "c10": "r",
    "d10": "b",
    "e10": "l",
    "f10": "n",
    "a9": "s",
    "b9": "p",
    "c9": "s",
    "d9": "j",
    "e9": "r",
    "f9": "s",
}

TACTICS = (
    Tactic(
        "marshal-shuns-unmoved-pieces",
        {**BLUE_CAMP, "e8": "M+", "a1": "F", "b1": "B", "a2": "B", "j4": "S", "h3": "R"},
        "the Marshal next to pieces that never moved, both enemy Bombs unseen among them: a strike may lose it"
        " to a Bomb; a Scout or a Sergeant finds out first",
        wrong=frozenset({"e8xe9"}),
    ),
    Tactic(
        "general-shuns-unmoved-pieces",
        {**BLUE_CAMP, "d8": "G+", "a1": "F", "b1": "B", "a2": "B", "j4": "S", "h3": "R"},
        "the General, as the Marshal: it does not strike an unmoved piece while Bombs are unseen",
        wrong=frozenset({"d8xd9"}),
    ),
    Tactic(
        "spy-takes-known-marshal",
        {"f4": "Y", "f5": "m!", "a1": "F", "b1": "B", "j10": "f", "i10": "b", "a8": "r+", "j4": "S"},
        "a Spy next to the known Marshal strikes it down: the best trade there is",
        right=frozenset({"f4xf5"}),
    ),
    Tactic(
        "general-leaves-known-marshal",
        {"e4": "G", "e5": "m!", "a1": "F", "b1": "B", "j10": "f", "i10": "b", "a8": "r+", "j1": "S"},
        "the known Marshal next to the General takes it next move: the General steps away",
        right=frozenset({"e4-e3", "e4-d4", "e4-f4"}),
    ),
    Tactic(
        "stop-the-runner-at-the-flag",
        {"a1": "F", "b3": "C", "a3": "x+", "j1": "S", "h2": "R", "j10": "f", "i10": "b", "h9": "s"},
        "a moved piece two squares from the Flag reaches it in two moves: strike it, or stand where the next"
        " step can be struck",
        right=frozenset({"b3xa3", "b3-b2"}),
    ),
    Tactic(
        "block-the-runner-at-the-flag",
        {"a1": "F", "b1": "B", "b2": "P", "a3": "x+", "j1": "S", "h2": "R", "j10": "f", "i10": "b", "h9": "s"},
        "the runner on a3 goes to a2 next, beside the Flag: fill a2 first (or stand by it)",
        right=frozenset({"b2-a2"}),
    ),
    Tactic(
        "take-the-last-movable-piece",
        {"e5": "P", "e6": "l!", "j10": "f", "i10": "b!", "j9": "b!", "a1": "F", "b1": "B", "a2": "R"},
        "the Lieutenant is blue's last piece that moves: the Captain takes it, and blue cannot move",
        right=frozenset({"e5xe6"}),
    ),
    Tactic(
        "take-the-last-movable-piece-behind-hidden-bombs",
        {"f4": "J", "f5": "r+", "j10": "f", "i10": "b", "j9": "b", "a1": "F", "b1": "B", "a2": "S"},
        "blue's three unmoved pieces are its Flag and Bombs, by the count: the moved Sergeant is its last"
        " movable piece, and the Major is sure to win on it",
        right=frozenset({"f4xf5"}),
    ),
    Tactic(
        "miner-clears-the-bomb-before-the-flag",
        {"a8": "N", "a9": "b!", "b10": "b!", "a10": "f", "a1": "F", "b1": "B", "j1": "S", "h8": "r+"},
        "the known Bomb on a9 walls the corner the last unknown piece (the Flag, by the count) stands in:"
        " the Miner removes it",
        right=frozenset({"a8xa9"}),
    ),
    Tactic(
        "takes-a-known-weaker-piece",
        {"e4": "C", "e5": "p!", "a1": "F", "b1": "B", "j10": "f", "i10": "b", "a8": "r+", "j1": "S"},
        "the Colonel beats the known Captain for sure",
        right=frozenset({"e4xe5"}),
    ),
    Tactic(
        "shuns-a-known-bomb",
        {"e4": "J", "e5": "b!", "a1": "F", "b1": "B", "j10": "f", "i10": "b", "a8": "r+", "j1": "S"},
        "a Major that strikes a known Bomb is removed",
        wrong=frozenset({"e4xe5"}),
    ),
    Tactic(
        "keeps-away-from-a-known-stronger-piece",
        {"e4": "P", "e6": "g!", "a1": "F", "b1": "B", "j10": "f", "i10": "b", "a8": "r+", "j1": "S"},
        "the Captain stepping to e5 stands beside the known General, which takes it",
        wrong=frozenset({"e4-e5"}),
    ),
)


def mirrored(cell: str) -> str:
    """``cell`` mirrored east to west (the lakes map onto themselves)."""
    return chr(ord("a") + ord("j") - ord(cell[0])) + cell[1:]


def turned(cell: str) -> str:
    """``cell`` on the field turned round north to south: red's squares become blue's."""
    return cell[0] + str(FIELD.rows + 1 - int(cell[1:]))


def variant(tactic: Tactic, mirror: bool, swap: bool) -> tuple[Position, frozenset[Move], frozenset[Move]]:
    """The position and moves of ``tactic``, mirrored and with the colours swapped."""

    def square(cell: str) -> str:
        cell = mirrored(cell) if mirror else cell
        return turned(cell) if swap else cell

    def move(text: str) -> Move:
        played = Move.from_text(text)
        return Move(square(played.origin), square(played.target), played.is_strike)

    pieces, shown = {}, {}
    for cell, written in tactic.pieces.items():
        letter, mark = written[0], written[1:]
        side = Side.RED if letter.isupper() else Side.BLUE
        if swap:
            side = side.opponent
        rank = FIELD.army.by_letter("S" if letter.upper() == "X" else letter)  # x: a piece that moved, any rank
        pieces[square(cell)] = Piece(side, rank)
        shown[square(cell)] = Shown.from_mark(mark)
    position = Position(FIELD, pieces, Side.BLUE if swap else Side.RED, shown=shown)
    return position, frozenset(map(move, tactic.right)), frozenset(map(move, tactic.wrong))


@pytest.mark.parametrize("swap", [False, True], ids=["as-written", "colours-swapped"])
@pytest.mark.parametrize("mirror", [False, True], ids=["", "mirrored"])
@pytest.mark.parametrize("tactic", TACTICS, ids=[tactic.name for tactic in TACTICS])
def test_the_computer_never_misses_the_tactic(tactic, mirror, swap):
    position, right, wrong = variant(tactic, mirror, swap)
    legal = set(position.legal_moves())
    assert right <= legal and wrong <= legal, tactic.name  # the position says what the tactic says
    assert right or wrong
    view = position.view(position.turn)  # the computer is handed its own side's view alone
    for level in SEARCHING_LEVELS:
        for seed in SEEDS:
            move = BattleComputer(seed).choose(view, level, clock=lambda: 0.0, should_stop=lambda: False).move
            assert not right or move in right, (tactic.name, level, seed, str(move), tactic.why)
            assert move not in wrong, (tactic.name, level, seed, str(move), tactic.why)


def test_there_are_at_least_thirty_tactic_positions_each_explained():
    assert len(TACTICS) * 4 >= 30
    assert all(tactic.why and (tactic.right or tactic.wrong) for tactic in TACTICS)
    assert len({tactic.name for tactic in TACTICS}) == len(TACTICS)
