"""Remote play through a real Mosquitto: two nests pair and play, the broker restarts
mid-game, a third client publishes garbage, illegal moves, old plies and a forged
record, and TLS with a user name and password."""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.games.base import Game, Side
from firmware_host.remote.broker import BrokerSettings, LinkError
from firmware_host.remote.broker_client import close_sockets
from firmware_host.remote.link import presence_topic, state_topic
from firmware_host.remote.messages import (
    Kind,
    LastMove,
    Message,
    Proposal,
    ProposalKind,
    SetRecord,
    StateMessage,
    read_message,
)
from firmware_host.remote.player import RemotePlayer
from firmware_host.remote.session import Desynced, Event, LinkChanged, MoveCopied, Phase, Refused, Session, ShowMove
from firmware_host.remote.signing import sign
from tests.broker import Broker
from tests.remote_helpers import GAME, DroppingProxy, line_with_a_pass

TIMEOUT_S = 20.0


class Nest:
    """A remote player and the events it told, to wait on."""

    def __init__(self, settings: BrokerSettings, nest: str) -> None:
        self.events: list[Event] = []
        self.changed = threading.Condition()
        self.player = RemotePlayer(GAME, settings, nest=nest, clock=time.monotonic, on_event=self._event)

    def _event(self, event: Event) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    @property
    def session(self) -> Session:
        assert self.player.session is not None
        return self.player.session

    def wait_for(self, predicate: Callable[[], bool], what: str) -> None:
        """Until ``predicate`` holds (checked on each event, and every 20 ms for what
        changes without one, such as the refusals counted)."""
        deadline = time.monotonic() + TIMEOUT_S
        with self.changed:
            while not predicate():
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.player.nest}: no {what} within {TIMEOUT_S} s: {self.events}")
                self.changed.wait(0.02)

    def wait_for_event(self, kind: type, what: str) -> Event:
        self.wait_for(lambda: any(isinstance(event, kind) for event in self.events), what)
        with self.changed:
            found = next(event for event in self.events if isinstance(event, kind))
            self.events.remove(found)
            return found


def paired(
    settings: BrokerSettings, code: str = "K7P2QX", *, blue_settings: BrokerSettings | None = None
) -> tuple[Nest, Nest]:
    red, blue = Nest(settings, "rednest0001"), Nest(blue_settings or settings, "bluenest001")
    red.player.offer(side=Side.RED, lineup="standard", first_starter=Side.RED, random=random.Random(0), code=code)
    blue.player.join(code)
    blue.wait_for(lambda: blue.player.session is not None, "pairing")
    red.wait_for(lambda: red.player.session is not None, "pairing")
    return red, blue


def play(mover: Nest, copier: Nest) -> str:
    """``mover`` makes its first legal move; ``copier`` is shown it and copies it."""
    move = mover.session.position.legal_moves()[0].to_text()
    mover.player.local_move(move)
    shown = copier.wait_for_event(ShowMove, "move shown")
    assert isinstance(shown, ShowMove) and shown.move == move
    copier.player.local_move(move)
    copied = mover.wait_for_event(MoveCopied, "ack")
    assert isinstance(copied, MoveCopied) and copied.move == move
    return move


@pytest.fixture
def players(broker: Broker) -> Iterator[tuple[Nest, Nest]]:
    red, blue = paired(BrokerSettings.from_url(broker.url))
    yield red, blue
    red.player.close()
    blue.player.close()


def test_two_nests_pair_with_the_code_and_play_moves_copied_both_ways(players):
    red, blue = players
    assert red.session.side is Side.RED and blue.session.side is Side.BLUE
    for nest in (red, blue):
        nest.wait_for(lambda nest=nest: nest.session.link.to_text(time.monotonic()) == "link up", "the other online")
    moves = [play(red, blue), play(blue, red), play(red, blue), play(blue, red)]
    assert red.session.set_record == blue.session.set_record
    assert red.session.set_record.record == tuple(moves)
    assert not red.session.is_waiting_for_copy() and red.session.is_our_turn()


def test_a_broker_restarted_mid_game_loses_nothing(broker, players):
    red, blue = players
    play(red, blue)
    broker.stop()
    red.wait_for(lambda: not red.session.link.is_up, "link lost")
    move = blue.session.position.legal_moves()[0].to_text()
    blue.player.local_move(move)  # made while the broker is away: kept, sent when it is back
    broker.start()  # a broker without persistence: every retained message is gone
    shown = red.wait_for_event(ShowMove, "the move made while the broker was away")
    assert isinstance(shown, ShowMove) and shown.move == move
    red.player.local_move(move)
    blue.wait_for_event(MoveCopied, "ack after the restart")
    assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 2


def intruder(broker: Broker) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def close_intruder(client: mqtt.Client) -> None:
    client.disconnect()
    client.loop_stop()
    close_sockets(client)


def test_garbage_illegal_moves_old_plies_are_refused_and_the_game_goes_on(broker, players):
    red, blue = players
    play(red, blue)
    topic = state_topic(blue.session.pairing.game_id, blue.player.nest)
    key = blue.session.pairing.key
    old = blue.session.hello(time.monotonic()).messages[0]
    play(blue, red)
    client = intruder(broker)
    illegal = old.to_bytes().replace(b'"record":[', b'"record":["e7-e1",', 1)
    payloads = [b"\x00garbage", b"{}", old.to_bytes(), sign(key, topic, 10**6, b"{}"), sign(key, topic, 10**6, illegal)]
    for count, payload in enumerate(payloads, start=1):  # the last two signed with the key itself
        client.publish(topic, payload, qos=1).wait_for_publish(5)
        red.wait_for(lambda count=count: red.player.refused == count, f"refusal {count}")
    told = [event for event in red.events if isinstance(event, Refused)]
    assert len(told) == 1 and "not signed" in told[0].reason  # the others are counted, told within the minute
    close_intruder(client)
    assert red.session.phase is Phase.PLAYING and red.session.incoming is None
    play(red, blue)
    assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 3


def forged_state(nest: Nest, kind: Kind, record: tuple[str, ...], **fields: object) -> StateMessage:
    """A state message as ``nest`` would send it, but made by someone else."""
    session = nest.session
    set_record = SetRecord("standard", Side.RED, record=record)
    return StateMessage(kind, session.pairing.game_id, nest.player.nest, session.side, "cuckoo", set_record, **fields)  # type: ignore[arg-type]


class Recorder:
    """A third client on the broker keeping every payload of every nestref topic it sees."""

    def __init__(self, broker: Broker) -> None:
        self.seen: dict[str, list[bytes]] = {}
        self.client = intruder(broker)
        self.client.on_message = lambda client, userdata, message: self.seen.setdefault(message.topic, []).append(
            bytes(message.payload)
        )
        self.client.subscribe("nestref/#", qos=1)


def test_a_third_client_cannot_move_resign_or_offer_a_draw_for_a_nest(broker, players):
    red, blue = players
    recorder = Recorder(broker)
    game_id = red.session.pairing.game_id
    blue_topic, red_topic = state_topic(game_id, blue.player.nest), state_topic(game_id, red.player.nest)
    play(red, blue)  # blue's turn now: its move, its resignation, its draw offer are what one would forge
    red.wait_for(lambda: len(recorder.seen.get(blue_topic, [])) >= 2 and red_topic in recorder.seen, "copies")
    record = red.session.set_record.record
    move = blue.session.position.legal_moves()[0]
    after = blue.session.position
    after.push(move)
    forged_move = forged_state(
        blue,
        Kind.MOVE,
        (*record, move.to_text()),
        last_move=LastMove(0, len(record) + 1, move.to_text(), after.to_text()),
    )
    forgeries = [
        forged_move.to_bytes(),  # well-formed and legal, but not signed
        forged_state(blue, Kind.RESIGN, record).to_bytes(),
        forged_state(blue, Kind.DRAW_OFFER, record, proposal=Proposal(ProposalKind.DRAW, len(record))).to_bytes(),
        sign(b"k" * 32, blue_topic, 10**6, forged_move.to_bytes()),  # signed with a guessed key
        recorder.seen[red_topic][-1],  # red's own, signed, put on blue's topic: signed for another
    ]
    for count, payload in enumerate(forgeries, start=1):
        recorder.client.publish(blue_topic, payload, qos=1, retain=True).wait_for_publish(5)
        red.wait_for(lambda count=count: red.player.refused == count, f"forgery {count} refused")
    # Blue's own, signed, replayed: an old sequence number, dropped unread.
    recorder.client.publish(blue_topic, recorder.seen[blue_topic][0], qos=1, retain=True).wait_for_publish(5)
    red.wait_for(lambda: red.player.late == 1, "the replay dropped")
    close_intruder(recorder.client)
    session = red.session
    assert session.phase is Phase.PLAYING and session.incoming is None and session.peer_proposal is None
    assert session.set_record.record == record and session.set_record.game_number == 0
    assert not any(isinstance(event, Desynced | ShowMove) for event in red.events + blue.events)
    play(blue, red)  # the set goes on, both nests agreeing
    assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 2


def test_tls_with_a_password_and_the_password_never_logged(tmp_path, caplog):
    broker = Broker(tmp_path, users={"rednest": "s3cret-red", "bluenest": "s3cret-blue"}, tls=True)
    broker.start()
    caplog.set_level(logging.DEBUG)
    try:
        wrong = Nest(
            BrokerSettings.from_url(f"mqtts://rednest:wrong@127.0.0.1:{broker.port}", ca_file=str(broker.cert)),
            "wrongnest01",
        )
        wrong.player.offer(side=Side.RED, lineup="standard", first_starter=Side.RED, random=random.Random(1))
        settings = BrokerSettings.from_url(
            f"mqtts://rednest:s3cret-red@127.0.0.1:{broker.port}", ca_file=str(broker.cert)
        )
        red, blue = paired(settings, code="TMS234")
        play(red, blue)
        assert wrong.player.session is None
        for nest in (red, blue, wrong):
            nest.player.close()
    finally:
        broker.stop()
    assert "refused the connection" in caplog.text
    assert "s3cret" not in caplog.text and "wrong" not in caplog.text.replace("wrongnest01", "")


def test_a_nest_restarted_resumes_from_its_record_and_the_others_retained_state(broker, players):
    red, blue = players
    play(red, blue)
    play(blue, red)
    pairing, kept = blue.session.pairing, blue.session.to_record()
    blue.player.close()  # the nest goes away
    move = play_alone(red)
    again = Nest(BrokerSettings.from_url(broker.url), blue.player.nest)
    again.player.resume(pairing, kept)
    shown = again.wait_for_event(ShowMove, "the move made while it was away, from the retained state")
    assert isinstance(shown, ShowMove) and shown.move == move
    again.player.local_move(move)
    red.wait_for_event(MoveCopied, "ack from the restarted nest")
    assert red.session.set_record == again.session.set_record and len(red.session.set_record.record) == 3
    again.player.close()


def play_alone(mover: Nest) -> str:
    move = mover.session.position.legal_moves()[0].to_text()
    mover.player.local_move(move)
    return move


def test_a_broker_address_is_read_or_refused_without_its_password():
    settings = BrokerSettings.from_url("mqtts://nest:p%40ss@broker.example")
    assert (settings.port, settings.username, settings.password, settings.tls) == (8883, "nest", "p@ss", True)
    assert "p@ss" not in repr(settings) and settings.to_text() == "mqtts://nest@broker.example:8883"
    assert BrokerSettings.from_url("mqtt://10.0.0.2").port == 1883
    for url, words in [
        ("http://nest:hunter2@broker", "starts mqtt:// or mqtts://"),
        ("mqtt://nest:hunter2@broker:99999", "Port out of range"),
        ("mqtt://nest:hunter2@broker/topic", "no path"),
        ("mqtt://", "no host name"),
    ]:
        with pytest.raises(LinkError, match=words) as refused:
            BrokerSettings.from_url(url)
        assert "hunter2" not in str(refused.value)


def documented_block(first_line: str, having: str) -> list[str]:
    """The lines of the fenced block of docs/remote-play.md that starts with ``first_line``
    and has ``having`` in it (its comments left out)."""
    text = (Path(__file__).parent.parent / "docs" / "remote-play.md").read_text()
    blocks = [part.split("```", 1)[0] for part in text.split(f"```\n{first_line}\n")[1:]]
    block = next(block for block in blocks if having in block)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_on_the_documented_club_broker_a_member_cannot_write_another_nests_topics(tmp_path):
    acl = documented_block("# /etc/mosquitto/acl", "%u")
    config = documented_block("# /etc/mosquitto/conf.d/nestref.conf", "acl_file")
    limits = [line for line in config if line.startswith("max_packet_size")]
    assert "pattern write nestref/+/%u/#" in acl and limits == ["max_packet_size 270000"]
    users = {"rednest0001": "red-pw", "bluenest001": "blue-pw", "mallory0001": "mallory-pw"}
    broker = Broker(tmp_path, users=users, tls=True, acl="\n".join(acl) + "\n", extra=tuple(limits))
    broker.start()

    def login(user: str) -> BrokerSettings:
        url = f"mqtts://{user}:{users[user]}@127.0.0.1:{broker.port}"
        return BrokerSettings.from_url(url, ca_file=str(broker.cert))

    red, blue = paired(login("rednest0001"), blue_settings=login("bluenest001"))
    mallory = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="mallory", protocol=mqtt.MQTTv311)
    try:
        play(red, blue)
        game_id = red.session.pairing.game_id
        mallory.username_pw_set("mallory0001", users["mallory0001"])
        mallory.tls_set(ca_certs=str(broker.cert))
        mallory.connect("127.0.0.1", broker.port)
        mallory.loop_start()
        blues = state_topic(game_id, "bluenest001")
        # Signed or not, the broker drops what she writes on blue's topics; red never sees it.
        forged = forged_state(blue, Kind.RESIGN, red.session.set_record.record).to_bytes()
        for topic in (blues, presence_topic(game_id, "bluenest001")):
            mallory.publish(topic, forged if topic == blues else b"0", qos=1, retain=True).wait_for_publish(5)
        # On her own topic she may write: red reads it, and refuses it, once (after the two above).
        mallory.publish(state_topic(game_id, "mallory0001"), forged, qos=1).wait_for_publish(5)
        red.wait_for(lambda: red.player.refused == 1, "her own topic's message refused")
        assert red.session.link.is_peer_online and red.session.phase is Phase.PLAYING
        mallory.publish(state_topic(game_id, "mallory0001"), b"x" * 270_001, qos=1)  # over the limit
        deadline = time.monotonic() + TIMEOUT_S
        while mallory.is_connected():  # the broker disconnects her
            assert time.monotonic() < deadline, "the broker kept a client sending more than its limit"
            time.sleep(0.02)
        assert red.player.refused == 1
        play(blue, red)
        assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 2
    finally:
        mallory.loop_stop()
        close_sockets(mallory)
        red.player.close()
        blue.player.close()
        broker.stop()
    assert any("mallory" in line and "disconnect" in line.lower() for line in broker.log), broker.log


def test_a_pass_forced_by_the_rules_does_not_stop_the_set(players):
    red, blue = players
    nests = {Side.RED: red, Side.BLUE: blue}
    position = GAME.start("standard", Side.RED)
    for move in line_with_a_pass():
        if move == "pass":  # as both referees do: each tells its own session
            red.player.local_move(move)
            blue.player.local_move(move)
        else:
            mover = nests[position.turn]
            copier = blue if mover is red else red
            mover.player.local_move(move)
            shown = copier.wait_for_event(ShowMove, f"{move} shown")
            assert isinstance(shown, ShowMove) and shown.move == move
            copier.player.local_move(move)
        position.push(GAME.read_move(move))
        if move != "pass" and not position.is_over():
            mover.wait_for_event(MoveCopied, f"{move} copied")
    red.wait_for(lambda: red.session.set_record.game_number == 1, "game 1 over")
    blue.wait_for(lambda: blue.session.set_record == red.session.set_record, "the same record")
    assert red.session.phase is Phase.PLAYING and red.player.refused == blue.player.refused == 0


def test_more_than_twenty_messages_lost_on_a_live_connection_are_sent_again(broker):
    proxy = DroppingProxy(broker.port)  # red's only way to the broker: it loses what red publishes
    red, blue = paired(BrokerSettings.from_url(proxy.url), blue_settings=BrokerSettings.from_url(broker.url))
    try:
        play(red, blue)
        play(blue, red)
        proxy.dropping = True
        move = play_alone(red)
        for _ in range(24):  # each one more state message: paho sends 20 and holds the rest
            red.player.offer_draw()
        red.wait_for(lambda: proxy.dropped >= 20, "twenty messages lost")
        link = red.player.link
        assert link is not None and link.unacknowledged() == 25 and link.is_connected()
        proxy.dropping = False  # the network is back; the connection never dropped
        shown = blue.wait_for_event(ShowMove, "the move lost on the way")
        assert isinstance(shown, ShowMove) and shown.move == move
        blue.player.local_move(move)
        red.wait_for_event(MoveCopied, "its copy acknowledged")
        assert red.session.set_record == blue.session.set_record and len(red.session.set_record.record) == 3
        red.wait_for(lambda: link.unacknowledged() == 0, "every message acknowledged")
        assert link.stalls == 1
    finally:
        red.player.close()
        blue.player.close()
        proxy.close()


def test_a_flood_of_forged_messages_is_refused_before_any_is_read_and_logged_once(broker, players, monkeypatch, caplog):
    red, blue = players
    play(red, blue)
    read: list[bytes] = []  # every message the rules replay: a spy on the real reader, which it calls

    def spy(data: bytes, game: Game) -> Message:
        read.append(data)
        return read_message(data, game)

    monkeypatch.setattr("firmware_host.remote.player.read_message", spy)
    long_set = SetRecord("standard", Side.RED, record=red.session.set_record.record)
    proposal = Proposal(ProposalKind.DRAW, len(long_set.record))  # a draw offer: nothing blue itself sends here
    forged = StateMessage(
        Kind.DRAW_OFFER, red.session.pairing.game_id, "bluenest001", Side.BLUE, "cuckoo", long_set, proposal=proposal
    )
    topic = state_topic(red.session.pairing.game_id, "bluenest001")
    caplog.set_level(logging.WARNING, logger="firmware_host.remote.player")
    client = intruder(broker)
    try:
        for number in range(200):
            payload = forged.to_bytes() if number % 2 else sign(b"x" * 32, topic, number, forged.to_bytes())
            client.publish(topic, payload, qos=1)
        client.publish(topic, b"", qos=1).wait_for_publish(5)
        red.wait_for(lambda: red.player.refused == 200, "every forgery refused")
    finally:
        close_intruder(client)
    assert forged.to_bytes() not in read  # none reached the rules (blue's own heartbeats may have)
    assert len([record for record in caplog.records if "refused a message" in record.message]) == 1
    play(blue, red)
    assert len(read) >= 1 and red.session.peer_proposal is None  # blue's own are read, as ever


def test_messages_stuck_on_the_way_are_shown_not_link_up_until_they_get_through(broker):
    proxy = DroppingProxy(broker.port)
    red, blue = paired(BrokerSettings.from_url(proxy.url), blue_settings=BrokerSettings.from_url(broker.url))
    try:
        play(red, blue)
        play(blue, red)

        def shown(nest: Nest) -> str:
            nest.player.tick()  # as the daemon does, every second
            return nest.session.link.to_text(time.monotonic())

        red.wait_for(lambda: shown(red) == "link up", "link up")
        proxy.dropping = True
        play_alone(red)
        red.wait_for(lambda: re.fullmatch(r"1 message stuck 0:0\d", shown(red)) is not None, "the move stuck")
        assert red.session.link.is_up and red.session.link.is_peer_online  # the connection itself is alive
        proxy.dropping = False
        blue.wait_for_event(ShowMove, "the move, once sent again")
        red.wait_for(lambda: shown(red) == "link up", "link up again")
    finally:
        red.player.close()
        blue.player.close()
        proxy.close()


def test_a_zero_put_on_a_nests_online_topic_by_someone_else_is_put_right_at_once(broker, players):
    red, blue = players
    game_id = red.session.pairing.game_id
    red.wait_for(lambda: red.session.link.is_peer_online, "blue online")
    client = intruder(broker)
    try:
        client.publish(presence_topic(game_id, blue.player.nest), b"0", qos=1, retain=True).wait_for_publish(5)
        red.wait_for(lambda: any(e == LinkChanged(False, peer=True) for e in red.events), "the forged 0 heard")
        red.wait_for(lambda: red.session.link.is_peer_online, "blue online again: it said 1 over the 0")
    finally:
        close_intruder(client)
    assert blue.player.link is not None and blue.player.link.is_connected()
