"""The other nest's seat (with a ``[broker]``): remote play
(:class:`~firmware_host.daemon.remote_play.RemotePlay`) as one part of the loop. Paired,
the remote side sits at the referee as the computer's does, and its move is handed to
the referee once it wants it; the buttons mean what remote play says first; its status
is what the OLED and the page show of it (:class:`RemoteShown`)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from firmware_host.daemon.buttons import ButtonAction
from firmware_host.daemon.parts.part import Host, Part
from firmware_host.daemon.remote_play import Nest, RemotePlay
from firmware_host.daemon.remote_shown import RemoteShown
from firmware_host.games.base import Position
from firmware_host.remote.kept import kept_path, nest_name


class RemoteSeatPart(Part):
    """Remote play, in the loop."""

    name = "remote"

    def __init__(
        self, host: Host, nest: Nest, *, question_open: Callable[[], bool], remote_nest: str | None = None
    ) -> None:
        self.host = host
        config = host.config
        assert config.broker is not None
        self._question_open = question_open
        self.play = RemotePlay(
            config.game,
            config.broker,
            nest_name=remote_nest or config.remote_nest or nest_name(socket.gethostname()),
            nest=nest,
            kept=kept_path(config.database),
            lineup=config.lineup,
            first_starter=config.referee.first_starter,
            clock=host.clock,
        )
        self._shown: RemoteShown | None = None

    def start(self) -> None:
        # Told the signals after the listeners already subscribed (the page; a
        # benchmark's clock, which so sees a move accepted before it is sent).
        self.host.subscribe(self.play.heard)
        self.play.start()

    def close(self) -> None:
        self.play.close()

    @property
    def is_seated(self) -> bool:
        return self.play.is_paired

    def want(self, position: Position | None) -> None:
        """Nothing to ask: the other nest sends its move when it is made there, and the
        session hands it to the referee in its turn."""

    def pressed(self, action: ButtonAction, now: int) -> bool:
        service = self.host.service
        if service is None or not self.play.button(action, service, now, question_open=self._question_open()):
            return False
        self.turn(now)
        self.host.show()
        return True

    def act(self, kind: str, fields: dict[str, Any]) -> None:
        """A request of the page (:meth:`RemotePlay.act`). Raises
        :class:`~firmware_host.daemon.remote_play.RemotePlayError`."""
        try:
            self.play.act(kind, fields, self.host.service, self.host.now_ms())
        finally:
            self.turn(self.host.now_ms())
            self.host.show()

    def turn(self, now: int) -> None:
        service = self.host.service
        if service is not None and not self.host.paused:
            self.host.publish(self.play.turn(service, now))
        shown = self.play.shown_if_changed()
        if shown is not None and shown != self._shown:
            self._shown = shown
            self.host.show()

    def next_due(self, now: int) -> int | None:
        moment = self.play.next_turn()
        return now + max(0, int((moment - self.host.clock()) * 1000)) if moment is not None else None

    def status(self) -> RemoteShown | None:
        return self._shown
