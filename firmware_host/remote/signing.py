"""Signed messages between two paired nests: keys agreed from the game's code, and an
HMAC-SHA256 (Python's :mod:`hmac`) on every message, checked before anything else.

Nothing a broker's member can see lets her sign: the code the players pass from one
nest to the other (shown on one OLED, entered on the other) never crosses the broker.
From it and the offer's public parts (the game's id, the offerer's name) each nest
derives the **pairing key** with :func:`hashlib.scrypt` — slow on purpose, so that
trying the 887 million codes against a message seen on the broker costs a year of a
core for one game — and from the pairing key and both nests' fresh nonces the
**session key** that signs every state message of the set.

A signed payload is ``<signature> <seq> <body>``: 64 hex digits, the sender's sequence
number in decimal, then the body (the message's JSON, as sent: the bytes signed are the
bytes read, so no re-encoding can make two nests disagree on what was signed). The
signature covers the topic as well, so a message moved to another topic (red's state
put on blue's) does not check. The sequence number grows with every message a nest
sends in a set; the receiver drops any below the highest it has taken (an old one
replayed), so nothing once said can be said again by someone else.

>>> key = session_key(pairing_key("K7P2QX", "0123456789abcdef", "rednest01"), "n" * 32, "m" * 32)
>>> payload = sign(key, "nestref/0123456789abcdef/rednest01/state", 7, b'{"v":2}')
>>> open_signed(key, "nestref/0123456789abcdef/rednest01/state", payload)
Signed(seq=7, body=b'{"v":2}')
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from dataclasses import dataclass

from firmware_host.remote.messages import MAX_MESSAGE_BYTES, MessageError

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**12, 8, 1
"""scrypt's cost: 4 MiB and 54 ms on the development machine under load (once per
offer read); an attacker pays it for every code she tries."""
KEY_BYTES = 32
SIGNATURE_CHARS = 64
MAX_SEQ_DIGITS = 15
MAX_SIGNED_BYTES = SIGNATURE_CHARS + 1 + MAX_SEQ_DIGITS + 1 + MAX_MESSAGE_BYTES
"""The longest payload read: a body of the longest message, signed."""
_DOMAIN = b"nestref 2"
_HEADER = re.compile(rb"([0-9a-f]{64}) (0|[1-9][0-9]{0,14}) ")


@dataclass(frozen=True)
class Signed:
    """A payload whose signature checked: its sequence number and its body."""

    seq: int
    body: bytes


@functools.lru_cache(maxsize=64)
def pairing_key(code: str, game_id: str, offerer: str) -> bytes:
    """The key an offer and its join are signed with, from the game's code (which
    only the two nests' players know) and the offer's public id and offerer: scrypt,
    salted with both, so that no table made in advance helps."""
    salt = b"|".join((_DOMAIN, b"pairing", game_id.encode(), offerer.encode()))
    return hashlib.scrypt(
        code.encode("ascii"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, maxmem=64 * 1024 * 1024, dklen=KEY_BYTES
    )


def session_key(pairing: bytes, offer_nonce: str, join_nonce: str) -> bytes:
    """The key of the set's state messages: fresh for every pairing (both nonces)."""
    what = b"|".join((_DOMAIN, b"session", offer_nonce.encode(), join_nonce.encode()))
    return hmac.new(pairing, what, "sha256").digest()


def _signature(key: bytes, topic: str, seq: int, body: bytes) -> bytes:
    signed = b"\n".join((_DOMAIN, topic.encode("utf-8"), str(seq).encode("ascii"), body))
    return hmac.new(key, signed, "sha256").hexdigest().encode("ascii")


def sign(key: bytes, topic: str, seq: int, body: bytes) -> bytes:
    """``body`` signed with ``key`` for ``topic``, as message number ``seq``."""
    return _signature(key, topic, seq, body) + b" " + str(seq).encode("ascii") + b" " + body


def open_signed(key: bytes, topic: str, payload: bytes) -> Signed:
    """The body of ``payload``, if it is signed with ``key`` for ``topic``. Costs one
    HMAC over at most :data:`MAX_SIGNED_BYTES`, nothing more: no JSON is read, no
    record replayed. Raises :class:`~firmware_host.remote.messages.MessageError`."""
    if len(payload) > MAX_SIGNED_BYTES:
        raise MessageError(f"the message has {len(payload)} bytes; at most {MAX_SIGNED_BYTES} are read")
    header = _HEADER.match(payload)
    if header is None:
        raise MessageError("the message is not signed (<signature> <seq> <body>)")
    signature, seq_text = header.group(1), header.group(2)
    body = bytes(payload[header.end() :])
    seq = int(seq_text)
    if not hmac.compare_digest(signature, _signature(key, topic, seq, body)):
        raise MessageError("the message's signature is not the other nest's")
    return Signed(seq, body)
