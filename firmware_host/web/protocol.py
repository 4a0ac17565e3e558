"""The WebSocket protocol's messages from a page (docs/simulator.md), checked whole
before anything is done; and what a simulated table offers the page to act on."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_host.errors import NestrefError
from firmware_host.web.channel import MAX_ID_CHARS, NotAMessageError, json_value, message_id

MAX_LOG_BYTES = 1024 * 1024  # the largest sensor log a page may load, or a recording grow to
# JSON escapes a control character as \u00XX, six bytes for one: a message carrying any
# log the simulator takes fits in MAX_MESSAGE_BYTES, however it is escaped.
MAX_MESSAGE_BYTES = 6 * MAX_LOG_BYTES + 4096
SPECTATOR_MESSAGE_BYTES = 4096  # a read-only page has nothing long to say
MAX_SHOWN_CHARS = 40  # of a page's value quoted back in an error
MAX_ERROR_CHARS = 300  # of an error's message


class ActionError(NestrefError, ValueError):
    """What a page asked cannot be done now; nothing changed. The message says why."""


class TableActions(Protocol):
    """What a simulated table lets a page do (the simulator's), and what it shows."""

    async def act(self, kind: str, fields: Mapping[str, Any]) -> dict[str, Any] | None:
        """Do a checked request; a message for the asking page alone, if any. Raises
        :class:`ActionError` when it cannot be done now."""
        ...

    def table_message(self) -> dict[str, Any]: ...

    def replay_message(self) -> dict[str, Any]: ...

    def recording_message(self) -> dict[str, Any]: ...


class BadMessageError(ValueError):
    """A message from a page that is not one the protocol has; nothing was done.
    ``id`` is the message's, when it had a good one (for the page to match the error)."""

    def __init__(self, message: str, id: int | str | None = None) -> None:
        super().__init__(message)
        self.id = id


# -- what the page sends ----------------------------------------------------------------------

# Each type's fields: name → (kind, required). Kinds: "cell", "cells", "int", "bool",
# "number", "text", "lineup", "button", "player", "level".
_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "lift": {"cell": ("cell", True)},
    "put": {"cell": ("cell", True), "piece": ("int", False)},
    "slide": {"path": ("cells", True)},
    "knock": {"cell": ("cell", True)},
    "take": {"piece": ("int", True)},
    "drop": {"piece": ("int", True)},
    "button": {"name": ("button", True), "hold": ("bool", False)},
    "setup": {"lineup": ("lineup", False)},
    "players": {"red": ("player", True), "blue": ("player", True), "level": ("level", False)},
    "clear": {},
    "hint": {},
    "pin": {"pin": ("text", True)},
    "resume": {"token": ("text", True)},
    "new_pin": {},
    "log_load": {"text": ("text", True)},
    "replay_play": {"speed": ("number", False)},
    "replay_pause": {},
    "replay_step": {},
    "record_start": {},
    "record_stop": {},
    # remote play (docs/remote-play.md), with a broker
    "remote_offer": {},
    "remote_join": {"code": ("text", True)},
    "remote_leave": {},
    "remote_resign": {},
    "remote_draw": {},
    "remote_take_back": {},
    "remote_answer": {"accept": ("bool", True)},
}
NOT_ACTIONS = {"pin", "resume"}  # asked before the page may act


@dataclass(frozen=True)
class Choices:
    """What a page's values may be, from the game and the config."""

    cells: frozenset[str]
    lineups: tuple[str, ...]
    buttons: tuple[str, ...]
    levels: int  # the computer's levels are 1 to this


@dataclass(frozen=True)
class Request:
    """A message from a page, checked."""

    type: str
    fields: dict[str, Any]
    id: int | str | None = None


def parse_message(text: str, *, choices: Choices) -> Request:
    """Check one message whole. Raises :class:`BadMessageError` naming what is wrong."""
    try:
        data = json_value(text)
    except NotAMessageError as error:  # not JSON, or nested deeper than any message
        raise BadMessageError(str(error), error.id) from None
    if not isinstance(data, dict):
        raise BadMessageError("a message is a JSON object")
    ident = message_id(data)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        message = f"unknown type {shown(kind)}" if isinstance(kind, str) else "no type"
        raise BadMessageError(message, ident)
    if ident is None and data.get("id") is not None:
        raise BadMessageError(f"id: a number, or a text of up to {MAX_ID_CHARS} characters")
    spec = _FIELDS[kind]
    extra = sorted(set(data) - set(spec) - {"type", "id"})
    if extra:
        raise BadMessageError(f"{kind}: unknown field {shown(extra[0])}", ident)
    fields: dict[str, Any] = {}
    for name, (check, required) in spec.items():
        if name not in data:
            if required:
                raise BadMessageError(f"{kind}: missing {name}", ident)
            continue
        try:
            fields[name] = _checked(kind, name, check, data[name], choices)
        except BadMessageError as error:
            raise BadMessageError(str(error), ident) from None
    return Request(kind, fields, ident)


def _checked(
    kind: str,
    name: str,
    check: str,
    value: Any,
    choices: Choices,
) -> Any:
    where = f"{kind}: {name}"
    if check == "cell":
        if not isinstance(value, str) or value not in choices.cells:
            raise BadMessageError(f"{where}: {shown(value)} is not a cell of the nest")
    elif check == "cells":
        if not isinstance(value, list) or not 2 <= len(value) <= 20:
            raise BadMessageError(f"{where}: a list of 2 to 20 cells")
        for cell in value:
            _checked(kind, name, "cell", cell, choices)
    elif check == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadMessageError(f"{where}: a whole number")
    elif check == "bool":
        if not isinstance(value, bool):
            raise BadMessageError(f"{where}: true or false")
    elif check == "number":
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise BadMessageError(f"{where}: a number")
    elif check == "text":
        if not isinstance(value, str):
            raise BadMessageError(f"{where}: a text")
    elif check == "lineup":
        if value not in choices.lineups:
            raise BadMessageError(f"{where}: {shown(value)} is not one of: {', '.join(choices.lineups)}")
    elif check == "button" and value not in choices.buttons:
        raise BadMessageError(f"{where}: {shown(value)} is not one of: {', '.join(choices.buttons)}")
    elif check == "player" and value not in ("human", "computer"):
        raise BadMessageError(f"{where}: {shown(value)} is not one of: human, computer")
    elif check == "level" and (
        not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= choices.levels
    ):
        raise BadMessageError(f"{where}: a level from 1 to {choices.levels}")
    return value


def shown(value: Any) -> str:
    """A page's value, quoted back in an error: its ``repr``, cut short (a page that
    sent 10,000 characters is not sent them back).

    >>> shown("c3")
    "'c3'"
    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 1] + "..."


# -- what the page is sent --------------------------------------------------------------------
