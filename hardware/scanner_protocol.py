"""The serial scanner protocol: the frames a Pico and the daemon send each other, as pure code.

This one file runs unchanged on the Pico under MicroPython and on the Pi under CPython,
so the firmware and the daemon cannot disagree on a byte. That is why it uses no
dataclasses, no ``typing``, no ``from __future__`` and no enums: annotations are read by
mypy only (MicroPython ignores them, and CPython 3.11 can evaluate every one used here).

On the wire a frame is ``00 | COBS(kind, seq, payload, CRC-16) | 00``. COBS removes every
zero byte from what it encodes, so a zero always means "a frame ends (or starts) here":
a reader that starts mid-stream or meets garbage loses at most the bytes up to the next
zero, and the zero sent before every frame ends any garbage, so the frame after it
survives. The CRC (CRC-16/CCITT-FALSE) rejects whatever else was damaged. Every
SNAPSHOT holds the whole matrix, so a lost frame never leaves a wrong picture. The byte
layouts and timing are in docs/scanner-protocol.md.

Version 2 adds the one frame the daemon sends the other way: LIGHTS, every cell LED's
colour and blinking, whole, for a Pico that drives a chain of WS2812 LEDs. It is sent
escaped (``escape``): a Ctrl-C byte (0x03) reaching MicroPython's USB serial interrupts
the firmware, so no such byte is ever sent to it.

>>> wire = Snapshot(7, 2, 2, b"\\x09", b"\\x00").to_bytes()
>>> wire.hex(" ")
'00 06 53 07 02 02 09 03 ee 20 00'
>>> decoder = FrameDecoder()
>>> decoder.feed(b"noise" + wire)
[Snapshot(seq=7, rows=2, cols=2, closed=b'\\t', latch=b'\\x00')]
>>> decoder.frames_rejected
1
"""

# mypy reads this block, and neither interpreter runs it: MicroPython has no typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    FrameT = TypeVar("FrameT")

PROTOCOL_VERSION = 2
"""The version a HELLO announces; a change of any layout below changes it. Version 1
(firmware 1.x) has no LIGHTS and a HELLO two bytes shorter; both are read."""

KIND_HELLO = 0x48  # "H": ASCII letters make frames easy to spot in a hex dump
KIND_SNAPSHOT = 0x53  # "S"
KIND_LIGHTS = 0x4C  # "L": the host's, to the Pico

MAX_LIGHTS = 256
"""The most LEDs a chain may have (a 16x16 nest's)."""

MAX_COLOURS = 16
"""The most colours one LIGHTS frame may use (an LED names its colour in four bits)."""

BLINK_OFF = 0
BLINK_ON = 1
BLINK_SLOW = 2  # 1 Hz: lit for the first half of each second of the host's blink clock
BLINK_FAST = 3  # 4 Hz: lit for the first half of each quarter second
BLINK_PERIODS_MS = (0, 0, 1000, 250)
"""Each blinking's period (none for off and on); an LED is lit in its first half."""

LIGHTS_REPEAT_MS = 1000
"""The host sends its LIGHTS again at least this often, changed or not: it keeps the
blinking of both ends in step and makes good a lost frame or a Pico that restarted."""

LIGHTS_TIMEOUT_MS = 3000
"""A Pico that hears no LIGHTS for this long turns every LED off: a daemon that stopped
must not leave the nest telling the players what to do."""

ESCAPE = 0x7D
"""In a frame to the Pico, 0x03 is sent as ``7d 23`` and 0x7D as ``7d 5d`` (XOR 0x20, as
HDLC does). No LED byte is either (their top two bits are 0, and an LED that is off is 0),
so only the palette, a count or the CRC ever needs an escape."""
_ESCAPED = (0x03, ESCAPE)

MAX_SIDE = 16
"""The most rows, and the most columns, a matrix may have (bitmaps stay small)."""

SNAPSHOT_MIN_INTERVAL_MS = 4
"""A change is sent at once, but frames are at least this far apart (the latch keeps
what happens in between); that bounds the traffic to 250 frames/s, 6 kB/s."""

SNAPSHOT_MAX_INTERVAL_MS = 100
"""A SNAPSHOT goes out at least this often, changed or not: it is the heartbeat."""

HELLO_INTERVAL_MS = 2000
"""A HELLO goes out at boot and then this often, for hosts that connect later."""

_HEADER_SIZE = 2  # kind, sequence number
_CRC_SIZE = 2
_HELLO_PAYLOAD_SIZE_V1 = 8
_HELLO_PAYLOAD_SIZE = 10  # version 2: the LEDs driven, two bytes more
_HELLO_FLAG_BOOT = 0x01
_LIGHTS_HEADER_SIZE = 5  # blink phase (2), LEDs (2), colours (1)

MAX_PACKET_SIZE = 1 + _HEADER_SIZE + 2 + 2 * (MAX_SIDE * MAX_SIDE // 8) + _CRC_SIZE
"""The longest valid frame between its zeros, COBS included; a decoder keeps no more."""

MIN_PACKET_SIZE = 1 + _HEADER_SIZE + 1 + _CRC_SIZE
"""The shortest valid frame between its zeros (a SNAPSHOT of a 1x1 matrix has 4 payload
bytes, a HELLO 8): anything shorter is rejected without decoding it."""

MAX_LIGHTS_PACKET_SIZE = 2 * (2 + _HEADER_SIZE + _LIGHTS_HEADER_SIZE + 3 * MAX_COLOURS + MAX_LIGHTS + _CRC_SIZE)
"""The longest valid LIGHTS frame between its zeros, COBS and escapes included (each
byte escaped at worst): the Pico's decoder keeps no more."""

MIN_LIGHTS_PACKET_SIZE = 1 + _HEADER_SIZE + _LIGHTS_HEADER_SIZE + 1 + _CRC_SIZE
"""The shortest valid LIGHTS frame between its zeros (one LED, no colour: off)."""


def _make_crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return tuple(table)


# A table makes the CRC about eight times faster on the Pico, where every frame needs one.
_CRC_TABLE = _make_crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF, not reflected) of ``data``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """``data`` with its zero bytes removed by Consistent Overhead Byte Stuffing.

    Each block is a code byte and up to 254 bytes: code n means n - 1 bytes, then a zero
    that was removed, except that 0xFF means 254 bytes with no zero after them, and the
    last block's zero is not there.

    >>> cobs_encode(b"\\x11\\x22\\x00\\x33").hex(" ")
    '03 11 22 02 33'
    """
    out = bytearray()
    block = bytearray()
    ends_with_full_block = False
    for byte in data:
        ends_with_full_block = False
        if byte:
            block.append(byte)
            if len(block) < 254:
                continue
            out.append(0xFF)
            ends_with_full_block = True
        else:
            out.append(len(block) + 1)
        out.extend(block)
        block = bytearray()
    if not ends_with_full_block:
        out.append(len(block) + 1)
        out.extend(block)
    return bytes(out)


def cobs_decode(packet: bytes) -> bytes | None:
    """The bytes ``packet`` encodes, or None if it is not valid COBS."""
    out = bytearray()
    at = 0
    while at < len(packet):
        code = packet[at]
        end = at + code
        if code == 0 or end > len(packet):
            return None
        out.extend(packet[at + 1 : end])
        at = end
        if code != 0xFF and at < len(packet):
            out.append(0)
    return bytes(out)


def escape(data: bytes) -> bytes:
    """``data`` with no 0x03 byte in it: 0x03 and ``ESCAPE`` are each sent as ``ESCAPE``
    and the byte XOR 0x20 (neither is 0x00 or 0x03, so COBS's zeros and the missing
    Ctrl-C both stay true).

    >>> escape(b"\x01\x03\x7d\x04").hex(" ")
    '01 7d 23 7d 5d 04'
    """
    if ESCAPE not in data and 0x03 not in data:
        return data
    out = bytearray()
    for byte in data:
        if byte in _ESCAPED:
            out.append(ESCAPE)
            out.append(byte ^ 0x20)
        else:
            out.append(byte)
    return bytes(out)


def unescape(data: bytes) -> bytes | None:
    """What :func:`escape` made ``data`` of, or None if no escape could have made it."""
    if ESCAPE not in data:
        return None if 0x03 in data else data
    out = bytearray()
    is_escaped = False
    for byte in data:
        if is_escaped:
            byte ^= 0x20
            if byte not in _ESCAPED:
                return None
            out.append(byte)
            is_escaped = False
        elif byte == ESCAPE:
            is_escaped = True
        elif byte == 0x03:
            return None
        else:
            out.append(byte)
    return None if is_escaped else bytes(out)


def bitmap_size(rows: int, cols: int) -> int:
    """Bytes in a bitmap of a ``rows`` x ``cols`` matrix.

    Switch (row, col) is bit ``row * cols + col``: byte ``bit // 8``, bit ``bit % 8``
    from the least significant. In an 8x8 matrix, byte r is row r and bit c column c.
    """
    return (rows * cols + 7) // 8


def is_bit_set(bitmap: bytes, bit: int) -> bool:
    """Whether bit ``bit`` of ``bitmap`` is set (see ``bitmap_size`` for the order)."""
    return bool(bitmap[bit >> 3] & (1 << (bit & 7)))


def _check(is_valid: bool, what: str) -> None:
    if not is_valid:
        raise ValueError("bad " + what)


def _to_wire(kind: int, seq: int, payload: bytes) -> bytes:
    _check(0 <= seq <= 0xFF, "sequence number")
    body = bytes([kind, seq]) + payload
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


def _repr(class_name: str, names: str, values: tuple[object, ...]) -> str:
    """``Name(a=1, b=2)``, built without f-strings: MicroPython's have no ``!r``."""
    fields = []
    for i, name in enumerate(names.split()):
        fields.append(name + "=" + repr(values[i]))
    return class_name + "(" + ", ".join(fields) + ")"


class Hello:
    """Who is sending and what it scans; sent at boot and every ``HELLO_INTERVAL_MS``.

    ``is_boot`` marks the first HELLO after the firmware started: its sequence number
    starts again at 0, so the host does not count the jump as lost frames. ``lights``
    is how many LEDs the firmware drives (0: none); a version-1 HELLO has no such field
    and is sent and read as 0.
    """

    def __init__(
        self,
        seq: int,
        firmware_major: int,
        firmware_minor: int,
        rows: int,
        cols: int,
        scan_hz: int,
        is_boot: bool = False,
        protocol_version: int = PROTOCOL_VERSION,
        lights: int = 0,
    ) -> None:
        self.seq = seq
        self.firmware_major = firmware_major
        self.firmware_minor = firmware_minor
        self.rows = rows
        self.cols = cols
        self.scan_hz = scan_hz
        self.is_boot = is_boot
        self.protocol_version = protocol_version
        self.lights = lights

    @property
    def firmware_version(self) -> str:
        """The firmware's version as text: ``"1.0"``."""
        return str(self.firmware_major) + "." + str(self.firmware_minor)

    def to_bytes(self) -> bytes:
        """The frame as sent, delimiting zeros included.

        Raises ValueError if a field does not fit its byte(s).
        """
        for value in (self.protocol_version, self.firmware_major, self.firmware_minor):
            _check(0 <= value <= 0xFF, "version")
        _check(1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE, "matrix size")
        _check(0 <= self.scan_hz <= 0xFFFF, "scan rate")
        _check(0 <= self.lights <= MAX_LIGHTS and (self.protocol_version >= 2 or not self.lights), "lights")
        flags = _HELLO_FLAG_BOOT if self.is_boot else 0
        payload = bytes(
            [
                self.protocol_version,
                flags,
                self.firmware_major,
                self.firmware_minor,
                self.rows,
                self.cols,
                self.scan_hz >> 8,
                self.scan_hz & 0xFF,
            ]
        )
        if self.protocol_version >= 2:
            payload += bytes([self.lights >> 8, self.lights & 0xFF])
        return _to_wire(KIND_HELLO, self.seq, payload)

    def _fields(self) -> tuple[int, int, int, int, int, int, bool, int, int]:
        return (
            self.seq,
            self.firmware_major,
            self.firmware_minor,
            self.rows,
            self.cols,
            self.scan_hz,
            self.is_boot,
            self.protocol_version,
            self.lights,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hello) and self._fields() == other._fields()

    def __repr__(self) -> str:
        names = "seq firmware rows cols scan_hz is_boot protocol_version lights"
        firmware = self.firmware_version
        values = (
            self.seq,
            firmware,
            self.rows,
            self.cols,
            self.scan_hz,
            self.is_boot,
            self.protocol_version,
            self.lights,
        )
        return _repr("Hello", names, values)


class Snapshot:
    """The whole matrix: every closed switch, and every switch that read otherwise.

    ``closed`` and ``latch`` are bitmaps (see ``bitmap_size``). A latch bit is set if
    the switch read differently from the previous frame's ``closed`` at any scan since
    that frame, so a flicker of one scan (1 ms) still reaches the host.
    """

    def __init__(self, seq: int, rows: int, cols: int, closed: bytes, latch: bytes) -> None:
        self.seq = seq
        self.rows = rows
        self.cols = cols
        self.closed = closed
        self.latch = latch

    def to_bytes(self) -> bytes:
        """The frame as sent, delimiting zeros included.

        Raises ValueError if the size or a bitmap's length is wrong, or a bitmap has
        bits set beyond the matrix.
        """
        _check(1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE, "matrix size")
        _check(_is_bitmap(self.closed, self.rows, self.cols), "closed bitmap")
        _check(_is_bitmap(self.latch, self.rows, self.cols), "latch bitmap")
        return _to_wire(KIND_SNAPSHOT, self.seq, bytes([self.rows, self.cols]) + self.closed + self.latch)

    def _fields(self) -> tuple[int, int, int, bytes, bytes]:
        return (self.seq, self.rows, self.cols, self.closed, self.latch)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snapshot) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return _repr("Snapshot", "seq rows cols closed latch", self._fields())


class Lights:
    """Every cell LED of the chain, as the host wants it shown; sent by the host (never
    by the Pico) when that changes and every ``LIGHTS_REPEAT_MS``.

    ``palette`` is up to ``MAX_COLOURS`` colours, three bytes each (red, green, blue,
    0-255, brightness already applied), and ``leds`` one byte per LED of the chain, in
    chain order: bits 0-3 the palette index of its colour, bits 4-5 its blinking
    (``BLINK_*``); an LED that is off is 0. ``phase_ms`` is where the host's blink clock
    stood in its second when it sent the frame (0-999): the Pico blinks from it, so that
    its LEDs blink with the host's own lights.
    """

    def __init__(self, seq: int, phase_ms: int, palette: bytes, leds: bytes) -> None:
        self.seq = seq
        self.phase_ms = phase_ms
        self.palette = palette
        self.leds = leds

    @property
    def count(self) -> int:
        """LEDs in the chain."""
        return len(self.leds)

    def led(self, index: int) -> "tuple[int, tuple[int, int, int]]":
        """LED ``index``'s blinking and colour (an LED that is off: off and black)."""
        code = self.leds[index]
        if not code:
            return BLINK_OFF, (0, 0, 0)
        at = 3 * (code & 0x0F)
        return code >> 4, (self.palette[at], self.palette[at + 1], self.palette[at + 2])

    def to_bytes(self) -> bytes:
        """The frame as sent, escaped, delimiting zeros included.

        Raises ValueError if a field does not fit: the phase, the count, the palette,
        an LED naming a colour the palette lacks or with bits it may not have.
        """
        _check(0 <= self.phase_ms < 1000, "blink phase")
        _check(1 <= len(self.leds) <= MAX_LIGHTS, "LED count")
        _check(len(self.palette) % 3 == 0 and len(self.palette) <= 3 * MAX_COLOURS, "palette")
        _check(_are_leds(self.leds, len(self.palette) // 3), "LEDs")
        count = len(self.leds)
        header = bytes([self.phase_ms >> 8, self.phase_ms & 0xFF, count >> 8, count & 0xFF, len(self.palette) // 3])
        wire = _to_wire(KIND_LIGHTS, self.seq, header + self.palette + self.leds)
        return b"\x00" + escape(wire[1:-1]) + b"\x00"

    def _fields(self) -> tuple[int, int, bytes, bytes]:
        return (self.seq, self.phase_ms, self.palette, self.leds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lights) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return _repr("Lights", "seq phase_ms palette leds", self._fields())


def _are_leds(leds: bytes, colours: int) -> bool:
    """Whether every LED byte is 0 (off) or a blinking that is not off with a colour of
    the palette, and nothing else."""
    for code in leds:  # noqa: SIM110  # (a loop MicroPython runs as fast)
        if code and (code >> 6 or not code >> 4 or (code & 0x0F) >= colours):
            return False
    return True


def _is_bitmap(bitmap: bytes, rows: int, cols: int) -> bool:
    """Whether ``bitmap`` has the right length, with no bit set past the matrix."""
    if len(bitmap) != bitmap_size(rows, cols):
        return False
    spare_bits = len(bitmap) * 8 - rows * cols
    return not spare_bits or not bitmap[-1] >> (8 - spare_bits)


def _hello_from_payload(seq: int, payload: bytes) -> Hello | None:
    if len(payload) < _HELLO_PAYLOAD_SIZE_V1:
        return None
    version, flags, major, minor, rows, cols, rate_high, rate_low = payload[:_HELLO_PAYLOAD_SIZE_V1]
    lights = 0
    if len(payload) != (_HELLO_PAYLOAD_SIZE_V1 if version < 2 else _HELLO_PAYLOAD_SIZE):
        return None
    if version >= 2:
        lights = (payload[8] << 8) | payload[9]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE) or lights > MAX_LIGHTS:
        return None
    is_boot = bool(flags & _HELLO_FLAG_BOOT)
    return Hello(seq, major, minor, rows, cols, (rate_high << 8) | rate_low, is_boot, version, lights)


def _snapshot_from_payload(seq: int, payload: bytes) -> Snapshot | None:
    if len(payload) < 2:
        return None
    rows = payload[0]
    cols = payload[1]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        return None
    size = bitmap_size(rows, cols)
    if len(payload) != 2 + 2 * size:
        return None
    closed = bytes(payload[2 : 2 + size])
    latch = bytes(payload[2 + size :])
    if not (_is_bitmap(closed, rows, cols) and _is_bitmap(latch, rows, cols)):
        return None
    return Snapshot(seq, rows, cols, closed, latch)


def _lights_from_payload(seq: int, payload: bytes) -> Lights | None:
    if len(payload) < _LIGHTS_HEADER_SIZE:
        return None
    phase_ms = (payload[0] << 8) | payload[1]
    count = (payload[2] << 8) | payload[3]
    colours = payload[4]
    palette_end = _LIGHTS_HEADER_SIZE + 3 * colours
    if phase_ms >= 1000 or not 1 <= count <= MAX_LIGHTS or colours > MAX_COLOURS:
        return None
    if len(payload) != palette_end + count:
        return None
    leds = bytes(payload[palette_end:])
    if not _are_leds(leds, colours):
        return None
    return Lights(seq, phase_ms, bytes(payload[_LIGHTS_HEADER_SIZE:palette_end]), leds)


def _checked_body(packet: bytes) -> bytes | None:
    """The kind, seq and payload COBS-encoded in ``packet``, if its CRC holds."""
    body = cobs_decode(packet)
    if body is None or len(body) < _HEADER_SIZE + _CRC_SIZE:
        return None
    if crc16(body[:-_CRC_SIZE]) != (body[-2] << 8) | body[-1]:
        return None
    return body[:-_CRC_SIZE]


def decode_packet(packet: bytes) -> Hello | Snapshot | None:
    """The frame from the Pico in ``packet`` (the bytes between two zeros), or None if it
    is invalid.

    Invalid means: not COBS, too short, a CRC mismatch, an unknown kind, or a payload
    whose length or values do not fit its kind. Never raises.
    """
    body = _checked_body(packet)
    if body is None:
        return None
    kind = body[0]
    seq = body[1]
    payload = body[_HEADER_SIZE:]
    if kind == KIND_HELLO:
        return _hello_from_payload(seq, payload)
    if kind == KIND_SNAPSHOT:
        return _snapshot_from_payload(seq, payload)
    return None


def decode_host_packet(packet: bytes) -> Lights | None:
    """The frame from the host in ``packet`` (escaped, between two zeros), or None if it
    is invalid (as for :func:`decode_packet`, or a bad escape). Never raises."""
    unescaped = unescape(packet)
    body = None if unescaped is None else _checked_body(unescaped)
    if body is None or body[0] != KIND_LIGHTS:
        return None
    return _lights_from_payload(body[1], body[_HEADER_SIZE:])


class _Packets:
    """Cuts a byte stream, in chunks of any size, into the packets between its zeros.

    It keeps at most ``max_size`` bytes: a packet that grows longer (a flood with no zero
    in it) is dropped up to the next zero, as is one shorter than ``min_size``; both are
    counted in ``frames_rejected``, as is every packet its decoder refuses.
    """

    def __init__(self, min_size: int, max_size: int) -> None:
        self._packet = bytearray()
        self._is_overlong = False
        self._min_size = min_size
        self._max_size = max_size
        self.frames_rejected = 0

    def packets(self, data: bytes) -> "list[bytes]":
        """The packets completed by ``data``, oldest first (none too long or short).

        The time it takes grows with the packets in ``data``, not its zeros: a run of
        zeros ends a packet once (the zeros after the first end empty packets, which
        are nothing), so it is made one zero first, at the speed of ``bytes.replace``.
        """
        data = bytes(data)
        while b"\x00\x00" in data:  # each pass halves every run of zeros
            data = data.replace(b"\x00\x00", b"\x00")
        packets = []
        pieces = data.split(b"\x00")
        self._keep(pieces[0])
        for piece in pieces[1:]:  # a zero before each: the packet so far ends
            packet = self._end_packet()
            if packet is not None:
                packets.append(packet)
            self._keep(piece)
        return packets

    def reset(self) -> None:
        """Forget a partly received packet (the stream was interrupted)."""
        self._packet = bytearray()
        self._is_overlong = False

    def _decoded(self, data: bytes, decode: "Callable[[bytes], FrameT | None]") -> "list[FrameT]":
        """The frames ``decode`` makes of the packets ``data`` completes; a packet it
        refuses is counted in ``frames_rejected``."""
        frames = []
        for packet in self.packets(data):
            frame = decode(packet)
            if frame is None:
                self.frames_rejected += 1
            else:
                frames.append(frame)
        return frames

    def _keep(self, chunk: bytes) -> None:
        if self._is_overlong or not chunk:
            return
        if len(self._packet) + len(chunk) > self._max_size:
            self._packet = bytearray()
            self._is_overlong = True
        else:
            self._packet.extend(chunk)

    def _end_packet(self) -> "bytes | None":
        packet = bytes(self._packet)
        was_overlong = self._is_overlong
        self.reset()
        if not packet and not was_overlong:
            return None  # the zeros around a frame: "00 frame 00 00 frame 00"
        if was_overlong or len(packet) < self._min_size:
            self.frames_rejected += 1
            return None
        return packet


class FrameDecoder(_Packets):
    """Turns the Pico's byte stream, in chunks of any size, into frames (the host's decoder).

    It never raises and keeps at most ``MAX_PACKET_SIZE`` bytes: a packet that grows
    longer (a flood with no zero in it) is dropped up to the next zero.
    ``frames_rejected`` counts the packets that were not valid frames.
    """

    def __init__(self) -> None:
        super().__init__(MIN_PACKET_SIZE, MAX_PACKET_SIZE)

    def feed(self, data: bytes) -> "list[Hello | Snapshot]":
        """The frames completed by ``data``, oldest first."""
        return self._decoded(data, decode_packet)


class HostFrameDecoder(_Packets):
    """Turns the host's byte stream into its LIGHTS frames (the Pico's decoder), as
    ``FrameDecoder`` does the Pico's; it keeps at most ``MAX_LIGHTS_PACKET_SIZE`` bytes."""

    def __init__(self) -> None:
        super().__init__(MIN_LIGHTS_PACKET_SIZE, MAX_LIGHTS_PACKET_SIZE)

    def feed(self, data: bytes) -> "list[Lights]":
        """The frames completed by ``data``, oldest first."""
        return self._decoded(data, decode_host_packet)
