"""The web page and its server: the simulator's page, and, read-only, the real nest's page
for spectators (``nestref run --web``)."""
