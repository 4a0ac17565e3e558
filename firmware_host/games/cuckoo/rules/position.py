"""A position of Operation Cuckoo: where the pieces stand and whose turn it is, its
legal moves, making and taking back moves, and how the game ends (``docs/rules.md``)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from firmware_host.errors import NestrefError, NotationError
from firmware_host.games.cuckoo.rules.bitboards import COLOURS, ONGOING, State, bitboards_of, play
from firmware_host.games.cuckoo.rules.moves import Footprint, IllegalMove, IllegalMoveError, Move, Rule
from firmware_host.games.cuckoo.rules.nest import Nest
from firmware_host.games.cuckoo.rules.outcome import DRAW, Outcome, WinCondition
from firmware_host.games.cuckoo.rules.pieces import Kind, Piece, Side

_NFN_ROW_TOKEN = re.compile(r"[1-9][0-9]*|[EWCewc]|(.)", re.DOTALL)


class PositionError(NestrefError, ValueError):
    """Pieces that cannot make a position: a cell not on the nest, two cuckoos of a side."""


_PIECES = {(side, kind): Piece(side, kind) for side in Side for kind in Kind}


class Position:
    """Pieces on a nest and the side to move, with the moves played to reach them.

    >>> position = Position.from_lineup("standard")
    >>> len(position.legal_moves())
    14
    >>> position.push(Move.from_text("c3-c4"))
    Move(origin='c3', target='c4', is_capture=False)
    >>> position.to_nfn()
    'ewcwe/eeeeee/eee1eee/8/9/2E5/EE2EEE/EEEEEE/EWCWE b'
    >>> position.pop()
    Move(origin='c3', target='c4', is_capture=False)
    >>> position.outcome() is None
    True
    """

    def __init__(self, pieces: Mapping[str, Piece], turn: Side, *, nest: Nest | None = None) -> None:
        """Set ``pieces`` (cell to piece) on ``nest`` (default: hexhex-5), ``turn`` to move.

        Raises :class:`PositionError` for a cell not on the nest or a side with more
        than one cuckoo.
        """
        self.nest = nest if nest is not None else Nest.default()
        self._bits = bitboards_of(self.nest)
        cuckoos: set[Side] = set()
        for cell, piece in pieces.items():
            if cell not in self.nest:
                raise PositionError(f"{cell!r} is not a cell of the nest {self.nest.name}")
            if piece.kind is Kind.CUCKOO:
                if piece.side in cuckoos:
                    raise PositionError(f"{piece.side.label} has two cuckoos; a side has at most one")
                cuckoos.add(piece.side)
        # The colour to move, as the bitboard layer counts it, is this one after an even
        # number of moves on the stack: push and pop then keep no turn of their own.
        self._first_turn = COLOURS.index(turn)
        self._state: State = self._bits.state_of(pieces, self._first_turn)
        self._stack: list[tuple[Move, State]] = []

    # -- building and writing positions -----------------------------------------------

    @classmethod
    def from_lineup(cls, name: str | None = None, *, turn: Side = Side.RED, nest: Nest | None = None) -> Position:
        """The start of a game from the lineup ``name`` (default: the nest's default
        lineup, ``standard`` on hexhex-5), ``turn`` to move.

        Raises :class:`NotationError` if the nest has no such lineup.
        """
        nest = nest if nest is not None else Nest.default()
        return cls(nest.lineup(name if name is not None else nest.default_lineup).pieces, turn, nest=nest)

    @classmethod
    def from_nfn(cls, text: str, *, nest: Nest | None = None) -> Position:
        """Read a position in nest notation (``docs/rules.md`` §6).

        Raises :class:`NotationError` saying what is wrong, or :class:`PositionError`.

        >>> Position.from_nfn("ewcwe/eeeeee/eee1eee/8/9/8/EEE1EEE/EEEEEE/EWCWE r") == Position.from_lineup()
        True
        """
        nest = nest if nest is not None else Nest.default()

        def unreadable(why: str) -> NotationError:
            shown = text if len(text) <= 100 else f"{text[:100]}..."
            return NotationError(f"cannot read the NFN {shown!r}: {why}")

        fields = text.split()
        if len(fields) != 2:
            raise unreadable(
                "expected the rows, a space and the side to move, 'r' or 'b' (quote the whole NFN on a command line)"
            )
        board, side_text = fields
        if side_text not in ("r", "b"):
            raise unreadable(f"the side to move is {side_text!r}, expected 'r' or 'b'")
        rows = board.split("/")
        if len(rows) != len(nest.rows):
            raise unreadable(f"it has {len(rows)} rows, the nest {nest.name} has {len(nest.rows)}")
        pieces: dict[str, Piece] = {}
        for row_number, row_text in zip(range(len(rows), 0, -1), rows, strict=True):
            row = nest.rows[row_number - 1]
            filled = 0
            for token in _NFN_ROW_TOKEN.finditer(row_text):
                if token.group(1) is not None:
                    raise unreadable(
                        f"row {row_number} has {token.group(1)!r}, expected a piece (E W C e w c) or a number of empty"
                        " cells"
                    )
                letter_or_run = token.group()
                is_run = letter_or_run.isdigit()
                if not is_run:
                    run = 1
                elif len(letter_or_run) <= len(str(len(row))):  # no int() of a number of any size
                    run = int(letter_or_run)
                else:
                    run = len(row) + 1
                if filled + run > len(row):
                    raise unreadable(f"row {row_number} describes more than its {len(row)} cells")
                if not is_run:
                    pieces[row[filled]] = Piece.from_letter(letter_or_run)
                filled += run
            if filled != len(row):
                raise unreadable(f"row {row_number} describes {filled} cells, the row has {len(row)}")
        return cls(pieces, Side.from_text(side_text), nest=nest)

    # -- as every game's position (firmware_host.games.base.Position) ------------------

    @property
    def board(self) -> Nest:
        """The nest the game is played on."""
        return self.nest

    def to_text(self) -> str:
        """The position in the game's notation: NFN."""
        return self.to_nfn()

    def lenient_moves(self) -> list[Move]:
        """What lenient refereeing accepts besides the legal moves: the steps ignoring
        compulsory captures."""
        return self.steps_ignoring_captures()

    def to_nfn(self) -> str:
        """The position in nest notation: rows north to south, then the side to move."""
        pieces = self.pieces()
        rows = []
        for row in reversed(self.nest.rows):
            text, empty = "", 0
            for cell in row:
                piece = pieces.get(cell)
                if piece is None:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + piece.letter
                empty = 0
            rows.append(text + (str(empty) if empty else ""))
        return f"{'/'.join(rows)} {self.turn.value}"

    def __repr__(self) -> str:
        return f"Position.from_nfn({self.to_nfn()!r})"

    def __str__(self) -> str:
        return self.to_nfn()

    def __eq__(self, other: object) -> bool:
        """Positions are equal when the same pieces stand on the same nest with the same
        side to move; the moves that led there do not count."""
        if not isinstance(other, Position):
            return NotImplemented
        return self._absolute_state() == other._absolute_state() and self.nest == other.nest

    __hash__ = None  # type: ignore[assignment]  # positions change as moves are made

    def copy(self) -> Position:
        """An independent copy, with the same moves to take back."""
        twin = Position.__new__(Position)  # the tables are shared: no need to build them again
        twin.nest, twin._bits = self.nest, self._bits
        twin._state, twin._first_turn, twin._stack = self._state, self._first_turn, list(self._stack)
        return twin

    def mirrored(self) -> Position:
        """The position seen from the other side: the nest turned by 180°, every piece's
        colour swapped, and the other side to move. Its moves are this position's moves
        turned; its history is empty."""
        pieces = {
            self.nest.turned(cell): Piece(piece.side.opponent, piece.kind) for cell, piece in self.pieces().items()
        }
        return Position(pieces, self.turn.opponent, nest=self.nest)

    # -- reading the position ---------------------------------------------------------

    @property
    def turn(self) -> Side:
        """The side to move."""
        return COLOURS[self._turn]

    @property
    def _turn(self) -> int:
        """The colour to move."""
        return self._first_turn ^ (len(self._stack) & 1)

    def _absolute_state(self) -> tuple[int, State]:
        """The turn and the six bitboards with red's three first."""
        state = self._state
        turn = self._turn
        return turn, (state if turn == 0 else state[3:] + state[:3])

    def pieces(self) -> dict[str, Piece]:
        """Every piece on the nest, by cell, in reading order from red's side."""
        _, boards = self._absolute_state()
        found: dict[str, Piece] = {}
        cell_of = self._bits.cell_of
        everything = boards[0] | boards[3]
        while everything:  # lowest bit first: the bits are laid out in reading order
            bit = everything & -everything
            everything ^= bit
            found[cell_of[bit]] = _piece_on(bit, boards)
        return found

    def occupied(self) -> frozenset[str]:
        """The cells that hold a piece: what the nest's sensors should read."""
        own, _, _, opponent, _, _ = self._state
        return frozenset(self._bits.cells_of(own | opponent))

    def piece_at(self, cell: str) -> Piece | None:
        """The piece on ``cell``, or None. Raises :class:`NotationError` for a cell not on
        the nest."""
        bit = self._bits.bit_of[self.nest.check_cell(cell)]
        _, boards = self._absolute_state()
        return _piece_on(bit, boards) if (boards[0] | boards[3]) & bit else None

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """The moves made on this position, oldest first."""
        return tuple(move for move, _ in self._stack)

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The legal moves: captures only if there is one (capturing is compulsory), else
        steps and double steps forward; ``[PASS]`` if the side to move has no move but
        its opponent has; empty when the game is over."""
        bits, state, turn = self._bits, self._state, self._first_turn ^ (len(self._stack) & 1)
        if bits.verdict(state, turn):
            return []
        return bits.legal_moves(state, turn)

    def is_capture_compulsory(self) -> bool:
        """Whether the side to move has a capture (and so may only capture)."""
        moves = self.legal_moves()
        return bool(moves) and moves[0].is_capture

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on.

        Read from the pieces alone (``docs/rules.md`` §4): each condition in turn, for red
        then for blue; then a draw if neither side has a legal move. From any position
        reached in play this is the result of the rule "after every move, check 1 to 4".
        """
        turn = self._turn
        verdict = self._bits.verdict(self._state, turn)
        if verdict != ONGOING:
            return Outcome(COLOURS[verdict & 1], WinCondition(verdict >> 1))
        return None if self._bits.legal_moves(self._state, turn) else DRAW

    def is_over(self) -> bool:
        return not self.legal_moves()

    def check_move(self, move: Move, *, lenient: bool = False) -> IllegalMove | None:
        """None if ``move`` is legal here, else the rule it breaks and why.

        ``lenient`` (``docs/rules.md`` §5) also accepts a step that is illegal only because
        a capture was compulsory: the referee warns about the missed capture instead.
        """
        if self._find(move, lenient) is not None:
            return None
        return self._diagnose(move)

    def footprint(self, move: Move) -> Footprint:
        """What ``move``, one of this position's moves, shows on the switches: a step
        empties its origin and fills its target; a capture empties its origin, and its
        target, occupied before and after, must read empty for a moment as the captured
        piece leaves; a slide of two steps crosses the cell between. A pass shows nothing.

        >>> position = Position.from_nfn("4c/6/7/8/4W1e2/8/7/6/C4 r")
        >>> position.footprint(Move.from_text("e5xg5"))
        Footprint(empties=frozenset({'e5'}), fills=frozenset(), proofs=frozenset({'g5'}), passes=frozenset({'f5'}))
        """
        if move.origin is None or move.target is None:
            return Footprint()
        middle = self.nest.between(move.origin, move.target)
        passes = frozenset((middle,)) if middle is not None else frozenset()
        target = frozenset((move.target,))
        if move.is_capture:
            return Footprint(frozenset((move.origin,)), proofs=target, passes=passes)
        return Footprint(frozenset((move.origin,)), fills=target, passes=passes)

    def push(self, move: Move, *, lenient: bool = False) -> Move:
        """Make ``move`` and return it as the engine's own move value.

        Raises :class:`IllegalMoveError` (with the rule broken) if it is illegal here;
        the position is then unchanged. ``lenient`` as in :meth:`check_move`.
        """
        found = self._find(move, lenient)
        if found is None:
            raise IllegalMoveError(self._diagnose(move))
        self.push_unchecked(found)
        return found

    def steps_ignoring_captures(self) -> list[Move]:
        """The steps and double steps forward as if no capture were compulsory: what
        lenient refereeing (``docs/rules.md`` §5) accepts besides the legal moves. Empty when
        the game is over."""
        turn = self._turn
        if self._bits.verdict(self._state, turn):
            return []
        own, own_long, _, opponent, _, _ = self._state
        return self._bits.steps(own, own_long, opponent, turn)

    def _find(self, move: Move, lenient: bool) -> Move | None:
        """The generated move equal to ``move``, if it is legal."""
        candidates = self.legal_moves()
        if lenient and candidates and candidates[0].is_capture:
            candidates = candidates + self.steps_ignoring_captures()
        for candidate in candidates:
            if candidate == move:
                return candidate
        return None

    def push_unchecked(self, move: Move) -> None:
        """Make ``move`` without checking it: only for moves just taken from
        :meth:`legal_moves` of this very position (search and perft). Anything else
        corrupts the position."""
        state = self._state
        self._stack.append((move, state))
        self._state = play(state, move)

    def pop(self) -> Move:
        """Take back the last move and return it. Raises IndexError if there is none."""
        move, self._state = self._stack.pop()
        return move

    def _diagnose(self, move: Move) -> IllegalMove:
        """The rule an illegal ``move`` breaks, said for a player."""
        side = self.turn
        outcome = self.outcome()
        if outcome is not None:
            return IllegalMove(move, Rule.GAME_OVER, f"the game is over ({outcome})")
        if move.origin is None or move.target is None:
            return IllegalMove(move, Rule.PASS_NOT_ALLOWED, f"{side.label} has a legal move, so it may not pass")
        origin, target = move.origin, move.target
        for cell in (origin, target):
            if cell not in self.nest:
                return IllegalMove(move, Rule.NOT_A_CELL, f"{cell} is not a cell of the nest {self.nest.name}")
        if origin == target:
            return IllegalMove(move, Rule.NOT_A_MOVE, "a move must leave its cell")
        pieces = self.pieces()
        piece, victim = pieces.get(origin), pieces.get(target)
        if piece is None:
            return IllegalMove(move, Rule.NO_PIECE, f"there is no piece on {origin}")
        if piece.side is not side:
            return IllegalMove(
                move, Rule.NOT_YOUR_TURN, f"{origin} holds a {piece.label}, and it is {side.label}'s turn"
            )
        if victim is not None and victim.side is side:
            return IllegalMove(move, Rule.OWN_PIECE, f"{target} holds {side.label}'s own {victim.kind.label}")
        line = self.nest.line(origin, target)
        reach = 2 if piece.kind.is_long_range else 1
        if line is None or line[1] > reach:
            how = (
                "an egg moves and captures only onto a neighbouring cell"
                if reach == 1
                else f"a {piece.kind.label} moves and captures one or two cells in a straight line"
            )
            return IllegalMove(move, Rule.TOO_FAR, f"{target} is out of reach: {how}")
        direction, steps = line
        if steps == 2:
            middle = self.nest.between(origin, target)
            if middle in pieces:
                return IllegalMove(
                    move, Rule.BLOCKED, f"{middle}, between {origin} and {target}, holds a piece: no jumping"
                )
        if victim is not None and not move.is_capture:
            return IllegalMove(
                move, Rule.NOTATION, f"{target} holds a {victim.label}: the capture is written {origin}x{target}"
            )
        if victim is None and move.is_capture:
            return IllegalMove(
                move, Rule.NOTATION, f"{target} is empty, nothing to capture: the step is written {origin}-{target}"
            )
        if victim is None and direction not in self.nest.forward(side):
            ways = " or ".join(way.label for way in self.nest.forward(side))
            return IllegalMove(move, Rule.NOT_FORWARD, f"{side.label} moves forward ({ways}) unless it captures")
        captures = [str(m) for m in self.legal_moves() if m.is_capture]
        if captures:
            return IllegalMove(move, Rule.CAPTURE_COMPULSORY, f"capturing is compulsory: {', '.join(captures)}")
        raise AssertionError(f"{move} breaks no rule in {self.to_nfn()} but is not among its legal moves")


def _piece_on(bit: int, boards: State) -> Piece:
    """The piece on the cell of ``bit``, which holds one; ``boards`` red's three first."""
    side, (long_range, cuckoo) = (Side.RED, boards[1:3]) if boards[0] & bit else (Side.BLUE, boards[4:6])
    kind = Kind.CUCKOO if cuckoo & bit else Kind.WARBLER if long_range & bit else Kind.EGG
    return _PIECES[side, kind]
