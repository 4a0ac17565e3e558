"""Drivers for the nest's hardware, each behind a small interface: the reed-switch matrix
on the Pi's GPIO (:mod:`.matrix`) or a Pico scanning it over a serial line
(:mod:`.serial_scanner`, :mod:`.scanner_protocol`), the OLED (:mod:`.display`), the
status and cell lights (:mod:`.lights`, drawing the values of :mod:`.outputs`; cell
lights of any colour on the Pico, :mod:`.pixel_lights`), the buttons (:mod:`.buttons`),
the strike pad's NFC reader (:mod:`.strike_pad`).

They wrap gpiozero, pyserial, luma and Adafruit's PN532 library, know no game and
nothing of ``firmware_host``, and raise :class:`.errors.DeviceError` for a device that is
not there. ``pico/`` holds the Pico's own firmware.
"""
