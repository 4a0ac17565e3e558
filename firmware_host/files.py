"""Reading and writing the text files people name on the command line, with errors
that say which file and why, in one line (exit code 2), never a traceback; and text
from files made safe to print on a terminal."""

from __future__ import annotations

from pathlib import Path

from firmware_host.errors import NestrefError


def printable(text: str) -> str:
    """``text`` as it may be printed on a terminal: every character that is not
    printable (:meth:`str.isprintable`: a control character such as ESC, BEL or
    backspace, an invisible format character such as a right-to-left override, a line
    break) written as its escape, ``\\x1b``, so that text from a file can neither move the
    cursor, clear the screen nor retitle the terminal.

    >>> printable("Ann\\x1b]0;owned\\x07")
    'Ann\\\\x1b]0;owned\\\\x07'
    >>> printable("Zoë")
    'Zoë'
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)


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
