"""The nest's schematic, drawn as an SVG from the config, like the tables of wiring.md.

``docs/schematic.svg`` is ``nestref wiring --schematic`` for the shipped defaults, and a
test checks that it still is. It shows what a builder solders: the switch matrix (a
diode in series with every switch, its band towards the row), the Pi's header with the
config's pins, the OLED on I2C, the LED driver on SPI, the status lights and the buttons.
Wires between the header and the parts are drawn as net labels (the same GPIO name is
the same wire), so that the drawing stays readable at 64 crossings.
"""

from __future__ import annotations

from html import escape  # (xml.sax.saxutils would load urllib, http and ssl at start-up)

from firmware_host.daemon.config import SPI_CE_PINS, Config


def status_light_resistor(light: str) -> str:
    """The resistor in series with a status light's LED, from a 3.3 V pin to a few mA:
    (3.3 V - the LED's forward voltage) / R. A blue LED drops about 3 V, so it takes the
    smaller one. The one place this is decided: the parts list, the guide's table and the
    schematic all read it."""
    return "150 ohm" if light.startswith("blue") else "330 ohm"


# The 40-pin header: physical pin -> BCM GPIO number, or the supply it carries.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
PHYSICAL = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}

_ROW_COLOUR, _COLUMN_COLOUR, _WIRE = "#1565c0", "#2e7d32", "#333"
_CELL_W, _CELL_H = 76, 58  # one crossing of the matrix
_HEADER_X, _HEADER_TOP, _PIN_STEP = 210, 110, 24  # the header's odd pins' column, first pin, pitch
_MATRIX_LEFT, _MATRIX_TOP = 640, 130


def pin_labels(config: Config) -> dict[int, str]:
    """Every GPIO the config uses, in the few words the drawing gives it."""
    labels: dict[int, str] = {0: "(leave free)", 1: "(leave free)"}
    if config.sensors.backend == "gpio":
        labels.update({pin: f"row {r}" for r, pin in enumerate(config.sensors.rows)})
        labels.update({pin: f"col {c}" for c, pin in enumerate(config.sensors.columns)})
    if config.display.driver != "none":
        labels.update({2: "OLED SDA", 3: "OLED SCL"})
    if config.cell_lights.driver == "max7219":
        device = config.cell_lights.spi_device
        labels.update({9: "(SPI MISO)", 10: "MAX7219 DIN", 11: "MAX7219 CLK", SPI_CE_PINS[device]: "MAX7219 CS"})
        if device == 1:  # the kernel's SPI driver claims CE0 as well
            labels[SPI_CE_PINS[0]] = "(SPI CE0)"
    uses = config.pins()
    if 14 in uses and uses[14].startswith("sensors: UART"):
        labels.update({14: "(UART TX)", 15: "Pico TX"})
    labels.update({pin: f"{name.replace('_', ' ')} LED" for name, pin in config.status_lights.items()})
    labels.update({pin: f"{name.replace('_', ' ')} button" for name, pin in config.buttons.items() if pin is not None})
    return labels


def _net(gpio: int | str) -> str:
    """A net label's text: the GPIO (or supply) and its header pin."""
    if isinstance(gpio, int):
        return f"GPIO{gpio} (pin {PHYSICAL[gpio]})"
    return {"3V3": "3V3 (pin 1)", "5V": "5V (pin 2)", "GND": "GND"}[gpio]


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start", extra: str = "") -> str:
    body = escape(text, quote=False)
    return f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}"{extra}>{body}</text>'


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = _WIRE, width: float = 1.5) -> str:
    return f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="{colour}" stroke-width="{width}"/>'


def _dot(x: float, y: float, colour: str = _WIRE) -> str:
    return f'<circle cx="{x:.0f}" cy="{y:.0f}" r="2.5" fill="{colour}"/>'


def _net_label(x: float, y: float, text: str, *, anchor: str = "end") -> str:
    """A flag with the net's name, its point at (x, y)."""
    width = 7 * len(text) + 10
    left = x - width if anchor == "end" else x
    return (
        f'<rect class="net" x="{left:.0f}" y="{y - 9:.0f}" width="{width}" height="18" rx="3" '
        f'fill="#fff8e1" stroke="#a1887f"/>' + _text(left + width / 2, y + 4, text, size=11, anchor="middle")
    )


def _diode(x: float, y: float) -> str:
    """A diode from x (anode) to x + 10 (cathode, the band), pointing right."""
    return (
        f'<g class="diode"><polygon points="{x:.0f},{y - 5:.0f} {x:.0f},{y + 5:.0f} {x + 10:.0f},{y:.0f}" '
        f'fill="{_WIRE}"/>' + _line(x + 10, y - 5, x + 10, y + 5, width=2) + "</g>"
    )


def _led(x: float, y: float) -> str:
    """An LED from x (anode) to x + 12 (cathode), with its two arrows of light."""
    arrows = "".join(_line(x + 3 + dx, y - 8, x + 8 + dx, y - 13, width=1) for dx in (0, 5))
    return (
        f'<g class="led"><polygon points="{x:.0f},{y - 6:.0f} {x:.0f},{y + 6:.0f} {x + 12:.0f},{y:.0f}" '
        f'fill="white" stroke="{_WIRE}"/>' + _line(x + 12, y - 6, x + 12, y + 6, width=2) + arrows + "</g>"
    )


def _switch(x: float, y: float, *, push: bool) -> str:
    """A normally open contact from x to x + 18: a reed switch, or a push button."""
    parts = [
        f'<circle cx="{x:.0f}" cy="{y:.0f}" r="2" fill="none" stroke="{_WIRE}"/>',
        f'<circle cx="{x + 18:.0f}" cy="{y:.0f}" r="2" fill="none" stroke="{_WIRE}"/>',
    ]
    if push:
        parts += [_line(x, y - 6, x + 18, y - 6), _line(x + 9, y - 6, x + 9, y - 11)]
    else:
        parts.append(_line(x + 2, y, x + 17, y - 8))
    return "".join(parts)


def _ground(x: float, y: float) -> str:
    return _line(x, y, x, y + 6) + _line(x - 8, y + 6, x + 8, y + 6) + _line(x - 5, y + 9, x + 5, y + 9)


def _header(config: Config) -> list[str]:
    labels = pin_labels(config)
    bottom = _HEADER_TOP + 19 * _PIN_STEP
    parts = [
        _text(_HEADER_X + 15, _HEADER_TOP - 38, "Raspberry Pi: the 40-pin header", size=14, anchor="middle"),
        _text(
            _HEADER_X + 15, _HEADER_TOP - 22, "(BCM numbers; pin 1 is next to the SD card)", size=11, anchor="middle"
        ),
        f'<rect x="{_HEADER_X - 14}" y="{_HEADER_TOP - 14}" width="58" height="{bottom - _HEADER_TOP + 28}" '
        f'fill="#eeeeee" stroke="{_WIRE}"/>',
    ]
    for pin, gpio in HEADER.items():
        left = pin % 2 == 1
        x = _HEADER_X if left else _HEADER_X + 30
        y = _HEADER_TOP + (pin - 1) // 2 * _PIN_STEP
        name = gpio if isinstance(gpio, str) else f"GPIO{gpio}"
        use = labels.get(gpio, "") if isinstance(gpio, int) else ""
        words = f"{use}  {name}" if left else f"{name}  {use}"
        data = f' data-gpio="{gpio}"' if isinstance(gpio, int) else ""
        fill = {"3V3": "#ef6c00", "5V": "#c62828", "GND": "#212121"}.get(str(gpio), "#ffffff")
        parts.append(
            f'<g class="pin" data-pin="{pin}"{data}>'
            f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="{_WIRE}"/>'
            + _text(
                x,
                y + 4,
                str(pin),
                size=9,
                anchor="middle",
                extra=' fill="#888"' if fill == "#ffffff" else ' fill="white"',
            )
            + _text(x - 14 if left else x + 14, y + 4, words.strip(), size=12, anchor="end" if left else "start")
            + "</g>"
        )
    return parts


def _matrix(config: Config) -> list[str]:
    rows, columns = config.sensors.size
    at = {position: name for name, position in config.matrix.items()}
    gpio = config.sensors.backend == "gpio"
    right = _MATRIX_LEFT + columns * _CELL_W
    bottom = _MATRIX_TOP + rows * _CELL_H
    title = "The switch matrix: a reed switch and a diode at every crossing"
    parts = [_text((_MATRIX_LEFT + right) / 2, _MATRIX_TOP - 78, title, size=14, anchor="middle")]
    for c in range(columns):
        x = _MATRIX_LEFT + c * _CELL_W + 8
        label = f"GPIO{config.sensors.columns[c]}" if gpio else "Pico"
        parts += [
            f'<g class="column" data-column="{c}">',
            _text(x, _MATRIX_TOP - 38, f"col {c}", size=12, anchor="middle", extra=f' fill="{_COLUMN_COLOUR}"'),
            _text(x, _MATRIX_TOP - 24, label, size=11, anchor="middle", extra=f' fill="{_COLUMN_COLOUR}"'),
            _line(x, _MATRIX_TOP - 16, x, bottom - 8, _COLUMN_COLOUR, 2),
            "</g>",
        ]
    for r in range(rows):
        y = _MATRIX_TOP + r * _CELL_H + _CELL_H - 8
        label = (
            f"row {r}: GPIO{config.sensors.rows[r]} (pin {PHYSICAL[config.sensors.rows[r]]})" if gpio else f"row {r}"
        )
        parts += [
            f'<g class="row" data-row="{r}">',
            _line(_MATRIX_LEFT - 10, y, right, y, _ROW_COLOUR, 2),
            _text(_MATRIX_LEFT - 14, y + 4, label, size=12, anchor="end", extra=f' fill="{_ROW_COLOUR}"'),
            "</g>",
        ]
        for c in range(columns):
            name = at.get((r, c))
            if name is None:
                continue
            x, ya = _MATRIX_LEFT + c * _CELL_W + 8, _MATRIX_TOP + r * _CELL_H + 16
            button = name in config.buttons
            parts += [
                f'<g class="{"button" if button else "switch"}" data-name="{escape(name)}">',
                _dot(x, ya, _COLUMN_COLOUR),
                _line(x, ya, x + 10, ya),
                _switch(x + 10, ya, push=button),
                _line(x + 28, ya, x + 36, ya),
                _diode(x + 36, ya),
                _line(x + 46, ya, x + 56, ya),
                _line(x + 56, ya, x + 56, y),
                _dot(x + 56, y, _ROW_COLOUR),
                _text(x + 19, ya + 17, name.replace("_", " "), size=11, anchor="middle", extra=' font-weight="bold"'),
                "</g>",
            ]
    how = (
        "Rows are driven low one at a time; columns are read with the Pi's pull-ups."
        if gpio
        else "A Raspberry Pi Pico scans this matrix: its pins are in hardware/pico/README.md."
    )
    parts += [
        _text(_MATRIX_LEFT - 10, bottom + 18, how, size=12),
        _text(_MATRIX_LEFT - 10, bottom + 34, "Each diode's band (cathode) faces the row.", size=12),
    ]
    return parts


def _box(x: float, y: float, width: float, title: str, pins: list[tuple[str, str]], notes: list[str]) -> list[str]:
    """A part: a box with its pins on the left, each wired to a net label."""
    height = 30 + 24 * len(pins) + 16 * len(notes)
    parts = [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="{height}" fill="#f5f5f5" stroke="{_WIRE}"/>',
        _text(x + 10, y + 20, title, size=13, extra=' font-weight="bold"'),
    ]
    for k, (pin, net) in enumerate(pins):
        py = y + 44 + 24 * k
        parts += [
            _line(x - 30, py, x, py),
            _text(x + 8, py + 4, pin, size=12),
            _net_label(x - 30, py, net),
        ]
    for k, note in enumerate(notes):
        parts.append(_text(x + 10, y + 40 + 24 * len(pins) + 16 * k, note, size=11))
    return parts


def _peripherals(config: Config, top: float) -> tuple[list[str], float]:
    """The OLED, the LED driver, the status lights and the buttons on pins; the drawing's new bottom."""
    parts: list[str] = []
    x, bottom = 150.0, top
    display = config.display
    if display.driver != "none":
        parts.append('<g class="oled">')
        pins = [("VCC", _net("3V3")), ("GND", _net("GND")), ("SCL", _net(3)), ("SDA", _net(2))]
        notes = [f"{display.driver}, 128x64, I2C bus {display.i2c_bus}", f"address 0x{display.i2c_address:02X}"]
        parts += _box(x, top, 190, "OLED", pins, notes)
        parts.append("</g>")
        x += 360
        bottom = max(bottom, top + 30 + 24 * len(pins) + 16 * len(notes))
    cells = config.cell_lights
    if cells.driver == "max7219":  # (a WS2812 chain hangs off the Pico: docs/schematic-<game>-lights.svg)
        ce = SPI_CE_PINS[cells.spi_device]
        parts.append('<g class="led-driver">')
        pins = [("V+", _net("5V")), ("GND", _net("GND")), ("DIN", _net(10)), ("CLK", _net(11)), ("LOAD/CS", _net(ce))]
        notes = [
            "10 uF + 100 nF across V+ and GND",
            "RSET 10 kohm from ISET to V+",
            "DIG 0-7 and SEG DP, A-G: the cell LEDs",
            "(which LED for which cell: wiring.md)",
        ]
        parts += _box(x, top, 250, "MAX7219 (cell LEDs)", pins, notes)
        parts.append("</g>")
        x += 420
        bottom = max(bottom, top + 30 + 24 * len(pins) + 16 * len(notes))
    if config.sensors.backend == "serial":
        parts.append('<g class="pico">')
        pins = [("USB", f"the Pi's USB ({config.sensors.port})")]
        if config.pins().get(15, "").startswith("sensors: UART"):
            pins = [("GP0 (TX)", _net(15)), ("GND", _net("GND")), ("VSYS", _net("5V"))]
        parts += _box(x, top, 230, "Raspberry Pi Pico", pins, ["scans the matrix above"])
        parts.append("</g>")
        x += 400
        bottom = max(bottom, top + 30 + 24 * len(pins) + 16)
    # The status lights and the buttons on pins, one per line: GPIO, then the part, then ground.
    y = bottom + 60
    singles: list[tuple[str, int, str]] = [
        (f"{name.replace('_', ' ')} light", pin, "light") for name, pin in config.status_lights.items()
    ]
    singles += [
        (f"{name.replace('_', ' ')} button", pin, "pin-button")
        for name, pin in config.buttons.items()
        if pin is not None
    ]
    kinds = {kind for _, _, kind in singles}
    if singles:
        title = {"light": "Status lights", "pin-button": "Buttons on their own pins"}
        heading = " and ".join(title[kind] for kind in ("light", "pin-button") if kind in kinds)
        parts.append(_text(150, y - 30, heading.capitalize(), size=14))
    for k, (name, pin, kind) in enumerate(singles):
        sx, sy = 150 + (k % 3) * 360, y + (k // 3) * 60
        parts += [
            f'<g class="{kind}" data-gpio="{pin}">',
            _net_label(sx + 120, sy, _net(pin)),
            _line(sx + 120, sy, sx + 150, sy),
        ]
        if kind == "light":
            resistor = status_light_resistor(name)
            parts += [
                f'<rect x="{sx + 150}" y="{sy - 5}" width="30" height="10" fill="white" stroke="{_WIRE}"/>',
                _text(sx + 165, sy - 9, resistor, size=10, anchor="middle"),
                _line(sx + 180, sy, sx + 196, sy),
                _led(sx + 196, sy),
                _line(sx + 208, sy, sx + 222, sy),
            ]
        else:
            parts += [
                _line(sx + 150, sy, sx + 170, sy),
                _switch(sx + 170, sy, push=True),
                _line(sx + 188, sy, sx + 222, sy),
            ]
        parts += [_ground(sx + 222, sy), _text(sx + 240, sy + 4, name, size=12), "</g>"]
    if singles:
        y += ((len(singles) + 2) // 3) * 60
    return parts, y


def schematic_svg(config: Config) -> str:
    """The schematic of ``config``'s build as an SVG document."""
    rows, columns = config.sensors.size
    matrix_bottom = _MATRIX_TOP + rows * _CELL_H + 40
    header_bottom = _HEADER_TOP + 20 * _PIN_STEP
    peripherals, bottom = _peripherals(config, max(matrix_bottom, header_bottom) + 50)
    notes_y = bottom + 20
    width = max(_MATRIX_LEFT + columns * _CELL_W + 30, 1240)
    height = notes_y + 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'font-family="sans-serif">',
        f"<title>nestref: the schematic of the nest {escape(config.game.board.name, quote=False)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
        _text(20, 30, f"nestref: wiring the nest {config.game.board.name}", size=18, extra=' font-weight="bold"'),
        *_header(config),
        *_matrix(config),
        *peripherals,
        _text(
            20,
            notes_y,
            "A flag names a wire's other end: the same GPIO on a flag and on the header is one wire.",
            size=12,
        ),
        _text(
            20,
            notes_y + 18,
            "Every GPIO is 3.3 V: never connect 5 V to one. Pin map, tables and parts: wiring.md.",
            size=12,
        ),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
