"""The wiring guide's parts and sections for a light of any colour under every cell (a
WS2812 chain the Pico drives) and for the strike pad (a PN532 on the Pi's UART), and the
schematic of both (``docs/schematic-<game>-lights.svg``), written from the config as the
rest of the guide is (firmware_host/wiring.py calls these)."""

from __future__ import annotations

import math
from html import escape

from firmware_host.daemon.config import UART_PORTS, Config

LED_FULL_WHITE_MA = 60.0  # a WS2812B's three colours at full: about 20 mA each (Adafruit's NeoPixel Uberguide)
LED_DARK_MA = 1.0  # what each draws dark (the WS2812B-V5 datasheet: under 1 mA)
SUPPLY_HEADROOM = 1.25  # a supply run at no more than 80 % of its rating
SUPPLIES = (  # 5 V supplies with a 2.1 mm barrel plug, by what they give
    (3.0, "Mean Well GST18E05-P1J (5 V, 3 A, 15 W)"),
    (4.0, "Mean Well GST25E05-P1J (5 V, 4 A, 20 W)"),
    (6.0, "Mean Well GST40A05-P1J (5 V, 6 A, 30 W)"),
    (10.0, "Mean Well LRS-50-5 (5 V, 10 A, 50 W; screw terminals, mains wiring in an enclosure)"),
)
DATA_RESISTOR_OHMS = 470  # in the data line at the first LED: 300-500 ohm (the Uberguide)
BULK_CAPACITOR = "1000 uF, 10 V electrolytic"  # across the supply at the chain (500-1000 uF, 6.3 V or more)
LEVEL_SHIFTER_PINS = {"1OE": 1, "1A": 2, "1Y": 3, "GND": 7, "VCC": 14}  # 74AHCT125, DIP-14
PICO_LED_PIN = ("GP22", 29)  # hardware/pico/main.py's LED_PIN, and its physical pin
PICO_GROUND_PIN = 28


def worst_case_amps(config: Config) -> float:
    """What the chain draws with every LED lit white at the config's brightness."""
    lights = config.cell_lights
    per_led = LED_FULL_WHITE_MA * lights.brightness / 255 + LED_DARK_MA
    return lights.count * per_led / 1000


def supply_for(amps: float) -> str:
    """The smallest of :data:`SUPPLIES` that gives ``amps`` with headroom."""
    for rating, supply in SUPPLIES:
        if amps * SUPPLY_HEADROOM <= rating:
            return supply
    return f"a 5 V supply of at least {math.ceil(amps * SUPPLY_HEADROOM)} A"


def pixel_parts(config: Config) -> list[tuple[str, int | None, str, str]]:
    """The parts of the WS2812 chain (name, count, what to buy, why), for the parts list."""
    lights = config.cell_lights
    if lights.driver != "ws2812":
        return []
    amps = worst_case_amps(config)
    return [
        (
            "RGB LED",
            lights.count,
            "WS2812B-V5 (Worldsemi; or an SK6812 in RGB order, not RGBW), 5050, each on a small round PCB with"
            " pads for 5V, GND, DIN and DOUT and its 100 nF capacitor (sold as WS2812B 'pixel' PCBs, 10 mm)",
            "one under every cell, in a chain from the Pico (see *One LED per cell*)",
        ),
        (
            "capacitor, ceramic",
            lights.count,
            "100 nF (0.1 uF), 16 V or more",
            "across 5V and GND at each LED, as the WS2812B's datasheet shows (skip it where its PCB has one)",
        ),
        (
            "capacitor, electrolytic",
            1,
            BULK_CAPACITOR,
            "across the LEDs' supply where it enters the chain: it takes the surge when the supply is plugged in",
        ),
        (
            "resistor, 1/4 W",
            1,
            f"{DATA_RESISTOR_OHMS} ohm",
            "in the data line at the first LED's DIN: it damps the ringing on the wire",
        ),
        (
            "level shifter",
            1,
            "74AHCT125N (DIP-14; TI SN74AHCT125N) in a socket",
            "the Pico's 3.3 V data to 5 V: a WS2812B at 5 V wants 3.5 V for a high",
        ),
        (
            "LED power supply",
            1,
            supply_for(amps) + ", and a 2.1 mm barrel socket",
            f"all {lights.count} LEDs lit white at brightness {lights.brightness} draw {amps:.1f} A; "
            "its own supply, not the Pi's",
        ),
        (
            "power wire",
            None,
            "0.5 mm2 (20 AWG) stranded, red and black",
            "5 V and ground to both ends of the chain and along every row",
        ),
    ]


def chain_table(config: Config) -> str:
    """Each cell's LED's place in the chain, laid out as the board (its top row first; a
    place the board has no cell at, such as a lake, is ``-``)."""
    board = config.game.board
    chain = config.cell_lights.chain
    rows: dict[float, dict[float, str]] = {}
    for cell in board.cells:
        x, y = board.centre(cell)
        rows.setdefault(round(y, 6), {})[round(x, 6)] = cell
    columns = sorted({x for row in rows.values() for x in row})
    lines = ["| " + " | ".join(" " for _ in columns) + " |", "|---" * len(columns) + "|"]
    for y in sorted(rows, reverse=True):
        row = rows[y]
        lines.append("| " + " | ".join(f"{row[x]}: {chain[row[x]]}" if x in row else "-" for x in columns) + " |")
    return "\n".join(lines)


LIGHTS_SCHEMATIC = "docs/schematic-{game}-lights.svg"  # a game's shipped build's LED chain and strike pad


def pixel_lights_text(config: Config, *, is_shipped_build: bool) -> str:
    """The section on the WS2812 chain: why the Pico, its wiring, power, where each LED
    sits; the committed schematic is shown for the game's shipped build (``is_shipped_build``)."""
    lights = config.cell_lights
    rows, columns = config.sensors.size
    amps = worst_case_amps(config)
    pin, physical = PICO_LED_PIN
    shifter = LEVEL_SHIFTER_PINS
    drawn = LIGHTS_SCHEMATIC.format(game=config.game.name)
    schematic = (
        f"![The LED chain and the strike pad]({drawn})"
        if is_shipped_build
        else f"`{drawn}` draws the chain of the game's shipped build; yours is wired the same way."
    )
    return f"""A WS2812B LED under every cell ({lights.count} of them, `[cell_lights] driver = "ws2812"`), in
one chain that the Pico which scans the matrix drives: the daemon sends it every LED's
colour and blinking over the same USB link (docs/scanner-protocol.md, LIGHTS), and the
Pico's PIO shifts the bits out while it goes on scanning. Why the Pico and not the Pi
(`rpi-ws281x`): [docs/daemon.md](docs/daemon.md#cell-lights-of-any-colour). What each
colour and blinking means is there too.

**The Pico's firmware** must know this build: in `hardware/pico/main.py` set
`MATRIX_ROWS = {rows}`, `MATRIX_COLUMNS = {columns}` and `LED_COUNT = {lights.count}` before you copy it
(hardware/pico/README.md). The daemon checks the Pico's HELLO, and lights nothing (saying
why in its log) if the count differs.

{schematic}

| from | to |
|---|---|
| Pico {pin} (pin {physical}) | 74AHCT125 1A (pin {shifter["1A"]}) |
| 74AHCT125 1Y (pin {shifter["1Y"]}) | a {DATA_RESISTOR_OHMS} ohm resistor, then DIN of LED 0 (the first in the chain) |
| 74AHCT125 VCC (pin {shifter["VCC"]}) | the LEDs' 5 V |
| 74AHCT125 1OE (pin {shifter["1OE"]}), GND (pin {shifter["GND"]}), the other gates' pins 4, 5, 9, 10, 12, 13 | ground |
| each LED's DOUT | the next LED's DIN (short: under 30 cm) |
| the LED supply's 5 V and ground | the {BULK_CAPACITOR} capacitor (stripe to 0 V), both chain ends, every row |
| the LED supply's ground | the Pico's ground (pin {PICO_GROUND_PIN}): the data has no reference without it |

- **The chain** starts at the cell nearest the Pico and runs along the first row, back
  along the second, and so on (`[cell_lights.map]` says otherwise if you wire it
  otherwise). A cell the board lacks (a lake) has no LED: the data wire runs on to the
  next. Each cell's place in the chain:

{chain_table(config)}

- **Where the LED sits.** Not under the cell's centre, where a piece's base would hide it:
  beside the base, on the side away from the cell's reed switch, half way between the
  base's edge and the cell's corner, under a 5 mm hole in the top sheet (or the whole sheet
  opal acrylic, the nest printed on tracing paper). The LED and its wires are no magnets:
  they do not disturb the switch.
- **Power.** The LEDs have their own 5 V supply: {amps:.1f} A with all {lights.count} lit white at
  brightness {lights.brightness} of 255 ({LED_FULL_WHITE_MA:g} mA each at full, {LED_DARK_MA:g} mA dark), so that a
  supply run at no more than {100 / SUPPLY_HEADROOM:.0f} % of its rating gives it: {supply_for(amps)}. A higher
  `[cell_lights] brightness` needs a bigger supply: `nestref wiring` recomputes it. Feed
  5 V and ground into both ends of the chain: at 30 mm between LEDs, thin wire drops enough
  volts over {lights.count} LEDs to turn the far ones yellow. Never join the LED supply's 5 V to the
  Pico's or the Pi's (two supplies fight); join the grounds.
- **Connect ground first**, and plug the LED supply in before the Pico starts sending
  (or unplug the Pico's data wire): a LED whose data pin is driven while it has no power
  can be damaged through it."""


def strike_pad_parts(config: Config) -> list[tuple[str, int | None, str, str]]:
    """The strike pad's parts, when the config has one."""
    if not config.strike_pad.enabled:
        return []
    pieces = len(config.game.lineup_pieces(config.lineup))
    return [
        (
            "NFC reader",
            1,
            "PN532 module with HSU (UART): Elechouse PN532 NFC module V3, or Adafruit's PN532 breakout (product 364)",
            "the strike pad: reads the tag under a piece put on it (see *The strike pad*)",
        ),
        (
            "NFC tag",
            pieces,
            "NTAG213 sticker, round, 20 mm (ISO 14443A, 7-byte UID)",
            "one under every piece's base, around its magnet; buy a few spares",
        ),
    ]


def strike_pad_section(config: Config) -> str:
    """The strike pad's section, heading and all, for a game whose pieces hide their ranks
    (or a config with a pad): the reader on the Pi's UART, the tags, the calibration."""
    if config.game.hidden is None and not config.strike_pad.enabled:
        return ""
    return f"## The strike pad (optional)\n\n{strike_pad_text(config)}\n\n"


def strike_pad_text(config: Config) -> str:
    """The strike pad's text: the reader on the Pi's UART, the tags, the calibration."""
    pad = config.strike_pad
    pieces = len(config.game.lineup_pieces(config.lineup))
    if pad.enabled:
        this_build = f"This build has one: a PN532 on `{pad.port}` (`[strike_pad]`)."
    else:
        this_build = (
            "None in this build (`[strike_pad] enabled = false`); to fit one, set `enabled = true` and\n"
            "buy a PN532 module and a tag for every piece."
        )
    on_uart = pad.port in UART_PORTS or not pad.enabled
    uart = (
        """

   | PN532 (HSU) | Pi |
   |---|---|
   | VCC | 3.3 V (pin 17) |
   | GND | ground (pin 20) |
   | TXD | GPIO15 (RXD, pin 10) |
   | RXD | GPIO14 (TXD, pin 8) |

   Turn the Pi's UART on, without its login console, and reboot:
   `sudo raspi-config nonint do_serial_cons 1 && sudo raspi-config nonint do_serial_hw 0`
   (`enable_uart=1` in `/boot/firmware/config.txt`). The Pico must then be on USB, not
   on the UART."""
        if on_uart
        else f"\n\n   Its USB serial adapter is `{pad.port}`."
    )
    return f"""{this_build}

A strike's two pieces are put on the pad, one after the other, and each piece's tag is
read: the referee then resolves the strike from the pieces themselves, and can check that
the pieces and the ranks it holds have not parted.

1. **The reader**: a PN532 module beside the nest (in the frame's front strip, under a
   circle marked on the top), its switches set to HSU (UART: both off on the Elechouse
   V3), on the Pi's UART at 115200 baud; its library comes with nestref's `strike-pad`
   extra: `sudo /opt/nestref/.venv/bin/pip install '/opt/nestref[strike-pad]'`.{uart}
2. **The tags**: an NTAG213 sticker under each of the {pieces} pieces' bases, around the
   magnet (a magnet over the middle of a tag's coil weakens it: try one piece on the pad
   before you stick all {pieces}).
3. **Which tag is under which piece**: `nestref calibrate --strike-pad --config FILE` asks
   for each piece in turn ("put red's Marshal on the pad") and writes the tags file,
   `{pad.tags_file or "strike-pad.toml"}` beside the config (`[strike_pad] tags`):

   ```toml
   [tags]
   04a224b2c35e80 = "red Marshal"
   04b1c2d3e4f501 = "red Scout"
   ```

   Keep that file on the nest: it says which tag has which rank."""


_WIRE = "#333"


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start") -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}">{escape(text)}</text>'


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = _WIRE) -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" stroke-width="1.5"/>'


def _box(x: float, y: float, width: float, height: float, title: str, lines: list[str]) -> list[str]:
    parts = [
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" fill="#fff" stroke="#000"/>',
        _text(x + width / 2, y + 18, title, size=13, anchor="middle"),
    ]
    parts += [_text(x + 8, y + 38 + 16 * i, line, size=11) for i, line in enumerate(lines)]
    return parts


def lights_schematic_svg(config: Config) -> str:
    """The LED chain (and the strike pad, if the config has one) as a schematic: the Pico's
    data pin, the level shifter, the resistor, the LEDs with their capacitors, the supply."""
    lights = config.cell_lights
    pin, physical = PICO_LED_PIN
    amps = worst_case_amps(config)
    width, height = 980, 470 if config.strike_pad.enabled else 330
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        ' font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        _text(20, 28, f"The cell LEDs: {lights.count} WS2812B in one chain, driven by the Pico", size=15),
    ]
    parts += _box(
        20, 60, 170, 110, "Raspberry Pi Pico", [f"{pin} (pin {physical}): data", "GND (pin 28)", "USB to the Pi"]
    )
    parts += _box(
        250, 60, 170, 110, "74AHCT125", ["1A (2) in, 1Y (3) out", "VCC (14): LED 5 V", "1OE (1), GND (7): 0 V"]
    )
    parts += [_line(190, 100, 250, 100), _text(200, 94, "3.3 V", size=10)]
    # The resistor, then the chain: the first LEDs, an ellipsis, the last.
    parts += [
        _line(420, 100, 450, 100),
        '<rect x="450" y="92" width="40" height="16" fill="#fff" stroke="#000"/>',
        _text(470, 86, f"{DATA_RESISTOR_OHMS} ohm", size=10, anchor="middle"),
        _line(490, 100, 520, 100),
    ]
    labels = ["LED 0", "LED 1", "LED 2", f"LED {lights.count - 1}"]
    for i, label in enumerate(labels):
        x = 520 + i * 110 + (40 if i == 3 else 0)
        parts += [
            f'<rect x="{x}" y="70" width="70" height="60" fill="#fff" stroke="#000"/>',
            _text(x + 35, 92, label, size=11, anchor="middle"),
            _text(x + 35, 108, "WS2812B", size=9, anchor="middle"),
            _text(x + 4, 124, "DIN", size=8),
            _text(x + 66, 124, "DOUT", size=8, anchor="end"),
            _line(x + 20, 130, x + 20, 200, "#c00"),  # 5 V
            _line(x + 50, 130, x + 50, 230),  # ground
            f'<line x1="{x + 20}" y1="170" x2="{x + 50}" y2="170" stroke="#000" stroke-width="1"/>',
            _text(x + 35, 165, "100 nF", size=8, anchor="middle"),
        ]
        if i < 3:
            parts.append(_line(x + 70, 100, x + 110 + (40 if i == 2 else 0), 100))
    parts.append(_text(850, 94, "...", size=14, anchor="middle"))  # the LEDs between
    parts += [
        _line(540, 200, 930, 200, "#c00"),
        _line(570, 230, 930, 230),
        _text(935, 204, "5 V", size=10),
        _text(935, 234, "0 V", size=10),
        _line(105, 170, 105, 230),
        _line(105, 230, 570, 230),
        _text(110, 224, "common ground", size=10),
    ]
    parts += _box(
        250, 240, 250, 70, "LED supply: 5 V", [supply_for(amps).split(" (")[0], f"{BULK_CAPACITOR} across it"]
    )
    parts += [_line(500, 262, 540, 262, "#c00"), _line(540, 262, 540, 200, "#c00"), _line(500, 290, 570, 290),
              _line(570, 290, 570, 230)]  # fmt: skip
    parts.append(
        _text(20, 320 if not config.strike_pad.enabled else 330, "5 V and ground also into the chain's far end")
    )
    if config.strike_pad.enabled:
        pad = config.strike_pad
        parts += _box(20, 350, 230, 100, "Raspberry Pi (header)", ["3.3 V (pin 17)", "GPIO14 TXD (pin 8)",
                                                                 "GPIO15 RXD (pin 10)", "GND (pin 20)"])  # fmt: skip
        parts += _box(380, 350, 260, 100, "PN532 (HSU): the strike pad", ["VCC", "RXD", "TXD", "GND"])
        for i in range(4):
            parts.append(_line(250, 388 + 16 * i - 4, 380, 388 + 16 * i - 4))
        parts.append(_text(660, 400, f"{pad.port}, 115200 baud; a tag under every piece", size=11))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
