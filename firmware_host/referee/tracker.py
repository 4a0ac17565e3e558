"""What a position expects of the nest, and the readings of what the nest shows.

Sensors tell only which cells hold a piece. Against the position the game is in, a
sensed occupancy differs by the cells *lifted* (a piece should be there, none is) and
the cells *placed* (a piece is there, none should be). Each legal move describes what
it does to the switches, its :class:`~firmware_host.games.base.Footprint`: cells it empties,
cells it fills, cells that need *evidence* (a capture's target, occupied before and
after, must have read empty, however briefly, since the mover left its cell; otherwise
"capturer lifted and held in the air" could not be told from "capture done"), and the
cells a slide crosses. The tracker matches footprints; it knows nothing of the game's
shapes of moves.

A *reading* explains the nest as moves made in order from the position, and what is
left: pieces of the side that moved held in the air (lifted to be straightened, to be
put back), or the next side's move under way. A capture whose target never read empty
(the captured piece pushed off as the capturer landed, between two scans) cannot be
seen; it is read only when the other side's reply shows it was made: nobody moves while
the opponent still holds a piece.

Cells whose sensor is faulty are left out of every comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, replace

from firmware_host.games.base import Footprint, Move, Piece, Position

Evidence = Callable[[str, str], bool | None]
"""``evidence(origin, target)``: whether ``target`` read empty since ``origin`` was
lifted; None when a faulty sensor leaves it unknown."""

LONG_AGO = -(2**62)
MAX_STRAYS = 2  # pieces a player may hold besides the one moving (two hands)
CHAIN_DEPTH = 5
"""The most moves a reading follows: captures no scan saw, each shown by the next move
(several in a row happen: captures are compulsory, so a capture is often recaptured).
A reading that needs more is not found, so another reading must not be taken for the
only one: the depth is kept well beyond what a nest shows."""
SLIDE_MS = 100
"""A slid piece reaches its target at most this long before its origin reads empty
(the two switches overlap as the magnet passes)."""
STRAY_LEAD_MS = 2000
"""A piece held while another one moves was lifted at most this long before that one
left its cell (a player straightens a piece for a second or so): one lifted earlier,
and still in the air, is not being straightened (a capturer landed unseen, say)."""
STRAY_LAG_MS = 3000
"""...and at most this long after it left (it lands within a second and a half, and a
piece is straightened up to a second after): one lifted later is the next move's."""


@dataclass(frozen=True)
class Observation:
    """What the sensors say: the cells read occupied (settled), the faulty ones, the
    evidence of captures, and ``since(cell)``: when the cell's settled reading began
    (the first raw change of the run that led to it), and ``landed``."""

    occupied: Set[str]
    ignored: Set[str]
    evidence: Evidence
    since: Callable[[str], int]
    landed: Callable[[str, str], bool]
    """``landed(origin, target)``: whether a piece came to rest on ``target`` as soon
    after ``origin`` was lifted as a capturer lands (though it may have been lifted
    since)."""
    emptied: Callable[[str], int]
    """``emptied(cell)``: when a piece last began to leave the cell."""
    prompt_evidence: Evidence
    """Evidence as a capture makes it: the target's first change after the capturer left
    came as soon as a capturer lands (a later touch is another hand's)."""
    left: Callable[[str], int]
    """``left(cell)``: when a piece that had stood on the cell last began to leave it; a
    piece passing over the cell since (a slide crossing it) left none, though
    ``emptied`` counts it."""


@dataclass(frozen=True)
class Finished:
    """A move the nest shows made. ``strays`` are the mover's own pieces lifted besides
    it (held in the air, to be put back); ``pushed`` a piece beside a capture's target
    (the captured piece pushed aside). ``is_certain`` is False when a faulty sensor
    leaves a doubt only the player can settle."""

    move: Move
    strays: frozenset[str]
    pushed: frozenset[str]
    is_certain: bool

    @property
    def is_clean(self) -> bool:
        """Nothing out of place besides the move."""
        return not self.strays and not self.pushed


class TurnView:
    """One position's expectations, computed once per position and then asked for
    every change the sensors report."""

    def __init__(self, position: Position, *, lenient: bool = False, only: tuple[Move, ...] | None = None) -> None:
        """The expectations of ``position``. ``only``, if given, are the moves the side
        to move may make this turn: the computer's chosen move, or none while it is
        still choosing. Any other move is then refused, legal or not."""
        self.position = position
        self.lenient = lenient
        self.pieces: Mapping[str, Piece] = position.pieces()
        self.expected = frozenset(self.pieces)
        self.side = position.turn
        legal = position.legal_moves()
        self.is_over = not legal
        captures = tuple(move for move in legal if move.is_capture)
        # Where capturing is compulsory the rules list nothing else; a game where it
        # is not (the battle game's strikes) lists other moves beside them.
        self.compulsory = captures if all(move.is_capture for move in legal) else ()
        """The captures the rules make compulsory (``only`` aside), for the players."""
        accepted = list(legal)
        if lenient and self.compulsory:
            accepted += [move for move in position.lenient_moves() if move not in accepted]
        if only is not None:
            accepted = [move for move in accepted if move in only]
        self.only = only
        self.moves = tuple(move for move in accepted if not move.is_pass)
        self.footprints: dict[Move, Footprint] = {move: position.footprint(move) for move in self.moves}
        self.captures = tuple(move for move in self.moves if self.footprints[move].proofs)
        self.own = frozenset(cell for cell, piece in self.pieces.items() if piece.side is self.side)
        proofs = {cell for footprint in self.footprints.values() for cell in footprint.proofs}
        taken = {cell for footprint in self.footprints.values() for cell in footprint.empties}
        self.liftable = self.own | proofs | taken
        """Cells the side to move may lift: its pieces, those it can capture, and those a
        move of it empties (a pawn taken en passant, lifted first)."""
        # The cells a piece of each origin may touch on its way: where it lands, and the
        # cells it crosses.
        self.path: dict[str, set[str]] = {}
        self.stops: set[tuple[str, str]] = set()  # (origin, cell) it may stop on
        for footprint in self.footprints.values():
            for origin in footprint.empties:
                self.path.setdefault(origin, set()).update(footprint.fills | footprint.proofs | footprint.passes)
                self.stops.update((origin, cell) for cell in footprint.fills)
        # A move another one from the same cell may still grow from (a step that may go
        # on into a double step): the piece slides across where that one stops.
        self.extendable = frozenset(
            move
            for move, footprint in self.footprints.items()
            if footprint.fills
            and any(
                other.empties == footprint.empties and footprint.fills <= other.passes
                for other in self.footprints.values()
            )
        )
        # A move that is the first part of one emptying more cells (a rook moved first
        # to castle, its king still to go): the mover's next piece may yet follow.
        self.first_parts = frozenset(
            move
            for move, footprint in self.footprints.items()
            if footprint.fills
            and any(
                footprint.empties < other.empties and footprint.fills <= other.fills | other.passes
                for other in self.footprints.values()
            )
        )
        self._after: dict[Move, TurnView] = {}

    def difference(self, occupied: Set[str], ignored: Set[str]) -> tuple[frozenset[str], frozenset[str]]:
        """The cells lifted and placed relative to this position, faulty ones left out."""
        lifted = self.expected - occupied - ignored
        placed = frozenset(occupied - self.expected - ignored)
        return lifted, placed

    def matches_exactly(self, seen: Observation) -> bool:
        """Whether the nest shows this very position."""
        return self.difference(seen.occupied, seen.ignored) == (frozenset(), frozenset())

    def shows(self, move: Move, seen: Observation) -> bool:
        """Whether the nest still shows ``move``'s own cells as the move leaves them."""
        footprint = self.footprints[move]
        return not footprint.empties & seen.occupied and footprint.fills | footprint.proofs <= seen.occupied

    def after(self, move: Move) -> TurnView:
        """The view of the position after ``move``, one of :attr:`moves` (a pass of the
        other side that cannot move made too)."""
        view = self._after.get(move)
        if view is None:
            position = self.position.copy()
            position.push(move, lenient=self.lenient)
            moves = position.legal_moves()
            if len(moves) == 1 and moves[0].is_pass:
                position.push(moves[0])
            view = self._after[move] = TurnView(position, lenient=self.lenient)
        return view

    def finished(self, seen: Observation, *, not_before: int = LONG_AGO) -> list[Finished]:
        """The moves the nest shows made, each with the mover's own pieces held besides
        it. ``not_before``: the move began no earlier (it follows another one)."""
        lifted, placed = self.difference(seen.occupied, seen.ignored)
        if not lifted and not placed and not seen.ignored:
            return []
        ignored, since = seen.ignored, seen.since
        found = []
        for move, footprint in self.footprints.items():
            empties, fills = footprint.empties - ignored, footprint.fills - ignored
            if not empties <= lifted or not fills <= placed or footprint.proofs & lifted:
                continue
            strays = lifted - empties
            if len(strays) > MAX_STRAYS or not strays <= self.own or strays & footprint.cells:
                continue
            pushed = placed - fills
            if pushed and not self._pushed_aside(footprint, pushed):
                continue
            left = min((since(cell) for cell in empties), default=LONG_AGO)
            if left < not_before or any(since(cell) < left - SLIDE_MS for cell in fills):
                continue  # landed before it left: another piece's doing
            if any(not left - STRAY_LEAD_MS <= since(cell) <= left + STRAY_LAG_MS for cell in strays):
                continue  # not a piece held while this one moved
            proofs = [seen.evidence(origin, target) for origin in footprint.empties for target in footprint.proofs]
            if False in proofs:
                continue
            certain = not (footprint.empties | footprint.fills) & ignored and all(proofs)
            found.append(Finished(move, frozenset(strays), frozenset(pushed), certain))
        return found

    def _pushed_aside(self, footprint: Footprint, pushed: frozenset[str]) -> bool:
        """Whether ``pushed`` is a captured piece pushed onto a cell beside its target
        (not back along the way the capturer came)."""
        board = self.position.board
        return (
            len(pushed) == 1
            and not pushed & footprint.passes
            and any(board.distance(cell, target) == 1 for cell in pushed for target in footprint.proofs)
        )

    def is_under_way(self, seen: Observation, *, not_before: int = LONG_AGO) -> bool:
        """Whether the nest can be a move of the side to move under way: only pieces it
        may lift are in the air (its own, and those it can capture), and at most one
        piece rests on a cell that a lifted piece may cross or reach. ``not_before``: the
        pieces were lifted no earlier (the move follows another one)."""
        lifted, placed = self.difference(seen.occupied, seen.ignored)
        if not lifted or not lifted <= self.liftable or len(placed) > 1:
            return False
        if any(seen.since(cell) < not_before for cell in lifted | placed):
            return False
        return all(any(cell in self.path.get(origin, ()) for origin in lifted) for cell in placed)

    def has_begun(self, seen: Observation, *, not_before: int = LONG_AGO, set_down: bool = False) -> bool:
        """Whether the side to move has begun to move since ``not_before``: pieces lifted
        that it may lift (one of its own, if nothing is set down), and at most one piece
        set down on an empty cell (a move under way, or an illegal one); with
        ``set_down``, exactly one. Nobody moves while the opponent still holds a piece, so this shows
        that the move before was finished. (A piece only lifted shows less after a
        capture no scan saw: it may be the piece the mover is capturing.)"""
        lifted, placed = self.difference(seen.occupied, seen.ignored)
        if not lifted or not lifted <= self.liftable or len(placed) > 1 or (set_down and not placed):
            return False
        if len(lifted & self.own) > 1 + MAX_STRAYS:
            return False  # more pieces in the air than two hands hold
        if not placed and not lifted & self.own:
            return False  # only a piece it could capture lifted: perhaps the last mover's, being straightened
        return all(seen.since(cell) >= not_before for cell in lifted | placed)

    def lifts_only_captures(self, seen: Observation, *, not_before: int = LONG_AGO) -> bool:
        """Whether only pieces the side to move could capture are in the air, lifted
        since ``not_before``, and nothing is set down."""
        lifted, placed = self.difference(seen.occupied, seen.ignored)
        if not lifted or placed or lifted & self.own or not lifted <= self.liftable:
            return False
        return all(seen.since(cell) >= not_before for cell in lifted)

    def is_lifting(self, seen: Observation, *, not_before: int = LONG_AGO) -> bool:
        """Whether the side to move has only lifted pieces it may lift, since
        ``not_before``: perhaps a move begun."""
        _, placed = self.difference(seen.occupied, seen.ignored)
        return not placed and self.has_begun(seen, not_before=not_before)

    def is_resting_between(self, seen: Observation) -> bool:
        """Whether a piece rests on a cell it may only pass (the middle of a double step
        or a capture two cells away), not on one it may stop on."""
        lifted, placed = self.difference(seen.occupied, seen.ignored)
        if len(placed) != 1:
            return False
        (cell,) = placed
        return not any((origin, cell) in self.stops for origin in lifted)

    def captures_under_way(self, seen: Observation) -> tuple[Move, ...]:
        """The captures a lifted piece may be making, or may have made unseen: its
        target still occupied, or lifted too (the captured piece in the hand)."""
        lifted, _ = self.difference(seen.occupied, seen.ignored)
        return tuple(
            move
            for move in self.captures
            if self.footprints[move].empties <= lifted and self.footprints[move].proofs <= seen.occupied | lifted
        )

    def unseen_captures(self, seen: Observation) -> tuple[Move, ...]:
        """The captures a lifted piece may have made with no evidence on the nest: its
        target is still occupied (by the capturer, or by the piece to be captured)."""
        lifted, _ = self.difference(seen.occupied, seen.ignored)
        return tuple(
            move
            for move in self.captures
            if self.footprints[move].empties <= lifted and self.footprints[move].proofs <= seen.occupied
        )


@dataclass(frozen=True)
class Reading:
    """An explanation of the nest: ``moves`` made in order from the view's position
    (each one's side moving in turn; all but the last may be captures no scan saw),
    then either the last mover's own pieces held in the air (``strays``, ``pushed``),
    or, when ``then_under_way``, the next side's move under way (legal or not)."""

    moves: tuple[Move, ...]
    strays: frozenset[str] = frozenset()
    pushed: frozenset[str] = frozenset()
    is_certain: bool = True
    then_under_way: bool = False
    replied_at: int = LONG_AGO  # when the second move was shown made, if it was
    is_weak: bool = False
    """A move begun after several: it shows too little to read what came before from
    it, but enough that what came before may have been other than another reading says."""
    cells: frozenset[str] = frozenset()  # every cell the moves touch
    is_ending: bool = False
    """The last move a capture no scan saw that ended the game: nothing can follow to
    prove it, so it stands only against other readings (the players are asked)."""
    sets_down: bool = False
    """The move under way has set a piece down (legal or not): it may be anything yet."""

    @property
    def is_clean(self) -> bool:
        return not self.strays and not self.pushed and not self.then_under_way


def explain(
    view: TurnView, seen: Observation, *, depth: int = CHAIN_DEPTH, not_before: int = LONG_AGO, top: bool = True
) -> list[Reading]:
    """The readings of the nest that follow what the mover did with later moves, up to
    ``depth`` moves: a move the nest shows made, and after it the other side's move
    begun or made; a capture no scan saw, shown by the reply to it. Below the ``top`` a
    move begun is a weak reading. A single move with nothing after it is left to
    :meth:`TurnView.finished`. ``not_before``: the first move began no earlier."""
    readings: list[Reading] = []
    # Once one move follows another, a flicker proves a capture only as a capture makes it.
    chained = replace(seen, evidence=seen.prompt_evidence)
    for first, ended, certain, unseen, refilled in _first_moves(view, seen, not_before):
        after = view.after(first)
        if after.is_over:
            continue
        cells = view.footprints[first].cells
        # A capture whose cell a later move filled again is read only from later moves
        # made, legal and whole: a piece put back where it was shows the same.
        if not refilled and after.has_begun(chained, not_before=ended, set_down=unseen and top):
            lifted, placed = after.difference(seen.occupied, seen.ignored)
            # Only a move seen made is read from the other side merely beginning to move.
            weak = unseen or not top
            readings.append(
                Reading(
                    (first,),
                    is_certain=certain,
                    then_under_way=True,
                    is_weak=weak,
                    cells=cells | lifted | placed,
                    sets_down=bool(placed),
                )
            )
        elif not top and not refilled and after.lifts_only_captures(chained, not_before=ended):
            # After a reply, the mover lifting the piece it captures before its capturer
            # (or a hand straightening it): too little to read, enough to disagree with.
            lifted, _ = after.difference(seen.occupied, seen.ignored)
            readings.append(
                Reading((first,), is_certain=certain, then_under_way=True, is_weak=True, cells=cells | lifted)
            )
        for reply in after.finished(chained, not_before=ended):
            certain_too = reply.is_certain and certain
            done = _shown_at(after, reply.move, seen)
            touched = cells | after.footprints[reply.move].cells | reply.strays | reply.pushed
            readings.append(
                Reading((first, reply.move), reply.strays, reply.pushed, certain_too, replied_at=done, cells=touched)
            )
        readings += _unseen_endings(after, first, seen, ended, cells)
        if depth > 2:
            readings += [
                Reading((first, *later.moves), later.strays, later.pushed, later.is_certain and certain,
                        later.then_under_way, _shown_at(after, later.moves[0], seen), later.is_weak,
                        cells | later.cells, later.is_ending, later.sets_down)
                for later in explain(after, chained, depth=depth - 1, not_before=ended, top=False)
            ]  # fmt: skip
    return readings


def _unseen_endings(
    after: TurnView, first: Move, seen: Observation, ended: int, cells: frozenset[str]
) -> list[Reading]:
    """The readings in which ``first`` was answered by a capture no scan saw that ended
    the game: nothing follows it to prove it, but nothing tells it from another reading
    either. They only stand against others: the players are asked."""
    lifted, placed = after.difference(seen.occupied, seen.ignored)
    if placed:
        return []
    endings = []
    for move in after.captures:
        footprint = after.footprints[move]
        if footprint.empties != lifted or footprint.fills or not footprint.proofs <= seen.occupied:
            continue
        if any(seen.since(cell) < ended for cell in footprint.empties) or not after.after(move).is_over:
            continue
        if any(seen.evidence(origin, target) for origin in footprint.empties for target in footprint.proofs):
            continue  # seen made: a reply finished, read as one
        board = after.position.board
        near = [
            cell for cell in seen.occupied if any(board.distance(cell, origin) <= 2 for origin in footprint.empties)
        ]
        if any(
            seen.prompt_evidence(origin, cell) and seen.landed(origin, cell)
            for origin in footprint.empties
            for cell in near
        ):
            continue  # the piece pushed another off as it landed, elsewhere: not this one
        endings.append(Reading((first, move), is_certain=False, cells=cells | footprint.cells, is_ending=True))
    return endings


def _shown_at(view: TurnView, move: Move, seen: Observation) -> int:
    """When the nest came to show ``move`` made (its cells' last changes)."""
    footprint = view.footprints[move]
    return max(seen.since(cell) for cell in footprint.empties | footprint.fills | (footprint.proofs & seen.occupied))


def _first_moves(view: TurnView, seen: Observation, not_before: int) -> list[tuple[Move, int, bool, bool, bool]]:
    """The moves the mover may have made before the other side began: each with the
    moment the other side's move cannot have begun before, whether it is certain,
    whether it is a capture no scan saw, and whether its cell was filled again since.
    A move whose footprint the nest shows, whatever else it shows; or a capture of a
    lifted piece with no evidence."""
    firsts = []
    lifted, placed = view.difference(seen.occupied, seen.ignored)
    for move in view.moves:
        footprint = view.footprints[move]
        if not footprint.fills <= placed:
            continue
        if not footprint.empties <= lifted:
            # A capture no scan saw whose capturer's cell a later move has filled again:
            # its piece left during this turn, and its target is as the capture left it.
            refilled = footprint.empties - lifted
            if (
                footprint.proofs
                and footprint.proofs <= seen.occupied | lifted
                and all(seen.emptied(cell) >= not_before for cell in refilled)
                and not any(
                    seen.evidence(origin, target) for origin in footprint.empties for target in footprint.proofs
                )
            ):
                firsts.append((move, min(seen.emptied(cell) for cell in footprint.empties), True, True, True))
            continue
        # (The reply began after the mover's piece left, though a later move may have
        # slid across the cell it left since: its landing cell may have changed again
        # since, the reply capturing it.)
        left = min(seen.left(cell) for cell in footprint.empties)
        if left < not_before or any(seen.since(cell) < left - SLIDE_MS for cell in footprint.fills):
            continue
        if not footprint.proofs <= seen.occupied:
            # The capturer landed, and the reply has lifted it again, to capture it? Seen
            # landing, or not.
            if all(seen.landed(origin, target) for origin in footprint.empties for target in footprint.proofs):
                firsts.append((move, left, True, True, False))  # (as good as unseen: no flicker to go by)
            elif footprint.proofs <= lifted:
                firsts.append((move, left, True, True, False))
            continue
        # (Followed by another move, a flicker on the target proves the capture only if it
        # came as the capture does: a later one may be the other player's touch.)
        proofs = [seen.prompt_evidence(origin, target) for origin in footprint.empties for target in footprint.proofs]
        if proofs and not all(proofs):  # no evidence: perhaps a capture no scan saw
            firsts.append((move, left, True, True, False))
            continue
        certain = not (footprint.empties | footprint.fills) & seen.ignored and all(proof is True for proof in proofs)
        firsts.append((move, left, certain, False, False))
    # A capture the nest shows made by its evidence leaves no doubt that the same piece
    # made another one unseen.
    # (Only a capture made as hands make one: its capturer landed within land_ms.)
    proven = {
        move.origin
        for move, _, _, unseen, _ in firsts
        if view.footprints[move].proofs
        and not unseen
        and all(
            seen.landed(origin, target)
            for origin in view.footprints[move].empties
            for target in view.footprints[move].proofs
        )
    }
    return [first for first in firsts if not (first[3] and first[0].origin in proven)]


def captures_in_the_air(view: TurnView, seen: Observation) -> list[tuple[Move, Footprint]]:
    """The captures no scan saw that the nest may show made: their capturer lifted,
    their target in place (or in the air since: the other side capturing the capturer)."""
    lifted, _ = view.difference(seen.occupied, seen.ignored)
    found = []
    for move in view.captures:
        footprint = view.footprints[move]
        if footprint.empties <= lifted and footprint.proofs <= seen.occupied | lifted:
            found.append((move, footprint))
    return found


def unseen_and_lifting(view: TurnView, seen: Observation) -> tuple[Move, ...]:
    """The captures no scan saw that the mover may have made, after which the other
    side has lifted pieces (a reply begun, perhaps, its capturer in the air, or the
    captured capturer; perhaps the mover lifting the piece it captures)."""
    return tuple(
        move
        for move, footprint in captures_in_the_air(view, seen)
        if view.after(move).is_lifting(seen, not_before=min(seen.since(cell) for cell in footprint.empties))
    )
