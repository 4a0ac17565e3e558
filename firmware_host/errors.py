"""The one exception tree of nestref.

Every error nestref raises on purpose derives from :class:`NestrefError`; each leaf
also derives from the builtin it refines, so callers that only know the builtin
(``ValueError``) still catch it.
"""

from hardware.errors import DeviceError


class NestrefError(Exception):
    """Root of every error nestref raises on purpose."""


class BoardFileError(NestrefError, ValueError):
    """A board file cannot be read or does not describe a valid nest.

    The message starts with the file's path and names the key or cell at fault.
    """


class NotationError(NestrefError, ValueError):
    """A move, cell or position (NFN) in text form cannot be read."""


class GameSetError(NestrefError, ValueError):
    """A result was recorded for a set that is already decided."""


class ConfigError(NestrefError, ValueError):
    """The daemon's config file cannot be read or is not valid; the message starts with
    the file's path and names the key."""


class HardwareError(NestrefError, DeviceError):
    """A device the config names cannot be opened: no display on the I2C address, a
    pin that cannot be claimed, no serial port. The message says which and how to check."""
