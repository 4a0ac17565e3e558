"""A model of real hands playing the battle game on the nest, sibling of
:mod:`tests.hand_model` (``spec/hands.md``), with the behaviours of that spec that apply
to this game and its own: it turns the players' set-ups and a game's moves into the
sensor log a latching scanner (the Pico) writes, at 1 ms.

The switches: contact bounce on every lift and placing (pulses of 1-5 ms over at most
20 ms); a piece put down chattering as it settles (up to 250 ms). The hands:

- the set-up: each side's pieces put down one by one, 150-600 ms apart, red's then blue's;
- between turns 0.8-4 s of thought;
- moves lifted and placed, or slid (a Scout's run over the squares between, each
  occupied for 60-250 ms);
- strikes in the gestures of ``docs/rules-battle.md`` §8: the striker lifted and then the
  struck piece (``lift``), the striker lifted and the struck piece touched, its switch
  open for 8-25 ms (``touch``), or the struck piece lifted first (``struck first``); then
  the loser taken off and the winner put down as the announcement says;
- hesitation: the mover lifted, held 0.3-1.5 s and put back;
- illegal attempts (``illegal``): a Bomb or the Flag moved, a step diagonally or two
  squares, a Scout's run through a piece; held 1.5-3 s, undone exactly;
- a swapped pair (``swap``): two own pieces lifted together and put down on each other's
  squares, before the turn's move (the referee refuses it; nobody can tell the pieces
  apart, so the game goes on from the nest as it is).

Not here, because the referee of this game refuses it: a second own piece straightened
while the mover moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from firmware_host.games.base import Side
from firmware_host.games.battle import Move, Position, Setup
from firmware_host.games.battle.army import Movement, StrikeResult
from firmware_host.games.battle.moves import Rule
from firmware_host.referee.sensor_log import SensorEvent, write_sensor_log
from tests.battle_helpers import FIELD, GAME, random_setup
from tests.hand_model import Switches

ILLEGAL_RULES = frozenset({Rule.OUT_OF_REACH, Rule.NOT_STRAIGHT, Rule.BLOCKED})
"""What an illegal attempt of the hands breaks."""


@dataclass
class BattleHands(Switches):
    """Plays set-ups and moves as sensor events; ``rng`` decides how."""

    slide: float = 0.5
    hesitate: float = 0.15
    illegal: float = 0.0
    swap: float = 0.0

    # -- time ---------------------------------------------------------------------------

    def after(self, low: int, high: int) -> int:
        """A moment ``low`` to ``high`` ms after the nest came to rest."""
        return max(self.time_ms, self._latest) + self.rng.randint(low, high)

    # -- the set-up and the game --------------------------------------------------------

    def set_up(self, setups: dict[Side, Setup]) -> None:
        for side in Side:
            cells = sorted(setups[side].cells)
            self.rng.shuffle(cells)
            for cell in cells:
                self.time_ms = self.place(cell, self.after(150, 600))

    def play(self, position: Position, move: Move) -> None:
        """The events of ``move`` made in ``position`` (which is left unchanged)."""
        self.time_ms = self.after(800, 4000)
        if self.swap and self.rng.random() < self.swap:
            self._swap(position)
        if self.illegal and self.rng.random() < self.illegal:
            self._attempt(position)
        if self.rng.random() < self.hesitate:
            self.made["hesitation"] += 1
            self.lift(move.origin, self.time_ms)
            self.time_ms = self.place(move.origin, self.time_ms + self.rng.randint(300, 1500))
            self.time_ms = self.after(300, 1200)
        if move.is_strike:
            self._strike(position, move)
        else:
            self._step(move)

    def _step(self, move: Move) -> None:
        start = self.time_ms
        between = FIELD.between(move.origin, move.target) or ()
        self.lift(move.origin, start)
        if self.rng.random() < self.slide:
            self.made["run slid" if between else "step slid"] += 1
            left = start
            for square in between:  # over the squares between: each occupied a moment
                on = max(left, left + self.rng.randint(-25, 25))
                off = on + self.rng.randint(60, 250)
                self.change(square, True, on)
                self.lift(square, off)
                left = off
            landed = max(start + 1, left + self.rng.randint(-25, 25))
        else:
            landed = start + self.rng.randint(150, 1200)
        self.time_ms = self.place(move.target, landed)

    def _strike(self, position: Position, move: Move) -> None:
        result = position.strike(move).result
        gesture = self.rng.choice(("lift", "touch", "struck first"))
        self.made[f"strike: {gesture}"] += 1
        origin, target, start = move.origin, move.target, self.time_ms
        if gesture == "touch":
            self.lift(origin, start)
            touched = start + self.rng.randint(150, 800)
            self.emit(touched, target, False)  # a touch: shorter than the debounce, no bounce
            self.emit(touched + self.rng.randint(8, 25), target, True)
            if result is StrikeResult.DEFENDER_WINS:
                self.time_ms = self._latest
                return  # the striker leaves the field; the struck piece stays
            off = self.lift(target, touched + self.rng.randint(400, 1500))  # the loser taken off
            if result is StrikeResult.ATTACKER_WINS:
                off = self.place(target, off + self.rng.randint(200, 1000))  # the striker moves in
            self.time_ms = off
            return
        if gesture == "lift":
            self.lift(origin, start)
            second = self.lift(target, start + self.rng.randint(150, 800))
        else:
            self.lift(target, start)
            second = self.lift(origin, start + self.rng.randint(300, 1500))
        if result is StrikeResult.BOTH_LOST:
            self.time_ms = second
            return
        # The winner, as the referee announced it, is put down on the struck square.
        self.time_ms = self.place(target, second + self.rng.randint(400, 1500))

    def _swap(self, position: Position) -> None:
        own = [cell for cell, piece in position.pieces().items() if piece.side is position.turn]
        if len(own) < 2:
            return
        first, second = self.rng.sample(own, 2)
        self.made["swapped pair"] += 1
        start = self.time_ms
        self.lift(first, start)
        lifted = self.lift(second, start + self.rng.randint(100, 600))
        back = self.place(first, lifted + self.rng.randint(400, 1500))  # the second piece, on the first's square
        back = self.place(second, back + self.rng.randint(200, 800))
        self.time_ms = self.after(800, 1500)  # the nest shows the position again

    def _attempt(self, position: Position) -> None:
        """An illegal move made, held until the referee objects, undone exactly."""
        pieces = position.pieces()
        options = [
            (origin, target)
            for origin, piece in pieces.items()
            if piece.side is position.turn
            for target in FIELD.cells
            if target not in pieces
            and 0 < FIELD.distance(origin, target) <= (9 if piece.rank.movement is Movement.RUN else 2)
            and (illegal := position.check_move(Move(origin, target))) is not None
            and illegal.rule in ILLEGAL_RULES
        ]
        if not options:
            return
        origin, target = self.rng.choice(options)
        self.made[f"illegal {position.check_move(Move(origin, target)).rule.name.lower()}"] += 1  # type: ignore[union-attr]
        start = self.time_ms
        self.lift(origin, start)
        end = self.place(target, start + self.rng.randint(150, 1200))
        undo = end + self.rng.randint(1500, 3000)
        back = self.lift(target, undo) + self.rng.randint(150, 800)
        self.place(origin, back)
        self.time_ms = self.after(800, 1500)


@dataclass(frozen=True)
class BattleGameLog:
    """A battle game as hands made it into a sensor log."""

    setups: dict[Side, Setup]
    moves: list[Move]
    events: list[SensorEvent]
    hands: BattleHands

    def to_text(self) -> str:
        """The sensor log: its header says each side's set-up (so it holds every rank)."""
        header = "".join(f"# setup {side.label}: {self.setups[side].to_text(FIELD)}\n" for side in Side)
        return header + write_sensor_log(self.events)

    def start(self) -> Position:
        return GAME.start_from_setups(self.setups[Side.RED], self.setups[Side.BLUE], Side.RED)


def random_battle_moves(rng: random.Random, start: Position, plies: int) -> list[Move]:
    board, moves = start.copy(), list[Move]()
    while len(moves) < plies and (legal := board.legal_moves()):
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


def play_battle_game(rng: random.Random, plies: int, *, illegal: float = 0.0, swap: float = 0.0) -> BattleGameLog:
    """Random set-ups and up to ``plies`` random legal moves, played by
    :class:`BattleHands` with those chances of an illegal attempt and a swapped pair."""
    setups = {side: random_setup(side, rng) for side in Side}
    start = GAME.start_from_setups(setups[Side.RED], setups[Side.BLUE], Side.RED)
    moves = random_battle_moves(rng, start, plies)
    player = BattleHands(rng, illegal=illegal, swap=swap)
    player.set_up(setups)
    board = start.copy()
    for move in moves:
        player.play(board, move)
        board.push(move)
    player.time_ms = player.after(2000, 4000)
    events = sorted(player.events, key=lambda event: event.time_ms)
    return BattleGameLog(setups, moves, events, player)
