"""The serial scanner backend: the Pico's own firmware on a pty, the daemon's reader on the other end.

The simulated Pico runs the firmware's ``Scanner`` (hardware/pico/main.py) in a thread
over a simulated matrix, writing to a pty's master side; the daemon's ``SerialScanner``
reads the slave through a symlink, as it would read /dev/ttyACM0. Closing the master is
pulling the cable; a new pty behind the same symlink is plugging it back. The firmware
gets a clock that advances exactly 1 ms per scan, so what it sends depends on scans,
not on how busy this machine is; tests wait for conditions, never for fixed times.
"""

from __future__ import annotations

import doctest
import logging
import time

import pytest
import serial
from hypothesis import given
from hypothesis import strategies as st

from hardware import serial_scanner
from hardware.pico.main import Scanner
from hardware.reconnect import Backoff
from hardware.scanner_protocol import Hello, Snapshot, decode_packet
from hardware.sensors import ScanUpdate
from hardware.serial_scanner import STALE_AFTER_S, SerialScanner
from sim.pico import SimulatedMatrix, SimulatedPico

WAIT_S = 5.0
test_logger = logging.getLogger("tests.serial_scanner")


def wait_for(scanner, condition, *, timeout_s=WAIT_S):
    """Poll until ``condition(updates so far)`` holds; the updates. Fails after ``timeout_s``."""
    updates: list[ScanUpdate] = []
    deadline = time.monotonic() + timeout_s
    while True:
        updates.extend(scanner.poll())
        if condition(updates):
            return updates
        assert time.monotonic() < deadline, f"timed out; updates so far: {updates}"
        time.sleep(0.002)


def has_picture(closed):
    return lambda updates: bool(updates) and updates[-1].closed == frozenset(closed)


@pytest.fixture
def nest(tmp_path):
    """(daemon's scanner, simulated Pico), connected, the HELLO and a first update received."""
    pico = SimulatedPico(tmp_path / "ttyPico")
    backoff = Backoff("serial scanner (test)", test_logger, initial_s=0.01, maximum_s=0.05)
    host = SerialScanner(str(pico.link), size=(8, 8), backoff=backoff)
    try:
        pico.plug()
        assert host.poll() == []  # opens the port before the firmware's boot HELLO is sent
        pico.boot()
        wait_for(host, lambda updates: bool(updates) and host.hello is not None)
        yield host, pico
    finally:
        pico.unplug()
        host.close()


def test_the_modules_examples_hold():
    assert doctest.testmod(serial_scanner).failed == 0


# Against the simulated Pico


def test_snapshots_arrive_as_scan_updates_and_the_hello_tells_the_matrix(nest):
    host, pico = nest
    assert host.connected
    assert host.hello is not None
    assert (host.hello.rows, host.hello.cols, host.hello.scan_hz, host.hello.firmware_version) == (8, 8, 1000, "2.0")
    pico.matrix.set_closed({(0, 0), (3, 4), (7, 7)})
    updates = wait_for(host, has_picture({(0, 0), (3, 4), (7, 7)}))
    pico.matrix.set_closed({(0, 0), (7, 7)})
    updates = wait_for(host, has_picture({(0, 0), (7, 7)}))
    assert all(not update.flickered for update in updates)
    assert host.frames_lost == 0 and host.frames_rejected <= 1  # a first, cut-off packet at most


def test_a_one_scan_flicker_reaches_the_host_as_flickered(nest):
    host, pico = nest
    pico.matrix.set_closed({(4, 4)})
    wait_for(host, has_picture({(4, 4)}))
    # For 1 ms, (2, 5) closes and (4, 4) opens: the next frame's latch shows both.
    pico.flicker_after_next_snapshot({(2, 5), (4, 4)})
    updates = wait_for(host, lambda updates: any(update.flickered for update in updates))
    assert updates[-1] == ScanUpdate(frozenset({(4, 4)}), frozenset({(2, 5), (4, 4)}))
    assert all(update.closed == {(4, 4)} for update in updates)


def test_garbage_between_frames_is_skipped_and_nothing_is_lost(nest):
    host, pico = nest
    rejected_before = host.frames_rejected
    for garbage in (b"MicroPython v1.24 on 2024-11-29\r\n>>> ", b"\x00\xff\x13\x11\x00", bytes(range(256)) * 3):
        pico.inject(garbage)
    pico.inject(Snapshot(99, 8, 8, bytes(8), bytes(8)).to_bytes()[:-6] + b"\x00")  # a frame cut short
    pico.matrix.set_closed({(5, 1)})
    wait_for(host, lambda updates: has_picture({(5, 1)})(updates) and host.frames_rejected >= rejected_before + 4)
    assert host.frames_lost == 0
    assert host.connected


def test_lost_frames_are_counted_and_the_next_frame_puts_the_picture_right(nest):
    host, pico = nest
    pico.drop_frames(3)  # the change and the two heartbeats after it
    pico.matrix.set_closed({(1, 1), (6, 2)})
    wait_for(host, lambda updates: has_picture({(1, 1), (6, 2)})(updates) and host.frames_lost >= 3)
    assert host.frames_lost == pico.frames_dropped >= 3


def test_an_unplugged_cable_never_raises_and_the_replugged_one_shows_the_whole_board(nest):
    host, pico = nest
    pico.matrix.set_closed({(0, 1), (2, 2)})
    wait_for(host, has_picture({(0, 1), (2, 2)}))
    pico.unplug()
    wait_for(host, lambda updates: not host.connected)
    for _ in range(20):  # polling a pulled cable, trying to reopen it: quiet
        assert host.poll() == []
        time.sleep(0.005)
    pico.matrix.set_closed({(0, 1), (5, 5)})  # a piece moved while the cable was out
    pico.plug()
    pico.boot()
    updates = wait_for(host, has_picture({(0, 1), (5, 5)}))
    assert host.connected and updates[-1].flickered == frozenset()
    assert host.frames_lost == 0  # the reboot started the numbers again: no loss


def test_after_a_replug_the_first_snapshot_is_reported_even_if_nothing_changed(nest):
    host, pico = nest
    pico.matrix.set_closed({(3, 3)})
    wait_for(host, has_picture({(3, 3)}))
    pico.unplug()
    wait_for(host, lambda updates: not host.connected)
    pico.plug()
    pico.boot()
    assert wait_for(host, has_picture({(3, 3)}))[-1].closed == {(3, 3)}


# The firmware's Scanner alone, on a clock of its own


class Bench:
    """A Scanner over a simulated matrix, stepped by hand, one millisecond a step."""

    def __init__(self) -> None:
        self.matrix = SimulatedMatrix()
        self.sent: list[Hello | Snapshot] = []
        self.now_us = 0
        self.scanner = Scanner(self.matrix.drive_row, self.matrix.read_columns, self._write, lambda: self.now_us)

    def _write(self, wire):
        frame = decode_packet(wire[1:-1])
        assert frame is not None and wire[0] == wire[-1] == 0
        self.sent.append(frame)

    def steps(self, count):
        """The frames sent by ``count`` steps, with the step (ms) each was sent at."""
        sent = []
        for _ in range(count):
            before = len(self.sent)
            self.scanner.step()
            sent += [(self.now_us // 1000, frame) for frame in self.sent[before:]]
            self.now_us += 1000
        return sent


def test_the_firmware_boots_with_a_hello_then_a_snapshot_with_no_latch():
    bench = Bench()
    bench.matrix.set_closed({(1, 2)})
    (_, hello), (_, snapshot) = bench.steps(1)
    assert hello == Hello(0, 2, 0, 8, 8, 1000, is_boot=True)
    assert snapshot == Snapshot(1, 8, 8, bytes([0, 0b100, 0, 0, 0, 0, 0, 0]), bytes(8))


def test_the_firmware_sends_a_heartbeat_every_100_ms_and_a_hello_every_2_s():
    bench = Bench()
    sent = bench.steps(4001)
    assert [ms for ms, frame in sent if isinstance(frame, Snapshot)] == list(range(0, 4001, 100))
    assert [(ms, frame.is_boot) for ms, frame in sent if isinstance(frame, Hello)] == [
        (0, True),
        (2000, False),
        (4000, False),
    ]
    assert [frame.seq for _, frame in sent] == [seq % 256 for seq in range(len(sent))]


def test_the_firmware_sends_a_change_at_once_but_frames_stay_4_ms_apart():
    bench = Bench()
    bench.steps(50)
    bench.matrix.set_closed({(0, 0)})
    assert [ms for ms, _ in bench.steps(1)] == [50]
    bench.matrix.set_closed({(0, 0), (0, 1)})
    sent = bench.steps(10)
    assert [ms for ms, _ in sent] == [54]
    assert sent[0][1].closed[0] == 0b11


def test_a_one_scan_flicker_between_frames_is_in_the_next_frames_latch():
    bench = Bench()
    bench.matrix.set_closed({(6, 0)})
    bench.steps(50)
    bench.matrix.set_closed({(6, 0), (7, 7)})
    bench.steps(1)  # sent at once: (6, 0) and (7, 7) closed
    bench.matrix.flicker_next_scan({(6, 0)})  # opens for the one scan at 51 ms
    sent = bench.steps(10)
    assert [ms for ms, _ in sent] == [54]
    snapshot = sent[0][1]
    assert (snapshot.closed[6], snapshot.closed[7], snapshot.latch[6], snapshot.latch[7]) == (1, 0x80, 1, 0)
    assert [ms for ms, _ in bench.steps(100)] == [154]  # then quiet until the heartbeat


def test_the_firmware_paces_its_scans_to_the_scan_rate():
    clock = {"now": 0}
    slept: list[int] = []

    def ticks_us():
        clock["now"] += 150  # each look at the clock: 150 us of work
        return clock["now"]

    scanner = Scanner(lambda row, is_selected: None, lambda: 0xFF, lambda wire: None, ticks_us)
    scanner.run(slept.append, keep_running=lambda: len(slept) < 3)
    # started, then step's own look, then the end: 300 us of a 1000 us period used
    assert slept == [700, 700, 700]


# The daemon's reader alone, on a fake port


class FakePort:
    """A pyserial port that hands out queued chunks, then nothing, or raises a queued error."""

    def __init__(self, chunks=()) -> None:
        self.chunks: list[bytes | BaseException] = list(chunks)
        self.is_closed = False

    def read(self, size):
        assert not self.is_closed and size > 0
        if not self.chunks:
            return b""
        chunk = self.chunks.pop(0)
        if isinstance(chunk, BaseException):
            raise chunk
        return chunk

    def close(self):
        self.is_closed = True


class FakeLink:
    """Hands ``SerialScanner`` a new ``FakePort`` per open, or a queued error."""

    def __init__(self) -> None:
        self.opened: list[FakePort] = []
        self.refusals: list[BaseException] = []
        self.attempts: list[float] = []
        self.now = 0.0

    def open_port(self, url, *, baudrate, timeout):
        assert (url, baudrate, timeout) == ("/dev/ttyACM0", 115200, 0)
        self.attempts.append(self.now)
        if self.refusals:
            raise self.refusals.pop(0)
        self.opened.append(FakePort())
        return self.opened[-1]

    def scanner(self, size=(8, 8)):
        backoff = Backoff("serial scanner (test)", test_logger, initial_s=1.0, maximum_s=4.0)
        return SerialScanner(
            "/dev/ttyACM0", size=size, open_port=self.open_port, clock=lambda: self.now, backoff=backoff
        )

    def send(self, *frames):
        self.opened[-1].chunks.append(b"".join(frame.to_bytes() for frame in frames))


def snapshot(seq, closed=(), latch=(), rows=8, cols=8):
    def bitmap(positions):
        value = sum(1 << (row * cols + col) for row, col in positions)
        return value.to_bytes((rows * cols + 7) // 8, "little")

    return Snapshot(seq, rows, cols, bitmap(closed), bitmap(latch))


def test_the_latch_is_a_flicker_only_where_the_switch_ended_as_it_was():
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.send(snapshot(0, closed={(0, 0), (1, 1)}))
    assert scanner.poll() == [ScanUpdate(frozenset({(0, 0), (1, 1)}))]
    # (0, 0) flickered and stayed; (1, 1) opened; (2, 2) closed: both in the latch too.
    link.send(snapshot(1, closed={(0, 0), (2, 2)}, latch={(0, 0), (1, 1), (2, 2)}))
    assert scanner.poll() == [ScanUpdate(frozenset({(0, 0), (2, 2)}), frozenset({(0, 0)}))]


def test_a_heartbeat_that_changes_nothing_makes_no_update():
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.send(snapshot(0, closed={(4, 4)}), snapshot(1, closed={(4, 4)}), snapshot(2, closed={(4, 4)}))
    assert scanner.poll() == [ScanUpdate(frozenset({(4, 4)}))]
    assert scanner.frames_received == 3


def test_positions_follow_the_matrix_size_the_config_wires():
    link = FakeLink()
    scanner = link.scanner(size=(3, 3))
    scanner.poll()
    link.send(snapshot(0, closed={(1, 2), (2, 0)}, rows=3, cols=3))
    assert scanner.poll() == [ScanUpdate(frozenset({(1, 2), (2, 0)}))]


def test_a_snapshot_of_another_matrix_size_is_not_taken(caplog):
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.send(snapshot(0, closed={(0, 0)}, rows=4, cols=4), snapshot(1, closed={(0, 0)}, rows=8, cols=9))
    assert scanner.poll() == []
    assert not scanner.connected  # nothing of this nest's matrix has come
    assert scanner.frames_misfit == 2
    assert "reports a 4x4 matrix, but the config wires 8x8" in caplog.text
    link.send(snapshot(2, closed={(7, 7)}))
    assert scanner.poll() == [ScanUpdate(frozenset({(7, 7)}))]
    assert scanner.connected


def test_a_pico_that_announces_another_matrix_size_is_not_taken(caplog):
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    # The HELLO says 6x6: the 8x8 snapshots that follow cannot be this Pico's matrix.
    link.send(Hello(0, 1, 0, 6, 6, 1000, is_boot=True), snapshot(1, closed={(0, 0)}))
    assert scanner.poll() == []
    assert scanner.hello is None and not scanner.connected
    assert "announces a 6x6 matrix, but the config wires 8x8" in caplog.text
    link.send(Hello(2, 1, 0, 8, 8, 1000), snapshot(3, closed={(0, 0)}))  # reflashed to scan 8x8
    assert scanner.poll() == [ScanUpdate(frozenset({(0, 0)}))]
    assert scanner.connected


def test_sequence_gaps_count_lost_frames_but_a_wrap_or_a_reboot_does_not():
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.send(snapshot(254), snapshot(255), snapshot(0), snapshot(4), Hello(0, 1, 0, 8, 8, 1000, is_boot=True))
    scanner.poll()
    assert scanner.frames_lost == 3
    link.send(Hello(3, 1, 0, 8, 8, 1000))  # a periodic HELLO is numbered like any frame
    scanner.poll()
    assert scanner.frames_lost == 5
    assert scanner.hello == Hello(3, 1, 0, 8, 8, 1000)


def test_a_port_that_cannot_be_opened_is_tried_again_as_the_backoff_says():
    link = FakeLink()
    link.refusals = [serial.SerialException("could not open port"), FileNotFoundError(2, "gone"), ValueError("url")]
    scanner = link.scanner()
    for tick in range(100):
        link.now = tick / 10
        assert scanner.poll() == []
    assert link.attempts == [0.0, 1.0, 3.0, 7.0]  # refused, then after 1 s, 2 s, 4 s; opened
    assert len(link.opened) == 1
    assert not scanner.connected  # open, but no frame yet


def test_a_read_error_closes_the_port_and_reopens_it_later():
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.send(snapshot(0, closed={(0, 0)}))
    assert scanner.poll()
    assert scanner.connected
    link.opened[-1].chunks.append(serial.SerialException("device reports readiness to read but returned no data"))
    assert scanner.poll() == []
    assert link.opened[-1].is_closed and not scanner.connected
    link.now = 0.5
    scanner.poll()
    assert len(link.opened) == 1  # not yet: the backoff's first delay is 1 s
    link.now = 1.0
    scanner.poll()
    assert len(link.opened) == 2
    link.send(snapshot(7, closed={(0, 0)}))  # the same picture, but the first on this port
    assert scanner.poll() == [ScanUpdate(frozenset({(0, 0)}))]
    assert scanner.frames_lost == 0


def test_even_an_unexpected_error_from_the_port_is_logged_not_raised(caplog):
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.opened[-1].chunks.append(TypeError("a bug in a driver"))
    with caplog.at_level(logging.ERROR, logger="hardware.serial_scanner"):
        assert scanner.poll() == []
    assert "unexpected error" in caplog.text and "TypeError" in caplog.text
    assert link.opened[-1].is_closed


def test_a_silent_link_is_not_connected():
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.send(snapshot(0))
    scanner.poll()
    link.now = STALE_AFTER_S
    assert scanner.connected
    link.now = STALE_AFTER_S + 0.01
    assert not scanner.connected


def test_a_closed_scanner_closes_its_port_and_stays_quiet():
    link = FakeLink()
    with link.scanner() as scanner:
        scanner.poll()
    assert link.opened[-1].is_closed
    link.now = 100.0
    assert scanner.poll() == []
    assert len(link.opened) == 1
    scanner.close()


@given(st.lists(st.binary(max_size=300), max_size=20), st.integers(0, 255))
def test_no_byte_sequence_makes_the_reader_raise_and_a_good_frame_still_gets_through(chunks, seq):
    link = FakeLink()
    scanner = link.scanner()
    scanner.poll()
    link.opened[-1].chunks.extend(chunks)
    for _ in chunks:
        scanner.poll()
    link.send(snapshot(seq, closed={(2, 7)}))
    updates = scanner.poll()
    assert updates and updates[-1].closed == {(2, 7)}
