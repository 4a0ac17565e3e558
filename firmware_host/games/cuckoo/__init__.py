"""Operation Cuckoo behind the interface every game has (:class:`~firmware_host.games.base.Game`):
its rules (:mod:`firmware_host.games.cuckoo.rules`), its computer opponent
(:mod:`firmware_host.games.cuckoo.engine`), its pictures (:mod:`firmware_host.games.cuckoo.drawing`) and its words.

>>> game = load(None)
>>> position = game.start("standard", Side.RED)
>>> game.read_position(position.to_text()).to_text() == position.to_text()
True
>>> game.outcome_words(game.outcome_from_record("blue", "2"))
'cuckoo captured (2)'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from functools import cache
from pathlib import Path

from firmware_host.errors import NotationError
from firmware_host.games.base import AGREED_DRAW, TIME_LOSS, ComputerChoice, ComputerLevel, PageGame
from firmware_host.games.base import Piece as BasePiece
from firmware_host.games.base_game import BaseGame
from firmware_host.games.cuckoo.drawing import PAGE_DRAWINGS, move_picture_svg, nest_svg, text_diagram
from firmware_host.games.cuckoo.engine import LEVELS, Engine, Limits, SearchResult, level
from firmware_host.games.cuckoo.rules import (
    DRAW,
    Kind,
    Move,
    Nest,
    Outcome,
    Piece,
    Position,
    Rule,
    Side,
    WinCondition,
    perft,
)

NAME = "cuckoo"

RULE_WORDS: Mapping[Hashable, str] = {  # the rule broken, in a few words for the OLED
    Rule.GAME_OVER: "the game is over",
    Rule.NOT_A_CELL: "not a cell",
    Rule.NOT_A_MOVE: "not a move",
    Rule.NO_PIECE: "no piece there",
    Rule.NOT_YOUR_TURN: "not your turn",
    Rule.OWN_PIECE: "own piece there",
    Rule.TOO_FAR: "too far",
    Rule.BLOCKED: "no jumping",
    Rule.NOT_FORWARD: "not forward",
    Rule.CAPTURE_COMPULSORY: "must capture",
    Rule.NOTATION: "not that move",
    Rule.PASS_NOT_ALLOWED: "no passing",
}
CONDITION_WORDS = {  # how a game was won, in a few words for the OLED
    WinCondition.ONLY_CUCKOO_LEFT: "only cuckoo left",
    WinCondition.CUCKOO_CAPTURED: "cuckoo captured",
    WinCondition.CUCKOO_TOOK_NEST: "cuckoo took nest",
    WinCondition.ENTERED_HOMEBASE: "entered homebase",
}
PIECE_SHAPES = {Kind.EGG: "egg", Kind.WARBLER: "diamond", Kind.CUCKOO: "star"}
"""How the web page draws each kind, so a piece reads by its shape as well as its
colour and letter."""

HOW_TO_WIN = {  # each winning condition for the one who wins by it, numbered as the OLED shows it: "(2)"
    WinCondition.ONLY_CUCKOO_LEFT: "all you have left is your cuckoo",
    WinCondition.CUCKOO_CAPTURED: "you capture the other cuckoo",
    WinCondition.CUCKOO_TOOK_NEST: "your cuckoo reaches one of the other side's homebases",
    WinCondition.ENTERED_HOMEBASE: "an enemy piece other than its cuckoo enters one of your homebases",
}
HOW_TO_PLAY = (
    "Each side has eggs, warblers and one cuckoo. On your turn move one piece forward, or capture.",
    "Forward is towards the other side, along the two slanting lines of cells: for red "
    "(who plays up the page) up-left and up-right, for blue down-left and down-right. "
    "Along a row is sideways, never forward.",
    "An egg steps one cell forward. A warbler or the cuckoo moves one or two cells "
    "forward in a straight line, never jumping over a piece.",
    "A capture takes an enemy piece one cell away (two for a warbler or the cuckoo, in a "
    "straight line over an empty cell) in any direction: lift it off and put your piece "
    "in its place. If you can capture, you must.",
    "You win in four ways, each numbered as the nest shows it after a win (RED WINS … (2)): "
    + "; ".join(f"({int(condition)}) {words}" for condition, words in HOW_TO_WIN.items())
    + ".",
    "A side that cannot move passes; when neither can, the game is drawn and played again. "
    "A set is the best of three games; the side that starts takes turns.",
)

RULE_PICTURES: dict[int, tuple[tuple[str, tuple[str, ...], str], ...]] = {
    # HOW_TO_PLAY's paragraph: (position on the default nest as NFN, its moves, a caption), each drawn
    # by move_picture_svg. Every move is legal there (tests/test_games.py plays them).
    2: (
        ("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r", ("c3-c4", "c3-d4"), "an egg's two steps forward"),
        ("c4/6/7/8/9/3e4/1W5/6/2C2 r", ("b3-b5", "b3-c4"), "a warbler: two cells in a line, or one"),
    ),
    3: (
        ("c4/6/7/8/9/8/2e4/2E3/C4 r", ("c2xc3",), "an egg captures the piece next to it"),
        ("c4/6/7/8/3e5/8/3W3/6/C4 r", ("d3xd5",), "a warbler captures two cells away, over an empty cell"),
    ),
}


def rule_pictures(nest: Nest) -> list[list[dict[str, str]]]:
    """The pictures of each paragraph of HOW_TO_PLAY (none on a nest of one's own: the
    examples' positions are the default nest's)."""
    if nest.name != Nest.default().name:
        return [[] for _ in HOW_TO_PLAY]
    pictures: list[list[dict[str, str]]] = [[] for _ in HOW_TO_PLAY]
    for paragraph, examples in RULE_PICTURES.items():
        for nfn, moves, caption in examples:
            position = Position.from_nfn(nfn, nest=nest)
            drawn = move_picture_svg(position, tuple(Move.from_text(move) for move in moves))
            pictures[paragraph].append({"svg": drawn, "caption": caption})
    return pictures


class CuckooPageGame(PageGame):
    """The page's game with a picture or two of its moves beside each paragraph of its rules."""

    rule_pictures: list[list[dict[str, str]]]


class CuckooGame(BaseGame[Nest, Position, Outcome]):
    """Operation Cuckoo on one nest."""

    name = NAME
    title = "Operation Cuckoo"
    not_your_turn = Rule.NOT_YOUR_TURN
    RULE_WORDS = RULE_WORDS
    computer_levels = tuple(ComputerLevel(each.number, each.name) for each in LEVELS)

    @property
    def nest(self) -> Nest:
        """The board: a nest of hexagonal cells."""
        return self.board

    def start(self, lineup: str, turn: Side) -> Position:
        return Position.from_lineup(lineup, turn=turn, nest=self.board)

    def read_position(self, text: str) -> Position:
        return Position.from_nfn(text, nest=self.board)

    def read_move(self, text: str) -> Move:
        return Move.from_text(text)

    def move(self, origin: str, target: str, *, capture: bool) -> Move:
        return Move(origin, target, capture)

    # -- outcomes -----------------------------------------------------------------------

    def outcome_record(self, outcome: Outcome) -> tuple[str, str | None]:
        if outcome.on_time:
            return outcome.to_text(), TIME_LOSS
        if outcome.by_agreement:
            return "draw", AGREED_DRAW
        return outcome.to_text(), None if outcome.condition is None else str(int(outcome.condition))

    def outcome_from_record(self, result: str, how: str | None) -> Outcome:
        if result == "draw" and how == AGREED_DRAW:
            return Outcome(None, None, by_agreement=True)
        if result == "draw":
            return DRAW
        if how == TIME_LOSS:
            return Outcome(Side.from_text(result), None, on_time=True)
        try:
            condition = None if how is None else WinCondition(int(how))
        except ValueError:
            raise NotationError(f"no winning condition {how!r}: the conditions are 1 to 4") from None
        return Outcome(Side.from_text(result), condition)

    def outcome_words(self, outcome: Outcome) -> str:
        if outcome.by_agreement:
            return "drawn by agreement"
        if outcome.winner is None:
            return "no side can move"
        if outcome.on_time:
            return f"{outcome.winner.opponent.label} out of time"
        if outcome.condition is None:
            return f"{outcome.winner.opponent.label} resigned"
        return f"{CONDITION_WORDS[outcome.condition]} ({int(outcome.condition)})"

    def outcome_cell(self, position: Position, outcome: Outcome) -> str | None:
        """The winner's lone cuckoo, for condition 1."""
        if outcome.winner is None or outcome.condition is not WinCondition.ONLY_CUCKOO_LEFT:
            return None
        cuckoo = Piece(outcome.winner, Kind.CUCKOO)
        return next((cell for cell, piece in position.pieces().items() if piece == cuckoo), None)

    # -- the computer --------------------------------------------------------------------

    def computer(self, seed: int) -> CuckooComputer:
        return CuckooComputer(seed)

    # -- pictures and words ---------------------------------------------------------------

    def legend(self) -> str:
        return "Pieces: E W C red egg, warbler, cuckoo; e w c blue; _ an empty homebase."

    def diagram(self, position: Position) -> str:
        return text_diagram(position)

    def picture(self, pieces: Mapping[str, BasePiece] | None = None) -> str:
        return nest_svg(self.board, pieces)

    def for_page(self) -> PageGame:
        return _page(self.board)

    def perft(self, position: Position, depth: int) -> int:
        """On the bitboards, faster than by the protocol."""
        return perft(position, depth)


@cache
def _page(nest: Nest) -> CuckooPageGame:
    home = {cell: side.label for side in Side for cell in nest.homebases(side)}
    cells = [
        {"name": cell, "q": nest.coordinates(cell)[0], "r": nest.coordinates(cell)[1], "home": home.get(cell)}
        for cell in nest.cells
    ]
    pieces = {
        piece.letter: {
            "side": side.label,
            "name": kind.label,
            "shape": PIECE_SHAPES[kind],
            "drawing": PAGE_DRAWINGS[PIECE_SHAPES[kind]],
            "order": order,
        }
        for side in Side
        for order, kind in enumerate((Kind.CUCKOO, Kind.WARBLER, Kind.EGG))
        for piece in (Piece(side, kind),)
    }
    return {
        "name": NAME,
        "title": CuckooGame.title,
        "board": {"name": nest.name, "shape": "hex", "cells": cells},
        "pieces": pieces,
        "rules": list(HOW_TO_PLAY),
        "rule_pictures": rule_pictures(nest),
    }


class CuckooComputer:
    """The engine, as the computer opponent every game has."""

    def __init__(self, seed: int) -> None:
        self._engine = Engine(seed=seed)

    def choose(
        self, position: Position, level_number: int, *, clock: Callable[[], float], should_stop: Callable[[], bool]
    ) -> ComputerChoice:
        result = self._engine.choose(position, level(level_number), clock=clock, should_stop=should_stop)
        return _choice(result)

    def analyse(
        self, position: Position, *, nodes: int | None, seconds: float | None, clock: Callable[[], float]
    ) -> ComputerChoice:
        return _choice(self._engine.search(position, Limits(nodes=nodes, seconds=seconds), clock=clock))


def _choice(result: SearchResult) -> ComputerChoice:
    facts = {
        "score": result.score_text(),
        # what a score that is not a proved end counts: `nestref analyse` prints it beside the score
        "unit": "" if result.plies_to_end is not None else "moves ahead in the cuckoos' race, for the side to move",
        "depth": str(result.depth),
        "nodes": str(result.nodes),
        "time": f"{result.seconds or 0.0:.2f} s",
        "pv": " ".join(map(str, result.pv)),
    }
    return ComputerChoice(result.move, facts)


def load(board: str | Path | None) -> CuckooGame:
    """Operation Cuckoo on the nest of the board file ``board`` (None: the default
    nest). Raises :class:`~firmware_host.errors.BoardFileError`."""
    return CuckooGame(Nest.load(board) if board is not None else Nest.default())
