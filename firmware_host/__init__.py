"""nestref: the automatic referee for board games played on a real board, which runs on
the Raspberry Pi under it. ``docs/architecture.md`` shows its layers: the games
(:mod:`.games`), the referee, the daemon, the web page, the command line."""

__version__ = "0.1.0"
