"""Two daemons on simulated hardware play a set through a real Mosquitto (tests/broker.py):
every move made by the hands on the mover's switches, shown on the other nest as the
computer's move is, copied there by hand and acknowledged; both records compared."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.cli import main
from firmware_host.daemon.presenter import View
from firmware_host.daemon.remote_shown import RemoteStage
from firmware_host.daemon.tunes import frequency
from firmware_host.games.cuckoo.rules import Move, Position, Side
from firmware_host.remote.broker_client import close_sockets
from firmware_host.remote.messages import SetRecord
from tests.broker import Broker
from tests.remote_helpers import DroppingProxy
from tests.remote_nests import RemoteRig, paired_rigs, play_move, side_of, until


@pytest.fixture
def rigs(tmp_path: Path, broker: Broker) -> Iterator[tuple[RemoteRig, RemoteRig]]:
    red, blue = paired_rigs(tmp_path, broker.url)
    yield red, blue
    red.close()
    blue.close()


def quiet_moves(rng: random.Random, start: Position, plies: int) -> list[Move]:
    """A short line of steps (no captures): a game that a resignation ends."""
    board, moves = start.copy(), []
    for _ in range(plies):
        steps = [move for move in board.legal_moves() if move.origin and not move.is_capture]
        move = rng.choice(steps)
        board.push(move)
        moves.append(move)
    return moves


def is_over(rig: RemoteRig) -> bool:
    return rig.daemon.view is View.OVER


def are_playing(rigs: list[RemoteRig], side: Side) -> bool:
    return all(rig.daemon.snapshot().game.to_move is side and rig.daemon.view is View.PLAYING for rig in rigs)


def records(rig: RemoteRig) -> SetRecord:
    player = rig.remote.player
    assert player is not None and player.session is not None
    return player.session.set_record


def test_two_daemons_play_a_set_of_three_games_the_starter_alternating(rigs):
    red, blue = rigs
    assert side_of(red) is Side.RED and side_of(blue) is Side.BLUE
    by_side = {Side.RED: red, Side.BLUE: blue}
    rng = random.Random(7)
    starters = []
    for number, resigner in enumerate([Side.BLUE, Side.RED, Side.BLUE]):
        starter = Side.RED if number % 2 == 0 else Side.BLUE
        starters.append(red.daemon.snapshot().game.to_move)
        start = Position.from_lineup("standard")
        if starter is Side.BLUE:
            start = red.daemon.config.game.start("standard", Side.BLUE)
        line = quiet_moves(rng, start, 4)
        board = start.copy()
        for move in line:
            mover = by_side[board.turn]
            play_move(mover, blue if mover is red else red, move)
            board.push(move)
        assert red.moves() == blue.moves() == [str(move) for move in line]
        loser = by_side[resigner]
        winner = blue if loser is red else red
        loser.press("take_back", seconds=2.5)  # held: this nest's side resigns
        until([red, blue], partial(is_over, winner), f"game {number + 1} resigned")
        assert loser.daemon.view is View.OVER
        assert red.daemon.snapshot().game.score == blue.daemon.snapshot().game.score
        if number < 2:
            for rig in (red, blue):  # the players set the nest up for the next game
                rig.show(start)
                rig.run_for(1.0)
            nxt = Side.BLUE if number % 2 == 0 else Side.RED
            until([red, blue], partial(are_playing, [red, blue], nxt), f"game {number + 2}")
    assert starters == [Side.RED, Side.BLUE, Side.RED]
    assert records(red) == records(blue)
    assert [game.result for game in records(red).finished] == ["red", "blue", "red"]
    assert red.remote.stage is blue.remote.stage is RemoteStage.SET_OVER
    assert red.daemon.snapshot().game.score == (2, 1)


def test_the_broker_stopped_and_started_again_mid_move_loses_nothing(rigs, broker):
    red, blue = rigs
    rng = random.Random(3)
    start = Position.from_lineup("standard")
    line = quiet_moves(rng, start, 3)
    play_move(red, blue, line[0])
    broker.stop()
    until([red, blue], lambda: "link lost" in red.daemon.snapshot().screen.footer, "the link lost shown")
    assert re.fullmatch(r"link lost \d:\d\d", red.daemon.snapshot().screen.footer)
    blue.make(line[1])  # made and recorded while no broker runs: it waits in the client
    assert blue.moves() == [str(line[0]), str(line[1])]
    assert blue.remote.shown().is_waiting_for_copy
    broker.start()  # on the same port, with nothing retained: the nests say their state again
    until([red, blue], lambda: red.daemon.snapshot().game.computer_move == line[1], "blue's move after the restart")
    red.make(line[1])
    until([red, blue], lambda: not blue.remote.shown().is_waiting_for_copy, "the copy acknowledged")
    play_move(red, blue, line[2])
    assert red.moves() == blue.moves() == [str(move) for move in line]
    assert records(red) == records(blue)


def test_a_third_client_publishing_garbage_illegal_moves_old_plies_and_a_forged_record(rigs, broker):
    red, blue = rigs
    rng = random.Random(5)
    start = Position.from_lineup("standard")
    line = quiet_moves(rng, start, 3)
    for move in line[:2]:
        board_turn = Side.RED if line.index(move) % 2 == 0 else Side.BLUE
        mover = red if board_turn is Side.RED else blue
        play_move(mover, blue if mover is red else red, move)
    assert red.remote.player is not None and red.remote.player.session is not None
    game_id = red.remote.player.session.pairing.game_id
    blue_state = f"nestref/{game_id}/bluenest001/state"
    forger = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="a-third-client", protocol=mqtt.MQTTv311)
    forger.connect("127.0.0.1", broker.port)
    forger.loop_start()
    try:
        genuine = records(blue)
        as_blue = {"v": 2, "type": "hello", "id": game_id, "nest": "bluenest001", "side": "blue", "game": "cuckoo",
                   "lineup": "standard", "first": "red", "games": [], "take_backs": 0, "proposal": None,
                   "answer": None, "desync": None}  # fmt: skip
        # A legal record as long as the one played, but not it: once believed, a desync.
        board = start.copy()
        board.push(next(move for move in board.legal_moves() if move != line[0] and not move.is_capture))
        forged = [str(board.move_stack[0]), *(str(move) for move in quiet_moves(rng, board, 2))]
        payloads = [
            b"\xff\xfe not json",
            b'{"v": 2, "type": "hello"',
            json.dumps({**as_blue, "record": [*genuine.record, "c7-c2"]}).encode(),  # an illegal move
            json.dumps({**as_blue, "record": [*genuine.record, "c3-c4"]}).encode(),  # red's piece, out of turn
            json.dumps({**as_blue, "record": list(genuine.record[:1])}).encode(),  # an old ply
            json.dumps({**as_blue, "nest": "someoneelse1", "record": list(genuine.record)}).encode(),
            json.dumps({**as_blue, "type": "resign", "record": list(genuine.record)}).encode(),
            json.dumps({**as_blue, "record": forged}).encode(),
        ]
        player = red.remote.player
        refused_before = player.refused
        for payload in payloads:
            forger.publish(blue_state, payload, qos=1).wait_for_publish(5)
        until([red, blue], lambda: player.refused == refused_before + len(payloads), "every one refused")
        red.run_for(1.0)
        assert red.remote.stage is RemoteStage.PLAYING and red.daemon.snapshot().game.computer_move is None
        assert records(red) == records(blue) == genuine
        play_move(red, blue, line[2])  # play goes on: nothing was accepted, nothing lost
        assert red.remote.stage is blue.remote.stage is RemoteStage.PLAYING
        assert red.moves() == blue.moves() == [str(move) for move in line]
    finally:
        forger.loop_stop()
        forger.disconnect()
        close_sockets(forger)


def test_a_lost_link_sounds_its_cue_on_a_nest_with_a_piezo(tmp_path, broker):
    sound = '[sound]\nenabled = true\npin = 10\n[cell_lights]\ndriver = "none"\n'
    red = RemoteRig(tmp_path / "red", broker.url, "rednest0001", seed=1, extra=sound)
    blue = RemoteRig(tmp_path / "blue", broker.url, "bluenest001", seed=2)
    try:
        start = Position.from_lineup("standard")
        red.start(start)
        blue.start(start)
        red.press("confirm")
        blue.daemon.remote_action("remote_join", {"code": red.remote.code})
        until([red, blue], lambda: red.remote.stage is blue.remote.stage is RemoteStage.PLAYING, "the pairing")
        piezo = red.devices.pin_factory.pin(red.config.sound.pin)
        red.run_for(1.0)
        assert piezo.frequency is None  # quiet while the link is up
        blue.close()  # the other nest goes away: its last will, or its leaving
        until([red], lambda: "other nest away" in red.daemon.snapshot().screen.footer, "the other nest away")
        assert piezo.frequency == pytest.approx(frequency("E6"))  # LINK_LOST's first note
    finally:
        red.close()


def test_a_code_is_entered_with_the_buttons(tmp_path, broker):
    start = Position.from_lineup("standard")
    red = RemoteRig(tmp_path / "red", broker.url, "rednest0001", seed=1)
    blue = RemoteRig(tmp_path / "blue", broker.url, "bluenest001", seed=2)
    try:
        red.start(start)
        blue.start(start)
        red.press("confirm")
        code = red.remote.code
        blue.press("switch", seconds=2.5)  # held: a code to enter
        assert blue.remote.stage is RemoteStage.ENTERING
        for index, character in enumerate(code):
            while blue.remote.shown().choosing != character:
                blue.press("switch")
            if index == 0:  # a wrong character taken, and undone
                blue.press("confirm")
                blue.press("take_back")
            assert blue.daemon.snapshot().screen.headline.startswith(code[:index] + character)
            blue.press("confirm")
        assert blue.remote.stage in (RemoteStage.JOINING, RemoteStage.PLAYING)  # the broker may be quick
        until([red, blue], lambda: red.remote.stage is blue.remote.stage is RemoteStage.PLAYING, "the pairing")
        assert side_of(blue) is Side.BLUE
    finally:
        red.close()
        blue.close()


def test_a_take_back_asked_on_one_nest_and_agreed_on_the_other_undoes_both_moves_on_both(rigs):
    red, blue = rigs
    start = Position.from_lineup("standard")
    line = quiet_moves(random.Random(11), start, 3)
    play_move(red, blue, line[0])
    play_move(blue, red, line[1])
    red.press("take_back")  # asks: red's last move and blue's reply to it
    until([red, blue], lambda: blue.daemon.snapshot().screen.headline == "UNDO?", "the request shown")
    assert " ".join(blue.daemon.snapshot().screen.lines[:2]) == "they ask to take back"
    blue.press("confirm")  # agreed
    for rig in (red, blue):
        until([red, blue], lambda rig=rig: rig.moves() == [], "both moves taken back")  # type: ignore[misc]
    for rig in (red, blue):  # the players put the nest back as the OLED guides them
        rig.show(start)
        rig.run_for(1.0)
        assert rig.daemon.view is View.PLAYING and rig.daemon.snapshot().game.to_move is Side.RED
    assert records(red) == records(blue) and records(red).take_backs == 1 and records(red).record == ()
    play_move(red, blue, line[2])
    assert red.moves() == blue.moves() == [str(line[2])]


def test_a_draw_offer_declined_changes_nothing(rigs):
    red, blue = rigs
    start = Position.from_lineup("standard")
    line = quiet_moves(random.Random(13), start, 2)
    play_move(red, blue, line[0])
    blue.press("switch", seconds=2.5)  # held, playing: offer a draw
    until([red, blue], lambda: red.daemon.snapshot().screen.headline == "DRAW?", "the offer shown")
    red.press("switch")  # no
    until([red, blue], lambda: blue.remote.shown().said == "draw declined", "the answer")
    assert red.daemon.snapshot().screen.headline != "DRAW?"
    play_move(blue, red, line[1])
    assert records(red) == records(blue) and records(red).record == tuple(str(move) for move in line)


def test_a_draw_offered_and_accepted_is_a_drawn_game_of_the_set_on_both_nests(rigs, capsys):
    red, blue = rigs
    start = Position.from_lineup("standard")
    line = quiet_moves(random.Random(17), start, 1)
    play_move(red, blue, line[0])
    red.press("switch", seconds=2.5)  # held, playing: offer a draw
    until([red, blue], lambda: blue.daemon.snapshot().screen.headline == "DRAW?", "the offer shown")
    blue.press("confirm")  # yes
    until([red, blue], lambda: is_over(red) and is_over(blue), "the game drawn on both nests")
    for rig in (red, blue):
        screen = rig.daemon.snapshot().screen
        assert screen.headline == "DRAW" and " ".join(screen.lines).startswith("drawn by agreement")
        rig.show(start)
        rig.run_for(1.0)
    until([red, blue], partial(are_playing, [red, blue], Side.BLUE), "game 2, started by blue")
    assert [game.ending.value for game in records(red).finished] == ["agreed"]
    assert records(red) == records(blue)
    for rig in (red, blue):  # each nest's own record says so, and writes it as a game record
        database = str(rig.config.database)
        assert main(["games", "--db", database]) == 0
        listed = capsys.readouterr().out
        assert "draw: drawn by agreement" in listed and "no side can move" not in listed
        agreed = next(line.split()[0] for line in listed.splitlines() if "agreement" in line)
        exported = Path(database).with_name("agreed.txt")
        assert main(["export", "--db", database, agreed, "--output", str(exported)]) == 0, capsys.readouterr().err
        assert '[Termination "agreed"]' in exported.read_text() and '[Result "draw"]' in exported.read_text()
        again = str(Path(database).with_name("again.sqlite"))
        assert main(["import", "--db", again, str(exported)]) == 0, capsys.readouterr().err  # read back as written
        assert "draw: drawn by agreement" in (main(["games", "--db", again]), capsys.readouterr().out)[1]


def test_a_flag_fall_on_one_nests_clock_ends_the_game_on_both_and_the_next_goes_on(tmp_path, broker):
    red, blue = paired_rigs(tmp_path, broker.url, extra='[clock]\ncontrol = "1"\n')
    try:
        start = Position.from_lineup("standard")
        line = quiet_moves(random.Random(23), start, 2)
        play_move(red, blue, line[0])
        play_move(blue, red, line[1])
        red.run_for(61.0)  # red's minute runs out on its own nest's clock; blue's is seconds behind
        until([red, blue], lambda: is_over(red) and is_over(blue), "the game lost on time on both nests")
        for rig in (red, blue):
            assert "red out of time" in " ".join(rig.daemon.snapshot().screen.lines)
        assert records(red) == records(blue)
        assert [(game.result, game.ending.value) for game in records(red).finished] == [("blue", "time")]
        second = Position.from_lineup("standard", turn=Side.BLUE)
        for rig in (red, blue):
            rig.show(second)
            rig.run_for(1.0)
        until([red, blue], partial(are_playing, [red, blue], Side.BLUE), "game 2, started by blue")
        play_move(blue, red, quiet_moves(random.Random(29), second, 1)[0])  # taken on both: the set goes on
        assert records(red) == records(blue) and len(records(red).record) == 1
    finally:
        red.close()
        blue.close()


def test_a_nest_whose_messages_are_lost_on_the_way_says_so_in_its_footer(tmp_path, broker):
    proxy = DroppingProxy(broker.port)  # both nests' way to the broker; it loses what they publish, on demand
    red, blue = paired_rigs(tmp_path, proxy.url)
    try:
        start = Position.from_lineup("standard")
        line = quiet_moves(random.Random(31), start, 2)
        play_move(red, blue, line[0])
        proxy.dropping = True
        blue.make(line[1])  # made and recorded; its message lost on the way, the connection alive
        until([red, blue], lambda: re.fullmatch(r"\d+ messages? stuck \d:\d\d", blue.daemon.snapshot().screen.footer)
              is not None, "the footer saying so")  # fmt: skip
        proxy.dropping = False
        until([red, blue], lambda: red.daemon.snapshot().game.computer_move == line[1], "the move, sent again")
        red.make(line[1])
        until([red, blue], lambda: not blue.remote.shown().is_waiting_for_copy, "the copy acknowledged")
        until([red, blue], lambda: "stuck" not in blue.daemon.snapshot().screen.footer, "the footer clear again")
        assert red.moves() == blue.moves() == [str(move) for move in line]
    finally:
        red.close()
        blue.close()
        proxy.close()


def test_confirm_between_games_leaves_the_seats_of_the_set_as_they_are(rigs):
    red, blue = rigs
    start = Position.from_lineup("standard")
    line = quiet_moves(random.Random(37), start, 2)
    play_move(red, blue, line[0])
    play_move(blue, red, line[1])
    red.press("take_back", seconds=2.5)  # held: red resigns game 1
    until([red, blue], lambda: is_over(red) and is_over(blue), "game 1 resigned")
    for rig in (red, blue):
        rig.press("confirm")  # between games, on one nest alone, confirm chose who plays
        rig.run_for(0.5)
    second = Position.from_lineup("standard", turn=Side.BLUE)
    for rig in (red, blue):
        rig.show(second)
        rig.run_for(1.0)
    until([red, blue], partial(are_playing, [red, blue], Side.BLUE), "game 2, started by blue")
    play_move(blue, red, quiet_moves(random.Random(41), second, 1)[0])  # blue's own nest, shown on red's
    assert records(red) == records(blue) and len(records(red).record) == 1
