"""Test settings for the whole suite, and the fixtures several test modules share."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from firmware_host.daemon.config import load_config
from tests.broker import Broker
from tests.sim_helpers import Running, simulated

# Hypothesis must never fail a test for being slow on a busy machine: no deadline.
settings.register_profile("nestref", deadline=None, max_examples=200)
settings.load_profile("nestref")


@pytest.fixture
async def running() -> AsyncIterator[Running]:
    """The daemon on a simulated nest set up with the standard lineup, running, with
    the simulator's web server (not serving: pages connect through aiohttp's test client)."""
    async with simulated(load_config(None)) as running:
        yield running


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A real Mosquitto of the test's own, plain, on a free port of 127.0.0.1 (its files
    in ``tmp_path / "broker"``); stopped after the test."""
    broker = Broker(tmp_path / "broker")
    broker.folder.mkdir()
    broker.start()
    yield broker
    broker.stop()
