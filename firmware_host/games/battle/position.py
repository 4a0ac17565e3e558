"""Positions: the full one the referee keeps (every piece's rank, from the set-ups), and
the views the players and the spectators may see (``docs/rules-battle.md`` §4 to §7).

A :class:`Position` knows every rank; its :meth:`~Position.to_text` is the record's,
ranks and all. A :class:`View` is what one may know: sides and squares, what everybody
knows of each piece (whether it moved, its rank once revealed), the ranks of the
viewer's own pieces, and which pieces the strikes removed (each strike shows both
ranks). A view holds no rank it may not show, so a computer opponent that plays from a
view cannot use one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from firmware_host.errors import NestrefError, NotationError
from firmware_host.games.base import Footprint, IllegalMove, Side
from firmware_host.games.battle.army import Movement, Rank, Role, StrikeResult, resolve_strike
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.moves import IllegalMoveError, Move, Rule, Run, Strike
from firmware_host.games.battle.notation import read_rows, write_rows
from firmware_host.games.battle.outcome import DRAW, Ending, Outcome
from firmware_host.games.battle.pieces import HIDDEN_LETTER, Piece, SeenPiece, Shown
from firmware_host.games.battle.setups import Setup, SetupError

_RUN_TEXT = re.compile(r"([a-z][0-9]+)-([a-z][0-9]+):([0-9]{1,2})")

Standing = tuple[Piece, Shown]
"""A piece on a square, and what everybody knows of it."""


class PositionError(NestrefError, ValueError):
    """Pieces that cannot make a position: more of a rank than the army has, a Bomb that
    has moved, a piece on a lake."""


def generate_moves(
    field: Field,
    own: Iterable[tuple[str, Movement]],
    side_at: Callable[[str], Side | None],
    side: Side,
    run: Run | None,
) -> list[Move]:
    """The legal moves of ``side``, whose movable pieces are ``own`` (square and how it
    moves, in reading order), ``side_at`` saying whose piece stands on a square; ``run``
    is the side's back and forth so far, for the two-square rule. One function for
    positions and views: a view knows its own side's ranks, and that is all it takes."""
    refused = (run.target, run.origin) if run is not None and run.count >= field.most_moves_back_and_forth else None
    moves = []
    for cell, movement in own:
        if movement is Movement.NONE:
            continue
        for ray in field.rays(cell):
            for distance, square in enumerate(ray, 1):
                holder = side_at(square)
                if holder is None:
                    if (cell, square) != refused:
                        moves.append(Move(cell, square))
                    if movement is Movement.STEP:
                        break
                    continue
                if holder is not side and distance == 1:
                    moves.append(Move(cell, square, True))
                break
    return moves


class Position:
    """A game being played: every piece with its rank, what everybody knows of each,
    the side to move, each side's back and forth (for the two-square rule), and the
    moves made (to take them back).

    >>> field = Field.default()
    >>> position = Position.from_lineup(field, "demo", Side.RED)
    >>> len(position.legal_moves())
    20
    >>> position.push(Move.from_text("a4-a6"))
    Move(origin='a4', target='a6', is_strike=False)
    >>> position.to_text().split()[1:]
    ['b', 'a4-a6:1', '-']
    >>> position.view().pieces()["a6"]
    SeenPiece(side=<Side.RED: 'r'>, rank=Rank(name='scout', ...), shown=<Shown.REVEALED: '!'>)
    """

    def __init__(
        self,
        field: Field,
        pieces: Mapping[str, Piece],
        turn: Side,
        *,
        shown: Mapping[str, Shown] | None = None,
        runs: Mapping[Side, Run | None] | None = None,
    ) -> None:
        """``pieces`` by square on ``field``, ``turn`` to move; ``shown`` what everybody
        knows of each (default: nothing, as at the start); ``runs`` each side's back and
        forth (default: none). Raises :class:`PositionError`."""
        self.field = field
        shown = shown or {}
        self._cells: dict[str, Standing] = {}
        for cell in field.cells:
            piece = pieces.get(cell)
            if piece is not None:
                self._cells[cell] = (piece, shown.get(cell, Shown.HIDDEN))
        for cell in pieces:
            if cell not in field:
                raise PositionError(f"{cell!r} is {'a lake' if field.is_lake(cell) else 'not a square'} of the field")
        self._turn = turn
        self._runs: dict[Side, Run | None] = {side: (runs or {}).get(side) for side in Side}
        self._stack: list[tuple[Move, tuple[tuple[str, Standing | None], ...], dict[Side, Run | None]]] = []
        self._check()
        flag = field.army.flag
        self._flag_cell = {
            side: next((cell for cell, (piece, _) in self._cells.items() if piece == Piece(side, flag)), None)
            for side in Side
        }

    def _check(self) -> None:
        """Raises :class:`PositionError` for pieces no game can reach."""
        army = self.field.army
        counts = Counter(piece for piece, _ in self._cells.values())
        for piece, count in counts.items():
            if piece.rank not in army.ranks:
                raise PositionError(f"a {piece.rank.name} is not in the army of the field {self.field.name}")
            if count > piece.rank.count:
                raise PositionError(
                    f"{piece.side.label} has {count} {piece.rank.name}s; the army has {piece.rank.count}"
                )
        for cell, (piece, shown) in self._cells.items():
            if shown is Shown.MOVED and not piece.rank.can_move:
                raise PositionError(f"the {piece.rank_label} on {cell} is marked as moved, and it never moves")
        if not any(Piece(side, army.flag) in counts for side in Side):
            raise PositionError("both flags are gone; a game ends when the first is captured")
        for side, run in self._runs.items():
            if run is None:
                continue
            standing = self._cells.get(run.target)
            if (
                standing is None
                or standing[0].side is not side
                or not standing[0].rank.can_move
                or run.origin not in self.field
                or self.field.between(run.origin, run.target) is None
                or not 1 <= run.count <= self.field.most_moves_back_and_forth
            ):
                raise PositionError(f"{side.label}'s back and forth {run.to_text()} does not fit the pieces")

    # -- building and writing positions -----------------------------------------------

    @classmethod
    def from_setups(cls, field: Field, red: Setup, blue: Setup, turn: Side) -> Position:
        """The start of a game from each side's set-up, ``turn`` to move. Raises
        :class:`SetupError` for a set-up the rules do not allow."""
        for side, setup in ((Side.RED, red), (Side.BLUE, blue)):
            if setup.side is not side:
                raise SetupError(f"the {side.label} set-up given is {setup.side.label}'s")
            setup.check(field)
        return cls(field, {**red.pieces, **blue.pieces}, turn)

    @classmethod
    def from_lineup(cls, field: Field, name: str, turn: Side) -> Position:
        """The start of a game from the demo set-up ``name``. Raises :class:`NotationError`."""
        setups = field.lineup(name).setups
        return cls.from_setups(field, setups[Side.RED], setups[Side.BLUE], turn)

    @classmethod
    def from_text(cls, field: Field, text: str) -> Position:
        """Read a position in the record's notation (``docs/rules-battle.md`` §7): the rows
        north to south, the side to move, red's and blue's back and forth (``-`` for
        none). Raises :class:`NotationError` or :class:`PositionError`.

        >>> field = Field.default()
        >>> start = Position.from_lineup(field, "demo", Side.RED)
        >>> Position.from_text(field, start.to_text()).to_text() == start.to_text()
        True
        """

        def unreadable(why: str) -> NotationError:
            shown = text if len(text) <= 120 else f"{text[:120]}..."
            return NotationError(f"cannot read the position {shown!r}: {why}")

        parts = text.split()
        if len(parts) != 4:
            raise unreadable(
                "expected the rows, the side to move ('r' or 'b'), then red's and blue's back and forth"
                " ('-' or such as a4-a5:1), separated by spaces"
            )
        rows, side_text, *run_texts = parts
        if side_text not in ("r", "b"):
            raise unreadable(f"the side to move is {side_text!r}, expected 'r' or 'b'")
        try:
            written = read_rows(field, rows, range(field.rows, 0, -1))
        except NotationError as error:
            raise unreadable(str(error)) from None
        pieces, shown = {}, {}
        for cell, (letter, mark) in written.items():
            if letter.upper() == HIDDEN_LETTER:
                raise unreadable(f"{cell} has {letter!r}, a hidden piece: a position writes every rank")
            try:
                rank = field.army.by_letter(letter)
            except NotationError as error:
                raise unreadable(f"{cell}: {error}") from None
            pieces[cell] = Piece(Side.RED if letter.isupper() else Side.BLUE, rank)
            shown[cell] = Shown.from_mark(mark)
        runs: dict[Side, Run | None] = {}
        for side, run_text in zip(Side, run_texts, strict=True):
            match = _RUN_TEXT.fullmatch(run_text)
            if run_text != "-" and match is None:
                raise unreadable(f"{side.label}'s back and forth is {run_text!r}, expected '-' or such as a4-a5:1")
            runs[side] = Run(match[1], match[2], int(match[3])) if match else None
        return cls(field, pieces, Side.from_text(side_text), shown=shown, runs=runs)

    def to_text(self) -> str:
        """The position in the record's notation, every rank written: :meth:`from_text`
        reads it. Not for the shared screens (see :meth:`view`)."""
        letters = {cell: piece.rank_letter + shown.value for cell, (piece, shown) in self._cells.items()}
        runs = " ".join(run.to_text() if run is not None else "-" for run in self._runs.values())
        return f"{write_rows(self.field, range(self.field.rows, 0, -1), letters)} {self._turn.value} {runs}"

    def __repr__(self) -> str:
        return f"<Position {self.to_text()}>"

    def copy(self) -> Position:
        """An independent copy, with the same moves to take back."""
        twin = Position.__new__(Position)
        twin.field, twin._turn, twin._flag_cell = self.field, self._turn, self._flag_cell
        twin._cells, twin._runs, twin._stack = dict(self._cells), dict(self._runs), list(self._stack)
        return twin

    # -- reading the position ---------------------------------------------------------

    @property
    def board(self) -> Field:
        return self.field

    @property
    def turn(self) -> Side:
        return self._turn

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """The moves made on this position, oldest first."""
        return tuple(move for move, _, _ in self._stack)

    def pieces(self) -> dict[str, Piece]:
        """Every piece, by square in reading order, with its rank: for the referee. A
        piece's ``letter`` and ``label`` do not say the rank, its ``rank`` does."""
        return {cell: self._cells[cell][0] for cell in self.field.cells if cell in self._cells}

    def piece_at(self, cell: str) -> Piece | None:
        standing = self._cells.get(self.field.check_cell(cell))
        return standing[0] if standing is not None else None

    def shown(self, cell: str) -> Shown:
        """What everybody knows of the piece on ``cell``. Raises KeyError if it holds none."""
        return self._cells[cell][1]

    def run(self, side: Side) -> Run | None:
        """``side``'s moves back and forth so far, for the two-square rule."""
        return self._runs[side]

    def view(self, *sides: Side) -> View:
        """What one sees who knows ``sides``' ranks: the public view with none (the
        spectators', the shared screens'), a player's with its own side, everything with
        both (once the game is over)."""
        viewers = frozenset(sides)
        seen = {
            cell: SeenPiece(piece.side, piece.rank if piece.side in viewers or shown is Shown.REVEALED else None, shown)
            for cell, (piece, shown) in ((cell, self._cells[cell]) for cell in self.field.cells if cell in self._cells)
        }
        on_field = Counter(piece for piece, _ in self._cells.values())
        removed = {
            side: Counter({rank: rank.count - on_field[Piece(side, rank)] for rank in self.field.army}) for side in Side
        }
        return View(self.field, self._turn, seen, self._runs, viewers, removed)

    # -- moves --------------------------------------------------------------------------

    def _side_at(self, square: str) -> Side | None:
        standing = self._cells.get(square)
        return standing[0].side if standing is not None else None

    def _moves(self, side: Side) -> list[Move]:
        cells = self._cells
        own = (
            (cell, cells[cell][0].rank.movement)
            for cell in self.field.cells
            if cell in cells and cells[cell][0].side is side
        )
        return generate_moves(self.field, own, self._side_at, side, self._runs[side])

    def _flag_lost(self) -> Side | None:
        """The side whose Flag was captured, if one was."""
        for side, cell in self._flag_cell.items():
            standing = self._cells.get(cell) if cell is not None else None
            if standing is None or standing[0].rank.role is not Role.FLAG:
                return side
        return None

    def legal_moves(self) -> list[Move]:
        """The moves the side to move may make: moves of one square (a Scout's runs),
        and strikes on neighbouring enemies; none once the game is over."""
        if self._flag_lost() is not None:
            return []
        return self._moves(self._turn)

    def lenient_moves(self) -> list[Move]:
        """None: no rule here is one a lenient referee lets pass (striking is never
        compulsory)."""
        return []

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on: a captured Flag; else, if
        the side to move has no legal move, its loss, or a draw when the other side
        has none either."""
        lost = self._flag_lost()
        if lost is not None:
            return Outcome(lost.opponent, Ending.FLAG_CAPTURED)
        if self._moves(self._turn):
            return None
        if self._moves(self._turn.opponent):
            return Outcome(self._turn.opponent, Ending.CANNOT_MOVE)
        return DRAW

    def is_over(self) -> bool:
        return self.outcome() is not None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is one of :meth:`legal_moves`, found among the moves of its
        piece alone (making a move checks it, and need not list every move)."""
        standing = self._cells.get(move.origin)
        if standing is None or standing[0].side is not self._turn or self._flag_lost() is not None:
            return False
        own = ((move.origin, standing[0].rank.movement),)
        return move in generate_moves(self.field, own, self._side_at, self._turn, self._runs[self._turn])

    def check_move(self, move: Move, *, lenient: bool = False) -> IllegalMove | None:
        """None if ``move`` is legal here, else the rule it breaks and why (in words that
        name no rank: the shared screens show them)."""
        if self.is_legal(move):
            return None
        return self._diagnose(move)

    def push(self, move: Move, *, lenient: bool = False) -> Move:
        """Make ``move`` and return it. Raises :class:`IllegalMoveError` (the position is
        then unchanged)."""
        if not self.is_legal(move):
            raise IllegalMoveError(self._diagnose(move))
        self._make(move)
        return move

    def strike(self, move: Move) -> Strike:
        """How the strike ``move`` of this position ends: what the referee announces and
        lights. Raises ValueError if ``move`` is no strike of one side's piece on the
        other's."""
        attacker, defender = self._cells.get(move.origin), self._cells.get(move.target)
        if not move.is_strike or attacker is None or defender is None or attacker[0].side is defender[0].side:
            raise ValueError(f"{move} is not a strike in this position")
        return Strike(move, attacker[0], defender[0], resolve_strike(attacker[0].rank, defender[0].rank))

    def footprint(self, move: Move) -> Footprint:
        """What ``move``, one of this position's legal moves, does to the switches
        (``docs/rules-battle.md`` §8). A move empties its square and fills its target, and
        a Scout's run crosses the squares between. In a strike both pieces are lifted:
        the striker's square ends empty; the struck square must read empty for a moment
        and ends with the winner on it, or empty when both are lost.

        >>> field = Field.default()
        >>> position = Position.from_text(field, "9f/10/10/10/2~~s1~~2/2~~N+1~~2/10/10/10/F9 r - -")
        >>> position.footprint(Move.from_text("e5xe6"))
        Footprint(empties=frozenset({'e5'}), fills=frozenset(), proofs=frozenset({'e6'}), passes=frozenset())
        """
        origin, target = frozenset((move.origin,)), frozenset((move.target,))
        if not move.is_strike:
            between = self.field.between(move.origin, move.target) or ()
            return Footprint(origin, fills=target, passes=frozenset(between))
        if self.strike(move).result is StrikeResult.BOTH_LOST:
            return Footprint(origin | target)
        return Footprint(origin, proofs=target)

    def _make(self, move: Move) -> None:
        """Make a legal ``move``."""
        side = self._turn
        runs = dict(self._runs)
        piece, shown = self._cells[move.origin]
        changes: list[tuple[str, Standing | None]] = [(move.origin, (piece, shown))]
        del self._cells[move.origin]
        if move.is_strike:
            defender, defender_shown = self._cells[move.target]
            changes.append((move.target, (defender, defender_shown)))
            result = resolve_strike(piece.rank, defender.rank)
            if result is StrikeResult.BOTH_LOST:
                del self._cells[move.target]
            else:
                winner = piece if result is StrikeResult.ATTACKER_WINS else defender
                self._cells[move.target] = (winner, Shown.REVEALED)
            self._runs[side] = None  # a strike is no move back and forth
            other = self._runs[side.opponent]
            if other is not None and other.target == move.target and result is not StrikeResult.DEFENDER_WINS:
                self._runs[side.opponent] = None  # the piece that went back and forth is gone
        else:
            changes.append((move.target, None))
            ran = self.field.distance(move.origin, move.target) > 1  # only a Scout runs: that shows its rank
            self._cells[move.target] = (piece, Shown.REVEALED if ran or shown is Shown.REVEALED else Shown.MOVED)
            run = self._runs[side]
            self._runs[side] = (
                run.after(move.origin, move.target) if run is not None else Run(move.origin, move.target, 1)
            )
        self._stack.append((move, tuple(changes), runs))
        self._turn = side.opponent

    def pop(self) -> Move:
        """Take back the last move and return it. Raises IndexError if there is none."""
        move, changes, runs = self._stack.pop()
        for cell, standing in reversed(changes):
            if standing is None:
                self._cells.pop(cell, None)
            else:
                self._cells[cell] = standing
        self._runs = runs
        self._turn = self._turn.opponent
        return move

    def _diagnose(self, move: Move) -> IllegalMove:
        """The rule an illegal ``move`` breaks, said without naming a rank."""

        def illegal(rule: Rule, reason: str) -> IllegalMove:
            return IllegalMove(move, rule, reason)

        outcome = self.outcome()
        if outcome is not None:
            return illegal(Rule.GAME_OVER, f"the game is over ({outcome})")
        origin, target, field = move.origin, move.target, self.field
        for square in (origin, target):
            if field.is_lake(square):
                return illegal(Rule.LAKE, f"{square} is a lake: pieces go around the lakes")
            if square not in field:
                return illegal(Rule.NOT_A_SQUARE, f"{square} is not a square of the field {field.name}")
        if origin == target:
            return illegal(Rule.NOT_A_MOVE, "a move must leave its square")
        mover, victim = self._cells.get(origin), self._cells.get(target)
        if mover is None:
            return illegal(Rule.NO_PIECE, f"there is no piece on {origin}")
        side = self._turn
        if mover[0].side is not side and self._is_going_back(move):
            return illegal(
                Rule.PUT_DOWN,
                f"{side.opponent.label}'s move {self._stack[-1][0]} is made: the piece put down on {origin} stays",
            )
        if mover[0].side is not side:
            return illegal(Rule.NOT_YOUR_TURN, f"{origin} holds a {mover[0].label}, and it is {side.label}'s turn")
        if victim is not None and victim[0].side is side:
            return illegal(Rule.OWN_PIECE, f"{target} holds one of {side.label}'s own pieces")
        between = field.between(origin, target)
        if between is None:
            return illegal(Rule.NOT_STRAIGHT, f"{target} is not in a straight line from {origin}: never diagonally")
        for square in between:
            if field.is_lake(square):
                return illegal(Rule.BLOCKED, f"{square}, between {origin} and {target}, is a lake")
            if square in self._cells:
                return illegal(Rule.BLOCKED, f"{square}, between {origin} and {target}, holds a piece")
        if victim is not None and not move.is_strike:
            return illegal(
                Rule.NOTATION, f"{target} holds a {victim[0].label}: the strike is written {origin}x{target}"
            )
        if victim is None and move.is_strike:
            return illegal(
                Rule.NOTATION, f"{target} is empty, nothing to strike: the move is written {origin}-{target}"
            )
        if move.is_strike and between:
            return illegal(
                Rule.STRIKE_NEIGHBOURS, f"{target} is not next to {origin}: a piece strikes only a neighbour"
            )
        movement = mover[0].rank.movement
        if movement is Movement.NONE or (movement is Movement.STEP and between):
            return illegal(Rule.OUT_OF_REACH, f"the piece on {origin} cannot reach {target}")
        run = self._runs[side]
        if run is not None and run.continues(origin, target):
            limit = field.most_moves_back_and_forth
            return illegal(
                Rule.TWO_SQUARES,
                f"the piece on {origin} has moved between {origin} and {target} {limit} times in a row",
            )
        raise AssertionError(f"{move} breaks no rule in {self.to_text()} but is not among its legal moves")

    def _is_going_back(self, move: Move) -> bool:
        """Whether ``move`` takes the piece of the last move back to the square it came
        from: once a piece is put down and the hand has left it, the move is made."""
        if not self._stack:
            return False
        last = self._stack[-1][0]
        standing = self._cells.get(last.target)
        return (
            (move.origin, move.target) == (last.target, last.origin)
            and standing is not None
            and standing[0].side is self._turn.opponent
        )


class View:
    """What one viewer may know of a position (:meth:`Position.view`): each piece's side,
    what everybody knows of it, its rank only where the viewer may know it; each
    side's back and forth; the ranks each side has lost (every strike shows both).

    >>> field = Field.default()
    >>> public = Position.from_lineup(field, "demo", Side.RED).view()
    >>> public.to_text().split("/")[0]
    'xxxxxxxxxx'
    """

    def __init__(
        self,
        field: Field,
        turn: Side,
        pieces: Mapping[str, SeenPiece],
        runs: Mapping[Side, Run | None],
        viewers: frozenset[Side],
        removed: Mapping[Side, Counter[Rank]],
    ) -> None:
        self.field = field
        self.turn = turn
        self.viewers = viewers
        self._pieces = dict(pieces)
        self._runs = dict(runs)
        self._removed = {side: Counter(removed[side]) for side in Side}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, View):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # a view holds dictionaries

    def _key(self) -> tuple[object, ...]:
        return (self.field.name, self.turn, self.viewers, self._pieces, self._runs, self._removed)

    def __repr__(self) -> str:
        viewers = "+".join(side.label for side in Side if side in self.viewers) or "spectators"
        return f"<View by {viewers}: {self.to_text()}>"

    def pieces(self) -> dict[str, SeenPiece]:
        """The pieces as the viewer sees them, by square in reading order."""
        return dict(self._pieces)

    def run(self, side: Side) -> Run | None:
        return self._runs[side]

    def removed(self, side: Side) -> Counter[Rank]:
        """The ranks of ``side``'s pieces the strikes have removed."""
        return Counter(self._removed[side])

    def unknown_ranks(self, side: Side) -> Counter[Rank]:
        """The ranks of ``side``'s pieces on the field that the viewer does not know:
        the army, less what was removed, less what the viewer sees."""
        left = Counter({rank: rank.count for rank in self.field.army}) - self._removed[side]
        seen = Counter(piece.rank for piece in self._pieces.values() if piece.side is side and piece.rank is not None)
        return left - seen

    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move, which must be one of the viewers (its
        ranks say how its pieces move). Raises ValueError otherwise."""
        side = self.turn
        if side not in self.viewers:
            raise ValueError(f"this view does not know {side.label}'s ranks, so it cannot say {side.label}'s moves")
        flag = self.field.army.flag
        if any(self._removed[each][flag] for each in Side):  # a Flag was captured: the game is over
            return []
        own = (
            (cell, piece.rank.movement)
            for cell, piece in self._pieces.items()
            if piece.side is side and piece.rank is not None
        )
        pieces = self._pieces

        def side_at(square: str) -> Side | None:
            piece = pieces.get(square)
            return piece.side if piece is not None else None

        return generate_moves(self.field, own, side_at, side, self._runs[side])

    def to_text(self) -> str:
        """The view in the notation of positions, ``X`` (``x``) for a piece whose rank the
        viewer does not know."""
        letters = {cell: piece.letter + piece.shown.value for cell, piece in self._pieces.items()}
        runs = " ".join(run.to_text() if run is not None else "-" for run in self._runs.values())
        return f"{write_rows(self.field, range(self.field.rows, 0, -1), letters)} {self.turn.value} {runs}"
