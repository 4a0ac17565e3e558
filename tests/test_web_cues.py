"""The cues the daemon sounds, passed on to the pages: with the daemon's tunes in the
hello, each cue to the pages connected as it sounds, none to a page that comes later."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.daemon.tunes import Cue, tunes_as_json
from firmware_host.web.cues import CUES_KEPT, CueFeed
from tests.sim_helpers import connect


async def test_a_cue_goes_to_the_pages_connected_and_not_to_a_late_one(aiohttp_client, running):
    page = await connect(aiohttp_client, running.server)
    assert page.latest["hello"]["tunes"] == tunes_as_json()  # the daemon's own, for Web Audio
    await page.act({"type": "lift", "cell": "a3"})  # too far: an illegal move
    await page.act({"type": "put", "cell": "a5"})
    await page.until(lambda: page.latest.get("cue") == {"type": "cue", "cue": "illegal move"})
    late = await connect(aiohttp_client, running.server)
    await late.until(lambda: late.latest["oled"]["headline"] == "ILLEGAL")
    await late.act({"type": "lift", "cell": "a5"})  # its act brings a frame: still no cue for it
    await page.until(lambda: page.latest["table"]["hand"] != [])
    assert "cue" not in late.latest
    await page.close()
    await late.close()


@given(st.lists(st.sampled_from(list(Cue)), max_size=50), st.integers(0, 60))
def test_a_cue_feed_gives_what_came_after_a_count_up_to_what_it_keeps(cues, seen):
    feed = CueFeed()
    for cue in cues:
        feed.add(cue)
    seen = min(seen, len(cues))
    got = feed.since(seen)
    assert feed.count == len(cues)
    expected = [cue.value for cue in cues[seen:]][-CUES_KEPT:]
    assert [json.loads(message) for message in got] == [{"type": "cue", "cue": value} for value in expected]
