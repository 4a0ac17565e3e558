"""The serial scanner protocol: CRC, COBS, frames, and a decoder no byte stream can break."""

from __future__ import annotations

import binascii
import doctest
import itertools
import platform
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import scanner_protocol
from hardware.scanner_protocol import (
    KIND_HELLO,
    KIND_LIGHTS,
    KIND_SNAPSHOT,
    MAX_COLOURS,
    MAX_LIGHTS,
    MAX_LIGHTS_PACKET_SIZE,
    MAX_PACKET_SIZE,
    MAX_SIDE,
    FrameDecoder,
    Hello,
    HostFrameDecoder,
    Lights,
    Snapshot,
    bitmap_size,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_host_packet,
    decode_packet,
    escape,
    unescape,
)

ROOT = Path(__file__).resolve().parent.parent


def packet_of(body: bytes, *, crc: int | None = None) -> bytes:
    """A packet (no delimiters) carrying ``body`` with its CRC, or with ``crc``."""
    crc = crc16(body) if crc is None else crc
    return cobs_encode(body + bytes([crc >> 8, crc & 0xFF]))


@st.composite
def snapshots(draw):
    rows = draw(st.integers(1, MAX_SIDE))
    cols = draw(st.integers(1, MAX_SIDE))
    bits = rows * cols

    def bitmap():
        value = draw(st.integers(0, (1 << bits) - 1))
        return value.to_bytes(bitmap_size(rows, cols), "little")

    return Snapshot(draw(st.integers(0, 255)), rows, cols, bitmap(), bitmap())


@st.composite
def hellos(draw):
    version = draw(st.integers(0, 255))
    return Hello(
        seq=draw(st.integers(0, 255)),
        firmware_major=draw(st.integers(0, 255)),
        firmware_minor=draw(st.integers(0, 255)),
        rows=draw(st.integers(1, MAX_SIDE)),
        cols=draw(st.integers(1, MAX_SIDE)),
        scan_hz=draw(st.integers(0, 0xFFFF)),
        is_boot=draw(st.booleans()),
        protocol_version=version,
        lights=draw(st.integers(0, MAX_LIGHTS)) if version >= 2 else 0,  # version 1 has no such field
    )


frames = st.one_of(hellos(), snapshots())


@st.composite
def lights_frames(draw, max_leds=MAX_LIGHTS):
    colours = draw(st.integers(0, MAX_COLOURS))
    palette = draw(st.binary(min_size=3 * colours, max_size=3 * colours))
    lit = st.builds(lambda blink, colour: blink << 4 | colour, st.integers(1, 3), st.integers(0, colours - 1))
    led = st.one_of(st.just(0), lit) if colours else st.just(0)
    leds = bytes(draw(st.lists(led, min_size=1, max_size=max_leds)))
    return Lights(draw(st.integers(0, 255)), draw(st.integers(0, 999)), palette, leds)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given offsets (taken modulo its length)."""
    points = sorted({cut % (len(data) + 1) for cut in cuts} | {0, len(data)})
    return [data[start:end] for start, end in itertools.pairwise(points)]


def test_the_modules_examples_hold():
    assert doctest.testmod(scanner_protocol).failed == 0


# CRC-16/CCITT-FALSE


@pytest.mark.parametrize(
    ("data", "crc"),
    [(b"123456789", 0x29B1), (b"", 0xFFFF), (b"A", 0xB915), (b"\x00", 0xE1F0), (bytes(range(256)), 0x3FBD)],
)
def test_crc16_gives_the_known_ccitt_false_values(data, crc):
    assert crc16(data) == crc


@given(st.binary())
def test_crc16_agrees_with_the_standard_librarys_crc_hqx_from_0xffff(data):
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


# COBS


@pytest.mark.parametrize(
    ("data", "encoded"),
    [
        ("", "01"),
        ("00", "01 01"),
        ("00 00", "01 01 01"),
        ("00 11 00", "01 02 11 01"),
        ("11 22 00 33", "03 11 22 02 33"),
        ("11 22 33 44", "05 11 22 33 44"),
        ("11 00 00 00", "02 11 01 01 01"),
    ],
)
def test_cobs_encodes_the_textbook_examples(data, encoded):
    assert cobs_encode(bytes.fromhex(data)) == bytes.fromhex(encoded)
    assert cobs_decode(bytes.fromhex(encoded)) == bytes.fromhex(data)


def test_cobs_handles_runs_of_254_bytes_without_a_zero():
    assert cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255))
    assert cobs_encode(bytes(range(255))) == b"\x01\xff" + bytes(range(1, 255))
    assert cobs_encode(bytes(range(1, 256))) == b"\xff" + bytes(range(1, 255)) + b"\x02\xff"


@given(st.binary(max_size=1000))
def test_cobs_round_trips_and_leaves_no_zero(data):
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize("packet", ["00", "02", "05 11 22", "03 11 00 22"])
def test_cobs_decode_refuses_what_no_encoder_makes(packet):
    assert cobs_decode(bytes.fromhex(packet)) is None


# Frames


def test_a_snapshot_frame_byte_by_byte():
    # The example in docs/scanner-protocol.md: rows 1 and 7 partly closed, one flicker.
    closed = bytes([0, 0x08, 0, 0, 0, 0, 0, 0x81])
    latch = bytes([0, 0, 0, 0, 0x01, 0, 0, 0])
    wire = Snapshot(1, 8, 8, closed, latch).to_bytes()
    assert wire.hex(" ") == "00 05 53 01 08 08 02 08 01 01 01 01 02 81 01 01 01 02 01 01 01 03 d3 53 00"


def test_a_version_1_hello_frame_byte_by_byte():
    # The example in docs/scanner-protocol.md: firmware 1.0's, which the host still reads.
    wire = Hello(0, 1, 0, 8, 8, 1000, is_boot=True, protocol_version=1).to_bytes()
    assert wire.hex(" ") == "00 02 48 04 01 01 01 07 08 08 03 e8 66 6d 00"
    assert decode_packet(wire[1:-1]) == Hello(0, 1, 0, 8, 8, 1000, is_boot=True, protocol_version=1, lights=0)


def test_a_version_2_hello_frame_byte_by_byte():
    # The example in docs/scanner-protocol.md: the battle nest's Pico, 10x10 and 100 LEDs.
    wire = Hello(0, 2, 0, 10, 10, 1000, is_boot=True, lights=100).to_bytes()
    assert wire.hex(" ") == "00 02 48 04 02 01 02 05 0a 0a 03 e8 04 64 86 dc 00"
    assert decode_packet(wire[1:-1]) == Hello(0, 2, 0, 10, 10, 1000, is_boot=True, protocol_version=2, lights=100)


def test_a_lights_frame_byte_by_byte():
    # The example in docs/scanner-protocol.md: four LEDs, white steady, off, green slow,
    # amber fast (each 03 and 7d escaped: COBS's code bytes, the LED count, the palette).
    palette = bytes([255, 255, 255, 0, 255, 0, 255, 0x7D, 3])
    frame = Lights(3, 250, palette, bytes([0x10, 0x00, 0x21, 0x32]))
    wire = frame.to_bytes()
    assert wire.hex(" ") == (
        "00 7d 23 4c 7d 23 02 fa 06 04 7d 23 ff ff ff 02 ff 05 ff 7d 5d 7d 23 10 05 21 32 2d 4d 00"
    )
    assert 3 not in wire
    assert HostFrameDecoder().feed(wire) == [frame]
    assert [frame.led(i) for i in range(4)] == [
        (1, (255, 255, 255)),
        (0, (0, 0, 0)),
        (2, (0, 255, 0)),
        (3, (255, 125, 3)),
    ]


@given(frames)
def test_every_frame_decodes_to_itself(frame):
    wire = frame.to_bytes()
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert len(wire) - 2 <= MAX_PACKET_SIZE
    assert FrameDecoder().feed(wire) == [frame]
    assert repr(frame).startswith(type(frame).__name__ + "(seq=")


@pytest.mark.parametrize(
    "make",
    [
        lambda: Snapshot(256, 8, 8, bytes(8), bytes(8)),
        lambda: Snapshot(0, 0, 8, b"", b""),
        lambda: Snapshot(0, 8, 17, bytes(17), bytes(17)),
        lambda: Snapshot(0, 8, 8, bytes(7), bytes(8)),
        lambda: Snapshot(0, 2, 3, b"\x40", b"\x00"),  # bit 6 of a 6-switch matrix
        lambda: Hello(0, 1, 0, 8, 8, 70000),
        lambda: Hello(0, 256, 0, 8, 8, 1000),
        lambda: Hello(0, 2, 0, 8, 8, 1000, lights=MAX_LIGHTS + 1),
        lambda: Hello(0, 2, 0, 8, 8, 1000, protocol_version=1, lights=4),  # version 1 cannot say it
        lambda: Lights(0, 1000, b"", b"\x00"),  # the phase is within a second
        lambda: Lights(0, 0, b"", b""),  # no LED
        lambda: Lights(0, 0, b"", bytes(MAX_LIGHTS + 1)),
        lambda: Lights(0, 0, b"\x01\x02", b"\x00"),  # a palette of two bytes
        lambda: Lights(0, 0, bytes(3 * (MAX_COLOURS + 1)), b"\x00"),
        lambda: Lights(0, 0, bytes(3), b"\x11"),  # colour 1 of a palette of one
        lambda: Lights(0, 0, bytes(3), b"\x40"),  # a bit beyond the blinking
        lambda: Lights(0, 0, bytes(3), b"\x01"),  # a colour, but off: an LED off is 0
        lambda: Lights(256, 0, bytes(3), b"\x10"),
    ],
)
def test_a_frame_that_does_not_fit_its_bytes_is_refused_when_encoded(make):
    with pytest.raises(ValueError, match="bad"):
        make().to_bytes()


@given(frames, st.data())
def test_any_single_bit_flip_in_a_frame_is_caught_by_the_crc(frame, data):
    body = cobs_decode(frame.to_bytes()[1:-1])
    assert body is not None
    bit = data.draw(st.integers(0, len(body) * 8 - 1))
    damaged = bytearray(body)
    damaged[bit // 8] ^= 1 << (bit % 8)
    assert decode_packet(cobs_encode(bytes(damaged))) is None


@pytest.mark.parametrize(
    "body",
    [
        "",  # nothing but a CRC
        "53",  # no sequence number
        "58 01",  # an unknown kind
        "53 01 08 08" + " 00" * 15,  # a bitmap byte short
        "53 01 08 08" + " 00" * 17,  # a byte too many
        "53 01 00 08",  # no rows
        "53 01 02 03 40 00",  # a bit set beyond the 2x3 matrix
        "48 01 01 00 01 00 08 08 03",  # a HELLO a byte short
        "48 01 01 00 01 00 00 08 03 e8",  # a HELLO with no rows
        "48 01 02 00 02 00 08 08 03 e8",  # a version-2 HELLO without its LED count
        "48 01 01 00 01 00 08 08 03 e8 00 00",  # a version-1 HELLO with one
        "48 01 02 00 02 00 08 08 03 e8 01 01",  # 257 LEDs
        "4c 01 00 00 00 01 00 00",  # a LIGHTS frame: no frame from the Pico
    ],
)
def test_a_packet_with_a_good_crc_but_a_bad_layout_is_rejected(body):
    assert decode_packet(packet_of(bytes.fromhex(body))) is None


def test_a_packet_with_a_bad_crc_is_rejected():
    body = bytes([KIND_SNAPSHOT, 1, 1, 1, 1, 0])
    assert decode_packet(packet_of(body)) == Snapshot(1, 1, 1, b"\x01", b"\x00")
    assert decode_packet(packet_of(body, crc=crc16(body) ^ 1)) is None
    assert decode_packet(packet_of(bytes([KIND_HELLO]), crc=0)) is None


# The streaming decoder


@given(st.lists(frames, max_size=5), st.lists(st.integers(0, 10_000), max_size=20))
def test_frames_are_decoded_however_the_stream_is_chunked(sent, cuts):
    stream = b"".join(frame.to_bytes() for frame in sent)
    decoder = FrameDecoder()
    received = [frame for chunk in split(stream, cuts) for frame in decoder.feed(chunk)]
    assert received == sent
    assert decoder.frames_rejected == 0


@given(st.binary(max_size=2000), st.lists(st.integers(0, 10_000), max_size=30))
def test_any_byte_soup_in_any_chunking_never_raises_and_chunking_changes_nothing(soup, cuts):
    whole = FrameDecoder()
    expected = whole.feed(soup)
    chunked = FrameDecoder()
    assert [frame for chunk in split(soup, cuts) for frame in chunked.feed(chunk)] == expected
    assert chunked.frames_rejected == whole.frames_rejected


@given(st.binary(max_size=500), frames, st.lists(st.integers(0, 10_000), max_size=10))
def test_garbage_before_a_frame_does_not_lose_it(garbage, frame, cuts):
    decoder = FrameDecoder()
    received = [found for chunk in split(garbage + frame.to_bytes(), cuts) for found in decoder.feed(chunk)]
    assert received[-1] == frame


def test_garbage_is_counted_once_per_stretch_and_the_zeros_between_frames_not_at_all():
    frame = Snapshot(3, 1, 1, b"\x01", b"\x00").to_bytes()
    decoder = FrameDecoder()
    assert decoder.feed(frame + frame + b"\x00\x00\x00") == [Snapshot(3, 1, 1, b"\x01", b"\x00")] * 2
    assert decoder.frames_rejected == 0
    assert decoder.feed(b"junk" + frame[:-5] + frame + b"more junk\x00") == [Snapshot(3, 1, 1, b"\x01", b"\x00")]
    assert decoder.frames_rejected == 3  # "junk…", the cut frame, "more junk"


def test_a_flood_without_zeros_is_dropped_in_bounded_memory_and_counted_once():
    decoder = FrameDecoder()
    chunk = b"\x01" * 65536
    decoder.feed(chunk)  # the first call allocates what any call does
    tracemalloc.start()
    try:
        for _ in range(160):  # 10 MiB
            assert decoder.feed(chunk) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(chunk)
    frame = Hello(9, 1, 0, 8, 8, 1000)
    assert decoder.feed(frame.to_bytes()) == [frame]
    assert decoder.frames_rejected == 1


def test_a_packet_one_byte_longer_than_any_frame_is_dropped():
    decoder = FrameDecoder()
    assert decoder.feed(b"\x00" + b"\x01" * (MAX_PACKET_SIZE + 1) + b"\x00") == []
    assert decoder.frames_rejected == 1


# The host's frames: LIGHTS, escaped


@given(st.binary(max_size=600))
def test_escaping_leaves_no_ctrl_c_and_is_undone(data):
    escaped = escape(data)
    assert 3 not in escaped and (0 in escaped) == (0 in data)
    assert unescape(escaped) == data


@pytest.mark.parametrize("data", ["03", "7d", "7d 00", "7d 7d", "01 7d"])
def test_unescape_refuses_what_escape_never_makes(data):
    assert unescape(bytes.fromhex(data)) is None


@given(lights_frames())
def test_every_lights_frame_decodes_to_itself_with_no_ctrl_c_on_the_wire(frame):
    wire = frame.to_bytes()
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1] and 3 not in wire
    assert len(wire) - 2 <= MAX_LIGHTS_PACKET_SIZE
    assert HostFrameDecoder().feed(wire) == [frame]
    assert FrameDecoder().feed(wire) == []  # the host never takes its own frames
    assert repr(frame).startswith("Lights(seq=")


@given(lights_frames(max_leds=40), st.data())
def test_any_single_bit_flip_in_a_lights_frame_is_caught(frame, data):
    body = cobs_decode(unescape(frame.to_bytes()[1:-1]) or b"")
    assert body is not None
    bit = data.draw(st.integers(0, len(body) * 8 - 1))
    damaged = bytearray(body)
    damaged[bit // 8] ^= 1 << (bit % 8)
    assert decode_host_packet(escape(cobs_encode(bytes(damaged)))) is None


@given(st.lists(lights_frames(max_leds=30), max_size=4), st.lists(st.integers(0, 10_000), max_size=20))
def test_lights_frames_are_decoded_however_the_stream_is_chunked(sent, cuts):
    stream = b"".join(frame.to_bytes() for frame in sent)
    decoder = HostFrameDecoder()
    assert [frame for chunk in split(stream, cuts) for frame in decoder.feed(chunk)] == sent
    assert decoder.frames_rejected == 0


@given(st.binary(max_size=2000), st.lists(st.integers(0, 10_000), max_size=30))
def test_any_byte_soup_to_the_pico_never_raises_and_chunking_changes_nothing(soup, cuts):
    whole = HostFrameDecoder()
    expected = whole.feed(soup)
    chunked = HostFrameDecoder()
    assert [frame for chunk in split(soup, cuts) for frame in chunked.feed(chunk)] == expected
    assert chunked.frames_rejected == whole.frames_rejected


@given(st.binary(max_size=500), lights_frames(max_leds=100), st.lists(st.integers(0, 10_000), max_size=10))
def test_garbage_before_a_lights_frame_does_not_lose_it(garbage, frame, cuts):
    decoder = HostFrameDecoder()
    received = [found for chunk in split(garbage + frame.to_bytes(), cuts) for found in decoder.feed(chunk)]
    assert received[-1] == frame


@given(frames)
def test_the_picos_frames_are_no_frames_to_the_pico(frame):
    assert HostFrameDecoder().feed(frame.to_bytes()) == []


def test_a_packet_one_byte_longer_than_any_lights_frame_is_dropped():
    decoder = HostFrameDecoder()
    assert decoder.feed(b"\x00" + b"\x01" * (MAX_LIGHTS_PACKET_SIZE + 1) + b"\x00") == []
    assert decoder.frames_rejected == 1
    biggest = Lights(0, 999, bytes([0x7D, 3, 0x7D]) * MAX_COLOURS, bytes([0x3F]) * MAX_LIGHTS)
    assert decoder.feed(biggest.to_bytes()) == [biggest]


@pytest.mark.parametrize(
    "payload",
    [
        "03 e8 00 01 00 00",  # a phase of 1000 ms
        "00 00 00 00 00",  # no LED
        "00 00 01 01 00" + " 00" * 257,  # 257 LEDs
        "00 00 00 02 00 00",  # a byte short
        "00 00 00 01 00 00 00",  # a byte too many
        "00 00 00 01 11" + " 00" * 51 + " 00",  # 17 colours
        "00 00 00 01 01 ff ff ff 11",  # colour 1 of one
        "00 00 00 01 01 ff ff ff 40",  # a bit beyond the blinking
    ],
)
def test_a_lights_packet_with_a_good_crc_but_a_bad_layout_is_rejected(payload):
    body = bytes([KIND_LIGHTS, 1]) + bytes.fromhex(payload)
    assert decode_host_packet(escape(packet_of(body))) is None


# The same code on MicroPython

MICROPYTHON = shutil.which("micropython") or shutil.which("micropython", path=str(Path(sys.executable).parent))

FIRMWARE_RUN = """
import main
from hardware.scanner_protocol import FrameDecoder, crc16

closed = [(1, 2)]
state = {"row": None, "now": 0}

def drive_row(row, is_selected):
    state["row"] = row if is_selected else None

def read_columns():
    levels = 0xFF
    for row, col in closed:
        if row == state["row"]:
            levels &= ~(1 << col)
    return levels

def ticks_us():
    return state["now"]

sent = []
scanner = main.Scanner(drive_row, read_columns, sent.append, ticks_us)
for scan in range(2500):
    if scan == 10:
        closed.append((7, 7))
    if scan == 20:
        closed.append((0, 0))
    if scan == 21:
        closed.remove((0, 0))
    scanner.step()
    state["now"] += 1000
wire = b"".join(sent)
print(crc16(b"123456789"), len(sent), wire[:100])
decoder = FrameDecoder()
for frame in decoder.feed(b"garbage" + wire + b"\\x00\\x05\\x01"):
    print(frame)
print(decoder.frames_rejected)
"""


# A 10x10 matrix with 100 LEDs: the host's LIGHTS arrive in pieces with garbage between,
# the firmware blinks them from the frame's phase and goes dark when the host is quiet.
LIGHTS_RUN = """
import main
from hardware.scanner_protocol import FrameDecoder, Lights

closed = [(9, 9), (8, 0)]
state = {"row": None, "now": 0}

def drive_row(row, is_selected):
    state["row"] = row if is_selected else None

def read_columns():
    levels = 0x3FF
    for row, col in closed:
        if row == state["row"]:
            levels &= ~(1 << col)
    return levels

palette = bytes([40, 40, 40, 0, 40, 0, 40, 20, 0])
leds = bytearray(100)
leds[0] = 0x10  # white, steady
leds[55] = 0x21  # green, slow
leds[99] = 0x32  # amber, fast
wire = b"junk" + Lights(0, 900, palette, bytes(leds)).to_bytes() + b"\\x03\\x7d"
inbox = [wire[i:i + 7] for i in range(0, len(wire), 7)]

def read_host():
    return inbox.pop(0) if inbox else b""

written = []

def write(words):
    written.append((state["now"] // 1000, words[0], words[55], words[99]))
    return True

sent = []
lights = main.PixelLights(100, write)
scanner = main.Scanner(drive_row, read_columns, sent.append, lambda: state["now"], rows=10, cols=10,
                       read_host=read_host, lights=lights)
for scan in range(3500):
    scanner.step()
    state["now"] += 1000
for line in written:
    print(line)
print(lights.frames_taken, lights.frames_misfit, scanner.host_frames_rejected)
frames = FrameDecoder().feed(b"".join(sent))
print(frames[0], frames[1])
"""


def run_like_the_pico(tmp_path, script):
    """What ``script`` prints under MicroPython's Unix port and under CPython, with the
    firmware laid out as on the Pico (see hardware/pico/README.md): main.py beside hardware/."""
    (tmp_path / "hardware").mkdir(exist_ok=True)
    shutil.copy(ROOT / "hardware" / "scanner_protocol.py", tmp_path / "hardware")
    shutil.copy(ROOT / "hardware" / "pico" / "main.py", tmp_path)
    (tmp_path / "run.py").write_text(script)
    outputs = [
        subprocess.run([interpreter, "run.py"], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60)
        for interpreter in (str(MICROPYTHON), sys.executable)
    ]
    return tuple(done.stdout for done in outputs)


on_x86_64 = pytest.mark.skipif(
    platform.machine() != "x86_64", reason="MicroPython's Unix port is installed from a wheel built for x86_64 only"
)


@on_x86_64
def test_the_firmware_and_the_protocol_run_alike_on_micropython_and_cpython(tmp_path):
    on_micropython, on_cpython = run_like_the_pico(tmp_path, FIRMWARE_RUN)
    assert on_micropython == on_cpython
    assert "is_boot=True" in on_cpython and "latch=b'\\x01\\x00" in on_cpython


@on_x86_64
def test_the_firmwares_lights_run_alike_on_micropython_and_cpython(tmp_path):
    on_micropython, on_cpython = run_like_the_pico(tmp_path, LIGHTS_RUN)
    assert on_micropython == on_cpython
    lines = on_cpython.splitlines()
    white, green, amber = 0x28282800, 0x28000000, 0x14280000  # green, red, blue in the top bytes
    # At boot the chain is written dark. The frame is whole after its last piece, when the
    # host's clock stood at 0.9 s: the slow light lights 0.1 s later, with the fast one,
    # which then blinks every 125 ms.
    pictures = [eval(line) for line in lines if line.startswith("(")]
    assert pictures[0] == (0, 0, 0, 0)
    taken = pictures[1][0]
    times = [picture[0] - taken for picture in pictures[1:]]
    assert [picture[1:] for picture in pictures[1:6]] == [(white, 0, 0), (white, green, amber), (white, green, 0),
                                                          (white, green, amber), (white, green, 0)]  # fmt: skip
    assert times[:5] == [0, 100, 225, 350, 475]
    assert pictures[6][1:] == (white, 0, amber) and times[5] == 600  # the slow one dark at 1.5 s
    # No LIGHTS after the one: 3 s after it, every LED is dark, and stays so.
    assert pictures[-1][1:] == (0, 0, 0) and times[-1] == 3000
    assert lines[-2] == "1 0 1"  # one frame taken; the junk before it refused (what follows waits for a zero)
    assert "lights=100" in lines[-1] and "rows=10, cols=10" in lines[-1] and "closed=b'" in lines[-1]
