"""The OLED: a 128x64 monochrome SSD1306 or SH1106 on I2C, driven with luma.oled.

Screens are drawn with the bitmap fonts luma ships (8 pixels high), so a screen is the
same pixels on every machine and the tests compare it with reference images. The
headline is drawn twice the size, to be read from across the table.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from luma.core.legacy import text, textsize
from luma.core.legacy.font import CP437_FONT, TINY_FONT, proportional
from PIL import Image, ImageDraw

from hardware.errors import DeviceError
from hardware.outputs import Screen, WiringErrors

WIDTH, HEIGHT = 128, 64
LINE_FONT = proportional(CP437_FONT)  # the headline and the lines
FOOTER_FONT = proportional(TINY_FONT)
LINE_WIDTH = WIDTH - 4  # a line's and the footer's, from x = 2 to 2 pixels short of the edge


def _fit(line: str, font: Any, width: int) -> str:
    """``line``, cut short with ``..`` if it is wider than ``width`` pixels."""
    if textsize(line, font=font)[0] <= width:
        return line
    while line and textsize(line + "..", font=font)[0] > width:
        line = line[:-1]
    return line + ".."


def render(screen: Screen) -> Image.Image:
    """The screen as a 128x64 one-bit image."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    band = 8 * 2 + 2
    if screen.alert:  # dark letters on a lit band
        draw.rectangle((0, 0, WIDTH - 1, band - 1), fill=1)
    big = _headline(screen.headline, screen.alert)
    image.paste(big, ((WIDTH - big.width) // 2, 1))
    for row, line in enumerate(screen.lines[:3]):
        drawn = _line(line, LINE_FONT)
        image.paste(drawn, (2, band + 2 + row * 10), drawn)  # its lit pixels alone, as drawing them would
    if screen.footer:
        draw.line((0, HEIGHT - 9, WIDTH - 1, HEIGHT - 9), fill=1)
        drawn = _line(screen.footer, FOOTER_FONT)
        image.paste(drawn, (2, HEIGHT - 7), drawn)
    return image


# A line's pixels are drawn once per text and kept: luma's bitmap fonts draw a pixel at a
# time, several Python calls a lit pixel, and the frame drawn after a move waits for them
# (docs/performance.md). The screens' texts are few and repeat.


@functools.lru_cache(maxsize=64)
def _headline(headline: str, alert: bool) -> Image.Image:
    """The headline, drawn at 8 pixels, then doubled unless that is too wide."""
    headline = _fit(headline, LINE_FONT, WIDTH)
    width = textsize(headline, font=LINE_FONT)[0]
    ink, paper = (0, 1) if alert else (1, 0)
    small = Image.new("1", (max(width, 1), 8), paper)
    text(ImageDraw.Draw(small), (0, 0), headline, fill=ink, font=LINE_FONT)
    scale = 2 if width * 2 <= WIDTH - 4 else 1
    return small.resize((small.width * scale, 8 * scale), Image.Resampling.NEAREST)


@functools.lru_cache(maxsize=256)
def _line(line: str, font: Any) -> Image.Image:
    """``line`` in ``font``, cut to fit a line: its lit pixels on dark."""
    line = _fit(line, font, LINE_WIDTH)
    drawn = Image.new("1", (max(textsize(line, font=font)[0], 1), 8), 0)
    text(ImageDraw.Draw(drawn), (0, 0), line, fill=1, font=font)
    return drawn


class OledDisplay:
    """Screens on a luma device (a real OLED, or luma's dummy device in the tests), drawn
    only when the screen changes.

    With ``background``, frames go to the device from a thread of their own: sending a
    frame over I2C takes some 25 ms at 400 kHz (95 ms at the default 100 kHz), and the
    loop must not stop scanning meanwhile. Only the newest frame waits; one the thread
    has not sent yet is replaced. A frame that fails (a loose wire) is logged, at most
    once a minute, and the next one is tried."""

    def __init__(self, device: Any, *, background: bool = False) -> None:
        self.device = device
        self._shown: Screen | None = None
        self.image: Image.Image = Image.new(device.mode, (WIDTH, HEIGHT), 0)  # the last frame drawn
        self.frames = 0  # screens drawn
        self._lock = threading.Lock()
        self._frame_ready = threading.Condition(self._lock)
        self._waiting: Image.Image | None = None
        self._busy = False
        self._stopping = False
        self._errors = WiringErrors()
        self._thread: threading.Thread | None = None
        if background:
            self._thread = threading.Thread(target=self._send_frames, name="oled", daemon=True)
            self._thread.start()

    def show(self, screen: Screen) -> bool:
        """Draw ``screen`` unless it is already shown; whether it drew."""
        if screen == self._shown:
            return False
        image = render(screen).convert(self.device.mode)
        self._shown, self.image = screen, image
        self.frames += 1
        if self._thread is None:
            self.device.display(image)
        else:
            with self._lock:
                self._waiting = image
                self._frame_ready.notify()
        return True

    def wait_sent(self, timeout: float = 5.0) -> bool:
        """Whether every frame was sent to the device within ``timeout`` seconds."""
        with self._lock:
            return self._frame_ready.wait_for(lambda: self._waiting is None and not self._busy, timeout)

    def clear(self) -> None:
        """Blank the screen (on shutdown); the background thread stops."""
        if self._thread is not None:
            with self._lock:
                self._stopping, self._waiting = True, None
                self._frame_ready.notify_all()
            self._thread.join(timeout=2.0)
            self._thread = None
        self.device.clear()
        self._shown, self.image = None, Image.new(self.device.mode, (WIDTH, HEIGHT), 0)

    @property
    def screen(self) -> Screen | None:
        """The screen shown, if any."""
        return self._shown

    def _send_frames(self) -> None:
        while True:
            with self._lock:
                self._frame_ready.wait_for(lambda: self._waiting is not None or self._stopping)
                if self._stopping:
                    return
                image, self._waiting, self._busy = self._waiting, None, True
            try:
                self.device.display(image)
            except OSError as error:
                self._errors.log("OLED", error)
            finally:
                with self._lock:
                    self._busy = False
                    self._frame_ready.notify_all()


def open_oled(driver: str, *, bus: int, address: int, rotate: int) -> Any:
    """The luma device for a real OLED. Raises :class:`DeviceError` saying what to
    check when it is not there."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    device_class = {"ssd1306": ssd1306, "sh1106": sh1106}[driver]
    try:
        # persist: the last screen stays up if the daemon stops without clearing it.
        return device_class(i2c(port=bus, address=address), rotate=rotate, persist=True)
    except (DeviceNotFoundError, DevicePermissionError, OSError) as error:
        raise DeviceError(
            f"display: no {driver} on I2C bus {bus} at address 0x{address:02X} ({error});"
            " check the wiring, that I2C is on (raspi-config), and `i2cdetect -y 1`"
        ) from None
