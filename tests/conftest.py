"""Test settings for the whole suite, and the fixtures several test modules share."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from firmware_host.daemon.config import load_config
from tests.broker import Broker
from tests.sim_helpers import Running, simulated

# What a test needs besides Python, as markers, so that the inner loop can leave it out:
# pytest -m "not browser and not broker and not bench" needs neither Chromium nor
# Mosquitto and runs no benchmark (README, "For developers"). CI runs everything.
BROWSER_FIXTURES = frozenset({"browser", "page"})
BROKER_FIXTURES = frozenset({"broker"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it needs, from the fixtures it uses (directly or through
    others): Chromium (``browser``), a Mosquitto broker (``broker``, also every test of
    a module that starts its own :class:`~tests.broker.Broker`); a test of a benchmark of
    ``benchmarks/`` is ``bench``."""
    for item in items:
        names = frozenset(getattr(item, "fixturenames", ()))
        module = getattr(item, "module", None)
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if names & BROKER_FIXTURES or (module is not None and getattr(module, "Broker", None) is Broker):
            item.add_marker(pytest.mark.broker)
        if "benchmark" in item.path.stem:
            item.add_marker(pytest.mark.bench)


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
