"""The remote-play session: pairing, moves and their copies, agreements, the set, and
two sessions over a network that drops, duplicates, reorders, delays and reboots."""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.games.base import Side
from firmware_host.remote.messages import Ending, Kind, MessageError, ProposalKind, SetRecord, read_message
from firmware_host.remote.session import (
    SILENT_S,
    Desynced,
    GameEnded,
    Joining,
    LinkView,
    MoveCopied,
    Offering,
    Phase,
    ProposalDeclined,
    ProposalMade,
    Refused,
    Session,
    SessionError,
    SessionRecord,
    ShowMove,
    Step,
    TakeBack,
)
from tests.remote_helpers import (
    CODE,
    GAME,
    GAME_ID,
    JOIN_NONCE,
    JOINER,
    OFFER_NONCE,
    OFFERER,
    Network,
    line_with_a_pass,
    pair,
)


def first_legal(session: Session) -> str:
    return session.position.legal_moves()[0].to_text()


def play_and_copy(network: Network, nest: str, move: str | None = None) -> str:
    """``nest`` plays ``move`` (its first legal one by default); the other copies it."""
    move = move or first_legal(network.sessions[nest])
    network.move(nest, move)
    network.deliver_all()
    network.copy(Network.other(nest))
    network.deliver_all()
    return move


@pytest.fixture
def network() -> Network:
    network = Network.started(pair())
    network.deliver_all()
    return network


def test_pairing_needs_the_code_of_the_offer():
    offering = Offering(
        GAME, code="k7p2qx", nest=OFFERER, side=Side.BLUE, lineup="standard", first_starter=Side.RED,
        game_id=GAME_ID, nonce=OFFER_NONCE,
    )  # fmt: skip
    assert offering.code == CODE and offering.offer.game_id == GAME_ID
    assert b"K7P2QX" not in offering.offer.to_bytes()  # the code never goes on the wire
    right, wrong = (
        Joining(GAME, code=CODE, nest=JOINER, nonce=JOIN_NONCE),
        Joining(GAME, code="ABCDEF", nest=JOINER, nonce=JOIN_NONCE),
    )
    assert right.key_for(GAME_ID, OFFERER) == offering.key != wrong.key_for(GAME_ID, OFFERER)
    assert offering.key != right.key_for("fedcba9876543210", OFFERER) != right.key_for(GAME_ID, JOINER)
    pairing = right.received(offering.offer)
    assert right.join is not None and offering.received(right.join) == pairing
    assert pairing is not None and pairing.offerer_side is Side.BLUE and pairing.code == CODE
    assert pairing.key.hex() not in repr(pairing)
    joiner = Session(GAME, pairing, nest=JOINER, now=0.0)
    assert joiner.side is Side.RED
    with pytest.raises(MessageError, match="not a game code"):
        Joining(GAME, code="K7P2Q", nest=JOINER, nonce=JOIN_NONCE)


def test_a_move_is_shown_there_and_waits_for_its_copy(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    assert red.is_our_turn() and not blue.is_our_turn()
    move = first_legal(red)
    network.move(OFFERER, move)
    assert red.is_waiting_for_copy()
    network.deliver_all()
    assert blue.incoming == ShowMove(0, 1, move)
    assert red.is_waiting_for_copy()
    network.copy(JOINER)
    network.deliver_all()
    assert not red.is_waiting_for_copy()
    assert MoveCopied(1, move) in network.events[OFFERER]
    assert red.set_record == blue.set_record and blue.is_our_turn()


def test_a_move_out_of_turn_or_not_the_one_shown_is_refused(network):
    blue = network.sessions[JOINER]
    with pytest.raises(SessionError, match="red's turn"):
        blue.local_move(first_legal(network.sessions[OFFERER]), 0.0)
    red_moves = [move.to_text() for move in network.sessions[OFFERER].position.legal_moves()]
    network.move(OFFERER, red_moves[0])
    network.deliver_all()
    with pytest.raises(SessionError, match="is to be copied"):
        blue.local_move(red_moves[1], 0.0)
    assert blue.set_record.record == ()


def test_a_message_from_another_nest_is_refused(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    network.move(OFFERER, first_legal(red))
    forged = dataclasses.replace(network.sessions[OFFERER].hello(0.0).messages[0], nest="intruder0001")
    step = blue.received(read_message(forged.to_bytes(), GAME), 0.0)
    assert isinstance(step.events[0], Refused) and blue.incoming is None


def test_records_that_disagree_stop_both_nests_and_say_why(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    play_and_copy(network, OFFERER)
    # Blue's nest loses its record and is restarted on another game's.
    moves = [move.to_text() for move in red.position.legal_moves()]
    other = GAME.start("standard", Side.RED)
    other_first = next(m.to_text() for m in other.legal_moves() if m.to_text() != red.set_record.record[0])
    kept = SessionRecord(SetRecord("standard", Side.RED, record=(other_first,)))
    network.sessions[JOINER] = Session(GAME, network.pairing, nest=JOINER, now=1.0, resume=kept)
    network.link(JOINER, True)
    network.deliver_all()
    assert red.phase is Phase.DESYNC and network.sessions[JOINER].phase is Phase.DESYNC
    assert "move 1 of game 1" in (red.desync_reason or "")
    assert any(isinstance(event, Desynced) for event in network.events[JOINER])
    with pytest.raises(SessionError, match="disagree"):
        red.local_move(moves[0], 2.0)
    del blue


def test_a_resignation_ends_the_game_and_the_next_starts_with_the_other_side(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    play_and_copy(network, OFFERER)
    network.apply(JOINER, blue.resign(1.0))
    network.deliver_all()
    assert GameEnded(0, "red", Ending.RESIGNED) in network.events[OFFERER]
    assert red.set_record == blue.set_record and red.set_record.game_number == 1
    assert blue.is_our_turn()  # blue starts game 2


def test_a_set_of_three_games_alternates_the_starter_and_ends():
    network = Network.started(pair(first_starter=Side.BLUE))
    network.deliver_all()
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    starters = []
    for loser in (red, blue, red):
        starters.append(red.position.turn)
        network.apply(OFFERER if loser is red else JOINER, loser.resign(network.now))
        network.deliver_all()
    assert starters == [Side.BLUE, Side.RED, Side.BLUE]
    assert red.phase is Phase.SET_OVER and blue.phase is Phase.SET_OVER
    assert red.set_record == blue.set_record and red.set_record.wins(Side.BLUE) == 2
    with pytest.raises(SessionError, match="set is over"):
        red.offer_draw(network.now)


def test_a_draw_by_agreement(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    play_and_copy(network, OFFERER)
    network.apply(JOINER, blue.offer_draw(1.0))
    network.deliver_all()
    assert ProposalMade(ProposalKind.DRAW, 1) in network.events[OFFERER]
    network.apply(OFFERER, red.answer(True, 2.0))
    network.deliver_all()
    assert red.set_record == blue.set_record
    assert red.set_record.finished[0].ending is Ending.AGREED and red.set_record.finished[0].result == "draw"


def test_a_declined_draw_is_said_and_play_goes_on(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    network.apply(OFFERER, red.offer_draw(1.0))
    network.deliver_all()
    network.apply(JOINER, blue.answer(False, 2.0))
    network.deliver_all()
    assert ProposalDeclined(ProposalKind.DRAW) in network.events[OFFERER]
    assert red.proposal is None and red.set_record.game_number == 0 and red.is_our_turn()


def test_a_take_back_by_agreement_undoes_the_move_on_both_nests(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    play_and_copy(network, OFFERER)
    play_and_copy(network, JOINER)
    network.apply(OFFERER, red.request_take_back(1.0))  # red's move, and blue's reply to it
    network.deliver_all()
    assert blue.peer_proposal is not None
    network.apply(JOINER, blue.answer(True, 2.0))
    network.deliver_all()
    assert TakeBack(2) in network.events[JOINER] and TakeBack(2) in network.events[OFFERER]
    assert red.set_record == blue.set_record and red.set_record.record == () and red.set_record.take_backs == 1
    assert red.is_our_turn()


def test_a_take_back_nobody_asked_for_is_a_desync(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    play_and_copy(network, OFFERER)
    forged = dataclasses.replace(
        blue.hello(1.0).messages[0], set_record=dataclasses.replace(blue.set_record, record=(), take_backs=1)
    )
    red.received(read_message(forged.to_bytes(), GAME), 1.0)
    assert red.phase is Phase.DESYNC and "never asked" in (red.desync_reason or "")


def test_an_old_message_delivered_late_is_dropped(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    first = network.move(OFFERER, first_legal(red)).messages[0]
    network.deliver_all()
    network.copy(JOINER)
    network.deliver_all()
    play_and_copy(network, JOINER)
    assert blue.received(read_message(first.to_bytes(), GAME), 3.0).events == ()
    assert blue.phase is Phase.PLAYING and blue.incoming is None


def test_the_link_state_says_how_long():
    view = LinkView(is_up=False, since=10.0, is_peer_online=False, peer_since=0.0)
    assert view.to_text(75.5) == "link lost 1:05"
    assert dataclasses.replace(view, is_up=True).to_text(12.0) == "other nest away 0:12"
    assert dataclasses.replace(view, is_up=True, is_peer_online=True, heard_at=90.0).to_text(99.0) == "link up"


def test_a_lost_move_is_sent_again_while_waiting_for_its_copy(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    network.move(OFFERER, first_legal(red))
    network.in_flight[JOINER].clear()  # lost
    assert red.tick(1.0).messages == ()  # not yet
    resent = network.apply(OFFERER, red.tick(10.0)).messages
    assert [message.kind for message in resent] == [Kind.HELLO]
    network.deliver_all()
    assert blue.incoming is not None and blue.incoming.ply == 1


def test_a_nest_rebooted_mid_copy_resumes_from_its_record_and_the_others(network):
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    play_and_copy(network, OFFERER)
    network.move(JOINER, first_legal(blue))
    network.reboot(OFFERER)  # blue's move was on its way: lost with the power
    network.deliver_all()
    red = network.sessions[OFFERER]
    assert red.incoming is not None and red.incoming.ply == 2
    network.copy(OFFERER)
    network.deliver_all()
    assert red.set_record == blue.set_record and len(red.set_record.record) == 2


# -- the property: whatever the network does, the two end in step, or both in desync ----

ACTIONS = st.sampled_from(
    [
        *("move", "move", "move", "copy", "copy", "deliver", "deliver", "deliver"),
        *("reorder", "drop", "duplicate", "link", "reboot", "tick", "resign", "draw", "take_back", "answer"),
    ]
)


@settings(max_examples=150)
@given(data=st.data(), first_starter=st.sampled_from(list(Side)))
def test_two_sessions_end_in_the_same_record_or_both_in_desync(data, first_starter):
    network = Network.started(pair(first_starter=first_starter))
    nests = st.sampled_from([OFFERER, JOINER])
    for _ in range(data.draw(st.integers(10, 80), label="steps")):
        action = data.draw(ACTIONS, label="action")
        nest = data.draw(nests, label="nest")
        session = network.sessions[nest]
        queue = network.in_flight[nest]
        network.now += data.draw(st.sampled_from([0.0, 0.5, 3.0]), label="delay")
        if action == "move" and session.is_our_turn():
            moves = session.position.legal_moves()
            network.move(nest, moves[data.draw(st.integers(0, len(moves) - 1), label="which")].to_text())
        elif action == "copy" and session.incoming is not None:
            network.copy(nest)
        elif action in ("deliver", "reorder", "drop", "duplicate") and queue:
            index = 0 if action == "deliver" else data.draw(st.integers(0, len(queue) - 1), label="index")
            if action == "drop":
                queue.pop(index)
            elif action == "duplicate":
                queue.append(queue[index])
            else:
                network.deliver(nest, index)
        elif action == "link":
            network.link(nest, not session.link.is_up)
        elif action == "reboot":
            network.reboot(nest)
        elif action == "tick":
            network.apply(nest, session.tick(network.now))
        elif session.phase is Phase.PLAYING and action in ("resign", "draw", "take_back", "answer"):
            if action == "resign" and data.draw(st.booleans(), label="really"):
                network.apply(nest, session.resign(network.now))
            elif action == "draw":
                network.apply(nest, session.offer_draw(network.now))
            elif action == "take_back" and session.set_record.record:
                with contextlib.suppress(SessionError):  # no move of ours yet
                    network.apply(nest, session.request_take_back(network.now))
            elif action == "answer" and session.peer_proposal is not None:
                network.apply(nest, session.answer(data.draw(st.booleans(), label="accept"), network.now))
    network.settle()
    offerer, joiner = network.sessions[OFFERER], network.sessions[JOINER]
    if offerer.phase is Phase.DESYNC or joiner.phase is Phase.DESYNC:
        assert offerer.phase is Phase.DESYNC and joiner.phase is Phase.DESYNC
    else:
        assert offerer.set_record == joiner.set_record, (offerer.to_record(), joiner.to_record())
        assert offerer.incoming is None and joiner.incoming is None
        assert not offerer.is_waiting_for_copy() and not joiner.is_waiting_for_copy()


@settings(max_examples=60)
@given(data=st.data())
def test_without_agreements_racing_moves_faults_never_cause_a_desync(data):
    """Drops, duplicates, reordering, links lost and reboots alone never make the
    records disagree: the nests always catch up."""
    network = Network.started(pair())
    nests = st.sampled_from([OFFERER, JOINER])
    actions = st.sampled_from(["move", "copy", "deliver", "reorder", "drop", "duplicate", "link", "reboot", "tick"])
    for _ in range(data.draw(st.integers(10, 80), label="steps")):
        action, nest = data.draw(actions, label="action"), data.draw(nests, label="nest")
        session, queue = network.sessions[nest], network.in_flight[nest]
        network.now += 1.0
        if action == "move" and session.is_our_turn():
            moves = session.position.legal_moves()
            network.move(nest, moves[data.draw(st.integers(0, len(moves) - 1), label="which")].to_text())
        elif action == "copy" and session.incoming is not None:
            network.copy(nest)
        elif action in ("deliver", "reorder", "drop", "duplicate") and queue:
            index = data.draw(st.integers(0, len(queue) - 1), label="index")
            if action == "drop":
                queue.pop(index)
            elif action == "duplicate":
                queue.append(queue[index])
            else:
                network.deliver(nest, 0 if action == "deliver" else index)
        elif action == "link":
            network.link(nest, not session.link.is_up)
        elif action == "reboot":
            network.reboot(nest)
        elif action == "tick":
            network.apply(nest, session.tick(network.now))
    network.settle()
    offerer, joiner = network.sessions[OFFERER], network.sessions[JOINER]
    assert offerer.phase is not Phase.DESYNC and joiner.phase is not Phase.DESYNC
    assert offerer.set_record == joiner.set_record


def test_a_pass_forced_by_the_rules_is_made_alike_on_both_nests_and_the_game_goes_on(network):
    line = line_with_a_pass()
    assert "pass" in line
    nests = {Side.RED: OFFERER, Side.BLUE: JOINER}
    position = GAME.start("standard", Side.RED)
    for move in line:
        if move == "pass":  # both referees make it, and tell their sessions: nothing is sent, nothing shown
            for nest in nests.values():
                assert network.move(nest, "pass") == Step()
                assert network.sessions[nest].position.turn is position.turn.opponent
        else:
            mover = nests[position.turn]
            network.move(mover, move)
            network.deliver_all()
            network.copy(Network.other(mover))
            network.deliver_all()
        position.push(GAME.read_move(move))
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    assert red.set_record == blue.set_record and red.set_record.game_number == 1
    assert red.set_record.finished[0].record == tuple(move for move in line if move != "pass")
    assert red.phase is blue.phase is Phase.PLAYING
    assert not any(isinstance(event, Desynced) for nest in nests.values() for event in network.events[nest])


def test_after_a_pass_forced_on_them_a_nest_moves_again_before_its_move_is_copied(network):
    line = line_with_a_pass()
    at = line.index("pass")
    nests = {Side.RED: OFFERER, Side.BLUE: JOINER}
    position = GAME.start("standard", Side.RED)
    for move in line[: at - 1]:
        mover = nests[position.turn]
        network.move(mover, move)
        network.deliver_all()
        network.copy(Network.other(mover))
        network.deliver_all()
        position.push(GAME.read_move(move))
    mover = nests[position.turn]
    copier = Network.other(mover)
    first, second = line[at - 1], line[at + 1]  # the mover's move, the pass forced on the other, its next
    network.move(mover, first)
    assert network.sessions[mover].is_our_turn() and network.sessions[mover].is_waiting_for_copy()
    network.move(mover, second)  # before the first was copied there
    network.deliver_all()
    assert network.sessions[copier].incoming == ShowMove(0, at, first)
    network.copy(copier)
    assert network.sessions[copier].incoming == ShowMove(0, at + 1, second)
    network.copy(copier)
    network.deliver_all()
    assert network.sessions[mover].set_record == network.sessions[copier].set_record
    assert not network.sessions[mover].is_waiting_for_copy()
    assert network.sessions[mover].set_record.record[-2:] == (first, second)
    assert not any(isinstance(event, Desynced) for nest in nests.values() for event in network.events[nest])


@pytest.mark.parametrize("where", [OFFERER, JOINER, "both"])
def test_a_flag_fall_said_by_either_nest_ends_the_game_on_both_and_the_next_goes_on(network, where):
    play_and_copy(network, OFFERER)
    play_and_copy(network, JOINER)  # red to move: its clock runs on both nests, 2 to 3 s apart
    for nest in (OFFERER, JOINER) if where == "both" else (where,):
        network.apply(nest, network.sessions[nest].flag_fell(Side.RED, network.now))
    network.deliver_all()
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    assert red.set_record == blue.set_record
    assert red.set_record.finished[0].result == "blue" and red.set_record.finished[0].ending is Ending.TIME
    for nest in (OFFERER, JOINER):
        assert GameEnded(0, "blue", Ending.TIME) in network.events[nest]
        assert not any(isinstance(event, Desynced) for event in network.events[nest])
    play_and_copy(network, JOINER)  # game 2: blue starts; its first move is taken on both
    assert red.set_record == blue.set_record and len(red.set_record.record) == 1


def test_a_flag_fall_there_crossing_a_move_made_here_stops_both_nests_saying_why(network):
    play_and_copy(network, OFFERER)
    play_and_copy(network, JOINER)
    network.move(OFFERER, first_legal(network.sessions[OFFERER]))  # red moves in time, by its own clock
    network.apply(JOINER, network.sessions[JOINER].flag_fell(Side.RED, network.now))  # before it arrives there
    network.deliver_all()
    for nest in (OFFERER, JOINER):
        assert network.sessions[nest].phase is Phase.DESYNC
    assert "our flag fell there at move 2 of game 1, when it had 3 moves here" in str(
        network.sessions[OFFERER].desync_reason
    )


def test_a_flag_fall_for_the_side_that_has_just_moved_is_not_said(network):
    play_and_copy(network, OFFERER)
    assert network.sessions[OFFERER].flag_fell(Side.RED, network.now) == Step()


@pytest.mark.parametrize("name", ["cuckoo", "battle", "chess"])
def test_every_game_records_an_agreed_draw_as_agreed_not_as_a_draw_by_the_rules(name):
    from firmware_host.games import load_game

    game = load_game(name)
    agreed = game.agreed_draw()
    assert agreed.to_text() == "draw" and not agreed.is_resignation and not agreed.is_time_loss
    result, how = game.outcome_record(agreed)
    assert (result, how) == ("draw", "agreed")
    assert game.outcome_from_record(result, how) == agreed
    assert "agreement" in game.outcome_words(agreed)


def test_the_link_says_link_up_only_while_the_other_nest_is_heard_and_nothing_of_ours_is_stuck(network):
    red = network.sessions[OFFERER]
    for nest in (OFFERER, JOINER):
        network.apply(nest, network.sessions[nest].peer_presence(True, network.now))
    network.deliver_all()
    assert red.link.to_text(network.now) == "link up" and red.link.is_healthy(network.now)
    later = network.now + SILENT_S  # connected by the broker's word, but not one message since
    assert red.link.to_text(later) == "no word from there 0:25" and not red.link.is_healthy(later)
    network.now = later
    network.apply(JOINER, network.sessions[JOINER].hello(network.now))  # it answers: heard again
    network.deliver_all()
    assert red.link.to_text(network.now) == "link up"
    red.link_stuck(3, 1.0, network.now)  # the broker has three of ours, the oldest a second old: not yet
    assert red.link.to_text(network.now) == "link up"
    assert red.link.to_text(network.now + 2.5) == "3 messages stuck 0:03"
    red.link_stuck(0, 0.0, network.now + 3)
    assert red.link.to_text(network.now + 3) == "link up"
    network.apply(OFFERER, red.peer_presence(False, network.now))
    assert red.link.to_text(network.now + 12) == "other nest away 0:12"
    network.apply(OFFERER, red.link_changed(False, network.now))
    assert red.link.to_text(network.now + 65) == "link lost 1:05"
