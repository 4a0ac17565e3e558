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

from firmware_host.games.base import Move
from firmware_host.referee.decisions import (
    NOTHING,
    Ask,
    CloseQuestion,
    Commit,
    Correct,
    Decisions,
    Table,
    Then,
    WaitUntil,
)
from firmware_host.referee.refusal import attempted_capture, diagnose
from firmware_host.referee.sensing import LONG_AGO
from firmware_host.referee.signals import CorrectionCause, FixKind, FixStep, MoveRefused, StrikeAnnounced
from firmware_host.referee.traces import Traces
from firmware_host.referee.tracker import (
    Finished,
    Observation,
    Reading,
    TurnView,
    explain,
    unseen_and_lifting,
)


class Turn:
    """The phase in which the side to move makes its move."""

    def __init__(self, table: Table, view: TurnView, *, began: int) -> None:
        """The turn of ``view``'s position, begun at ``began`` with the nest showing it."""
        self.table = table
        self.game, self.board, self.timing, self.sensors = table.game, table.game.board, table.timing, table.sensors
        self.hides_pieces = table.game.setups is not None  # ranks set up privately: two lifted cannot be told apart
        self.announcer = table.game.announcer
        self.view = view
        self.began = began
        self.question: tuple[Move, ...] | None = None
        self.candidate: Move | None = None  # the move the nest last showed made, cleanly
        self.traces = Traces(self.sensors, self.timing, self.board)  # what the hands did this turn
        self.announced: Move | None = None  # the strike announced this turn: the only move now
        self.announced_at = LONG_AGO
        self.moving_in: str | None = None  # the square the announced strike's striker moves in to

    # -- what the referee asks of a phase (it applies the decisions returned) ----------

    def on_change(self, at: int, cell: str, *, settled: bool) -> Decisions:
        """A change on ``cell``: ``settled``, or a glitch that ended (it may be the
        flicker that proves a capture). Decisions wait for the nest to be still, with
        one exception: once the nest showed a move made (the candidate), a settled
        change away from its cells that the other side's move explains is the other side
        starting, so the mover was done."""
        view, seen = self.view, self.table.observation()
        hidden = self._hidden_pieces(at, seen, settled=settled)
        if hidden is not None:
            return hidden
        self.traces.note(view, seen, cell, settled=settled)
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
                # (The change is the next turn's to read.)
                return (Commit(candidate, self.traces.proof_is_its_own(view, candidate, seen), Then.PASS_CHANGE_ON),)
        done = [reading for reading in view.finished(seen) if not self._awaits_winner(reading.move, seen)]
        if (
            len(done) == 1
            and done[0].is_clean
            and done[0].is_certain
            and not self.traces.late_proof(self.view, done[0].move, seen)
            and all(move == done[0].move for move in self.traces.slid_unseen(view, seen, alone=True))
        ):
            self.candidate = done[0].move
        elif done or view.matches_exactly(seen) or (candidate is not None and not view.shows(candidate, seen)):
            self.candidate = None  # another move, all put back, or the mover changing its mind
        return NOTHING

    def _hidden_pieces(self, at: int, seen: Observation, *, settled: bool) -> Decisions | None:
        """What a game that hides its pieces asks of a change, if anything: two of the
        mover's pieces off their squares at once are refused (put down, they could be
        on each other's squares, and the switches cannot tell: a rank would be guessed);
        a strike begun (the striker lifted, and the struck piece lifted or touched) is
        announced, and is the only move from then on."""
        view, announcer = self.view, self.announcer
        if not self.hides_pieces and announcer is None:
            return None  # a game that hides nothing (Operation Cuckoo)
        lifted, _ = view.difference(seen.occupied, seen.ignored)
        if self.hides_pieces and settled and len(lifted & view.own) > 1:
            cells = sorted(lifted & view.own, key=self.board.index)
            reason = (
                f"{' and '.join(cells)} were lifted together: the switches cannot tell one piece from the other;"
                " put each back on its own square"
            )
            steps = tuple(FixStep(FixKind.PLACE, None, cell, view.pieces[cell]) for cell in cells)
            self.question = None
            return (Correct(CorrectionCause.ILLEGAL_MOVE, steps, MoveRefused(None, None, reason)),)
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
        return (StrikeAnnounced(move, view.side, announcement.words, announcement.removed, announcement.winner_on),)

    def _awaits_winner(self, move: Move, seen: Observation) -> bool:
        """Whether ``move`` is the strike announced, its striker winning, and the struck
        square has not been emptied since the announcement and filled again: touched,
        the struck piece still stands there, and the switches read the same as when the
        striker is put down on it."""
        cell = self.moving_in
        if move != self.announced or cell is None:
            return False
        return not (cell in seen.occupied and self.sensors.was_empty_since(cell, self.announced_at, grace=0))

    def deadline(self) -> int | None:
        return None

    def on_deadline(self, at: int) -> Decisions:
        return NOTHING

    def on_quiet(self, at: int) -> Decisions:
        """The nest has been still for ``settle_ms`` (or a wait asked for is over)."""
        asked = self.question
        decisions = self._decide(at)
        if decisions and isinstance(decisions[-1], Commit | Correct):
            return decisions  # the turn is over: the next phase decides for itself
        expiry = self.traces.next_visit_expiry(at)
        if expiry is not None:  # what the nest shows may read otherwise then: decide again
            decisions = (*decisions, WaitUntil(expiry))
        if asked is not None and self.question is None:
            return (CloseQuestion(), *decisions)  # whatever was asked no longer stands
        return decisions

    # -- deciding -----------------------------------------------------------------------

    def _decide(self, at: int) -> Decisions:
        view, seen = self.view, self.table.observation()
        lifted, placed = view.difference(seen.occupied, seen.ignored)
        self.traces.note_still(view, seen, lifted, placed)
        visits = self.traces.visits(at)
        done = [
            reading
            for reading in view.finished(seen)
            if self.traces.accounts_for(view, (reading.move,), visits, seen)
            and not self._awaits_winner(reading.move, seen)
        ]
        late = self.traces.late_proof(self.view, done[0].move, seen) if len(done) == 1 else ()
        if done and not late:
            return self._finished(done, at)
        if not lifted and not placed:
            self.question = None
            return NOTHING
        readings = [
            reading
            for reading in explain(view, seen, not_before=self.began)
            if self.traces.accounts_for(view, reading.moves, visits, seen, extra=reading.cells, reach=0)
            and not self._awaits_winner(reading.moves[0], seen)
        ]
        replied = any(not reading.then_under_way for reading in readings)
        if readings and (replied or not view.is_under_way(seen)):
            return self._followed(readings, at)
        if late:  # a late flicker, or a capture no scan saw: what follows may tell
            return self._ask_after(at, late)
        if view.is_under_way(seen):  # the mover's move may still be going on
            return self._under_way(seen, at)
        # (A piece set down names the move made; a capture is read only without one.)
        attempt = None if placed else attempted_capture(self.view, seen, lifted, self.game)
        if not placed:
            # A capture no scan saw, and then the other side lifting pieces, or touching
            # one that looks captured: a reply begun, perhaps (legal readings first). If
            # nothing tells within ask_ms, the player is asked.
            options = unseen_and_lifting(view, seen) or (view.unseen_captures(seen) if attempt else ())
            if options:
                return self._ask_after(at, options)
            if attempt is None:
                return self._disturbed(at)
        plainly_moved = attempt is None and len(lifted) == 1 and len(placed) == 1
        if not plainly_moved and (wait := self._wait(at, self.timing.extend_ms)):
            return wait  # pieces in the air or several set down: the hands may not be done
        return self._refuse_unless_in_doubt(at, seen, attempt)

    def _refuse_unless_in_doubt(self, at: int, seen: Observation, attempt: Move | None) -> Decisions:
        """Refuse what the nest shows; but while a piece is off its cell that may have
        made a capture no scan saw, what the nest shows may be legal moves made after it
        that it cannot show one by one: the player is asked about that capture instead."""
        doubts = self.traces.doubted(self.view, seen)
        if doubts:
            return self._ask_after(at, doubts)
        self.question = None
        return self._refuse(at, seen, attempt)

    def _wait(self, at: int, ms: int) -> Decisions:
        """Waiting until ``ms`` after the last change, to decide again then; nothing
        (no wait) once that is past."""
        due = self.table.last_change + ms
        return (WaitUntil(due),) if at < due else NOTHING

    def _ask_after(self, at: int, options: tuple[Move, ...]) -> Decisions:
        """Asking about ``options`` once the nest has been still ``ask_ms`` (what
        follows may tell before); waiting until then."""
        return self._wait(at, self.timing.ask_ms) or self._ask(options)

    def _finished(self, done: list[Finished], at: int) -> Decisions:
        timing, seen = self.timing, self.table.observation()
        slid = tuple(
            move for move in self.traces.slid_unseen(self.view, seen, alone=True) if move not in [r.move for r in done]
        )
        if slid:  # the piece slid the way of a capture no scan saw: that may be the one made
            options = (*(reading.move for reading in done), *slid)
            return self._ask_after(at, options)
        if len(done) == 1 and done[0].is_certain:
            (move,) = [done[0].move]
            if not done[0].is_clean:
                # The mover holds another piece, straightening it: the move stands once
                # it is back, or the players are asked to put it back.
                if wait := self._wait(at, timing.hold_ms):
                    return wait
                return (Commit(move, then=Then.PUT_STRAYS_RIGHT),)
            if move in self.view.extendable and (wait := self._wait(at, timing.rest_ms)):
                return wait  # the piece may still slide on
            if move in self.view.first_parts and (wait := self._wait(at, timing.extend_ms)):
                return wait  # the mover's other piece may still follow (the king, castling)
            return (Commit(move),)
        if any(not reading.is_clean for reading in done) and (wait := self._wait(at, timing.hold_ms)):
            return wait  # the pieces held may yet tell which it was
        options = tuple(reading.move for reading in done)
        chosen = self.game.default_choice(options)
        if chosen is not None and all(reading.is_certain for reading in done):
            # Moves the switches cannot tell apart (a pawn promoted): asked, and the
            # game's choice stands unless a player answers within ask_ms.
            if wait := self._wait(at, timing.ask_ms):
                return (*self._ask(options), *wait)
            return (Commit(chosen),)
        return self._ask(options)

    def _followed(self, readings: list[Reading], at: int) -> Decisions:
        """The other side has begun, or made its reply: what the mover did is read from
        what followed, when the readings agree. A reply that is legal after one capture
        no scan saw may be an illegal move after another, to be undone once it is
        refused: the legal reading is believed once the reply has stood ``undo_ms``."""
        firsts = tuple(dict.fromkeys(reading.moves[0] for reading in readings))
        endings = {reading.moves[0] for reading in readings if reading.is_ending}
        if endings - {reading.moves[0] for reading in readings if not reading.is_ending}:
            # An unseen capture may have ended the game instead: nothing will follow to
            # tell (or a piece is only in the air: wait a little first).
            return self._ask_after(at, firsts)
        readings = [reading for reading in readings if not reading.is_ending]
        firsts = tuple(dict.fromkeys(reading.moves[0] for reading in readings))
        chosen = self.game.default_choice(firsts)
        if chosen is not None:  # the other side goes on: the game's choice stands (a queen)
            readings = [reading for reading in readings if reading.moves[0] == chosen]
            firsts = (chosen,)
        slid = tuple(
            move for move in self.traces.slid_unseen(self.view, self.table.observation()) if move not in firsts
        )
        if slid:
            # The piece slid over the way of a capture no scan saw, not the way of the
            # ones read: it may have gone there.
            return self._ask_after(at, firsts + slid)
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
            return self._ask_after(at, firsts)
        if self.question is not None and len(firsts) > 1:
            return self._ask(firsts)  # asked already, and what followed fits more than one
        legal = tuple(dict.fromkeys(reading.moves[0] for reading in replied))
        if len(legal) == 1 and all(reading.is_certain for reading in replied):
            stood = min(reading.replied_at for reading in replied) + self.timing.undo_ms
            if at >= stood:
                return self._commit_then_go_on(legal[0], at)
            return (WaitUntil(stood),)
        return self._ask(firsts)

    def _reply_tells(self, moves: tuple[Move, ...]) -> bool:
        """Whether the reply ``moves[1]`` is legal after no option asked about but the
        move ``moves[0]`` it follows (any reply tells while nothing is asked)."""
        first, reply = moves[0], moves[1]
        options = self.question or ()
        return all(reply not in self.view.after(option).moves for option in options if option != first)

    def _commit_then_go_on(self, move: Move, at: int) -> Decisions:
        seen = self.table.observation()
        footprint = self.view.footprints[move]
        seen_made = all(seen.evidence(origin, target) for origin in footprint.empties for target in footprint.proofs)
        # The reply is on the nest already: the next turn decides at once.
        return (
            Commit(
                move, proven=seen_made and self.traces.proof_is_its_own(self.view, move, seen), then=Then.DECIDE_NOW
            ),
        )

    def _under_way(self, seen: Observation, at: int) -> Decisions:
        timing = self.timing
        if self.view.is_resting_between(seen):
            if wait := self._wait(at, timing.extend_ms):
                return wait  # a slide may go on
            return self._refuse_unless_in_doubt(at, seen, None)
        lifted, _ = self.view.difference(seen.occupied, seen.ignored)
        options = self.view.unseen_captures(seen)
        attempt = attempted_capture(self.view, seen, lifted, self.game)
        if attempt is not None and not self.view.captures_under_way(seen):
            if wait := self._wait(at, timing.extend_ms):
                return wait
            return self._refuse_unless_in_doubt(at, seen, attempt)
        if not options:
            self.question = None
            return NOTHING  # a move under way
        # The capturer may have landed with no scan seeing the captured piece go: the
        # other side's reply would show it. Until then, after ask_ms, the player is asked.
        return self._ask_after(at, options)

    def _disturbed(self, at: int) -> Decisions:
        """Only pieces lifted, some that the side to move may not lift: knocked off, or in
        another player's hand. Nothing was played; after ``hold_ms`` they are asked for,
        unless a capture no scan saw may explain them (:meth:`Traces.doubted`)."""
        doubts = self.traces.doubted(self.view, self.table.observation())
        if doubts:
            return self._ask_after(at, doubts)
        if wait := self._wait(at, self.timing.hold_ms):
            return wait
        self.question = None
        return (Correct(CorrectionCause.DISTURBED),)

    def _ask(self, options: tuple[Move, ...]) -> Decisions:
        if self.question == options:
            return NOTHING
        self.question = options
        return (Ask(options),)

    # -- refusing -----------------------------------------------------------------------

    def _refuse(self, at: int, seen: Observation, attempt: Move | None) -> Decisions:
        refused, steps = diagnose(
            self.view, seen, attempt, self.game, announced=self.announced, computer_move=self.table.computer_move
        )
        cause = CorrectionCause.ILLEGAL_MOVE if refused.attempt is not None else CorrectionCause.DISTURBED
        return (Correct(cause, steps, refused),)

    # -- commands -----------------------------------------------------------------------

    def shown_move(self) -> Move | None:
        """The move the nest shows made right now, cleanly and for certain, if any: it
        stands when a control is pressed before it was committed."""
        seen = self.table.observation()
        done = self.view.finished(seen)
        if len(done) == 1 and done[0].is_clean and done[0].is_certain and not self._awaits_winner(done[0].move, seen):
            return done[0].move
        return None

    def answer(self, move: Move, at: int) -> Decisions:
        """The player says which of the options asked about was made."""
        proven = move in [done.move for done in self.view.finished(self.table.observation())]
        return (Commit(move, proven=proven, then=Then.DECIDE_SOON),)  # the reply may be on the nest already
