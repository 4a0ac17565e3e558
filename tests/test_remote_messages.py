"""The wire schema: what is refused, with which words, and that nothing but
MessageError ever comes out of reading bytes."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.games.base import Side
from firmware_host.remote.messages import (
    MAX_MESSAGE_BYTES,
    Ending,
    FinishedGame,
    Join,
    Kind,
    MessageError,
    Offer,
    SetRecord,
    StateMessage,
    read_message,
)
from tests.remote_helpers import GAME, JOINER, OFFERER, Network, pair


def a_move_message() -> dict[str, Any]:
    network = Network.started(pair())
    red = network.sessions[OFFERER]
    step = network.move(OFFERER, red.position.legal_moves()[0].to_text())
    message: dict[str, Any] = json.loads(step.messages[0].to_bytes())
    return message


def read(value: dict[str, Any]) -> object:
    return read_message(json.dumps(value).encode(), GAME)


def test_every_kind_of_message_reads_back_as_it_was_sent():
    network = Network.started(pair())
    red, blue = network.sessions[OFFERER], network.sessions[JOINER]
    sent = [
        *network.move(OFFERER, red.position.legal_moves()[0].to_text()).messages,
        *red.offer_draw(1.0).messages,
        *red.hello(1.0).messages,
    ]
    network.deliver_all()
    sent += network.copy(JOINER).messages
    sent += blue.resign(2.0).messages
    assert {message.kind for message in sent} == {Kind.MOVE, Kind.DRAW_OFFER, Kind.HELLO, Kind.ACK, Kind.RESIGN}
    for message in sent:
        assert read_message(message.to_bytes(), GAME) == message
    join = Join(game_id="0123456789abcdef", nest=JOINER, nonce="c" * 32)
    assert read_message(join.to_bytes(), GAME) == join


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda m: m.update(extra=1), "extra: not a key"),
        (lambda m: m.pop("record"), "record: missing"),
        (lambda m: m.update(v=1), "v: 1 is not the protocol's version"),
        (lambda m: m.update(v=True), "v: True"),
        (lambda m: m.update(type="teleport"), "type: 'teleport' is not a message type"),
        (lambda m: m.update(id="K7P2QX"), "id: 'K7P2QX' is not a game's id"),
        (lambda m: m.update(nest="Nest!"), "nest: 'Nest!' is not a nest's name"),
        (lambda m: m.update(game="chess"), "game: 'chess' is not the game this nest plays"),
        (lambda m: m.update(lineup="upside-down"), "lineup: "),
        (lambda m: m.update(take_backs=True), "take_backs: a whole number, not a JSON boolean"),
        (lambda m: m.update(take_backs=-1), "take_backs: -1 is out of range"),
        (lambda m: m.update(ply=2), "ply: 2, but game 0's record has 1 moves"),
        (lambda m: m.update(ply=0), "ply: 0 is out of range"),
        (lambda m: m.update(move="a1-a2"), "move: 'a1-a2', but the record's last move"),
        (lambda m: m.update(position="x"), "position: 'x' is not the position the record reaches"),
        (lambda m: m.update(record=["e7-e6"]), "record[0]: 'e7-e6' cannot be played"),
        (lambda m: m.update(record=[7]), "record[0]: a move is a string"),
        (lambda m: m.update(record=["c3-c4"] * 1001), "record: 1001 moves; a game has at most 1000"),
        (lambda m: m.update(games=[{"record": [], "result": "red", "ending": "rules"}]), "ended by the rules"),
        (lambda m: m.update(games=[{"record": [], "result": "draw", "ending": "resigned"}]), "a resignation is won"),
        (lambda m: m.update(games=[{"record": [], "result": "red", "ending": "agreed"}]), "an agreed end is a draw"),
        (lambda m: m.update(games=[{"record": [], "result": "red", "ending": "time"}]), "the side to move (red) loses"),
        (lambda m: m.update(proposal={"kind": "draw", "ply": 3}), "proposal.ply: 3, but the record has 1 moves"),
        (lambda m: m.update(proposal={"kind": "surrender", "ply": 1}), "proposal.kind: 'surrender'"),
        (lambda m: m.update(answer={"kind": "draw", "ply": 1, "accept": "yes"}), "answer.accept: true or false"),
        (lambda m: m.update(desync="we disagree"), "desync: a reason comes with a desync message"),
        (lambda m: m.update(side="blue"), "is red's, not the sender's (blue)"),
    ],
)
def test_a_bad_message_is_refused_with_the_key_and_what_is_wrong(change, words):
    message = a_move_message()
    change(message)
    with pytest.raises(MessageError, match=re.escape(words)):
        read(message)


def test_a_move_message_with_a_forged_earlier_move_is_refused():
    message = a_move_message()
    message["record"] = ["c3-c5", message["record"][-1]]
    with pytest.raises(MessageError, match=r"record\[0\]"):
        read(message)


def test_bytes_that_are_not_a_message_are_refused_in_words():
    for data, words in [
        (b"\xff\xfe", "not UTF-8"),
        (b"{", "not JSON"),
        (b"[1]", "a JSON array, not an object"),
        (b'{"v": NaN}', "NaN, which is not JSON"),
        (b"[" * 100_000, "nested too deeply"),
        (b" " * (MAX_MESSAGE_BYTES + 1), "at most"),
    ]:
        with pytest.raises(MessageError, match=words):
            read_message(data, GAME)


def test_an_offer_names_its_lineup_and_sides():
    offer = Offer(game_id=random.Random(1).randbytes(8).hex(), nest=OFFERER, game="cuckoo", lineup="advanced-1",
                  first_starter=Side.BLUE, side=Side.RED, nonce="d" * 32)  # fmt: skip
    assert read_message(offer.to_bytes(), GAME) == offer
    broken = json.loads(offer.to_bytes())
    broken["first"] = "gold"
    with pytest.raises(MessageError, match="first: 'gold' is not 'red' or 'blue'"):
        read(broken)


@given(st.binary(max_size=2000))
def test_reading_any_bytes_raises_nothing_but_message_error(data):
    assert outcome_of_reading(data) in ("read", "refused in words")


def outcome_of_reading(data: bytes) -> str:
    """``read`` for a message, ``refused in words`` for a MessageError with a reason;
    anything else raised fails the test."""
    try:
        message = read_message(data, GAME)
    except MessageError as error:
        return "refused in words" if str(error).strip() else "refused in silence"
    return "read" if isinstance(message, Offer | Join | StateMessage) else "read as something else"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@given(st.data())
def test_a_valid_message_with_any_one_value_replaced_is_read_or_refused_in_words(data):
    message = a_move_message()
    key = data.draw(st.sampled_from(sorted(message)))
    message[key] = data.draw(JSON_VALUES)
    assert outcome_of_reading(json.dumps(message).encode()) in ("read", "refused in words")


def test_a_set_won_has_no_game_after_it():
    won = SetRecord(
        "standard",
        Side.RED,
        finished=(FinishedGame((), "red", Ending.RESIGNED),) * 3,
    )
    message = StateMessage(Kind.HELLO, "K7P2QX", OFFERER, Side.RED, "cuckoo", won)
    with pytest.raises(MessageError, match=r"games\[2\]: the set was already won"):
        read_message(message.to_bytes(), GAME)
