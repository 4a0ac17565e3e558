"""A nest's identity in remote play: its name on the broker and a secret key of its own,
made on its first start and kept on disk (``nest-key`` beside the games' record, readable
by its owner alone).

The key never leaves the nest. From it and a game's code the nest draws what it
publishes about a game it offers or joins — the game's id and its nonce — so that a nest
restarted while it offers offers the same game again (the same id, the same topics)
rather than a second one, and so that nobody can guess them before it publishes them.
"""

from __future__ import annotations

import hmac
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.errors import NestrefError

KEY_FILE = "nest-key"
KEY_BYTES = 32


class IdentityError(NestrefError, ValueError):
    """The nest's key file cannot be read or made; the message names the file."""


@dataclass(frozen=True)
class NestIdentity:
    """A nest's name on the broker and its secret key (never in a repr or a log)."""

    name: str
    key: bytes = field(repr=False)

    @classmethod
    def fresh(cls, name: str) -> NestIdentity:
        """An identity with a key of its own, kept nowhere (a nest without a record on disk)."""
        return cls(name, secrets.token_bytes(KEY_BYTES))

    def game_id(self, code: str) -> str:
        """The public id (16 of ``0-9a-f``) of the game this nest offers under ``code``."""
        return self._derive(b"game id", code)[:16]

    def nonce(self, code: str) -> str:
        """This nest's nonce (32 of ``0-9a-f``) for the pairing under ``code``."""
        return self._derive(b"nonce", code)[:32]

    def _derive(self, what: bytes, code: str) -> str:
        return hmac.new(self.key, b"|".join((b"nestref identity", what, code.encode())), "sha256").hexdigest()


def load_identity(folder: Path, name: str) -> NestIdentity:
    """The identity named ``name`` whose key is kept in ``folder`` (made there on the
    first start). Raises :class:`IdentityError` naming the file."""
    path = folder / KEY_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return _make(path, name)
    except (OSError, UnicodeDecodeError) as error:
        raise IdentityError(f"{path}: cannot read the nest's key: {error}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise IdentityError(f"{path}: not a nest's key ({KEY_BYTES * 2} hex digits); move it away to make a new one")
    return NestIdentity(name, key)


def _make(path: Path, name: str) -> NestIdentity:
    identity = NestIdentity.fresh(name)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(identity.key.hex() + "\n")
            out.flush()
            os.fsync(out.fileno())
    except FileExistsError:  # made meanwhile by another start: that one is the nest's
        return load_identity(path.parent, name)
    except OSError as error:
        raise IdentityError(f"{path}: cannot keep the nest's key: {error}") from None
    return identity
