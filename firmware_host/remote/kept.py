"""What a nest keeps of a set played at a distance, to resume it after a reboot: the
pairing and the session's record, as one small JSON file written whole (a new file
renamed over the old, so a power cut leaves the old one or the new one, never half).

The file is read as strictly as a message from the other nest: every game of its
record is replayed by our own rules (:func:`~firmware_host.remote.messages.check_set_record`),
so a file edited by hand or cut short is refused with the key at fault, never half
believed. Also: this nest's name on the broker (:func:`nest_name`), from the host's.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from pathlib import Path
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Side
from firmware_host.remote.messages import (
    GAME_ID_PATTERN,
    NEST_PATTERN,
    Ending,
    FinishedGame,
    MessageError,
    Proposal,
    ProposalKind,
    SetRecord,
    check_code,
    check_set_record,
)
from firmware_host.remote.session import Pairing, SessionRecord
from firmware_host.remote.signing import KEY_BYTES

KEPT_VERSION = 2


class KeptSetError(NestrefError, ValueError):
    """The kept set cannot be read back; the message names the file and the key."""


def nest_name(host: str) -> str:
    """A nest's name on the broker (8 to 32 of ``a-z0-9``) from a host name: its letters
    and digits, lowercased, made up to 8 with a checksum of the name when it is short.

    >>> nest_name("Alice-Pi.local")
    'alicepilocal'
    >>> nest_name("pi")
    'pi5a88b2f5'
    """
    letters = re.sub(r"[^a-z0-9]", "", host.lower())[:32]
    if len(letters) < 8:
        letters = (letters + f"{zlib.crc32(host.encode()):08x}")[: max(8, len(letters) + 8)]
    return letters


def kept_path(database: str) -> Path | None:
    """Where the set is kept beside the games' record (None for a record in memory)."""
    if database == ":memory:":
        return None
    return Path(database).with_suffix(".remote.json")


def to_json(pairing: Pairing, record: SessionRecord, *, nest: str) -> dict[str, Any]:
    set_record = record.set_record
    return {
        "v": KEPT_VERSION,
        "nest": nest,
        "pairing": {
            "code": pairing.code,
            "game": pairing.game,
            "lineup": pairing.lineup,
            "first": pairing.first_starter.label,
            "offerer_side": pairing.offerer_side.label,
            "offerer_nest": pairing.offerer_nest,
            "joiner_nest": pairing.joiner_nest,
            "id": pairing.game_id,
            "key": pairing.key.hex(),
        },
        "games": [finished.to_json() for finished in set_record.finished],
        "record": list(set_record.record),
        "take_backs": set_record.take_backs,
        "proposal": record.proposal.to_json() if record.proposal is not None else None,
        "sent_seq": record.sent_seq,
        "heard_seq": record.heard_seq,
    }


def write_kept(path: Path, pairing: Pairing, record: SessionRecord, *, nest: str) -> None:
    """Keep the set at ``path``, whole or not at all. Raises :class:`OSError`."""
    text = json.dumps(to_json(pairing, record, nest=nest), separators=(",", ":"))
    fresh = path.with_name(path.name + ".new")
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it holds the session's key
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(fresh, path)


def read_kept(path: Path, game: Game) -> tuple[str, Pairing, SessionRecord] | None:
    """The nest's name, the pairing and the record kept at ``path``; None if nothing is
    kept. Raises :class:`KeptSetError` naming the file and what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise KeptSetError(f"{path}: cannot read it: {error}") from None
    try:
        return from_json(json.loads(text), game)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise KeptSetError(f"{path}: {_why(error)}") from None


def from_json(data: Any, game: Game) -> tuple[str, Pairing, SessionRecord]:
    """Raises :class:`ValueError` (or ``KeyError``/``TypeError`` for a missing key or a
    wrong type) naming what is wrong."""
    if not isinstance(data, dict) or data.get("v") != KEPT_VERSION:
        raise ValueError(f"v: not a kept set of version {KEPT_VERSION}")
    nest = data["nest"]
    kept = data["pairing"]
    for key in ("offerer_nest", "joiner_nest"):
        if not isinstance(kept[key], str) or not NEST_PATTERN.fullmatch(kept[key]):
            raise ValueError(f"pairing.{key}: {kept[key]!r} is not a nest's name")
    if not isinstance(kept["id"], str) or not GAME_ID_PATTERN.fullmatch(kept["id"]):
        raise ValueError(f"pairing.id: {kept['id']!r} is not a game's id")
    session_key = bytes.fromhex(kept["key"])
    if len(session_key) != KEY_BYTES:
        raise ValueError(f"pairing.key: {KEY_BYTES * 2} hex digits, not {len(kept['key'])}")
    if kept["game"] != game.name:
        raise ValueError(f"pairing.game: {kept['game']!r} is not the game this nest plays")
    pairing = Pairing(
        code=check_code(kept["code"]),
        game=kept["game"],
        lineup=game.check_lineup(kept["lineup"]),
        first_starter=Side.from_text(kept["first"]),
        offerer_side=Side.from_text(kept["offerer_side"]),
        offerer_nest=kept["offerer_nest"],
        joiner_nest=kept["joiner_nest"],
        game_id=kept["id"],
        key=session_key,
    )
    if nest not in (pairing.offerer_nest, pairing.joiner_nest):
        raise ValueError(f"nest: {nest!r} is not one of the pairing's nests")
    finished = tuple(
        FinishedGame(tuple(str(move) for move in entry["record"]), str(entry["result"]), Ending(entry["ending"]))
        for entry in data["games"]
    )
    take_backs, sent_seq, heard_seq = data["take_backs"], data["sent_seq"], data["heard_seq"]
    counts = (("take_backs", take_backs, 0), ("sent_seq", sent_seq, 0), ("heard_seq", heard_seq, -1))
    for key_name, count, lowest in counts:
        if not isinstance(count, int) or isinstance(count, bool) or count < lowest:
            raise ValueError(f"{key_name}: {count!r} is not a count")
    set_record = SetRecord(
        pairing.lineup,
        pairing.first_starter,
        finished=finished,
        record=tuple(str(move) for move in data["record"]),
        take_backs=take_backs,
    )
    check_set_record(game, set_record)  # every game replayed by our rules: MessageError is a ValueError
    proposal_data = data["proposal"]
    proposal = None
    if proposal_data is not None:
        proposal = Proposal(ProposalKind(proposal_data["kind"]), int(proposal_data["ply"]))
    return nest, pairing, SessionRecord(set_record, proposal, sent_seq=sent_seq, heard_seq=heard_seq)


def _why(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"{error.args[0]}: missing"
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
    if isinstance(error, MessageError):
        return str(error)
    return str(error) or type(error).__name__
