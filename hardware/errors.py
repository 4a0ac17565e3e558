"""The drivers' own error: they know nothing of what runs above them."""

from __future__ import annotations


class DeviceError(RuntimeError):
    """A device cannot be opened or used: no display on the I2C address, no MAX7219 on
    the SPI port. The message says which and how to check."""
