"""A model of real hands and reed switches on the nest: every behaviour of
``spec/hands.md``, with its timing ranges. It turns a game's moves into the sensor log a
latching scanner (the Pico) would write, at 1 ms; :func:`poll` turns that into what the
Pi's 200 Hz matrix scan reads.

The switches: contact bounce on every lift, placing and push-off (pulses of 1-5 ms,
1-5 ms apart, over at most 20 ms); a wobbly piece chattering as it settles (up to
250 ms, pulses 1-5 ms, gaps up to 15 ms). The hands:

- between turns 0.8-16 s of thought;
- steps lifted and placed, or slid (the next cell reached at most 25 ms from leaving the
  last, overlapping or with a gap); double steps and captures two cells away slid over
  the middle cell, which reads occupied for 60-250 ms;
- captures in any order: capturer first (held 0.2-1.5 s before landing), captured piece
  first (held 0.3-2 s), or pushed off as the capturer slides on (the target reads empty
  for 5-40 ms, or, but for the chance ``push_flicker``, not at all);
- hesitation: a piece lifted, held 0.3-1.5 s and put back, the next change 0.3 s later
  at least: the mover, a piece that could capture, any own piece, two at once;
- a second own piece lifted and put back during about one move in eight: before the
  mover leaves, while it is in the air, or up to a second after it lands;
- illegal attempts (``illegal``): a step backward or sideways, a step while a capture is
  compulsory, an egg's double step, a jump or a capture over a piece, an opponent's
  piece moved (then, maybe, the piece that could take it lifted and put back); held
  1.5-3 s, undone exactly, the nest then still for 0.8 s;
- after the game, noise (a piece lifted and put back, a step and back, a slide and
  back), the nest left as the game left it; then 2 s of quiet and a last touch.

:class:`Played` says, for a game made into a log, which captures left no empty reading
and how many moves the nest therefore shows (``decidable``).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from firmware_host.games.cuckoo.rules import Move, Nest, Position, Side
from firmware_host.referee.sensor_log import SensorEvent

POLL_MS = 5  # the Pi's matrix scan during play: 200 Hz


@dataclass(frozen=True)
class Window:
    """When the hands were at something, from ``start`` to ``end`` (ms)."""

    start: int
    end: int


@dataclass
class Switches:
    """The reed switches under the hands (``spec/hands.md``, "The sensors"): each change
    made as sensor events, with contact bounce and a settling piece's chatter; what the
    hands of each game share."""

    rng: random.Random
    bounce: float = 0.5  # a lift, placing or push-off bounces
    wobble: float = 0.08  # a piece put down chatters as it settles
    events: list[SensorEvent] = field(default_factory=list)
    time_ms: int = 0
    made: Counter[str] = field(default_factory=Counter)  # the behaviours made, by name
    _latest: int = 0  # the last event's time

    def emit(self, at: int, cell: str, occupied: bool) -> None:
        self.events.append(SensorEvent(at, cell, occupied))
        self._latest = max(self._latest, at)

    def change(self, cell: str, occupied: bool, at: int | None = None, *, settle: bool = False) -> int:
        """The cell's piece leaves (or arrives) at ``at`` (default: now), bouncing maybe;
        ``settle``: a piece put down that may wobble. Returns when the cell is at rest."""
        at = self.time_ms if at is None else at
        self.emit(at, cell, occupied)
        end = at
        if self.rng.random() < self.bounce:  # pulses back of 1-5 ms, 1-5 ms apart, within 20 ms
            self.made["bounce"] += 1
            while True:
                start = end + self.rng.randint(1, 5)
                stop = start + self.rng.randint(1, 5)
                if stop - at > 20:
                    break
                self.emit(start, cell, not occupied)
                self.emit(stop, cell, occupied)
                end = stop
        if settle and occupied and self.rng.random() < self.wobble:  # chatter up to 250 ms
            self.made["wobble"] += 1
            limit = at + self.rng.randint(40, 250)
            while True:
                start = end + self.rng.randint(1, 15)
                stop = start + self.rng.randint(1, 5)
                if stop > limit:
                    break
                self.emit(start, cell, False)
                self.emit(stop, cell, True)
                end = stop
        return end

    def lift(self, cell: str, at: int | None = None) -> int:
        return self.change(cell, False, at)

    def place(self, cell: str, at: int | None = None) -> int:
        return self.change(cell, True, at, settle=True)


@dataclass
class Hand(Switches):
    """Plays moves as sensor events; ``rng`` decides how. The chances are per move."""

    nest: Nest = field(default_factory=Nest.default)
    hesitate: float = 0.15  # pieces lifted and put back before the move
    second_piece: float = 0.125  # another own piece lifted and put back during the move
    slide: float = 0.5  # a move slid rather than lifted and placed
    push_flicker: float = 0.7  # the chance that a pushed-off capture leaves an empty reading
    illegal: float = 0.0  # an illegal attempt, undone, before the move
    think: tuple[int, int] = (800, 16_000)  # ms between the end of one move and the next
    fast: bool = False  # short thinking (0.8-2 s): the same hands in less log time
    attempts: list[Window] = field(default_factory=list)  # the illegal attempts, made and undone
    captures: list[tuple[int, Move, Window]] = field(default_factory=list)  # (ply, capture, when)

    # -- time and touches ---------------------------------------------------------------

    def wait(self, low: int, high: int) -> None:
        self.time_ms += self.rng.randint(low, high)

    def touch(self, cell: str, hold: tuple[int, int] = (300, 1500)) -> int:
        """Lift the piece on ``cell`` now and put it back; returns when it rests again."""
        self.lift(cell)
        return self.place(cell, self.time_ms + self.rng.randint(*hold))

    def middle(self, move: Move) -> str | None:
        assert move.origin is not None and move.target is not None
        return self.nest.between(move.origin, move.target)

    # -- a game -------------------------------------------------------------------------

    def game(self, position: Position, moves: list[Move], *, after_game: bool = False) -> list[SensorEvent]:
        """The events of a whole game from ``position`` (which ends unchanged), in time
        order; ``after_game``: then noise, quiet and a last touch, as a log ends."""
        board = position.copy()
        for move in moves:
            self.play(board, move)
            board.push(move)
        if after_game:
            self.after(board)
        self.events.sort(key=lambda event: event.time_ms)  # stable: one cell's events keep their order
        return self.events

    def play(self, position: Position, move: Move) -> None:
        """The events of ``move`` made in ``position``: thought, perhaps an illegal
        attempt or hesitation, then the move, perhaps with another piece straightened."""
        low, high = (800, 2000) if self.fast else self.think
        self.time_ms = max(self.time_ms, self._rested()) + self._thought(low, high)
        if move.is_pass:
            return  # a side without a move does nothing; the referee passes for it
        if self.illegal and self.rng.random() < self.illegal:
            self._attempt(position)
        if self.rng.random() < self.hesitate:
            self._hesitate(position, move)
        own = [c for c, p in position.pieces().items() if p.side is position.turn and c not in self._cells(move)]
        second = self.rng.choice(own) if own and self.rng.random() < self.second_piece else None
        when = self.rng.choice(("before", "in the air", "after")) if second else None
        if second is not None:
            self.made[f"second piece {when}"] += 1
        if second is not None and when == "before":
            self.lift(second)
            back = self.time_ms + self.rng.randint(300, 1500)
            self.wait(50, 250)  # the mover leaves while the other piece is in the hand
            started = self.time_ms
            end = self._move(position, move)
            self.place(second, max(back, end + self.rng.randint(0, 300)))
        else:
            started = self.time_ms
            end = self._move(position, move, second if when == "in the air" else None)
            if second is not None and when == "after":
                self.time_ms = end + self.rng.randint(0, 1000)
                self.touch(second)
        if move.is_capture:
            ply = len(position.move_stack)
            self.captures.append((ply, move, Window(started, end)))
        self.time_ms = max(self.time_ms, end)

    def _thought(self, low: int, high: int) -> int:
        """Thinking time: mostly short, sometimes long."""
        return min(high, low + int(self.rng.expovariate(1 / 2500)))

    def _rested(self) -> int:
        """When the last event so far happened: the nest is at rest since."""
        return self._latest

    def _cells(self, move: Move) -> set[str]:
        assert move.origin is not None and move.target is not None
        middle = self.middle(move)
        return {move.origin, move.target} | ({middle} if middle else set())

    def _hesitate(self, position: Position, move: Move) -> None:
        """A piece lifted, held and put back (the mover, one that could capture, any own
        piece; sometimes two at once); the next change 0.3 s later at least."""
        pieces = position.pieces()
        own = [cell for cell, piece in pieces.items() if piece.side is position.turn]
        capturers = [str(m.origin) for m in position.legal_moves() if m.is_capture]
        assert move.origin is not None
        first = self.rng.choice([move.origin, *capturers, *own])
        self.made["hesitation"] += 1
        self.lift(first)
        held = self.rng.randint(300, 1500)
        back = self.time_ms + held
        others = [cell for cell in own if cell != first]
        if others and self.rng.random() < 0.3:  # a second one in the air with it
            self.made["two in the air"] += 1
            other = self.rng.choice(others)
            at = self.time_ms + self.rng.randint(50, held - 50)
            self.lift(other, at)
            self.place(other, at + self.rng.randint(300, 1500))
        self.place(first, back)
        self.time_ms = self._rested() + self.rng.randint(300, 1200)

    # -- moves --------------------------------------------------------------------------

    def _move(self, position: Position, move: Move, other: str | None = None) -> int:
        """Make ``move`` from now; ``other``: an own piece lifted and put back while the
        mover is in the air. Returns when its last cell is at rest."""
        return self._capture(move, other) if move.is_capture else self._step(move, other)

    def _slide_to(self, cell: str, left: int) -> int:
        """The moving piece reaches ``cell`` within 25 ms of leaving the last one."""
        return max(0, left + self.rng.randint(-25, 25))

    def _other_in_the_air(self, other: str | None, lifted: int, landed: int) -> None:
        if other is None:
            return
        at = lifted + self.rng.randint(0, max(0, landed - lifted - 10))
        self.lift(other, max(at, lifted))
        self.place(other, max(landed + self.rng.randint(10, 400), at + 300))

    def _step(self, move: Move, other: str | None, *, can_slide: bool = True) -> int:
        """A step or double step; ``can_slide`` False for a jump over a piece."""
        assert move.origin is not None and move.target is not None
        middle = self.middle(move)
        start = self.time_ms
        if can_slide and self.rng.random() < self.slide:
            self.made["double step slid" if middle else "step slid"] += 1
            left = start
            self.lift(move.origin, left)
            if middle is not None:
                on = self._slide_to(middle, left)
                off = on + self.rng.randint(60, 250)
                self.change(middle, True, on)  # passing over: no wobble
                self.lift(middle, off)
                landed = self._slide_to(move.target, off)
            else:
                landed = self._slide_to(move.target, left)
        else:
            left = start
            self.lift(move.origin, left)
            landed = left + self.rng.randint(150, 1200)
        end = self.place(move.target, landed)
        self._other_in_the_air(other, left, landed)
        return end

    def _capture(self, move: Move, other: str | None) -> int:
        assert move.origin is not None and move.target is not None
        origin, target, middle = move.origin, move.target, self.middle(move)
        order = self.rng.choice(("capturer first", "captured first", "pushed off"))
        self.made[order + (" over the middle" if middle and order == "pushed off" else "")] += 1
        start = self.time_ms
        if order == "capturer first":
            hold = self.rng.randint(200, 1500)
            self.lift(origin, start)
            self.lift(target, start + self.rng.randint(50, hold - 100))
            landed = start + hold
            end = self.place(target, landed)
            self._other_in_the_air(other, start, landed)
            return end
        if order == "captured first":
            self.lift(target, start)
            left = start + self.rng.randint(300, 2000)
            self.lift(origin, left)
            landed = left + self.rng.randint(150, 1000)
            end = self.place(target, landed)
            self._other_in_the_air(other, left, landed)
            return end
        # pushed off: the capturer slides onto its target, over the middle cell if any
        self.lift(origin, start)
        arrive = start
        if middle is not None:
            on = self._slide_to(middle, start)
            off = on + self.rng.randint(60, 250)
            self.change(middle, True, on)
            self.lift(middle, off)
            arrive = off
        arrive = self._slide_to(target, arrive)
        end = arrive
        if self.rng.random() < self.push_flicker:  # the target reads empty for 5-40 ms
            gone = self.lift(target, arrive)
            end = self.place(target, max(gone + 1, arrive + self.rng.randint(5, 40)))
        else:
            self.made["pushed off, no empty reading"] += 1
        self._other_in_the_air(other, start, arrive)
        return end

    # -- illegal attempts ---------------------------------------------------------------

    def _attempt(self, position: Position) -> None:
        """An illegal move made, held until the referee objects, undone exactly."""
        attempt = illegal_attempt(self.rng, position)
        if attempt is None:
            return
        kind, cells = attempt
        self.made[f"illegal {kind}"] += 1
        start = self.time_ms
        origin, target = cells[0], cells[1]
        pieces = position.pieces()
        if kind == "capture":  # lands on a piece it may not take: the piece goes in the hand
            self.lift(origin)
            self.lift(target, self.time_ms + self.rng.randint(100, 600))
            end = self.place(target, self.time_ms + self.rng.randint(700, 1500))
        else:
            middle = self.nest.between(origin, target)
            end = self._step(Move(origin, target), None, can_slide=middle not in pieces)
        if kind == "opponent" and self.rng.random() < 0.5:  # then the piece that could take it
            capturers = [str(m.origin) for m in position.legal_moves() if m.is_capture and m.target == origin] or [
                cell for cell, piece in pieces.items() if piece.side is position.turn
            ]
            self.time_ms = end + self.rng.randint(200, 600)
            end = self.touch(self.rng.choice(capturers), (300, 900))
        undo = max(end, start) + self.rng.randint(1500, 3000)
        self.attempts.append(Window(start, undo))
        # Undone exactly: the capturer back and the piece it took put back; a piece moved
        # put back on its cell.
        if kind == "capture":
            back = self.lift(target, undo) + self.rng.randint(150, 600)
            back = self.place(origin, back) + self.rng.randint(150, 600)
            back = self.place(target, back)
        else:
            back = self.lift(target, undo) + self.rng.randint(150, 800)
            back = self.place(origin, back)
        self.time_ms = back + self.rng.randint(800, 1500)  # the nest matches for 0.8 s at least

    # -- the end ------------------------------------------------------------------------

    def after(self, position: Position) -> None:
        """After the game: noise that leaves the nest as the game left it, then 2 s of
        quiet and a touch."""
        pieces = list(position.pieces())
        empty = [cell for cell in self.nest.cells if cell not in position.pieces()]
        self.time_ms = self._rested() + self.rng.randint(800, 3000)
        for _ in range(self.rng.randint(0, 3)):
            cell = self.rng.choice(pieces)
            near = [c for c in empty if self.nest.distance(c, cell) == 1]
            self.made["noise after the game"] += 1
            if near and self.rng.random() < 0.5:  # a step and back
                there = self.rng.choice(near)
                self.lift(cell)
                self.place(there, self.time_ms + self.rng.randint(150, 800))
                self.time_ms = self._rested() + self.rng.randint(300, 1000)
                self.lift(there)
                self.place(cell, self.time_ms + self.rng.randint(150, 800))
            else:
                self.touch(cell)
            self.time_ms = self._rested() + self.rng.randint(500, 2000)
        self.time_ms = self._rested() + self.rng.randint(2000, 4000)
        self.touch(self.rng.choice(pieces))


def illegal_attempt(rng: random.Random, position: Position) -> tuple[str, tuple[str, str]] | None:
    """An illegal move of a kind players make, if the position has one: ``(kind,
    (origin, target))``, kinds "step" (backward, sideways, while a capture is
    compulsory, an egg's double step, a jump), "capture" (over a piece, or too far) and
    "opponent" (the other side's piece moved, often one that could be captured)."""
    pieces = position.pieces()
    nest = position.nest
    side = position.turn
    own = [cell for cell, piece in pieces.items() if piece.side is side]
    theirs = [cell for cell, piece in pieces.items() if piece.side is not side]
    kinds = ["step", "capture", "opponent"]
    rng.shuffle(kinds)
    legal = position.legal_moves()
    for kind in kinds:
        options = []
        if kind == "step":
            options = [
                (origin, target)
                for origin in own
                for target in nest.cells
                if target not in pieces and nest.distance(origin, target) <= 2
                and position.check_move(Move(origin, target)) is not None
                and _is_plausible(nest, origin, target)
            ]  # fmt: skip
        elif kind == "capture":
            options = [
                (origin, target)
                for origin in own
                for target in theirs
                if nest.distance(origin, target) == 2
                and _is_plausible(nest, origin, target)
                and position.check_move(Move(origin, target, True)) is not None
            ]
        else:
            capturable = [str(m.target) for m in legal if m.is_capture]
            sources = capturable if capturable and rng.random() < 0.7 else theirs
            options = [
                (origin, target)
                for origin in sources
                for target in nest.cells
                if target not in pieces and nest.distance(origin, target) == 1
            ]
        if options:
            return kind, rng.choice(options)
    return None


def _is_plausible(nest: Nest, origin: str, target: str) -> bool:
    """A neighbour, or two cells away in a straight line: what players try."""
    return nest.distance(origin, target) == 1 or nest.between(origin, target) is not None


def poll(events: Iterable[SensorEvent], *, period_ms: int = POLL_MS, phase: int = 0) -> list[SensorEvent]:
    """What a scan every ``period_ms`` reads of ``events`` (a latching scanner's log): a
    change is seen at the next scan, and one undone before it is missed."""
    ordered = sorted(events, key=lambda event: event.time_ms)
    if not ordered:
        return []
    state: dict[str, bool] = {}  # the switch's state now
    read: dict[str, bool] = {}  # the state the last scan read
    out: list[SensorEvent] = []
    index = 0
    scan = ordered[0].time_ms - (ordered[0].time_ms - phase) % period_ms
    while index < len(ordered):
        scan += period_ms
        touched = []
        while index < len(ordered) and ordered[index].time_ms < scan:
            event = ordered[index]
            if event.cell not in read:
                read[event.cell] = not event.occupied  # its first event is a change
            state[event.cell] = event.occupied
            touched.append(event.cell)
            index += 1
        for cell in dict.fromkeys(touched):
            if state[cell] != read[cell]:
                read[cell] = state[cell]
                out.append(SensorEvent(scan, cell, state[cell]))
    return out


@dataclass(frozen=True)
class Played:
    """A game as hands made it into a sensor log."""

    start: Position
    moves: list[Move]
    events: list[SensorEvent]
    hand: Hand

    def unseen(self) -> list[int]:
        """The plies of the captures whose target never read empty in :attr:`events`."""
        found = []
        for ply, capture, window in self.hand.captures:
            target = capture.target
            seen = any(
                event.cell == target and window.start - 150 <= event.time_ms <= window.end + 50 for event in self.events
            )
            if not seen:
                found.append(ply)
        return found

    def undecidable_from(self) -> int | None:
        """When the first move the nest cannot show began (ms), if there is one: from
        then on nothing is asked of the referee but to ask, and accept nothing wrong."""
        decidable = self.decidable()
        if decidable == len(self.moves):
            return None
        return next(window.start for ply, _, window in self.hand.captures if ply == decidable)

    def decidable(self) -> int:
        """How many of the moves the nest shows: up to a capture no scan saw that the
        reply does not prove (the reply unseen itself or fitting another capture of the
        same piece too, or no reply at all)."""
        unseen = set(self.unseen())
        board = self.start.copy()
        for ply, move in enumerate(self.moves):
            if ply in unseen:
                reply = self.moves[ply + 1] if ply + 1 < len(self.moves) else None
                if reply is None or reply.is_pass or ply + 1 in unseen or not _proves(board, move, reply):
                    return ply
            board.push(move)
        return len(self.moves)


def _proves(board: Position, capture: Move, reply: Move) -> bool:
    """Whether ``reply`` is legal after ``capture`` and after no other capture of the
    same piece that the nest would show the same."""
    fits = 0
    for other in board.legal_moves():
        if other.origin != capture.origin or not other.is_capture:
            continue
        after = board.copy()
        after.push(other)
        if reply in after.legal_moves():
            fits += 1
    return fits == 1


def play_game(rng: random.Random, start: Position, moves: list[Move], *, polled: bool, **hands: object) -> Played:
    """``moves`` played from ``start`` by a :class:`Hand` (``hands`` its settings), with
    the end of a log after them; read by a latching scanner or, ``polled``, at 200 Hz."""
    hand = Hand(rng, nest=start.nest, **hands)  # type: ignore[arg-type]
    events = hand.game(start, moves, after_game=True)
    if polled:
        events = poll(events, phase=rng.randrange(POLL_MS))
    return Played(start, moves, events, hand)


def random_moves(rng: random.Random, start: Position, plies: int = sys.maxsize) -> list[Move]:
    """Up to ``plies`` random legal moves from ``start`` (passes included); by default,
    until the game ends."""
    board = start.copy()
    moves: list[Move] = []
    while len(moves) < plies and (legal := board.legal_moves()):
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


__all__ = ["Hand", "Played", "Side", "illegal_attempt", "play_game", "poll", "random_moves"]
