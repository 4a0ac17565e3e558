"""The static evaluation: how good a position is for the side to move, in centi-moves
(100 is about one move of the cuckoos' race), for a game whose goals are turned
upside down (``docs/rules.md`` §4).

The terms, each for the side to move minus the same for its opponent:

- **The cuckoos' race.** How many moves each cuckoo needs to reach one of the
  opponent's homebases, counting double steps, over cells that are empty and not
  attacked by the opponent (a cuckoo that stops on an attacked cell is captured:
  capturing is compulsory and the opponent may choose it). Worth more the closer it is.
  A cuckoo of the side to move that can enter a homebase at once is a win in one ply,
  scored as such when the side has no capture to make (its moves are then free).
- **Cuckoo safety.** The side to move's cuckoo standing on a cell the opponent attacks
  must run or be shielded at once. And a cuckoo can be lured: capturing is compulsory,
  so a piece offered on a cell that only the cuckoo attacks must be taken by the cuckoo
  (when it is the only capture), and if the opponent guards that cell the cuckoo is
  then captured. Every such cell (empty or the opponent's, attacked by the cuckoo and
  by none of its side's other pieces, attacked by the opponent) counts against it.
- **Pieces.** Warblers reach two cells and guard the homebases: a small bonus each.
  A side with only one to three pieces besides its cuckoo is close to winning by losing
  them (condition 1): a bonus that grows as they dwindle.
- **Traps.** An egg or warbler that can only step forward onto an opponent's homebase
  (which loses, condition 4), or that attacks one of them, is a liability: when it has
  to move or capture there, it loses.
- **Mobility.** The forward steps onto empty cells: a side that runs out of safe steps
  must make unsafe ones.
- **Tempo.** A small bonus for having the move.
"""

from __future__ import annotations

from firmware_host.games.cuckoo.engine.board import BoardTables
from firmware_host.games.cuckoo.rules.bitboards import State

WIN = 100_000
"""A won game, less the plies it takes: the search's mate-like scores."""
WIN_BOUND = WIN - 1_000
"""Scores above this (or below its negative) are wins (losses), not evaluations."""
NOT_QUIET = 1 << 40
"""What :meth:`Evaluator.horizon` says of a position whose side to move has a capture:
no evaluation, the search goes on."""

FAR = 6  # a cuckoo this many moves away or more is out of the race for now
RACE = (0, 700, 260, 110, 45, 18, 0)  # by moves to a homebase, 1 to FAR
HANGING = 90  # the side to move's cuckoo is attacked
WARBLER = 20
FEW_LEFT = (0, 160, 70, 25)  # by pieces left besides the cuckoo, 1 to 3
TRAPPED = 30  # an egg or warbler whose every forward step is onto an opponent's homebase
TRAP_EXPOSED = 8  # one that attacks an opponent's homebase cell
MOBILITY = 2
TEMPO = 12
LURE = 12  # a cell only the cuckoo attacks, which the opponent guards: a lure's landing cell


class Evaluator:
    """The evaluation of one nest's positions; :meth:`quiet` is the search's, cheap."""

    def __init__(self, tables: BoardTables) -> None:
        self.tables = tables
        self.all_cells = tables.all_cells
        ways = tables.bits.all_directions
        self.up_shifts = tuple(way.shift for way in ways if way.is_up)
        self.down_shifts = tuple(way.shift for way in ways if not way.is_up)
        # Each direction's opposite shifts by as much the other way: three shifts, both
        # ways, make every neighbour; the attack maps below are written out with them.
        self.shifts = tuple(sorted(self.up_shifts))
        assert self.shifts == tuple(sorted(self.down_shifts)) and len(self.shifts) == 3
        self.forward = tuple(tuple((way.shift, way.is_up) for way in forward) for forward in tables.bits.forward)
        # By colour: the shifts of its forward directions that shift up, and down.
        self.forward_shifts = tuple(
            (
                tuple(shift for shift, is_up in self.forward[colour] if is_up),
                tuple(shift for shift, is_up in self.forward[colour] if not is_up),
            )
            for colour in (0, 1)
        )
        # The cells from which a cuckoo of each colour needs n moves to reach an
        # opponent's homebase on an empty nest (FAR if more).
        self.free_distance = tuple(self._free_distances(colour) for colour in (0, 1))
        self.trapped = tuple(self._trapped_cells(colour) for colour in (0, 1))
        self.exposed = tuple(self._attacks(tables.homebases[1 - colour], 0, 0) for colour in (0, 1))
        # By a cuckoo's cell: the cells next to it, and the (middle, far) pairs of the
        # cells two away in a straight line.
        self.near = {bit: self._attacks(bit, 0, 0) for bit in tables.bits.bit_of.values()}
        self.far = {bit: self._far_pairs(bit) for bit in tables.bits.bit_of.values()}
        self.near[0] = 0
        self.far[0] = ()
        # By colour to move: what the evaluation reads of each side, the side to move's
        # first, in one tuple (one look-up instead of a dozen on the hot path).
        self.views = tuple(
            (
                self.free_distance[colour],
                self.free_distance[1 - colour],
                tables.homebases[1 - colour],
                tables.homebases[colour],
                self.trapped[colour],
                self.trapped[1 - colour],
                self.exposed[colour],
                self.exposed[1 - colour],
                *self.forward_shifts[colour],
                *self.forward_shifts[1 - colour],
            )
            for colour in (0, 1)
        )

    def _free_distances(self, colour: int) -> dict[int, int]:
        target = self.tables.homebases[1 - colour]
        found = {}
        for cell, bit in self.tables.bits.bit_of.items():
            del cell
            found[bit] = self.cuckoo_moves(bit, colour, self.all_cells, self.all_cells, target, FAR - 1)
        return found

    def _trapped_cells(self, colour: int) -> int:
        """The cells whose every forward neighbour is an opponent's homebase (and there is one)."""
        homebases = self.tables.homebases[1 - colour]
        trapped = 0
        for bit in self.tables.bits.bit_of.values():
            ahead = 0
            for shift, is_up in self.forward[colour]:
                ahead |= (bit << shift if is_up else bit >> shift) & self.all_cells
            if ahead and not ahead & ~homebases:
                trapped |= bit
        return trapped

    def _far_pairs(self, bit: int) -> tuple[tuple[int, int], ...]:
        """The (middle cell, far cell) pairs of the straight lines of two steps from ``bit``."""
        pairs = []
        for shift in self.up_shifts:
            middle = bit << shift & self.all_cells
            far = middle << shift & self.all_cells
            if far:
                pairs.append((middle, far))
        for shift in self.down_shifts:
            middle = bit >> shift & self.all_cells
            far = middle >> shift & self.all_cells
            if far:
                pairs.append((middle, far))
        return tuple(pairs)

    def reach(self, cuckoo: int, empty: int) -> int:
        """The cells the cuckoo on ``cuckoo`` attacks (none if it is 0) over ``empty`` cells."""
        reach = self.near[cuckoo]
        for middle, far in self.far[cuckoo]:
            if middle & empty:
                reach |= far
        return reach

    def _attacks(self, pieces: int, long_range: int, empty: int) -> int:
        """The cells attacked by ``pieces`` (a neighbour in any direction) and by
        ``long_range`` (also two cells away over an empty cell)."""
        # Written out, one shift each way per direction: this is the search's hot path.
        a, b, c = self.shifts
        p, q = pieces, long_range
        return (
            (p | q << a & empty) << a | (p | q >> a & empty) >> a
            | (p | q << b & empty) << b | (p | q >> b & empty) >> b
            | (p | q << c & empty) << c | (p | q >> c & empty) >> c
        ) & self.all_cells  # fmt: skip

    def cuckoo_moves(self, cuckoo: int, colour: int, empty: int, safe: int, target: int, limit: int) -> int:
        """How many moves the cuckoo on ``cuckoo`` of ``colour`` needs to reach a cell
        of ``target`` by steps and double steps forward, over ``empty`` cells and
        stopping only on ``safe`` ones; FAR if more than ``limit``."""
        up, down = self.forward_shifts[colour]
        return _cuckoo_moves(cuckoo, up, down, empty, safe, target, limit)

    def quiet(self, state: State, colour: int, ply: int) -> int:
        """The evaluation of ``state``, ``colour`` to move, for its side to move, which
        has no capture to make (its moves are free): a cuckoo that can enter a homebase
        now scores as the win in one ply it is, at ``ply`` plies from the root."""
        return self.horizon(state, colour, ply, True, False)

    def evaluate(self, state: State, colour: int, ply: int = 0) -> int:
        """The evaluation of any ``state`` of a game that goes on, ``colour`` to move,
        for its side to move: a capture of the opponent's cuckoo now is a win in one ply."""
        own, own_long, _, opponent, _, opponent_cuckoo = state
        empty = self.all_cells ^ own ^ opponent
        if self._attacks(own, own_long, empty) & opponent_cuckoo:
            return WIN - ply - 1
        return self.horizon(state, colour, ply, not self.tables.bits.captures(own, own_long, opponent), False)

    def horizon(self, state: State, colour: int, ply: int, is_free: bool = True, is_horizon: bool = True) -> int:
        """At the search's horizon: :data:`NOT_QUIET` if the side to move has a capture
        (the search must go on through the captures), else :meth:`quiet`. The capture
        is seen in the attack maps the evaluation makes anyway: one pass does both.

        :meth:`quiet` and :meth:`evaluate` are this without the capture test
        (``is_horizon`` false), ``is_free`` saying whether the side's moves are free.
        """
        own, own_long, own_cuckoo, opponent, opponent_long, opponent_cuckoo = state
        empty = self.all_cells ^ own ^ opponent
        # The attack maps: _attacks() and reach() written out, for the side to move and
        # then for its opponent (this is the search's hot path: no calls). The guards'
        # maps are not masked by the nest's cells: a bit shifted off the nest is only
        # ever read and-ed with a board of cells, so it changes nothing.
        a, b, c = self.shifts
        near, far_pairs = self.near, self.far
        own_rest = own ^ own_cuckoo
        own_warblers = own_long ^ own_cuckoo
        p, q = own_rest, own_warblers
        own_guards = (
            (p | q << a & empty) << a | (p | q >> a & empty) >> a
            | (p | q << b & empty) << b | (p | q >> b & empty) >> b
            | (p | q << c & empty) << c | (p | q >> c & empty) >> c
        )  # fmt: skip
        own_reach = near[own_cuckoo]
        for middle, far in far_pairs[own_cuckoo]:
            if middle & empty:
                own_reach |= far
        own_attacks = own_guards | own_reach
        if is_horizon and own_attacks & opponent:
            return NOT_QUIET  # own_attacks & opponent: the targets of Bitboards.captures()
        opponent_rest = opponent ^ opponent_cuckoo
        opponent_warblers = opponent_long ^ opponent_cuckoo
        p, q = opponent_rest, opponent_warblers
        opponent_guards = (
            (p | q << a & empty) << a | (p | q >> a & empty) >> a
            | (p | q << b & empty) << b | (p | q >> b & empty) >> b
            | (p | q << c & empty) << c | (p | q >> c & empty) >> c
        )  # fmt: skip
        opponent_reach = near[opponent_cuckoo]
        for middle, far in far_pairs[opponent_cuckoo]:
            if middle & empty:
                opponent_reach |= far
        opponent_attacks = opponent_guards | opponent_reach
        (
            own_distances,
            opponent_distances,
            own_goal,
            opponent_goal,
            own_trapped,
            opponent_trapped,
            own_exposed,
            opponent_exposed,
            own_up,
            own_down,
            opponent_up,
            opponent_down,
        ) = self.views[colour]

        distance = own_distances[own_cuckoo]
        if distance < 4:
            distance = _cuckoo_moves(own_cuckoo, own_up, own_down, empty, empty & ~opponent_attacks, own_goal & ~own)
            if distance == 1 and is_free:
                return WIN - ply - 1
        score = TEMPO + RACE[distance]
        distance = opponent_distances[opponent_cuckoo]
        if distance < 4:
            distance = _cuckoo_moves(
                opponent_cuckoo, opponent_up, opponent_down, empty, empty & ~own_attacks, opponent_goal & ~opponent
            )
        score -= RACE[distance]
        if own_cuckoo & opponent_attacks:
            score -= HANGING

        score -= LURE * (
            (own_reach & opponent_attacks & ~(own_guards | own)).bit_count()
            - (opponent_reach & own_attacks & ~(opponent_guards | opponent)).bit_count()
        )
        left = own_rest.bit_count()
        if left < 4:
            score += FEW_LEFT[left]
        left = opponent_rest.bit_count()
        if left < 4:
            score -= FEW_LEFT[left]
        score += WARBLER * (own_warblers.bit_count() - opponent_warblers.bit_count())
        # Traps are rare (none in nearly all of a search's evaluations): tested before counted.
        if own_rest & own_trapped or opponent_rest & opponent_trapped:
            score -= TRAPPED * ((own_rest & own_trapped).bit_count() - (opponent_rest & opponent_trapped).bit_count())
        if own_rest & own_exposed or opponent_rest & opponent_exposed:
            score -= TRAP_EXPOSED * (
                (own_rest & own_exposed).bit_count() - (opponent_rest & opponent_exposed).bit_count()
            )

        mobility = 0
        for shift in own_up:
            mobility += (own << shift & empty).bit_count()
        for shift in own_down:
            mobility += (own >> shift & empty).bit_count()
        for shift in opponent_up:
            mobility -= (opponent << shift & empty).bit_count()
        for shift in opponent_down:
            mobility -= (opponent >> shift & empty).bit_count()
        return score + MOBILITY * mobility


def _cuckoo_moves(
    cuckoo: int, up: tuple[int, ...], down: tuple[int, ...], empty: int, safe: int, target: int, limit: int = FAR - 1
) -> int:
    """:meth:`Evaluator.cuckoo_moves`, with the forward directions' shifts up and down
    (the evaluation's hot path: one shift each way, no test of the direction)."""
    reach = cuckoo
    for moves in range(1, limit + 1):
        landed = 0
        for shift in up:
            one = reach << shift
            middle = one & empty
            two = middle << shift
            if (one | two) & target:
                return moves
            landed |= (middle | two) & safe
        for shift in down:
            one = reach >> shift
            middle = one & empty
            two = middle >> shift
            if (one | two) & target:
                return moves
            landed |= (middle | two) & safe
        if not landed:
            return FAR
        reach = landed
    return FAR
