"""The search: iterative deepening alpha-beta (negamax with principal variation search)
over the nodes of :mod:`firmware_host.games.cuckoo.engine.board`, with a transposition table, move
ordering, and a capture search at the horizon.

Capturing is compulsory, so a position whose side to move has a capture has only
captures: it is not quiet. At the horizon the search goes on through such positions,
trying every capture (there is no "standing pat": the side must capture), and
evaluates only positions whose side to move has free moves.

The search is deterministic: with the same position, seed and node or depth limits it
visits the same nodes and returns the same move on every machine. A time limit or a
``should_stop`` makes the result depend on the machine's speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING

from firmware_host.errors import NestrefError
from firmware_host.games.cuckoo.engine.board import BoardTables
from firmware_host.games.cuckoo.engine.evaluation import NOT_QUIET, WIN, WIN_BOUND, Evaluator
from firmware_host.games.cuckoo.rules import PASS, Move, Nest, Position
from firmware_host.games.cuckoo.rules.bitboards import ONGOING, State, origin_bit, play, target_bit

if TYPE_CHECKING:
    from firmware_host.games.cuckoo.engine.levels import Level

MAX_PLY = 96  # no line is searched deeper than this (a game is rarely this long)
INFINITY = WIN + 1_000
_POLL_EVERY = 1024  # nodes between two looks at the clock and at should_stop
_EXACT, _LOWER, _UPPER = 0, 1, 2  # what a table entry's score is: exact, at least, at most
# Late move reductions: from the move of this index on (after the table's move and the
# killers), a quiet move at this depth or more is first searched a ply shallower; from
# the second index at the second depth on, two plies shallower.
_REDUCE_FROM, _REDUCE_DEPTH = 3, 3
_REDUCE_TWICE_FROM, _REDUCE_TWICE_DEPTH = 6, 5
# The ranks of quiet moves above and below every history score.
_WINNING_STEP, _FIRST_KILLER_RANK, _SECOND_KILLER_RANK, _LOSING_STEP = 1 << 39, 1 << 38, 1 << 37, -(1 << 39)


class GameOverError(NestrefError, ValueError):
    """The position has no legal move: the game is over (won, lost or drawn)."""


class _StopSearchError(Exception):
    """Unwinds the search when a limit is reached (never leaves this module)."""


@dataclass(frozen=True)
class Limits:
    """When a search stops. Without any limit it goes on to the end of the game or to
    :data:`MAX_PLY` plies, whichever is first (a ``should_stop`` can still stop it).

    - ``nodes``: stop after about this many nodes (exactly: the first node past it).
    - ``seconds``: stop after this long by the clock passed to the search; without a
      clock it is ignored. A new depth is not started once half of it has gone.
    - ``depth``: stop after completing this depth (in plies, captures at the horizon
      not counted).
    """

    nodes: int | None = None
    seconds: float | None = None
    depth: int | None = None


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the move to play, its score for the side to move, the
    line it expects, the last depth it completed and the nodes it visited.

    >>> SearchResult(PASS, WIN - 3, (PASS,), 3, 100).score_text()
    'win in 2'
    >>> SearchResult(PASS, 2 - WIN, (PASS,), 3, 100).score_text()
    'loss in 1'
    >>> SearchResult(PASS, -42, (PASS,), 3, 100).score_text()
    '-0.42'
    """

    move: Move
    score: int
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    seconds: float | None = field(default=None, compare=False)  # by the clock, if one was given

    def is_win(self) -> bool:
        """Whether the side to move has a forced win (as far as the search saw)."""
        return self.score > WIN_BOUND

    def is_loss(self) -> bool:
        """Whether the side to move loses whatever it does (as far as the search saw)."""
        return self.score < -WIN_BOUND

    @property
    def plies_to_end(self) -> int | None:
        """For a win or a loss, the plies (moves of both sides) until the game ends."""
        if self.is_win():
            return WIN - self.score
        if self.is_loss():
            return WIN + self.score
        return None

    def score_text(self) -> str:
        """The score in words: ``+0.42`` (for the side to move, in moves of the cuckoos'
        race), or ``win in N`` / ``loss in N`` when the search has proved the end: the
        game ends within N moves of the side to move, counted as full moves (a move of
        each side; the last may be the opponent's forced reply), so "win in 1" is a win
        on this move or on the opponent's answer to it."""
        plies = self.plies_to_end
        if plies is None:
            return f"{self.score / 100:+.2f}"
        return f"{'win' if self.is_win() else 'loss'} in {(plies + 1) // 2}"


class Engine:
    """The computer opponent: searches positions of any nest.

    ``seed`` decides the deliberate mistakes of the lower levels and nothing else;
    ``table_bits`` sets the transposition table's size (2**table_bits entries). Each
    search starts from an empty table, so a search's result never depends on the
    searches before it.

    >>> engine = Engine(seed=1)
    >>> result = engine.search(Position.from_lineup("standard"), Limits(depth=2))
    >>> result.move in Position.from_lineup("standard").legal_moves(), result.depth
    (True, 2)
    """

    def __init__(self, *, seed: int = 0, table_bits: int = 18) -> None:
        if not 1 <= table_bits <= 26:
            raise ValueError(f"table_bits must be from 1 to 26, got {table_bits}")
        self.seed = seed
        self.table_bits = table_bits
        self._nests: dict[Nest, tuple[BoardTables, Evaluator]] = {}

    def tables(self, nest: Nest) -> tuple[BoardTables, Evaluator]:
        """The search's tables and evaluation for ``nest`` (made once per nest)."""
        found = self._nests.get(nest)
        if found is None:
            tables = BoardTables(nest)
            found = self._nests[nest] = (tables, Evaluator(tables))
        return found

    def search(
        self,
        position: Position,
        limits: Limits,
        *,
        clock: Callable[[], float] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> SearchResult:
        """The best move of ``position`` within ``limits``; ``position`` is left as it was.

        ``clock`` (seconds, any origin) times ``limits.seconds``; ``should_stop`` is
        polled every thousand nodes or so and ends the search when it returns True.
        Stopped early, the search still returns a legal move: the best of the last
        depth completed, or the best so far of the depth under way when it had tried
        the previous best move.

        Raises :class:`GameOverError` if the position has no legal move.
        """
        return self._search(position, limits, clock=clock, should_stop=should_stop, noise=0, rng=None)

    def choose(
        self,
        position: Position,
        level: Level,
        *,
        clock: Callable[[], float] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> SearchResult:
        """The move ``level`` plays in ``position``: a search within its limits, with its
        deliberate mistakes drawn from the engine's seed and the position (so the same
        seed plays the same move in the same position). Deterministic without a clock.

        Raises :class:`GameOverError` if the position has no legal move.
        """
        tables, _ = self.tables(position.nest)
        rng = random.Random(f"{self.seed}:{level.number}:{tables.key_of(position)}")
        limits = level.limits
        if level.oversight and rng.random() < level.oversight:
            limits = Limits(nodes=limits.nodes, seconds=limits.seconds, depth=level.oversight_depth)
        return self._search(position, limits, clock=clock, should_stop=should_stop, noise=level.noise, rng=rng)

    def _search(
        self,
        position: Position,
        limits: Limits,
        *,
        clock: Callable[[], float] | None,
        should_stop: Callable[[], bool] | None,
        noise: int,
        rng: random.Random | None,
    ) -> SearchResult:
        legal = position.legal_moves()
        if not legal:
            raise GameOverError(f"the game is over: {position.outcome()}")
        tables, evaluator = self.tables(position.nest)
        root = tables.node_of(position)
        state, colour, _ = root
        root_moves = tables.bits.legal_moves(state, colour)
        assert sorted(map(str, root_moves)) == sorted(map(str, legal)), "the search's moves are the position's"
        offsets = {move: rng.randint(-noise, noise) for move in root_moves} if noise and rng is not None else {}
        search = _Search(self.table_bits, tables, evaluator, limits, clock, should_stop)
        move, score, pv, depth = search.run(root, root_moves, offsets)
        seconds = clock() - search.started if clock is not None else None
        # Hand back the position's own move values, checking the line as it goes: it
        # ends early at a move that is not legal (a table entry of another position
        # with the same key, a chance of about one in 2**64).
        line = position.copy()
        played: list[Move] = []
        for step in pv:
            if line.check_move(step) is not None:
                break
            played.append(line.push(step))
        assert played and played[0] == move, "the search's move is one of the root's moves"
        return SearchResult(played[0], score, tuple(played), depth, search.nodes, seconds)


class _Search:
    """One search: its table, counters and limits."""

    def __init__(
        self,
        table_bits: int,
        tables: BoardTables,
        evaluator: Evaluator,
        limits: Limits,
        clock: Callable[[], float] | None,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        self.tables = tables
        self.evaluator = evaluator
        self.limits = limits
        self.clock = clock
        self.should_stop = should_stop
        self.started = clock() if clock is not None else 0.0
        self.deadline = self.started + limits.seconds if clock is not None and limits.seconds is not None else None
        self.node_limit = limits.nodes if limits.nodes is not None else 1 << 62
        self.nodes = 0
        self.next_poll = min(self.node_limit, _POLL_EVERY)
        self.mask = (1 << table_bits) - 1
        self.table: list[tuple[int, int, int, int, Move | None] | None] = [None] * (1 << table_bits)
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history: dict[int, int] = {}  # by id() of the tables' move values, which live as long as the search
        self._partial: tuple[Move, int, list[Move]] | None = None
        # By ply: the line found from the node searched last at that ply (tuples: the
        # empty line is one constant, no list is made for a node without a line).
        self.pv: list[tuple[Move, ...]] = [() for _ in range(MAX_PLY + 2)]
        self.horizon = evaluator.horizon
        self.near_home = tables.near_home
        bits = tables.bits
        # What a node reads of the tables, in one tuple: one look-up instead of a dozen.
        self.node_tables = (
            bits.captures,
            bits.legal_moves,
            bits.verdict,
            bits.homebases,
            tables.keys,
            tables.move_keys,
            tables.turn_key,
        )

    def poll(self) -> None:
        """Called when ``nodes`` reaches ``next_poll``: stop if a limit is reached."""
        if self.nodes >= self.node_limit:
            raise _StopSearchError
        if self.should_stop is not None and self.should_stop():
            raise _StopSearchError
        if self.deadline is not None and self.clock is not None and self.clock() >= self.deadline:
            raise _StopSearchError
        self.next_poll = min(self.node_limit, self.nodes + _POLL_EVERY)

    def run(
        self, root: tuple[State, int, int], moves: list[Move], offsets: dict[Move, int]
    ) -> tuple[Move, int, list[Move], int]:
        """Iterative deepening from ``root`` (state, colour, key) over its ``moves``: the
        best move, its score, the principal variation and the last depth completed."""
        limits = self.limits
        max_depth = min(limits.depth, MAX_PLY) if limits.depth is not None else MAX_PLY
        order = list(moves)
        best_move, best_score, best_pv, completed = order[0], 0, [order[0]], 0
        if max_depth < 1:
            max_depth = 1
        scores: dict[Move, int] = {}
        if self.should_stop is not None and self.should_stop():
            return best_move, best_score, best_pv, completed  # stopped before it began
        for depth in range(1, max_depth + 1):
            try:
                move, score, pv = self._root(root, order, depth, offsets, scores)
            except _StopSearchError:
                partial = self._partial
                if partial is not None:
                    best_move, best_score, best_pv = partial
                break
            best_move, best_score, best_pv, completed = move, score, pv, depth
            order.sort(key=lambda m: (m is not best_move, -scores.get(m, -INFINITY)))
            if len(order) == 1:
                break  # a forced move: nothing to choose
            if abs(score) > WIN_BOUND and WIN - abs(score) <= depth:
                break  # a win or loss within the depth searched in full: no shorter one exists
            if (
                self.deadline is not None
                and self.clock is not None
                and self.clock() - self.started >= (self.deadline - self.started) / 2
            ):
                break  # the next depth would not finish in time
        return best_move, best_score, best_pv, completed

    def _root(
        self,
        root: tuple[State, int, int],
        order: list[Move],
        depth: int,
        offsets: dict[Move, int],
        scores: dict[Move, int],
    ) -> tuple[Move, int, list[Move]]:
        self._partial = None
        state, colour, _ = root
        verdict = self.tables.bits.verdict
        key_of_state = self.tables.key_of_state
        alpha = -INFINITY
        best_move, best_pv = order[0], [order[0]]
        for index, move in enumerate(order):
            child = play(state, move)
            result = verdict(child, 1 - colour)
            offset = offsets.get(move, 0)
            if result != ONGOING:
                score = WIN - 1 if result & 1 == colour else -(WIN - 1)
                self.pv[1] = ()
            else:
                child_key = key_of_state(child, 1 - colour)  # from scratch: a root has few moves
                shifted = alpha - offset
                if index == 0:
                    score = -self.negamax(child, 1 - colour, child_key, depth - 1, -INFINITY, INFINITY, 1)
                else:
                    score = -self.negamax(child, 1 - colour, child_key, depth - 1, -shifted - 1, -shifted, 1)
                    if score > shifted:
                        score = -self.negamax(child, 1 - colour, child_key, depth - 1, -INFINITY, -shifted, 1)
            if abs(score) < WIN_BOUND:
                score += offset
            scores[move] = score
            if score > alpha or index == 0:
                alpha = score
                best_move, best_pv = move, [move, *self.pv[1]]
            self._partial = (best_move, alpha, best_pv)
        return best_move, alpha, best_pv

    def negamax(
        self, state: State, colour: int, key: int, depth: int, alpha: int, beta: int, ply: int, is_loud: bool = False
    ) -> int:
        """The score of the node (``state``, ``colour`` to move, Zobrist ``key``) for its
        side to move, searched ``depth`` plies deep (then on through captures), within
        the window ``alpha``..``beta`` (fail-soft). ``is_loud``: the caller has seen
        that the node, at the horizon, is not quiet (its side to move has a capture)."""
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.poll()
        pvs = self.pv
        pvs[ply] = ()
        is_horizon = depth <= 0 or ply >= MAX_PLY
        if is_horizon:
            if not is_loud:
                score = self.horizon(state, colour, ply)
                if score != NOT_QUIET:
                    return score
            if ply >= MAX_PLY:
                return self.evaluator.evaluate(state, colour, ply)
        own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo = state

        # The table, before any move is made: its score if deep enough, else its move first.
        table = self.table
        slot = key & self.mask
        entry = table[slot]
        table_move = None
        if entry is not None and entry[0] == key:
            table_move = entry[4]
            if entry[1] >= depth:
                score = entry[3]
                if score > WIN_BOUND:
                    score -= ply
                elif score < -WIN_BOUND:
                    score += ply
                flag = entry[2]
                if flag == _EXACT or (flag == _LOWER and score >= beta) or (flag == _UPPER and score <= alpha):
                    if table_move is not None:
                        pvs[ply] = (table_move,)
                    return score

        captures, legal_moves, verdict, homebases, keys, move_keys, turn_key = self.node_tables
        if is_horizon:
            moves = captures(own, own_long, opponent)
        else:
            moves = legal_moves(state, colour)
            if not moves:
                return 0  # neither side can move: a draw

        # A forced move costs no depth; captures past the horizon keep depth 0.
        next_depth = depth if len(moves) == 1 and depth > 0 else depth - 1
        if next_depth < 0:
            next_depth = 0

        other = 1 - colour
        base = 3 * colour
        victim_base = 3 * other
        own_home, opponent_home = homebases[colour], homebases[other]
        horizon = self.horizon
        original_alpha = alpha
        best = -INFINITY
        best_move = None
        is_loud = False
        # Best first; lazily behind a table move, which mostly refutes the node: the
        # other moves are ordered only when it does not, for a second pass of the loop.
        in_order: Sequence[Move] = moves
        others: list[Move] | None = None
        if len(moves) > 1:
            if table_move is not None:
                in_order, others = (table_move,), moves
            elif moves[0].is_capture:
                in_order = self._order_captures(moves, state, colour)
            else:
                in_order = self._order_steps(moves, state, colour, ply)
        index = -1
        while True:
            for move in in_order:
                index += 1
                # play(state, move) written out, without the call (the hot path): the boards
                # of the side that moves, then of the other side, after the move.
                origin = move._origin_bit  # origin_bit(move); 0 for a pass
                if origin:
                    target = move._target_bit
                    jump = origin | target
                    mover = own ^ jump
                    if own_long & origin:
                        mover_long = own_long ^ jump
                        mover_cuckoo = target if own_cuckoo == origin else own_cuckoo
                    else:
                        mover_long, mover_cuckoo = own_long, own_cuckoo
                    if move.is_capture:
                        victim = opponent ^ target
                        if opponent_long & target:
                            victim_long = opponent_long ^ target
                            victim_cuckoo = 0 if opponent_cuckoo == target else opponent_cuckoo
                        else:
                            victim_long, victim_cuckoo = opponent_long, opponent_cuckoo
                    else:
                        victim, victim_long, victim_cuckoo = opponent, opponent_long, opponent_cuckoo
                else:
                    mover, mover_long, mover_cuckoo = own, own_long, own_cuckoo
                    victim, victim_long, victim_cuckoo = opponent, opponent_long, opponent_cuckoo
                child = (victim, victim_long, victim_cuckoo, mover, mover_long, mover_cuckoo)
                # The usual case of verdict() first, without a call: both cuckoos on, each
                # side with another piece, no piece on a homebase of the other side's.
                if (
                    not (
                        victim_cuckoo
                        and mover_cuckoo
                        and victim != victim_cuckoo
                        and mover != mover_cuckoo
                        and not (victim & own_home or mover & opponent_home)
                    )
                    and (result := verdict(child, other)) != ONGOING
                ):
                    score = ply + 1 - WIN if result & 1 == other else WIN - ply - 1
                    pvs[ply + 1] = ()
                elif next_depth == 0 and (leaf := horizon(child, other, ply + 1)) != NOT_QUIET:
                    # A quiet child at the horizon: its evaluation is its score, found here
                    # without a call. It counts as the node the call would have been, and
                    # once more where its score would have been searched again in a wider
                    # window: the tree, and so every level's play, is the same either way.
                    score = -leaf
                    pvs[ply + 1] = ()
                    self.nodes += 1
                    if self.nodes >= self.next_poll:
                        self.poll()
                    if index and alpha < score < beta:
                        self.nodes += 1
                        if self.nodes >= self.next_poll:
                            self.poll()
                else:
                    is_loud = next_depth == 0  # a child at the horizon with a capture to make
                    # The child's key, from what changed: the piece that moved, the piece taken.
                    if move is PASS:
                        child_key = key ^ turn_key
                    else:
                        moved = 2 if mover_cuckoo != own_cuckoo else 1 if mover_long != own_long else 0
                        child_key = key ^ move_keys[base + moved][own ^ mover]
                        if victim != opponent:
                            taken = 2 if victim_cuckoo != opponent_cuckoo else 1 if victim_long != opponent_long else 0
                            child_key ^= keys[victim_base + taken][opponent ^ victim]
                    if index == 0:
                        score = -self.negamax(child, other, child_key, next_depth, -beta, -alpha, ply + 1, is_loud)
                    elif index >= _REDUCE_FROM and depth >= _REDUCE_DEPTH and not move.is_capture:
                        # A late quiet move: searched shallower first, in full only if it
                        # turns out better than the best so far.
                        reduced = next_depth - (
                            2 if index >= _REDUCE_TWICE_FROM and depth >= _REDUCE_TWICE_DEPTH else 1
                        )
                        score = -self.negamax(child, other, child_key, reduced, -alpha - 1, -alpha, ply + 1)
                        if score > alpha:
                            score = -self.negamax(child, other, child_key, next_depth, -alpha - 1, -alpha, ply + 1)
                            if alpha < score < beta:
                                score = -self.negamax(child, other, child_key, next_depth, -beta, -alpha, ply + 1)
                    else:
                        score = -self.negamax(child, other, child_key, next_depth, -alpha - 1, -alpha, ply + 1, is_loud)
                        if alpha < score < beta:
                            score = -self.negamax(child, other, child_key, next_depth, -beta, -alpha, ply + 1, is_loud)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        pvs[ply] = (move, *pvs[ply + 1])
                        if alpha >= beta:
                            if not move.is_capture and move is not PASS:
                                killers = self.killers[ply]
                                if killers[0] is not move:
                                    killers[1] = killers[0]
                                    killers[0] = move
                                self.history[id(move)] = self.history.get(id(move), 0) + depth * depth
                            break
            else:
                if others is not None:  # the table's move did not refute the node: the others
                    in_order, others = self._others_in_order(others, state, colour, table_move, ply), None
                    continue
            break

        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        stored = best + ply if best > WIN_BOUND else best - ply if best < -WIN_BOUND else best
        if entry is None or entry[0] != key or depth >= entry[1]:
            table[slot] = (key, depth, flag, stored, best_move)
        return best

    def _others_in_order(
        self, moves: list[Move], state: State, colour: int, table_move: Move | None, ply: int
    ) -> Sequence[Move]:
        """``moves`` but the table's move (tried first, before anything is sorted: it
        often refutes the position, and then nothing else is tried), best first:
        captures by what they take and with what, or quiet moves: a cuckoo entering a
        homebase, the killers, then by history, and a piece other than the cuckoo
        entering a homebase last."""
        others = [move for move in moves if move is not table_move]
        if len(others) > 1:
            if others[0].is_capture:
                return self._order_captures(others, state, colour)
            return self._order_steps(others, state, colour, ply)
        return others

    def _order_captures(self, moves: list[Move], state: State, colour: int) -> Sequence[Move]:
        # By rank, lowest first; ties keep the order of generation (the sort is stable).
        _, own_long, own_cuckoo, _, opponent_long, opponent_cuckoo = state
        enemy_home = self.tables.homebases[1 - colour]
        ranks = []
        for move in moves:
            target = target_bit(move)
            origin = origin_bit(move)
            if target == opponent_cuckoo:
                ranks.append(-50_000)  # wins at once
            elif target & enemy_home and origin != own_cuckoo:
                ranks.append(50_000)  # a piece other than the cuckoo entering their homebase loses
            else:
                victim = 3 if target & opponent_long else 1
                attacker = 3 if origin == own_cuckoo else 2 if origin & own_long else 1
                ranks.append(attacker - victim * 8)
        if len(ranks) == 2:  # the usual case, without a sort
            return moves if ranks[0] <= ranks[1] else (moves[1], moves[0])
        return itemgetter(*sorted(range(len(moves)), key=ranks.__getitem__))(moves)  # type: ignore[no-any-return]

    def _order_steps(self, moves: list[Move], state: State, colour: int, ply: int) -> Sequence[Move]:
        # Ranks as ints made by builtins over the whole list, then one sort of the
        # indices by them: no Python call per move. Higher ranks first; ties keep the
        # order of generation (the sort is stable).
        ids = list(map(id, moves))
        ranks = list(map(self.history.get, ids, repeat(0)))
        first_killer, second_killer = self.killers[ply]
        if first_killer is not None and (found := id(first_killer)) in ids:
            ranks[ids.index(found)] = _FIRST_KILLER_RANK
        if second_killer is not None and (found := id(second_killer)) in ids:
            ranks[ids.index(found)] = _SECOND_KILLER_RANK
        own = state[0]
        if own & self.near_home[colour]:  # rarely: a step may enter a homebase
            own_cuckoo = state[2]
            enemy_home = self.tables.homebases[1 - colour]
            for index, move in enumerate(moves):
                if target_bit(move) & enemy_home:
                    ranks[index] = _WINNING_STEP if origin_bit(move) == own_cuckoo else _LOSING_STEP
        # (two or more moves: itemgetter of their indices gives a tuple of them, without a loop here)
        return itemgetter(*sorted(range(len(moves)), key=ranks.__getitem__, reverse=True))(moves)  # type: ignore[no-any-return]
