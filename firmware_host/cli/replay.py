"""``nestref referee``: a sensor log replayed through the referee (docs/sensor-log.md)."""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from firmware_host.cli.game import game_of, result_text, start_of
from firmware_host.errors import NestrefError
from firmware_host.files import reason
from firmware_host.games.base import Game, Position, Side
from firmware_host.recorder.service import RefereeService
from firmware_host.recorder.store import GameStore
from firmware_host.referee.referee import Settings
from firmware_host.referee.sensor_log import SensorLogStream, decoded_lines, stream_sensor_log
from firmware_host.referee.signals import Signal


def run_referee(args: argparse.Namespace, out: TextIO) -> None:
    game = game_of(args)
    try:
        handle = open(args.events, "rb")  # noqa: SIM115  (a context manager just below)
    except OSError as error:
        raise NestrefError(f"{args.events}: cannot read the sensor log: {reason(error)}") from None
    with handle:

        def stream() -> SensorLogStream:
            handle.seek(0)
            return stream_sensor_log(decoded_lines(handle, source=args.events), game=game, source=args.events)

        # The whole file is checked first, line by line, so that a bad line stops the
        # command before anything is refereed; then it is read again and replayed.
        for _ in stream().events:
            pass
        _replay_sensor_log(args, game, stream(), out)


def _replay_sensor_log(args: argparse.Namespace, game: Game, log: SensorLogStream, out: TextIO) -> None:
    if log.setups:
        _replay_from_setups(args, game, log, out)
        return
    if args.position is not None or args.lineup is not None:
        start, label, occupied = start_of(args, game), args.lineup, None
    elif log.start is not None:
        start, label, occupied = log.start, log.start_label, log.occupied
    else:
        label = game.lineups[0]
        start, occupied = game.start(label, Side.RED), log.occupied
    lineup = label if label in game.lineups else game.lineups[0]
    _replay(args, game, log, out, lineup=lineup, occupied=start.pieces() if occupied is None else occupied, start=start)


def _replay_from_setups(args: argparse.Namespace, game: Game, log: SensorLogStream, out: TextIO) -> None:
    """A log of a game whose players set up privately: the nest starts empty (or as its
    ``occupied`` line says), the set-ups are given at 0 ms, the events put the pieces
    down and play the game."""
    missing = [side.label for side in Side if side not in log.setups]
    if missing or args.position is not None or args.lineup is not None:
        raise NestrefError(
            f"{args.events}: a log of players' set-ups needs both 'setup red:' and 'setup blue:' lines"
            f"{' (' + ' and '.join(missing) + ' missing)' if missing else ''}, and no --position or --lineup"
        )
    setups = [log.setups[side] for side in Side]
    occupied = log.occupied or frozenset()
    _replay(args, game, log, out, lineup=game.lineups[0], occupied=occupied, setups=setups, checks=log.checks)


def _replay(
    args: argparse.Namespace,
    game: Game,
    log: SensorLogStream,
    out: TextIO,
    *,
    lineup: str,
    occupied: Iterable[str],
    start: Position | None = None,
    setups: Sequence[object] = (),
    checks: Mapping[Side, int] | None = None,
) -> None:
    settings = Settings(lenient=args.lenient)

    def announce(signal: Signal) -> None:
        print(signal.to_text(), file=out, flush=True)

    # Without --db the record is thrown away: a file of its own, not memory, so that
    # replaying a long log takes no more memory than a short one.
    with contextlib.ExitStack() as stack:
        if args.db is None:
            path, durable = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "replay.sqlite", False
        else:
            path, durable = Path(args.db), True
        store = stack.enter_context(GameStore(path, game=game, clock=time.time, durable=durable))
        service = RefereeService.start(
            game,
            settings=settings,
            store=store,
            announce=announce,
            lineup=lineup,
            occupied=occupied,
            now=0,
            position=start,
            resume=not setups,
        )
        for side, seed in (checks or {}).items():
            service.check_setup(side, 0, seed=seed)
        for setup in setups:
            service.give_setup(setup, 0)
        clock = 0  # the log's time reached so far

        def wait_until(moment: int) -> None:
            nonlocal clock
            if args.speed and moment > clock:
                time.sleep((moment - clock) / 1000 / args.speed)
            clock = max(clock, moment)

        def tick_until(moment: int | None) -> None:
            """Let the referee decide what falls due before ``moment`` (None: ever)."""
            for _ in range(10_000):
                due = service.referee.next_deadline()
                if due is None or (moment is not None and due >= moment):
                    return
                wait_until(due)
                service.tick(due)

        for event in log.events:
            tick_until(event.time_ms)
            wait_until(event.time_ms)
            service.sense(event.cell, event.occupied, event.time_ms)
        tick_until(None)  # after the last line the nest stays as it is
        referee = service.referee
        position = referee.position
        if position is None and setups and game.setups is not None:  # the set-ups never shown: report them
            red, blue = setups
            position = game.setups.start_from_setups(red, blue, referee.starter)
        if position is None:  # waiting for a set-up nest: report the lineup expected
            position = game.start(referee.lineup, referee.starter)
        outcome = referee.outcome if referee.outcome is not None else position.outcome()
        print(position.to_text(), file=out)
        print(f"result: {result_text(outcome)}", file=out)
