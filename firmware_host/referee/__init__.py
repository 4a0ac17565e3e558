"""The referee: from reed-switch changes to refereed moves, signals for the players,
for the record above it (:mod:`firmware_host.recorder`). Pure code but for :mod:`sensor_log`
(reading logs)."""
