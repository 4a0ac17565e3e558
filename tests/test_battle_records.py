"""The battle game in the store and in game records (docs/game-records.md, "Hidden
ranks"): games kept with their set-ups (the start position, every rank in it); an
unfinished game's record sealed, no hidden rank in it; a finished one's carrying the
set-ups, read back and imported to the same record; a set resumed from the store."""

from __future__ import annotations

import random
import re

import pytest

from firmware_host.games.base import OWN_SETUPS, Side
from firmware_host.recorder.service import RefereeService
from firmware_host.recorder.store import GameStore
from firmware_host.records import RecordError, read_records, write_records
from firmware_host.referee.referee import Settings
from firmware_host.referee.signals import MoveAccepted
from tests.battle_helpers import FIELD, GAME, BattleNest, random_setup
from tests.test_referee_players_setup import play

HIDDEN_RANKS = re.compile(r"[A-WYZa-wyz]")  # a rank's letter (X, x: a piece whose rank is hidden)


def played_nest(seed: int, plies: int) -> tuple[BattleNest, list[str]]:
    rng = random.Random(seed)
    setups = {side: random_setup(side, rng) for side in Side}
    nest = BattleNest()
    for side in Side:
        nest.give(setups[side])
        nest.put(*sorted(setups[side].cells), gap=40)
    nest.settle()
    return nest, play(nest, rng, plies)


def recorded_positions(nest: BattleNest) -> list[str]:
    """The record's position after the game started and each move made since (the
    referee hands them to its recorder call by call, :meth:`Referee.recorded_positions`;
    the nest keeps only the signals): the game on the referee, replayed from its start."""
    assert nest.referee.position is not None
    position = nest.referee.position.copy()
    moves = list(position.move_stack)
    while position.move_stack:
        position.pop()
    texts = [position.to_text()]
    for move in moves:
        position.push(move)
        texts.append(position.to_text())
    return texts


def tag(text: str, name: str) -> str | None:
    match = re.search(rf'^\[{name} "([^"]*)"\]$', text, re.MULTILINE)
    return match.group(1) if match else None


@pytest.mark.parametrize("seed", range(4))
def test_an_unfinished_game_is_exported_sealed_and_a_finished_one_with_its_set_ups(tmp_path, seed):
    nest, moves = played_nest(seed, 30)
    with GameStore(tmp_path / "games.sqlite", game=GAME, clock=lambda: 1_800_000_000.0) as store:
        store.record(nest.signals, positions=recorded_positions(nest), referee_ms=nest.time)
        (summary,) = store.games()
        assert store.moves(summary.id) == moves
        start = store.game_record(summary.id).start_position
        position = nest.referee.position
        assert position is not None and start == GAME.read_position(start).to_text()  # every rank kept
        unfinished = write_records([store.game_record(summary.id)], game=GAME)
        sealed = tag(unfinished, "Position")
        assert tag(unfinished, "Sealed") == "ranks hidden until the game ends"
        assert sealed == GAME.read_position(start).view().to_text()
        assert not HIDDEN_RANKS.search(sealed.split()[0]), "no hidden rank in a sealed record"
        for setup_row in start.split()[0].split("/"):
            if HIDDEN_RANKS.search(setup_row):
                assert setup_row not in unfinished
        with pytest.raises(RecordError, match=r"a sealed record .* export the game again once it is over"):
            read_records(unfinished, game=GAME)

        before = len(nest.signals)
        nest.signals += nest.referee.resign(Side.BLUE, nest.time + 100)
        store.record(nest.signals[before:], positions=(), referee_ms=nest.time + 100)
        record = store.game_record(summary.id)
        finished = write_records([record], game=GAME)
    assert tag(finished, "Sealed") is None and tag(finished, "Lineup") == OWN_SETUPS
    assert tag(finished, "Position") == start and tag(finished, "Result") == "red"
    assert read_records(finished, game=GAME) == [record]  # the set-ups, read back
    with GameStore(tmp_path / "other.sqlite", game=GAME, clock=lambda: 0.0) as other:
        imported = other.import_record(record)
        assert imported is not None
        assert write_records([other.game_record(imported)], game=GAME) == finished


def test_a_battle_set_is_resumed_from_the_store_with_every_rank(tmp_path):
    nest, moves = played_nest(7, 12)
    path = tmp_path / "games.sqlite"
    with GameStore(path, game=GAME, clock=lambda: 1_800_000_000.0) as store:
        store.record(nest.signals, positions=recorded_positions(nest), referee_ms=nest.time)
    position = nest.referee.position
    assert position is not None
    with GameStore(path, game=GAME, clock=lambda: 1_800_000_100.0) as store:
        service = RefereeService.start(
            GAME,
            settings=Settings(),
            store=store,
            announce=lambda signal: None,
            lineup=FIELD.lineup_names[0],
            occupied=nest.occupied,
            now=0,
        )
        resumed = service.referee.position
        assert resumed is not None and resumed.to_text() == position.to_text()
        assert len(resumed.move_stack) == len(moves) == len([s for s in nest.signals if isinstance(s, MoveAccepted)])
