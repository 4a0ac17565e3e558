"""What the page shows, as the protocol's messages: read from the daemon's snapshot,
never from its insides."""

from __future__ import annotations

import base64
import io
from typing import Any

from PIL import Image

from firmware_host.daemon import Daemon, Snapshot
from firmware_host.games.base import Side
from firmware_host.web.protocol import TableActions
from hardware.display import render
from hardware.outputs import Screen


class Picture:
    """What the page shows, from the daemon's snapshot, as protocol messages; the OLED's
    image encoded again only when a new frame was drawn."""

    def __init__(self, daemon: Daemon, table: TableActions | None) -> None:
        self.daemon = daemon
        self.table_actions = table
        self._oled: tuple[object, dict[str, Any]] | None = None  # what was drawn, and its message
        self._public_oled: tuple[Screen, dict[str, Any]] | None = None  # the same without the PIN

    def geometry(self) -> dict[str, Any]:
        """How the board's cells are cut and where each one's centre is, in cell pitches
        (x east, y north): what the page draws a board by, whatever the game."""
        board = self.daemon.config.game.board
        return {"shape": board.cell_shape, "cells": {cell: list(board.centre(cell)) for cell in board.cells}}

    def table(self, snapshot: Snapshot) -> dict[str, Any]:
        """The pieces on the nest: the simulated table's, or on the real nest the game's as
        recorded; for a game that hides pieces, each drawn as everybody may see it (a
        rank only where a strike or a run showed it: the snapshot holds no other)."""
        position = snapshot.game.position
        if self.table_actions is not None:
            message = self.table_actions.table_message()
            if position is not None and self.daemon.config.game.hidden is not None:
                # A piece of the side the game shows there: drawn with its rank.
                shown, cells = position.letters, message["cells"]
                message["cells"] = {
                    cell: shown[cell] if cell in shown and shown[cell].isupper() == letter.isupper() else letter
                    for cell, letter in cells.items()
                }
            return message
        # The real nest: the pieces of the game as recorded.
        letters = dict(position.letters) if position is not None else {}
        return {"type": "table", "cells": letters, "hand": [], "box": []}

    def oled(self, snapshot: Snapshot, *, show_pin: bool = True) -> dict[str, Any]:
        """The OLED; without ``show_pin``, as it would be with the PIN starred out (for a
        page that has not given it)."""
        if not show_pin:
            hidden = snapshot.public_screen
            if self._public_oled is None or self._public_oled[0] != hidden:
                self._public_oled = (hidden, _oled_message(render(hidden), hidden))
            return self._public_oled[1]
        drawn: object = snapshot.oled_frames if snapshot.oled_image is not None else snapshot.screen
        if self._oled is not None and self._oled[0] == drawn:
            return self._oled[1]  # not redrawn since: no new image to encode
        # (No OLED fitted: the page shows what it would say.)
        image = snapshot.oled_image if snapshot.oled_image is not None else render(snapshot.screen)
        message = _oled_message(image, snapshot.screen)
        self._oled = (drawn, message)
        return message

    @staticmethod
    def lights(snapshot: Snapshot) -> dict[str, Any]:
        cells = dict.fromkeys(sorted(snapshot.cell_lights), True)
        return {"type": "lights", "status": snapshot.status_lights, "cells": cells}

    def game(self, snapshot: Snapshot) -> dict[str, Any]:
        """The game as recorded: a move the record has not taken yet (the disk is full,
        the file locked) is among the ``waiting``, never among the ``moves``; its
        position as everybody may see it."""
        game = snapshot.game
        return {
            "type": "game",
            "number": game.number,
            "to_move": game.to_move.label if game.to_move is not None else None,
            "moves": list(game.moves),
            "waiting": list(game.waiting),
            "saved": game.saved,
            "score": list(game.score),
            "position": game.position.text if game.position is not None else "",
            "view": snapshot.view.value,
            "players": {side.label: "computer" if side in game.computers else "human" for side in Side},
            "level": game.level,
            "thinking": game.thinking,
            "computer_move": str(game.computer_move) if game.computer_move is not None else None,
            "clock": list(game.clock) if game.clock is not None else None,
            "buttons": snapshot.buttons,  # what each press and hold means now (daemon/button_meanings.py's table)
        }


def _oled_message(image: Image.Image, screen: Screen) -> dict[str, Any]:
    buffer = io.BytesIO()
    image.convert("1").save(buffer, format="PNG")
    return {
        "type": "oled",
        "png": "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"),
        "headline": screen.headline,
        "lines": list(screen.lines),
        "footer": screen.footer,
        "alert": screen.alert,
    }


# -- the server --------------------------------------------------------------------------------
