"""nestref: the automatic referee for Operation Cuckoo that runs on the Raspberry Pi
under the nest. ``firmware_host.rules`` is its rules engine."""

__version__ = "0.1.0"
