"""Two simple players to measure the engine against (``benchmarks/engine_match.py``).

- :func:`random_move` plays any legal move, each as likely.
- :func:`greedy_move` looks one ply ahead: it plays a move that wins at once if there
  is one; otherwise it rules out the moves that lose at once (unless all do) and plays
  the move after which the static evaluation (:class:`Evaluator.evaluate`, which also
  sees that the opponent could capture its cuckoo) is best for it; ties are broken by
  ``rng``.
"""

from __future__ import annotations

import random

from firmware_host.games.cuckoo.engine.board import BoardTables
from firmware_host.games.cuckoo.engine.evaluation import WIN, Evaluator
from firmware_host.games.cuckoo.engine.search import GameOverError
from firmware_host.games.cuckoo.rules import Move, Position
from firmware_host.games.cuckoo.rules.bitboards import ONGOING, play


def random_move(position: Position, rng: random.Random) -> Move:
    """A legal move of ``position`` chosen by ``rng``, every one as likely.

    Raises :class:`GameOverError` if there is none.
    """
    moves = position.legal_moves()
    if not moves:
        raise GameOverError(f"the game is over: {position.outcome()}")
    return rng.choice(moves)


def greedy_move(position: Position, rng: random.Random, *, evaluator: Evaluator | None = None) -> Move:
    """The one-ply player's move (see the module's summary); ``evaluator`` for the
    position's nest may be passed to save building one per call.

    Raises :class:`GameOverError` if there is no legal move.
    """
    moves = position.legal_moves()
    if not moves:
        raise GameOverError(f"the game is over: {position.outcome()}")
    if evaluator is None or evaluator.tables.nest != position.nest:
        evaluator = Evaluator(BoardTables(position.nest))
    bits = evaluator.tables.bits
    state, colour, _ = evaluator.tables.node_of(position)
    best: list[Move] = []
    best_score = -2 * WIN
    for move in bits.legal_moves(state, colour):
        child = play(state, move)
        result = bits.verdict(child, 1 - colour)
        if result != ONGOING:
            score = WIN if result & 1 == colour else -WIN
        else:
            score = -evaluator.evaluate(child, 1 - colour, 1)
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    chosen = rng.choice(best)
    return next(move for move in moves if move == chosen)
