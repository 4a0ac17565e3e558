"""Reading one turn: what the nest shows, decided each time it has been still.

A fresh :class:`Turn` is made when a turn begins (and again when it goes on after the
nest was put right). Each time the nest has been still for ``settle_ms`` it explains
what the nest shows, legal readings first (``docs/referee.md`` has the table):

1. a legal move made, with perhaps some of the mover's own pieces held in the air: it
   is committed (once those are back, or ``hold_ms`` later, when they are asked for;
   ``rest_ms`` later if the piece could still slide on);
2. a move made, and the other side's reply under way or made, or a capture that no
   scan saw and the reply shows: the mover's move is committed, and then the reply;
3. a legal move under way (pieces the mover may lift in the air): wait; a capture that
   may have been made unseen is asked about after ``ask_ms``;
4. only pieces off their cells that the mover may not lift (knocked off): after
   ``hold_ms`` the players are asked to put them back, which is no refusal;
5. anything else: refused, once the hands have had ``extend_ms`` to finish (at once
   for one piece plainly moved where it may not go), naming the move attempted.

Where more than one reading fits and nothing left to happen can tell them apart, it
asks.
"""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING, Any

from firmware_host.games.base import Move
from firmware_host.referee.correction import undo_capture
from firmware_host.referee.sensing import LONG_AGO
from firmware_host.referee.signals import (
    CorrectionCause,
    FixKind,
    FixStep,
    MoveQuestion,
    MoveRefused,
    QuestionClosed,
    Signal,
    StrikeAnnounced,
)
from firmware_host.referee.tracker import (
    SLIDE_MS,
    Finished,
    Observation,
    Reading,
    TurnView,
    captures_in_the_air,
    explain,
    unseen_and_lifting,
)

if TYPE_CHECKING:
    from firmware_host.referee.referee import Referee

ATTEMPT_REACH = 2  # a piece "captured" farther away than this was only touched


class Turn:
    """The phase in which the side to move makes its move."""

    def __init__(self, referee: Referee, view: TurnView, *, began: int) -> None:
        """The turn of ``view``'s position, begun at ``began`` with the nest showing it."""
        self.referee = referee
        self.view = view
        self.began = began
        self.question: tuple[Move, ...] | None = None
        self.candidate: Move | None = None  # the move the nest last showed made, cleanly
        # Captures the nest has shown possibly made with no scan seeing them (only a
        # capturer lifted, its target in place), since it last showed the position: what
        # follows may be moves made after one, that the nest cannot show one by one.
        self.doubts: set[Move] = set()
        # Cells empty in the position that pieces were set down on this turn: a reading of
        # several moves must account for each done lately (a piece set down where no
        # move of it goes was another hand's doing: an illegal move, maybe undone since).
        self.visited: set[str] = set()
        # When each cell of the position first emptied this turn: a piece lifted, put
        # back and lifted again may have been on its way since the first time.
        self.first_emptied: dict[str, int] = {}
        self.refilled: dict[str, int] = {}  # and when a piece was last set down on it again
        self.announced: Move | None = None  # the strike announced this turn: the only move now
        self.announced_at = LONG_AGO
        self.moving_in: str | None = None  # the square the announced strike's striker moves in to

    # -- what the referee asks of a phase ---------------------------------------------

    def on_change(self, at: int, cell: str, *, settled: bool) -> list[Signal]:
        """A change on ``cell``: ``settled``, or a glitch that ended (it may be the
        flicker that proves a capture). Decisions wait for the nest to be still, with
        one exception: once the nest showed a move made (the candidate), a settled
        change away from its cells that the other side's move explains is the other side
        starting, so the mover was done."""
        view, seen = self.view, self.referee.observation()
        hidden = self._hidden_pieces(at, seen, settled=settled)
        if hidden is not None:
            return hidden
        if settled and cell in seen.occupied and cell not in view.expected:
            self.visited.add(cell)
        if cell in view.expected and cell not in seen.occupied:
            self.first_emptied.setdefault(cell, seen.emptied(cell))
        elif settled and cell in self.first_emptied:
            self.refilled[cell] = seen.since(cell)
        candidate = self.candidate
        if (
            settled
            and candidate is not None
            and cell not in view.footprints[candidate].cells
            # (a cell the mover's piece may still slide on to is its own doing, perhaps)
            and not any(cell in view.path.get(origin, ()) for origin in view.footprints[candidate].empties)
        ):
            after = view.after(candidate)
            began = not after.is_over and (after.has_begun(seen) or after.finished(seen))
            if began and view.shows(candidate, seen):
                signals = self.referee.commit(candidate, at, proven=self._proof_is_its_own(candidate, seen))
                return signals + self.referee.phase.on_change(at, cell, settled=settled)
        done = [reading for reading in view.finished(seen) if not self._awaits_winner(reading.move, seen)]
        if (
            len(done) == 1
            and done[0].is_clean
            and done[0].is_certain
            and not self._late_proof(done[0].move, seen)
            and all(move == done[0].move for move in self._slid_unseen(alone=True))
        ):
            self.candidate = done[0].move
        elif done or view.matches_exactly(seen) or (candidate is not None and not view.shows(candidate, seen)):
            self.candidate = None  # another move, all put back, or the mover changing its mind
        return []

    def _hidden_pieces(self, at: int, seen: Observation, *, settled: bool) -> list[Signal] | None:
        """What a game that hides its pieces asks of a change, if anything: two of the
        mover's pieces off their squares at once are refused (put down, they could be
        on each other's squares, and the switches cannot tell: a rank would be guessed);
        a strike begun (the striker lifted, and the struck piece lifted or touched) is
        announced, and is the only move from then on."""
        referee, view = self.referee, self.view
        if referee.hiding is None and referee.announcer is None:
            return None  # a game that hides nothing (Operation Cuckoo)
        lifted, _ = view.difference(seen.occupied, seen.ignored)
        if referee.hiding is not None and settled and len(lifted & view.own) > 1:
            cells = sorted(lifted & view.own, key=referee.board.index)
            reason = (
                f"{' and '.join(cells)} were lifted together: the switches cannot tell one piece from the other;"
                " put each back on its own square"
            )
            steps = tuple(FixStep(FixKind.PLACE, None, cell, view.pieces[cell]) for cell in cells)
            self.question = None
            return [MoveRefused(None, None, reason), *referee.enter_correction(CorrectionCause.ILLEGAL_MOVE, at, steps)]
        announcer = referee.announcer
        if announcer is None or self.announced is not None:
            return None
        begun = [
            move
            for move in view.moves
            if move.is_capture
            and move.origin in lifted
            and move.target is not None
            and (move.target in lifted or seen.evidence(move.origin, move.target) is True)
        ]
        if len(begun) != 1:
            return None  # none yet, or several struck pieces touched: the nest tells more later
        (move,) = begun
        announcement = announcer.announce_capture(view.position, move)
        self.announced, self.announced_at = move, at
        if move.target in announcement.removed and announcement.winner_on == move.target:
            self.moving_in = move.target  # the struck piece to take off, the striker to put down
        self.view = TurnView(view.position, lenient=view.lenient, only=(move,))
        return [StrikeAnnounced(move, view.side, announcement.words, announcement.removed, announcement.winner_on)]

    def _awaits_winner(self, move: Move, seen: Observation) -> bool:
        """Whether ``move`` is the strike announced, its striker winning, and the struck
        square has not been emptied since the announcement and filled again: touched,
        the struck piece still stands there, and the switches read the same as when the
        striker is put down on it."""
        cell = self.moving_in
        if move != self.announced or cell is None:
            return False
        return not (cell in seen.occupied and self.referee.sensors.was_empty_since(cell, self.announced_at, grace=0))

    def deadline(self) -> int | None:
        return None

    def on_deadline(self, at: int) -> list[Signal]:
        return []

    def on_quiet(self, at: int) -> list[Signal]:
        """The nest has been still for ``settle_ms`` (or a wait asked for is over)."""
        asked = self.question
        signals = self._decide(at)
        if self.referee.phase is not self:
            return signals
        expiry = self._next_visit_expiry(at)
        if expiry is not None:  # what the nest shows may read otherwise then: decide again
            self.referee.decide_by(expiry)
        if asked is not None and self.question is None:
            return [QuestionClosed(), *signals]  # whatever was asked no longer stands
        return signals

    # -- deciding -----------------------------------------------------------------------

    def _decide(self, at: int) -> list[Signal]:
        view, seen = self.view, self.referee.observation()
        lifted, placed = view.difference(seen.occupied, seen.ignored)
        if not lifted and not placed:
            self.doubts.clear()  # all back as it was: whatever was in doubt was not made
        elif len(lifted) == 1 and not placed:  # what a capture no scan saw looks like
            self.doubts.update(view.unseen_captures(seen))
        visits = self._visits(at)
        done = [
            reading
            for reading in view.finished(seen)
            if self._accounts_for((reading.move,), visits, seen) and not self._awaits_winner(reading.move, seen)
        ]
        late = self._late_proof(done[0].move, seen) if len(done) == 1 else ()
        if done and not late:
            return self._finished(done, at)
        if not lifted and not placed:
            self.question = None
            return []
        readings = [
            reading
            for reading in explain(view, seen, not_before=self.began)
            if self._accounts_for(reading.moves, visits, seen, extra=reading.cells, reach=0)
            and not self._awaits_winner(reading.moves[0], seen)
        ]
        replied = any(not reading.then_under_way for reading in readings)
        if readings and (replied or not view.is_under_way(seen)):
            return self._followed(readings, at)
        if late:  # a late flicker, or a capture no scan saw: what follows may tell
            return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(late)
        if view.is_under_way(seen):  # the mover's move may still be going on
            return self._under_way(seen, at)
        # (A piece set down names the move made; a capture is read only without one.)
        attempt = None if placed else self._attempted_capture(seen, lifted)
        if not placed:
            # A capture no scan saw, and then the other side lifting pieces, or touching
            # one that looks captured: a reply begun, perhaps (legal readings first). If
            # nothing tells within ask_ms, the player is asked.
            options = unseen_and_lifting(view, seen) or (view.unseen_captures(seen) if attempt else ())
            if options:
                return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(options)
            if attempt is None:
                return self._disturbed(at)
        plainly_moved = attempt is None and len(lifted) == 1 and len(placed) == 1
        if not plainly_moved and self._waiting(at, self.referee.timing.extend_ms):
            return []  # pieces in the air or several set down: the hands may not be done
        return self._refuse_unless_in_doubt(at, seen, attempt)

    def _refuse_unless_in_doubt(self, at: int, seen: Observation, attempt: Move | None) -> list[Signal]:
        """Refuse what the nest shows; but while a piece is off its cell that may have
        made a capture no scan saw, what the nest shows may be legal moves made after it
        that it cannot show one by one: the player is asked about that capture instead."""
        doubts = self._doubted()
        if doubts:
            return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(doubts)
        self.question = None
        return self._refuse(at, seen, attempt)

    def _visits(self, at: int) -> set[str]:
        """The cells visited that a reading must account for: those that changed within
        ``undo_ms`` (an illegal move is undone within that) or are still occupied."""
        sensors, recent = self.referee.sensors, at - self.referee.timing.undo_ms
        return {cell for cell in self.visited if cell in sensors.settled or sensors.last_change[cell] >= recent}

    def _next_visit_expiry(self, at: int) -> int | None:
        """When the next cell visited but empty again drops out of :meth:`_visits` (its
        last change ``undo_ms`` old), if any does."""
        sensors, undo_ms = self.referee.sensors, self.referee.timing.undo_ms
        ends = [
            sensors.last_change[cell] + undo_ms + 1
            for cell in self.visited
            if cell not in sensors.settled and sensors.last_change[cell] + undo_ms > at
        ]
        return min(ends, default=None)

    def _late_proof(self, move: Move, seen: Observation) -> tuple[Move, ...]:
        """For a capture proved only by a flicker later than a capturer lands, while the
        same piece may have made another capture that no scan saw: the captures it may
        have been (the flicker may be another hand's touch). Else nothing."""
        footprint = self.view.footprints[move]
        if not footprint.proofs or all(
            seen.prompt_evidence(origin, target) and not self._came_back_late(origin, target, seen)
            for origin in footprint.empties
            for target in footprint.proofs
        ):
            return ()
        others = [other for other in self.view.unseen_captures(seen) if other.origin == move.origin and other != move]
        return (move, *others) if others else ()

    def _came_back_late(self, origin: str, target: str, seen: Observation) -> bool:
        """Whether a piece was set down on the capturer's cell after its target was
        lifted (maybe the target's, in another hand) and lifted again, and the target
        filled later than a capturer lands after the capturer first left."""
        first = self.first_emptied.get(origin, seen.emptied(origin))
        if not seen.emptied(target) < self.refilled.get(origin, LONG_AGO) < seen.emptied(origin):
            return False
        return seen.since(target) > first + self.referee.timing.land_ms

    def _accounts_for(
        self,
        moves: tuple[Move, ...],
        visits: set[str],
        seen: Observation,
        *,
        extra: frozenset[str] = frozenset(),
        reach: int = 1,
    ) -> bool:
        """Whether ``moves``, made in turn from the view's position, explain the cells
        visited lately: each on a move's way, or within ``reach`` of it (a hand touching
        down as it carries a piece, a piece pushed aside), while that move was being made
        (from its piece leaving to its coming to rest); or among ``extra`` but for the
        cells of ``moves`` (those of a move still under way after them); or resting where
        it was set down after them. (A reading of several moves is held to their ways: so
        many hands beside so many cells would explain anything.)"""
        board, view, land_ms = self.referee.board, self.view, self.referee.timing.land_ms
        unexplained = set(visits)
        for move in moves:
            footprint = view.footprints[move]
            left = min(seen.emptied(cell) for cell in footprint.empties) if footprint.empties else LONG_AGO
            # The move is over once its piece rests where it goes (a capture no scan saw
            # shows no landing: as late as a capturer lands).
            rested = [seen.since(cell) for cell in footprint.fills | footprint.proofs if cell in seen.occupied]
            over = max(max(rested, default=LONG_AGO), left + land_ms if not footprint.fills else LONG_AGO) + SLIDE_MS
            unexplained = {
                visit
                for visit in unexplained
                if not (
                    left - SLIDE_MS <= seen.since(visit) <= over
                    and any(board.distance(visit, cell) <= reach for cell in footprint.cells)
                )
            }
            extra -= footprint.cells
            view = view.after(move)
        # A piece resting where it was set down after the moves is the next move's doing.
        _, placed = view.difference(seen.occupied, seen.ignored)
        return not unexplained - extra - placed

    def _waiting(self, at: int, ms: int) -> bool:
        """Whether to wait until ``ms`` after the last change: then it is decided again."""
        due = self.referee.last_change + ms
        if at >= due:
            return False
        self.referee.decide_at(due)
        return True

    def _finished(self, done: list[Finished], at: int) -> list[Signal]:
        timing = self.referee.timing
        slid = tuple(move for move in self._slid_unseen(alone=True) if move not in [reading.move for reading in done])
        if slid:  # the piece slid the way of a capture no scan saw: that may be the one made
            options = (*(reading.move for reading in done), *slid)
            return [] if self._waiting(at, timing.ask_ms) else self._ask(options)
        if len(done) == 1 and done[0].is_certain:
            (move,) = [done[0].move]
            if not done[0].is_clean:
                # The mover holds another piece, straightening it: the move stands once
                # it is back, or the players are asked to put it back.
                if self._waiting(at, timing.hold_ms):
                    return []
                return self.referee.commit(move, at, announce=False) + self.referee.after_strays(at)
            if move in self.view.extendable and self._waiting(at, timing.rest_ms):
                return []  # the piece may still slide on
            if move in self.view.first_parts and self._waiting(at, timing.extend_ms):
                return []  # the mover's other piece may still follow (the king, castling)
            return self.referee.commit(move, at)
        if any(not reading.is_clean for reading in done) and self._waiting(at, timing.hold_ms):
            return []  # the pieces held may yet tell which it was
        options = tuple(reading.move for reading in done)
        chosen = self.referee.game.default_choice(options)
        if chosen is not None and all(reading.is_certain for reading in done):
            # Moves the switches cannot tell apart (a pawn promoted): asked, and the
            # game's choice stands unless a player answers within ask_ms.
            if self._waiting(at, timing.ask_ms):
                return self._ask(options)
            return self.referee.commit(chosen, at)
        return self._ask(options)

    def _followed(self, readings: list[Reading], at: int) -> list[Signal]:
        """The other side has begun, or made its reply: what the mover did is read from
        what followed, when the readings agree. A reply that is legal after one capture
        no scan saw may be an illegal move after another, to be undone once it is
        refused: the legal reading is believed once the reply has stood ``undo_ms``."""
        firsts = tuple(dict.fromkeys(reading.moves[0] for reading in readings))
        endings = {reading.moves[0] for reading in readings if reading.is_ending}
        if endings - {reading.moves[0] for reading in readings if not reading.is_ending}:
            # An unseen capture may have ended the game instead: nothing will follow to
            # tell (or a piece is only in the air: wait a little first).
            return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(firsts)
        readings = [reading for reading in readings if not reading.is_ending]
        firsts = tuple(dict.fromkeys(reading.moves[0] for reading in readings))
        chosen = self.referee.game.default_choice(firsts)
        if chosen is not None:  # the other side goes on: the game's choice stands (a queen)
            readings = [reading for reading in readings if reading.moves[0] == chosen]
            firsts = (chosen,)
        slid = tuple(move for move in self._slid_unseen() if move not in firsts)
        if slid:
            # The piece slid over the way of a capture no scan saw, not the way of the
            # ones read: it may have gone there.
            return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(firsts + slid)
        certain = all(reading.is_certain for reading in readings)
        # A reply made shows what came before it, whatever its own side did next (but
        # for a piece set down since, which may be any hand's doing; and, once the
        # player was asked, only a reply no other option allows: hands touching the
        # pieces after it may be all that leaves one reading of the later moves).
        replied = [
            reading
            for reading in readings
            if not reading.then_under_way
            or (len(reading.moves) > 1 and not reading.sets_down and self._reply_tells(reading.moves))
        ]
        # Once the player was asked, the other side merely beginning to move settles
        # nothing: hands touching the pieces while the question stands look like that too.
        begun_tells = self.question is None or bool(replied)
        if len(firsts) == 1 and certain and not all(reading.is_weak for reading in readings) and begun_tells:
            return self._commit_then_go_on(firsts[0], at)
        if not replied:
            return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(firsts)
        if self.question is not None and len(firsts) > 1:
            return self._ask(firsts)  # asked already, and what followed fits more than one
        legal = tuple(dict.fromkeys(reading.moves[0] for reading in replied))
        if len(legal) == 1 and all(reading.is_certain for reading in replied):
            stood = min(reading.replied_at for reading in replied) + self.referee.timing.undo_ms
            if at >= stood:
                return self._commit_then_go_on(legal[0], at)
            self.referee.decide_at(stood)
            return []
        return self._ask(firsts)

    def _reply_tells(self, moves: tuple[Move, ...]) -> bool:
        """Whether the reply ``moves[1]`` is legal after no option asked about but the
        move ``moves[0]`` it follows (any reply tells while nothing is asked)."""
        first, reply = moves[0], moves[1]
        options = self.question or ()
        return all(reply not in self.view.after(option).moves for option in options if option != first)

    def _slid_unseen(self, *, alone: bool = False) -> tuple[Move, ...]:
        """The captures no scan saw that a lifted piece may have made: over a cell it
        would slide across that was set down on after it first left this turn, and
        soon after it last left. ``alone``: with nothing after it, so that every piece
        set down is the captured one pushed aside."""
        seen, land_ms, board = self.referee.observation(), self.referee.timing.land_ms, self.referee.board
        _, placed = self.view.difference(seen.occupied, seen.ignored)
        found = []
        for move, footprint in captures_in_the_air(self.view, seen):
            if alone and not all(
                cell not in footprint.passes and any(board.distance(cell, target) <= 1 for target in footprint.proofs)
                for cell in placed
            ):
                continue  # a piece set down where this capture leaves none
            first = min(self.first_emptied.get(cell, seen.emptied(cell)) for cell in footprint.empties)
            left = max(seen.emptied(cell) for cell in footprint.empties)
            # (A crossed cell still occupied is no sign of this capture: the captured
            # piece is pushed on, away from the way the capturer came.)
            crossed = {cell for cell in footprint.passes & self.visited if cell not in seen.occupied}
            if any(first <= seen.since(cell) <= left + land_ms for cell in crossed):
                found.append(move)
        return tuple(found)

    def _commit_then_go_on(self, move: Move, at: int) -> list[Signal]:
        seen = self.referee.observation()
        footprint = self.view.footprints[move]
        seen_made = all(seen.evidence(origin, target) for origin in footprint.empties for target in footprint.proofs)
        signals = self.referee.commit(move, at, proven=seen_made and self._proof_is_its_own(move, seen))
        return signals + self.referee.decide_now(at)  # the reply is on the nest already

    def _proof_is_its_own(self, move: Move, seen: Observation) -> bool:
        """Whether the flicker that proves capture ``move`` came well before the other
        side began to move: one that came just as it did (within ``capture_grace_ms``)
        may be the reply's own capture pushing a piece off; it is not used up."""
        footprint = self.view.footprints[move]
        if not footprint.proofs:
            return True
        lifted, _ = self.view.difference(seen.occupied, seen.ignored)
        others = lifted - footprint.empties
        if not others:
            return True
        sensors, grace = self.referee.sensors, self.referee.timing.capture_grace_ms
        began = min(seen.since(cell) for cell in others)
        left = min(seen.emptied(cell) for cell in footprint.empties)
        return all(sensors.first_burst_end(target, left - grace) < began - grace for target in footprint.proofs)

    def _under_way(self, seen: Observation, at: int) -> list[Signal]:
        timing = self.referee.timing
        if self.view.is_resting_between(seen):
            if self._waiting(at, timing.extend_ms):
                return []  # a slide may go on
            return self._refuse_unless_in_doubt(at, seen, None)
        lifted, _ = self.view.difference(seen.occupied, seen.ignored)
        options = self.view.unseen_captures(seen)
        attempt = self._attempted_capture(seen, lifted)
        if attempt is not None and not self.view.captures_under_way(seen):
            if self._waiting(at, timing.extend_ms):
                return []
            return self._refuse_unless_in_doubt(at, seen, attempt)
        if not options:
            self.question = None
            return []  # a move under way
        # The capturer may have landed with no scan seeing the captured piece go: the
        # other side's reply would show it. Until then, after ask_ms, the player is asked.
        if self._waiting(at, timing.ask_ms):
            return []
        return self._ask(options)

    def _disturbed(self, at: int) -> list[Signal]:
        """Only pieces lifted, some that the side to move may not lift: knocked off, or in
        another player's hand. Nothing was played; after ``hold_ms`` they are asked for,
        unless a capture no scan saw may explain them (:meth:`_doubted`)."""
        doubts = self._doubted()
        if doubts:
            return [] if self._waiting(at, self.referee.timing.ask_ms) else self._ask(doubts)
        if self._waiting(at, self.referee.timing.hold_ms):
            return []
        self.question = None
        return self.referee.enter_correction(CorrectionCause.DISTURBED, at)

    def _doubted(self) -> tuple[Move, ...]:
        """The captures the nest showed possibly made unseen, since it last showed the
        position, when other pieces than their capturers are off their cells now: what
        the nest shows may be the moves made after one of them."""
        seen = self.referee.observation()
        lifted, _ = self.view.difference(seen.occupied, seen.ignored)
        if not lifted - {move.origin for move in self.doubts}:
            return ()
        return tuple(sorted(self.doubts, key=str))

    def _ask(self, options: tuple[Move, ...]) -> list[Signal]:
        if self.question == options:
            return []
        self.question = options
        return [MoveQuestion(options)]

    # -- refusing -----------------------------------------------------------------------

    def _attempted_capture(self, seen: Observation, lifted: Set[str]) -> Move | None:
        """A capture the nest shows made, though not a legal one: a piece lifted, and a
        piece of the other side near it whose cell read empty since and holds a piece
        again (the capturer). The mover's pieces first; then the other side's, out of
        turn.

        A piece "capturing" one of its own side shows nothing this does not: lifting two
        pieces and putting one back looks the same."""
        view, board, game = self.view, self.referee.board, self.referee.game
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

    def _refuse(self, at: int, seen: Observation, attempt: Move | None) -> list[Signal]:
        refused, steps = self._diagnose(seen, attempt)
        cause = CorrectionCause.ILLEGAL_MOVE if refused.attempt is not None else CorrectionCause.DISTURBED
        return [refused, *self.referee.enter_correction(cause, at, steps)]

    def _diagnose(self, seen: Observation, attempt: Move | None) -> tuple[MoveRefused, tuple[FixStep, ...] | None]:
        """What the nest shows, as a refused move, and the first plan to undo it."""
        view, board = self.view, self.referee.board
        lifted, placed = view.difference(seen.occupied, seen.ignored)
        if attempt is not None:  # an illegal capture
            refusal = self._refusal(attempt)
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
                move = self.referee.game.move(origin, cell, capture=False)
                refusal = self._refusal(move)
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
            rule = self.referee.game.not_your_turn if not lifted & view.own else None
            return MoveRefused(None, rule, reason), None
        return MoveRefused(None, None, f"the {piece.label} on {cell} was lifted"), None

    def _refusal(self, move: Move) -> tuple[Any, str] | None:
        """Why ``move`` is refused now: the rule it breaks; or, on the computer's turn,
        that it is not the computer's move. None if it is accepted."""
        view = self.view
        illegal = view.position.check_move(move, lenient=view.lenient)
        if illegal is not None:
            return illegal.rule, illegal.reason
        if self.announced is not None and move != self.announced:
            return None, f"the strike {self.announced} is announced: it stands"
        if move in view.moves:
            return None
        computer_move = self.referee.computer_move
        if computer_move is not None:
            return None, f"the computer plays {computer_move}"
        return None, "the computer is choosing its move: wait for it"

    # -- commands -----------------------------------------------------------------------

    def shown_move(self) -> Move | None:
        """The move the nest shows made right now, cleanly and for certain, if any: it
        stands when a control is pressed before it was committed."""
        seen = self.referee.observation()
        done = self.view.finished(seen)
        if len(done) == 1 and done[0].is_clean and done[0].is_certain and not self._awaits_winner(done[0].move, seen):
            return done[0].move
        return None

    def answer(self, move: Move, at: int) -> list[Signal]:
        """The player says which of the options asked about was made."""
        proven = move in [done.move for done in self.view.finished(self.referee.observation())]
        signals = self.referee.commit(move, at, proven=proven)
        self.referee.decide_at(at)  # the reply may be on the nest already
        return signals
