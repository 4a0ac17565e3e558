"""The wire schema of remote play: what two nests say to each other, as JSON, and how
every message is read: strictly, by our own rules, never trusting the other end.

Three kinds of message go over the link (``docs/remote-play.md`` has them in full):

- an :class:`Offer` (one nest offers a game under its public id: the game, the lineup,
  who starts the set, the offerer's side, its nonce) and a :class:`Join` (the other nest
  takes it up, with its nonce); both are signed with the key drawn from the game's code,
  which never crosses the broker (:mod:`~firmware_host.remote.signing`);
- a :class:`StateMessage`: everything the sender knows of the set — the games already
  played with their records and how each ended, the record of the game being played,
  the take backs agreed in it, a draw or take back it proposes, its answer to the
  other's — and what it says by sending it now (its ``kind``: a move, the ack of a copy,
  a resignation, a draw offer, ...). Because each one carries the whole record, any one
  of them that arrives is enough to resynchronise, whatever was lost before it.

:func:`read_message` turns bytes into one of them or raises :class:`MessageError`
naming the key and what is wrong: unknown keys, wrong types, sizes, plies out of
range, and a record that is not a legal game by our own rules (every record is
replayed move by move through the :class:`~firmware_host.games.base.Game`) are all
refused. It raises nothing else, whatever the bytes.

>>> from firmware_host.games import load_game
>>> cuckoo = load_game("cuckoo")
>>> offer = Offer(game_id="0123456789abcdef", nest="nest0001", game="cuckoo", lineup="standard",
...               first_starter=Side.RED, side=Side.BLUE, nonce="f" * 32)
>>> read_message(offer.to_bytes(), cuckoo) == offer
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.games.base import Game, Position, Side

PROTOCOL_VERSION = 2
MAX_MESSAGE_BYTES = 256 * 1024
"""Far above a set of long games (a move is a dozen bytes), far below what would hurt a Pi."""
MAX_PLIES = 1000
"""Moves in one game's record; Operation Cuckoo's games are a few dozen."""
MAX_GAMES = 21
"""Games in a set: three, plus the drawn ones replayed."""
MAX_MOVE_CHARS = 16
MAX_POSITION_CHARS = 512
MAX_REASON_CHARS = 300
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The game code's letters: no 0/O, 1/I/L that a player could misread on the OLED."""
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
NEST_PATTERN = re.compile(r"[a-z0-9]{8,32}")
GAME_ID_PATTERN = re.compile(r"[0-9a-f]{16}")
"""A game's public id, in its topics: drawn by the offering nest, never the code."""
NONCE_PATTERN = re.compile(r"[0-9a-f]{32}")


class MessageError(NestrefError, ValueError):
    """A message from the link cannot be believed; the message names the key at fault
    and what is wrong with it."""


def new_code(random: Random) -> str:
    """A fresh game code, such as ``K7P2QX``, drawn from ``random``."""
    return "".join(random.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def check_code(code: str) -> str:
    """``code`` in capitals, if it is a game code; raises :class:`MessageError` if not.

    >>> check_code("k7p2qx")
    'K7P2QX'
    """
    upper = code.strip().upper() if isinstance(code, str) else code
    if not isinstance(upper, str) or not CODE_PATTERN.fullmatch(upper):
        raise MessageError(
            f"code: {code!r} is not a game code ({CODE_LENGTH} of the letters and digits {CODE_ALPHABET})"
        )
    return upper


class Kind(Enum):
    """What a :class:`StateMessage` says by being sent now."""

    HELLO = "hello"  # here is my state (on connecting, and again now and then)
    MOVE = "move"  # I made a move: copy it
    ACK = "ack"  # I made your move on my nest: here is the position I reached
    RESIGN = "resign"
    DRAW_OFFER = "draw_offer"
    DRAW_ANSWER = "draw_answer"
    TAKE_BACK_REQUEST = "take_back_request"
    TAKE_BACK_ANSWER = "take_back_answer"
    DESYNC = "desync"  # our records disagree: I have stopped
    FLAG = "flag"  # a flag fell on my nest's clock: the game is lost on time


class Ending(Enum):
    """How a game of the set ended."""

    RULES = "rules"  # its last move won (or drew) it by the rules
    RESIGNED = "resigned"  # the side that lost gave up
    AGREED = "agreed"  # a draw, offered and accepted
    TIME = "time"  # the loser's flag fell (on the clock of the nest that said so first)


class ProposalKind(Enum):
    DRAW = "draw"
    TAKE_BACK = "take_back"


@dataclass(frozen=True)
class FinishedGame:
    """A game of the set that has ended: its moves, its result (``red``, ``blue`` or
    ``draw``) and how it came."""

    record: tuple[str, ...]
    result: str
    ending: Ending

    def to_json(self) -> dict[str, Any]:
        return {"record": list(self.record), "result": self.result, "ending": self.ending.value}


@dataclass(frozen=True)
class Proposal:
    """A draw offered, or a take back asked for, when the record had ``ply`` moves."""

    kind: ProposalKind
    ply: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "ply": self.ply}


@dataclass(frozen=True)
class Answer:
    """The answer to the other side's :class:`Proposal` made at ``ply``."""

    kind: ProposalKind
    ply: int
    accept: bool

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "ply": self.ply, "accept": self.accept}


@dataclass(frozen=True)
class SetRecord:
    """One nest's record of the set: what it resumes from after a reboot, and what
    every state message carries."""

    lineup: str
    first_starter: Side
    finished: tuple[FinishedGame, ...] = ()
    record: tuple[str, ...] = ()
    """The moves of the game being played."""
    take_backs: int = 0
    """Take backs agreed in the game being played."""

    @property
    def game_number(self) -> int:
        """The game being played, counted from 0."""
        return len(self.finished)

    @property
    def progress(self) -> tuple[int, int, int]:
        """How far the set has come, by one side's record: it only grows (a take back
        shortens the record but counts one more take back), so a message that shows
        less than one already read from the same side is an old one, delivered late."""
        return len(self.finished), self.take_backs, len(self.record)

    def starter(self, game_number: int) -> Side:
        """The side that starts game ``game_number``: it alternates, draws included."""
        return self.first_starter if game_number % 2 == 0 else self.first_starter.opponent

    def wins(self, side: Side) -> int:
        return sum(1 for finished in self.finished if finished.result == side.label)

    def is_set_over(self) -> bool:
        return any(self.wins(side) >= 2 for side in Side)


@dataclass(frozen=True)
class LastMove:
    """The move a MOVE message announces, or the copy an ACK acknowledges: ply
    ``ply`` (from 1) of game ``game_number``, and the position after it."""

    game_number: int
    ply: int
    move: str
    position: str


@dataclass(frozen=True)
class Offer:
    """A game offered under the public id ``game_id``; the offerer plays ``side``."""

    game_id: str
    nest: str
    game: str
    lineup: str
    first_starter: Side
    side: Side
    nonce: str

    def to_bytes(self) -> bytes:
        return _dump(
            {
                "v": PROTOCOL_VERSION,
                "type": "offer",
                "id": self.game_id,
                "nest": self.nest,
                "game": self.game,
                "lineup": self.lineup,
                "first": self.first_starter.label,
                "side": self.side.label,
                "nonce": self.nonce,
            }
        )


@dataclass(frozen=True)
class Join:
    """The game ``game_id`` taken up by the nest ``nest``, with its nonce."""

    game_id: str
    nest: str
    nonce: str

    def to_bytes(self) -> bytes:
        return _dump(
            {"v": PROTOCOL_VERSION, "type": "join", "id": self.game_id, "nest": self.nest, "nonce": self.nonce}
        )


@dataclass(frozen=True)
class StateMessage:
    """One nest's whole state of the set, and what it says by sending it now."""

    kind: Kind
    game_id: str
    nest: str
    side: Side
    game: str
    set_record: SetRecord
    proposal: Proposal | None = None
    answer: Answer | None = None
    desync: str | None = None
    last_move: LastMove | None = None
    """For a MOVE, the move; for an ACK, the copy made (its ``move`` is the peer's)."""

    def to_bytes(self) -> bytes:
        record = self.set_record
        data: dict[str, Any] = {
            "v": PROTOCOL_VERSION,
            "type": self.kind.value,
            "id": self.game_id,
            "nest": self.nest,
            "side": self.side.label,
            "game": self.game,
            "lineup": record.lineup,
            "first": record.first_starter.label,
            "games": [finished.to_json() for finished in record.finished],
            "record": list(record.record),
            "take_backs": record.take_backs,
            "proposal": self.proposal.to_json() if self.proposal else None,
            "answer": self.answer.to_json() if self.answer else None,
            "desync": self.desync,
        }
        if self.last_move is not None:
            data["game_number"] = self.last_move.game_number
            data["ply"] = self.last_move.ply
            data["move"] = self.last_move.move
            data["position"] = self.last_move.position
        return _dump(data)


Message = Offer | Join | StateMessage

_COMMON_STATE_KEYS = frozenset(
    "v type id nest side game lineup first games record take_backs proposal answer desync".split()
)
_LAST_MOVE_KEYS = frozenset("game_number ply move position".split())


def _dump(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def read_message(data: bytes, game: Game) -> Message:
    """The message in ``data``, checked through and through against ``game``'s rules.

    Raises :class:`MessageError` (and nothing else) naming the key at fault."""
    try:
        return _read(data, game)
    except MessageError:
        raise
    except RecursionError:  # JSON nested deeper than Python parses
        raise MessageError("the message is nested too deeply") from None


def _read(data: bytes, game: Game) -> Message:
    if not isinstance(data, bytes | bytearray):
        raise MessageError(f"a message is bytes, not {type(data).__name__}")
    if len(data) > MAX_MESSAGE_BYTES:
        raise MessageError(f"the message has {len(data)} bytes; at most {MAX_MESSAGE_BYTES} are read")
    try:
        text = bytes(data).decode("utf-8")
        value = json.loads(text, parse_constant=_refuse_constant)
    except UnicodeDecodeError as error:
        raise MessageError(f"the message is not UTF-8: {error.reason} at byte {error.start}") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        raise MessageError(f"the message is not JSON: {error.msg} at {where}") from None
    if not isinstance(value, dict):
        raise MessageError(f"the message is a JSON {_json_type(value)}, not an object")
    version = value.get("v")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise MessageError(f"v: {version!r} is not the protocol's version ({PROTOCOL_VERSION})")
    kind = _string(value, "type", 32)
    if kind == "offer":
        _keys(value, frozenset("v type id nest game lineup first side nonce".split()))
        name = _string(value, "game", 64)
        if name != game.name:
            raise MessageError(f"game: {name!r} is not the game this nest plays ({game.name!r})")
        return Offer(
            game_id=_game_id(value),
            nest=_nest(value),
            game=name,
            lineup=_lineup(value, game),
            first_starter=_side(value, "first"),
            side=_side(value, "side"),
            nonce=_nonce(value),
        )
    if kind == "join":
        _keys(value, frozenset("v type id nest nonce".split()))
        return Join(game_id=_game_id(value), nest=_nest(value), nonce=_nonce(value))
    try:
        state_kind = Kind(kind)
    except ValueError:
        known = ", ".join(["offer", "join", *(member.value for member in Kind)])
        raise MessageError(f"type: {kind!r} is not a message type ({known})") from None
    return _read_state(value, state_kind, game)


def _read_state(value: dict[str, Any], kind: Kind, game: Game) -> StateMessage:
    has_last_move = kind in (Kind.MOVE, Kind.ACK)
    _keys(value, _COMMON_STATE_KEYS | (_LAST_MOVE_KEYS if has_last_move else frozenset()))
    name = _string(value, "game", 64)
    if name != game.name:
        raise MessageError(f"game: {name!r} is not the game this nest plays ({game.name!r})")
    set_record = SetRecord(
        lineup=_lineup(value, game),
        first_starter=_side(value, "first"),
        finished=_finished_games(value),
        record=_moves(value.get("record"), "record"),
        take_backs=_integer(value, "take_backs", 0, MAX_PLIES),
    )
    positions = check_set_record(game, set_record)
    side = _side(value, "side")
    proposal = _proposal(value.get("proposal"), set_record, positions[-1], side)
    answer = _answer(value.get("answer"))
    desync = value.get("desync")
    if desync is not None and (not isinstance(desync, str) or not 0 < len(desync) <= MAX_REASON_CHARS):
        raise MessageError(f"desync: a reason is a string of 1 to {MAX_REASON_CHARS} characters, or null")
    if (kind is Kind.DESYNC) != (desync is not None):
        raise MessageError("desync: a reason comes with a desync message, and only with one")
    last_move = _last_move(value, kind, set_record, positions, side) if has_last_move else None
    return StateMessage(
        kind=kind,
        game_id=_game_id(value),
        nest=_nest(value),
        side=side,
        game=name,
        set_record=set_record,
        proposal=proposal,
        answer=answer,
        desync=desync,
        last_move=last_move,
    )


def check_set_record(game: Game, set_record: SetRecord) -> list[Position]:
    """The position at the end of every game of ``set_record`` (the game being played
    last), each record replayed by ``game``'s rules from its lineup and starter.

    Raises :class:`MessageError` for a move that cannot be read or played, a game's end
    its record does not bear out, a game still on after the set is won, or a game
    being played that its record has already ended."""
    positions = []
    wins = dict.fromkeys(Side, 0)
    for number, finished in enumerate(set_record.finished):
        where = f"games[{number}]"
        if any(count >= 2 for count in wins.values()):
            raise MessageError(f"{where}: the set was already won")
        position = replay(game, set_record.lineup, set_record.starter(number), finished.record, f"{where}.record")
        outcome = position.outcome()
        if finished.ending is Ending.RULES:
            if outcome is None:
                raise MessageError(f"{where}: ended by the rules, but its record leaves the game going on")
            if outcome.to_text() != finished.result:
                raise MessageError(f"{where}: result {finished.result!r}, but its record ends {outcome.to_text()!r}")
        elif outcome is not None:
            raise MessageError(f"{where}: its record ends the game by the rules, not by {finished.ending.value!r}")
        elif finished.ending is Ending.AGREED and finished.result != "draw":
            raise MessageError(f"{where}: an agreed end is a draw, not {finished.result!r}")
        elif finished.ending is Ending.RESIGNED and finished.result == "draw":
            raise MessageError(f"{where}: a resignation is won by a side, not a draw")
        elif finished.ending is Ending.TIME and finished.result != position.turn.opponent.label:
            raise MessageError(
                f"{where}: on time, the side to move ({position.turn.label}) loses, not {finished.result!r}"
            )
        for side in Side:
            wins[side] += finished.result == side.label
        positions.append(position)
    if set_record.is_set_over() and (set_record.record or set_record.take_backs):
        raise MessageError("record: the set is won, so no game is being played")
    current = replay(game, set_record.lineup, set_record.starter(set_record.game_number), set_record.record, "record")
    if current.is_over():
        raise MessageError("record: its moves have ended the game, so it belongs in games")
    positions.append(current)
    return positions


def replay(game: Game, lineup: str, starter: Side, record: tuple[str, ...], where: str) -> Position:
    """The position after ``record``'s moves from ``lineup`` with ``starter`` to move,
    every pass the rules force made on the way (:func:`pass_if_forced`): a record
    holds no pass, as both nests' referees make each alike. Raises
    :class:`MessageError` naming the first move that is not legal."""
    position = game.start(lineup, starter)
    pass_if_forced(position)
    for ply, text in enumerate(record):
        try:
            position.push(game.read_move(text))
        except NestrefError as error:
            raise MessageError(f"{where}[{ply}]: {text!r} cannot be played: {error}") from None
        pass_if_forced(position)
    return position


def pass_if_forced(position: Position) -> None:
    """The side to move passes if the rules leave it no other move (as the referee
    makes it pass at once, on each nest); so does the other, if it then has none."""
    for _ in range(2):
        moves = position.legal_moves()
        if len(moves) != 1 or not moves[0].is_pass:
            return
        position.push(moves[0])


def before_last_move(position: Position) -> Position:
    """A copy of ``position`` before its last move that is not a pass (and the passes
    forced after it)."""
    before = position.copy()
    while before.move_stack and before.move_stack[-1].is_pass:
        before.pop()
    before.pop()
    return before


def _last_move(
    value: dict[str, Any], kind: Kind, set_record: SetRecord, positions: list[Position], side: Side
) -> LastMove:
    number = _integer(value, "game_number", 0, set_record.game_number)
    record = set_record.finished[number].record if number < set_record.game_number else set_record.record
    ply = _integer(value, "ply", 1, MAX_PLIES)
    if ply != len(record):
        raise MessageError(f"ply: {ply}, but game {number}'s record has {len(record)} moves")
    move = _string(value, "move", MAX_MOVE_CHARS)
    if move != record[-1]:
        raise MessageError(f"move: {move!r}, but the record's last move is {record[-1]!r}")
    after = positions[number]  # the record replayed already: the position after its last move
    mover = before_last_move(after).turn
    if kind is Kind.MOVE and mover is not side:
        raise MessageError(f"move: {move!r} is {mover.label}'s, not the sender's ({side.label})")
    if kind is Kind.ACK and mover is side:
        raise MessageError(f"move: {move!r} is the sender's own ({side.label}): only the other side's is acked")
    position = _string(value, "position", MAX_POSITION_CHARS)
    if position != after.to_text():
        raise MessageError(f"position: {position!r} is not the position the record reaches ({after.to_text()!r})")
    return LastMove(number, ply, move, position)


def _proposal(value: Any, set_record: SetRecord, position: Position, side: Side) -> Proposal | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise MessageError(f"proposal: an object or null, not a JSON {_json_type(value)}")
    _keys(value, frozenset({"kind", "ply"}), "proposal.")
    kind = _proposal_kind(value, "proposal.")
    ply = _integer(value, "ply", 0, MAX_PLIES, "proposal.")
    if ply != len(set_record.record):
        raise MessageError(f"proposal.ply: {ply}, but the record has {len(set_record.record)} moves")
    if set_record.is_set_over():
        raise MessageError("proposal: the set is over")
    if kind is ProposalKind.TAKE_BACK and take_back_plies(set_record, position, side) == 0:
        raise MessageError(f"proposal: {side.label} has no move of this game to take back")
    return Proposal(kind, ply)


def take_back_plies(set_record: SetRecord, position: Position, side: Side) -> int:
    """How many moves a take back asked for by ``side`` removes: its own last move and
    the other side's reply to it, if any, so that ``side`` is to move again; 0 if
    ``side`` has made no move in this game."""
    record = set_record.record
    if not record:
        return 0
    if before_last_move(position).turn is side:  # side made the last move
        return 1
    return 2 if len(record) >= 2 else 0


def _answer(value: Any) -> Answer | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise MessageError(f"answer: an object or null, not a JSON {_json_type(value)}")
    _keys(value, frozenset({"kind", "ply", "accept"}), "answer.")
    accept = value.get("accept")
    if not isinstance(accept, bool):
        raise MessageError(f"answer.accept: true or false, not {accept!r}")
    return Answer(_proposal_kind(value, "answer."), _integer(value, "ply", 0, MAX_PLIES, "answer."), accept)


def _proposal_kind(value: dict[str, Any], prefix: str) -> ProposalKind:
    text = _string(value, "kind", 16, prefix)
    try:
        return ProposalKind(text)
    except ValueError:
        raise MessageError(f"{prefix}kind: {text!r} is not 'draw' or 'take_back'") from None


def _finished_games(value: dict[str, Any]) -> tuple[FinishedGame, ...]:
    games = value.get("games")
    if not isinstance(games, list):
        raise MessageError(f"games: a list, not a JSON {_json_type(games)}")
    if len(games) > MAX_GAMES:
        raise MessageError(f"games: {len(games)} games; a set has at most {MAX_GAMES}")
    finished = []
    for number, entry in enumerate(games):
        prefix = f"games[{number}]."
        if not isinstance(entry, dict):
            raise MessageError(f"games[{number}]: an object, not a JSON {_json_type(entry)}")
        _keys(entry, frozenset({"record", "result", "ending"}), prefix)
        result = _string(entry, "result", 8, prefix)
        if result not in ("red", "blue", "draw"):
            raise MessageError(f"{prefix}result: {result!r} is not 'red', 'blue' or 'draw'")
        ending_text = _string(entry, "ending", 16, prefix)
        try:
            ending = Ending(ending_text)
        except ValueError:
            raise MessageError(
                f"{prefix}ending: {ending_text!r} is not 'rules', 'resigned', 'agreed' or 'time'"
            ) from None
        finished.append(FinishedGame(_moves(entry.get("record"), f"{prefix}record"), result, ending))
    return tuple(finished)


def _moves(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MessageError(f"{where}: a list of moves, not a JSON {_json_type(value)}")
    if len(value) > MAX_PLIES:
        raise MessageError(f"{where}: {len(value)} moves; a game has at most {MAX_PLIES}")
    for ply, move in enumerate(value):
        if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE_CHARS:
            raise MessageError(f"{where}[{ply}]: a move is a string of 1 to {MAX_MOVE_CHARS} characters, not {move!r}")
    return tuple(value)


def _keys(value: dict[str, Any], allowed: frozenset[str], prefix: str = "") -> None:
    unknown = sorted(str(key) for key in value.keys() - allowed)
    if unknown:
        raise MessageError(f"{prefix}{unknown[0]}: not a key of this message ({', '.join(sorted(allowed))})")
    missing = sorted(allowed - value.keys())
    if missing:
        raise MessageError(f"{prefix}{missing[0]}: missing")


def _string(value: dict[str, Any], key: str, longest: int, prefix: str = "") -> str:
    text = value.get(key)
    if not isinstance(text, str):
        raise MessageError(f"{prefix}{key}: a string, not a JSON {_json_type(text)}")
    if not 0 < len(text) <= longest:
        raise MessageError(f"{prefix}{key}: {len(text)} characters; 1 to {longest} are allowed")
    return text


def _integer(value: dict[str, Any], key: str, lowest: int, highest: int, prefix: str = "") -> int:
    number = value.get(key)
    if not isinstance(number, int) or isinstance(number, bool):
        raise MessageError(f"{prefix}{key}: a whole number, not a JSON {_json_type(number)}")
    if not lowest <= number <= highest:
        raise MessageError(f"{prefix}{key}: {number} is out of range ({lowest} to {highest})")
    return number


def _game_id(value: dict[str, Any]) -> str:
    game_id = _string(value, "id", 16)
    if not GAME_ID_PATTERN.fullmatch(game_id):
        raise MessageError(f"id: {game_id!r} is not a game's id (16 of 0-9 and a-f)")
    return game_id


def _nonce(value: dict[str, Any]) -> str:
    nonce = _string(value, "nonce", 32)
    if not NONCE_PATTERN.fullmatch(nonce):
        raise MessageError(f"nonce: {nonce!r} is not a nonce (32 of 0-9 and a-f)")
    return nonce


def _nest(value: dict[str, Any]) -> str:
    nest = _string(value, "nest", 32)
    if not NEST_PATTERN.fullmatch(nest):
        raise MessageError(f"nest: {nest!r} is not a nest's name (8 to 32 of a-z and 0-9)")
    return nest


def _side(value: dict[str, Any], key: str) -> Side:
    text = _string(value, key, 4)
    if text not in ("red", "blue"):
        raise MessageError(f"{key}: {text!r} is not 'red' or 'blue'")
    return Side.from_text(text)


def _lineup(value: dict[str, Any], game: Game) -> str:
    lineup = _string(value, "lineup", 64)
    try:
        return game.check_lineup(lineup)
    except NestrefError as error:
        raise MessageError(f"lineup: {error}") from None


def _refuse_constant(name: str) -> Any:
    raise MessageError(f"the message holds {name}, which is not JSON")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
