"""Driving the referee with the battle game in tests: a nest of reed switches under the
square field, hands that put pieces down and lift them, in the log's time."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from firmware_host.games.base import Side
from firmware_host.games.battle import BattleGame, Position, Setup, load
from firmware_host.games.battle.army import StrikeResult
from firmware_host.games.battle.field import Field
from firmware_host.games.battle.pieces import Piece
from firmware_host.referee.referee import Referee, Settings
from firmware_host.referee.signals import Signal
from tests.referee_helpers import TimedReferee

GAME: BattleGame = load(None)
FIELD: Field = GAME.field
RANK_NAMES = frozenset(rank.name for rank in FIELD.army)


def random_setup(side: Side, rng: random.Random) -> Setup:
    """The army put on random squares of ``side``'s rows."""
    cells = sorted(FIELD.setup_cells(side), key=FIELD.index)
    ranks = [rank for rank in FIELD.army for _ in range(rank.count)]
    return Setup(side, dict(zip(rng.sample(cells, len(ranks)), ranks, strict=True)))


def position_of(pieces: dict[str, str], turn: Side = Side.RED) -> Position:
    """A position of ``pieces``, by square: a rank's name, ``red`` or ``blue`` first
    (``{"e4": "red colonel"}``); both flags are put in far corners unless given."""
    placed = {"a1": "red flag", "j10": "blue flag", "j1": "red scout", "a10": "blue scout", **pieces}
    found = {}
    for cell, words in placed.items():
        side, name = words.split()
        found[cell] = Piece(Side.RED if side == "red" else Side.BLUE, FIELD.army.by_name(name))
    return Position(FIELD, found, turn)


class BattleNest(TimedReferee):
    """A referee of the battle game on an empty nest at 0 ms, waiting for the players'
    set-ups; :meth:`put` and :meth:`lift` act on cells ``gap`` ms apart."""

    def __init__(self, *, settings: Settings | None = None, occupied: Iterable[str] = ()) -> None:
        self.referee = Referee(GAME, settings=settings or Settings(), lineup="demo", occupied=occupied, now=0)
        self.occupied = set(occupied)
        self.signals: list[Signal] = self.referee.await_setup(now=0)
        self.time = 0

    @classmethod
    def playing(cls, position: Position, *, settings: Settings | None = None) -> BattleNest:
        """A nest showing ``position``, its game begun."""
        nest = cls.__new__(cls)
        nest.referee = Referee(GAME, settings=settings or Settings(), lineup="demo", occupied=position.pieces(), now=0)
        nest.occupied = set(position.pieces())
        nest.signals = nest.referee.begin_game(position, now=0)
        nest.time = 0
        return nest

    def touch(self, cell: str, *, ms: int = 10) -> list[Signal]:
        """A piece touched: its switch opens for ``ms``, less than the debounce."""
        self.time += 300
        signals = self.referee.sense(cell, False, self.time)
        self.time += ms
        signals += self.referee.sense(cell, True, self.time)
        self.time += 300
        signals += self.referee.tick(self.time)
        self.signals += signals
        return signals

    def _change(self, cells: Iterable[str], occupied: bool, gap: int) -> list[Signal]:
        signals: list[Signal] = []
        for cell in cells:
            self.time += gap
            signals += self.referee.sense(cell, occupied, self.time)
            if occupied:
                self.occupied.add(cell)
            else:
                self.occupied.discard(cell)
        self.time += gap  # the last change settles too
        signals += self.referee.tick(self.time)
        self.signals += signals
        return signals

    def put(self, *cells: str, gap: int = 300) -> list[Signal]:
        return self._change(cells, True, gap)

    def lift(self, *cells: str, gap: int = 300) -> list[Signal]:
        return self._change(cells, False, gap)

    def give(self, setup: Setup) -> list[Signal]:
        self.time += 100
        signals = self.referee.give_setup(setup, self.time)
        self.signals += signals
        return signals

    def guide(self, side: Side) -> list[Signal]:
        self.time += 100
        signals = self.referee.guide_setup(side, self.time)
        self.signals += signals
        return signals

    def ask_check(self, side: Side) -> list[Signal]:
        self.time += 100
        signals = self.referee.check_setup(side, self.time)
        self.signals += signals
        return signals

    def asked(self, side: Side) -> str | None:
        """The rank ``side``'s own screen asks for now (placing or checking), by name."""
        prompt = self.referee.placement_prompt(side)
        found = re.search(r"(?:place|lift) your ([a-z-]+) \(", prompt or "")
        return found.group(1) if found else None

    def place_as_asked(self, side: Side, setup: Setup, *, gap: int = 40) -> None:
        """``side``'s pieces put down one at a time as its screen asks, each where
        ``setup`` has the rank asked for."""
        left: dict[str, list[str]] = {}
        for cell, rank in sorted(setup.ranks.items()):
            left.setdefault(rank.name, []).append(cell)
        while (name := self.asked(side)) is not None:
            self.put(left[name].pop(), gap=gap)

    def lift_as_asked(self, side: Side, pieces: Setup, *, gap: int = 40) -> list[str]:
        """``side``'s check made by a player who lifts, for each piece asked for, one that
        ``pieces`` (what stands on the nest) has of that rank, and puts it back, until
        the check is passed or no such piece is left to try; the cells it refused."""
        refused: list[str] = []
        lifted: set[str] = set()
        while (name := self.asked(side)) is not None and self.referee.placement_prompt(side) is not None:
            tried = lifted | set(refused)
            choices = [cell for cell, rank in sorted(pieces.ranks.items()) if rank.name == name and cell not in tried]
            if not choices or not str(self.referee.placement_prompt(side)).count("lift your"):
                break
            cell = choices[0]
            self.lift(cell, gap=gap)
            if str(self.referee.placement_prompt(side)).startswith(f"{cell} is not"):
                refused.append(cell)
            else:
                lifted.add(cell)
            self.put(cell, gap=gap)
        return refused


async def move_on_the_table(simulator: Any, page: Any, daemon: Any, position: Position, move: Any, ply: int) -> None:
    """``move`` made by hand on the simulator's table from ``position``, as a player makes
    it (a strike: both pieces lifted, the winner put down once the strike is announced, the
    lost pieces dropped in the box); returns once ``daemon`` has it as ply ``ply + 1``,
    waiting through ``page`` (a connected :class:`~tests.sim_helpers.PageClient`)."""
    await simulator.act("lift", {"cell": move.origin})
    if move.is_strike:
        await simulator.act("lift", {"cell": move.target})
        if position.strike(move).result is not StrikeResult.BOTH_LOST:
            await page.until(lambda: simulator._strike is not None)
            await simulator.act("put", {"cell": move.target})
        for held in list(simulator.table.hand):
            await simulator.act("drop", {"piece": held.id})
    else:
        await simulator.act("put", {"cell": move.target})
    await page.until(lambda: len(daemon.snapshot().game.moves) == ply + 1)
