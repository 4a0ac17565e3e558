"""The cues the daemon sounds, passed on to the pages, which play them with Web Audio
(``page/sound.js``) from the tunes in the hello (``tunes_as_json()``: one copy of the
tunes, the daemon's).

A cue is news, not state: a page is sent the cues sounded while it is connected, never
the ones before (a page opened late must not beep a game's past). The daemon tells
:meth:`CueFeed.add` from its loop; the server sends each page what it has not had.
"""

from __future__ import annotations

import json
from collections import deque

from firmware_host.daemon.tunes import Cue

CUES_KEPT = 20  # a page slower than this many cues between two frames misses the oldest


class CueFeed:
    """The cues sounded so far, as the protocol's ``cue`` messages, counted."""

    def __init__(self) -> None:
        self.count = 0  # every cue so far
        self._recent: deque[str] = deque(maxlen=CUES_KEPT)

    def add(self, cue: Cue) -> None:
        self._recent.append(json.dumps({"type": "cue", "cue": cue.value}, separators=(",", ":")))
        self.count += 1

    def since(self, count: int) -> list[str]:
        """The messages of the cues after the first ``count`` (those kept)."""
        unsent = min(self.count - count, len(self._recent))
        return list(self._recent)[len(self._recent) - unsent :] if unsent > 0 else []
