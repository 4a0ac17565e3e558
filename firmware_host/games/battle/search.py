"""How the computer chooses a move: a search over what it believes (``belief.py``), from
its own side's view alone (``docs/battle-computer.md``).

It draws a number of arrangements of the unseen enemy ranks (determinizations) from
its belief, the same ones for every move it weighs. In each it plays each of its legal
moves, lets the other side answer with the reply that other side would think best (the
other side does not know our hidden ranks either: it weighs a strike on one of ours by
what everybody has seen of it), and, at the stronger levels, takes back on the square
the reply struck (a recapture). A move's worth in an arrangement is what it gains in
material, in secrets (a piece whose rank is not shown is worth more), in the safety of
its own Flag and the threat on the other's, and a little in ground; the move chosen is
the one with the best average over the arrangements, less a share of its average loss
(caution: losing the piece at stake counts more than winning the same).

Everything is counted, nothing timed: a level is a number of arrangements and a way to
look ahead, so it plays the same on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from firmware_host.games.battle.army import Movement, Rank, Role, StrikeResult, resolve_strike
from firmware_host.games.battle.belief import UNIFORM, Belief, SetupPrior
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import Move
from firmware_host.games.battle.pieces import Shown
from firmware_host.games.battle.position import View

WIN = 60.0
"""A captured Flag, or an opponent left without a move: worth about five Marshals, so a
small chance of it does not outweigh a sure loss of an officer."""
HIDDEN_SHARE = 0.15  # what a piece whose rank is not shown is worth on top of its rank's value
HIDDEN_BOMB = 1.0  # an unknown Bomb guards what lies behind it
SPY_BONUS = 3.0  # the Spy's worth while the Marshal it strikes down is on the field
MINER_BONUS = 0.6  # a Miner's worth per enemy Bomb still on the field
GROUND = 0.05  # a row forward, for a piece that moves
PULL = 1.0  # closing on the enemy Flag, within PULL_REACH squares
PULL_REACH = 8
DANGER = (0.0, 0.3 * WIN, 0.08 * WIN, 0.02 * WIN, 0.01 * WIN)
"""An enemy piece that moves, one to four steps from our Flag."""
GUARD = 0.2  # one of our pieces that moves, within GUARD_REACH steps of our Flag
GUARD_REACH = 2
BOMB_STEPS = 2  # one of our Bombs on the way to our Flag counts as this many steps (a Miner gets through)

THREAT = 0.5
"""The share of what our moved piece could strike next move that its move is credited
with (the other side may step away or strike first)."""
PARANOIA = 0.5
"""The weight of the other side's truly best reply (against the one it would think best
from what it has seen of ours)."""
STAKE = 4.0
"""Caution grows with the piece at stake: a loss counts ``1 + value / STAKE`` times the
budget's caution (a Marshal's about five times a Scout's)."""

_ATTACKER, _DEFENDER, _BOTH = 1, -1, 0


@dataclass(frozen=True)
class Budget:
    """How much a level looks: ``samples`` arrangements of the unseen ranks, drawn by
    ``prior``; the other side's reply (``replies``) and a recapture after it
    (``recapture``); ``caution``, the share of a move's average loss taken off it."""

    samples: int
    prior: SetupPrior = UNIFORM
    replies: bool = True
    recapture: bool = False
    caution: float = 0.0


def piece_value(rank: Rank, *, spy_target_alive: bool, enemy_bombs: int) -> float:
    """What a piece of ``rank`` is worth to its side (the Flag aside: losing it loses
    the game): more the stronger it is, the Spy more while the Marshal it strikes down
    is on the field, a Miner more for each enemy Bomb left."""
    if rank.role is Role.BOMB:
        return 2.0
    if rank.role is Role.FLAG:
        return 0.0
    strength = rank.strength or 0
    worth = 1.0 + 0.25 * 1.5**strength  # the Marshal about twice the Colonel, the Colonel twice the Captain
    if rank.strikes_down and spy_target_alive and any(name != "bomb" for name in rank.strikes_down):
        worth += SPY_BONUS
    if "bomb" in rank.strikes_down:
        worth += MINER_BONUS * enemy_bombs
    return worth


@dataclass
class Searched:
    """The move chosen and what the search found."""

    move: Move
    score: float
    samples: int
    nodes: int


def search(
    view: View, budget: Budget, rng: random.Random, *, should_stop: Callable[[], bool] = lambda: False
) -> Searched:
    """The move for the side to move in ``view`` (its own view), by ``budget``. Raises
    ValueError when it has no legal move."""
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"{view.turn.label} has no legal move")
    return _Search(view, budget, rng).run(moves, should_stop)


class _Search:
    def __init__(self, view: View, budget: Budget, rng: random.Random) -> None:
        field = view.field
        self.field, self.view, self.budget, self.rng = field, view, budget, rng
        me = view.turn
        self.me = me
        tables = _tables(field)
        self.ranks, index, self.cells, at = tables.ranks, tables.index, tables.cells, tables.at
        ranks = self.ranks
        self.at, self.rays, self.xy = at, tables.rays, tables.xy
        self.movement, self.is_flag, self.result = tables.movement, tables.is_flag, tables.result
        pieces = view.pieces()
        self.enemy_belief = Belief.of(view, prior=budget.prior)
        self.public_belief = Belief.of(view, prior=budget.prior, side=me)  # what the other side believes of ours
        bombs = next((rank for rank in ranks if rank.role is Role.BOMB), None)
        struck_down = [
            rank for rank in ranks if any(rank.name in other.strikes_down for other in ranks if other.can_move)
        ]
        targets = [rank for rank in struck_down if rank.can_move]  # the Marshal a Spy strikes down

        def alive(side_is_me: bool) -> bool:
            side = me if side_is_me else me.opponent
            return any(view.removed(side)[rank] < rank.count for rank in targets)

        enemy_has_marshal, my_marshal = alive(False), alive(True)
        enemy_bombs = (bombs.count - view.removed(me.opponent)[bombs]) if bombs else 0
        my_bombs = (bombs.count - view.removed(me)[bombs]) if bombs else 0
        self.value_me = [piece_value(r, spy_target_alive=enemy_has_marshal, enemy_bombs=enemy_bombs) for r in ranks]
        self.value_en = [piece_value(r, spy_target_alive=my_marshal, enemy_bombs=my_bombs) for r in ranks]
        self.hidden_me = [_hidden_worth(r, v) for r, v in zip(ranks, self.value_me, strict=True)]
        self.hidden_en = [_hidden_worth(r, v) for r, v in zip(ranks, self.value_en, strict=True)]
        self.forward_me = field.forward(me)
        n = len(self.cells)
        self.board = [0] * n  # ours: rank index + 1; theirs: -(rank index + 1)
        self.revealed = [False] * n
        self.known_enemy: dict[int, int] = {}
        self.my_flag: int | None = None
        for cell, piece in pieces.items():
            k = at[cell]
            self.revealed[k] = piece.shown is Shown.REVEALED
            if piece.side is me:
                assert piece.rank is not None  # the side to move sees its own ranks
                self.board[k] = index[piece.rank] + 1
                if piece.rank.role is Role.FLAG:
                    self.my_flag = k
            elif piece.rank is not None:
                self.known_enemy[k] = index[piece.rank]
        self.index = index
        # The other side's guess at the outcome of striking each of our pieces whose rank
        # it was not shown, for each of its ranks: what it gains, by its belief.
        self.guess: dict[int, list[float]] = {}
        gains = [[self._gain_en_guess(a, d) for d in range(len(ranks))] for a in range(len(ranks))]
        for cell in self.public_belief.unknown:
            chances = [(index[rank], p) for rank, p in self.public_belief.chances(cell).items()]
            self.guess[at[cell]] = [
                sum(p * gains[a][d] for d, p in chances) if self.movement[a] else 0.0 for a in range(len(ranks))
            ]
        near_flag = self._flag_distances()
        self.near_flag = near_flag
        self.pos_en = [self._enemy_ground(k, near_flag) for k in range(n)]
        self.struck_chances = {
            at[cell]: [(index[rank], chance) for rank, chance in self.enemy_belief.chances(cell).items()]
            for cell in self.enemy_belief.unknown
        }
        self.options: dict[int, _Options | None] = {}
        self.by_stepping: list[tuple[int, _Options]] = []
        self.by_worst: list[tuple[int, _Options]] = []
        self.by_guess: list[tuple[int, _Options]] = []
        self.nodes = 0

    def _gain_en_guess(self, a: int, d: int) -> float:
        """What the other side thinks it gains striking one of our unknown pieces of rank
        ``d`` with its rank ``a`` (material and secrets only)."""
        if self.is_flag[d]:
            return WIN
        outcome = self.result[a][d]
        if outcome == _ATTACKER:
            return self.value_me[d] + self.hidden_me[d] - self.hidden_en[a]
        if outcome == _DEFENDER:
            return -self.value_en[a] - self.hidden_en[a] + self.hidden_me[d]
        return self.value_me[d] + self.hidden_me[d] - self.value_en[a] - self.hidden_en[a]

    def _flag_distances(self) -> dict[int, int]:
        """How many steps each square near our Flag is from it, going round lakes; one of
        our Bombs counts as two more steps (only a Miner gets through it)."""
        if self.my_flag is None:
            return {}
        bomb = [k for k, rank in enumerate(self.ranks) if rank.role is Role.BOMB]
        walls = {k for k, piece in enumerate(self.board) if piece > 0 and piece - 1 in bomb}
        found = {self.my_flag: 0}
        edge = [self.my_flag]
        while edge:
            later = []
            for k in edge:
                for ray in self.rays[k]:
                    if not ray:
                        continue
                    step = found[k] + (BOMB_STEPS if ray[0] in walls else 1)
                    if step < len(DANGER) and step < found.get(ray[0], len(DANGER)):
                        found[ray[0]] = step
                        later.append(ray[0])
            edge = later
        return found

    def _enemy_ground(self, k: int, near_flag: dict[int, int]) -> float:
        """What an enemy piece that moves is worth to the enemy on square ``k``: how near
        it is to our Flag, a little how far forward."""
        _, y = self.xy[k]
        worth = -GROUND * y * self.forward_me  # their forward is our backward
        distance = near_flag.get(k)
        if distance is not None:
            worth += DANGER[distance]
        return worth

    def _my_ground(self, flag: int | None) -> list[float]:
        """What one of our pieces that moves is worth on each square, for an enemy Flag on
        ``flag``: near it, near our own Flag (a guard), a little forward."""
        table = []
        fx, fy = self.xy[flag] if flag is not None else (0, 0)
        near_flag = self.near_flag
        for k, (x, y) in enumerate(self.xy):
            worth = GROUND * y * self.forward_me
            if near_flag.get(k, GUARD_REACH + 1) <= GUARD_REACH:
                worth += GUARD
            if flag is not None:
                distance = abs(fx - x) + abs(fy - y)
                if distance < PULL_REACH:
                    worth += PULL * (PULL_REACH - distance) / PULL_REACH
            table.append(worth)
        return table

    # -- one arrangement ----------------------------------------------------------------

    def run(self, moves: list[Move], should_stop: Callable[[], bool]) -> Searched:
        at = self.at
        root = [(at[m.origin], at[m.target]) for m in moves]
        totals = [0.0] * len(moves)
        losses = [0.0] * len(moves)
        done = 0
        for _ in range(self.budget.samples):
            if done and should_stop():
                break
            drawn = self.enemy_belief.draw(self.rng)
            board = self.board
            flag: int | None = None
            for k, r in self.known_enemy.items():
                board[k] = -(r + 1)
            for cell, rank in drawn.items():
                k = at[cell]
                board[k] = -(self.index[rank] + 1)
                if rank.role is Role.FLAG:
                    flag = k
            pos_me = self._my_ground(flag)
            self.options = {}
            for k in range(len(board)):
                if board[k] < 0:
                    self.options[k] = self._options(k, pos_me, -1, -1)
            found = [(k, o) for k, o in self.options.items() if o is not None]
            self.by_stepping = sorted(found, key=lambda item: -item[1].stepping)
            self.by_worst = sorted(found, key=lambda item: -item[1].worst)
            self.by_guess = sorted(found, key=lambda item: -item[1].best_guess)
            for i, (a, b) in enumerate(root):
                stake = 1.0 + self.value_me[board[a] - 1] / STAKE
                chances = self.struck_chances.get(b)
                if chances is None:
                    worth = self._line(a, b, pos_me)
                    totals[i] += worth
                    losses[i] += stake * max(0.0, -worth)
                    continue
                # A strike on a piece whose rank is not shown: every rank it may have, by
                # its chance (a chance node), whatever this arrangement put there.
                sampled = board[b]
                for struck, chance in chances:
                    board[b] = -(struck + 1)
                    worth = self._line(a, b, pos_me)
                    totals[i] += chance * worth
                    losses[i] += chance * stake * max(0.0, -worth)
                board[b] = sampled
            for k in list(drawn_cells(drawn, at)) + list(self.known_enemy):
                board[k] = 0
            done += 1
        caution = self.budget.caution
        scores = [(total - caution * loss) / done for total, loss in zip(totals, losses, strict=True)]
        self.scores = dict(zip(moves, scores, strict=True))
        best = max(scores)
        chosen = self.rng.choice([m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9])
        return Searched(chosen, best, done, self.nodes)

    def _line(self, a: int, b: int, pos_me: list[float]) -> float:
        """What our move from ``a`` to ``b`` is worth in the arrangement on the board."""
        board, revealed = self.board, self.revealed
        mover = board[a] - 1
        target = board[b]
        self.nodes += 1
        if target:
            d = -target - 1
            if self.is_flag[d]:
                return WIN
            gain = self._strike_me(mover, d, a, b, pos_me)
            outcome = self.result[mover][d]
        else:
            gain = pos_me[b] - pos_me[a]
            if not revealed[a] and self.movement[mover] == 2 and self._distance(a, b) > 1:
                gain -= self.hidden_me[mover]  # a run shows the Scout
            outcome = None
        if not self.budget.replies:
            return gain
        # Play it, let the other side answer, take it back.
        saved = (board[a], board[b], revealed[a], revealed[b])
        board[a] = 0
        if outcome is None:
            board[b] = mover + 1
            revealed[b] = revealed[a] or (self.movement[mover] == 2 and self._distance(a, b) > 1)
        elif outcome == _ATTACKER:
            board[b], revealed[b] = mover + 1, True
        elif outcome == _DEFENDER:
            revealed[b] = True
        else:
            board[b] = 0
        revealed[a] = False
        if outcome is None or outcome == _ATTACKER:
            gain += THREAT * self._threat(b, pos_me)
        reply = self._reply(pos_me, moved_from=a, moved_to=b)
        board[a], board[b], revealed[a], revealed[b] = saved
        return gain - reply

    def _threat(self, b: int, pos_me: list[float]) -> float:
        """The best our piece now on ``b`` gains striking a neighbour next move, by the
        arrangement's ranks (nothing if no strike there gains)."""
        board = self.board
        mover = board[b] - 1
        best = 0.0
        for ray in self.rays[b]:
            if ray and board[ray[0]] < 0:
                d = -board[ray[0]] - 1
                if not self.is_flag[d]:
                    best = max(best, self._strike_me(mover, d, b, ray[0], pos_me))
        return best

    def _distance(self, a: int, b: int) -> int:
        (x0, y0), (x1, y1) = self.xy[a], self.xy[b]
        return abs(x1 - x0) + abs(y1 - y0)

    def _strike_me(self, mover: int, d: int, a: int, b: int, pos_me: list[float]) -> float:
        """What our strike from ``a`` (rank ``mover``) on ``b`` (enemy rank ``d``) gains us."""
        revealed = self.revealed
        outcome = self.result[mover][d]
        lose_secret = 0.0 if revealed[a] else self.hidden_me[mover]
        learn = 0.0 if revealed[b] else self.hidden_en[d]
        if outcome == _ATTACKER:
            return self.value_en[d] + learn + self.pos_en[b] + pos_me[b] - pos_me[a] - lose_secret
        if outcome == _DEFENDER:
            return -self.value_me[mover] - lose_secret - pos_me[a] + learn
        return self.value_en[d] + learn + self.pos_en[b] - self.value_me[mover] - lose_secret - pos_me[a]

    def _strike_en(self, e: int, m: int, a: int, b: int, pos_me: list[float]) -> float:
        """What the enemy's strike from ``a`` (its rank ``e``) on our ``b`` (rank ``m``)
        gains the enemy, truly."""
        revealed = self.revealed
        if self.is_flag[m]:
            return WIN
        outcome = self.result[e][m]
        lose_secret = 0.0 if revealed[a] else self.hidden_en[e]
        learn = 0.0 if revealed[b] else self.hidden_me[m]
        pos_en = self.pos_en
        if outcome == _ATTACKER:
            return self.value_me[m] + learn + pos_me[b] + pos_en[b] - pos_en[a] - lose_secret
        if outcome == _DEFENDER:
            return -self.value_en[e] - lose_secret - pos_en[a] + learn
        return self.value_me[m] + learn + pos_me[b] - self.value_en[e] - lose_secret - pos_en[a]

    def _options(self, a: int, pos_me: list[float], moved_from: int, moved_to: int) -> _Options | None:
        """What the enemy piece on ``a`` can do on the board as it stands: its best move
        onto an empty square, its strike the other side would think best (with its true
        worth, and the square and rank if it wins there), its strike truly best. None if
        it does not move."""
        board, revealed, movement = self.board, self.revealed, self.movement
        pos_en = self.pos_en
        piece = board[a]
        if piece >= 0:
            return None
        e = -piece - 1
        how = movement[e]
        if not how:
            return None
        stepping = best_guess = worst = -1e18
        best_true = 0.0
        target = -1
        here = pos_en[a]
        for ray in self.rays[a]:
            if not ray:
                continue
            b = ray[0]
            other = board[b]
            if other == 0:
                if pos_en[b] - here > stepping:
                    stepping = pos_en[b] - here
                if how == 2:
                    run = here + (0.0 if revealed[a] else self.hidden_en[e])  # a run shows the Scout
                    for b in ray[1:]:
                        if board[b]:
                            break
                        if pos_en[b] - run > stepping:
                            stepping = pos_en[b] - run
                continue
            if other < 0:
                continue
            m = other - 1
            true = self._strike_en(e, m, a, b, pos_me)
            if true > worst:
                worst = true
            if revealed[b]:
                thought = true
            else:
                row = self.guess.get(moved_from if b == moved_to else b)
                thought = row[e] + pos_me[b] + pos_en[b] - here if row is not None else true
            if thought > best_guess:
                best_guess, best_true = thought, true
                target = b if self.result[e][m] == _ATTACKER else -1
        return _Options(stepping, best_guess, best_true, target, e, worst)

    def _touched(self, squares: tuple[int, int]) -> set[int]:
        """The enemy pieces whose moves a change on ``squares`` may change: those on
        them, and the first piece seen from each in every direction."""
        board, touched = self.board, set()
        for square in squares:
            touched.add(square)
            for ray in self.rays[square]:
                for k in ray:
                    if board[k]:
                        if board[k] < 0:
                            touched.add(k)
                        break
        return touched

    def _reply(self, pos_me: list[float], *, moved_from: int, moved_to: int) -> float:
        """What the other side's reply gains it, truly: the reply it would think best
        (its guess at our unknown pieces), then our recapture on that square if the
        budget has it. The other side without a move loses. The options of the enemy
        pieces our move did not touch are those found before it."""
        touched = self._touched((moved_from, moved_to))
        # The best of the untouched pieces, from the lists sorted before our move...
        stepping = next((o.stepping for k, o in self.by_stepping if k not in touched), -1e18)
        worst = next((o.worst for k, o in self.by_worst if k not in touched), -1e18)
        best = next((o for k, o in self.by_guess if k not in touched), None)
        best_guess = best.best_guess if best is not None else -1e18
        best_true = best.best_true if best is not None else 0.0
        target, striker = (best.target, best.rank) if best is not None else (-1, -1)
        # ... and the touched ones, found again.
        for a in touched:
            if a not in self.options:
                continue
            found = self._options(a, pos_me, moved_from, moved_to)
            if found is None:
                continue
            if found.stepping > stepping:
                stepping = found.stepping
            if found.worst > worst:
                worst = found.worst
            if found.best_guess > best_guess:
                best_guess, best_true, target, striker = found.best_guess, found.best_true, found.target, found.rank
        self.nodes += 1
        if stepping <= -1e17 and best_guess <= -1e17:
            return -WIN  # the other side cannot move: it has lost
        if stepping >= best_guess:
            best_true, target = stepping, -1
        if stepping > worst:
            worst = stepping
        if self.budget.recapture and target >= 0 and best_true < WIN:
            best_true -= self._recapture(target, striker)
        # The other side may well guess better than by the counts alone: half the weight
        # on the reply it would think best, half on the one truly best for it.
        return PARANOIA * worst + (1.0 - PARANOIA) * best_true

    def _recapture(self, square: int, striker: int) -> float:
        """What the other side loses back if we strike, by true ranks, its piece of rank
        ``striker`` that won on ``square`` (at most its value; nothing if we cannot)."""
        board = self.board
        best = 0.0
        for ray in self.rays[square]:
            if not ray:
                continue
            ours = board[ray[0]]
            if ours <= 0 or not self.movement[ours - 1]:
                continue
            outcome = self.result[ours - 1][striker]
            if outcome == _ATTACKER:
                best = max(best, self.value_en[striker])
            elif outcome == _BOTH:
                best = max(best, self.value_en[striker] - self.value_me[ours - 1])
        return best


def drawn_cells(drawn: dict[str, Rank], at: dict[str, int]) -> list[int]:
    return [at[cell] for cell in drawn]


@dataclass(frozen=True, slots=True)
class _Options:
    """What one enemy piece can do (:meth:`_Search._options`)."""

    stepping: float
    best_guess: float
    best_true: float
    target: int
    rank: int
    worst: float


@dataclass(frozen=True)
class _Tables:
    """A field's squares and ranks as the search counts them."""

    ranks: list[Rank]
    index: dict[Rank, int]
    cells: list[str]
    at: dict[str, int]
    rays: list[list[list[int]]]
    xy: list[tuple[int, int]]
    movement: list[int]  # 0 never, 1 a step, 2 a run
    is_flag: list[bool]
    result: list[list[int]]  # by attacker's and defender's rank index


@cache
def _tables(field: Field) -> _Tables:
    ranks = list(field.army.ranks)
    cells = list(field.cells)
    at = {cell: k for k, cell in enumerate(cells)}
    outcomes = {StrikeResult.ATTACKER_WINS: _ATTACKER, StrikeResult.DEFENDER_WINS: _DEFENDER}
    return _Tables(
        ranks=ranks,
        index={rank: k for k, rank in enumerate(ranks)},
        cells=cells,
        at=at,
        rays=[[[at[square] for square in ray] for ray in field.rays(cell)] for cell in cells],
        xy=[field.coordinates(cell) for cell in cells],
        movement=[
            0 if rank.movement is Movement.NONE else (1 if rank.movement is Movement.STEP else 2) for rank in ranks
        ],
        is_flag=[rank.role is Role.FLAG for rank in ranks],
        result=[[outcomes.get(resolve_strike(a, d), _BOTH) if a.can_move else 0 for d in ranks] for a in ranks],
    )


def _hidden_worth(rank: Rank, value: float) -> float:
    if rank.role is Role.BOMB:
        return HIDDEN_BOMB
    if rank.role is Role.FLAG:
        return 0.0
    return HIDDEN_SHARE * value
