"""The daemon's configuration: a TOML file over the shipped defaults, checked whole.

:func:`load_config` reads the user's file, lays it over ``default_config.toml`` (every
key may be left out) and checks everything — unknown keys, values, every GPIO pin used
once, the switch matrix placing every cell — before any hardware is touched. Errors
name the file and the key, in one line (:class:`ConfigError`).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from firmware_host.clocks import ClockError, TimeControl
from firmware_host.errors import ConfigError, NestrefError
from firmware_host.games import game_names, load_game
from firmware_host.games.base import Board, Game, Side
from firmware_host.logs import LEVELS as LOG_LEVELS
from firmware_host.referee.referee import Settings
from firmware_host.referee.sensing import Timing
from firmware_host.remote.broker import BrokerSettings, LinkError
from firmware_host.remote.messages import NEST_PATTERN
from firmware_host.toml_checks import TomlChecker
from hardware.sensors import Crossing

BUTTONS = ("confirm", "take_back", "switch")
PLAYERS = ("human", "computer")
LIGHTS = ("red_turn", "blue_turn", "error", "capture")
GPIO_PINS = range(28)  # BCM 0-27 on the 40-pin header
ID_PINS = {0: "ID_SD (the HAT EEPROM)", 1: "ID_SC (the HAT EEPROM)"}
I2C_PINS = {2: "display: I2C1 SDA", 3: "display: I2C1 SCL"}
SPI_PINS = {9: "cell lights: SPI0 MISO (claimed by SPI)", 10: "cell lights: SPI0 MOSI", 11: "cell lights: SPI0 SCLK"}
SPI_CE_PINS = {0: 8, 1: 7}  # spi_device: its chip-enable pin
UART_PINS = {14: "sensors: UART TXD (to the Pico's RX)", 15: "sensors: UART RXD (from the Pico's TX)"}
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")  # the header's UART, on GPIO14 and 15
STRIKE_PAD_UART_PINS = {
    14: "strike pad: UART TXD (to the PN532's RX)",
    15: "strike pad: UART RXD (from the PN532's TX)",
}
BUZZERS = ("tonal", "active")  # a passive piezo (pitched tunes), or a buzzer with its own oscillator
LED_MATRIX_SIZE = 8  # a MAX7219 drives an 8x8 matrix
CELL_LIGHT_DRIVERS = ("max7219", "ws2812", "none")  # one colour on SPI; any colour, driven by the Pico; none
PICO_SIDE = 10  # the Pico's firmware has pins for up to 10 rows and 10 columns (hardware/pico/main.py)
MAX_CHAIN = 256  # LEDs in a WS2812 chain (the protocol's MAX_LIGHTS)
MAX_LIVE_NAME_CHARS = 40  # as the live boards' messages allow (remote/live.py)
OPEN_TABLES = ("matrix", "cell_lights.map", "timing")  # keys chosen by the user
_HOST_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")


@dataclass(frozen=True)
class Sensors:
    backend: str  # "gpio" or "serial"
    scan_hz: int
    idle_scan_hz: int  # after ACTIVE_S without a change
    asleep_scan_hz: int  # after ASLEEP_S without one: nobody is playing
    rows: tuple[int, ...]  # gpio: row pins
    columns: tuple[int, ...]  # gpio: column pins
    port: str  # serial
    baudrate: int
    size: tuple[int, int]  # the switch matrix: rows, columns


@dataclass(frozen=True)
class Display:
    driver: str  # "ssd1306", "sh1106" or "none"
    i2c_bus: int
    i2c_address: int
    rotate: int


@dataclass(frozen=True)
class CellLights:
    driver: str  # one of CELL_LIGHT_DRIVERS
    spi_port: int
    spi_device: int
    brightness: int
    map: dict[str, tuple[int, int]]  # max7219: cell: (x, y) on the LED matrix
    chain: dict[str, int] = dataclasses.field(default_factory=dict)  # ws2812: cell: its LED's place in the chain

    @property
    def count(self) -> int:
        """LEDs in a WS2812 chain (0 for another driver)."""
        return max(self.chain.values()) + 1 if self.chain else 0


@dataclass(frozen=True)
class Sound:
    """The piezo: ``enabled`` at all, on BCM ``pin``, which ``buzzer`` (one of
    :data:`BUZZERS`), and whether every accepted move sounds (``move_accepted``)."""

    enabled: bool = False
    pin: int = 18
    buzzer: str = "tonal"
    move_accepted: bool = False


STRIKE_PAD_READERS = ("pn532",)  # a PN532 module in HSU (UART) mode: hardware/strike_pad.py
UID_BYTES = (4, 7, 10)  # an ISO 14443A tag's UID: single, double or triple size
_SIDE_AND_NAME = re.compile(r"(red|blue) [A-Za-z][A-Za-z -]{0,39}")


class StrikePadTags:
    """Which tag is under which piece: a tag's UID (bytes) and the piece ("red Marshal",
    in the game's words). It says which piece has which rank, so it is shown as its size
    only: no log line or message can carry it by mistake."""

    def __init__(self, pieces: dict[bytes, str]) -> None:
        self._pieces = dict(pieces)

    def piece(self, uid: bytes) -> str | None:
        """The piece whose tag has ``uid`` (None: a tag not calibrated)."""
        return self._pieces.get(uid)

    def __len__(self) -> int:
        return len(self._pieces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StrikePadTags) and self._pieces == other._pieces

    def __hash__(self) -> int:
        return hash(frozenset(self._pieces.items()))

    def __repr__(self) -> str:
        return f"StrikePadTags({len(self._pieces)} tags)"


@dataclass(frozen=True)
class StrikePad:
    """The strike pad (docs/daemon.md, "The strike pad"): an NFC ``reader`` on serial
    ``port``, and the ``tags`` read from ``tags_file`` (empty before the calibration)."""

    enabled: bool = False
    reader: str = "pn532"
    port: str = "/dev/serial0"
    tags_file: str = ""
    tags: StrikePadTags = dataclasses.field(default_factory=lambda: StrikePadTags({}))


def read_strike_pad_tags(path: str | Path, game: Game, lineup: str) -> StrikePadTags:
    """The tags file at ``path`` (written by ``nestref calibrate --strike-pad``): a table
    ``[tags]`` of UID (hex) = piece ("red Marshal"). A file not there yet is no tags; a
    bad one raises :class:`ConfigError` naming the file and the key."""
    if not Path(path).exists():
        return StrikePadTags({})
    reader = TomlChecker(str(path), ConfigError)
    data = reader.table(reader.read_file(path, "strike pad's tags file"), "", required=["tags"], optional=["game"])
    tags = reader.table(data["tags"], "tags")
    per_side = dict.fromkeys(("red", "blue"), 0)
    pieces: dict[bytes, str] = {}
    for key, value in tags.items():
        where = f"tags.{key}"
        try:
            uid = bytes.fromhex(key)
        except ValueError:
            uid = b""
        if len(uid) not in UID_BYTES or key != uid.hex():
            raise reader.fail(where, "expected a tag's UID: 8, 14 or 20 hex digits, lower case")
        piece = reader.string(value, where)
        if not _SIDE_AND_NAME.fullmatch(piece):
            raise reader.fail(where, f'expected "red" or "blue" and a piece, such as "red Scout", got {piece[:40]!r}')
        per_side[piece.split()[0]] += 1
        pieces[uid] = piece
    most = len(game.lineup_pieces(lineup)) // 2
    for side, count in per_side.items():
        if count > most:
            raise reader.fail("tags", f"{count} tags for {side}'s pieces, but a side has {most}")
    return StrikePadTags(pieces)


@dataclass(frozen=True)
class Live:
    """Live boards: whether this nest ``publish``-es its game to the broker, and the
    board's ``name`` on the live page ("": the host name, which the publishing nest
    looks up: :func:`~firmware_host.daemon.live_feed.board_name`)."""

    publish: bool = False
    name: str = ""


@dataclass(frozen=True)
class Config:
    """Everything the daemon needs to know, checked."""

    source: str
    game: Game  # on the config's board
    lineup: str
    referee: Settings
    database: str
    sensor_log: str | None
    sensors: Sensors
    matrix: dict[str, Crossing]  # cell or button: its switch's (row, column)
    display: Display
    status_lights: dict[str, int]  # light: BCM pin; lights not fitted are left out
    cell_lights: CellLights
    buttons: dict[str, int | None]  # button: BCM pin, or None for a switch in the matrix
    log_level: str
    computer_level: int  # the computer's level (the game's computer_levels); it plays referee.computers
    web_hosts: tuple[str, ...] = ()  # names the web page may be reached by, besides its addresses and localhost
    spectators_on_network: bool = False  # nestref run --web: the shared page for other machines too
    clock: TimeControl | None = None  # each side's time control; None: no clock
    sound: Sound = Sound()
    broker: BrokerSettings | None = None  # the MQTT broker of remote play and live boards; None: none
    remote_nest: str = ""  # this nest's name in remote play ([remote] nest); "": made of the host's name
    live: Live = Live()
    strike_pad: StrikePad = StrikePad()

    def pins(self) -> dict[int, str]:
        """Every GPIO pin in use, with what uses it (BCM number: use)."""
        return _pin_uses(self)


def default_config_text() -> str:
    """The shipped defaults, with their comments."""
    return resources.files("firmware_host.daemon").joinpath("default_config.toml").read_text(encoding="utf-8")


def load_config(path: str | Path | None, *, game: str | None = None, board: str | Path | None = None) -> Config:
    """The config in the file at ``path`` laid over the defaults (``None``: the defaults
    alone); ``game`` (a command line's ``--game``) replaces its ``game.name``, and
    ``board`` (``--board``: a shipped board's name or a board file's path, relative to
    where the command runs) its ``game.board``. A game whose board is not named for it
    (``--game`` naming another game than the file's, or a file naming no board) is
    played on its own board, with its own defaults where a game has some (its folder's
    ``default_config.toml``: the battle game's larger switch matrix). Raises
    :class:`ConfigError`."""
    defaults = TomlChecker("default_config.toml", ConfigError).load(default_config_text())
    defaults["game"]["lineup"] = None  # left out: the board's first lineup ("standard" on hexhex-5)
    reader = _ConfigReader("default_config.toml" if path is None else str(path))
    user = {} if path is None else reader.read_file(path, "config")
    named = _table_in(user, "game")
    name = game if game is not None else named.get("name", defaults["game"]["name"])
    if game is not None and game != named.get("name", defaults["game"]["name"]):
        named = {}  # the file's board and lineup are another game's
        user = {**user, "game": {key: value for key, value in _table_in(user, "game").items() if key == "lenient"}}
    if isinstance(name, str) and (overlay := game_defaults_text(name)) is not None:
        defaults = reader.merge(defaults, TomlChecker(f"{name}/default_config.toml", ConfigError).load(overlay), "")
    data = reader.merge(defaults, user, "")
    data["game"]["name"] = name
    if "board" not in named:
        data["game"]["board"] = ""  # not named for this game: the game's own board
    if "level" not in _table_in(user, "players") and name in game_names():  # the default, within the game's levels
        data["players"]["level"] = min(data["players"]["level"], len(load_game(name).computer_levels))
    if board is not None:
        given = str(board)
        shipped = load_game(name).assets.board_names() if name in game_names() else ()  # (a wrong name: below)
        data["game"]["board"] = given if given == "" or given in shipped else str(Path(given).absolute())
    return reader.read(data)


def game_defaults_text(name: str) -> str | None:
    """The defaults a game has of its own over the shipped ones, if it has any (its
    folder's ``default_config.toml``: :class:`~firmware_host.games.assets.GameAssets`)."""
    return load_game(name).assets.default_config() if name in game_names() else None


def _table_in(data: dict[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` if it is a table (the reader names any other value as wrong)."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def serpentine(board: Board) -> dict[str, int]:
    """A WS2812 chain laid row by row from the bottom, each row the other way from the one
    before (the shortest wires between neighbours); a cell the board lacks (a lake) is
    skipped, its wire running on to the next LED.

    >>> chain = serpentine(load_game("battle").board)
    >>> [chain[cell] for cell in ("a1", "j1", "j2", "a2", "a3", "b5", "e5", "j10", "a10")]
    [0, 9, 10, 19, 20, 41, 42, 82, 91]
    """
    rows: dict[float, list[str]] = {}
    for cell in board.cells:
        rows.setdefault(round(board.centre(cell)[1], 6), []).append(cell)
    chain: dict[str, int] = {}
    first_row_up = board.centre(board.cells[0])[1] > board.centre(board.cells[-1])[1]  # the chain starts at a1's row
    for turn, y in enumerate(sorted(rows, reverse=first_row_up)):
        row = sorted(rows[y], key=lambda cell: board.centre(cell)[0], reverse=bool(turn % 2))
        for cell in row:
            chain[cell] = len(chain)
    return chain


def default_matrix(board: Board, buttons: list[str], size: tuple[int, int]) -> dict[str, Crossing]:
    """Cells in reading order fill the matrix row by row; buttons take the last places."""
    rows, columns = size
    places = [(row, column) for row in range(rows) for column in range(columns)]
    matrix = dict(zip(board.cells, places, strict=False))
    for button, place in zip(buttons, reversed(places), strict=False):
        matrix[button] = place
    return matrix


class _ConfigReader(TomlChecker):
    def __init__(self, source: str) -> None:
        super().__init__(source, ConfigError)

    def merge(self, defaults: dict[str, Any], user: dict[str, Any], where: str) -> dict[str, Any]:
        """``user`` over ``defaults``; a key the defaults do not have is an error, but in
        the tables whose keys the user chooses."""
        merged = copy.deepcopy(defaults)
        for key, value in user.items():
            path = f"{where}.{key}" if where else key
            if path in OPEN_TABLES:
                merged[key] = self.table(value, path)
            elif key not in defaults:
                known = ", ".join(sorted(defaults))
                raise self.fail(path, f"unknown key (expected one of: {known})")
            elif isinstance(defaults[key], dict):
                merged[key] = self.merge(defaults[key], self.table(value, path), path)
            else:
                merged[key] = value
        return merged

    def read(self, data: dict[str, Any]) -> Config:
        game_data = data["game"]
        game = self.game(game_data["name"], game_data["board"])
        nest = game.board
        given_lineup = game_data["lineup"]
        lineup = game.lineups[0] if given_lineup is None else self.string(given_lineup, "game.lineup", game.lineups)
        first_starter = Side.from_text(self.string(game_data["first_starter"], "game.first_starter", ("red", "blue")))
        timing = self.timing(data["timing"])
        players = data["players"]
        computers = frozenset(
            side for side in Side if self.string(players[side.label], f"players.{side.label}", PLAYERS) == "computer"
        )
        computer_level = self.integer(players["level"], "players.level", 1, len(game.computer_levels))
        referee = Settings(
            timing=timing,
            lenient=self.boolean(game_data["lenient"], "game.lenient"),
            first_starter=first_starter,
            computers=computers,
        )
        storage = data["storage"]
        database = self.string(storage["database"], "storage.database")
        if not database:
            raise self.fail("storage.database", "must name a file")
        database = self.beside_config(database) if database != ":memory:" else database
        sensor_log = self.string(storage["sensor_log"], "storage.sensor_log") or None
        sensor_log = self.beside_config(sensor_log) if sensor_log else None
        sensors = self.sensors(data["sensors"])
        buttons = {name: self.button(data["buttons"][name], f"buttons.{name}") for name in BUTTONS}
        matrix = self.matrix(data["matrix"], nest, [name for name, pin in buttons.items() if pin is None], sensors.size)
        display = self.display(data["display"])
        lights = self.status_lights(data["status_lights"])
        cell_lights = self.cell_lights(data["cell_lights"], nest, sensors)
        level = self.string(data["logging"]["level"], "logging.level", tuple(LOG_LEVELS))
        web_hosts = tuple(
            self.host_name(name, "web.hosts") for name in self.string_list(data["web"]["hosts"], "web.hosts")
        )
        config = Config(
            source=self.source,
            game=game,
            lineup=lineup,
            referee=referee,
            database=database,
            sensor_log=sensor_log,
            sensors=sensors,
            matrix=matrix,
            display=display,
            status_lights=lights,
            cell_lights=cell_lights,
            buttons=buttons,
            log_level=level,
            computer_level=computer_level,
            web_hosts=web_hosts,
            spectators_on_network=self.boolean(data["web"]["spectators_on_network"], "web.spectators_on_network"),
            clock=self.clock(data["clock"]),
            sound=self.sound(data["sound"]),
            broker=self.broker(data["broker"]),
            remote_nest=self.remote_nest(data["remote"]),
            live=self.live(data["live"], data["broker"]),
            strike_pad=self.strike_pad(data["strike_pad"], sensors, game, lineup),
        )
        self.check_pins(config)
        return config

    def beside_config(self, path: str) -> str:
        """A relative path is relative to the config file's folder, not to wherever the
        daemon was started."""
        if Path(path).is_absolute() or self.source == "default_config.toml":
            return path
        return str(Path(self.source).parent / path)

    def host_name(self, name: str, where: str) -> str:
        """A DNS name, such as ``nest.local`` (addresses need not be listed)."""
        lowered = name.lower().rstrip(".")
        if not _HOST_NAME.fullmatch(lowered):
            raise self.fail(where, f"{name[:60]!r} is not a host name (such as nest.local)")
        return lowered

    def game(self, name_value: Any, board_value: Any) -> Game:
        """The game ``game.name`` on the board ``game.board``: empty or the name of the
        game's own board for that one, the name of another board the game ships for
        that one, else the path of a board file."""
        name = self.string(name_value, "game.name", game_names())
        board = self.string(board_value, "game.board")
        usual = load_game(name)
        if board in ("", usual.board.name):
            return usual
        try:
            if board in usual.assets.board_names():  # another board the game ships, by its name
                return load_game(name, board)
            return load_game(name, Path(self.beside_config(board)))
        except NestrefError as error:
            raise self.fail("game.board", str(error)) from None

    def timing(self, data: dict[str, Any]) -> Timing:
        known = {field.name for field in fields(Timing)}
        values = {}
        for key, value in data.items():
            if key not in known:
                raise self.fail(f"timing.{key}", f"unknown key (expected one of: {', '.join(sorted(known))})")
            values[key] = self.integer(value, f"timing.{key}", 0)
        try:
            return Timing(**values)
        except ValueError as error:
            raise self.fail("timing", str(error)) from None

    def clock(self, data: dict[str, Any]) -> TimeControl | None:
        """``clock.control``: a time control's text, or "" for no clock."""
        text = self.string(data["control"], "clock.control")
        if not text.strip():
            return None
        try:
            return TimeControl.from_text(text)
        except ClockError as error:
            raise self.fail("clock.control", str(error)) from None

    def sound(self, data: dict[str, Any]) -> Sound:
        return Sound(
            enabled=self.boolean(data["enabled"], "sound.enabled"),
            pin=self.integer(data["pin"], "sound.pin", 0, 27),
            buzzer=self.string(data["buzzer"], "sound.buzzer", BUZZERS),
            move_accepted=self.boolean(data["move_accepted"], "sound.move_accepted"),
        )

    def broker(self, data: dict[str, Any]) -> BrokerSettings | None:
        """``broker.url`` ("" for none), with the password from ``broker.password_file``
        (kept out of the config, which is often shared) and ``broker.ca_file``."""
        url = self.string(data["url"], "broker.url").strip()
        password_file = self.string(data["password_file"], "broker.password_file")
        ca_file = self.string(data["ca_file"], "broker.ca_file")
        if not url:
            return None
        try:
            settings = BrokerSettings.from_url(url, ca_file=self.beside_config(ca_file) if ca_file else None)
        except LinkError as error:
            raise self.fail("broker.url", str(error)) from None
        if settings.ca_file is not None and not Path(settings.ca_file).is_file():
            raise self.fail("broker.ca_file", f"{settings.ca_file}: no such file")
        if password_file:
            if settings.password is not None:
                raise self.fail("broker.password_file", "the url has a password already: give one or the other")
            path = Path(self.beside_config(password_file))
            try:
                password = path.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as error:
                raise self.fail("broker.password_file", f"{path}: cannot read it: {error}") from None
            if not password:
                raise self.fail("broker.password_file", f"{path}: the file is empty")
            settings = replace(settings, password=password)
        return settings

    def remote_nest(self, data: dict[str, Any]) -> str:
        """``remote.nest``: 8 to 32 of a-z and 0-9, as the other nest reads it; "" for the host's."""
        nest = self.string(data["nest"], "remote.nest")
        if nest and not NEST_PATTERN.fullmatch(nest):
            raise self.fail("remote.nest", f"{nest[:40]!r} is not a nest's name: 8 to 32 of a-z and 0-9")
        return nest

    def live(self, data: dict[str, Any], broker: dict[str, Any]) -> Live:
        publish = self.boolean(data["publish"], "live.publish")
        name = self.string(data["name"], "live.name").strip()
        if len(name) > MAX_LIVE_NAME_CHARS or not name.isprintable():
            raise self.fail("live.name", f"{name[:60]!r}: up to {MAX_LIVE_NAME_CHARS} printable characters")
        if publish and not str(broker["url"]).strip():
            raise self.fail("live.publish", "publishing needs a broker: set broker.url")
        return Live(publish=publish, name=name)

    def sensors(self, data: dict[str, Any]) -> Sensors:
        backend = self.string(data["backend"], "sensors.backend", ("gpio", "serial"))
        scan_hz = self.integer(data["scan_hz"], "sensors.scan_hz", 10, 2000)
        idle_scan_hz = self.integer(data["idle_scan_hz"], "sensors.idle_scan_hz", 10, scan_hz)
        # At 5 Hz a lift is still seen: one is held 0.2 s or more (docs/performance.md).
        asleep_scan_hz = self.integer(data["asleep_scan_hz"], "sensors.asleep_scan_hz", 5, idle_scan_hz)
        gpio, serial = data["gpio"], data["serial"]
        rows = tuple(self.integer_list(gpio["rows"], "sensors.gpio.rows", 0, 27))
        columns = tuple(self.integer_list(gpio["columns"], "sensors.gpio.columns", 0, 27))
        for key, pins in (("rows", rows), ("columns", columns)):
            if not 1 <= len(pins) <= 16:
                raise self.fail(f"sensors.gpio.{key}", f"expected 1 to 16 pins, got {len(pins)}")
        port = self.string(serial["port"], "sensors.serial.port")
        baudrate = self.integer(serial["baudrate"], "sensors.serial.baudrate", 300, 4_000_000)
        size = (len(rows), len(columns)) if backend == "gpio" else self.pico_size(serial["size"])
        return Sensors(backend, scan_hz, idle_scan_hz, asleep_scan_hz, rows, columns, port, baudrate, size)

    def strike_pad(self, data: dict[str, Any], sensors: Sensors, game: Game, lineup: str) -> StrikePad:
        enabled = self.boolean(data["enabled"], "strike_pad.enabled")
        reader = self.string(data["reader"], "strike_pad.reader", STRIKE_PAD_READERS)
        port = self.string(data["port"], "strike_pad.port")
        tags = self.string(data["tags"], "strike_pad.tags")
        if not enabled:
            return StrikePad(False, reader, port, "")
        if not port:
            raise self.fail("strike_pad.port", "the reader's serial port, such as /dev/serial0")
        if sensors.backend == "serial" and Path(port).resolve() == Path(sensors.port).resolve():
            raise self.fail("strike_pad.port", f"{port} is the Pico's (sensors.serial.port): the reader needs its own")
        if sensors.backend == "serial" and port in UART_PORTS and sensors.port in UART_PORTS:
            raise self.fail(
                "strike_pad.port",
                f"the header's one UART is the Pico's (sensors.serial.port = {sensors.port}): put the Pico on USB,"
                " or the reader on a USB serial adapter",
            )
        if not tags:
            raise self.fail(
                "strike_pad.tags", "the tags file, such as strike-pad.toml (nestref calibrate --strike-pad)"
            )
        tags_file = self.beside_config(tags)
        return StrikePad(True, reader, port, tags_file, read_strike_pad_tags(tags_file, game, lineup))

    def pico_size(self, value: Any) -> tuple[int, int]:
        """``sensors.serial.size``: [rows, columns] the Pico's firmware scans (its
        MATRIX_ROWS and MATRIX_COLUMNS), each 1 to 10."""
        where = "sensors.serial.size"
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(where, f"expected [rows, columns], got {value!r}")
        rows, columns = (self.integer(side, where, 1, PICO_SIDE) for side in value)
        return rows, columns

    def button(self, value: Any, where: str) -> int | None:
        if value == "matrix":
            return None
        if isinstance(value, str):
            raise self.fail(where, f'expected "matrix" or a BCM pin number, got {value!r}')
        return self.integer(value, where, 0, 27)

    def matrix(
        self, data: dict[str, Any], nest: Board, buttons: list[str], size: tuple[int, int]
    ) -> dict[str, Crossing]:
        rows, columns = size
        needed = [*nest.cells, *buttons]
        if len(needed) > rows * columns:
            raise self.fail(
                "sensors",
                f"a {rows}x{columns} switch matrix has {rows * columns} places, but {len(nest.cells)} cells"
                f" and {len(buttons)} buttons need {len(needed)}",
            )
        if not data:
            return default_matrix(nest, buttons, size)
        matrix: dict[str, Crossing] = {}
        taken: dict[Crossing, str] = {}
        for name, value in data.items():
            where = f"matrix.{name}"
            if name not in nest and name not in BUTTONS:
                raise self.fail(where, f"not a cell of the nest {nest.name} nor a button ({', '.join(BUTTONS)})")
            if name in BUTTONS and name not in buttons:
                raise self.fail(where, f"buttons.{name} is on a GPIO pin, not in the matrix")
            if not isinstance(value, list) or len(value) != 2:
                raise self.fail(where, f"expected [row, column], got {value!r}")
            place = (self.integer(value[0], where, 0, rows - 1), self.integer(value[1], where, 0, columns - 1))
            if place in taken:
                raise self.fail(where, f"{list(place)} is also where {taken[place]} is")
            matrix[name], taken[place] = place, name
        missing = [name for name in needed if name not in matrix]
        if missing:
            shown = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
            raise self.fail("matrix", f"no place for {shown}: a map must place every cell and matrix button")
        return matrix

    def display(self, data: dict[str, Any]) -> Display:
        return Display(
            driver=self.string(data["driver"], "display.driver", ("ssd1306", "sh1106", "none")),
            i2c_bus=self.integer(data["i2c_bus"], "display.i2c_bus", 0, 20),
            i2c_address=self.integer(data["i2c_address"], "display.i2c_address", 0x03, 0x77),
            rotate=self.rotation(data["rotate"]),
        )

    def rotation(self, value: Any) -> int:
        rotate = self.integer(value, "display.rotate", 0, 3)
        if rotate not in (0, 2):  # the screens are drawn for a wide display
            raise self.fail("display.rotate", f"expected 0 or 2 (upside down), got {rotate}: the screens are landscape")
        return rotate

    def status_lights(self, data: dict[str, Any]) -> dict[str, int]:
        lights = {}
        for name in LIGHTS:
            value = data[name]
            if value != "none":
                if isinstance(value, str):
                    raise self.fail(f"status_lights.{name}", f'expected a BCM pin number or "none", got {value!r}')
                lights[name] = self.integer(value, f"status_lights.{name}", 0, 27)
        return lights

    def cell_lights(self, data: dict[str, Any], nest: Board, sensors: Sensors) -> CellLights:
        driver = self.string(data["driver"], "cell_lights.driver", CELL_LIGHT_DRIVERS)
        given = self.table(data.get("map", {}), "cell_lights.map")
        for cell in given:
            if cell not in nest:
                raise self.fail(f"cell_lights.map.{cell}", f"not a cell of the nest {nest.name}")
        brightness = self.integer(data["brightness"], "cell_lights.brightness", 0, 255)
        spi_port = self.integer(data["spi_port"], "cell_lights.spi_port", 0, 0)  # SPI0: SPI1 is not wired
        spi_device = self.integer(data["spi_device"], "cell_lights.spi_device", 0, 1)
        if driver == "ws2812":
            if sensors.backend != "serial":
                raise self.fail(
                    "cell_lights.driver",
                    '"ws2812" LEDs are driven by the Pico that scans the matrix: set sensors.backend = "serial"',
                )
            if brightness < 8:
                raise self.fail("cell_lights.brightness", f"{brightness} is too dim to see: 8 to 255 for WS2812 LEDs")
            return CellLights(driver, spi_port, spi_device, brightness, {}, self.chain(given, nest))
        return CellLights(driver, spi_port, spi_device, brightness, self.led_matrix_map(given, nest, driver))

    def led_matrix_map(self, given: dict[str, Any], nest: Board, driver: str) -> dict[str, tuple[int, int]]:
        """``[cell_lights.map]`` for a MAX7219: each cell's LED at [x, y] of its 8x8 matrix."""
        mapping: dict[str, tuple[int, int]] = {}
        taken: dict[tuple[int, int], str] = {}
        # Left out, the cells fill the LED matrix in reading order, as the switches do in
        # the default [matrix]; a recalibrated switch matrix does not move the LEDs.
        reading_order = default_matrix(nest, [], (LED_MATRIX_SIZE, LED_MATRIX_SIZE))
        for cell in nest.cells:
            where = f"cell_lights.map.{cell}"
            value = given.get(cell)
            if value is None:
                if given:
                    raise self.fail("cell_lights.map", f"no LED for {cell}: a map must light every cell")
                if cell not in reading_order:  # a nest of more cells than the matrix has LEDs
                    if driver == "none":
                        continue
                    raise self.fail("cell_lights", f"{cell} falls off the 8x8 LED matrix: the nest has more cells")
                row, column = reading_order[cell]
                place = (column, row)
            elif not isinstance(value, list) or len(value) != 2:
                raise self.fail(where, f"expected [x, y], got {value!r}")
            else:
                place = (self.integer(value[0], where, 0, 7), self.integer(value[1], where, 0, 7))
            if place in taken:
                raise self.fail(where, f"{list(place)} is also the LED of {taken[place]}")
            mapping[cell], taken[place] = place, cell
        return mapping

    def chain(self, given: dict[str, Any], nest: Board) -> dict[str, int]:
        """``[cell_lights.map]`` for a WS2812 chain: each cell's LED by its place in the
        chain, 0 at the Pico; left out, :func:`serpentine`."""
        if not given:
            return serpentine(nest)
        chain: dict[str, int] = {}
        taken: dict[int, str] = {}
        for cell in nest.cells:
            where = f"cell_lights.map.{cell}"
            if cell not in given:
                raise self.fail("cell_lights.map", f"no LED for {cell}: a map must light every cell")
            value = given[cell]
            if isinstance(value, list):
                raise self.fail(where, f"expected the LED's place in the chain (0 to {MAX_CHAIN - 1}), got {value!r}")
            place = self.integer(value, where, 0, MAX_CHAIN - 1)
            if place in taken:
                raise self.fail(where, f"LED {place} is also the LED of {taken[place]}")
            chain[cell], taken[place] = place, cell
        return chain

    def check_pins(self, config: Config) -> None:
        """Every pin used once, and none that the Pi keeps for itself."""
        used = {**ID_PINS, **_bus_pins(config)}
        for pin, key in _pin_keys(config):
            if pin in used:
                raise self.fail(key, f"GPIO{pin} is already used by {used[pin]}")
            used[pin] = key


def _pin_keys(config: Config) -> list[tuple[int, str]]:
    """The pins the config's own keys name, with the key."""
    keys: list[tuple[int, str]] = []
    if config.sensors.backend == "gpio":
        keys += [(pin, f"sensors.gpio.rows (row {i})") for i, pin in enumerate(config.sensors.rows)]
        keys += [(pin, f"sensors.gpio.columns (column {i})") for i, pin in enumerate(config.sensors.columns)]
    keys += [(pin, f"status_lights.{name}") for name, pin in config.status_lights.items()]
    keys += [(pin, f"buttons.{name}") for name, pin in config.buttons.items() if pin is not None]
    if config.sound.enabled:
        keys.append((config.sound.pin, "sound.pin"))
    return keys


def _bus_pins(config: Config) -> dict[int, str]:
    """The pins the buses the config uses take: I2C, SPI with its chip enable, the UART."""
    pins: dict[int, str] = {}
    if config.display.driver != "none":
        pins.update(I2C_PINS)
    if config.cell_lights.driver == "max7219":
        pins.update(SPI_PINS)
        device = config.cell_lights.spi_device
        pins[SPI_CE_PINS[device]] = f"cell lights: SPI0 CE{device}"
        if device == 1:  # the kernel's SPI driver claims CE0 as well
            pins[SPI_CE_PINS[0]] = "cell lights: SPI0 CE0 (claimed by SPI)"
    if config.sensors.backend == "serial" and config.sensors.port in UART_PORTS:
        pins.update(UART_PINS)
    if config.strike_pad.enabled and config.strike_pad.port in UART_PORTS:
        pins.update(STRIKE_PAD_UART_PINS)
    return pins


def _pin_uses(config: Config) -> dict[int, str]:
    uses = {**_bus_pins(config), **dict(_pin_keys(config))}
    return dict(sorted(uses.items()))
