"""Reading and writing the text files people name on the command line, with errors
that say which file and why, in one line (exit code 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

from firmware_host.errors import NestrefError


def reason(error: OSError | UnicodeDecodeError) -> str:
    """Why a file could not be read or written, in words: ``No such file or directory``."""
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)


def read_text(path: str | Path, what: str) -> str:
    """The text of the file at ``path``; ``what`` it is, for the error."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise NestrefError(f"{path}: cannot read the {what}: {reason(error)}") from None


def write_text(path: str | Path, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise NestrefError(f"cannot write {path}: {reason(error)}") from None
