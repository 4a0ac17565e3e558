"""The referee: from reed-switch changes to refereed moves, signals for the players,
and a record of every game. Pure code but for :mod:`store` (SQLite) and
:mod:`sensor_log` (reading logs)."""
