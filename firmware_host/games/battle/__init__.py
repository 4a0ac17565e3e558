"""The battle game of the seeds behind the interface every game has
(:class:`~firmware_host.games.base.Game`): two armies of ranked pieces whose ranks the
opponent cannot see, on a square field with two lakes (``docs/rules-battle.md``).

The referee knows every rank from the set-ups; what it hands the shared screens never
says one: a piece's letter is ``X`` or ``x``, the diagrams and pictures show the public
view. Ranks are in the record's notation (:meth:`Position.to_text`), in the players' own
views (:meth:`Position.view`) and in what a strike announces (:meth:`Position.strike`).

>>> game = load(None)
>>> position = game.start("demo", Side.RED)
>>> game.read_position(position.to_text()).to_text() == position.to_text()
True
>>> game.outcome_words(game.outcome_from_record("blue", "flag"))
'flag captured'
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from firmware_host.errors import NotationError
from firmware_host.games.base import (
    AnnouncesCapturesOf,
    CaptureAnnouncement,
    HiddenPiecesOf,
    PageGame,
    PlayersSetUpOf,
    Side,
)
from firmware_host.games.base import Piece as BasePiece
from firmware_host.games.base_game import BaseGame
from firmware_host.games.battle.army import Movement, Rank, Role
from firmware_host.games.battle.computer import LEVELS, BattleComputer, computer_setup
from firmware_host.games.battle.drawing import PAGE_DRAWINGS, field_svg, text_diagram
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import Move, Rule
from firmware_host.games.battle.outcome import DRAW, Ending, Outcome
from firmware_host.games.battle.pieces import HIDDEN_LETTER, Shown, side_letter
from firmware_host.games.battle.position import Position, View
from firmware_host.games.battle.setups import GuidedPlacement, Setup, SetupCheck

__all__ = [
    "BattleGame",
    "BattlePage",
    "Field",
    "GuidedPlacement",
    "Move",
    "Outcome",
    "Position",
    "Setup",
    "SetupCheck",
    "View",
    "load",
]

NAME = "battle"

RULE_WORDS: Mapping[Hashable, str] = {  # the rule broken, in a few words for the OLED; none names a rank
    Rule.GAME_OVER: "the game is over",
    Rule.NOT_A_SQUARE: "not a square",
    Rule.LAKE: "that is a lake",
    Rule.NOT_A_MOVE: "not a move",
    Rule.NO_PIECE: "no piece there",
    Rule.NOT_YOUR_TURN: "not your turn",
    Rule.PUT_DOWN: "move is made",
    Rule.OWN_PIECE: "own piece there",
    Rule.NOT_STRAIGHT: "not diagonally",
    Rule.BLOCKED: "no jumping",
    Rule.OUT_OF_REACH: "cannot go there",
    Rule.STRIKE_NEIGHBOURS: "strike neighbours",
    Rule.NOTATION: "not that move",
    Rule.TWO_SQUARES: "two-square rule",
}


def how_to_play(field: Field) -> tuple[str, ...]:
    """A few paragraphs of how to play on ``field``, for the page: the two-square rule's
    count is the field's."""
    rows = len(field.setup_rows(Side.RED))
    return (
        f"Each side sets up its army on its own {rows} rows, ranks facing its player: the other side sees only "
        "their backs. On your turn move one piece, or strike with one.",
        "A piece moves one square forward, backward or sideways, never diagonally, never into a lake or "
        "through a piece. A Scout moves any number of empty squares in a straight line. Bombs and the Flag "
        "never move. Once you let go of a piece, your move is made.",
        "To strike, lift your piece and the enemy piece next to it: the referee tells both ranks. The lower "
        "rank is removed and the winner stands on the struck square; equal ranks are both removed. "
        "Striking is never compulsory.",
        "The Spy removes the Marshal, but only when the Spy strikes. A Miner removes a Bomb; any other piece "
        "that strikes a Bomb is removed. Strike the enemy Flag to win; a side that cannot move loses.",
        f"A piece may not go back and forth between the same two squares in {field.two_square_turns} turns "
        "in a row. A set is the best of three games.",
    )


class BattlePage(PageGame):
    """What the page needs to draw the battle game: besides every game's, the army's
    ranks (letter, name, count, strength) for the set-up's box."""

    army: list[dict[str, Any]]


class BattleGame(
    BaseGame[Field, Position, Outcome],
    PlayersSetUpOf[Setup, Position],
    HiddenPiecesOf[Position, Setup],
    AnnouncesCapturesOf[Position, Move],
):
    """The battle game on one field: set up by the players, its ranks hidden, its strikes
    announced (the game is each of its capabilities)."""

    name = NAME
    title = "Pirates and Wizards"
    not_your_turn = Rule.NOT_YOUR_TURN
    RULE_WORDS = RULE_WORDS
    computer_levels = LEVELS

    @property
    def field(self) -> Field:
        """The board: a field of squares with lakes."""
        return self.board

    @property
    def setups(self) -> BattleGame:
        return self

    @property
    def hidden(self) -> BattleGame:
        return self

    @property
    def announcer(self) -> BattleGame:
        return self

    # -- set-ups and positions -------------------------------------------------------------

    def start(self, lineup: str, turn: Side) -> Position:
        return Position.from_lineup(self.field, lineup, turn)

    def read_setup(self, side: Side, text: str) -> Setup:
        """A player's set-up in text (``docs/rules-battle.md`` §2), checked. Raises
        :class:`~firmware_host.games.battle.setups.SetupError` or :class:`NotationError`."""
        return Setup.from_text(self.field, side, text)

    def guided_placement(self, side: Side, *, seed: int) -> GuidedPlacement:
        """A set-up for ``side`` made by asking for one rank at a time on its player's
        own screen, in an order drawn with ``seed`` (``docs/rules-battle.md`` §2)."""
        return GuidedPlacement.begin(self.field, side, seed=seed)

    def setup_check(self, setup: Setup, *, seed: int) -> SetupCheck:
        """The check that the pieces on the nest are ``setup``'s ranks: one piece lifted
        at a time by its rank, in an order drawn with ``seed`` (``docs/rules-battle.md``
        §2)."""
        return SetupCheck.begin(setup, seed=seed)

    def start_from_setups(self, red: Setup, blue: Setup, turn: Side) -> Position:
        """The start of a game from the players' own set-ups."""
        return Position.from_setups(self.field, red, blue, turn)

    def setup_cells(self, side: Side) -> frozenset[str]:
        """The squares of ``side``'s set-up rows."""
        return self.field.setup_cells(side)

    def setup_size(self, side: Side) -> int:
        """The pieces of a side's army."""
        return self.field.army.size

    def announce_capture(self, position: Position, move: Move) -> CaptureAnnouncement:
        """The strike ``move`` of ``position`` as the referee announces it: both ranks
        (the strike shows them to everybody), the squares to clear, where the winner
        stands (``docs/rules-battle.md`` §5, §8)."""
        strike = position.strike(move)
        winner_on = move.target if strike.winner is not None else None
        return CaptureAnnouncement(move, strike.words(), strike.removed, winner_on)

    def public_text(self, position: Position) -> str:
        """``position`` as the spectators see it (:meth:`Position.view`): no hidden rank."""
        return position.view().to_text()

    def read_position(self, text: str) -> Position:
        return Position.from_text(self.field, text)

    def read_move(self, text: str) -> Move:
        return Move.from_text(text)

    def move(self, origin: str, target: str, *, capture: bool) -> Move:
        return Move(origin, target, capture)

    # -- outcomes -----------------------------------------------------------------------

    def outcome_record(self, outcome: Outcome) -> tuple[str, str | None]:
        return outcome.to_text(), None if outcome.ending is None else outcome.ending.value

    def outcome_from_record(self, result: str, how: str | None) -> Outcome:
        if result == "draw" and how == Ending.NEITHER_CAN_MOVE.value:
            return DRAW
        if result == "draw" and how == Ending.AGREED.value:
            return Outcome(None, Ending.AGREED)
        endings = {ending.value: ending for ending in (Ending.FLAG_CAPTURED, Ending.CANNOT_MOVE, Ending.TIME)}
        if result == "draw" or (how is not None and how not in endings):
            raise NotationError(
                f"no outcome {result!r} by {how!r}: a win is by 'flag', 'cannot-move', 'time' or a resignation "
                "(none), a draw by 'neither-can-move'"
            )
        return Outcome(Side.from_text(result), None if how is None else endings[how])

    def outcome_words(self, outcome: Outcome) -> str:
        return outcome.words()

    # -- the computer --------------------------------------------------------------------

    def computer(self, seed: int) -> BattleComputer:
        return BattleComputer(seed)

    # -- pictures and words ---------------------------------------------------------------

    def legend(self) -> str:
        key = ", ".join(f"{rank.letter} {rank.name}" for rank in self.field.army)
        return f"Pieces: X red, x blue, rank hidden; where a rank is shown {key} (blue's in lower case); ~ a lake."

    def diagram(self, position: Position | View) -> str:
        """The position as a spectator sees it (a view as its viewer does)."""
        view = position.view() if isinstance(position, Position) else position
        return text_diagram(self.field, {cell: piece.letter for cell, piece in view.pieces().items()})

    def picture(self, pieces: Mapping[str, BasePiece] | None = None) -> str:
        """The field as an SVG, with ``pieces`` drawn by their letters: a position's
        pieces show no rank; a view's show the ranks its viewer knows."""
        return field_svg(self.field, pieces)

    def for_page(self) -> BattlePage:
        return _page(self.field)

    # -- what is hidden (games.base.HiddenPiecesOf) ----------------------------------------

    def letters_seen_by(self, position: Position, side: Side) -> dict[str, str]:
        """The pieces as ``side``'s player sees them: its own ranks, the other's shown ones
        (the letters of :meth:`Position.view`, without making the whole view: the page's
        server asks on every change)."""
        return {
            cell: piece.rank_letter if piece.side is side or position.shown(cell) is Shown.REVEALED else piece.letter
            for cell, piece in position.pieces().items()
        }

    def public_letters(self, position: Position) -> dict[str, str]:
        """The pieces as everybody sees them: a rank only where a strike or a run showed it."""
        return {
            cell: piece.rank_letter if position.shown(cell) is Shown.REVEALED else piece.letter
            for cell, piece in position.pieces().items()
        }

    def diagram_seen_by(self, position: Position, side: Side) -> str:
        """``position`` as text as ``side``'s player sees it (:meth:`Position.view`)."""
        return self.diagram(position.view(side))

    def setup_letters(self, setup: Setup) -> dict[str, str]:
        """The ranks of ``setup`` by square, in its side's case: for its player's screen."""
        return {cell: side_letter(rank.letter, setup.side) for cell, rank in setup.ranks.items()}

    def computer_setup(self, side: Side, seed: int) -> Setup:
        """A set-up for the computer's ``side``, drawn with ``seed``."""
        return computer_setup(self.field, side, seed)

    def computer_input(self, position: Position) -> View:
        """The side to move's own view: what the computer is handed, in its process."""
        return position.view(position.turn)


@cache
def _page(field: Field) -> BattlePage:
    cells = [
        {
            "name": cell,
            "x": field.coordinates(cell)[0],
            "y": field.coordinates(cell)[1],
            "home": home.label if (home := field.home_of(cell)) is not None else None,
        }
        for cell in field.cells
    ]
    lakes = [
        {"name": lake, "x": field.coordinates(lake)[0], "y": field.coordinates(lake)[1]} for lake in sorted(field.lakes)
    ]
    pieces: dict[str, dict[str, Any]] = {}
    for side in Side:
        pieces[side_letter(HIDDEN_LETTER, side)] = {
            "side": side.label,
            "name": "piece",
            "shape": "block",
            "drawing": PAGE_DRAWINGS["block"],
            "order": 0,
        }
        for order, rank in enumerate(field.army, start=1):
            pieces[side_letter(rank.letter, side)] = _page_piece(rank, side, order)
    return {
        "name": NAME,
        "title": BattleGame.title,
        "board": {
            "name": field.name,
            "shape": "square",
            "columns": field.columns,
            "rows": field.rows,
            "cells": cells,
            "lakes": lakes,
        },
        "pieces": pieces,
        "army": [
            {"letter": rank.letter, "name": rank.name, "count": rank.count, "strength": rank.strength}
            for rank in field.army
        ],
        "rules": list(how_to_play(field)),
    }


def _page_piece(rank: Rank, side: Side, order: int) -> dict[str, Any]:
    """A piece of ``rank`` for the page: drawn only where its rank may be shown (to its
    own player, or once a strike revealed it)."""
    shape = {Role.FLAG: "flag", Role.BOMB: "bomb", None: "block"}[rank.role]
    moves = {Movement.NONE: "never", Movement.STEP: "one square", Movement.RUN: "any number of squares"}
    return {
        "side": side.label,
        "name": rank.name,
        "shape": shape,
        "drawing": PAGE_DRAWINGS[shape],
        "order": order,
        "strength": rank.strength,
        "moves": moves[rank.movement],
    }


def load(board: str | Path | None) -> BattleGame:
    """The battle game on the field of the board file ``board`` (None: the classic
    field; ``classic-40``, a shipped board's name: that one). Raises
    :class:`~firmware_host.errors.BoardFileError`."""
    return BattleGame(Field.load(board) if board is not None else Field.default())
