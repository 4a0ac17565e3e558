"""Structured logs: one line per event, ``key=value`` pairs (logfmt), to stderr, where
systemd's journal keeps them. Extra fields ride on ``extra={"fields": {...}}``."""

from __future__ import annotations

import logging
import sys
from typing import Any

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def _quoted(value: Any) -> str:
    text = str(value)
    if text and all(char.isalnum() or char in "-_.:/+@" for char in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class LogfmtFormatter(logging.Formatter):
    """``time=... level=info logger=firmware_host.daemon msg="move accepted" move=c3-c4``"""

    def format(self, record: logging.LogRecord) -> str:
        fields = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **getattr(record, "fields", {}),
        }
        line = " ".join(f"{key}={_quoted(value)}" for key, value in fields.items())
        if record.exc_info:
            line += " traceback=" + _quoted(self.formatException(record.exc_info))
        return line


def setup_logging(level: str, stream: Any = None) -> None:
    """Send every log line of the process to ``stream`` (stderr) as logfmt."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(LogfmtFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(LEVELS[level])
