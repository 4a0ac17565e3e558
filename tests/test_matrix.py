"""The GPIO matrix scan, on gpiozero's MockFactory with a simulated switch matrix."""

from __future__ import annotations

import pytest
from gpiozero import GPIOPinInUse
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from hardware.matrix import GpioMatrix
from sim.mock_matrix import MockSwitchMatrix

ROWS = [4, 5, 6, 7, 12, 13, 14, 15]
COLUMNS = [16, 17, 18, 19, 20, 21, 22, 23]
POSITIONS = [(r, c) for r in range(8) for c in range(8)]


@given(st.sets(st.sampled_from(POSITIONS)))
def test_a_scan_reads_exactly_the_closed_switches(closed):
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, ROWS, COLUMNS)
    matrix = GpioMatrix(ROWS, COLUMNS, pin_factory=factory)
    try:
        switches.set_all(closed)
        assert matrix.scan() == closed
        assert matrix.poll()[0].closed == closed
        # Between scans every row is back high: nothing is driven low.
        assert all(factory.pin(pin).state for pin in ROWS)
    finally:
        matrix.close()
        factory.reset()


def test_the_scan_follows_the_switches():
    factory = MockFactory()
    switches = MockSwitchMatrix(factory, ROWS, COLUMNS)
    matrix = GpioMatrix(ROWS, COLUMNS, pin_factory=factory)
    assert matrix.scan() == frozenset()
    switches.set((3, 5), True)
    assert matrix.scan() == {(3, 5)}
    switches.set((3, 5), False)
    switches.set((7, 0), True)
    assert matrix.scan() == {(7, 0)}
    matrix.close()


def test_pins_are_released_and_a_pin_used_twice_is_refused():
    factory = MockFactory()
    matrix = GpioMatrix(ROWS, COLUMNS, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        GpioMatrix([4], [24], pin_factory=factory)
    matrix.close()
    again = GpioMatrix(ROWS, COLUMNS, pin_factory=factory)  # free once closed
    again.close()
    with pytest.raises(GPIOPinInUse):
        GpioMatrix([4, 4], [24], pin_factory=factory)
    last = GpioMatrix([4], [24], pin_factory=factory)  # the failed one let its pins go
    assert last.scan() == frozenset()
    last.close()
