"""The strike pad: a tag's UID read when a piece is put on the pad, reported as an event.

The adapter (``Pn532Reader``) runs Adafruit's own ``PN532_UART`` over a real pyserial port,
against a simulated PN532 chip on the other side of a pty (tests/pn532_chip.py): the
library's framing, checksums, wake-up, ACKs and UID parsing are all its own code. What is
not tested here: a real PN532's timing and its radio (how far a tag under a piece's base
is read, through a magnet), the Pi's UART, and Blinka on a Pi.
"""

from __future__ import annotations

import logging
import time

import pytest

from hardware.errors import DeviceError
from hardware.reconnect import Backoff
from hardware.strike_pad import PadWatch, Pn532Reader, StrikePad, TagLifted, TagPlaced
from sim.strike_pad import MockTagReader
from tests.pn532_chip import Pn532Chip

WAIT_S = 5.0
MARSHAL = bytes.fromhex("04a224b2c35e80")
SCOUT = bytes.fromhex("04c1d2e3")
test_logger = logging.getLogger("tests.strike_pad")


def events_until(pad, count):
    events: list[TagPlaced | TagLifted] = []
    deadline = time.monotonic() + WAIT_S
    while len(events) < count:
        events += pad.poll()
        assert time.monotonic() < deadline, f"timed out; events so far: {events}"
        time.sleep(0.005)
    return events


@pytest.fixture
def chip(tmp_path):
    chip = Pn532Chip(tmp_path / "ttyPN532")
    yield chip
    chip.close()


# The adapter, on Adafruit's library and a simulated chip


def test_the_adapter_wakes_the_pn532_and_reads_a_tags_uid(chip):
    reader = Pn532Reader(chip.path)
    try:
        assert reader.firmware == (0x32, 1, 6, 7)
        assert chip.commands[:2] == [0x14, 0x02]  # SAMConfiguration, then GetFirmwareVersion
        assert reader.read_uid() is None  # no tag: the look ends after its timeout
        chip.place(MARSHAL)
        assert reader.read_uid() == MARSHAL
        chip.place(SCOUT)  # a 4-byte UID as well as a 7-byte one
        assert reader.read_uid() == SCOUT
        chip.lift()
        assert reader.read_uid() is None
    finally:
        reader.close()


def test_a_port_with_no_pn532_behind_it_is_a_device_error_saying_what_to_check(tmp_path):
    silent = Pn532Chip(tmp_path / "ttySilent")
    silent.close()  # its pty gone: the port is not there
    with pytest.raises(DeviceError, match=r"strike pad: cannot open .*ttySilent.*check \[strike_pad\] port"):
        Pn532Reader(str(tmp_path / "ttySilent"))


def test_a_port_whose_device_never_answers_is_no_pn532(tmp_path):
    import os
    import tty

    master, slave = os.openpty()  # nobody answers on the master side
    tty.setraw(slave)
    try:
        with pytest.raises(DeviceError, match=r"no PN532 answers on .*select HSU"):
            Pn532Reader(os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)


def test_the_pad_reports_a_piece_put_on_it_and_taken_off(chip):
    backoff = Backoff("strike pad (test)", test_logger, initial_s=0.01, maximum_s=0.05)
    pad = StrikePad(lambda: Pn532Reader(chip.path), backoff=backoff)
    pad.start()
    try:
        chip.place(MARSHAL)
        (placed,) = events_until(pad, 1)
        assert isinstance(placed, TagPlaced) and placed.uid == MARSHAL and pad.connected
        chip.lift()
        (lifted,) = events_until(pad, 1)
        assert lifted == TagLifted(MARSHAL, lifted.at) and lifted.at - placed.at >= 0.3
    finally:
        pad.close()


# The pad on the mock reader


def test_a_reader_that_fails_is_opened_again_and_its_tag_lifted_meanwhile(caplog):
    reader = MockTagReader()
    opened = []

    def open_reader():
        opened.append(reader)
        return reader

    backoff = Backoff("strike pad (test)", test_logger, initial_s=0.01, maximum_s=0.05)
    pad = StrikePad(open_reader, backoff=backoff)
    pad.start()
    try:
        reader.place(SCOUT)
        assert [type(event) for event in events_until(pad, 1)] == [TagPlaced]
        reader.fail()
        lifted, placed = events_until(pad, 2)  # lost: the tag is off as far as anyone knows; read again
        assert (lifted, placed.uid) == (TagLifted(SCOUT, lifted.at), SCOUT)
        assert len(opened) == 2 and reader.is_closed
    finally:
        pad.close()
    assert any("strike pad (test) unavailable" in record.getMessage() for record in caplog.records)


def test_a_pad_whose_reader_cannot_be_opened_keeps_trying_and_never_raises():
    attempts = []

    def open_reader():
        attempts.append(time.monotonic())
        raise DeviceError("strike pad: no PN532")

    pad = StrikePad(open_reader, backoff=Backoff("strike pad (test)", test_logger, initial_s=0.01, maximum_s=0.02))
    pad.start()
    try:
        deadline = time.monotonic() + WAIT_S
        while len(attempts) < 3:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert pad.poll() == [] and not pad.connected
    finally:
        pad.close()


# Looks into events (pure)


def test_a_tag_is_placed_once_and_a_missed_look_or_two_do_not_lift_it():
    watch = PadWatch(lifted_after_s=0.3)
    assert watch.look(None, 0.0) == []
    assert watch.look(MARSHAL, 0.1) == [TagPlaced(MARSHAL, 0.1)]
    assert watch.look(MARSHAL, 0.2) == []
    assert watch.look(None, 0.3) == [] and watch.look(None, 0.39) == []  # two bad reads
    assert watch.look(MARSHAL, 0.45) == []
    assert watch.look(None, 0.6) == [] and watch.on == MARSHAL
    assert watch.look(None, 0.75) == [TagLifted(MARSHAL, 0.75)] and watch.on is None


def test_another_tag_read_lifts_the_first():
    watch = PadWatch()
    watch.look(MARSHAL, 1.0)
    assert watch.look(SCOUT, 1.1) == [TagLifted(MARSHAL, 1.1), TagPlaced(SCOUT, 1.1)]
    assert watch.clear(1.2) == [TagLifted(SCOUT, 1.2)] and watch.clear(1.3) == []
