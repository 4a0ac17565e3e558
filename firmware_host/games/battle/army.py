"""The army: the ranks of the pieces, how each moves, and how a strike between two of
them ends (``docs/rules-battle.md`` §3 and §5).

The ranks are data, read from the board file (``boards/classic.toml``): a rank has a
name, a letter, how many of it an army has, and either a strength and a way of moving
(the pieces that fight) or a role (the Bomb and the Flag, which never move).

>>> spy = Rank("spy", "Y", 1, strength=1, movement=Movement.STEP, strikes_down=frozenset({"marshal"}))
>>> marshal = Rank("marshal", "M", 1, strength=10, movement=Movement.STEP)
>>> resolve_strike(spy, marshal), resolve_strike(marshal, spy)
(<StrikeResult.ATTACKER_WINS: 'attacker wins'>, <StrikeResult.ATTACKER_WINS: 'attacker wins'>)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from firmware_host.errors import NotationError


class Movement(Enum):
    """How a rank moves."""

    NONE = "none"
    """Never: the Bomb and the Flag stay where they were set up."""
    STEP = "step"
    """One square forward, backward or sideways."""
    RUN = "run"
    """Any number of empty squares in one straight line (the Scout)."""


class Role(Enum):
    """What a piece that does not fight is for."""

    FLAG = "flag"
    """Struck, it is captured and its side has lost."""
    BOMB = "bomb"
    """Struck, it removes the striker, unless the striker's rank strikes bombs down (the Miner)."""


@dataclass(frozen=True, slots=True)
class Rank:
    """One rank of the army: its ``name`` (``marshal``), its ``letter`` in the notation
    (``M``), how many of it an army has, and either its ``strength`` and ``movement``
    or its ``role``. ``strikes_down`` names the ranks it removes when it strikes them,
    whatever their strength (the Spy the Marshal, the Miner the Bomb)."""

    name: str
    letter: str
    count: int
    strength: int | None = None
    movement: Movement = Movement.NONE
    role: Role | None = None
    strikes_down: frozenset[str] = frozenset()

    @property
    def can_move(self) -> bool:
        return self.movement is not Movement.NONE

    @property
    def label(self) -> str:
        """The rank in messages: ``marshal``."""
        return self.name


class StrikeResult(Enum):
    """How a strike ends."""

    ATTACKER_WINS = "attacker wins"
    """The struck piece is removed and the striker moves onto its square."""
    DEFENDER_WINS = "defender wins"
    """The striker is removed; the struck piece stays."""
    BOTH_LOST = "both lost"
    """Equal ranks: both are removed."""


def resolve_strike(attacker: Rank, defender: Rank) -> StrikeResult:
    """How a strike of ``attacker`` on ``defender`` ends, checked in this order: the
    Flag is always captured; a rank the attacker strikes down is removed (the Spy
    striking the Marshal, a Miner striking a Bomb); a Bomb removes any other striker;
    else the higher strength wins and equal strengths both go.

    Raises ValueError for an attacker that cannot move (it never strikes)."""
    if attacker.strength is None or not attacker.can_move:
        raise ValueError(f"a {attacker.name} never moves, so it never strikes")
    if defender.role is Role.FLAG or defender.name in attacker.strikes_down:
        return StrikeResult.ATTACKER_WINS
    if defender.role is Role.BOMB or defender.strength is None:
        return StrikeResult.DEFENDER_WINS
    if attacker.strength == defender.strength:
        return StrikeResult.BOTH_LOST
    return StrikeResult.ATTACKER_WINS if attacker.strength > defender.strength else StrikeResult.DEFENDER_WINS


@dataclass(frozen=True)
class Army:
    """The ranks of one army, in the board file's order (strongest first there); both
    sides have the same army."""

    ranks: tuple[Rank, ...]

    def __iter__(self) -> Iterator[Rank]:
        return iter(self.ranks)

    @property
    def size(self) -> int:
        """The pieces of one side."""
        return sum(rank.count for rank in self.ranks)

    @property
    def flag(self) -> Rank:
        """The rank whose capture ends the game."""
        return next(rank for rank in self.ranks if rank.role is Role.FLAG)

    def by_letter(self, letter: str) -> Rank:
        """The rank written ``letter`` (either case). Raises :class:`NotationError`."""
        for rank in self.ranks:
            if rank.letter == letter.upper():
                return rank
        letters = " ".join(rank.letter for rank in self.ranks)
        raise NotationError(f"unknown rank letter {letter!r}: expected one of {letters}")

    def by_name(self, name: str) -> Rank:
        """The rank called ``name``. Raises :class:`NotationError`."""
        for rank in self.ranks:
            if rank.name == name:
                return rank
        raise NotationError(f"the army has no {name!r} (it has: {', '.join(rank.name for rank in self.ranks)})")
