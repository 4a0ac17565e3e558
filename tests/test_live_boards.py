"""Live boards through a real Mosquitto: two daemons on mock hardware publish their
games, a collector reads them; a move made shows at the collector, a board killed goes
offline by its last will, a third client's garbage is dropped; the message reader
fuzzed; the config's [live] and ``nestref live``'s command line."""

from __future__ import annotations

import dataclasses
import json
import logging
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.cli import main
from firmware_host.daemon import live_feed
from firmware_host.daemon.config import load_config
from firmware_host.daemon.live_feed import BOARD_ID_FILE, LiveFeed, board_id, live_board
from firmware_host.errors import ConfigError
from firmware_host.games import load_game
from firmware_host.games.base import Side, public_view
from firmware_host.remote.broker import BrokerSettings
from firmware_host.remote.broker_client import close_sockets
from firmware_host.remote.live import (
    MAX_LIVE_BYTES,
    LiveBoard,
    LiveBoardPublisher,
    LiveBoards,
    LiveMessageError,
    Offline,
    live_topic,
    read_live_message,
)
from tests.broker import Broker
from tests.test_daemon import Rig, play_c3_c4

TIMEOUT_S = 20.0
ROOT = Path(__file__).resolve().parent.parent


class CountingBoards(LiveBoards):
    """The collector, telling the test of every message taken in, dropped ones too."""

    def __init__(self, settings: BrokerSettings, changed: threading.Condition) -> None:
        super().__init__(settings, games=load_game, client_id="collector")
        self.changed = changed

    def receive(self, topic: str, payload: bytes) -> bool:
        changed = super().receive(topic, payload)
        with self.changed:
            self.changed.notify_all()
        return changed


class Collector:
    """A LiveBoards reader and a condition to wait on what it takes in."""

    def __init__(self, settings: BrokerSettings) -> None:
        self.changed = threading.Condition()
        self.boards = CountingBoards(settings, self.changed)

    def wait_for(self, predicate: Callable[[], bool], what: str) -> None:
        with self.changed:
            if not self.changed.wait_for(predicate, TIMEOUT_S):
                raise AssertionError(f"no {what} within {TIMEOUT_S} s: {self.boards.boards()}")


@pytest.fixture
def collector(broker: Broker) -> Iterator[Collector]:
    collector = Collector(BrokerSettings.from_url(broker.url))
    collector.boards.start()
    assert collector.boards.connected.wait(TIMEOUT_S)
    yield collector
    collector.boards.close()


def publishing_rig(tmp_path: Path, name: str, broker: Broker) -> tuple[Rig, LiveBoardPublisher, LiveFeed]:
    folder = tmp_path / name
    folder.mkdir()
    rig = Rig(folder, f'[broker]\nurl = "{broker.url}"\n[live]\npublish = true\nname = "{name}"\n')
    publisher = LiveBoardPublisher(rig.config.broker, board=board_id(rig.config))  # type: ignore[arg-type]
    publisher.start()
    feed = LiveFeed(rig.daemon, publisher, name=rig.config.live.name)
    rig.start()
    feed.start()
    rig.run_for(0.1)  # the feed's first snapshot, at the end of a turn
    return rig, publisher, feed


def test_two_daemons_publish_and_a_move_made_on_one_shows_at_the_collector(tmp_path, broker, collector):
    rigs = [publishing_rig(tmp_path, name, broker) for name in ("Table 1", "Table 2")]
    try:
        for rig, _, _ in rigs:
            rig.show(load_game("cuckoo").start("standard", Side.RED))  # type: ignore[arg-type]
            rig.run_for(0.5)
        one, two = (publisher.board for _, publisher, _ in rigs)

        def playing(board: str) -> bool:
            shown = collector.boards.board(board)
            return shown is not None and shown.to_move is Side.RED

        collector.wait_for(lambda: playing(one) and playing(two), "two boards playing")
        before = collector.boards.board(two)
        play_c3_c4(rigs[0][0])
        rigs[0][0].run_for(0.1)
        collector.wait_for(lambda: getattr(collector.boards.board(one), "last_move", None) == "c3-c4", "the move")
        shown = collector.boards.board(one)
        assert shown is not None
        assert (shown.name, shown.to_move, shown.moves, shown.number) == ("Table 1", Side.BLUE, 1, 1)
        assert dict(shown.pieces).get("c4") == "E" and "c3" not in dict(shown.pieces)
        assert collector.boards.board(two) == before  # the other board is as it was
        assert [board.name for board in collector.boards.boards()] == ["Table 1", "Table 2"]
        assert collector.boards.dropped == 0
    finally:
        for rig, publisher, _ in rigs:
            publisher.close()
            rig.close()


def test_a_board_closed_says_offline_and_its_id_is_kept_for_the_next_start(tmp_path, broker, collector):
    rig, publisher, _ = publishing_rig(tmp_path, "Table 1", broker)
    collector.wait_for(lambda: collector.boards.board(publisher.board) is not None, "the board")
    publisher.close()
    rig.close()
    collector.wait_for(lambda: not collector.boards.board(publisher.board).online, "offline")
    assert (tmp_path / "Table 1" / BOARD_ID_FILE).read_text().strip() == publisher.board
    assert board_id(rig.config) == publisher.board


def test_a_nest_killed_goes_offline_by_its_last_will(tmp_path, broker, collector):
    """``nestref run --mock`` publishing its game, then SIGKILL: no goodbye, the broker
    sees the connection drop and publishes the nest's last will."""
    config = tmp_path / "config.toml"
    config.write_text(f'[broker]\nurl = "{broker.url}"\n[live]\npublish = true\nname = "Doomed"\n')
    nestref = str(Path(sys.executable).parent / "nestref")
    process = subprocess.Popen(
        [nestref, "run", "--mock", "--config", str(config), "--db", str(tmp_path / "games.sqlite")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def doomed() -> LiveBoard | None:
        return next((board for board in collector.boards.boards() if board.name == "Doomed"), None)

    try:
        collector.wait_for(lambda: doomed() is not None, "the nest's board")
        assert doomed().online  # type: ignore[union-attr]
        process.kill()
        process.wait(timeout=10)
        collector.wait_for(lambda: not doomed().online, "its last will")  # type: ignore[union-attr]
        assert doomed().board == (tmp_path / BOARD_ID_FILE).read_text().strip()  # type: ignore[union-attr]
    finally:
        process.kill()
        process.wait(timeout=10)


def a_board(board: str = "goodboard001", **changes: object) -> LiveBoard:
    fields: dict[str, object] = dict(
        board=board, name="Table 9", game="cuckoo", number=1, pieces=(("c3", "E"), ("c7", "e")), to_move=Side.RED
    )
    return LiveBoard(**{**fields, **changes})  # type: ignore[arg-type]


def forged(good: LiveBoard, **changes: object) -> bytes:
    return json.dumps({**good.to_json(), **changes}).encode()


def test_a_third_clients_garbage_is_dropped_with_a_warning_and_never_shown(broker, collector, caplog):
    caplog.set_level(logging.DEBUG, logger="firmware_host.remote.live")
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        good = a_board()
        client.publish(live_topic(good.board), good.to_bytes(), qos=1, retain=True).wait_for_publish(5)
        collector.wait_for(lambda: collector.boards.board(good.board) == good, "the good board")
        garbage = [
            (live_topic(good.board), b"\x00garbage"),
            (live_topic(good.board), b"x" * (MAX_LIVE_BYTES + 1)),
            (live_topic(good.board), forged(good, board="otherboard01")),  # not its topic's board
            (live_topic(good.board), forged(good, pieces={"c3": "Q"})),  # no such piece
            (live_topic(good.board), forged(good, pieces={"z99": "E"})),  # no such cell
            (live_topic(good.board), forged(good, last_move="c3-z9")),  # off the board
            (live_topic(good.board), forged(good, name="<script>\n")),
            (live_topic(good.board), forged(good, extra=1)),
            (live_topic(good.board), forged(good, score=[3, 0])),
            (live_topic(good.board), forged(good, game="chess")),
            (live_topic("BAD-ID"), good.to_bytes()),
        ]
        for topic, payload in garbage:
            client.publish(topic, payload, qos=1).wait_for_publish(5)
        collector.wait_for(lambda: collector.boards.dropped == len(garbage), "every message dropped")
        assert collector.boards.boards() == (good,)  # nothing shown but the good board, as it was
        refusals = [record for record in caplog.records if "dropped" in record.getMessage()]
        assert len(refusals) == len(garbage)
        # the first from each topic a warning, its repeats quieter: a flood fills no log
        assert [record.levelno for record in refusals].count(logging.WARNING) == 2
        assert "not a piece of cuckoo" in caplog.text and "is not its topic's" in caplog.text
        client.publish(live_topic(good.board), b"", qos=1, retain=True).wait_for_publish(5)  # cleared by hand
        collector.wait_for(lambda: collector.boards.boards() == (), "the board removed")
    finally:
        client.disconnect()
        client.loop_stop()
        close_sockets(client)


def test_a_burst_of_changes_is_one_message_or_two_and_the_last_state_arrives(broker, collector):
    settings_ = BrokerSettings.from_url(broker.url)
    with LiveBoardPublisher(settings_, board="burstyboard1", throttle_s=0.5) as publisher:
        for moves in range(1, 51):
            publisher.show(a_board("burstyboard1", moves=moves))
        collector.wait_for(lambda: getattr(collector.boards.board("burstyboard1"), "moves", 0) == 50, "the last state")
        assert publisher.published <= 2


def test_a_hidden_rank_is_never_published(tmp_path):
    """A battle game's position written in the record's notation holds every rank; the
    snapshot a live board is made from holds its public view alone: every piece an X
    or an x."""
    battle = load_game("battle")
    position = battle.start("demo", Side.RED)
    rig = Rig(tmp_path)
    rig.start()
    snapshot = rig.daemon.snapshot()
    rig.close()
    # The snapshot cannot be handed the record's text: mypy strict fails on the next line
    # if its position ever takes one (the ignore would be unused), as it did before.
    dataclasses.replace(snapshot.game, position=position.to_text())  # type: ignore[arg-type]
    public = dataclasses.replace(snapshot.game, position=public_view(battle, position))
    shown = dataclasses.replace(snapshot, game=public)
    board = live_board(shown, battle, board="battleboard1", name="Battle", result=None)
    assert {letter for _, letter in board.pieces} == {"X", "x"}
    assert len(board.pieces) == len(position.pieces())
    assert position.to_text() not in board.to_bytes().decode()
    assert read_live_message(live_topic("battleboard1"), board.to_bytes(), load_game) == board


def test_the_message_round_trips_and_the_offline_message_too():
    board = a_board(clock=("4:59", "0:09.3"), score=(1, 0), result="red", last_move="c3-c4", moves=12)
    assert read_live_message(live_topic(board.board), board.to_bytes(), load_game) == board
    assert read_live_message(live_topic("goodboard001"), Offline("goodboard001").to_bytes(), load_game) == Offline(
        "goodboard001"
    )


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(sorted(a_board().to_json())), value=_json)
def test_fuzz_one_key_changed_is_refused_or_read_whole(key, value):
    payload = forged(a_board(), **{key: value})
    try:
        read = read_live_message(live_topic("goodboard001"), payload, load_game)
    except LiveMessageError:
        return  # refused, by name (no other exception escapes)
    assert isinstance(read, LiveBoard | Offline)
    assert read_live_message(live_topic("goodboard001"), read.to_bytes(), load_game) == read


@settings(max_examples=300, deadline=None)
@given(payload=st.binary(max_size=200) | _json.map(lambda value: json.dumps(value).encode()))
def test_fuzz_any_bytes_are_refused_by_name(payload):
    with pytest.raises(LiveMessageError):
        read_live_message(live_topic("goodboard001"), payload, load_game)


def test_live_publish_needs_a_broker_and_a_name_that_fits(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[live]\npublish = true\n")
    with pytest.raises(ConfigError, match=r"live\.publish: publishing needs a broker"):
        load_config(config)
    config.write_text(f'[broker]\nurl = "mqtt://127.0.0.1"\n[live]\npublish = true\nname = "{"x" * 41}"\n')
    with pytest.raises(ConfigError, match=r"live\.name: .*up to 40 printable characters"):
        load_config(config)
    config.write_text('[broker]\nurl = "mqtt://127.0.0.1"\n[live]\npublish = true\nname = "Table 3"\n')
    live = load_config(config).live
    assert (live.publish, live.name) == (True, "Table 3")
    assert load_config(None).live.publish is False


def test_nestref_live_refuses_a_bad_broker_and_no_broker_with_exit_code_2(tmp_path, capsys):
    assert main(["live", "--broker", "ftp://example.org"]) == 2
    assert "starts mqtt:// or mqtts://" in capsys.readouterr().err
    config = tmp_path / "config.toml"
    config.write_text(textwrap.dedent("[logging]\nlevel = 'warning'\n"))
    assert main(["live", "--config", str(config)]) == 2
    assert "no broker" in capsys.readouterr().err


def test_over_tls_with_passwords_no_password_is_logged_or_published(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    broker = Broker(tmp_path, users={"tablenest": "s3cret-table", "livepage": "s3cret-page"}, tls=True)
    broker.start()
    try:
        cert = str(broker.cert)
        nest = BrokerSettings.from_url(f"mqtts://tablenest:s3cret-table@127.0.0.1:{broker.port}", ca_file=cert)
        page = BrokerSettings.from_url(f"mqtts://livepage:s3cret-page@127.0.0.1:{broker.port}", ca_file=cert)
        wrong = BrokerSettings.from_url(f"mqtts://livepage:not-it@127.0.0.1:{broker.port}", ca_file=cert)
        refused = LiveBoards(wrong, games=load_game, client_id="wrong")
        collector = Collector(page)
        with refused, collector.boards, LiveBoardPublisher(nest, board="secureboard1") as publisher:
            publisher.show(a_board("secureboard1"))
            collector.wait_for(lambda: collector.boards.board("secureboard1") == a_board("secureboard1"), "the board")
            assert refused.refused.wait(TIMEOUT_S) and not refused.connected.is_set()
        assert "the live boards' reader (broker mqtts://livepage@127.0.0.1:" in caplog.text
        assert "refused the connection" in caplog.text
        assert "s3cret" not in caplog.text and "not-it" not in caplog.text
    finally:
        broker.stop()


class ShownBoards:
    """What a feed hands its publisher: a real publisher's interface, kept to assert on."""

    board = "shownboard01"

    def __init__(self) -> None:
        self.shown: list[LiveBoard] = []

    def show(self, board: LiveBoard) -> None:
        self.shown.append(board)


def test_with_a_clock_the_board_is_taken_again_every_second_and_without_only_on_signals(tmp_path):
    for name in ("timed", "untimed"):
        (tmp_path / name).mkdir()
    timed, untimed = Rig(tmp_path / "timed", '[clock]\ncontrol = "5+3"\n'), Rig(tmp_path / "untimed")
    for rig in (timed, untimed):
        rig.show(load_game("cuckoo").start("standard", Side.RED))  # type: ignore[arg-type]
    feeds = {}
    for name, rig in (("timed", timed), ("untimed", untimed)):
        shown = ShownBoards()
        LiveFeed(rig.daemon, shown, name=name).start()
        rig.start()
        rig.run_for(0.5)
        feeds[name] = shown
    for rig in (timed, untimed):  # red's first move: blue's clock runs (a clock not started shows no change)
        rig.change("c3", False)
        rig.run_for(0.3)
        rig.change("c4", True)
        rig.run_for(0.5)
    for rig in (timed, untimed):
        rig.run_for(5)
    assert all(board.clock is None for board in feeds["untimed"].shown)
    assert len(feeds["untimed"].shown) <= 4  # the first, the game's start, the move: no more while nobody plays
    assert len(feeds["timed"].shown) >= 6  # and once a second (by the daemon's clock) while blue's runs
    assert len({board.clock for board in feeds["timed"].shown}) >= 5  # each with blue's time run down
    assert all(board.clock is not None for board in feeds["timed"].shown[1:])
    for rig in (timed, untimed):
        rig.close()


def test_a_feed_that_fails_is_logged_and_the_referee_goes_on(tmp_path, caplog, monkeypatch):
    rig = Rig(tmp_path)
    rig.show(load_game("cuckoo").start("standard", Side.RED))  # type: ignore[arg-type]
    shown = ShownBoards()
    feed = LiveFeed(rig.daemon, shown, name="broken")
    feed.start()
    rig.start()
    rig.run_for(0.2)
    referee = rig.daemon.service

    def bug(*args: object, **kwargs: object) -> LiveBoard:
        raise RuntimeError("a bug in the feed")

    monkeypatch.setattr(live_feed, "live_board", bug)
    shown.shown.clear()
    play_c3_c4(rig)
    assert "the live board could not be made" in caplog.text
    assert rig.daemon.service is referee and rig.moves() == ["c3-c4"]  # not restarted, the move kept
    assert shown.shown == []
    rig.close()
