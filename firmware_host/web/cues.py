"""What the daemon tells as news, passed on to the pages: its cues and its signals.

The cues are played by the page with Web Audio (``page/sound.js``) from the tunes in the
hello (``tunes_as_json()``: one copy of the tunes, the daemon's). A cue is news, not
state: a page is sent the cues sounded while it is connected, never the ones before (a
page opened late must not beep a game's past). The signals (every one public: a
position in one is a public view) are kept a while longer: a page that connects late is
sent the last ``SIGNALS_KEPT``, the shared page and the players' own alike. The daemon
tells :meth:`CueFeed.add` and :meth:`SignalFeed.add` from its loop; the server sends each
page what it has not had.
"""

from __future__ import annotations

from firmware_host.daemon.tunes import Cue
from firmware_host.referee.signals import Signal
from firmware_host.web.channel import RecentMessages

CUES_KEPT = 20  # a page slower than this many cues between two frames misses the oldest
SIGNALS_KEPT = 300  # signals a page that connects late is sent


class CueFeed(RecentMessages[Cue]):
    """The cues sounded so far, as the protocol's ``cue`` messages, counted."""

    def __init__(self) -> None:
        super().__init__(CUES_KEPT, lambda cue: {"type": "cue", "cue": cue.value})


class SignalFeed(RecentMessages[Signal]):
    """The signals so far, as the protocol's ``signal`` messages, counted."""

    def __init__(self) -> None:
        super().__init__(
            SIGNALS_KEPT, lambda signal: {"type": "signal", "kind": type(signal).__name__, "text": signal.to_text()}
        )
