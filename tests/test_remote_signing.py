"""Signed messages and the nest's key: what checks, what does not, and that nothing but
MessageError ever comes out of reading bytes."""

from __future__ import annotations

import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.remote.identity import KEY_FILE, IdentityError, load_identity
from firmware_host.remote.messages import MessageError
from firmware_host.remote.signing import MAX_SIGNED_BYTES, open_signed, pairing_key, session_key, sign

TOPIC = "nestref/0123456789abcdef/bluenest001/state"
KEY = session_key(pairing_key("K7P2QX", "0123456789abcdef", "rednest0001"), "a" * 32, "b" * 32)


def test_a_signed_body_reads_back_and_only_with_its_key_and_topic():
    payload = sign(KEY, TOPIC, 41, b'{"v":2,"type":"hello"}')
    assert payload.startswith(payload[:64] + b" 41 ")
    signed = open_signed(KEY, TOPIC, payload)
    assert (signed.seq, signed.body) == (41, b'{"v":2,"type":"hello"}')
    other_key = session_key(pairing_key("K7P2QY", "0123456789abcdef", "rednest0001"), "a" * 32, "b" * 32)
    for key, topic, data in [
        (other_key, TOPIC, payload),  # a code one letter off
        (KEY, TOPIC.replace("bluenest001", "rednest0001"), payload),  # moved to the other nest's topic
        (KEY, TOPIC, payload.replace(b" 41 ", b" 42 ", 1)),  # its number raised
        (KEY, TOPIC, payload[:-1] + b"]"),
    ]:
        with pytest.raises(MessageError, match="signature is not the other nest's"):
            open_signed(key, topic, data)
    for data, words in [(b'{"v":2}', "not signed"), (b"x" * (MAX_SIGNED_BYTES + 1), "at most")]:
        with pytest.raises(MessageError, match=words):
            open_signed(KEY, TOPIC, data)


def test_the_keys_depend_on_the_code_the_game_the_offerer_and_both_nonces():
    base = pairing_key("K7P2QX", "0123456789abcdef", "rednest0001")
    assert len({base, pairing_key("K7P2QZ", "0123456789abcdef", "rednest0001"),
                pairing_key("K7P2QX", "0123456789abcdee", "rednest0001"),
                pairing_key("K7P2QX", "0123456789abcdef", "rednest0002")}) == 4  # fmt: skip
    assert len({session_key(base, "a" * 32, "b" * 32), session_key(base, "c" * 32, "b" * 32),
                session_key(base, "a" * 32, "c" * 32)}) == 3  # fmt: skip


@given(st.binary(max_size=400))
def test_any_bytes_are_refused_with_a_message_error(data):
    with pytest.raises(MessageError):
        open_signed(KEY, TOPIC, data)


@given(st.binary(min_size=0, max_size=300), st.integers(0, 10**15 - 1), st.data())
def test_a_signed_message_with_any_byte_changed_is_refused(body, seq, data):
    payload = bytearray(sign(KEY, TOPIC, seq, body))
    index = data.draw(st.integers(0, len(payload) - 1))
    payload[index] ^= data.draw(st.integers(1, 255))
    with pytest.raises(MessageError):
        open_signed(KEY, TOPIC, bytes(payload))


def test_the_nests_key_is_made_on_its_first_start_kept_for_its_owner_and_the_same_after(tmp_path):
    first = load_identity(tmp_path, "rednest0001")
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_identity(tmp_path, "rednest0001")
    assert again.key == first.key and first.key.hex() not in repr(first)
    assert first.game_id("K7P2QX") == again.game_id("K7P2QX") != first.game_id("K7P2QY")
    (tmp_path / "other").mkdir()
    assert first.nonce("K7P2QX") != load_identity(tmp_path / "other", "othernest1").nonce("K7P2QX")
    path.write_text("not a key\n")
    with pytest.raises(IdentityError, match=f"{path}: not a nest's key"):
        load_identity(tmp_path, "rednest0001")
