"""What the nest shows, read as a move refused: the move it looked like (an illegal
capture, a piece moved where it may not go, a piece lifted out of turn), the rule it
breaks in the game's own words, and the first plan to undo it. Pure functions of the
turn's view and what the sensors say."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from firmware_host.games.base import Game, Move
from firmware_host.referee.correction import undo_capture
from firmware_host.referee.signals import FixStep, MoveRefused
from firmware_host.referee.tracker import Observation, TurnView

ATTEMPT_REACH = 2  # a piece "captured" farther away than this was only touched


def attempted_capture(view: TurnView, seen: Observation, lifted: Set[str], game: Game) -> Move | None:
    """A capture the nest shows made, though not a legal one: a piece lifted, and a
    piece of the other side near it whose cell read empty since and holds a piece
    again (the capturer). The mover's pieces first; then the other side's, out of
    turn.

    A piece "capturing" one of its own side shows nothing this does not: lifting two
    pieces and putting one back looks the same."""
    board = game.board
    attempts = [
        game.move(origin, target, capture=True)
        for origin in lifted
        for target, piece in view.pieces.items()
        if piece.side is not view.pieces[origin].side
        and target in seen.occupied
        and target not in seen.ignored
        and board.distance(origin, target) <= ATTEMPT_REACH
        and seen.prompt_evidence(origin, target)
    ]
    attempts = [move for move in attempts if move not in view.moves]
    return min(
        attempts,
        key=lambda m: (str(m.origin) not in view.own, board.distance(str(m.origin), str(m.target))),
        default=None,
    )


def diagnose(
    view: TurnView,
    seen: Observation,
    attempt: Move | None,
    game: Game,
    *,
    announced: Move | None,
    computer_move: Move | None,
) -> tuple[MoveRefused, tuple[FixStep, ...] | None]:
    """What the nest shows, as a refused move, and the first plan to undo it: ``attempt``
    the illegal capture it shows, if any (:func:`attempted_capture`); ``announced`` the
    strike announced this turn, ``computer_move`` the computer's move chosen, if any."""
    board = game.board
    lifted, placed = view.difference(seen.occupied, seen.ignored)
    if attempt is not None:  # an illegal capture
        refusal = refusal_of(view, attempt, announced=announced, computer_move=computer_move)
        assert refusal is not None, "an allowed capture would have been read"
        return MoveRefused(attempt, *refusal), undo_capture(attempt, view.pieces)
    if len(placed) == 1:
        (cell,) = placed
        if lifted:
            # The piece that moved there: one lifted before it landed, the nearest,
            # the mover's on a tie.
            def key(origin: str) -> tuple[bool, int, bool, int]:
                landed_first = seen.since(cell) < seen.since(origin) - 100
                return landed_first, board.distance(origin, cell), origin not in view.own, board.index(origin)

            origin = min(lifted, key=key)
            move = game.move(origin, cell, capture=False)
            refusal = refusal_of(view, move, announced=announced, computer_move=computer_move)
            if refusal is not None:
                return MoveRefused(move, *refusal), None
            strays = sorted(lifted - view.liftable - {origin}, key=board.index)
            reason = f"{move} was made while {', '.join(strays)} were disturbed"
            return MoveRefused(None, None, reason), None
        return MoveRefused(None, None, f"a piece appeared on {cell}, where none should be"), None
    if len(placed) > 1:
        cells = ", ".join(sorted(placed, key=board.index))
        return MoveRefused(None, None, f"pieces were put on {cells}: one move at a time"), None
    strays = sorted(lifted - view.liftable, key=board.index)
    cell = strays[0] if strays else sorted(lifted, key=board.index)[0]
    piece = view.pieces[cell]
    if piece.side is not view.side:
        reason = f"the {piece.label} on {cell} was lifted, but it is {view.side.label}'s turn"
        rule = game.not_your_turn if not lifted & view.own else None
        return MoveRefused(None, rule, reason), None
    return MoveRefused(None, None, f"the {piece.label} on {cell} was lifted"), None


def refusal_of(
    view: TurnView, move: Move, *, announced: Move | None, computer_move: Move | None
) -> tuple[Any, str] | None:
    """Why ``move`` is refused now: the rule it breaks; or, on the computer's turn,
    that it is not the computer's move. None if it is accepted."""
    illegal = view.position.check_move(move, lenient=view.lenient)
    if illegal is not None:
        return illegal.rule, illegal.reason
    if announced is not None and move != announced:
        return None, f"the strike {announced} is announced: it stands"
    if move in view.moves:
        return None
    if computer_move is not None:
        return None, f"the computer plays {computer_move}"
    return None, "the computer is choosing its move: wait for it"
