"""The wiring guide, written from the same config the daemon reads.

``wiring.md`` at the top of the repository is ``nestref wiring`` for the shipped
defaults, and a test checks that it still is: the pin map has one source. A builder
with a different config runs ``nestref wiring --config FILE`` for their own guide. A game
whose board the default matrix does not fit ships a build of its own
(:func:`build_config`): ``docs/wiring-battle.md`` is ``nestref wiring --game battle``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

from firmware_host.daemon.config import ID_PINS, UART_PORTS, Config, load_config
from firmware_host.games import load_game
from firmware_host.games.base import Board
from firmware_host.schematic import HEADER, PHYSICAL, schematic_svg, status_light_resistor
from firmware_host.wiring_lights import (
    lights_schematic_svg,
    pixel_lights_text,
    pixel_parts,
    strike_pad_parts,
    strike_pad_section,
)

PICO_CROSSINGS = 100  # the Pico's firmware scans up to 10 rows and 10 columns (hardware/pico)
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 16: "sixteen", 20: "twenty"}
SCHEMATIC = "docs/schematic.svg"  # the default config's schematic, committed, beside the nest's picture


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


@dataclass(frozen=True)
class NestBuild:
    """The physical build the guide is written for: the sizes that decide whether a
    piece closes its own switch and no other's. A config knows pins, not millimetres, so
    these are the guide's own, the same for every config; `docs/building.md` says how to
    check them on a build of your own."""

    pitch_mm: float = 30.0  # cell centre to cell centre: a 24 mm piece base, and room for fingers
    sheet_mm: float = 3.0  # the top sheet between a piece's magnet and its switch
    glass_mm: float = 12.7  # the reed switch's glass (Littelfuse MDSR-7: 12.70 mm max)
    glass_diameter_mm: float = 1.8  # MDSR-7: 1.80 mm max
    magnet_diameter_mm: float = 8.0
    magnet_thickness_mm: float = 3.0

    def magnet_to_reeds_mm(self) -> float:
        """From a piece's magnet (flush with its base) to the reeds: the sheet and half the glass."""
        return self.sheet_mm + self.glass_diameter_mm / 2

    def nearest_other_magnet_mm(self) -> float:
        """From a switch laid from its cell's centre towards the cell's north corner, to
        the nearest neighbour's magnet. The neighbours' centres lie 30 degrees off that
        line, one pitch away, so the glass's far end is the closest point of the switch.

        >>> round(NestBuild().nearest_other_magnet_mm(), 1)
        20.0
        """
        pitch, glass = self.pitch_mm, self.glass_mm
        return math.sqrt(pitch * pitch + glass * glass - 2 * pitch * glass * math.cos(math.radians(30)))

    def cells_area_mm(self, board: Board) -> tuple[float, float]:
        """Width and height the board's cells take at this pitch (north up), without a
        frame: a hexagon is a pitch wide and corner to corner 2/sqrt(3) pitches high.

        >>> [round(side) for side in NestBuild().cells_area_mm(load_game("cuckoo").board)]
        [270, 242]
        """
        centres = [board.centre(cell) for cell in board.cells]
        xs, ys = [x for x, _ in centres], [y for _, y in centres]
        tall = 2 / math.sqrt(3) if board.cell_shape == "hex" else 1.0
        return self.pitch_mm * (max(xs) - min(xs) + 1), self.pitch_mm * (max(ys) - min(ys) + tall)


BUILD = NestBuild()


# The MAX7219CNG's DIP-24 pins 1 to 24, from Maxim's datasheet (a build of loose LEDs wires DIG and SEG).
MAX7219_DIP_PINS = (
    "DIN", "DIG0", "DIG4", "GND", "DIG6", "DIG2", "DIG3", "DIG7", "GND", "DIG5", "DIG1", "LOAD/CS",
    "CLK", "SEG A", "SEG F", "SEG B", "SEG G", "ISET", "V+", "SEG C", "SEG E", "SEG DP", "SEG D", "DOUT",
)  # fmt: skip
MAX7219_DIP_TABLE = "\n".join(  # the two rows of the DIP side by side: pin 1 faces pin 24
    ["| pin | name | pin | name |", "|---:|---|---:|---|"]
    + [f"| {pin} | {MAX7219_DIP_PINS[pin - 1]} | {25 - pin} | {MAX7219_DIP_PINS[24 - pin]} |" for pin in range(1, 13)]
)


def is_default_build(config: Config) -> bool:
    """Whether the committed schematic is this config's: it draws the same."""
    return schematic_svg(config) == schematic_svg(load_config(None))


def game_schematic(game: str) -> str:
    """Where the schematic of ``game``'s shipped build is committed (``nestref --game GAME
    wiring --schematic`` draws it)."""
    return f"docs/schematic-{game}.svg"


def committed_schematic(config: Config) -> str | None:
    """The committed drawing of ``config``'s build, if it is a shipped one: the default
    config's, or a game's shipped build; ``None`` for a build of the builder's own."""
    if is_default_build(config):
        return SCHEMATIC
    build = build_config(config.game.name)
    if build is not None and schematic_svg(config) == schematic_svg(load_config(build, game=config.game.name)):
        return game_schematic(config.game.name)
    return None


def _made_from(config: Config) -> str:
    """Which config the guide was written from, and by which command."""
    if config.source == "default_config.toml":
        return "nestref's default config by `nestref wiring`"
    build = build_config(config.game.name)
    if build is not None and Path(config.source).resolve() == build.resolve():
        shipped = Path(shipped_config(config)).relative_to(INSTALLED)
        return (
            f"the {config.game.name} game's shipped build (`{shipped}`) by `nestref --game {config.game.name} wiring`"
        )
    return f"`{config.source}` by `nestref wiring --config {config.source}`"


# The status lights' colours: each side's in its own; the two others stand apart from both.
LIGHT_COLOURS = {"red_turn": "red", "blue_turn": "blue", "error": "yellow", "capture": "green"}


@dataclass(frozen=True)
class Part:
    """One line of the bill of materials."""

    name: str
    count: int | None  # None: as much as the build takes
    spec: str  # the part number, or the exact specification to buy by
    why: str


def bill_of_materials(config: Config, build: NestBuild = BUILD) -> list[Part]:
    """The parts ``config``'s nest needs, counted from the config."""
    nest = config.game.board
    cells = len(nest.cells)
    pieces = len(config.game.lineup_pieces(config.lineup))
    width, height = build.cells_area_mm(nest)
    parts = [
        Part(
            "Raspberry Pi",
            1,
            "Zero 2 WH (a Zero 2 W with its header fitted), or a 3B+, 4 or 5",
            "any Pi with the 40-pin header runs nestref; the Zero 2 W fits under the board",
        ),
        Part(
            "microSD card", 1, "8 GB or more, with Raspberry Pi OS Lite (Bookworm)", "the set-up steps below are for it"
        ),
        Part(
            "power supply",
            1,
            "5 V, 2.5 A, micro-USB (Zero 2 W, 3B+); 5 V, 3 A, USB-C (4); the 27 W USB-C supply (5)",
            "the Pi feeds the OLED, the switches and the LEDs",
        ),
        Part(
            "reed switch",
            cells,
            f"Littelfuse MDSR-7-15-20: normally open, glass {build.glass_mm} x {build.glass_diameter_mm} mm, "
            "pull-in 15-20 AT (or MDSR-10-15-20, 10.2 mm glass)",
            "one under every cell; the AT band suits the magnet and sheet below (see *Sensing a piece*); "
            "buy a few spares: the glass cracks if a lead is bent at it",
        ),
        Part(
            "diode",
            len(config.matrix),
            "1N4148, DO-35 (through-hole)",
            "one in series with every switch and matrix button: without them, three closed switches "
            "make a fourth look closed",
        ),
        Part(
            "magnet",
            pieces,
            f"neodymium disc {build.magnet_diameter_mm:g} x {build.magnet_thickness_mm:g} mm, grade N42, "
            "axially magnetised (poles on the flat faces), nickel-plated",
            "one flush in the base of every piece, the same pole down in every piece (see *Sensing a piece*)",
        ),
        Part(
            "piece",
            pieces,
            f"wooden or 3D-printed, a flat base {build.pitch_mm - 10:g} to {build.pitch_mm - 6:g} mm across with a "
            f"{build.magnet_diameter_mm:g} mm hole {build.magnet_thickness_mm:g} mm deep at its centre; "
            "each side's in its own colour",
            "the lineup's pieces; a base narrower than the pitch by 6 mm or more keeps neighbours from touching",
        ),
        Part(
            "top sheet",
            1,
            f"{build.sheet_mm:g} mm plywood, MDF or acrylic, at least {width:.0f} x {height:.0f} mm "
            f"(cells {build.pitch_mm:g} mm apart, centre to centre)",
            "the printed nest goes on top, the switches are glued under it",
        ),
        Part(
            "frame",
            1,
            "a box or frame the top sheet's size, 40 mm deep, open at the top",
            "the top sheet rests on it; beneath, room for the Pi, the wiring and the buttons",
        ),
        Part(
            "glue",
            None,
            "two-part epoxy; cyanoacrylate (or hot glue)",
            "epoxy for the magnets in the pieces (it fills the hole); cyanoacrylate for the switches under the sheet",
        ),
        Part(
            "push button",
            len(config.buttons),
            "momentary, normally open (6 x 6 mm tactile, or 12 mm panel-mount)",
            ", ".join(name.replace("_", " ") for name in config.buttons),
        ),
    ]
    if config.display.driver != "none":
        oled = {
            "ssd1306": '0.96" 128x64 I2C module with an SSD1306, 4 pins (GND, VCC, SCL, SDA), address 0x3C',
            "sh1106": '1.3" 128x64 I2C module with an SH1106, 4 pins (GND, VCC, SCL, SDA), address 0x3C',
        }[config.display.driver]
        parts.append(
            Part(
                "OLED",
                1,
                oled,
                "powered from 3.3 V: the module's pull-ups then hold SDA and SCL at 3.3 V, never 5 V; "
                "check the pin order printed on yours",
            )
        )
    lights = config.status_lights
    if lights:
        colours = ", ".join(f"{LIGHT_COLOURS[name]} ({name.replace('_', ' ')})" for name in lights)
        parts.append(Part("LED, 3 mm", len(lights), colours, "the status lights"))
        values = [status_light_resistor(name) for name in lights]
        resistors = ", ".join(
            f"{values.count(value)} x {value}" + (" (the blue LED)" if value != status_light_resistor("red") else "")
            for value in dict.fromkeys(values)
        )
        parts.append(
            Part(
                "resistor, 1/4 W",
                len(lights),
                resistors,
                "a few mA from a 3.3 V pin: (3.3 V - the LED's forward voltage) / R; "
                "a blue LED drops about 3 V, so it takes the smaller one",
            )
        )
    if config.cell_lights.driver == "max7219":
        parts += [
            Part("LED driver", 1, "MAX7219CNG (DIP-24) in a socket", "drives 64 LEDs from three SPI pins"),
            Part("LED, 3 mm, diffused", cells, "one colour", "one in every cell (the MAX7219 multiplexes them)"),
            Part("resistor", 1, "10 kohm (the MAX7219's RSET)", "sets the LED current, as on ready-made modules"),
            Part(
                "capacitors",
                2,
                "10 uF electrolytic and 100 nF ceramic",
                "across the MAX7219's V+ and GND, close to it (its datasheet asks for both)",
            ),
            Part(
                "level shifter",
                1,
                "74AHCT125",
                "optional: only if the MAX7219 misbehaves on 3.3 V logic (see *Power*)",
            ),
        ]
    parts += [Part(*part) for part in pixel_parts(config) + strike_pad_parts(config)]
    if config.sensors.backend == "serial":
        parts.append(
            Part(
                "Raspberry Pi Pico",
                1,
                "Pico (RP2040) with headers, and a micro-USB cable",
                "scans the matrix instead of the Pi (see *Or: a Pico scans the matrix*)",
            )
        )
    parts.append(
        Part(
            "wire",
            None,
            "solid-core hookup wire (0.6 mm, 22-24 AWG) or stripboard, a 2x20 female header or jumper wires",
            "rows and columns under the sheet; the header to the Pi",
        )
    )
    return parts


def bom_table(config: Config, build: NestBuild = BUILD) -> str:
    lines = ["| part | count | buy | why |", "|---|---:|---|---|"]
    for part in bill_of_materials(config, build):
        count = "" if part.count is None else str(part.count)
        lines.append(f"| {part.name} | {count} | {part.spec} | {part.why} |")
    return "\n".join(lines)


def sensing_text(config: Config, build: NestBuild = BUILD) -> str:
    """Why this switch, this magnet and this sheet: the reasons, and how to check them."""
    near = build.magnet_to_reeds_mm()
    far = build.nearest_other_magnet_mm()
    disc = f"{build.magnet_diameter_mm:g} x {build.magnet_thickness_mm:g} mm"
    return f"""A piece is seen when its magnet closes the reed switch under its cell, and must not
be seen from the next cell. The numbers this build is drawn for:

| | |
|---|---|
| cell pitch (centre to centre) | {build.pitch_mm:g} mm |
| top sheet | {build.sheet_mm:g} mm |
| magnet to the reeds | about {near:.1f} mm (the sheet, and half the glass) |
| the nearest other magnet to any part of the switch | {far:.1f} mm ({far / near:.1f} times as far) |

- **Not over the middle.** A magnet standing pole-down over the middle of a reed switch
  does not close it: both reeds take the same pole at the contacts and push apart. Over
  one *end* of the glass it does. So lay each switch flat under its cell with one end of
  its glass under the cell's centre and the glass running north, towards the cell's top
  corner: that line runs between two neighbours, as far from both as a switch can be.
  Crop the far lead short and bend it down, away from the next cell. (Standing the switch
  upright under the centre works too, if the frame is deep enough.)
- **Which pole down does not matter to the switch**, but make it the same in every piece:
  then pieces side by side push each other apart a little instead of snapping together.
  Stack all the magnets into one column, mark each one's top face, and glue every magnet
  marked face up.
- **Why 15-20 AT.** Ampere-turns do not convert into a field strength: how near a magnet
  closes a switch depends on the magnet's size and shape, the switch's leads and where the
  two sit (Littelfuse's note AN102A calls any rule of thumb good to a factor of two, and
  says one pole needs about twice the field of two). So the band is chosen for margin,
  in the middle of what the MDSR-7 is sold in (10-25 AT). For scale: a 3 x 7 mm NdFeB rod
  lying along a switch closes a 10-20 AT one from 7.5-11 mm and a 20-30 AT one from
  6.5-7.5 mm (RRE's tables for its SM-1322). The {disc} disc has three times that
  rod's volume of magnet and sits about {near:.0f} mm from the reeds, which leaves room for
  the single pole. A lower band closes from further off but is easier to shake closed
  (RRE's note on choosing the AT band); a higher one needs a thinner sheet or a stronger
  magnet.
- **The neighbour.** A magnet's field falls off about as the cube of the distance: at four
  times the distance it has a sixty-fourth of its strength. Keep every other magnet at
  least four times as far from any part of a switch as that switch's own magnet, here
  {4 * near:.0f} mm; the next cell's is {far:.1f} mm away. Cropping or bending leads changes a
  switch's AT, so treat every switch alike.
- **Check before you build {len(config.game.board.cells)} of them**: wire one switch and run the rehearsal in
  [docs/building.md](docs/building.md#rehearse-one-switch): `nestref calibrate` shows
  whether a piece on its cell closes it and a piece on the next cell does not.

Sources: Littelfuse's MDSR-7 datasheet (glass, AT bands) and application note AN102A
(ampere-turns against millitesla); Reed Relays and Electronics India's actuation
distances for the SM-1322 and its note on choosing the AT band; the question "How can I
set up a reed switch and magnets on an electronic chess board" on Electrical
Engineering Stack Exchange (no closure with the magnet over the middle); Maxim's MAX7219
datasheet (the supply capacitors, RSET, a high input at 3.5 V)."""


INSTALLED = Path("/opt/nestref")  # where step 2 of the Pi's set-up puts the repository
REPOSITORY = Path(__file__).resolve().parent.parent


def shipped_config(config: Config) -> str:
    """The file step 3 copies to ``/etc/nestref/config.toml``: the config this guide was
    written from, where the installed repository holds it (the daemon's defaults, or a
    game's shipped build), or the builder's own file as given."""
    if config.source == "default_config.toml":  # no --config: the daemon's own defaults
        return str(INSTALLED / "firmware_host" / "daemon" / "default_config.toml")
    source = Path(config.source).resolve()
    if source.is_relative_to(REPOSITORY):
        return str(INSTALLED / source.relative_to(REPOSITORY))
    return config.source


def pi_setup_text(config: Config) -> str:
    """The Pi's set-up, from a fresh card to the service running: the one place these
    steps are written (the README and docs/building.md point here)."""
    display, sensors = config.display, config.sensors
    commands: list[str] = []  # raspi-config's own commands, each with what it writes
    appended: list[str] = []  # lines raspi-config has no command for
    boot_lines: list[str] = []  # what /boot/firmware/config.txt then holds, and why
    console = ""
    if display.driver != "none":
        commands.append("sudo raspi-config nonint do_i2c 0          # dtparam=i2c_arm=on: the OLED, on I2C1")
        appended.append("dtparam=i2c_arm_baudrate=400000")
        boot_lines += [
            "dtparam=i2c_arm=on        # the OLED",
            "dtparam=i2c_arm_baudrate=400000  # redraws the OLED in a quarter of the time",
        ]
    if config.cell_lights.driver == "max7219":
        commands.append("sudo raspi-config nonint do_spi 0          # dtparam=spi=on: the MAX7219, on SPI0")
        boot_lines.append("dtparam=spi=on            # the MAX7219")
        if config.cell_lights.spi_device == 0:
            appended.append("dtoverlay=spi0-1cs")
            boot_lines.append("dtoverlay=spi0-1cs        # SPI0 uses CE0 only: frees GPIO7")
    if sensors.backend == "serial" and sensors.port in UART_PORTS:
        commands += [
            "sudo raspi-config nonint do_serial_cons 1  # no login console on the UART",
            "sudo raspi-config nonint do_serial_hw 0    # enable_uart=1: the Pico's readings on GPIO15",
        ]
        boot_lines.append("enable_uart=1             # the Pico's readings come in on GPIO15")
        console = (
            "\n\n   and `console=serial0,115200` is gone from `/boot/firmware/cmdline.txt` (the UART is\n"
            "   the Pico's, not a login console)."
        )
    elif {14, 15} & set(config.pins()):
        commands += [
            "sudo raspi-config nonint do_serial_cons 1  # no login console on GPIO14 and GPIO15",
            "sudo raspi-config nonint do_serial_hw 1    # enable_uart=0: GPIO14 and GPIO15 as plain GPIO",
        ]
        boot_lines.append("enable_uart=0             # GPIO14 and GPIO15 are used as plain GPIO: no serial console")
        console = "\n\n   and `console=serial0,115200` is gone from `/boot/firmware/cmdline.txt`."
    if appended:
        # Appended under [all], so that no [pi4]-style section of the file keeps them from other Pis.
        lines = "\\n".join(["[all]", *appended])
        commands.append(f"printf '{lines}\\n' | sudo tee -a /boot/firmware/config.txt")
    if commands:
        shell = "\n".join(f"   {line}" for line in [*commands, "sudo reboot"])
        listing = "\n".join(f"   {line}" for line in boot_lines)
        interfaces = f"""1. **Turn on what this build uses**, then reboot:

   ```sh
{shell}
   ```

   `/boot/firmware/config.txt` then holds (write these there by hand if you prefer):

   ```
{listing}
   ```{console}"""
    else:
        interfaces = "1. **Nothing to turn on**: this build uses no I2C, SPI or UART."
    checks = []
    if display.driver != "none":
        checks.append(f"`i2cdetect -y {display.i2c_bus}` shows `{display.i2c_address:02x}` (the OLED)")
    if config.cell_lights.driver == "max7219":
        checks.append(
            f"`/dev/spidev{config.cell_lights.spi_port}.{config.cell_lights.spi_device}` exists (the MAX7219)"
        )
    if sensors.backend == "serial":
        checks.append(f"`{sensors.port}` exists (the Pico)")
    check = ("; ".join(checks) + ".") if checks else "nothing to check here."
    return f"""These are nestref's only set-up steps (the README points here, and `nestref wiring
--config FILE` writes them for your config). On Raspberry Pi OS Bookworm (Lite is enough,
64- or 32-bit), on any Pi with the 40-pin header:

{interfaces}

2. **Install nestref** in `/opt/nestref` (`git clone` this repository there, or copy it),
   in its own environment, for a user of its own. The Pi's GPIO and SPI libraries
   (`lgpio`, `spidev`) come as wheels; the compiler and headers are for when one must be
   built:

   ```sh
   sudo apt install -y git python3-venv python3-dev gcc liblgpio-dev i2c-tools
   sudo python3 -m venv /opt/nestref/.venv && sudo /opt/nestref/.venv/bin/pip install /opt/nestref
   sudo useradd --system --home-dir /var/lib/nestref --groups gpio,i2c,spi,dialout nestref
   ```

   Then check the interfaces of step 1: {check}

3. **Make the config, and find where each switch sits** (every key is optional; see
   [docs/daemon.md](docs/daemon.md); `database` defaults to `/var/lib/nestref/games.sqlite`).
   What the walk asks, step by step: [docs/building.md](docs/building.md#calibrate).

   ```sh
   sudo mkdir -p /etc/nestref
   sudo cp {shipped_config(config)} /etc/nestref/config.toml
   sudo /opt/nestref/.venv/bin/nestref calibrate --config /etc/nestref/config.toml --write
   ```

4. **Run it as a service**, started at boot and restarted if it fails:

   ```sh
   sudo cp /opt/nestref/docs/nestref.service /etc/systemd/system/
   sudo systemctl daemon-reload && sudo systemctl enable --now nestref
   journalctl -u nestref -f
   ```

   The OLED then shows whose turn it is. To calibrate again later, `sudo systemctl stop
   nestref` first: the daemon holds the matrix's pins while it runs."""


def free_pins(config: Config) -> list[int]:
    """The GPIOs ``config`` leaves free (BCM numbers, the HAT ID pins kept free)."""
    uses = config.pins()
    return [gpio for gpio in sorted(PHYSICAL) if gpio not in uses and gpio not in ID_PINS]


def _pins_listed(pins: list[int]) -> str:
    return ", ".join(f"GPIO{gpio} (pin {PHYSICAL[gpio]})" for gpio in pins) or "none"


def buzzer_text(config: Config) -> str:
    """The piezo buzzer's section: this build's pin, how to wire a passive piezo (or an
    active buzzer), and which pins are free with each sensors backend."""
    sound = config.sound
    if sound.enabled:
        kind = "a passive piezo" if sound.buzzer == "tonal" else "an active buzzer"
        this_build = f"This build sounds {kind} on **GPIO{sound.pin} (pin {PHYSICAL[sound.pin]})** (`[sound] pin`)."
    else:
        this_build = (
            f"None in this build (`[sound] enabled = false`). `[sound] pin` is GPIO{sound.pin}"
            f" (pin {PHYSICAL[sound.pin]}) unless the config says otherwise; it must be a free pin."
        )
    quiet = dataclasses.replace(config, sound=dataclasses.replace(sound, enabled=False))
    other = "serial" if config.sensors.backend == "gpio" else "gpio"
    rows = []
    for backend in (config.sensors.backend, other):
        build = dataclasses.replace(quiet, sensors=dataclasses.replace(quiet.sensors, backend=backend))
        said = {"gpio": "the Pi scans the matrix (`gpio`)", "serial": "a Pico scans it (`serial`)"}[backend]
        rows.append(f"| {said}{' (this build)' if backend == config.sensors.backend else ''} | "
                    f"{_pins_listed(free_pins(build))} |")  # fmt: skip
    table = "\n".join(["| sensors backend | GPIOs free for the piezo, the rest of this config as it is |",
                        "|---|---|", *rows])  # fmt: skip
    return f"""{this_build} The cues it sounds are in `docs/clocks-and-sound.md`.

- **A passive piezo disc or transducer** (`buzzer = "tonal"`, the default): the GPIO pin,
  a **220 ohm resistor**, the piezo, ground. The resistor keeps the current into the
  piezo's capacitance at each edge under 15 mA (3.3 V / 220 ohm), within what a pin may
  give. The pin is switched at each note's frequency by software PWM (A3 to A7, 220 to
  3520 Hz), so any free pin will do.
- **An active buzzer** (`buzzer = "active"`: marked + and -, it sounds on its own from DC)
  or a magnetic transducer draws 20 to 40 mA, too much for a pin: drive it through an
  NPN transistor (2N2222 or BC547: GPIO, 1 kohm, base; emitter to ground; the buzzer
  between 3.3 V or 5 V and the collector), with a 1N4148 across a magnetic one (cathode
  to the supply) for the back-voltage when it switches off.

{table}

{_freeing_a_pin(config)} The config refuses a pin in use, naming what uses it."""


def _freeing_a_pin(config: Config) -> str:
    """How this build could free a pin for the piezo: only the ways it has."""
    ways = []
    lights = config.status_lights
    if lights:
        light = "capture" if "capture" in lights else next(iter(lights))
        ways.append(
            f'set a status light to `"none"` (the {light.replace("_", " ")} light, say:'
            f' `[status_lights] {light} = "none"`, then `[sound] pin` = its GPIO)'
        )
    if config.cell_lights.driver == "max7219":
        ways.append('build without the cell LEDs (`[cell_lights] driver = "none"` frees SPI0\'s GPIO8 to GPIO11)')
    if config.sensors.backend == "gpio":
        ways.append("let a Pico scan the matrix")
    if not ways:
        return "Every way of freeing a pin is taken in this build."
    return "With no pin free, give one up: " + ", or ".join(ways) + "."


def power_lines(config: Config) -> str:
    """The *Power* section's lines for what this build's cell LEDs are driven by."""
    if config.cell_lights.driver == "max7219":
        return """- The MAX7219 runs at 5 V and draws up to about 300 mA with every LED lit at full
  brightness: feed its VCC from the 5 V pins next to the supply, with a 10 uF and a
  100 nF capacitor across VCC and GND at the module. Its logic inputs want 3.5 V for a
  high at 5 V: most modules work from the Pi's 3.3 V, but if yours misbehaves, put a
  74AHCT125 between the Pi and DIN, CLK and CS.
- Keep the matrix wires away from the MAX7219's wires, and twist each status LED's wire
  with its ground."""
    if config.cell_lights.driver == "ws2812":
        return """- The cell LEDs have their own 5 V supply (see *One LED per cell*): its ground joined to
  the Pi's and the Pico's, its 5 V to neither.
- Keep the matrix wires away from the LEDs' data line, and twist each status LED's wire
  with its ground."""
    return "- Twist each status LED's wire with its ground, away from the matrix wires."


def build_config(game: str) -> Path | None:
    """The build of a nest that ``game`` ships for its usual board, if it has one (a game
    whose board the default 8x8 matrix does not fit; its folder's ``builds/<board>.toml``,
    :class:`~firmware_host.games.assets.GameAssets`): what ``nestref wiring --game GAME``
    writes its guide from when no ``--config`` is given."""
    found = load_game(game)
    return found.assets.build(found.board.name)


def _count(number: int) -> str:
    return NUMBER_WORDS.get(number, str(number))


def render_wiring(config: Config) -> str:
    """The whole guide for ``config``."""
    lights = config.status_lights
    light_rows = "\n".join(
        f"| {name.replace('_', ' ')} | GPIO{pin} | pin {PHYSICAL[pin]} | {status_light_resistor(name)} |"
        for name, pin in lights.items()
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
    matrix_pins = _count(len(sensors.rows) + len(sensors.columns))
    pico_note = (
        ""
        if crossings <= PICO_CROSSINGS
        else f""" Its firmware scans at most a 10x10 matrix ({PICO_CROSSINGS} crossings), fewer
than this build's {crossings}: the Pi scans this one."""
    )
    if sensors.backend == "gpio":
        fast, idle, asleep = sensors.scan_hz, sensors.idle_scan_hz, sensors.asleep_scan_hz
        sensing = f"""The Pi scans the matrix itself, {fast} times a second during a game ({idle} once
nobody has touched the nest for 30 s, {asleep} after 5 minutes, to save power): it drives
one row low at a time (the others stay high) and reads the columns, which have the Pi's
pull-ups on. A closed switch on the driven row pulls its column low through its diode.
A flicker shorter than one scan ({1000 // sensors.scan_hz} ms) is not seen: a captured piece pushed off
faster than that leaves no trace, and the referee learns of the capture from the reply,
or asks. The serial scanner (below) latches flickers down to 1 ms."""
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
    if nest.name == load_game(config.game.name).board.name:
        picture = f"![The nest and its cells](docs/{nest.name}.svg)"
    else:  # a board of the builder's own: its picture is theirs to draw
        picture = (
            f"The nest `{nest.name}`: `nestref --board FILE board --svg nest.svg` draws it with every cell's name."
        )
    drawing = committed_schematic(config)
    if drawing is not None:
        schematic = f"![The schematic: the switch matrix, the Pi's pins, the OLED, the LEDs and buttons]({drawing})"
    else:  # the committed drawings are the shipped builds'
        schematic = "`nestref wiring --config FILE --schematic schematic.svg` draws the schematic of this build."
    cells = config.cell_lights
    if cells.driver == "ws2812":
        build = build_config(config.game.name)
        shipped = build is not None and lights_schematic_svg(config) == lights_schematic_svg(
            load_config(build, game=config.game.name)
        )
        cell_leds = pixel_lights_text(config, is_shipped_build=shipped)
    elif cells.driver == "max7219":
        ce = {0: "GPIO8 (CE0, pin 24)", 1: "GPIO7 (CE1, pin 26)"}[cells.spi_device]
        leds = f"{cell_count} LEDs"
        cell_leds = f"""A MAX7219 drives an 8x8 LED matrix (a ready-made module, or {leds} of your own: the LED
at (x, y) then sits between digit line DIG x and the segment line for bit y, bit 0 being
SEG G and bit 7 SEG DP). Wire it to SPI0: **DIN** (its pin 1) to GPIO10 (MOSI, pin 19), **CLK**
(its pin 13) to GPIO11 (SCLK, pin 23), **LOAD/CS** (its pin 12) to {ce}, **V+** (its pin 19) to
5 V (pin 2), **GND** (its pins 4 and 9) to ground, and the 10 kohm RSET from **ISET** (its pin 18)
to V+. The MAX7219CNG's pins (DIP-24, pin 1 at the notch's left, counted anticlockwise seen from
above; Maxim's datasheet), for a build of your own LEDs:

{MAX7219_DIP_TABLE}

Which LED lights for which cell:

{led_table(config)}

Set `[cell_lights] driver = "none"` if you build without it."""
    else:
        cell_leds = """None in this build (`[cell_lights] driver = "none"`). With a MAX7219 and an 8x8
LED matrix on SPI0, the nest shows which cells to put right, the pieces that must
capture and the setup for the next game; `nestref wiring` with `driver = "max7219"`
gives the wiring."""
    return f"""# Wiring the nest

How to build the electronics of a nest for nestref: a reed switch under every cell, a
Raspberry Pi (Zero 2 W or larger) under the board, an OLED, {_count(len(lights))} status LEDs, three
buttons and, optionally, one LED per cell.
This guide is generated from {_made_from(config)}; a test keeps it in step with the code. With your own config,
run `nestref wiring --config /etc/nestref/config.toml` for a guide to your build. The
order of the work, a rehearsal with one switch, and the calibration walk are in
[docs/building.md](docs/building.md).

{picture}

{schematic}

## Parts

Counted from the config; the part numbers are what this guide's sizes were worked out
for (a part of the same specification does as well).

{bom_table(config)}

## Sensing a piece

{sensing_text(config)}

## Setting up the Pi

{pi_setup_text(config)}

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
and sends full snapshots over USB, so the Pi's {matrix_pins} matrix pins stay free. Its pins,
its firmware and how to flash it are in `hardware/pico/README.md`; the protocol is in
`docs/scanner-protocol.md`. Plug its USB into the Pi; `nestref wiring --config FILE`
then writes this guide for that build.{pico_note}

## The OLED

{oled}

## Status lights

Each LED from its GPIO through its resistor to ground (the blue LED drops about 3 V, so it
takes the smaller one):

| light | GPIO | header | resistor |
|---|---|---|---|
{light_rows}

What they show (and the cell LEDs too): steady for a fact, slow blinking (1 Hz) for what
to do next, fast blinking (4 Hz) for what is wrong. See `docs/daemon.md`.

## Buttons

{chr(10).join(button_lines)}

## One LED per cell (optional)

{cell_leds}

## The piezo buzzer (optional)

{buzzer_text(config)}

{strike_pad_section(config)}## Power

- The Pi, the OLED and the switches run from the 5 V supply through the Pi; the reed
  switches draw only the pull-up current (a few tenths of a milliampere) while closed.
{power_lines(config)}
- Never feed 5 V into a GPIO pin: every GPIO is 3.3 V.
"""
