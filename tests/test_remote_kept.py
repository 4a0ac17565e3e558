"""The set kept beside the record (firmware_host/remote/kept.py) and the nest's name."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.daemon.config import load_config
from firmware_host.errors import ConfigError
from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.remote.kept import KeptSetError, kept_path, nest_name, read_kept, write_kept
from firmware_host.remote.messages import NEST_PATTERN, Ending, FinishedGame, SetRecord
from firmware_host.remote.session import SessionRecord
from tests.hand_model import random_moves
from tests.remote_helpers import GAME, JOINER, OFFERER, pair


@given(st.text(max_size=80))
def test_any_host_name_makes_a_nest_name_the_other_nest_accepts(host):
    assert NEST_PATTERN.fullmatch(nest_name(host))


def a_record() -> SessionRecord:
    won = FinishedGame(("c3-c4",), "red", Ending.RESIGNED)
    return SessionRecord(SetRecord("standard", Side.RED, finished=(won,), record=("c7-c6", "c3-c4"), take_backs=1))


def test_a_kept_set_reads_back_as_it_was_written(tmp_path):
    path = kept_path(str(tmp_path / "games.sqlite"))
    assert path is not None and path.name == "games.remote.json"
    assert kept_path(":memory:") is None
    assert read_kept(path, GAME) is None
    pairing, record = pair(), a_record()
    write_kept(path, pairing, record, nest=JOINER)
    assert read_kept(path, GAME) == (JOINER, pairing, record)
    assert not path.with_name(path.name + ".new").exists()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda data: data["record"].append("c3-c9"), "record[2]"),
        (lambda data: data.update(nest="stranger001"), "nest: 'stranger001'"),
        (lambda data: data["pairing"].update(code="K7P2Q0"), "K7P2Q0"),
        (lambda data: data.pop("games"), "games: missing"),
        (lambda data: data.update(take_backs=-1), "take_backs"),
    ],
)
def test_a_kept_set_edited_wrong_is_refused_naming_the_file_and_the_key(tmp_path, change, named):
    path = tmp_path / "games.remote.json"
    write_kept(path, pair(), a_record(), nest=OFFERER)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(KeptSetError, match=str(path)) as refused:
        read_kept(path, GAME)
    assert named in str(refused.value)


def test_remote_nest_in_the_config_is_checked(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[remote]\nnest = "alicenest"\n')
    assert load_config(config).remote_nest == "alicenest"
    config.write_text('[remote]\nnest = "Alice-Nest"\n')
    with pytest.raises(ConfigError, match=r"remote\.nest: 'Alice-Nest' is not a nest's name"):
        load_config(config)


@given(st.integers(0, 2**32 - 1), st.integers(0, 40), st.integers(0, 3))
def test_any_legal_set_kept_reads_back_the_same(seed, plies, take_backs):
    rng = random.Random(seed)
    record = tuple(str(move) for move in random_moves(rng, Position.from_lineup(), plies) if not move.is_pass)
    board = Position.from_lineup()
    playable = []
    for text in record:  # up to the game's end: a game ended by its moves is among the finished
        board.push(Move.from_text(text))
        if board.is_over():
            break
        playable.append(text)
    kept = SessionRecord(SetRecord("standard", Side.RED, record=tuple(playable), take_backs=take_backs))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.remote.json"
        write_kept(path, pair(), kept, nest=OFFERER)
        assert read_kept(path, GAME) == (OFFERER, pair(), kept)


@pytest.mark.parametrize("command", ["sim", "run"])
def test_a_bad_broker_on_the_command_line_stops_it_with_exit_code_2(capsys, command):
    assert main([command, "--broker", "http://nest:secret@broker.example"]) == 2
    error = capsys.readouterr().err
    assert "--broker" in error and "mqtt://" in error and "secret" not in error
