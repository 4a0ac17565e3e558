"""The wiring guide, written from the same config the daemon reads.

``wiring.md`` at the top of the repository is ``nestref wiring`` for the shipped
defaults, and a test checks that it still is: the pin map has one source. A builder
with a different config runs ``nestref wiring --config FILE`` for their own guide.
"""

from __future__ import annotations

from firmware_host.daemon.config import ID_PINS, UART_PORTS, Config
from firmware_host.games import load_game

# The 40-pin header: physical pin -> BCM GPIO number, or the supply it carries.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
PHYSICAL = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}


def _use(config: Config, gpio: int) -> str:
    pins = config.pins()
    if gpio in pins:
        return pins[gpio]
    if gpio in ID_PINS:
        return f"(leave free: {ID_PINS[gpio]})"
    return "free"


def header_table(config: Config) -> str:
    rows = ["| use | GPIO | pin | pin | GPIO | use |", "|---:|---:|:---:|:---:|:---|:---|"]
    for left in range(1, 41, 2):
        cells = []
        for pin in (left, left + 1):
            gpio = HEADER[pin]
            cells.append(("", str(gpio)) if isinstance(gpio, str) else (_use(config, gpio), f"GPIO{gpio}"))
        (use_l, name_l), (use_r, name_r) = cells
        rows.append(f"| {use_l} | {name_l} | {left} | {left + 1} | {name_r} | {use_r} |")
    return "\n".join(rows)


def matrix_table(config: Config) -> str:
    rows, columns = config.sensors.size
    at = {position: name for name, position in config.matrix.items()}
    if config.sensors.backend == "gpio":
        head = [f"col {c} (GPIO{pin})" for c, pin in enumerate(config.sensors.columns)]
        row_names = [f"row {r} (GPIO{pin})" for r, pin in enumerate(config.sensors.rows)]
    else:
        head = [f"col {c}" for c in range(columns)]
        row_names = [f"row {r}" for r in range(rows)]
    lines = ["| | " + " | ".join(head) + " |", "|---" * (columns + 1) + "|"]
    for r in range(rows):
        names = [
            f"**{at[(r, c)]}**" if at.get((r, c)) in config.buttons else at.get((r, c), "-") for c in range(columns)
        ]
        lines.append(f"| {row_names[r]} | " + " | ".join(names) + " |")
    return "\n".join(lines)


def led_table(config: Config) -> str:
    at = {place: cell for cell, place in config.cell_lights.map.items()}
    lines = ["| | " + " | ".join(f"x {x}" for x in range(8)) + " |", "|---" * 9 + "|"]
    for y in range(8):
        lines.append(f"| y {y} | " + " | ".join(at.get((x, y), "-") for x in range(8)) + " |")
    return "\n".join(lines)


def render_wiring(config: Config) -> str:
    """The whole guide for ``config``."""
    lights = config.status_lights
    light_rows = "\n".join(
        f"| {name.replace('_', ' ')} | GPIO{pin} | pin {PHYSICAL[pin]} |" for name, pin in lights.items()
    )
    pin_buttons = {name: pin for name, pin in config.buttons.items() if pin is not None}
    matrix_buttons = [name for name, pin in config.buttons.items() if pin is None]
    button_lines = [
        f"- **{name}**: a switch in the matrix at row {config.matrix[name][0]}, column {config.matrix[name][1]}"
        for name in matrix_buttons
    ] + [f"- **{name}**: between GPIO{pin} (pin {PHYSICAL[pin]}) and ground" for name, pin in pin_buttons.items()]
    display = config.display
    sensors = config.sensors
    crossings = sensors.size[0] * sensors.size[1]
    if sensors.backend == "gpio":
        fast, idle = sensors.scan_hz, sensors.idle_scan_hz
        sensing = f"""The Pi scans the matrix itself, {fast} times a second during a game ({idle} once
nobody has touched the nest for 30 s, to save power): it drives one row low at a time
(the others stay high) and reads the columns, which have the Pi's pull-ups on. A closed
switch on the driven row pulls its column low through its diode. A flicker shorter than
one scan ({1000 // sensors.scan_hz} ms) is not seen: a captured piece pushed off faster than that leaves no
trace, and the referee learns of the capture from the reply, or asks. The serial
scanner (below) latches flickers down to 1 ms."""
    else:
        sensing = f"""A Raspberry Pi Pico scans the matrix and sends its readings to the Pi over
`{sensors.port}` at {sensors.baudrate} baud; see `hardware/pico/README.md` for its pins and firmware and
`docs/scanner-protocol.md` for the protocol. The Pi's matrix pins stay free."""
        if sensors.port in UART_PORTS:
            sensing += """

Over the UART (`USE_UART = True` in the Pico's `main.py`): the Pico's **GP0 (UART0 TX,
pin 1)** to the Pi's **GPIO15 (RXD, pin 10)**, and a ground wire between them (both are
3.3 V: no level shifting). The Pi sends nothing, but its UART still holds GPIO14 (TXD).
Power the Pico from the Pi's 5 V (pin 2) into its VSYS pin (pin 39)."""
    setup = []
    if display.driver != "none":
        setup += [
            "dtparam=i2c_arm=on        # the OLED",
            "dtparam=i2c_arm_baudrate=400000  # redraws the OLED in a quarter of the time",
        ]
    if config.cell_lights.driver != "none":
        setup.append("dtparam=spi=on            # the MAX7219")
        if config.cell_lights.spi_device == 0:
            setup.append("dtoverlay=spi0-1cs        # SPI0 uses CE0 only: frees GPIO7")
    if sensors.backend == "serial" and sensors.port in UART_PORTS:
        setup.append("enable_uart=1             # the Pico's readings come in on GPIO15")
        console = (
            "and remove `console=serial0,115200` from `/boot/firmware/cmdline.txt` (the\n"
            "UART is the Pico's, not a login console)."
        )
    elif {14, 15} & set(config.pins()):
        setup.append("enable_uart=0             # GPIO14 and GPIO15 are used as plain GPIO: no serial console")
        console = "and remove `console=serial0,115200` from `/boot/firmware/cmdline.txt`."
    else:
        console = ""
    setup_text = "\n".join(setup)
    setting_up = f"""In `/boot/firmware/config.txt` (or with `sudo raspi-config`):

```
{setup_text}
```

{console}""".rstrip()
    if display.driver != "none":
        oled = f"""| OLED | Pi |
|---|---|
| VCC | 3.3 V (pin 1) |
| GND | ground (pin 9) |
| SDA | GPIO2 (pin 3) |
| SCL | GPIO3 (pin 5) |

Driver `{display.driver}`, I2C bus {display.i2c_bus}, address 0x{display.i2c_address:02X} (check it with
`i2cdetect -y {display.i2c_bus}`)."""
    else:
        oled = """None in this build (`[display] driver = "none"`): the status lights and the cell
LEDs are the referee's only voice, and the log (`journalctl -u nestref`) has the words."""
    nest = config.game.board
    cell_count = len(nest.cells)
    piece_count = len(config.game.lineup_pieces(config.lineup))
    if nest.name == load_game(config.game.name).board.name:
        picture = f"![The nest and its cells](docs/{nest.name}.svg)"
    else:  # a board of the builder's own: its picture is theirs to draw
        picture = (
            f"The nest `{nest.name}`: `nestref --board FILE board --svg nest.svg` draws it with every cell's name."
        )
    cells = config.cell_lights
    if cells.driver != "none":
        ce = {0: "GPIO8 (CE0, pin 24)", 1: "GPIO7 (CE1, pin 26)"}[cells.spi_device]
        leds = f"{cell_count} LEDs"
        cell_leds = f"""A MAX7219 drives an 8x8 LED matrix (a ready-made module, or {leds} of your own: the LED
at (x, y) then sits between digit line DIG x and the segment line for bit y, bit 0 being
SEG G and bit 7 SEG DP). Wire it to SPI0: **DIN** to GPIO10 (MOSI, pin 19), **CLK** to GPIO11 (SCLK,
pin 23), **CS** to {ce}, **VCC** to 5 V (pin 2), **GND** to ground. Which
LED lights for which cell:

{led_table(config)}

Set `[cell_lights] driver = "none"` if you build without it."""
    else:
        cell_leds = """None in this build (`[cell_lights] driver = "none"`). With a MAX7219 and an 8x8
LED matrix on SPI0, the nest shows which cells to put right, the pieces that must
capture and the setup for the next game; `nestref wiring` with `driver = "max7219"`
gives the wiring."""
    return f"""# Wiring the nest

How to build the electronics of a nest for nestref: a reed switch under every cell, a
Raspberry Pi (Zero 2 W or larger) under the board, an OLED, four status LEDs, three
buttons and, optionally, one LED per cell. This guide is generated from nestref's default
config by `nestref wiring`; a test keeps it in step with the code. With your own config,
run `nestref wiring --config /etc/nestref/config.toml` for a guide to your build.

{picture}

## Parts

| part | count | notes |
|---|---|---|
| Raspberry Pi Zero 2 W (or 3, 4, 5) | 1 | Raspberry Pi OS Bookworm; a 40-pin header |
| reed switch, normally open, glass 14 mm | {cell_count} | one under the centre of every cell |
| magnet, neodymium 6 x 2 mm | {piece_count} | one in the base of every piece |
| diode 1N4148 | {len(config.matrix)} | one per switch (and per matrix button): no ghost readings |
| OLED 0.96" or 1.3", 128x64, I2C (SSD1306 or SH1106) | 1 | 3.3 V |
| LED 3 mm (red, blue, yellow, green) with 330 ohm resistors | 4 | status lights |
| push button, normally open | 3 | confirm, take back, switch |
| MAX7219 8x8 LED matrix module, or MAX7219 + {cell_count} LEDs | 1 | optional: one LED per cell |
| 74AHCT125 level shifter | 1 | optional, for the MAX7219 (see power) |
| 5 V 2.5 A power supply, micro-USB or USB-C | 1 | |
| ribbon cable, 2.54 mm headers, stripboard | | |

## Setting up the Pi

{setting_up}

## The pin map

Every GPIO of the header, and what uses it (BCM numbers; "pin" is the physical pin):

{header_table(config)}

## The switch matrix

{sensing}

Solder each reed switch in series with a 1N4148 diode between its row line and its
column line, the diode's **cathode (the band) towards the row**. Rows and columns are
plain wires (or stripboard tracks) running under the board; the map below says which
cell sits on which crossing. It need not be right the first time: `nestref calibrate`
walks you over every cell and finds where each switch really is, and `--write` puts
the map into your config's `[matrix]` table.

{matrix_table(config)}

Buttons in **bold** are push buttons wired into the matrix like a switch (with their
diode): the matrix has {crossings} crossings for {len(config.game.board.cells)} cells, and the spare ones
save three GPIO pins.

## Or: a Pico scans the matrix

Instead of the Pi, a Raspberry Pi Pico can scan the same matrix (`[sensors] backend =
"serial"`): it scans a thousand times a second, latches flickers down to a millisecond,
and sends full snapshots over USB, so the Pi's sixteen matrix pins stay free. Its pins,
its firmware and how to flash it are in `hardware/pico/README.md`; the protocol is in
`docs/scanner-protocol.md`. Plug its USB into the Pi; `nestref wiring --config FILE`
then writes this guide for that build.

## The OLED

{oled}

## Status lights

Each LED from its GPIO through a 330 ohm resistor to ground:

| light | GPIO | header |
|---|---|---|
{light_rows}

What they show (and the cell LEDs too): steady for a fact, slow blinking (1 Hz) for what
to do next, fast blinking (4 Hz) for what is wrong. See `docs/daemon.md`.

## Buttons

{chr(10).join(button_lines)}

## One LED per cell (optional)

{cell_leds}

## Power

- The Pi, the OLED and the switches run from the 5 V supply through the Pi; the reed
  switches draw only the pull-up current (a few tenths of a milliampere) while closed.
- The MAX7219 runs at 5 V and draws up to about 300 mA with every LED lit at full
  brightness: feed its VCC from the 5 V pins next to the supply, with a 10 uF and a
  100 nF capacitor across VCC and GND at the module. Its logic inputs want 3.5 V for a
  high at 5 V: most modules work from the Pi's 3.3 V, but if yours misbehaves, put a
  74AHCT125 between the Pi and DIN, CLK and CS.
- Keep the matrix wires away from the MAX7219's wires, and twist each status LED's wire
  with its ground.
- Never feed 5 V into a GPIO pin: every GPIO is 3.3 V.
"""
