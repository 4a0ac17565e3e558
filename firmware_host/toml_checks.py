"""Reading TOML files that people write by hand: every error names the file, the key
and what is wrong, in one line. Used by board files and the daemon's config."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from firmware_host.errors import NestrefError
from firmware_host.files import reason


def kind_of(value: Any) -> str:
    """How a TOML value is called in error messages."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}
    return names.get(type(value), type(value).__name__)


class TomlChecker:
    """Checks the values of one parsed file; raises ``error`` naming the file and key."""

    def __init__(self, source: str, error: type[NestrefError]) -> None:
        self.source = source
        self.error = error

    def fail(self, where: str, what: str) -> NestrefError:
        message = f"{self.source}: {where}: {what}" if where else f"{self.source}: {what}"
        # Keys and values are quoted as written; a newline in one must not split the message.
        return self.error(message.translate({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}))

    def load(self, text: str) -> dict[str, Any]:
        """Parse ``text`` as TOML."""
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise self.fail("", f"not valid TOML: {error}") from None

    def read_file(self, path: str | Path, what: str) -> dict[str, Any]:
        """Read and parse the file at ``path`` (a byte-order mark is fine); ``what`` it
        is, for the error: ``board file``, ``config``."""
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise self.fail("", f"cannot read the {what}: {reason(error)}") from None
        return self.load(text)

    def table(
        self, data: Any, where: str, required: Iterable[str] | None = None, optional: Iterable[str] = ()
    ) -> dict[str, Any]:
        """Check that ``data`` is a table; with ``required``, also that it has exactly
        those keys and maybe some ``optional`` ones."""
        if not isinstance(data, dict):
            raise self.fail(where, f"expected a table, got {kind_of(data)}")
        if required is None:
            return data
        required = list(required)
        allowed = {*required, *optional}
        for key in data:
            if key not in allowed:
                raise self.fail(where, f"unknown key {key!r} (expected: {', '.join(sorted(allowed))})")
        for key in required:
            if key not in data:
                raise self.fail(where, f"missing key {key!r}")
        return data

    def string(self, value: Any, where: str, choices: Iterable[str] | None = None) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, got {kind_of(value)}")
        if choices is not None and value not in (options := list(choices)):
            raise self.fail(where, f"{value!r} is not one of: {', '.join(options)}")
        return value

    def string_list(self, value: Any, where: str) -> list[str]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of strings, got {kind_of(value)}")
        for item in value:
            self.string(item, where)
        self.no_repeats(value, where)
        return list(value)

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {kind_of(value)}")
        return value

    def integer(self, value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(where, f"expected a whole number, got {kind_of(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"from {low} to {high}" if low is not None and high is not None else f"at least {low}"
            raise self.fail(where, f"{value} is out of range ({bounds})")
        return value

    def integer_list(self, value: Any, where: str, low: int | None = None, high: int | None = None) -> list[int]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of whole numbers, got {kind_of(value)}")
        numbers = [self.integer(item, where, low, high) for item in value]
        self.no_repeats(numbers, where)
        return numbers

    def no_repeats(self, values: list[Any], where: str) -> None:
        if len(set(values)) != len(values):
            duplicate = next(item for item in values if values.count(item) > 1)
            raise self.fail(where, f"{duplicate!r} is listed twice")
